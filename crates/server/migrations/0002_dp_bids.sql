-- Diplomacy Points bids carry an order for one minor unit (the engine's rule 3 and 4),
-- not points per minor power. Bids under the first shape named no order, so nothing in
-- them can be carried over: the table is made anew.
DROP TABLE bids;

-- One row per bid: a power's DPs on one minor unit (unit_key: its province, lower-case
-- abbreviation) with the order it asks of that unit, in the engine's notation. Secret
-- to the bidding power and the GM, never published.
CREATE TABLE bids (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    power TEXT NOT NULL,
    unit_key TEXT NOT NULL,
    dp BIGINT NOT NULL,
    text TEXT NOT NULL,
    submitted_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq, power, unit_key)
);

-- The GM's report on how the phase's bids were resolved (who bid what, totals, void
-- bids); NULL for phases without bidding. Kept beside the result, never inside it.
ALTER TABLE phases ADD COLUMN bid_report TEXT;
ALTER TABLE undone_phases ADD COLUMN bid_report TEXT;
