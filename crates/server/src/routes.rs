//! The HTTP routes, body limits, the rate limit, the cross-site request check, the
//! security headers, and JSON for unknown paths.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tower_http::compression::{CompressionLayer, CompressionLevel};

use crate::error::{ApiError, ApiResult, Body};
use crate::{api, auth, openapi, App};

use crate::limits::BODY_LIMIT;

/// Where the OpenAPI document is served.
const DOCS_PATH: &str = "/api/docs";

/// The paths of every route the OpenAPI document does not describe (the pages, and the
/// document itself), as the router has them: the abuse suite attacks these beside the
/// documented operations. The test-only routes (`--test-clock`) are not among them.
pub fn undocumented_paths() -> Vec<&'static str> {
    let mut paths = crate::pages::paths();
    paths.push(DOCS_PATH);
    paths
}

pub fn router(app: App, test_clock: bool) -> Router {
    let mut r = Router::new()
        .merge(Router::from(api::router()))
        .merge(crate::pages::router())
        .route(DOCS_PATH, get(openapi::docs));
    if test_clock {
        r = r
            .route("/api/test/clock", get(clock_now).post(clock_advance))
            .route("/api/test/adjudications", get(adjudications))
            .route("/api/test/state-decodes", get(state_decodes));
    }
    r.fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(app.clone(), crate::csrf::guard))
        .layer(middleware::from_fn_with_state(app.clone(), rate_limit))
        .layer(middleware::from_fn(crate::headers::add))
        .layer(compression())
        .with_state(app)
}

/// Answers compressed for a client that accepts gzip or Brotli: pages, the map's SVG,
/// JSON, scripts and styles (a 1648 page: 260 KB of HTML, about 60 KB sent); images
/// other than SVG and answers under 32 bytes as they are (tower-http's default rule).
/// Level 5 of each: the pages are made per request, and Brotli's default (11) would
/// spend far longer than the page took to make for a few per cent less.
fn compression() -> CompressionLayer {
    CompressionLayer::new()
        .gzip(true)
        .br(true)
        .quality(CompressionLevel::Precise(5))
}

/// One bucket per account for a token seen to be a valid session (by the request's own
/// session check, `auth.rs`), else one per client address: a token that is no session's
/// counts as none, so made-up tokens get no bucket of their own.
/// No database read here, so a limited request costs nothing but this.
async fn rate_limit(State(app): State<App>, request: Request, next: Next) -> Response {
    let account = auth::request_token(request.headers()).and_then(|t| app.known_sessions.account(&t));
    let client = match account {
        Some(id) => format!("account {id}"),
        None => request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| crate::limits::client_of(c.0.ip()))
            .unwrap_or_default(),
    };
    if app.rate.allow(&client) {
        next.run(request).await
    } else {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too many requests; slow down").into_response()
    }
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such endpoint; the API is described at /api/docs")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint does not take that method; see /api/docs",
    )
}

async fn clock_now(State(app): State<App>) -> Json<Value> {
    let now = app.clock.now_ms();
    Json(json!({"now_ms": now, "now": crate::clock::iso_utc(now)}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Advance {
    ms: i64,
    /// Leave the phases now due to the scheduler's next tick, as when it lags behind.
    #[serde(default)]
    hold: bool,
}

/// Test servers only: how many phases this process has adjudicated, so that a test can
/// show that showing history judges nothing again.
async fn adjudications() -> Json<Value> {
    Json(json!({"adjudications": chancery_engine::adjudicate::adjudications()}))
}

/// Test servers only: how many stored positions this process has decoded, so that a
/// test can show a request decodes its game's position once.
async fn state_decodes() -> Json<Value> {
    let n = crate::store::games::STATE_DECODES.load(std::sync::atomic::Ordering::Relaxed);
    Json(json!({"state_decodes": n}))
}

/// Test servers only (`--test-clock`): moves the clock forward and runs the scheduler
/// once before answering, so a test sees the deadlines that passed already processed.
async fn clock_advance(State(app): State<App>, Body(a): Body<Advance>) -> ApiResult<Json<Value>> {
    let now = app.clock.advance(a.ms).map_err(ApiError::forbidden)?;
    let processed = if a.hold { 0 } else { crate::scheduler::once(&app).await? };
    Ok(Json(
        json!({"now_ms": now, "now": crate::clock::iso_utc(now), "processed": processed}),
    ))
}
