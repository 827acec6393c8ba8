-- Mail (issue 15), second part: each account's time zone and digest choice, each game's
-- reminder times, and the reminders sent.

-- An account's time zone (an IANA name; NULL for UTC), in which mails give times beside
-- UTC, and whether it wants one mail a day instead of single mails.
CREATE TABLE mail_options (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
    time_zone TEXT,
    digest BIGINT NOT NULL DEFAULT 0
);

-- The minutes before a deadline at which a game's players who have given no orders are
-- reminded, comma-separated ("1440,120"; "" for none), as its GM set them; without a
-- row, 24 hours and 2 hours.
CREATE TABLE mail_reminder_times (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    minutes TEXT NOT NULL
);

-- Each reminder sent, written in the transaction that writes its mails: the key makes
-- a reminder once per phase, deadline and reminder time, across restarts and servers.
CREATE TABLE mail_reminders_sent (
    game_id BIGINT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    deadline_ms BIGINT NOT NULL,
    minutes BIGINT NOT NULL,
    sent_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq, deadline_ms, minutes)
);
