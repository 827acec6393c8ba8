//! The club's forum as JSON.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::{Account, Viewer};
use crate::error::{ApiResult, Body, ErrorBody, Params, Path};
use crate::model::{GameId, PostId, TopicId};
use crate::services::forum::{
    self, Deleted, Edit, Follow, Following, Hide, NewTopicRequest, PageQuery, PostView, Reply, SearchQuery,
    SearchResults, TopicChange, TopicFlags, TopicList, TopicView, Written,
};
use crate::App;

/// The forum's topics: pinned announcements first, then the most recently answered.
///
/// `unread` marks a topic with posts the member has not read. A game's thread is
/// listed once someone has written in it. On a members-only forum (the club's setting)
/// a visitor gets 401.
#[utoipa::path(get, path = "/api/forum/topics", operation_id = "forum_topics", tag = "forum",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of topics", body = TopicList),
        (status = 401, description = "A members-only forum, and no session", body = ErrorBody),
        (status = 404, description = "No such page", body = ErrorBody),
    ),
)]
pub async fn list(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Params(q): Params<PageQuery>,
) -> ApiResult<Json<TopicList>> {
    Ok(Json(forum::list(&app, viewer.as_ref(), q.page).await?))
}

/// Start a topic with its first post.
///
/// Plain text: blank lines make paragraphs, lines starting with `>` are quotes, and
/// `http`/`https` addresses become links. No HTML is ever taken from a post.
#[utoipa::path(post, path = "/api/forum/topics", operation_id = "forum_new_topic", tag = "forum",
    request_body = NewTopicRequest,
    responses(
        (status = 201, description = "The topic and its first post", body = Written),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "The account is suspended", body = ErrorBody),
        (status = 422, description = "A title or text empty or too long", body = ErrorBody),
        (status = 429, description = "Too many posts this minute or day (see `Retry-After`)", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn create(
    State(app): State<App>,
    account: Account,
    Body(t): Body<NewTopicRequest>,
) -> ApiResult<(StatusCode, Json<Written>)> {
    Ok((StatusCode::CREATED, Json(forum::create_topic(&app, &account, t).await?)))
}

/// A topic and a page of its posts.
///
/// Without `page`, a member gets the page of their first unread post. Reading marks
/// the topic read up to the last post shown. A hidden post's text is given to
/// moderators only.
#[utoipa::path(get, path = "/api/forum/topics/{id}", operation_id = "forum_topic", tag = "forum",
    params(("id" = i64, Path, description = "The topic's id"), PageQuery),
    responses(
        (status = 200, description = "The topic", body = TopicView),
        (status = 401, description = "A members-only forum, and no session", body = ErrorBody),
        (status = 404, description = "No such topic or page", body = ErrorBody),
    ),
)]
pub async fn topic(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<TopicId>,
    Params(q): Params<PageQuery>,
) -> ApiResult<Json<TopicView>> {
    Ok(Json(forum::topic(&app, viewer.as_ref(), id, q.page).await?))
}

