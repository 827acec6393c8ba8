//! The club's forum: topics and replies in plain text (formatted by
//! [`super::forum_text`]), a thread for each game (for recruiting and end-of-game talk;
//! a game's press stays in the game), pinned announcements, unread marks per member,
//! search, pages. Who may read it is the club's setting ([`moderation::may_read_forum`]);
//! moderators hide posts and pin and lock topics, each action logged.
//!
//! Search is full text on both backends (SQLite's FTS5, PostgreSQL's `tsvector` under a
//! GIN index; migration 0024), ranked, word forms found by each engine's English
//! stemmer; [`super::forum_search`] reads what a member typed and writes it for either
//! engine, so the same words, phrases and exclusions mean the same on both. Hidden
//! posts are never found, and on a members-only forum visitors cannot search.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::forum_search::Search;
use super::forum_text::{self, Block};
use super::mail::{self, Block as MailBlock, Kind};
use super::moderation::{self, is_moderator, refuse_if_suspended, require_moderator};
use crate::clock::iso_utc;
use crate::db::{new_id, Backend};
use crate::error::{ApiError, ApiResult};
use crate::limits::{MAX_POST_CHARS, MAX_SEARCH_CHARS, MAX_TOPIC_TITLE_CHARS};
use crate::model::{Account, AccountId, GameId, ModerationAction, PostId, TopicId};
use crate::store::forum::{self as db, NewPost, NewTopic, PostRow, TopicRow};
use crate::App;

/// Topics on a page of the list.
pub const TOPICS_PER_PAGE: i64 = 30;
/// Posts on a page of a topic.
pub const POSTS_PER_PAGE: i64 = 25;
/// Most results of one search.
pub const SEARCH_RESULTS: i64 = 50;

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 24 * 60 * MINUTE_MS;
/// Posts (topics and replies) a member may write in a minute and in a day: enough for
/// any conversation, too few for a flood. Moderators have no limit.
pub const POSTS_PER_MINUTE: i64 = 5;
pub const POSTS_PER_DAY: i64 = 100;
/// An account younger than [`NEW_ACCOUNT_MS`] has the stricter pair: a spammer's fresh
/// account does little harm before a moderator sees it.
pub const NEW_POSTS_PER_MINUTE: i64 = 2;
pub const NEW_POSTS_PER_DAY: i64 = 20;
pub const NEW_ACCOUNT_MS: i64 = 3 * DAY_MS;
/// How long after writing a post its author may edit it (phpBB's "edit time", set):
/// long enough to mend a slip, short enough that the thread others answered stays
/// what they read. Deleting is allowed only until someone replies after the post, as
/// phpBB lets a member delete only a topic's last post: a reply never loses what it
/// answered.
pub const EDIT_WINDOW_MS: i64 = 60 * MINUTE_MS;

/// What a game's thread says it is for, on the thread and in its first line in the forum.
pub const GAME_THREAD_NOTE: &str = "This thread is for recruiting players and for talk after the game has ended. \
     It is not press: whatever is written here is read by everyone who may read the forum, and the rules of the \
     game's press do not reach it. Negotiate in the game's own press.";

/// A page number from a query (`?page=N`, from 1). Other parameters are ignored, as
/// every page ignores them: a link with `?utm_source=…` still opens.
#[derive(Deserialize, IntoParams, Default)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// From 1 (the default).
    #[serde(default)]
    pub page: Option<i64>,
}

fn pages_of(total: i64, per: i64) -> i64 {
    ((total + per - 1) / per).max(1)
}

fn check_page(page: Option<i64>, pages: i64) -> ApiResult<i64> {
    let page = page.unwrap_or(1);
    if page < 1 || page > pages {
        return Err(ApiError::not_found(format!("there are pages 1 to {pages}")));
    }
    Ok(page)
}

/// A topic in the list.
#[derive(Serialize, ToSchema)]
pub struct TopicSummary {
    #[schema(value_type = i64)]
    pub id: TopicId,
    /// For a game's thread, the game's name.
    pub title: String,
    pub author: String,
    /// The game whose thread this is.
    #[schema(value_type = Option<i64>)]
    pub game: Option<GameId>,
    pub pinned: bool,
    pub locked: bool,
    pub posts: i64,
    /// When the last post was written (the topic's start, with none), ISO 8601 UTC.
    pub last_post: String,
    /// A post written since the reader last read the topic (always false for visitors).
    pub unread: bool,
}

