-- Board search on a large board (issue 15 §5), PostgreSQL: the GIN index of the posts'
-- terms covers only the posts a search may find (neither hidden by a moderator nor
-- deleted by their author), the same rows the search asks for.

CREATE INDEX posts_search_visible ON posts USING GIN (search) WHERE hidden_ms IS NULL AND deleted_ms IS NULL;
DROP INDEX posts_search;
