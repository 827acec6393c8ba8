//! `topics`, `posts`, `topic_reads`: the club's forum.

use crate::model::{AccountId, GameId, PostId, TopicId};
use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

use super::flag;

/// A topic to store.
pub struct NewTopic<'a> {
    pub id: TopicId,
    pub title: &'a str,
    pub author: AccountId,
    /// Set for a game's own thread.
    pub game_id: Option<GameId>,
    pub created_ms: i64,
}

pub async fn insert_topic<'e, E: Executor<'e, Database = Any>>(e: E, t: &NewTopic<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO topics (id, title, author_account, game_id, pinned, locked, created_ms, last_post_ms, posts)
         VALUES ($1, $2, $3, $4, 0, 0, $5, $5, 0)",
    )
    .bind(t.id)
    .bind(t.title)
    .bind(t.author)
    .bind(t.game_id)
    .bind(t.created_ms)
    .execute(e)
    .await?;
    Ok(())
}

/// A topic as listed and shown. `title` is the game's current name for a game's thread.
pub struct TopicRow {
    pub id: TopicId,
    pub title: String,
    pub author: String,
    pub game_id: Option<GameId>,
    pub pinned: bool,
    pub locked: bool,
    pub created_ms: i64,
    pub last_post_ms: i64,
    pub posts: i64,
    /// When the reader last read it; None if never (or no reader).
    pub read_ms: Option<i64>,
}

const TOPIC_COLUMNS: &str = "t.id, COALESCE(g.name, t.title) AS title, a.name AS author, t.game_id, t.pinned, t.locked, t.created_ms, t.last_post_ms, t.posts, r.read_ms";
const TOPIC_JOINS: &str = "topics t JOIN accounts a ON a.id = t.author_account LEFT JOIN games g ON g.id = t.game_id
     LEFT JOIN topic_reads r ON r.topic_id = t.id AND r.account_id = $1";

fn topic_row(r: &AnyRow) -> sqlx::Result<TopicRow> {
    Ok(TopicRow {
        id: r.try_get("id")?,
        title: r.try_get("title")?,
        author: r.try_get("author")?,
        game_id: r.try_get("game_id")?,
        pinned: flag(r, "pinned")?,
        locked: flag(r, "locked")?,
        created_ms: r.try_get("created_ms")?,
        last_post_ms: r.try_get("last_post_ms")?,
        posts: r.try_get("posts")?,
        read_ms: r.try_get("read_ms")?,
    })
}

/// One page of topics, pinned first, then the most recently answered; `reader` (None
/// for a visitor, who has read nothing) for the unread marks. Topics with no post are left out: game threads no
/// one has written in yet (each game links its own, so that a club of many games is not
/// a wall of empty threads) and topics whose only post its author deleted.
pub async fn page<'e, E: Executor<'e, Database = Any>>(
    e: E,
    reader: Option<AccountId>,
    offset: i64,
    limit: i64,
) -> sqlx::Result<Vec<TopicRow>> {
    let sql = format!(
        "SELECT {TOPIC_COLUMNS} FROM {TOPIC_JOINS} WHERE t.posts > 0
         ORDER BY t.pinned DESC, t.last_post_ms DESC, t.id DESC LIMIT $2 OFFSET $3"
    );
    sqlx::query(&sql)
        .bind(reader)
        .bind(limit)
        .bind(offset)
        .fetch_all(e)
        .await?
        .iter()
        .map(topic_row)
        .collect()
}

/// How many topics [`page`] lists in all.
pub async fn count<'e, E: Executor<'e, Database = Any>>(e: E) -> sqlx::Result<i64> {
    sqlx::query("SELECT COUNT(*) AS n FROM topics WHERE posts > 0")
        .fetch_one(e)
        .await?
        .try_get("n")
}

