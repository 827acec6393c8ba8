-- The powers that gave no orders for a phase, as a JSON array of names instead of the
-- names joined by commas: a variant may name a power `A,B`, which the joined list split
-- in two. NULL still means none. The stored lists are rewritten as arrays, split at
-- their commas as they were read before (a name's `\` and `"` escaped for JSON); the
-- same text on both backends, whose strings both take `\` literally.
UPDATE phases SET missing = '["' || replace(replace(replace(missing, '\', '\\'), '"', '\"'), ',', '","') || '"]'
    WHERE missing IS NOT NULL;
UPDATE undone_phases SET missing = '["' || replace(replace(replace(missing, '\', '\\'), '"', '\"'), ',', '","') || '"]'
    WHERE missing IS NOT NULL;