fn summary(t: TopicRow, reader: Option<&Account>) -> TopicSummary {
    TopicSummary {
        unread: reader.is_some() && t.posts > 0 && t.read_ms.is_none_or(|r| r < t.last_post_ms),
        id: t.id,
        title: t.title,
        author: t.author,
        game: t.game_id,
        pinned: t.pinned,
        locked: t.locked,
        posts: t.posts,
        last_post: iso_utc(t.last_post_ms),
    }
}

/// A page of the forum's topics.
#[derive(Serialize, ToSchema)]
pub struct TopicList {
    pub topics: Vec<TopicSummary>,
    pub page: i64,
    pub pages: i64,
    /// The reader is a moderator (the pages offer the tools).
    pub moderator: bool,
}

pub async fn list(app: &App, viewer: Option<&Account>, page: Option<i64>) -> ApiResult<TopicList> {
    moderation::may_read_forum(&app.db, viewer).await?;
    let pages = pages_of(db::count(&app.db.read).await?, TOPICS_PER_PAGE);
    let page = check_page(page, pages)?;
    let reader = viewer.map(|a| a.id);
    let topics = db::page(&app.db.read, reader, (page - 1) * TOPICS_PER_PAGE, TOPICS_PER_PAGE)
        .await?
        .into_iter()
        .map(|t| summary(t, viewer))
        .collect();
    Ok(TopicList {
        topics,
        page,
        pages,
        moderator: is_moderator(&app.db, viewer).await?,
    })
}

/// A post as the reader may see it.
#[derive(Serialize, ToSchema)]
pub struct PostView {
    #[schema(value_type = i64)]
    pub id: PostId,
    pub author: String,
    /// ISO 8601 UTC.
    pub written: String,
    /// The text as written; null when hidden from this reader.
    pub body: Option<String>,
    /// The text formatted: paragraphs, quotes and links (empty when hidden).
    pub blocks: Vec<Block>,
    /// Hidden by a moderator: only moderators read it.
    pub hidden: bool,
    /// Moderators only: who hid it and why.
    pub hidden_by: Option<String>,
    pub hidden_reason: Option<String>,
    /// Written since the reader last read the topic.
    pub unread: bool,
    /// When its author last edited it (ISO 8601 UTC), if ever, and how many times.
    pub edited: Option<String>,
    pub edits: i64,
    /// Moderators only: the texts it had before each edit, oldest first.
    pub versions: Vec<Version>,
    /// The reader wrote it and may still edit it / delete it now.
    pub can_edit: bool,
    pub can_delete: bool,
}

/// A post's text before an edit.
#[derive(Serialize, ToSchema)]
pub struct Version {
    /// When it was replaced, ISO 8601 UTC.
    pub replaced: String,
    pub body: String,
}

fn post_view(p: PostRow, moderator: bool, read_ms: Option<i64>, member: bool) -> PostView {
    let hidden = p.hidden_ms.is_some();
    let shown = !hidden || moderator;
    PostView {
        edited: p.edited_ms.map(iso_utc),
        edits: p.edits,
        versions: Vec::new(),
        can_edit: false,
        can_delete: false,
        id: p.id,
        unread: member && read_ms.is_none_or(|r| r < p.created_ms),
        author: p.author,
        written: iso_utc(p.created_ms),
        blocks: if shown { forum_text::format(&p.body) } else { Vec::new() },
        body: shown.then_some(p.body),
        hidden,
        hidden_by: if moderator { p.hidden_by } else { None },
        hidden_reason: if moderator { p.hidden_reason } else { None },
    }
}

/// A topic with a page of its posts.
#[derive(Serialize, ToSchema)]
pub struct TopicView {
    #[schema(value_type = i64)]
    pub id: TopicId,
    pub title: String,
    pub author: String,
    #[schema(value_type = Option<i64>)]
    pub game: Option<GameId>,
    /// For a game's thread: what it is for (and that it is not press).
    pub note: Option<String>,
    pub pinned: bool,
    pub locked: bool,
    pub posts: Vec<PostView>,
    pub page: i64,
    pub pages: i64,
    /// Whether the reader may reply now (a member, not suspended; an open topic, or a
    /// moderator).
    pub can_reply: bool,
    /// Why not, when a member may not.
    pub why_not: Option<String>,
    pub moderator: bool,
    /// For a member: whether they follow the topic and its replies reach their mail.
    pub following: Option<Following>,
}

