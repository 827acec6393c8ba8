-- The club's message board and its moderators (issue 15 §5).

-- Club roles: an account listed here is a moderator. The first is set from the command
-- line (`--moderator NAME`), the rest by moderators; `granted_by` is NULL for the
-- command line.
CREATE TABLE club_roles (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
    role TEXT NOT NULL,
    granted_by BIGINT,
    granted_ms BIGINT NOT NULL
);

-- A suspended account may read but not post, order, bid or send press until
-- `until_ms` (NULL: until a moderator lifts it).
CREATE TABLE suspensions (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
    reason TEXT NOT NULL,
    by_account BIGINT NOT NULL REFERENCES accounts (id),
    since_ms BIGINT NOT NULL,
    until_ms BIGINT
);

-- The club's settings, one row each (`board_visibility`: `public` or `members`;
-- `game_creation`: `members` or `moderators`); without a row, the default holds.
CREATE TABLE club_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- A topic of the board; `game_id` set for a game's own thread (one per game). Its
-- counts and last post are kept on the row so that the list is one indexed read.
CREATE TABLE topics (
    id BIGINT PRIMARY KEY,
    title TEXT NOT NULL,
    author_account BIGINT NOT NULL REFERENCES accounts (id),
    game_id BIGINT,
    pinned BIGINT NOT NULL,
    locked BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_post_ms BIGINT NOT NULL,
    posts BIGINT NOT NULL
);
CREATE UNIQUE INDEX topics_game ON topics (game_id);
CREATE INDEX topics_listed ON topics (pinned, last_post_ms);

-- A post: plain text as written (formatted when shown, never stored as HTML). A hidden
-- post stays, for the moderation log, but only moderators read it.
CREATE TABLE posts (
    id BIGINT PRIMARY KEY,
    topic_id BIGINT NOT NULL REFERENCES topics (id),
    author_account BIGINT NOT NULL REFERENCES accounts (id),
    body TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    hidden_ms BIGINT,
    hidden_by BIGINT,
    hidden_reason TEXT
);
CREATE INDEX posts_topic ON posts (topic_id, created_ms);
CREATE INDEX posts_created ON posts (created_ms);

-- When each member last read each topic: posts after it are unread.
CREATE TABLE topic_reads (
    account_id BIGINT NOT NULL,
    topic_id BIGINT NOT NULL,
    read_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, topic_id)
);

-- Every moderation action: who, when, what, to what, and the moderator's words.
CREATE TABLE moderation_log (
    id BIGINT PRIMARY KEY,
    at_ms BIGINT NOT NULL,
    moderator BIGINT,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX moderation_log_at ON moderation_log (at_ms);

-- Games created before the board get their thread now (a game's id serves as its
-- topic's: both are random 53-bit numbers and no topic exists yet).
INSERT INTO topics (id, title, author_account, game_id, pinned, locked, created_ms, last_post_ms, posts)
SELECT id, name, gm_id, id, 0, 0, created_ms, created_ms, 0 FROM games;
