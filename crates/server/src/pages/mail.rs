//! The pages a mail's links open (`templates/mail_page.html`): confirming an address,
//! and unsubscribing (a page with one button for a reader's click, and the one-click
//! `POST` of RFC 8058 that mail clients send from the `List-Unsubscribe` header). Both
//! are authorised by the secret in the link, never by a session. And the GM console's
//! mail section.

use askama::Template;
use axum::extract::State;
use serde::Deserialize;

use super::layout::{render, Layout, PageResult};
use crate::auth::Viewer;
use crate::error::{Params, Path};
use crate::model::GameId;
use crate::services::mail::log::GameMails;
use crate::services::mail::reminders::MAX_TIMES;
use crate::services::mail::settings as mail_settings;
use crate::services::mail::Kind;
use crate::App;

enum Shown {
    Confirmed,
    /// Whether to stop mails of `kind` (for game `game`, or all games).
    Ask {
        key: String,
        kind: &'static str,
        label: &'static str,
        game: Option<GameId>,
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
    game: Option<GameId>,
}

pub async fn unsubscribe_page(Viewer(viewer): Viewer, Path(key): Path<String>, Params(w): Params<Which>) -> PageResult {
    let Some(kind) = Kind::parse_link(&w.kind) else {
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

/// The GM console's mail section (`templates/mail/console.html`, included by
/// `console.html`): the game's mails as `services::mail::log` gives them, and the
/// reminder times' form, padded with empty fields to the most allowed.
pub struct ConsoleMail {
    pub log: GameMails,
    pub slots: Vec<String>,
}

impl ConsoleMail {
    pub fn new(log: GameMails) -> ConsoleMail {
        let mut slots: Vec<String> = log.reminders.iter().map(i64::to_string).collect();
        slots.resize(MAX_TIMES.max(slots.len()), String::new());
        ConsoleMail { log, slots }
    }
}