/// A topic and one page of its posts (by default the page of the reader's first
/// unread post); reading it marks it read up to its last post.
/// That topic `id` is there for `viewer` to read (401 on a members-only forum for a
/// visitor, 404 for no such topic), for an old address to lead on only where the new
/// one shows something.
pub async fn check_topic(app: &App, viewer: Option<&Account>, id: TopicId) -> ApiResult<()> {
    moderation::may_read_forum(&app.db, viewer).await?;
    let reader = viewer.map(|a| a.id);
    db::topic(&app.db.read, reader, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no topic {id}")))?;
    Ok(())
}

pub async fn topic(app: &App, viewer: Option<&Account>, id: TopicId, page: Option<i64>) -> ApiResult<TopicView> {
    moderation::may_read_forum(&app.db, viewer).await?;
    let reader = viewer.map(|a| a.id);
    let t = db::topic(&app.db.read, reader, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no topic {id}")))?;
    let pages = pages_of(t.posts, POSTS_PER_PAGE);
    let page = match (page, viewer, t.read_ms) {
        (Some(p), _, _) => check_page(Some(p), pages)?,
        // A member coming back starts where they stopped reading.
        (None, Some(_), Some(read)) => {
            (db::posts_before(&app.db.read, id, read + 1).await? / POSTS_PER_PAGE + 1).min(pages)
        }
        _ => 1,
    };
    let moderator = is_moderator(&app.db, viewer).await?;
    let rows = db::posts(&app.db.read, id, (page - 1) * POSTS_PER_PAGE, POSTS_PER_PAGE).await?;
    let last_shown = rows.last().map(|p| p.created_ms);
    let last_of_topic = if page == pages { rows.last().map(|p| p.id) } else { None };
    let now = app.clock.now_ms();
    let suspended = match viewer {
        Some(a) => moderation::is_suspended(app, a.id).await?,
        None => false,
    };
    let mut posts = Vec::new();
    for p in rows {
        let own = viewer.is_some_and(|a| a.name == p.author) && !suspended && !t.locked && p.hidden_ms.is_none();
        let (written, id, edits) = (p.created_ms, p.id, p.edits);
        let mut view = post_view(p, moderator, t.read_ms, viewer.is_some());
        view.can_edit = own && now - written < EDIT_WINDOW_MS;
        view.can_delete = own && last_of_topic == Some(id);
        if moderator && edits > 0 {
            view.versions = db::versions(&app.db.read, id)
                .await?
                .into_iter()
                .map(|v| Version {
                    replaced: iso_utc(v.replaced_ms),
                    body: v.body,
                })
                .collect();
        }
        posts.push(view);
    }
    let why_not = match viewer {
        None => Some("log in to reply".to_string()),
        Some(a) => match refuse_if_suspended(app, a).await {
            Err(e) => Some(e.message),
            Ok(()) if t.locked && !moderator => Some("a moderator has locked this topic".to_string()),
            Ok(()) => None,
        },
    };
    if let Some(a) = viewer {
        // Read up to the newest post shown (a later page stays unread).
        // Written only when it moves: a member rereading a topic costs no write.
        if let Some(ms) = last_shown.filter(|ms| t.read_ms.is_none_or(|r| r < *ms)) {
            db::mark_read(&app.db.write, a.id, id, ms).await?;
        }
    }
    Ok(TopicView {
        id: t.id,
        title: t.title,
        author: t.author,
        game: t.game_id,
        note: t.game_id.map(|_| GAME_THREAD_NOTE.to_string()),
        pinned: t.pinned,
        locked: t.locked,
        posts,
        page,
        pages,
        can_reply: why_not.is_none(),
        why_not,
        moderator,
        following: match viewer {
            Some(a) => Some(following(app, a, id).await?),
            None => None,
        },
    })
}

fn check_body(body: &str) -> ApiResult<&str> {
    let body = body.trim_end();
    if body.trim().is_empty() || body.chars().count() > MAX_POST_CHARS {
        return Err(
            ApiError::unprocessable(format!("a post has 1 to {MAX_POST_CHARS} characters"))
                .with(serde_json::json!({"field": "body"})),
        );
    }
    Ok(body)
}

/// A new topic.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"title": "Players wanted: 1936, weekly deadlines", "body": "Seven seats, Sunday deadlines at 20:00 UTC.\n\nRules: https://example.org/1936"}))]
pub struct NewTopicRequest {
    /// 3 to 120 characters.
    pub title: String,
    /// The first post: 1 to 10,000 characters of plain text.
    pub body: String,
}

/// A post written: where it is.
#[derive(Serialize, ToSchema)]
pub struct Written {
    #[schema(value_type = i64)]
    pub topic: TopicId,
    #[schema(value_type = i64)]
    pub post: PostId,
    /// The page of the topic it is on.
    pub page: i64,
}

pub async fn create_topic(app: &App, account: &Account, t: NewTopicRequest) -> ApiResult<Written> {
    refuse_if_suspended(app, account).await?;
    let title = t.title.trim();
    let n = title.chars().count();
    if !(3..=MAX_TOPIC_TITLE_CHARS).contains(&n) {
        return Err(
            ApiError::unprocessable(format!("a topic's title has 3 to {MAX_TOPIC_TITLE_CHARS} characters"))
                .with(serde_json::json!({"field": "title"})),
        );
    }
    let body = check_body(&t.body)?;
    let moderator = is_moderator(&app.db, Some(account)).await?;
    let now = app.clock.now_ms();
    let (topic, post) = (TopicId(new_id()), PostId(new_id()));
    let mut tx = app.db.write.begin().await?;
    if !moderator {
        posting_limit(&mut tx, account, now).await?;
    }
    db::insert_topic(
        &mut *tx,
        &NewTopic {
            id: topic,
            title,
            author: account.id,
            game_id: None,
            created_ms: now,
        },
    )
    .await?;
    db::insert_post(
        &mut tx,
        &NewPost {
            id: post,
            topic_id: topic,
            author: account.id,
            body,
            created_ms: now,
        },
    )
    .await?;
    db::mark_read(&mut *tx, account.id, topic, now).await?;
    tx.commit().await?;
    Ok(Written { topic, post, page: 1 })
}

/// 429 when the member has written their posts for this minute or this day (counted in
/// the post's transaction, so two posts at once cannot both slip through on SQLite's
/// one writer), with `Retry-After`: when the oldest post in the window leaves it.
async fn posting_limit(tx: &mut crate::db::Tx, account: &Account, now: i64) -> ApiResult<()> {
    let created = db::account_created(&mut **tx, account.id).await?.unwrap_or(now);
    let new = now - created < NEW_ACCOUNT_MS;
    let (per_minute, per_day) = if new {
        (NEW_POSTS_PER_MINUTE, NEW_POSTS_PER_DAY)
    } else {
        (POSTS_PER_MINUTE, POSTS_PER_DAY)
    };
    for (window, most, what) in [(MINUTE_MS, per_minute, "a minute"), (DAY_MS, per_day, "a day")] {
        let written = db::posts_since(&mut **tx, account.id, now - window).await?;
        if written.count >= most {
            let wait_ms = written.oldest_ms.unwrap_or(now) + window - now;
            let seconds = ((wait_ms + 999) / 1000).max(1) as u64;
            let wait = if seconds < 120 {
                format!("{seconds} seconds")
            } else if seconds < 2 * 3600 {
                format!("{} minutes", seconds.div_ceil(60))
            } else {
                format!("{} hours", seconds.div_ceil(3600))
            };
            let whose = if new {
                format!(" (an account under {} days old)", NEW_ACCOUNT_MS / DAY_MS)
            } else {
                String::new()
            };
            return Err(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                format!("you may write {most} posts in {what}{whose}; you can post again in {wait}"),
            )
            .with(serde_json::json!({"retry_after": seconds, "per": what}))
            .retry_after(seconds));
        }
    }
    Ok(())
}

/// A reply.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"body": "> Seven seats, Sunday deadlines\nCount me in, as Italy if I may."}))]
pub struct Reply {
    /// 1 to 10,000 characters of plain text; lines starting with `>` are a quote.
    pub body: String,
}

pub async fn reply(app: &App, account: &Account, topic: TopicId, r: Reply) -> ApiResult<Written> {
    refuse_if_suspended(app, account).await?;
    let body = check_body(&r.body)?;
    let moderator = is_moderator(&app.db, Some(account)).await?;
    let now = app.clock.now_ms();
    let post = PostId(new_id());
    let mut tx = app.db.write.begin().await?;
    let db::LockedTopic {
        locked,
        author,
        game_id: game,
    } = db::lock(&mut *tx, app.db.backend == Backend::Postgres, topic)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no topic {topic}")))?;
    if locked && !moderator {
        return Err(ApiError::conflict("a moderator has locked this topic: no more replies"));
    }
    if !moderator {
        posting_limit(&mut tx, account, now).await?;
    }
    db::insert_post(
        &mut tx,
        &NewPost {
            id: post,
            topic_id: topic,
            author: account.id,
            body,
            created_ms: now,
        },
    )
    .await?;
    db::mark_read(&mut *tx, account.id, topic, now).await?;
    let before = db::posts_before(&mut *tx, topic, now).await?;
    mail_reply(&mut tx, app, account, topic, author, game, post, body).await?;
    tx.commit().await?;
    Ok(Written {
        topic,
        post,
        page: before / POSTS_PER_PAGE + 1,
    })
}

/// Mails a reply to the topic's followers (its starter unless they unfollowed it, and
/// whoever follows it), in the reply's transaction, each only when they have chosen the
/// kind (off by default) and have a working address, and only once until they read the
/// topic again. The mail carries the reply as written, which they may read in the forum.
#[allow(clippy::too_many_arguments)]
async fn mail_reply(
    tx: &mut crate::db::Tx,
    app: &App,
    account: &Account,
    topic: TopicId,
    starter: AccountId,
    game: Option<GameId>,
    post: PostId,
    body: &str,
) -> ApiResult<()> {
    let followers = db::to_notify(&mut **tx, topic, account.id).await?;
    if followers.is_empty() {
        return Ok(());
    }
    let title = db::topic(&mut **tx, None, topic)
        .await?
        .map(|t| t.title)
        .unwrap_or_default();
    let now = app.clock.now_ms();
    for follower in followers {
        let whose = if follower == starter {
            format!("your topic \u{201c}{title}\u{201d}")
        } else {
            format!("\u{201c}{title}\u{201d}, a topic you follow,")
        };
        let blocks = [
            MailBlock::Para(format!("{} replied to {whose} in the club's forum:", account.name)),
            MailBlock::Lines(body.lines().map(str::to_string).collect()),
            MailBlock::Link {
                label: "Read it in the forum and reply".into(),
                url: format!("{}/forum/posts/{post}", app.mailer.base_url),
            },
            MailBlock::Para(
                "Until you read the topic again, further replies are not mailed. To stop these mails for this topic, \
                 unfollow it on its page."
                    .into(),
            ),
        ];
        let sent = mail::to_account(
            tx,
            app,
            follower,
            game,
            Kind::Forum,
            format!("{} replied to \u{201c}{title}\u{201d}", account.name),
            &blocks,
        )
        .await?;
        if sent {
            db::notified(&mut **tx, follower, topic, now).await?;
        }
    }
    Ok(())
}

/// Following a topic or not.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"following": true}))]
pub struct Follow {
    pub following: bool,
}

/// Whether the member follows a topic now, and whether its replies will be mailed.
#[derive(Serialize, ToSchema)]
pub struct Following {
    #[schema(value_type = i64)]
    pub topic: TopicId,
    pub following: bool,
    /// Replies reach the member's mail: following, with a confirmed address and the
    /// kind `forum` chosen in the mail preferences.
    pub mailed: bool,
}

/// A member follows a topic (its replies are then mailed to them, as the mail
/// preferences allow) or stops following it (a starter too: their own topic is followed
/// until they unfollow it).
pub async fn follow(app: &App, account: &Account, topic: TopicId, f: Follow) -> ApiResult<Following> {
    moderation::may_read_forum(&app.db, Some(account)).await?;
    db::topic(&app.db.read, None, topic)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no topic {topic}")))?;
    db::set_following(&app.db.write, account.id, topic, f.following, app.clock.now_ms()).await?;
    following(app, account, topic).await
}

/// Whether the member follows the topic, and whether its replies are mailed to them.
pub async fn following(app: &App, account: &Account, topic: TopicId) -> ApiResult<Following> {
    let following = db::follows(&app.db.read, account.id, topic).await?;
    let mailed = following && mail::reader(app, account.id, None, Kind::Forum).await?.is_some();
    Ok(Following {
        topic,
        following,
        mailed,
    })
}

/// A post's new text.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"body": "Count me in, as Italy if I may (edit: or Austria)."}))]
pub struct Edit {
    /// 1 to 10,000 characters of plain text.
    pub body: String,
}

/// The checks an author's edit or deletion passes: their own post, not hidden by a
/// moderator, in an open topic, and the account not suspended. Returns the post.
async fn own_post(app: &App, tx: &mut crate::db::Tx, account: &Account, post: PostId) -> ApiResult<db::PostOwner> {
    let p = db::owner(&mut **tx, post)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no post {post}")))?;
    if p.author != account.id {
        return Err(ApiError::forbidden("only its author can change a post"));
    }
    let topic = db::lock(&mut **tx, app.db.backend == Backend::Postgres, p.topic_id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no post {post}")))?;
    if topic.locked {
        return Err(ApiError::conflict(
            "a moderator has locked this topic: its posts stay as they are",
        ));
    }
    if p.hidden {
        return Err(ApiError::conflict(
            "a moderator has hidden this post: it stays as it is",
        ));
    }
    Ok(p)
}

/// The author edits their post, within [`EDIT_WINDOW_MS`] of writing it; the text
/// before is kept for moderators and the edit logged. The post then says "edited".
pub async fn edit(app: &App, account: &Account, post: PostId, e: Edit) -> ApiResult<PostView> {
    refuse_if_suspended(app, account).await?;
    let body = check_body(&e.body)?;
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    let p = own_post(app, &mut tx, account, post).await?;
    if now - p.created_ms >= EDIT_WINDOW_MS {
        return Err(ApiError::conflict(format!(
            "a post can be edited for {} minutes after it is written; write a reply instead",
            EDIT_WINDOW_MS / MINUTE_MS
        )));
    }
    let before = db::post(&mut *tx, post)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no post {post}")))?;
    if before.body == body {
        return Err(ApiError::conflict("the text is the same as before"));
    }
    db::edit(&mut tx, post, new_id(), body, now).await?;
    moderation::log(
        &mut *tx,
        now,
        Some(account),
        ModerationAction::Edit,
        &format!("post {post} by {} in topic {}", account.name, p.topic_id),
        &format!(
            "edited by its author; before: {}",
            forum_text::excerpt(&before.body, 300)
        ),
    )
    .await?;
    let after = db::post(&mut *tx, post)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no post {post}")))?;
    tx.commit().await?;
    Ok(post_view(after, false, None, false))
}

/// A post deleted.
#[derive(Serialize, ToSchema)]
pub struct Deleted {
    #[schema(value_type = i64)]
    pub post: PostId,
    #[schema(value_type = i64)]
    pub topic: TopicId,
}

/// The author deletes their post while no one has replied after it. It leaves the
/// forum, the search and the feed; moderators read it in the log.
pub async fn delete(app: &App, account: &Account, post: PostId) -> ApiResult<Deleted> {
    refuse_if_suspended(app, account).await?;
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    let p = own_post(app, &mut tx, account, post).await?;
    if db::posts_after(&mut *tx, p.topic_id, p.created_ms, post).await? > 0 {
        return Err(ApiError::conflict(
            "someone has replied after this post, so it stays: a reply never loses what it answered",
        ));
    }
    let body = db::post(&mut *tx, post).await?.map(|p| p.body).unwrap_or_default();
    db::delete(&mut tx, post, p.topic_id, now).await?;
    moderation::log(
        &mut *tx,
        now,
        Some(account),
        ModerationAction::Delete,
        &format!("post {post} by {} in topic {}", account.name, p.topic_id),
        &format!("deleted by its author: {body}"),
    )
    .await?;
    tx.commit().await?;
    Ok(Deleted {
        post,
        topic: p.topic_id,
    })
}

/// The thread of a game (every game has one, made with it).
pub async fn game_thread(app: &App, viewer: Option<&Account>, game: GameId) -> ApiResult<TopicId> {
    moderation::may_read_forum(&app.db, viewer).await?;
    db::game_topic(&app.db.read, game)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {game}")))
}

/// Where a post is read: its topic, and the page of the topic it falls on.
pub struct PostPlace {
    pub topic: TopicId,
    pub page: i64,
}

/// Where post `id` is read, for a link to it that outlives new replies.
pub async fn place_of(app: &App, viewer: Option<&Account>, id: PostId) -> ApiResult<PostPlace> {
    moderation::may_read_forum(&app.db, viewer).await?;
    let post = db::post(&app.db.read, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no post {id}")))?;
    let before = db::posts_before(&app.db.read, post.topic_id, post.created_ms).await?;
    Ok(PostPlace {
        topic: post.topic_id,
        page: before / POSTS_PER_PAGE + 1,
    })
}

/// Makes a game's thread, in the transaction that creates the game.
pub async fn create_game_thread(
    tx: &mut crate::db::Tx,
    game: GameId,
    name: &str,
    gm: AccountId,
    now_ms: i64,
) -> ApiResult<()> {
    db::insert_topic(
        &mut **tx,
        &NewTopic {
            id: TopicId(new_id()),
            title: name,
            author: gm,
            game_id: Some(game),
            created_ms: now_ms,
        },
    )
    .await?;
    Ok(())
}

/// A game renamed by its GM: its thread takes the new name, and search finds it by
/// that name alone. In the transaction that renames the game.
pub async fn rename_game_thread(tx: &mut crate::db::Tx, game: GameId, name: &str) -> ApiResult<()> {
    db::retitle_game_topic(tx, game, name).await?;
    Ok(())
}

/// A moderator's decision on a post.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"hidden": true, "reason": "insults"}))]
pub struct Hide {
    pub hidden: bool,
    /// Why (required to hide; 1 to 500 characters), shown to moderators and logged.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A moderator hides a post (or shows it again).
pub async fn hide(app: &App, account: &Account, post: PostId, h: Hide) -> ApiResult<PostView> {
    require_moderator(&app.db, account).await?;
    let reason = h.reason.as_deref().map(str::trim).unwrap_or("");
    if h.hidden && (reason.is_empty() || reason.chars().count() > crate::limits::MAX_MODERATION_REASON_CHARS) {
        return Err(ApiError::unprocessable(format!(
            "hiding a post needs a `reason` of 1 to {} characters",
            crate::limits::MAX_MODERATION_REASON_CHARS
        )));
    }
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    let p = db::post(&mut *tx, post)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no post {post}")))?;
    if p.hidden_ms.is_some() == h.hidden {
        return Err(ApiError::conflict(if h.hidden {
            "the post is already hidden"
        } else {
            "the post is not hidden"
        }));
    }
    db::set_hidden(&mut *tx, post, h.hidden.then_some((account.id, reason)), now).await?;
    let target = format!("post {post} by {} in topic {}", p.author, p.topic_id);
    let (action, detail) = if h.hidden {
        (ModerationAction::Hide, reason.to_string())
    } else {
        (ModerationAction::Show, "shown again".to_string())
    };
    moderation::log(&mut *tx, now, Some(account), action, &target, &detail).await?;
    let p = db::post(&mut *tx, post)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no post {post}")))?;
    tx.commit().await?;
    Ok(post_view(p, true, None, false))
}

/// A moderator's change to a topic: pin it, lock it, or undo either.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"locked": true}))]
pub struct TopicChange {
    /// Pinned topics come first in the list (announcements).
    #[serde(default)]
    pub pinned: Option<bool>,
    /// A locked topic takes no more replies (but from moderators).
    #[serde(default)]
    pub locked: Option<bool>,
}

/// A topic's flags after a change.
#[derive(Serialize, ToSchema)]
pub struct TopicFlags {
    #[schema(value_type = i64)]
    pub id: TopicId,
    pub pinned: bool,
    pub locked: bool,
}

pub async fn change_topic(app: &App, account: &Account, id: TopicId, c: TopicChange) -> ApiResult<TopicFlags> {
    require_moderator(&app.db, account).await?;
    if c.pinned.is_none() && c.locked.is_none() {
        return Err(ApiError::unprocessable("give `pinned`, `locked` or both"));
    }
    let now = app.clock.now_ms();
    let mut tx = app.db.write.begin().await?;
    db::lock(&mut *tx, app.db.backend == Backend::Postgres, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no topic {id}")))?;
    let t = db::topic(&mut *tx, None, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no topic {id}")))?;
    let target = format!("topic {id} \u{201c}{}\u{201d}", t.title);
    if let Some(p) = c.pinned.filter(|p| *p != t.pinned) {
        db::set_flag(&mut *tx, id, true, p).await?;
        let (action, detail) = if p {
            (ModerationAction::Pin, "pinned as an announcement")
        } else {
            (ModerationAction::Unpin, "no longer pinned")
        };
        moderation::log(&mut *tx, now, Some(account), action, &target, detail).await?;
    }
    if let Some(l) = c.locked.filter(|l| *l != t.locked) {
        db::set_flag(&mut *tx, id, false, l).await?;
        let (action, detail) = if l {
            (ModerationAction::Lock, "locked: no more replies")
        } else {
            (ModerationAction::Unlock, "open to replies again")
        };
        moderation::log(&mut *tx, now, Some(account), action, &target, detail).await?;
    }
    tx.commit().await?;
    Ok(TopicFlags {
        id,
        pinned: c.pinned.unwrap_or(t.pinned),
        locked: c.locked.unwrap_or(t.locked),
    })
}

/// A search.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// 3 to 100 characters: words (each must be found, in any of its forms), `"a
    /// phrase"`, `or` between two terms, `-word` to leave out.
    #[param(min_length = 3, max_length = 100)]
    pub q: String,
}

/// A post found.
#[derive(Serialize, ToSchema)]
pub struct Found {
    #[schema(value_type = i64)]
    pub topic: TopicId,
    pub title: String,
    #[schema(value_type = i64)]
    pub post: PostId,
    pub author: String,
    /// ISO 8601 UTC.
    pub written: String,
    /// The start of the post, on one line.
    pub excerpt: String,
    /// The page of the topic the post is on.
    pub page: i64,
}

/// What a search found, best match first.
#[derive(Serialize, ToSchema)]
pub struct SearchResults {
    pub query: String,
    pub found: Vec<Found>,
    /// More posts matched than are listed.
    pub more: bool,
}

pub async fn search(app: &App, viewer: Option<&Account>, q: &str) -> ApiResult<SearchResults> {
    moderation::may_read_forum(&app.db, viewer).await?;
    let query = q.trim();
    let n = query.chars().count();
    if !(3..=MAX_SEARCH_CHARS).contains(&n) {
        return Err(
            ApiError::unprocessable(format!("a search has 3 to {MAX_SEARCH_CHARS} characters"))
                .with(serde_json::json!({"field": "q"})),
        );
    }
    let parsed = Search::parse(query)?;
    let postgres = app.db.backend == Backend::Postgres;
    let text = if postgres { parsed.tsquery() } else { parsed.fts5() };
    let rows = db::search(&app.db.read, postgres, &text, SEARCH_RESULTS + 1).await?;
    let more = rows.len() as i64 > SEARCH_RESULTS;
    let found = rows
        .into_iter()
        .take(SEARCH_RESULTS as usize)
        .map(|hit| Found {
            topic: hit.post.topic_id,
            title: hit.title,
            post: hit.post.id,
            author: hit.post.author,
            written: iso_utc(hit.post.created_ms),
            excerpt: forum_text::excerpt(&hit.post.body, 200),
            page: hit.before / POSTS_PER_PAGE + 1,
        })
        .collect();
    Ok(SearchResults {
        query: query.to_string(),
        found,
        more,
    })
}

/// A post for the forum's feed: the whole text, as written.
pub struct FeedPost {
    pub post: PostId,
    pub title: String,
    pub author: String,
    pub written_ms: i64,
    pub body: String,
}

/// The newest visible posts, for the forum's feed (on a members-only forum, members only).
pub async fn newest(app: &App, viewer: Option<&Account>, limit: i64) -> ApiResult<Vec<FeedPost>> {
    moderation::may_read_forum(&app.db, viewer).await?;
    Ok(db::newest(&app.db.read, limit)
        .await?
        .into_iter()
        .map(|db::TitledPost { post: p, title }| FeedPost {
            post: p.id,
            title,
            author: p.author,
            written_ms: p.created_ms,
            body: p.body,
        })
        .collect())
}
