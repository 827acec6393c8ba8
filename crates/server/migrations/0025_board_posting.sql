-- Posting limits, and members editing and deleting their own posts (issue 15 §5).

-- Each member's posts by time: the posting limit counts them per minute and per day.
CREATE INDEX posts_author ON posts (author_account, created_ms);

-- A post edited by its author: when last, and how often. The text before each edit is
-- kept in `post_edits` for moderators (a member cannot unsay what others read).
ALTER TABLE posts ADD COLUMN edited_ms BIGINT;
ALTER TABLE posts ADD COLUMN edits BIGINT NOT NULL DEFAULT 0;
-- A post its author deleted: gone from the board and from search, kept for moderators.
ALTER TABLE posts ADD COLUMN deleted_ms BIGINT;
CREATE TABLE post_edits (
    id BIGINT PRIMARY KEY,
    post_id BIGINT NOT NULL REFERENCES posts (id),
    edited_ms BIGINT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX post_edits_post ON post_edits (post_id, edited_ms);
