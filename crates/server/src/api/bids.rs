//! Diplomacy Points bids, budgets and the GM's bid report as JSON.

use axum::extract::State;
use axum::Json;

use crate::auth::Account;
use crate::error::{ApiResult, Body, ErrorBody, Params, Path};
use crate::model::{GameId, PhaseSeq};
use crate::services::bids::{self, BidReport, Bids, Budgets, ClearQuery, GameBids, PowerBids};
use crate::App;

/// The power whose bids or budget to read.
#[derive(serde::Deserialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PowerQuery {
    /// For the GM: one power (absent: every power).
    #[serde(default)]
    pub power: Option<String>,
}

/// The processed phase whose report to read.
#[derive(serde::Deserialize, Default, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReportQuery {
    /// A processed phase's number; absent: the current phase, as it would resolve now.
    #[serde(default)]
    #[param(value_type = Option<i64>)]
    pub seq: Option<PhaseSeq>,
}

/// Your power's Diplomacy Points bids in every phase (the GM: everyone's).
///
/// Bids are never published.
#[utoipa::path(get, path = "/api/games/{id}/bids", operation_id = "list_bids", tag = "bids",
    params(("id" = i64, Path, description = "The game's id"), PowerQuery),
    responses(
        (status = 200, description = "The bids", body = GameBids),
        (status = 403, description = "Not the power's player or the GM", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn list(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<PowerQuery>,
) -> ApiResult<Json<GameBids>> {
    Ok(Json(bids::list(&app, &account, id, q.power.as_deref()).await?))
}

/// Bid Diplomacy Points on minor units in the phase named by `seq` or `phase`.
///
/// Variants with minor powers only. Each bid is a unit, 1 or 2 DPs and the order it asks
/// of the unit, and replaces your earlier bid on that unit; `replace` clears your bids
/// first. Your whole set of bids is checked against the DP rules (budget, caps, no bid on
/// a minor you attack) and refused (422, with the engine's message) if it breaks one:
/// code `over_budget` when the bids together spend more than your budget this turn,
/// `invalid_bid` for any other breach. A phase that has moved on gets 409 with the
/// current phase.
#[utoipa::path(post, path = "/api/games/{id}/bids", operation_id = "submit_bids", tag = "bids",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = Bids,
    responses(
        (status = 200, description = "The power's bids this phase", body = PowerBids),
        (status = 409, description = "The phase has moved on, the deadline has passed, or the game is not running", body = ErrorBody),
        (status = 422, description = "A bid breaks the DP rules (`invalid_bid`), the bids spend more than the budget (`over_budget`), no phase is named, or the variant has no DPs", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn submit(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(b): Body<Bids>,
) -> ApiResult<Json<PowerBids>> {
    Ok(Json(bids::submit(&app, &account, id, b).await?))
}

/// Remove your bids, or one unit's with `?unit=`, in the phase named by `seq` or `phase`.
#[utoipa::path(delete, path = "/api/games/{id}/bids", operation_id = "clear_bids", tag = "bids",
    params(("id" = i64, Path, description = "The game's id"), ClearQuery),
    responses(
        (status = 200, description = "The power's bids this phase", body = PowerBids),
        (status = 409, description = "The phase has moved on, or the deadline has passed", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn clear(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<ClearQuery>,
) -> ApiResult<Json<PowerBids>> {
    Ok(Json(bids::clear(&app, &account, id, q).await?))
}

/// Your DP budget this turn with the reckoning behind it.
///
/// The GM: every great power's, or `?power=`.
#[utoipa::path(get, path = "/api/games/{id}/budget", operation_id = "dp_budget", tag = "bids",
    params(("id" = i64, Path, description = "The game's id"), PowerQuery),
    responses(
        (status = 200, description = "The budgets", body = Budgets),
        (status = 422, description = "The variant has no DPs", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn budget(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<PowerQuery>,
) -> ApiResult<Json<Budgets>> {
    Ok(Json(bids::budget(&app, &account, id, q.power.as_deref()).await?))
}

/// Who bid what on each minor unit and which order won.
///
/// The game's GM only (403 otherwise). For a processed phase (`?seq=`) the report kept
/// with its result; without `seq`, how the current bids would resolve now.
#[utoipa::path(get, path = "/api/games/{id}/gm/bid-report", operation_id = "gm_bid_report", tag = "gm",
    params(("id" = i64, Path, description = "The game's id"), ReportQuery),
    responses(
        (status = 200, description = "The report", body = BidReport),
        (status = 403, description = "Not the game's GM", body = ErrorBody),
        (status = 404, description = "No such processed phase", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn report(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<ReportQuery>,
) -> ApiResult<Json<BidReport>> {
    Ok(Json(bids::report(&app, &account, id, q.seq).await?))
}
