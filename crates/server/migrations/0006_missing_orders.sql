-- The powers that had a decision to make in a phase and gave no orders by its
-- processing (comma-separated; NULL: none, or a phase processed before this was kept).
ALTER TABLE phases ADD COLUMN missing TEXT;
ALTER TABLE undone_phases ADD COLUMN missing TEXT;
