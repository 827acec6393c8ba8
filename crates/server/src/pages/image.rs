//! The board as an SVG image of its own, for API clients (a club's chat bot, a mail
//! digest) that show the map without the page around it: the current position, and each
//! processed phase before (with its orders and their results) or after.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::map::drawing;
use crate::error::{ApiResult, Params, Path};
use crate::services::games;
use crate::services::maps::MapOf;
use crate::App;

fn svg_response(svg: String) -> Response {
    // A position changes with every phase, a rollback or a GM's correction: never cached
    // without asking.
    ([(CONTENT_TYPE, "image/svg+xml"), (CACHE_CONTROL, "no-cache")], svg).into_response()
}

/// The current position. Nothing secret is drawn: no orders before processing, no
/// players' names.
pub async fn current(State(app): State<App>, Path(id): Path<i64>) -> ApiResult<Response> {
    let game = games::load(&app.db.read, id).await?;
    let map = MapOf::game(&app, &game)?;
    let state = game.state(&map.variant)?;
    Ok(svg_response(drawing(&app, &map, &state, None).await?))
}

#[derive(Deserialize)]
pub struct Which {
    /// The position after the phase instead of the orders on the position before it.
    #[serde(default)]
    after: bool,
}

/// A processed phase: the position before it with every order drawn and its result, or
/// with `?after=true` the position it left, drawn from the stored judgement. A phase
/// stored without one (see `history::convert_stored_results`) has no arrows.
pub async fn phase(
    State(app): State<App>,
    Path((id, seq)): Path<(i64, i64)>,
    Params(which): Params<Which>,
) -> ApiResult<Response> {
    let game = games::load(&app.db.read, id).await?;
    let map = MapOf::game(&app, &game)?;
    let phase = crate::history::processed_phase(&app.db.read, &map.variant, id, seq).await?;
    let svg = if which.after {
        drawing(&app, &map, &phase.after, None).await?
    } else {
        drawing(&app, &map, &phase.before, phase.adjudication.as_ref()).await?
    };
    Ok(svg_response(svg))
}