pub async fn topic<'e, E: Executor<'e, Database = Any>>(
    e: E,
    reader: Option<AccountId>,
    id: TopicId,
) -> sqlx::Result<Option<TopicRow>> {
    let sql = format!("SELECT {TOPIC_COLUMNS} FROM {TOPIC_JOINS} WHERE t.id = $2");
    sqlx::query(&sql)
        .bind(reader)
        .bind(id)
        .fetch_optional(e)
        .await?
        .as_ref()
        .map(topic_row)
        .transpose()
}

/// The thread of a game, if it has one.
pub async fn game_topic<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Option<TopicId>> {
    sqlx::query("SELECT id FROM topics WHERE game_id = $1")
        .bind(game)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("id"))
        .transpose()
}

/// Gives a game's thread the game's new name: on the topic, and on the post that
/// carries the title into the search index (its first; see migration 0024), so that a
/// search finds the thread by its new name and no longer by the old. On SQLite the
/// index's trigger re-indexes that post; on PostgreSQL its generated column is computed
/// again.
pub async fn retitle_game_topic(
    tx: &mut sqlx::Transaction<'static, Any>,
    game: GameId,
    title: &str,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE topics SET title = $2 WHERE game_id = $1")
        .bind(game)
        .bind(title)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE posts SET topic_title = $2
         WHERE topic_title IS NOT NULL AND topic_id = (SELECT id FROM topics WHERE game_id = $1)",
    )
    .bind(game)
    .bind(title)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A topic as its lock reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockedTopic {
    /// Locked by a moderator: no more replies.
    pub locked: bool,
    /// The account that started it.
    pub author: AccountId,
    /// The game whose thread it is, if it is one.
    pub game_id: Option<GameId>,
}

/// Locks the topic's row for a post or a moderator's change (PostgreSQL: `FOR UPDATE`;
/// on SQLite the transaction's first write holds the database's lock, so a no-op update
/// takes it first) and reads whether it is locked and who started it.
pub async fn lock<'e, E: Executor<'e, Database = Any>>(
    e: E,
    postgres: bool,
    id: TopicId,
) -> sqlx::Result<Option<LockedTopic>> {
    let sql = if postgres {
        "SELECT locked, author_account, game_id FROM topics WHERE id = $1 FOR UPDATE"
    } else {
        "UPDATE topics SET locked = locked WHERE id = $1 RETURNING locked, author_account, game_id"
    };
    sqlx::query(sql)
        .bind(id)
        .fetch_optional(e)
        .await?
        .map(|r| {
            Ok(LockedTopic {
                locked: flag(&r, "locked")?,
                author: r.try_get("author_account")?,
                game_id: r.try_get("game_id")?,
            })
        })
        .transpose()
}

/// A post to store.
pub struct NewPost<'a> {
    pub id: PostId,
    pub topic_id: TopicId,
    pub author: AccountId,
    pub body: &'a str,
    pub created_ms: i64,
}

