-- Mail (issue 15), third part: press mailed in batches.

-- A game with press not yet looked at by the press mail pass; `touches` counts the
-- messages since, so that the pass unmarks the game only if none came while it ran.
CREATE TABLE mail_press_pending (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    first_ms BIGINT NOT NULL,
    touches BIGINT NOT NULL
);

-- Up to which message time each reader was mailed a game's press, and when the last
-- such mail was written (one per batch time at most).
CREATE TABLE mail_press_marks (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    game_id BIGINT NOT NULL REFERENCES games (id),
    upto_ms BIGINT NOT NULL,
    mailed_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
