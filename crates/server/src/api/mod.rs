//! The JSON face: axum handlers that read a request into typed values, call a service
//! and answer its typed result as JSON. Each handler carries `#[utoipa::path]`, and its
//! request and response types derive `ToSchema`, so the OpenAPI document at `/api/docs`
//! is derived from the code it describes ([`crate::openapi`]); routes are added with
//! `utoipa_axum::routes!`, which registers the route and documents it in one step.
//!
//! - [`accounts`]: registering, logging in and out, passwords.
//! - [`players`]: the player records (`GET /api/players/{name}`).

pub mod accounts;
pub mod players;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::App;

/// The routes migrated to the layers, with their part of the OpenAPI document.
pub fn router() -> OpenApiRouter<App> {
    OpenApiRouter::with_openapi(crate::openapi::base())
        .routes(routes!(accounts::register))
        .routes(routes!(accounts::login))
        .routes(routes!(accounts::logout))
        .routes(routes!(accounts::me))
        .routes(routes!(accounts::change_password))
        .routes(routes!(players::record))
}
