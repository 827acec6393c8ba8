//! The GM's tools as JSON: each the game's GM only (403 otherwise).

use axum::extract::State;
use axum::Json;

use crate::auth::Account;
use crate::error::{ApiResult, Body, ErrorBody, Params, Path};
use crate::model::GameId;
use crate::services::bots::{self, BotQuery, BotSeat, BotSeated, BotUnseated};
use crate::services::games::view::GameView;
use crate::services::gm::{
    self, Deadline, Declared, Disorder, End, Ended, Events, Extend, Paused, Processed, Resumed, RolledBack,
    RolledForward, Seat, Seated, Settings, Status, Transfer, Transferred,
};
use crate::App;

/// Start a forming game now.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(post, path = "/api/games/{id}/gm/start", operation_id = "gm_start", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Done", body = Status),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "The game has already started", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn start(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<Status>> {
    Ok(Json(gm::start(&app, &account, id).await?))
}

/// Process the current phase now.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(post, path = "/api/games/{id}/gm/process", operation_id = "gm_process_now", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Done", body = Processed),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "The game is not running", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn process_now(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
) -> ApiResult<Json<Processed>> {
    Ok(Json(gm::process_now(&app, &account, id).await?))
}

/// Move the deadline: by `minutes` (1 to 86400), or to `deadline_ms`.
///
/// The game's GM only (403 otherwise). The new deadline must be after now and within a year (422 otherwise, saying why).
#[utoipa::path(post, path = "/api/games/{id}/gm/extend", operation_id = "gm_extend", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Extend,
    responses(
        (status = 200, description = "Done", body = Deadline),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "The game is not running", body = ErrorBody),
        (status = 422, description = "The deadline is out of bounds", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn extend(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<Extend>,
) -> ApiResult<Json<Deadline>> {
    Ok(Json(gm::extend(&app, &account, id, b).await?))
}

/// Pause the deadline.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(post, path = "/api/games/{id}/gm/pause", operation_id = "gm_pause", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Done", body = Paused),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "The game is not running", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn pause(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<Paused>> {
    Ok(Json(gm::pause(&app, &account, id).await?))
}

/// Resume a paused game with the time it had left.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(post, path = "/api/games/{id}/gm/resume", operation_id = "gm_resume", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Done", body = Resumed),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "The game is not paused", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn resume(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<Resumed>> {
    Ok(Json(gm::resume(&app, &account, id).await?))
}

/// Take back the last processed phase.
///
/// The game's GM only (403 otherwise). The phase the game leaves goes with its orders, bids and ready marks (listed in the event log); a roll forward that restores the same result brings the orders and bids back.
#[utoipa::path(post, path = "/api/games/{id}/gm/rollback", operation_id = "gm_rollback", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Done", body = RolledBack),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "No phase has been processed", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn rollback(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<RolledBack>> {
    Ok(Json(gm::rollback(&app, &account, id).await?))
}

/// Undo a rollback.
///
/// The game's GM only (403 otherwise). The phase is judged again from the orders stored now; unchanged orders restore the old result, changed ones publish the new (`readjudicated`).
#[utoipa::path(post, path = "/api/games/{id}/gm/rollforward", operation_id = "gm_rollforward", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "Done", body = RolledForward),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "Nothing to roll forward", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn rollforward(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
) -> ApiResult<Json<RolledForward>> {
    Ok(Json(gm::rollforward(&app, &account, id).await?))
}

