-- Deadlines at a fixed time of day in a chosen time zone: each phase's deadline is the
-- first such time at least the phase's length away. Both NULL: the length alone.
ALTER TABLE games ADD COLUMN deadline_time TEXT;
ALTER TABLE games ADD COLUMN time_zone TEXT;
