//! The pages players and GMs use in a browser: server-rendered HTML with a little
//! JavaScript, over the same handlers and rules as the JSON API. Every action a page
//! offers is a call to `/api/…`, so a page can never do what the API would refuse.
//!
//! - [`layout`]: the frame every page's template extends, error pages.
//! - [`deadline`]: the deadline box the game page and the GM console share.
//! - [`assets`]: the CSS and JavaScript, built into the binary.
//! - [`map`]: the game map as inline SVG with its legend, for the game page, history and
//!   the GM console.
//! - [`adjust`]: the builds and removals the map offers to click.
//! - [`lobby`], [`account`], [`game`], [`press`], [`history`], [`console`]: one page each.
//! - [`forum`]: the forum's pages (and its old `/board` addresses, sent on); [`moderation`]: the moderators' page.

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

use axum::routing::{get, MethodRouter};
use axum::Router;

use crate::App;

/// The page routes; the server merges them into its router, which adds the state.
pub fn router() -> Router<App> {
    routes()
        .into_iter()
        .fold(Router::new(), |r, (path, handlers)| r.route(path, handlers))
}

/// The paths of the page routes, as the router has them (`{name}` for a parameter): the
/// router is built from the same list, so the abuse suite (`tests/abuse.rs`) attacks
/// every page without one being listed there.
pub fn paths() -> Vec<&'static str> {
    routes().into_iter().map(|(path, _)| path).collect()
}

/// Every page route: its path and its handlers.
fn routes() -> Vec<(&'static str, MethodRouter<App>)> {
    vec![
        ("/", get(lobby::page)),
        ("/login", get(account::login_page)),
        ("/register", get(account::register_page)),
        ("/account", get(account::account_page)),
        ("/players/{name}", get(players::page)),
        ("/games/{id}", get(game::page)),
        ("/games/{id}/feed.atom", get(feed::feed)),
        ("/games/{id}/history", get(history::latest)),
        ("/games/{id}/history/{seq}", get(history::page)),
        ("/games/{id}/gm", get(console::page)),
        ("/games/{id}/thread", get(forum::game_thread)),
        ("/forum", get(forum::index)),
        ("/forum/feed.atom", get(forum::feed)),
        ("/forum/topics/{id}", get(forum::topic)),
        ("/forum/posts/{id}", get(forum::post)),
        ("/forum/search", get(forum::search)),
        ("/board", get(forum::old_index)),
        ("/board/feed.atom", get(forum::old_feed)),
        ("/board/topics/{id}", get(forum::old_topic)),
        ("/board/posts/{id}", get(forum::old_post)),
        ("/board/search", get(forum::old_search)),
        ("/moderation", get(moderation::page)),
        ("/assets/{name}", get(assets::serve)),
        ("/favicon.ico", get(assets::favicon)),
        ("/mail/confirm/{token}", get(mail::confirm)),
        (
            "/mail/unsubscribe/{key}",
            get(mail::unsubscribe_page).post(mail::unsubscribe),
        ),
    ]
}
