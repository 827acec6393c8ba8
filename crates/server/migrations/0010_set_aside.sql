-- Orders and bids taken off a phase but kept (issue 14, finding 8): those of the phases a
-- GM's rollback took back (`why` 'rollback'), and those a civil-disorder declaration
-- removed ('disorder'). A roll forward that restores a phase's old result puts the next
-- phase's back, since that phase is then the one they were given for; a phase judged
-- anew forgets them (the GM's event log keeps their text).
CREATE TABLE set_aside_orders (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    power TEXT NOT NULL,
    unit_key TEXT NOT NULL,
    text TEXT NOT NULL,
    submitted_ms BIGINT NOT NULL,
    why TEXT NOT NULL,
    PRIMARY KEY (game_id, seq, power, unit_key)
);

CREATE TABLE set_aside_bids (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    power TEXT NOT NULL,
    unit_key TEXT NOT NULL,
    dp BIGINT NOT NULL,
    text TEXT NOT NULL,
    submitted_ms BIGINT NOT NULL,
    why TEXT NOT NULL,
    PRIMARY KEY (game_id, seq, power, unit_key)
);