/// Stores a post and moves its topic's count and last post.
pub async fn insert_post(tx: &mut sqlx::Transaction<'static, Any>, p: &NewPost<'_>) -> sqlx::Result<()> {
    // The topic's title goes with its first post, for search (see migration 0024).
    sqlx::query(
        "INSERT INTO posts (id, topic_id, author_account, body, created_ms, topic_title)
         VALUES ($1, $2, $3, $4, $5, (SELECT title FROM topics WHERE id = $2 AND posts = 0))",
    )
    .bind(p.id)
    .bind(p.topic_id)
    .bind(p.author)
    .bind(p.body)
    .bind(p.created_ms)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE topics SET posts = posts + 1, last_post_ms = $2 WHERE id = $1")
        .bind(p.topic_id)
        .bind(p.created_ms)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A stored post with its author's name.
pub struct PostRow {
    pub id: PostId,
    pub topic_id: TopicId,
    pub author: String,
    pub body: String,
    pub created_ms: i64,
    pub hidden_ms: Option<i64>,
    pub hidden_by: Option<String>,
    pub hidden_reason: Option<String>,
    /// When its author last edited it, and how many times.
    pub edited_ms: Option<i64>,
    pub edits: i64,
}

fn post_row(r: &AnyRow) -> sqlx::Result<PostRow> {
    Ok(PostRow {
        id: r.try_get("id")?,
        topic_id: r.try_get("topic_id")?,
        author: r.try_get("author")?,
        body: r.try_get("body")?,
        created_ms: r.try_get("created_ms")?,
        hidden_ms: r.try_get("hidden_ms")?,
        hidden_by: r.try_get("hidden_by")?,
        hidden_reason: r.try_get("hidden_reason")?,
        edited_ms: r.try_get("edited_ms")?,
        edits: r.try_get("edits")?,
    })
}

const POST_SELECT: &str =
    "SELECT p.id, p.topic_id, a.name AS author, p.body, p.created_ms, p.hidden_ms, h.name AS hidden_by, p.hidden_reason, p.edited_ms, p.edits
     FROM posts p JOIN accounts a ON a.id = p.author_account LEFT JOIN accounts h ON h.id = p.hidden_by";

/// One page of a topic's posts, oldest first (those deleted by their authors left out).
pub async fn posts<'e, E: Executor<'e, Database = Any>>(
    e: E,
    topic: TopicId,
    offset: i64,
    limit: i64,
) -> sqlx::Result<Vec<PostRow>> {
    let sql = format!(
        "{POST_SELECT} WHERE p.topic_id = $1 AND p.deleted_ms IS NULL ORDER BY p.created_ms, p.id LIMIT $2 OFFSET $3"
    );
    sqlx::query(&sql)
        .bind(topic)
        .bind(limit)
        .bind(offset)
        .fetch_all(e)
        .await?
        .iter()
        .map(post_row)
        .collect()
}

/// A post its author has not deleted.
pub async fn post<'e, E: Executor<'e, Database = Any>>(e: E, id: PostId) -> sqlx::Result<Option<PostRow>> {
    let sql = format!("{POST_SELECT} WHERE p.id = $1 AND p.deleted_ms IS NULL");
    sqlx::query(&sql)
        .bind(id)
        .fetch_optional(e)
        .await?
        .as_ref()
        .map(post_row)
        .transpose()
}

/// How many of the topic's posts come before `created_ms` (for the page a post is on).
pub async fn posts_before<'e, E: Executor<'e, Database = Any>>(
    e: E,
    topic: TopicId,
    created_ms: i64,
) -> sqlx::Result<i64> {
    sqlx::query("SELECT COUNT(*) AS n FROM posts WHERE topic_id = $1 AND created_ms < $2 AND deleted_ms IS NULL")
        .bind(topic)
        .bind(created_ms)
        .fetch_one(e)
        .await?
        .try_get("n")
}

/// Hides a post (`Some(reason)`) or shows it again (`None`).
pub async fn set_hidden<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: PostId,
    hidden: Option<(AccountId, &str)>,
    now_ms: i64,
) -> sqlx::Result<u64> {
    let r = match hidden {
        Some((by, reason)) => {
            sqlx::query("UPDATE posts SET hidden_ms = $2, hidden_by = $3, hidden_reason = $4 WHERE id = $1")
                .bind(id)
                .bind(now_ms)
                .bind(by)
                .bind(reason)
                .execute(e)
                .await?
        }
        None => {
            sqlx::query("UPDATE posts SET hidden_ms = NULL, hidden_by = NULL, hidden_reason = NULL WHERE id = $1")
                .bind(id)
                .execute(e)
                .await?
        }
    };
    Ok(r.rows_affected())
}

/// Sets a topic's `pinned` or `locked` flag.
pub async fn set_flag<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: TopicId,
    pinned: bool,
    on: bool,
) -> sqlx::Result<u64> {
    let sql = if pinned {
        "UPDATE topics SET pinned = $2 WHERE id = $1"
    } else {
        "UPDATE topics SET locked = $2 WHERE id = $1"
    };
    Ok(sqlx::query(sql)
        .bind(id)
        .bind(on as i64)
        .execute(e)
        .await?
        .rows_affected())
}

