-- The processed phases whose map a mail shows, as a JSON array of `[game, seq]` pairs
-- instead of `GAME:SEQ` joined by spaces, so that the store reads them in one place
-- into typed pairs. NULL still means none. The stored lists are rewritten (they were
-- only ever written as numbers joined by `:` and single spaces); the same text on
-- both backends.
UPDATE outbox SET maps = '[[' || replace(replace(maps, ':', ','), ' ', '],[') || ']]'
    WHERE maps IS NOT NULL AND maps <> '';
UPDATE outbox SET maps = NULL WHERE maps = '';
