-- Chancery's club schema. One file serves SQLite and PostgreSQL: only BIGINT and TEXT
-- columns, identifiers made by the server, times as milliseconds since 1970 UTC.

CREATE TABLE accounts (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- Only a SHA-256 of each session token is kept, so a copy of the database opens no session.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE TABLE games (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    variant TEXT NOT NULL,
    variant_text TEXT,
    gm_id BIGINT NOT NULL REFERENCES accounts (id),
    status TEXT NOT NULL,
    press TEXT NOT NULL,
    grey_press BIGINT NOT NULL,
    anonymous BIGINT NOT NULL,
    movement_minutes BIGINT NOT NULL,
    retreat_minutes BIGINT NOT NULL,
    adjustment_minutes BIGINT NOT NULL,
    start_at_ms BIGINT,
    seq BIGINT NOT NULL,
    state_json TEXT NOT NULL,
    deadline_ms BIGINT,
    paused_left_ms BIGINT,
    outcome TEXT,
    created_ms BIGINT NOT NULL
);
CREATE INDEX games_due ON games (status, deadline_ms);

CREATE TABLE members (
    id BIGINT PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    role TEXT NOT NULL,
    power TEXT,
    active BIGINT NOT NULL,
    joined_ms BIGINT NOT NULL,
    left_ms BIGINT
);
CREATE UNIQUE INDEX members_one_player ON members (game_id, power) WHERE active = 1 AND role = 'player';
CREATE INDEX members_account ON members (account_id);

CREATE TABLE disorder (
    game_id BIGINT NOT NULL REFERENCES games (id),
    power TEXT NOT NULL,
    since_seq BIGINT NOT NULL,
    PRIMARY KEY (game_id, power)
);

CREATE TABLE orders (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    power TEXT NOT NULL,
    unit_key TEXT NOT NULL,
    text TEXT NOT NULL,
    submitted_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq, power, unit_key)
);

CREATE TABLE ready (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    power TEXT NOT NULL,
    PRIMARY KEY (game_id, seq, power)
);

-- One row per processed phase; the primary key is what makes processing happen once.
CREATE TABLE phases (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    phase TEXT NOT NULL,
    state_json TEXT NOT NULL,
    result_json TEXT NOT NULL,
    processed_ms BIGINT NOT NULL,
    how TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Results taken back by a GM's rollback, kept so that a roll forward can restore them.
CREATE TABLE undone_phases (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    phase TEXT NOT NULL,
    state_json TEXT NOT NULL,
    result_json TEXT NOT NULL,
    processed_ms BIGINT NOT NULL,
    how TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE events (
    id BIGINT PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    phase TEXT NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL,
    server TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX events_game ON events (game_id, at_ms);

CREATE TABLE press (
    id BIGINT PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    phase TEXT NOT NULL,
    sender_account BIGINT NOT NULL REFERENCES accounts (id),
    sender_power TEXT,
    from_gm BIGINT NOT NULL,
    grey BIGINT NOT NULL,
    recipients TEXT NOT NULL,
    body TEXT NOT NULL,
    sent_ms BIGINT NOT NULL
);
CREATE INDEX press_game ON press (game_id, sent_ms);

-- Diplomacy Points bids: secret to the bidding power and the GM, never published.
CREATE TABLE bids (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    power TEXT NOT NULL,
    minor TEXT NOT NULL,
    points BIGINT NOT NULL,
    submitted_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq, power, minor)
);
