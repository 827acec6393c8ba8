-- Each processed phase's whole judgement as the engine returned it (`PhaseResult`: the
-- position judged, every order with its outcome, rule 8's orphaned factions, the next
-- position), so that history pages and map images draw from it and never judge again.
-- Stored as the JSON of an optional result: SQL NULL means a phase processed before
-- this column existed and not yet converted (the server converts those once when it
-- starts, `history::convert_stored_results`); the JSON `null` means one whose orders
-- could not be drawn again then, so it is shown without arrows.
ALTER TABLE phases ADD COLUMN judged_json TEXT;
ALTER TABLE undone_phases ADD COLUMN judged_json TEXT;
