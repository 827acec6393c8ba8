//! The JSON face: axum handlers that read a request into typed values, call a service
//! and answer its typed result as JSON. Each handler carries `#[utoipa::path]`, and its
//! request and response types derive `ToSchema`, so the OpenAPI document at `/api/docs`
//! is derived from the code it describes ([`crate::openapi`]); routes are added with
//! `utoipa_axum::routes!`, which registers the route and documents it in one step.
//!
//! - [`accounts`]: registering, logging in and out, passwords.
//! - [`mail`]: the account's mail address and preferences.
//! - [`club`]: the variants offered and their maps as GeoJSON, liveness.
//! - [`games`]: creating, listing and viewing games, seats, draw votes.
//! - [`orders`]: orders and ready marks, and the GM's view of every power's orders.
//! - [`bids`]: DP bids, budgets and the GM's bid report.
//! - [`map_tools`]: what the game page's map asks for the viewer alone: its orders drawn,
//!   a unit's legal targets, the sandbox.
//! - [`gm`]: the GM's tools and the event log.
//! - [`history`]: processed phases, and the map images.
//! - [`press`]: reading and sending press.
//! - [`players`]: the player records (`GET /api/players/{name}`).
//! - [`forum`]: the club's forum; [`moderation`]: the moderators' tools.

pub mod accounts;
pub mod bids;
pub mod club;
pub mod forum;
pub mod games;
pub mod gm;
pub mod history;
pub mod mail;
pub mod map_tools;
pub mod moderation;
pub mod orders;
pub mod players;
pub mod press;

use axum::extract::DefaultBodyLimit;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::limits::UPLOAD_LIMIT;
use crate::App;

/// The routes migrated to the layers, with their part of the OpenAPI document.
pub fn router() -> OpenApiRouter<App> {
    OpenApiRouter::new()
        .routes(routes!(accounts::register))
        .routes(routes!(accounts::login))
        .routes(routes!(accounts::logout))
        .routes(routes!(accounts::me))
        .routes(routes!(accounts::change_password))
        .routes(routes!(mail::get))
        .routes(routes!(mail::set_address, mail::remove_address))
        .routes(routes!(mail::set_pref))
        .routes(routes!(mail::set_options))
        .routes(routes!(mail::set_digest))
        .routes(routes!(mail::get_reminders, mail::set_reminders))
        .routes({
            // Creating a game may upload a variant file.
            let (schemas, paths, method) = routes!(games::list, games::create);
            (schemas, paths, method.layer(DefaultBodyLimit::max(UPLOAD_LIMIT)))
        })
        .routes(routes!(games::view))
        .routes(routes!(games::join))
        .routes(routes!(games::observe))
        .routes(routes!(games::leave))
        .routes(routes!(games::vote, games::withdraw))
        .routes(routes!(orders::list, orders::submit, orders::clear))
        .routes(routes!(orders::mark_ready, orders::unmark_ready))
        .routes(routes!(orders::gm_orders))
        .routes(routes!(orders::check))
        .routes(routes!(map_tools::drawing))
        .routes(routes!(map_tools::targets))
        .routes(routes!(map_tools::sandbox))
        .routes(routes!(bids::list, bids::submit, bids::clear))
        .routes(routes!(bids::budget))
        .routes(routes!(bids::report))
        .routes(routes!(gm::start))
        .routes(routes!(gm::process_now))
        .routes(routes!(gm::extend))
        .routes(routes!(gm::pause))
        .routes(routes!(gm::resume))
        .routes(routes!(gm::rollback))
        .routes(routes!(gm::rollforward))
        .routes(routes!(gm::assign))
        .routes(routes!(gm::replace))
        .routes(routes!(gm::seat_bot, gm::unseat_bot))
        .routes(routes!(gm::civil_disorder))
        .routes(routes!(gm::end))
        .routes(routes!(gm::settings))
        .routes(routes!(gm::transfer))
        .routes(routes!(gm::events))
        .routes(routes!(press::read, press::send))
        .routes(routes!(press::mark_read))
        .routes(routes!(history::list))
        .routes(routes!(history::one))
        .routes(routes!(history::current_map))
        .routes(routes!(history::phase_map))
        .routes(routes!(players::record))
        .routes(routes!(forum::list, forum::create))
        .routes(routes!(forum::topic, forum::change))
        .routes(routes!(forum::reply))
        .routes(routes!(forum::hide))
        .routes(routes!(forum::edit, forum::delete))
        .routes(routes!(forum::follow))
        .routes(routes!(forum::search))
        .routes(routes!(forum::game_thread))
        .routes(routes!(moderation::overview))
        .routes(routes!(moderation::settings))
        .routes(routes!(moderation::appoint))
        .routes(routes!(moderation::remove))
        .routes(routes!(moderation::suspend))
        .routes(routes!(moderation::reinstate))
        .routes(routes!(moderation::log))
        .routes(routes!(club::variants))
        .routes(routes!(club::geojson))
        .routes(routes!(club::health))
}