/// Records that `account` has read the topic up to `ms` (never moving back).
pub async fn mark_read<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    topic: TopicId,
    ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO topic_reads (account_id, topic_id, read_ms) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, topic_id) DO UPDATE SET read_ms = excluded.read_ms
         WHERE topic_reads.read_ms < excluded.read_ms",
    )
    .bind(account)
    .bind(topic)
    .bind(ms)
    .execute(e)
    .await?;
    Ok(())
}

/// A post a search found: the post, its topic's title, and how many of the topic's posts
/// come before it (for the page it is on).
pub struct Hit {
    pub post: PostRow,
    pub title: String,
    pub before: i64,
}

/// Visible posts that match a full-text search, best first, at most `limit`: `query` is
/// an FTS5 query on SQLite ([`crate::services::forum_search::Search::fts5`]), a
/// `to_tsquery` text on PostgreSQL ([`crate::services::forum_search::Search::tsquery`]).
/// Each engine walks its index (FTS5's, the partial GIN index of `posts.search`; both
/// hold visible posts only, migration 0027) and ranks the matches, and only the page
/// kept is joined to its authors and topics and has its place in the topic counted: on
/// a forum of 100,000 posts a common word matches tens of thousands.
pub async fn search<'e, E: Executor<'e, Database = Any>>(
    e: E,
    postgres: bool,
    query: &str,
    limit: i64,
) -> sqlx::Result<Vec<Hit>> {
    const COLUMNS: &str = "p.id, p.topic_id, a.name AS author, p.body, p.created_ms, p.hidden_ms, NULL AS hidden_by, p.hidden_reason, p.edited_ms, p.edits, COALESCE(g.name, t.title) AS title,
         (SELECT COUNT(*) FROM posts b WHERE b.topic_id = p.topic_id AND b.created_ms < p.created_ms AND b.deleted_ms IS NULL) AS before";
    const JOINS: &str = "JOIN posts p ON p.id = f.id JOIN topics t ON t.id = p.topic_id JOIN accounts a ON a.id = p.author_account LEFT JOIN games g ON g.id = t.game_id";
    let best = if postgres {
        // ts_rank_cd: terms close together (a phrase) rank higher; the title's weight A
        // above the text's B. Ties: the newer first.
        "SELECT id, ts_rank_cd(search, q) AS score FROM posts, to_tsquery('english', $1) q
         WHERE search @@ q AND hidden_ms IS NULL AND deleted_ms IS NULL
         ORDER BY score DESC, created_ms DESC, id DESC LIMIT $2"
    } else {
        // `rank` is bm25 with the title's words counting four times (migration 0027),
        // lower for a better match; FTS5 keeps only the best `limit` as it ranks.
        "SELECT rowid AS id, -rank AS score FROM posts_fts WHERE posts_fts MATCH $1 ORDER BY rank LIMIT $2"
    };
    let sql = format!(
        "SELECT {COLUMNS} FROM ({best}) f {JOINS}
         WHERE p.hidden_ms IS NULL AND p.deleted_ms IS NULL
         ORDER BY f.score DESC, p.created_ms DESC, p.id DESC"
    );
    sqlx::query(&sql)
        .bind(query)
        .bind(limit)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(Hit {
                post: post_row(r)?,
                title: r.try_get("title")?,
                before: r.try_get("before")?,
            })
        })
        .collect()
}

/// A post with the title of its topic (a game's thread: the game's name).
pub struct TitledPost {
    pub post: PostRow,
    pub title: String,
}

/// The newest visible posts of the forum, for its feed.
pub async fn newest<'e, E: Executor<'e, Database = Any>>(e: E, limit: i64) -> sqlx::Result<Vec<TitledPost>> {
    let sql = "SELECT p.id, p.topic_id, a.name AS author, p.body, p.created_ms, p.hidden_ms, NULL AS hidden_by, p.hidden_reason, p.edited_ms, p.edits, COALESCE(g.name, t.title) AS title
         FROM posts p JOIN topics t ON t.id = p.topic_id JOIN accounts a ON a.id = p.author_account LEFT JOIN games g ON g.id = t.game_id
         WHERE p.hidden_ms IS NULL AND p.deleted_ms IS NULL ORDER BY p.created_ms DESC, p.id DESC LIMIT $1";
    sqlx::query(sql)
        .bind(limit)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(TitledPost {
                post: post_row(r)?,
                title: r.try_get("title")?,
            })
        })
        .collect()
}

