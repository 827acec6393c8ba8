//! The forum's pages: the list of topics, a topic, search, and the addresses that lead
//! to a post or a game's thread. Every action is a call to `/api/forum/…` (the forms,
//! and `assets/forum.js` for quoting and the moderators' buttons).

use askama::Template;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};

use super::layout::{render, Layout, PageResult};
use crate::auth::Viewer;
use crate::error::{ApiResult, Params, Path, QueryString};
use crate::limits::{MAX_MODERATION_REASON_CHARS, MAX_POST_CHARS, MAX_SEARCH_CHARS, MAX_TOPIC_TITLE_CHARS};
use crate::model::{GameId, PostId, TopicId, Visibility};
use crate::services::forum::{self, PageQuery, SearchResults, TopicList, TopicView, POSTS_PER_PAGE};
use crate::services::forum_text::Piece;
use crate::services::moderation;
use crate::App;

#[derive(Template)]
#[template(path = "forum.html")]
struct ForumPage {
    layout: Layout,
    list: TopicList,
    members_only: bool,
    search_max: usize,
    title_max: usize,
    post_max: usize,
}

impl ForumPage {
    fn when(&self, iso: &str) -> String {
        self.layout.when(iso)
    }
}

pub async fn index(State(app): State<App>, Viewer(viewer): Viewer, Params(q): Params<PageQuery>) -> PageResult {
    let list = forum::list(&app, viewer.as_ref(), q.page).await?;
    let members_only = moderation::settings(&app.db).await?.forum == Visibility::Members;
    render(&ForumPage {
        layout: Layout::new("Forum", viewer.as_ref(), &["forum.js"]),
        list,
        members_only,
        search_max: MAX_SEARCH_CHARS,
        title_max: MAX_TOPIC_TITLE_CHARS,
        post_max: MAX_POST_CHARS,
    })
}

#[derive(Template)]
#[template(path = "topic.html")]
struct TopicPage {
    layout: Layout,
    topic: TopicView,
    /// The number of the page's first post in the topic.
    first_number: i64,
    post_max: usize,
    reason_max: usize,
}

impl TopicPage {
    fn when(&self, iso: &str) -> String {
        self.layout.when(iso)
    }
}

pub async fn topic(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<TopicId>,
    Params(q): Params<PageQuery>,
) -> PageResult {
    let topic = forum::topic(&app, viewer.as_ref(), id, q.page).await?;
    render(&TopicPage {
        layout: Layout::new(&topic.title, viewer.as_ref(), &["forum.js"]),
        first_number: (topic.page - 1) * POSTS_PER_PAGE + 1,
        topic,
        post_max: MAX_POST_CHARS,
        reason_max: MAX_MODERATION_REASON_CHARS,
    })
}

/// `/forum/posts/{id}`: the post on its page of its topic.
pub async fn post(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<PostId>) -> PageResult {
    let at = forum::place_of(&app, viewer.as_ref(), id).await?;
    Ok(Redirect::to(&format!("/forum/topics/{}?page={}#post-{id}", at.topic, at.page)).into_response())
}

/// An old address of the forum, `/board/…` from when it was called the board, sent on
/// for good (308) to its new one with its query: mails already sent, feed readers and
/// bookmarks hold the old ones.
fn moved(to: &str, query: Option<String>) -> Response {
    match query {
        Some(q) => Redirect::permanent(&format!("{to}?{q}")).into_response(),
        None => Redirect::permanent(to).into_response(),
    }
}

/// `/board` (old): `/forum`.
pub async fn old_index(QueryString(q): QueryString) -> Response {
    moved("/forum", q)
}

/// `/board/feed.atom` (old): `/forum/feed.atom`.
pub async fn old_feed(QueryString(q): QueryString) -> Response {
    moved("/forum/feed.atom", q)
}

/// `/board/search` (old): `/forum/search`.
pub async fn old_search(QueryString(q): QueryString) -> Response {
    moved("/forum/search", q)
}

/// `/board/topics/{id}` (old): `/forum/topics/{id}`, when there is such a topic to read.
pub async fn old_topic(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<TopicId>,
    QueryString(q): QueryString,
) -> PageResult {
    forum::check_topic(&app, viewer.as_ref(), id).await?;
    Ok(moved(&format!("/forum/topics/{id}"), q))
}

/// `/board/posts/{id}` (old), the address a reply's mail links: `/forum/posts/{id}`, when
/// there is such a post to read.
pub async fn old_post(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<PostId>,
    QueryString(q): QueryString,
) -> PageResult {
    forum::place_of(&app, viewer.as_ref(), id).await?;
    Ok(moved(&format!("/forum/posts/{id}"), q))
}

/// `/games/{id}/thread`: the game's thread in the forum.
pub async fn game_thread(State(app): State<App>, Viewer(viewer): Viewer, Path(id): Path<GameId>) -> PageResult {
    let topic = forum::game_thread(&app, viewer.as_ref(), id).await?;
    Ok(Redirect::to(&format!("/forum/topics/{topic}")).into_response())
}

#[derive(serde::Deserialize)]
pub struct SearchParams {
    #[serde(default)]
    q: Option<String>,
}

#[derive(Template)]
#[template(path = "forum_search.html")]
struct SearchPage {
    layout: Layout,
    query: String,
    results: Option<SearchResults>,
    error: Option<String>,
    search_max: usize,
}

impl SearchPage {
    fn when(&self, iso: &str) -> String {
        self.layout.when(iso)
    }
}

pub async fn search(State(app): State<App>, Viewer(viewer): Viewer, Params(p): Params<SearchParams>) -> PageResult {
    moderation::may_read_forum(&app.db, viewer.as_ref()).await?;
    let query = p.q.unwrap_or_default();
    let (results, error) = if query.trim().is_empty() {
        (None, None)
    } else {
        // A search too short or too long is said on the page, beside the box.
        match forum::search(&app, viewer.as_ref(), &query).await {
            Ok(r) => (Some(r), None),
            Err(e) if e.status() == axum::http::StatusCode::UNPROCESSABLE_ENTITY => (None, Some(e.message)),
            Err(e) => return Err(e.into()),
        }
    };
    render(&SearchPage {
        layout: Layout::new("Search the forum", viewer.as_ref(), &[]),
        query,
        results,
        error,
        search_max: MAX_SEARCH_CHARS,
    })
}

/// Posts the forum's feed carries, newest first.
const FEED_POSTS: i64 = 50;

/// `/forum/feed.atom`: the forum's newest posts as an Atom feed, for feed readers and a
/// club's chat bots; on a members-only forum only with a member's session (a Bearer
/// token), never for visitors. Hidden posts are never in it.
pub async fn feed(State(app): State<App>, Viewer(viewer): Viewer, headers: HeaderMap) -> ApiResult<Response> {
    let base = super::feed::base_of(&headers);
    let entries = forum::newest(&app, viewer.as_ref(), FEED_POSTS)
        .await?
        .into_iter()
        .map(|f| super::feed::Entry {
            id: format!("urn:chancery:board:post:{}", f.post),
            title: format!("{} in \u{201c}{}\u{201d}", f.author, f.title),
            updated_ms: f.written_ms,
            link: format!("{base}/forum/posts/{}", f.post),
            content: f.body,
        })
        .collect();
    let about = super::feed::About {
        title: "The club's forum".to_string(),
        subtitle: "New posts in the forum of a Chancery club".to_string(),
        id: "urn:chancery:board".to_string(),
        page: format!("{base}/forum"),
        own: format!("{base}/forum/feed.atom"),
    };
    super::feed::write(about, entries)
}