/// Moderators: pin or unpin, lock or unlock a topic (logged).
#[utoipa::path(patch, path = "/api/forum/topics/{id}", operation_id = "forum_change_topic", tag = "forum",
    params(("id" = i64, Path, description = "The topic's id")),
    request_body = TopicChange,
    responses(
        (status = 200, description = "The topic's flags now", body = TopicFlags),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
        (status = 404, description = "No such topic", body = ErrorBody),
        (status = 422, description = "Nothing to change", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn change(
    State(app): State<App>,
    account: Account,
    Path(id): Path<TopicId>,
    Body(c): Body<TopicChange>,
) -> ApiResult<Json<TopicFlags>> {
    Ok(Json(forum::change_topic(&app, &account, id, c).await?))
}

/// Reply to a topic.
#[utoipa::path(post, path = "/api/forum/topics/{id}/posts", operation_id = "forum_reply", tag = "forum",
    params(("id" = i64, Path, description = "The topic's id")),
    request_body = Reply,
    responses(
        (status = 201, description = "Where the reply is", body = Written),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "The account is suspended", body = ErrorBody),
        (status = 404, description = "No such topic", body = ErrorBody),
        (status = 409, description = "The topic is locked", body = ErrorBody),
        (status = 422, description = "An empty or too long text", body = ErrorBody),
        (status = 429, description = "Too many posts this minute or day (see `Retry-After`)", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn reply(
    State(app): State<App>,
    account: Account,
    Path(id): Path<TopicId>,
    Body(r): Body<Reply>,
) -> ApiResult<(StatusCode, Json<Written>)> {
    Ok((StatusCode::CREATED, Json(forum::reply(&app, &account, id, r).await?)))
}

/// Edit one's own post, within an hour of writing it.
///
/// The post then shows "edited" with the time; the text before is kept and shown to
/// moderators, and the edit is in the moderation log. Not in a locked topic, nor a post
/// a moderator has hidden.
#[utoipa::path(patch, path = "/api/forum/posts/{id}", operation_id = "forum_edit_post", tag = "forum",
    params(("id" = i64, Path, description = "The post's id")),
    request_body = Edit,
    responses(
        (status = 200, description = "The post as edited", body = PostView),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not the post's author, or the account is suspended", body = ErrorBody),
        (status = 404, description = "No such post", body = ErrorBody),
        (status = 409, description = "Too late (an hour has passed), a locked topic, a hidden post, or the same text", body = ErrorBody),
        (status = 422, description = "Empty or too long", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn edit(
    State(app): State<App>,
    account: Account,
    Path(id): Path<PostId>,
    Body(e): Body<Edit>,
) -> ApiResult<Json<PostView>> {
    Ok(Json(forum::edit(&app, &account, id, e).await?))
}

/// Delete one's own post, while no one has replied after it.
///
/// It leaves the topic, the search and the feed (a topic whose only post it was leaves
/// the list); moderators read it in the moderation log.
#[utoipa::path(delete, path = "/api/forum/posts/{id}", operation_id = "forum_delete_post", tag = "forum",
    params(("id" = i64, Path, description = "The post's id")),
    responses(
        (status = 200, description = "Deleted", body = Deleted),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not the post's author, or the account is suspended", body = ErrorBody),
        (status = 404, description = "No such post", body = ErrorBody),
        (status = 409, description = "Someone replied after it, a locked topic, or a hidden post", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn delete(State(app): State<App>, account: Account, Path(id): Path<PostId>) -> ApiResult<Json<Deleted>> {
    Ok(Json(forum::delete(&app, &account, id).await?))
}

/// Follow a topic, or stop following it.
///
/// A follower is mailed a reply by someone else (one mail until they read the topic
/// again), when their mail preferences have the kind `forum` (off by default) and a
/// confirmed address. A topic's starter follows it until they unfollow it.
#[utoipa::path(put, path = "/api/forum/topics/{id}/follow", operation_id = "forum_follow", tag = "forum",
    params(("id" = i64, Path, description = "The topic's id")),
    request_body = Follow,
    responses(
        (status = 200, description = "Following or not, and whether replies are mailed", body = Following),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 404, description = "No such topic", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn follow(
    State(app): State<App>,
    account: Account,
    Path(id): Path<TopicId>,
    Body(f): Body<Follow>,
) -> ApiResult<Json<Following>> {
    Ok(Json(forum::follow(&app, &account, id, f).await?))
}

/// Moderators: hide a post (with a reason) or show it again (logged).
#[utoipa::path(put, path = "/api/forum/posts/{id}/hidden", operation_id = "forum_hide_post", tag = "forum",
    params(("id" = i64, Path, description = "The post's id")),
    request_body = Hide,
    responses(
        (status = 200, description = "The post as moderators see it", body = PostView),
        (status = 401, description = "Not logged in", body = ErrorBody),
        (status = 403, description = "Not a moderator", body = ErrorBody),
        (status = 404, description = "No such post", body = ErrorBody),
        (status = 409, description = "Already so", body = ErrorBody),
        (status = 422, description = "No reason given to hide it", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn hide(
    State(app): State<App>,
    account: Account,
    Path(id): Path<PostId>,
    Body(h): Body<Hide>,
) -> ApiResult<Json<PostView>> {
    Ok(Json(forum::hide(&app, &account, id, h).await?))
}

/// Search the forum's posts and titles.
///
/// Full text, ranked (best match first, a word in a topic's title above one in a post):
/// every word must be found, in any of its English forms (`armies` finds `army`);
/// `"a phrase"` finds its words side by side; `or` between two terms lets either do;
/// `-word` leaves out the posts that have it. At most 10 terms, at most 50 posts found.
/// Hidden posts are never found.
#[utoipa::path(get, path = "/api/forum/search", operation_id = "forum_search", tag = "forum",
    params(SearchQuery),
    responses(
        (status = 200, description = "What was found", body = SearchResults),
        (status = 401, description = "A members-only forum, and no session", body = ErrorBody),
        (status = 422, description = "Too short or too long a search", body = ErrorBody),
    ),
)]
pub async fn search(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Params(q): Params<SearchQuery>,
) -> ApiResult<Json<SearchResults>> {
    Ok(Json(forum::search(&app, viewer.as_ref(), &q.q).await?))
}

/// A game's thread in the forum.
#[derive(Serialize, ToSchema)]
pub struct GameThread {
    #[schema(value_type = i64)]
    pub game: GameId,
    /// The topic's id (`/api/forum/topics/{id}`).
    #[schema(value_type = i64)]
    pub topic: TopicId,
}

/// The forum's thread of a game: for recruiting and for talk once it has ended, never
/// for its press.
#[utoipa::path(get, path = "/api/games/{id}/thread", operation_id = "game_thread", tag = "forum",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The thread", body = GameThread),
        (status = 401, description = "A members-only forum, and no session", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
    ),
)]
pub async fn game_thread(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<GameId>,
) -> ApiResult<Json<GameThread>> {
    let topic = forum::game_thread(&app, viewer.as_ref(), id).await?;
    Ok(Json(GameThread { game: id, topic }))
}