/// Give a vacant power to an account.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(post, path = "/api/games/{id}/gm/assign", operation_id = "gm_assign", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Seat,
    responses(
        (status = 200, description = "Done", body = Seated),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 409, description = "The power is taken", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn assign(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<Seat>,
) -> ApiResult<Json<Seated>> {
    Ok(Json(gm::assign(&app, &account, id, b).await?))
}

/// Give a power to another account; the history stays.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(post, path = "/api/games/{id}/gm/replace", operation_id = "gm_replace", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Seat,
    responses(
        (status = 200, description = "Done", body = Seated),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn replace(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<Seat>,
) -> ApiResult<Json<Seated>> {
    Ok(Json(gm::replace(&app, &account, id, b).await?))
}

/// Give a power to a bot.
///
/// The game's GM only (403 otherwise). A vacant power, before the start or later, or
/// one whose player is gone (instead of civil disorder: the seat ends, and the players
/// are mailed as for a replacement). The bot orders (and bids) every phase on its own
/// and marks ready; a person takes the seat back through `gm/replace`.
#[utoipa::path(post, path = "/api/games/{id}/gm/bot", operation_id = "gm_seat_bot", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = BotSeat,
    responses(
        (status = 200, description = "Done", body = BotSeated),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "A bot plays it already, the power is in permanent civil disorder, or the game is over", body = ErrorBody),
        (status = 422, description = "Not a power a player takes", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn seat_bot(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<BotSeat>,
) -> ApiResult<Json<BotSeated>> {
    Ok(Json(bots::seat(&app, &account, id, b).await?))
}

/// Take a bot off its power (`?power=`), which is vacant again.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(delete, path = "/api/games/{id}/gm/bot", operation_id = "gm_unseat_bot", tag = "gm",
    params(("id" = i64, Path, description = "The game's id"), BotQuery),
    responses(
        (status = 200, description = "Done", body = BotUnseated),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 404, description = "No bot plays that power", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn unseat_bot(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<BotQuery>,
) -> ApiResult<Json<BotUnseated>> {
    Ok(Json(bots::unseat(&app, &account, id, q).await?))
}

/// Declare a power in civil disorder.
///
/// The game's GM only (403 otherwise). Its seat ends and its units hold; in the DP variants (rule 11) for good, its centres becoming independent minors and its orders and bids set aside, unless `permanent` is false.
#[utoipa::path(post, path = "/api/games/{id}/gm/civil-disorder", operation_id = "gm_civil_disorder", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Disorder,
    responses(
        (status = 200, description = "Done", body = Declared),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "Already declared, or the game is over", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn civil_disorder(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<Disorder>,
) -> ApiResult<Json<Declared>> {
    Ok(Json(gm::civil_disorder(&app, &account, id, b).await?))
}

/// End the game as a draw (two powers or more) or a concession (one).
///
/// The game's GM only (403 otherwise).
#[utoipa::path(post, path = "/api/games/{id}/gm/end", operation_id = "gm_end", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = End,
    responses(
        (status = 200, description = "Done", body = Ended),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "The game is already over", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn end(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<End>,
) -> ApiResult<Json<Ended>> {
    Ok(Json(gm::end(&app, &account, id, b).await?))
}

/// Change the game's name, press rules (at once) or deadline schedule (from the next phase).
///
/// The game's GM only (403 otherwise). The current deadline stays (see `extend`). Fields left out keep their value; `deadlines.at: ""` drops a fixed time of day. Anonymity can't change once players joined under it.
#[utoipa::path(post, path = "/api/games/{id}/gm/settings", operation_id = "gm_settings", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Settings,
    responses(
        (status = 200, description = "Done", body = GameView),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 409, description = "The game is over", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn settings(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<Settings>,
) -> ApiResult<Json<GameView>> {
    Ok(Json(gm::change_settings(&app, &account, id, b).await?))
}

/// Hand the game to another account as its GM.
///
/// The game's GM only (403 otherwise). Not to one of its players: a GM reads every order and bid. Announced in press.
#[utoipa::path(post, path = "/api/games/{id}/gm/transfer", operation_id = "gm_transfer", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Transfer,
    responses(
        (status = 200, description = "Done", body = Transferred),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 404, description = "No such account", body = ErrorBody),
        (status = 409, description = "The account plays in the game, or is its GM", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn transfer(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<Transfer>,
) -> ApiResult<Json<Transferred>> {
    Ok(Json(gm::transfer(&app, &account, id, b).await?))
}

/// The game's event log: starts, processing (and by which server), rollbacks, GM actions.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(get, path = "/api/games/{id}/gm/events", operation_id = "gm_events", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The log, oldest first", body = Events),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn events(State(app): State<App>, account: Account, Path(id): Path<GameId>) -> ApiResult<Json<Events>> {
    Ok(Json(gm::events(&app, &account, id).await?))
}
