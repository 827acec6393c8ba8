//! Player records as JSON.

use axum::extract::State;
use axum::Json;

use crate::auth::Viewer;
use crate::error::{ApiResult, ErrorBody, Path};
use crate::services::players::{self, PlayerRecord};
use crate::App;

/// An account's record: the powers it played and the games it runs as GM.
///
/// Each power played comes with its centres and how the game stands or ended for it.
/// Anonymous games appear only on the account's own record, or once they end when they
/// were created with `reveal_at_end`.
#[utoipa::path(
    get,
    path = "/api/players/{name}",
    operation_id = "player_record",
    tag = "players",
    params(("name" = String, Path, description = "The account's name, in any case")),
    responses(
        (status = 200, description = "The record", body = PlayerRecord),
        (status = 404, description = "No account has that name", body = ErrorBody),
    ),
)]
pub async fn record(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(name): Path<String>,
) -> ApiResult<Json<PlayerRecord>> {
    Ok(Json(players::record(&app.db, viewer.as_ref(), &name).await?))
}
