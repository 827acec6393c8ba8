-- Bots in seats (issue 22 §4): a power played by the server's bot (crates/bot) instead
-- of an account. A row per seat, kept when it ends (`active` 0), so that history and
-- the records can say where a bot played; one active bot per power.
CREATE TABLE bots (
    id BIGINT PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    power TEXT NOT NULL,
    level TEXT NOT NULL,
    active BIGINT NOT NULL,
    since_seq BIGINT NOT NULL,
    seated_ms BIGINT NOT NULL,
    left_ms BIGINT
);
CREATE UNIQUE INDEX bots_one_seat ON bots (game_id, power) WHERE active = 1;
CREATE INDEX bots_active ON bots (active, game_id);

-- A bot's turn in a phase: claimed by one server under the game's lock (`server`,
-- `claimed_ms`; a claim older than the lease is taken over, for a server that died
-- mid-decision), then done (`done_ms`, and what came of it). The primary key makes the
-- decision of a phase happen once across servers.
CREATE TABLE bot_turns (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    power TEXT NOT NULL,
    server TEXT NOT NULL,
    claimed_ms BIGINT NOT NULL,
    done_ms BIGINT,
    outcome TEXT,
    PRIMARY KEY (game_id, seq, power)
);

-- A game whose vacant seats bots take when it starts (the creation form's choice).
CREATE TABLE bot_fill (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    level TEXT NOT NULL
);
