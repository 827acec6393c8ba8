//! The pages players and GMs use in a browser: server-rendered HTML with a little
//! JavaScript, over the same handlers and rules as the JSON API. Every action a page
//! offers is a call to `/api/…`, so a page can never do what the API would refuse.
//!
//! - [`layout`]: the frame every page's template extends, error pages.
//! - [`deadline`]: the deadline box the game page and the GM console share.
//! - [`assets`]: the CSS and JavaScript, built into the binary.
//! - [`map`]: the board as inline SVG with its legend, for the game page, history and
//!   the GM console.
//! - [`adjust`]: the builds and removals the map offers to click.
//! - [`lobby`], [`account`], [`game`], [`press`], [`history`], [`console`]: one page each.
//! - [`forum`]: the board's pages; [`moderation`]: the moderators' page.

mod account;
mod adjust;
mod assets;
mod console;
mod deadline;
mod feed;
mod forum;
mod game;
mod history;
mod layout;
mod lobby;
mod mail;
mod map;
mod moderation;
mod players;
mod press;

use axum::routing::get;
use axum::Router;

use crate::App;

/// The page routes; the server merges them into its router, which adds the state.
pub fn router() -> Router<App> {
    Router::new()
        .route("/", get(lobby::page))
        .route("/login", get(account::login_page))
        .route("/register", get(account::register_page))
        .route("/account", get(account::account_page))
        .route("/players/{name}", get(players::page))
        .route("/games/{id}", get(game::page))
        .route("/games/{id}/check-order", get(game::check_order))
        .route("/games/{id}/feed.atom", get(feed::feed))
        .route("/games/{id}/history", get(history::latest))
        .route("/games/{id}/history/{seq}", get(history::page))
        .route("/games/{id}/gm", get(console::page))
        .route("/games/{id}/thread", get(forum::game_thread))
        .route("/board", get(forum::board))
        .route("/board/feed.atom", get(forum::feed))
        .route("/board/topics/{id}", get(forum::topic))
        .route("/board/posts/{id}", get(forum::post))
        .route("/board/search", get(forum::search))
        .route("/moderation", get(moderation::page))
        .route("/assets/{name}", get(assets::serve))
        .route("/mail/confirm/{token}", get(mail::confirm))
        .route(
            "/mail/unsubscribe/{key}",
            get(mail::unsubscribe_page).post(mail::unsubscribe),
        )
}
