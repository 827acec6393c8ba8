-- Board search on a large board (issue 15 §5), SQLite: the FTS5 index holds only the
-- posts a search may find (neither hidden by a moderator nor deleted by their author),
-- so that FTS5 ranks the matches and cuts them to a page inside the index, before any
-- join to the posts (`ORDER BY rank LIMIT n`). Before, every match was joined to its
-- post, author and topic, its text read and sorted, and only then cut: a word in a
-- third of 100,000 posts took most of a second. The rank is bm25 with a word of the
-- title counting four times one of the text, as the query asked for before.

DROP TRIGGER posts_fts_insert;
DROP TRIGGER posts_fts_update;
INSERT INTO posts_fts (posts_fts) VALUES ('delete-all');
INSERT INTO posts_fts (rowid, topic_title, body)
    SELECT id, topic_title, body FROM posts WHERE hidden_ms IS NULL AND deleted_ms IS NULL;
INSERT INTO posts_fts (posts_fts, rank) VALUES ('rank', 'bm25(4.0, 1.0)');

CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts
    WHEN new.hidden_ms IS NULL AND new.deleted_ms IS NULL BEGIN
    INSERT INTO posts_fts (rowid, topic_title, body) VALUES (new.id, new.topic_title, new.body);
END;
CREATE TRIGGER posts_fts_update AFTER UPDATE OF body, topic_title, hidden_ms, deleted_ms ON posts BEGIN
    DELETE FROM posts_fts WHERE rowid = old.id;
    INSERT INTO posts_fts (rowid, topic_title, body)
        SELECT new.id, new.topic_title, new.body WHERE new.hidden_ms IS NULL AND new.deleted_ms IS NULL;
END;