/// Posts counted over a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    pub count: i64,
    /// When the oldest of them was written; None when there is none.
    pub oldest_ms: Option<i64>,
}

/// How many posts `author` has written since `since_ms` (deleted ones too: deleting does
/// not give a post back), and when the oldest of them was written.
pub async fn posts_since<'e, E: Executor<'e, Database = Any>>(
    e: E,
    author: AccountId,
    since_ms: i64,
) -> sqlx::Result<Written> {
    let r = sqlx::query(
        "SELECT COUNT(*) AS n, MIN(created_ms) AS oldest FROM posts WHERE author_account = $1 AND created_ms > $2",
    )
    .bind(author)
    .bind(since_ms)
    .fetch_one(e)
    .await?;
    Ok(Written {
        count: r.try_get("n")?,
        oldest_ms: r.try_get("oldest")?,
    })
}

/// When the account was registered.
pub async fn account_created<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
) -> sqlx::Result<Option<i64>> {
    sqlx::query("SELECT created_ms FROM accounts WHERE id = $1")
        .bind(account)
        .fetch_optional(e)
        .await?
        .map(|r| r.try_get("created_ms"))
        .transpose()
}

/// The post's author, topic, when written, and whether hidden, for an edit or a
/// deletion (None: no such post, or deleted).
pub struct PostOwner {
    pub author: AccountId,
    pub topic_id: TopicId,
    pub created_ms: i64,
    pub hidden: bool,
}

pub async fn owner<'e, E: Executor<'e, Database = Any>>(e: E, id: PostId) -> sqlx::Result<Option<PostOwner>> {
    sqlx::query(
        "SELECT author_account, topic_id, created_ms, hidden_ms FROM posts WHERE id = $1 AND deleted_ms IS NULL",
    )
    .bind(id)
    .fetch_optional(e)
    .await?
    .map(|r| {
        Ok(PostOwner {
            author: r.try_get("author_account")?,
            topic_id: r.try_get("topic_id")?,
            created_ms: r.try_get("created_ms")?,
            hidden: r.try_get::<Option<i64>, _>("hidden_ms")?.is_some(),
        })
    })
    .transpose()
}

/// How many posts of the topic (not deleted) come after the post: replies to it.
pub async fn posts_after<'e, E: Executor<'e, Database = Any>>(
    e: E,
    topic: TopicId,
    created_ms: i64,
    id: PostId,
) -> sqlx::Result<i64> {
    sqlx::query(
        "SELECT COUNT(*) AS n FROM posts WHERE topic_id = $1 AND deleted_ms IS NULL
         AND (created_ms > $2 OR (created_ms = $2 AND id > $3))",
    )
    .bind(topic)
    .bind(created_ms)
    .bind(id)
    .fetch_one(e)
    .await?
    .try_get("n")
}

/// Replaces a post's text, keeping the text before in `post_edits`.
pub async fn edit(
    tx: &mut sqlx::Transaction<'static, Any>,
    id: PostId,
    version_id: i64,
    body: &str,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO post_edits (id, post_id, edited_ms, body) SELECT $1, id, $2, body FROM posts WHERE id = $3",
    )
    .bind(version_id)
    .bind(now_ms)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE posts SET body = $2, edited_ms = $3, edits = edits + 1 WHERE id = $1")
        .bind(id)
        .bind(body)
        .bind(now_ms)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Marks a post deleted by its author and takes it off its topic's count; the topic's
