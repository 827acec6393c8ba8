//! Log in, register, and the account page (a new password). The forms post JSON to
//! `/api/login` and `/api/register`, which set the session cookie; the page then goes
//! where the visitor was headed.

use askama::Template;
use axum::extract::State;
use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use super::layout::{render, Layout, PageResult};
use crate::auth::Viewer;
use crate::error::Params;
use crate::limits::{ACCOUNT_NAME_CHARS, PASSWORD_CHARS};
use crate::model::GameId;
use crate::services::mail::{wanted, Kind};
use crate::App;

#[derive(Deserialize, Default)]
pub struct Next {
    #[serde(default)]
    next: Option<String>,
}

/// Only paths on this site, so that a link cannot send a fresh login elsewhere.
fn safe_next(next: Option<String>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') => n,
        _ => "/".to_string(),
    }
}

#[derive(Template)]
#[template(path = "credentials.html")]
struct CredentialsPage {
    layout: Layout,
    endpoint: &'static str,
    register: bool,
    next: String,
    name_min: usize,
    name_max: usize,
    password_min: usize,
}

fn credentials(title: &str, register: bool, viewer: Viewer, n: Next) -> PageResult {
    render(&CredentialsPage {
        layout: Layout::new(title, viewer.0.as_ref(), &[]),
        endpoint: if register { "/api/register" } else { "/api/login" },
        register,
        next: safe_next(n.next),
        name_min: *ACCOUNT_NAME_CHARS.start(),
        name_max: *ACCOUNT_NAME_CHARS.end(),
        password_min: *PASSWORD_CHARS.start(),
    })
}

pub async fn login_page(State(_app): State<App>, viewer: Viewer, Params(n): Params<Next>) -> PageResult {
    credentials("Log in", false, viewer, n)
}

pub async fn register_page(State(_app): State<App>, viewer: Viewer, Params(n): Params<Next>) -> PageResult {
    credentials("Register", true, viewer, n)
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    layout: Layout,
    name: String,
    password_min: usize,
    address: Option<crate::store::mail::AddressRow>,
    /// The server has a mail transport; without one the club mails nothing.
    sends: bool,
    /// The account's zone, in which pages and mails give times beside UTC; empty for
    /// UTC alone.
    zone: String,
    /// Every zone the field offers.
    zones: Vec<&'static str>,
    /// One digest a day instead of each mail as it comes, at this hour.
    digest: bool,
    digest_hour: i64,
    /// Mails waiting for the digest, and when it is due (as the reader reads times).
    held: i64,
    next_digest: Option<String>,
    /// Each kind of mail: name, label, on for all games, the games it is off for.
    kinds: Vec<(&'static str, &'static str, bool, Vec<GameId>)>,
}

/// The viewer's account: a new password (the old one is asked for too).
pub async fn account_page(State(app): State<App>, Viewer(viewer): Viewer) -> PageResult {
    let Some(account) = viewer.as_ref() else {
        return Ok(Redirect::to("/login?next=/account").into_response());
    };
    let mail = crate::services::mail::settings::settings(&app, account).await?;
    let kinds = Kind::CHOSEN
        .iter()
        .map(|k| {
            let off_games = mail
                .prefs
                .iter()
                .filter(|p| p.kind == *k && !p.enabled)
                .filter_map(|p| p.scope.game())
                .collect();
            (k.as_str(), k.label(), wanted(&mail.prefs, *k, None), off_games)
        })
        .collect();
    render(&AccountPage {
        layout: Layout::new("Account", Some(account), &[]),
        name: account.name.clone(),
        password_min: *PASSWORD_CHARS.start(),
        address: mail.address,
        sends: app.mailer.sends(),
        next_digest: mail
            .next_digest_ms
            .map(|ms| crate::clock::when(ms, crate::services::mail::zone_of(mail.options.time_zone.as_deref()))),
        zone: mail.options.time_zone.unwrap_or_default(),
        zones: chrono_tz::TZ_VARIANTS.iter().map(|z| z.name()).collect(),
        digest: mail.options.digest,
        digest_hour: mail.options.digest_hour,
        held: mail.held,
        kinds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_stays_on_this_site() {
        assert_eq!(safe_next(Some("/games/4".into())), "/games/4");
        assert_eq!(safe_next(Some("//evil.example/".into())), "/");
        assert_eq!(safe_next(Some("https://evil.example/".into())), "/");
        assert_eq!(safe_next(None), "/");
    }
}
