//! The pages a mail's links open (`templates/mail_page.html`): confirming an address,
//! and unsubscribing (a page with one button for a reader's click, and the one-click
//! `POST` of RFC 8058 that mail clients send from the `List-Unsubscribe` header). Both
//! are authorised by the secret in the link, never by a session.

use askama::Template;
use axum::extract::State;
use serde::Deserialize;

use super::layout::{render, Layout, PageResult};
use crate::auth::Viewer;
use crate::error::{Params, Path};
use crate::services::mail::Kind;
use crate::services::mail_settings;
use crate::App;

enum Shown {
    Confirmed,
    /// Whether to stop mails of `kind` (for game `game`, or all games).
    Ask {
        key: String,
        kind: &'static str,
        label: &'static str,
        game: Option<i64>,
    },
    /// What the unsubscribing did, in words.
    Done {
        message: String,
    },
}

#[derive(Template)]
#[template(path = "mail_page.html")]
struct MailPage {
    layout: Layout,
    shown: Shown,
}

pub async fn confirm(State(app): State<App>, Viewer(viewer): Viewer, Path(token): Path<String>) -> PageResult {
    mail_settings::confirm(&app, &token).await?;
    render(&MailPage {
        layout: Layout::new("Address confirmed", viewer.as_ref(), &[]),
        shown: Shown::Confirmed,
    })
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
    render(&MailPage {
        layout: Layout::new("Stop these mails", viewer.as_ref(), &[]),
        shown: Shown::Ask {
            key,
            kind: kind.as_str(),
            label: kind.label(),
            game: w.game,
        },
    })
}

pub async fn unsubscribe(
    State(app): State<App>,
    Viewer(viewer): Viewer,
    Path(key): Path<String>,
    Params(w): Params<Which>,
) -> PageResult {
    let message = mail_settings::unsubscribe(&app, &key, &w.kind, w.game).await?;
    render(&MailPage {
        layout: Layout::new("Done", viewer.as_ref(), &[]),
        shown: Shown::Done { message },
    })
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
