//! The club's fixed facts: the variants it offers, their maps as GeoJSON, and whether
//! the server is up.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::iso_utc;
use crate::error::{ApiResult, ErrorBody, Path};
use crate::services::maps;
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

/// A built-in variant's map on the real geography, as an RFC 7946 GeoJSON
/// FeatureCollection in WGS84 longitude and latitude (the same as `chancery map NAME
/// --geojson`): one Feature per space, a Polygon or MultiPolygon with `properties`
/// `abbr` (lowercase), `name` and `terrain`, then the straits drawn as crossings
/// (LineStrings with `kind: "crossing"` and the two spaces `a` and `b`).
#[utoipa::path(get, path = "/api/variants/{name}/map.geojson", operation_id = "variant_geojson", tag = "club",
    params(("name" = String, Path, description = "A built-in variant: `standard`, `1936`, `1648` or `original-1958`")),
    responses(
        (status = 200, description = "The shapes", content_type = "application/geo+json", body = Object),
        (status = 404, description = "No built-in variant of that name", body = ErrorBody),
        (status = 503, description = "The server is busy; try again after `Retry-After` seconds", body = ErrorBody),
    ),
)]
pub async fn geojson(State(app): State<App>, Path(name): Path<String>) -> ApiResult<Response> {
    let text = maps::geojson(&app, &name).await?;
    // The shapes change only with the server's version.
    Ok((
        [
            (CONTENT_TYPE, "application/geo+json"),
            (CACHE_CONTROL, "public, max-age=3600"),
        ],
        text.to_string(),
    )
        .into_response())
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
