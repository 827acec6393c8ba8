-- A private message's recipients as rows, one per power, instead of the names joined by
-- commas: a variant may name a power `A,B`, `%` or `_`, and a joined string matched with
-- LIKE lost such a power's messages (a page filled with others' messages that the check
-- in Rust then dropped). `public` marks a message to everyone, which `recipients = '*'`
-- said before, and `to_gm` one to the GM, so that a power a variant names `GM` is a
-- power like any other and reads nothing of the GM's; `ord` keeps the sender's order.
CREATE TABLE press_recipients (
    press_id BIGINT NOT NULL REFERENCES press (id),
    game_id BIGINT NOT NULL,
    power TEXT NOT NULL,
    ord BIGINT NOT NULL,
    PRIMARY KEY (press_id, power)
);
CREATE INDEX press_recipients_power ON press_recipients (game_id, power, press_id);

ALTER TABLE press ADD COLUMN public BIGINT NOT NULL DEFAULT 0;
UPDATE press SET public = 1 WHERE recipients = '*';
ALTER TABLE press ADD COLUMN to_gm BIGINT NOT NULL DEFAULT 0;
UPDATE press SET to_gm = 1 WHERE recipients = 'GM' OR recipients LIKE 'GM,%' OR recipients LIKE '%,GM' OR recipients LIKE '%,GM,%';

-- The stored lists split at their commas (names written before this could not tell a
-- comma in a name from one between names; they are split as the LIKE read them).
INSERT INTO press_recipients (press_id, game_id, power, ord)
    SELECT p.id, p.game_id, r.power, r.ord - 1
    FROM press p, unnest(string_to_array(p.recipients, ',')) WITH ORDINALITY AS r (power, ord)
    WHERE p.recipients <> '*' AND r.power <> '' AND r.power <> 'GM'
    ON CONFLICT DO NOTHING;

ALTER TABLE press DROP COLUMN recipients;
