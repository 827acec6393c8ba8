-- Full-text search of the board (issue 15 §5), SQLite: an FTS5 index of every post,
-- kept in step with `posts` by triggers. The Porter stemmer on Unicode words (accents
-- folded) lets `armies` find `army`. Contentless (`content=''`): the text is in
-- `posts` already, the index holds only its terms; `contentless_delete` lets a
-- trigger drop a post's terms when it is edited.

-- The topic's title, on its first post only, so that a title is found once (as its
-- topic's opening post), not on every reply.
ALTER TABLE posts ADD COLUMN topic_title TEXT;
UPDATE posts SET topic_title = (SELECT t.title FROM topics t WHERE t.id = posts.topic_id)
WHERE NOT EXISTS (SELECT 1 FROM posts o WHERE o.topic_id = posts.topic_id
    AND (o.created_ms < posts.created_ms OR (o.created_ms = posts.created_ms AND o.id < posts.id)));

CREATE VIRTUAL TABLE posts_fts USING fts5(topic_title, body, content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO posts_fts (rowid, topic_title, body) SELECT id, topic_title, body FROM posts;

CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts BEGIN
    INSERT INTO posts_fts (rowid, topic_title, body) VALUES (new.id, new.topic_title, new.body);
END;
CREATE TRIGGER posts_fts_update AFTER UPDATE OF body, topic_title ON posts BEGIN
    DELETE FROM posts_fts WHERE rowid = old.id;
    INSERT INTO posts_fts (rowid, topic_title, body) VALUES (new.id, new.topic_title, new.body);
END;
CREATE TRIGGER posts_fts_delete AFTER DELETE ON posts BEGIN
    DELETE FROM posts_fts WHERE rowid = old.id;
END;
