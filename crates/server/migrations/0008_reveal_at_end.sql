-- An anonymous game may name its players once it has ended, as webDiplomacy's do.
ALTER TABLE games ADD COLUMN reveal_at_end BIGINT NOT NULL DEFAULT 0;
