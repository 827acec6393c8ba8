//! Press as JSON.

use axum::extract::State;
use axum::Json;

use crate::auth::{Account, Viewer};
use crate::error::{ApiResult, Body, ErrorBody, Params, Path};
use crate::model::GameId;
use crate::services::press::{self, Message, PressPage, PressQuery, ReadState, Reading, Sent};
use crate::App;

/// The messages the viewer may read, oldest first, a page at a time.
///
/// One answer holds the newest `limit` (at most and by default 100) of the messages that
/// match. `more` says older ones were left out: pass the answer's `older` as `before`
/// (with the same `since_ms`, if any) for the page before it, until `more` is false.
/// `latest_ms` is the time to poll from with `since_ms` (drop the ids you already have).
/// Grey press hides the sender from everyone but the sender and the GM; only the GM
/// learns the writing account.
#[utoipa::path(get, path = "/api/games/{id}/press", operation_id = "read_press", tag = "press",
    params(("id" = i64, Path, description = "The game's id"), PressQuery),
    responses(
        (status = 200, description = "The messages", body = PressPage),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 422, description = "A bad `limit`, time or `before` cursor", body = ErrorBody),
    ),
)]
pub async fn read(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(id): Path<GameId>,
    Params(q): Params<PressQuery>,
) -> ApiResult<Json<PressPage>> {
    Ok(Json(press::read(&app, viewer.as_ref(), id, &q).await?))
}

/// Send press.
///
/// `to` lists powers, or `GM` for the game master alone (allowed whatever the press
/// setting); absent: everyone. `grey` hides your power where the game allows.
#[utoipa::path(post, path = "/api/games/{id}/press", operation_id = "send_press", tag = "press",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Message,
    responses(
        (status = 200, description = "The message as sent", body = Sent),
        (status = 403, description = "Not a player or the GM, or the game's press setting forbids it", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody),
        (status = 422, description = "An empty or too long message, or an unknown power", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn send(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(m): Body<Message>,
) -> ApiResult<Json<Sent>> {
    Ok(Json(press::send(&app, &account, id, m).await?))
}

/// Mark press read.
///
/// Records on the server that you have read one thread of the game's press (`thread`,
/// as the game page names it: `*all`, `*gm`, or the other powers' names joined by
/// commas) or all of it (no `thread`), up to `up_to_ms` (the newest message you were
/// shown; absent: now). The marks are per account, so every device agrees; the lobby and
/// the game page count what is left.
#[utoipa::path(post, path = "/api/games/{id}/press/read", operation_id = "mark_press_read", tag = "press",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Reading,
    responses(
        (status = 200, description = "Marked; what is left unread", body = ReadState),
        (status = 403, description = "Not a player, observer or GM of the game", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 422, description = "A bad thread name or time", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn mark_read(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(r): Body<Reading>,
) -> ApiResult<Json<ReadState>> {
    Ok(Json(press::mark_read(&app, &account, id, r).await?))
}
