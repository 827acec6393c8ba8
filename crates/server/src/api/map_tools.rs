//! What the game page's map asks for the viewer alone: its own orders drawn, a unit's
//! legal targets, and the sandbox.

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Account;
use crate::error::{ApiResult, Body, ErrorBody, Params, Path};
use crate::model::GameId;
use crate::services::map_tools;
use crate::services::sandbox::{self, SandboxOutcome, SandboxRequest};
use crate::services::targets::Targets;
use crate::App;

/// The power whose orders to draw.
#[derive(Deserialize, Default, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DrawQuery {
    /// For the GM: the power.
    #[serde(default)]
    pub power: Option<String>,
}

/// A power's orders drawn over the map.
#[derive(Serialize, ToSchema)]
pub struct OrdersDrawing {
    /// An SVG group (`<g class="orders pending">`) in the coordinates of the page's map,
    /// to be placed in the map's group of spaces, under its units.
    pub svg: String,
}

/// Your power's orders for the current phase, drawn for the game page's map.
///
/// Only the power's player (or the GM naming the power with `?power=`) gets them: the
/// orders of one power are never drawn for another.
#[utoipa::path(get, path = "/api/games/{id}/orders/drawing", operation_id = "draw_orders", tag = "orders",
    params(("id" = i64, Path, description = "The game's id"), DrawQuery),
    responses(
        (status = 200, description = "The orders as SVG", body = OrdersDrawing),
        (status = 403, description = "Not the power's player or the GM", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn drawing(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<DrawQuery>,
) -> ApiResult<Json<OrdersDrawing>> {
    let svg = map_tools::drawn_orders(&app, &account, id, q.power.as_deref()).await?;
    Ok(Json(OrdersDrawing { svg }))
}

/// The unit whose targets to find.
#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TargetsQuery {
    /// The unit: `A ber`, `ber`, `F stp/sc`.
    pub unit: String,
    /// For the GM: the power.
    #[serde(default)]
    pub power: Option<String>,
    /// For the sandbox: any unit on the map, whoever's (for anyone following the game).
    #[serde(default)]
    pub any: bool,
}

/// Everything one of your units may be ordered to do this phase.
///
/// Each move, support, convoy and boarding is tried through the engine's order check,
/// so the list is exactly what the order API would accept now.
#[utoipa::path(get, path = "/api/games/{id}/targets", operation_id = "unit_targets", tag = "orders",
    params(("id" = i64, Path, description = "The game's id"), TargetsQuery),
    responses(
        (status = 200, description = "The unit's legal orders", body = Targets),
        (status = 403, description = "Not the power's player or the GM", body = ErrorBody),
        (status = 422, description = "No such unit, or not the power's", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn targets(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Params(q): Params<TargetsQuery>,
) -> ApiResult<Json<Targets>> {
    Ok(Json(
        map_tools::unit_targets(&app, &account, id, &q.unit, q.power.as_deref(), q.any).await?,
    ))
}

/// Try orders on the current position: judged and drawn, never stored.
///
/// For the game's players, observers and GM. Any unit may be ordered, of any power;
/// in variants with minor powers the minors' orders are given directly (no bids).
/// Nothing is kept and nobody else sees the orders or the result. At most 200 orders
/// of 200 characters; judged on the server's job pool (503 when it is busy).
#[utoipa::path(post, path = "/api/games/{id}/sandbox", operation_id = "sandbox", tag = "orders",
    params(("id" = i64, Path, description = "The game's id")),
    request_body = SandboxRequest,
    responses(
        (status = 200, description = "Each order's outcome with the engine's reason, and the map", body = SandboxOutcome),
        (status = 403, description = "Not following the game", body = ErrorBody),
        (status = 422, description = "Too many orders or an order too long", body = ErrorBody),
        (status = 503, description = "The server is busy", body = ErrorBody),
    ),
    security(("bearer" = []), ("cookie" = [])),
)]
pub async fn sandbox(
    State(app): State<App>,
    account: Account,
    Path(id): Path<GameId>,
    Body(req): Body<SandboxRequest>,
) -> ApiResult<Json<SandboxOutcome>> {
    Ok(Json(sandbox::try_orders(&app, &account, id, req).await?))
}
