//! The pages a mail's links open: confirming an address, and unsubscribing (a page
//! with one button for a reader's click, and the one-click `POST` of RFC 8058 that mail
//! clients send from the `List-Unsubscribe` header). Both are authorised by the secret
//! in the link, never by a session.

use askama::Template;
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

/// A mail as the GM console lists it.
struct ListedMail {
    written: String,
    to: String,
    kind: String,
    subject: String,
    text: String,
    state: String,
}

#[derive(Template)]
#[template(path = "mail/console.html")]
struct ConsoleMail {
    game: i64,
    transport: String,
    /// The reminder times, padded with empty fields to the most allowed.
    slots: Vec<String>,
    mails: Vec<ListedMail>,
}

/// The most mails the console lists.
const CONSOLE_MAILS: i64 = 200;

/// The GM console's mail section: how this server sends mail, the game's reminder
/// times, and the mails written about the game (to whom, what, and whether they went;
/// with `--mail-dir`, the file each was written to). The GM may read every power's
/// orders and press, so the texts hide nothing from the GM.
pub async fn console_section(app: &App, game: &crate::store::games::Game) -> Result<String, super::layout::PageError> {
    use crate::services::reminders::{parse_stored, MAX_TIMES};
    let stored = crate::store::mail::reminder_times(&app.db.read, game.id).await?;
    let mut slots: Vec<String> = parse_stored(stored.as_deref()).iter().map(i64::to_string).collect();
    slots.resize(MAX_TIMES.max(slots.len()), String::new());
    let mails = crate::store::mail::of_game_named(&app.db.read, game.id, CONSOLE_MAILS)
        .await?
        .into_iter()
        .map(|(row, name)| {
            let state = match (&row.sent_ms, &row.failed, &app.mailer.transport) {
                (Some(at), _, crate::mailer::Transport::Dir(_)) => format!(
                    "written {} as {}",
                    crate::clock::iso_utc(*at),
                    crate::mailer::mail_file_name(&row)
                ),
                (Some(at), _, _) => format!("sent {}", crate::clock::iso_utc(*at)),
                (None, Some(why), _) => format!("not sent: {why}"),
                (None, None, _) => match &row.last_error {
                    Some(e) => format!("waiting, {} attempts; last: {e}", row.attempts),
                    None => "waiting".to_string(),
                },
            };
            ListedMail {
                written: crate::clock::iso_utc(row.created_ms),
                to: name,
                kind: row.kind.clone(),
                subject: row.subject.clone(),
                text: row.text_body.clone(),
                state,
            }
        })
        .collect();
    ConsoleMail {
        game: game.id,
        transport: app.mailer.describe(),
        slots,
        mails,
    }
    .render()
    .map_err(|e| {
        super::layout::PageError(crate::error::ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("the console's mail list: {e}"),
        ))
    })
}
