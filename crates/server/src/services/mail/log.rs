//! The mails written about a game, as its GM reads them in the console: to whom, what,
//! and what became of each; with how this server sends mail and the game's reminder
//! times. The GM may read every power's orders and press, so the texts hide nothing
//! from the GM; nobody else is shown them.

use super::reminders::parse_stored;
use super::sender::{mail_file_name, Transport};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::{Account, MailKind};
use crate::store::mail::NamedMail;
use crate::store::{self, games::Game};
use crate::App;

/// The most mails the console lists.
pub const LISTED: i64 = 200;

/// What became of a mail.
pub enum Delivery {
    /// Written to the mail folder (`--mail-dir`), as this file.
    Written {
        at_ms: i64,
        file: String,
    },
    Sent {
        at_ms: i64,
    },
    /// Carried by the reader's daily digest, sent then.
    InDigest {
        at_ms: i64,
    },
    /// Waiting for the reader's daily digest, due then.
    Held {
        until_ms: i64,
    },
    /// Given up for good, with why (a refused address, too many attempts).
    Failed {
        why: String,
    },
    /// Not sent yet: the attempts so far and the last one's error.
    Waiting {
        attempts: i64,
        last_error: Option<String>,
    },
}

/// One mail about the game.
pub struct GameMail {
    pub written_ms: i64,
    /// The account it is addressed to.
    pub to: String,
    pub kind: MailKind,
    pub subject: String,
    pub text: String,
    pub delivery: Delivery,
}

/// The game's mail as its GM reads it.
pub struct GameMails {
    /// How this server sends mail, in words.
    pub transport: String,
    /// The reminder times, in minutes before the deadline, longest first.
    pub reminders: Vec<i64>,
    /// The newest [`LISTED`] mails, newest first.
    pub mails: Vec<GameMail>,
}

/// `game`'s mail, for its GM alone.
pub async fn of_game(app: &App, account: &Account, game: &Game) -> ApiResult<GameMails> {
    if game.gm_id != account.id {
        return Err(ApiError::coded(ErrorCode::GmOnly, "only the game's GM can do that"));
    }
    let stored = store::mail::reminder_times(&app.db.read, game.id).await?;
    let folder = matches!(app.mailer.transport, Transport::Dir(_));
    let mails = store::mail::of_game_named(&app.db.read, game.id, LISTED)
        .await?
        .into_iter()
        .map(
            |NamedMail {
                 mail: row,
                 account_name: to,
             }| {
                let delivery = match (row.sent_ms, &row.failed, row.digest_ms) {
                    (Some(at_ms), _, _) if row.digest_id.is_some() => Delivery::InDigest { at_ms },
                    (Some(at_ms), _, _) if folder => Delivery::Written {
                        at_ms,
                        file: mail_file_name(&row),
                    },
                    (Some(at_ms), _, _) => Delivery::Sent { at_ms },
                    (None, Some(why), _) => Delivery::Failed { why: why.clone() },
                    (None, None, Some(until_ms)) => Delivery::Held { until_ms },
                    (None, None, None) => Delivery::Waiting {
                        attempts: row.attempts,
                        last_error: row.last_error.clone(),
                    },
                };
                GameMail {
                    written_ms: row.created_ms,
                    to,
                    kind: row.kind,
                    subject: row.subject,
                    text: row.text_body,
                    delivery,
                }
            },
        )
        .collect();
    Ok(GameMails {
        transport: app.mailer.describe(),
        reminders: parse_stored(stored.as_deref()),
        mails,
    })
}
