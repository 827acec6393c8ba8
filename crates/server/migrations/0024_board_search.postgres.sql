-- Full-text search of the board (issue 15 §5), PostgreSQL: each post's terms in a
-- generated `tsvector` column (the `english` configuration's Snowball stemmer, so that
-- `armies` finds `army`; the title weighted above the text) under a GIN index. A
-- generated column is computed by the database on every insert and edit, so it can
-- never fall out of step with the text.

-- The topic's title, on its first post only, so that a title is found once (as its
-- topic's opening post), not on every reply.
ALTER TABLE posts ADD COLUMN topic_title TEXT;
UPDATE posts SET topic_title = (SELECT t.title FROM topics t WHERE t.id = posts.topic_id)
WHERE NOT EXISTS (SELECT 1 FROM posts o WHERE o.topic_id = posts.topic_id
    AND (o.created_ms < posts.created_ms OR (o.created_ms = posts.created_ms AND o.id < posts.id)));

ALTER TABLE posts ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, COALESCE(topic_title, '')), 'A')
    || setweight(to_tsvector('english'::regconfig, body), 'B')) STORED;
CREATE INDEX posts_search ON posts USING GIN (search);
