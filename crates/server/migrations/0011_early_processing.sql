-- Whether the last ready mark processes a phase before its deadline (1, as before) or
-- the game always waits for the deadline (0): the GM's choice, per game.
ALTER TABLE games ADD COLUMN process_when_ready BIGINT NOT NULL DEFAULT 1;
