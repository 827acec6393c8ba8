-- Mail (issue 15): each account's address, its preferences, and the outbox.

-- One address per account. `confirm_hash` is a SHA-256 of the token the confirmation
-- link carries; `unsubscribe_key` is the secret in the account's unsubscribe links (it
-- names the account and allows nothing but turning mail off). `bounced` holds the mail
-- server's answer when it refused the address permanently; nothing more is sent to it.
CREATE TABLE mail_addresses (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
    address TEXT NOT NULL,
    confirmed BIGINT NOT NULL,
    confirm_hash TEXT NOT NULL,
    unsubscribe_key TEXT NOT NULL UNIQUE,
    bounced TEXT,
    bounced_ms BIGINT,
    updated_ms BIGINT NOT NULL
);

-- A kind of mail turned on or off, for all games (game_id 0) or one game; without a
-- row, a kind's default holds.
CREATE TABLE mail_prefs (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    game_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    enabled BIGINT NOT NULL,
    PRIMARY KEY (account_id, game_id, kind)
);

-- Each mail, written in the transaction of the event that causes it and composed then,
-- so that a mail says what its reader could see at that moment. The sender claims a row
-- (PostgreSQL: FOR UPDATE SKIP LOCKED, held while sending; SQLite: a lease), sends it,
-- and sets `sent_ms`; a temporary failure moves `due_ms` on, a permanent one sets
-- `failed`.
CREATE TABLE outbox (
    id BIGINT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    address TEXT NOT NULL,
    game_id BIGINT,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    message_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    due_ms BIGINT NOT NULL,
    attempts BIGINT NOT NULL,
    leased_until_ms BIGINT,
    sent_ms BIGINT,
    sent_by TEXT,
    failed TEXT,
    last_error TEXT
);
CREATE INDEX outbox_due ON outbox (due_ms) WHERE sent_ms IS NULL AND failed IS NULL;
CREATE INDEX outbox_account ON outbox (account_id, created_ms);
