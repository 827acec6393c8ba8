-- Members following topics of the board (issue 15 §5): a reply mails each follower
-- (through the mail preferences, `board` off by default). A topic's starter follows it
-- without a row; a row with `following` 0 is an unfollow, the starter's too.
-- `notified_ms`: when the last reply mail went, so that a follower gets one mail until
-- they read the topic again (phpBB's rule), not one per reply.
CREATE TABLE topic_follows (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    topic_id BIGINT NOT NULL REFERENCES topics (id),
    following BIGINT NOT NULL,
    since_ms BIGINT NOT NULL,
    notified_ms BIGINT,
    PRIMARY KEY (account_id, topic_id)
);
CREATE INDEX topic_follows_topic ON topic_follows (topic_id);
