//! Orders and ready marks as JSON.

use axum::extract::State;
use axum::Json;

use crate::auth::Account;
use crate::error::{ApiResult, Body, ErrorBody, OptionalBody, Params, Path};
use crate::model::GameId;
use crate::services::orders::{
    self, Check, ClearQuery, OrderCheck, PhaseOrders, PowerOrders, ReadyMark, ReadyRequest, Submission,
};
use crate::App;

/// The power whose orders to read.
#[derive(serde::Deserialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PowerQuery {
    /// For the GM: the power.
    #[serde(default)]
    pub power: Option<String>,
}

/// Your power's orders for the current phase, as they will be adjudicated.
///
/// The GM names the power with `?power=`.
#[utoipa::path(get, path = "/api/games/{id}/orders", operation_id = "list_orders", tag = "orders",
    params(("id" = i64, Path, description = "The game's id"), PowerQuery),
    responses(
        (status = 200, description = "The orders", body = PowerOrders),
        (status = 403, description = "Not the power's player or the GM", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn list(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<PowerQuery>,
) -> ApiResult<Json<PowerOrders>> {
    Ok(Json(orders::list(&app, &account, id, q.power.as_deref()).await?))
}

/// Submit orders for the phase named by `seq` or `phase`.
///
/// A phase that has moved on gets 409 with the current `seq` and `phase`; naming none,
/// 422. Each order is validated on arrival and all are refused (422, with the engine's
/// message per order in `refused`) if any is wrong. A new order for a unit replaces its
/// old one; `replace` clears the power's orders first.
#[utoipa::path(post, path = "/api/games/{id}/orders", operation_id = "submit_orders", tag = "orders",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Submission,
    responses(
        (status = 200, description = "The power's orders now", body = PowerOrders),
        (status = 409, description = "The phase has moved on, the deadline has passed, or the game is not running", body = ErrorBody),
        (status = 422, description = "An order is refused, or no phase is named", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn submit(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(s): Body<Submission>,
) -> ApiResult<Json<PowerOrders>> {
    Ok(Json(orders::submit(&app, &account, id, s).await?))
}

/// Clear your orders, or one unit's with `?unit=`, in the phase named by `seq` or `phase`.
#[utoipa::path(delete, path = "/api/games/{id}/orders", operation_id = "clear_orders", tag = "orders",
    params(("id" = i64, Path, description = "The game's id"), ClearQuery),
    responses(
        (status = 200, description = "The power's orders now", body = PowerOrders),
        (status = 404, description = "No order for that unit", body = ErrorBody),
        (status = 409, description = "The phase has moved on, or the deadline has passed", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn clear(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<ClearQuery>,
) -> ApiResult<Json<PowerOrders>> {
    Ok(Json(orders::clear(&app, &account, id, q).await?))
}

/// Mark your power ready in the phase named by `seq` or `phase`.
///
/// When every power with a choice is ready the phase is processed at once. A phase that
/// has moved on gets 409 with the current phase, so that a late click never counts for
/// the next one.
#[utoipa::path(post, path = "/api/games/{id}/ready", operation_id = "mark_ready", tag = "orders",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = ReadyRequest,
    responses(
        (status = 200, description = "Marked; `processed` when this mark ended the phase", body = ReadyMark),
        (status = 409, description = "The phase has moved on, or the game is not running", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn mark_ready(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    OptionalBody(r): OptionalBody<ReadyRequest>,
) -> ApiResult<Json<ReadyMark>> {
    Ok(Json(orders::mark_ready(&app, &account, id, r).await?))
}

/// Take back your ready mark in the phase named by `?seq=` or `?phase=`.
#[utoipa::path(delete, path = "/api/games/{id}/ready", operation_id = "unmark_ready", tag = "orders",
    params(("id" = i64, Path, description = "The game's id"), ReadyRequest),
    responses(
        (status = 200, description = "Taken back", body = ReadyMark),
        (status = 409, description = "The phase has moved on", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn unmark_ready(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(r): Params<ReadyRequest>,
) -> ApiResult<Json<ReadyMark>> {
    Ok(Json(orders::unmark_ready(&app, &account, id, r).await?))
}

/// Every power's current orders.
///
/// The game's GM only (403 otherwise).
#[utoipa::path(get, path = "/api/games/{id}/gm/orders", operation_id = "gm_orders", tag = "gm",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The orders", body = PhaseOrders),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn gm_orders(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
) -> ApiResult<Json<PhaseOrders>> {
    Ok(Json(orders::of_phase(&app, &account, id).await?))
}

/// Check one order without storing it: the engine's reading of it (canonical text and
/// words) or why the order API would refuse it, as it would say it.
///
/// The game page asks this as the player types, and when a click on the map is not
/// among the unit's listed orders (`/targets`). The GM names the power with `power`.
#[utoipa::path(get, path = "/api/games/{id}/check-order", operation_id = "check_order", tag = "orders",
    params(("id" = i64, Path, description = "The game's id"), Check),
    responses(
        (status = 200, description = "The verdict", body = OrderCheck),
        (status = 403, description = "Not the power's player or the GM", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn check(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(c): Params<Check>,
) -> ApiResult<Json<OrderCheck>> {
    Ok(Json(orders::check(&app, &account, id, &c).await?))
}