/// last post is the newest left (or its start, with none).
pub async fn delete(
    tx: &mut sqlx::Transaction<'static, Any>,
    id: PostId,
    topic: TopicId,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE posts SET deleted_ms = $2 WHERE id = $1")
        .bind(id)
        .bind(now_ms)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE topics SET posts = posts - 1, last_post_ms = COALESCE(
             (SELECT MAX(p.created_ms) FROM posts p WHERE p.topic_id = topics.id AND p.deleted_ms IS NULL), created_ms)
         WHERE id = $1",
    )
    .bind(topic)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// A text a post had before an edit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostVersion {
    /// When the edit replaced it.
    pub replaced_ms: i64,
    pub body: String,
}

/// The texts a post had before each edit, oldest first.
pub async fn versions<'e, E: Executor<'e, Database = Any>>(e: E, post: PostId) -> sqlx::Result<Vec<PostVersion>> {
    sqlx::query("SELECT edited_ms, body FROM post_edits WHERE post_id = $1 ORDER BY edited_ms, id")
        .bind(post)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(PostVersion {
                replaced_ms: r.try_get("edited_ms")?,
                body: r.try_get("body")?,
            })
        })
        .collect()
}

/// Follows (`true`) or unfollows a topic.
pub async fn set_following<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    topic: TopicId,
    following: bool,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO topic_follows (account_id, topic_id, following, since_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, topic_id) DO UPDATE SET following = excluded.following, since_ms = excluded.since_ms",
    )
    .bind(account)
    .bind(topic)
    .bind(following as i64)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(())
}

/// Whether `account` follows the topic (its starter does, until they unfollow it).
pub async fn follows<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    topic: TopicId,
) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "SELECT t.author_account, f.following FROM topics t
         LEFT JOIN topic_follows f ON f.topic_id = t.id AND f.account_id = $1 WHERE t.id = $2",
    )
    .bind(account)
    .bind(topic)
    .fetch_optional(e)
    .await?;
    Ok(match r {
        None => false,
        Some(r) => match r.try_get::<Option<i64>, _>("following")? {
            Some(f) => f != 0,
            None => r.try_get::<AccountId, _>("author_account")? == account,
        },
    })
}

/// The followers a reply by `writer` should mail now: following the topic (its starter
/// unless unfollowed), not the writer, and not mailed since they last read it.
pub async fn to_notify<'e, E: Executor<'e, Database = Any>>(
    e: E,
    topic: TopicId,
    writer: AccountId,
) -> sqlx::Result<Vec<AccountId>> {
    sqlx::query(
        "SELECT x.account_id FROM (
             SELECT account_id FROM topic_follows WHERE topic_id = $1 AND following = 1
             UNION
             SELECT t.author_account AS account_id FROM topics t WHERE t.id = $1
                 AND NOT EXISTS (SELECT 1 FROM topic_follows f WHERE f.topic_id = t.id AND f.account_id = t.author_account)
         ) x
         LEFT JOIN topic_follows f ON f.topic_id = $1 AND f.account_id = x.account_id
         LEFT JOIN topic_reads r ON r.topic_id = $1 AND r.account_id = x.account_id
         WHERE x.account_id <> $2 AND (f.notified_ms IS NULL OR r.read_ms >= f.notified_ms)
         ORDER BY x.account_id",
    )
    .bind(topic)
    .bind(writer)
    .fetch_all(e)
    .await?
    .iter()
    .map(|r| r.try_get("account_id"))
    .collect()
}

/// Records that `account` was mailed a reply in the topic at `now_ms` (a starter without
/// a row gets one, following).
pub async fn notified<'e, E: Executor<'e, Database = Any>>(
    e: E,
    account: AccountId,
    topic: TopicId,
    now_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO topic_follows (account_id, topic_id, following, since_ms, notified_ms) VALUES ($1, $2, 1, $3, $3)
         ON CONFLICT (account_id, topic_id) DO UPDATE SET notified_ms = excluded.notified_ms",
    )
    .bind(account)
    .bind(topic)
    .bind(now_ms)
    .execute(e)
    .await?;
    Ok(())
}
