//! The club's fixed facts: the variants it offers and whether the server is up.

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::iso_utc;
use crate::error::ApiResult;
use crate::services::variants::{self, VariantSummary};
use crate::App;

#[derive(Serialize, ToSchema)]
pub struct VariantList {
    pub variants: Vec<VariantSummary>,
}

/// The built-in variants and their powers.
#[utoipa::path(get, path = "/api/variants", operation_id = "list_variants", tag = "club",
    responses((status = 200, description = "The variants", body = VariantList)),
)]
pub async fn variants(State(app): State<App>) -> ApiResult<Json<VariantList>> {
    Ok(Json(VariantList {
        variants: variants::builtin(&app)?,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    pub ok: bool,
    /// The server's time (ISO 8601, UTC).
    pub now: String,
    /// This process, among servers sharing a database.
    pub server: String,
}

/// Liveness.
#[utoipa::path(get, path = "/api/health", operation_id = "health", tag = "club",
    responses((status = 200, description = "The server answers", body = Health)),
)]
pub async fn health(State(app): State<App>) -> Json<Health> {
    Json(Health {
        ok: true,
        now: iso_utc(app.clock.now_ms()),
        server: app.server_id.clone(),
    })
}
