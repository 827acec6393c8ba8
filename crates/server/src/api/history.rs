//! Processed phases and the map images as JSON and SVG, for API clients (a club's chat
//! bot, a mail digest) that show results and the map without the pages around them.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::{ApiResult, ErrorBody, Params, Path};
use crate::model::{GameId, PhaseSeq};
use crate::services::history::{self, PhaseDetail, PhaseList};
use crate::App;

/// The processed phases.
#[utoipa::path(get, path = "/api/games/{id}/phases", operation_id = "list_phases", tag = "history",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The phases, in order", body = PhaseList),
        (status = 404, description = "No such game", body = ErrorBody),
    ),
)]
pub async fn list(State(app): State<App>, Path(id): Path<GameId>) -> ApiResult<Json<PhaseList>> {
    Ok(Json(history::list(&app, id).await?))
}

/// One processed phase.
///
/// The position before it, every order's outcome with its reason, centre counts, and
/// `missing`: the powers with a decision that gave no orders.
#[utoipa::path(get, path = "/api/games/{id}/phases/{seq}", operation_id = "get_phase", tag = "history",
    params(("id" = i64, Path, description = "The game's id"), ("seq" = i64, Path, description = "The phase's number, from 0")),
    responses(
        (status = 200, description = "The phase", body = PhaseDetail),
        (status = 404, description = "No such game or phase", body = ErrorBody),
    ),
)]
pub async fn one(State(app): State<App>, Path((id, seq)): Path<(GameId, PhaseSeq)>) -> ApiResult<Json<PhaseDetail>> {
    Ok(Json(history::one(&app, id, seq).await?))
}

fn svg_response(request: &HeaderMap, svg: String) -> Response {
    // A position changes with every phase, a rollback or a GM's correction: never kept
    // without asking, but asked about by its ETag (a 304 and no map when unchanged).
    crate::conditional::answer(
        request,
        &[(CONTENT_TYPE, "image/svg+xml"), (CACHE_CONTROL, "no-cache")],
        svg,
    )
}

/// The current position as an SVG image.
///
/// No orders are drawn: they are secret until processed.
#[utoipa::path(get, path = "/api/games/{id}/map.svg", operation_id = "current_map", tag = "history",
    params(("id" = i64, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The map", content_type = "image/svg+xml", body = String),
        (status = 304, description = "Not modified: the map the request's If-None-Match names"),
        (status = 404, description = "No such game", body = ErrorBody),
        (status = 503, description = "The map is still being made; try again", body = ErrorBody),
    ),
)]
pub async fn current_map(State(app): State<App>, Path(id): Path<GameId>, request: HeaderMap) -> ApiResult<Response> {
    Ok(svg_response(&request, history::current_map(&app, id).await?))
}

/// Which drawing of a phase.
#[derive(Deserialize, Default, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct Which {
    /// The position after the phase instead of the orders on the position before it.
    #[serde(default)]
    pub after: bool,
}

/// A processed phase as an SVG image.
///
/// The position before it with every order and its result drawn, or with `?after=true`
/// the position after it.
#[utoipa::path(get, path = "/api/games/{id}/phases/{seq}/map.svg", operation_id = "phase_map", tag = "history",
    params(("id" = i64, Path, description = "The game's id"), ("seq" = i64, Path, description = "The phase's number, from 0"), Which),
    responses(
        (status = 200, description = "The map", content_type = "image/svg+xml", body = String),
        (status = 304, description = "Not modified: the map the request's If-None-Match names"),
        (status = 404, description = "No such game or phase", body = ErrorBody),
        (status = 503, description = "The map is still being made; try again", body = ErrorBody),
    ),
)]
pub async fn phase_map(
    State(app): State<App>,
    Path((id, seq)): Path<(GameId, PhaseSeq)>,
    Params(which): Params<Which>,
    request: HeaderMap,
) -> ApiResult<Response> {
    Ok(svg_response(
        &request,
        history::phase_map(&app, id, seq, which.after).await?,
    ))
}
