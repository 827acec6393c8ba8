//! The pages a mail's links open: confirming an address, and unsubscribing (a page
//! with one button for a reader's click, and the one-click `POST` of RFC 8058 that mail
//! clients send from the `List-Unsubscribe` header). Both are authorised by the secret
//! in the link, never by a session.

use axum::extract::State;
use axum::response::IntoResponse;
use serde::Deserialize;

use super::layout::{esc, frame, PageResult};
use crate::auth::Viewer;
use crate::error::{Params, Path};
use crate::services::mail::Kind;
use crate::services::mail_settings;
use crate::App;

pub async fn confirm(State(app): State<App>, Viewer(viewer): Viewer, Path(token): Path<String>) -> PageResult {
    mail_settings::confirm(&app, &token).await?;
    let body = r#"<section class="card narrow"><h1>Address confirmed</h1><p id="confirmed">The club will mail you what your <a href="/account">account page</a> says.</p></section>"#;
    Ok(frame("Address confirmed", viewer.as_ref(), body, &[]).into_response())
}

#[derive(Deserialize)]
pub struct Which {
    kind: String,
    #[serde(default)]
    game: Option<i64>,
}

pub async fn unsubscribe_page(Viewer(viewer): Viewer, Path(key): Path<String>, Params(w): Params<Which>) -> PageResult {
    let Some(kind) = Kind::parse(&w.kind) else {
        return Err(crate::error::ApiError::not_found("no such kind of mail").into());
    };
    let scope = match w.game {
        Some(g) => format!(" for game {g}"),
        None => String::new(),
    };
    let action = match w.game {
        Some(g) => format!("/mail/unsubscribe/{}?kind={}&game={g}", esc(&key), kind.as_str()),
        None => format!("/mail/unsubscribe/{}?kind={}", esc(&key), kind.as_str()),
    };
    let body = format!(
        r#"<section class="card narrow"><h1>Stop these mails</h1><p>No more mails of {}{scope}?</p><form method="post" action="{action}"><button type="submit" id="unsubscribe">Stop them</button></form></section>"#,
        esc(kind.label())
    );
    Ok(frame("Stop these mails", viewer.as_ref(), &body, &[]).into_response())
}

pub async fn unsubscribe(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(key): Path<String>,
    Params(w): Params<Which>,
) -> PageResult {
    let done = mail_settings::unsubscribe(&app, &key, &w.kind, w.game).await?;
    let body = format!(
        r#"<section class="card narrow"><h1>Done</h1><p id="unsubscribed">{}</p><p>Your <a href="/account">account page</a> has the rest of your mail settings.</p></section>"#,
        esc(&done)
    );
    Ok(frame("Done", viewer.as_ref(), &body, &[]).into_response())
}
