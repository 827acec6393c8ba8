//! Press: messages between powers, to everyone, from the GM, and from a player to the
//! GM alone. The game's setting decides what players may send to each other (full:
//! private and public; public: to everyone only; none: nothing); a message to the GM
//! alone is always allowed. Grey press hides the sender's power from the recipients, and
//! each viewer reads only what was sent to them.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::clock::iso_utc;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::limits::{MAX_PRESS_CHARS, MAX_TIME_MS};
use crate::model::{Account, GameStatus};
use crate::services::games::{self, role_of, Role};
use crate::store::{self, press::Readable};
use crate::App;

/// The recipient name for the game's GM.
pub const GM: &str = "GM";

/// Most messages one read returns; a long game's press is read in pages.
pub const PAGE_MAX: i64 = 1000;

/// A message to send.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"to": ["France"], "body": "Shall we talk about the Channel?", "grey": false}))]
pub struct Message {
    /// Power names, or `GM` for the game master alone; absent or empty: everyone.
    #[serde(default)]
    pub to: Vec<String>,
    /// 1 to 10,000 characters.
    pub body: String,
    /// Hide the sender's power from the recipients (games with grey press only).
    #[serde(default)]
    pub grey: bool,
}

/// Everyone, as the recipients of a public message.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Everyone {
    All,
}

/// To whom a message went: `"all"`, or the list of powers (`GM` for the game master).
#[derive(Serialize, Deserialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[serde(untagged)]
pub enum Recipients {
    Everyone(Everyone),
    Powers(Vec<String>),
}

impl Recipients {
    fn stored(recipients: &str) -> Recipients {
        if recipients == "*" {
            Recipients::Everyone(Everyone::All)
        } else {
            Recipients::Powers(recipients.split(',').map(str::to_string).collect())
        }
    }

    /// The named recipients; none for a public message.
    pub fn powers(&self) -> &[String] {
        match self {
            Recipients::Everyone(_) => &[],
            Recipients::Powers(p) => p,
        }
    }

    pub fn is_everyone(&self) -> bool {
        matches!(self, Recipients::Everyone(_))
    }
}

/// A message sent.
#[derive(Serialize, ToSchema)]
pub struct Sent {
    pub id: i64,
    /// The sender's power; null for the GM.
    pub from: Option<String>,
    pub from_gm: bool,
    pub grey: bool,
    pub to: Recipients,
    /// When, ISO 8601 UTC.
    pub sent: String,
}

/// Sends press as `account`, the game's GM or one of its players.
pub async fn send(app: &App, account: &Account, id: i64, m: Message) -> ApiResult<Sent> {
    crate::services::moderation::refuse_if_suspended(app, account).await?;
    let body = m.body.trim();
    if body.is_empty() || body.chars().count() > MAX_PRESS_CHARS {
        return Err(ApiError::unprocessable(format!(
            "a message has 1 to {MAX_PRESS_CHARS} characters"
        )));
    }
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
    let v = game.variant(app).await?;
    let mut to = Vec::new();
    for name in &m.to {
        // Players may write to the GM privately, whatever the press setting, as a
        // judge's "Master" can always be written to.
        if name.eq_ignore_ascii_case(GM) || name.eq_ignore_ascii_case("master") {
            if !to.iter().any(|t| t == GM) {
                to.push(GM.to_string());
            }
            continue;
        }
        let p = v
            .find_power(name)
            .ok_or_else(|| ApiError::unprocessable(format!("unknown power `{name}`")))?;
        let name = v.power(p).name.clone();
        if !to.contains(&name) {
            to.push(name);
        }
    }
    let public = to.is_empty();
    let to_gm_only = to == [GM];
    let (sender_power, from_gm) = match &role {
        Role::Gm if to_gm_only => return Err(ApiError::unprocessable("a message to yourself alone goes nowhere")),
        Role::Gm => {
            to.retain(|t| t != GM);
            (None, true)
        }
        Role::Player(p) if to_gm_only => (Some(p.clone()), false),
        Role::Player(p) => {
            match game.press.as_str() {
                "none" => return Err(ApiError::forbidden("this game has no press")),
                "public" if !public => return Err(ApiError::forbidden("this game allows public press only")),
                _ => {}
            }
            if m.grey && !game.grey_press {
                return Err(ApiError::forbidden("this game has no grey press"));
            }
            if to.len() == 1 && to[0] == *p {
                return Err(ApiError::unprocessable("a message to yourself alone goes nowhere"));
            }
            (Some(p.clone()), false)
        }
        _ => return Err(ApiError::forbidden("only the game's players and GM send press")),
    };
    if game.status == GameStatus::Finished && !from_gm {
        return Err(ApiError::conflict("the game is over"));
    }
    let state = game.state(&v)?;
    let recipients = if public { "*".to_string() } else { to.join(",") };
    let msg_id = new_id();
    let now = app.clock.now_ms();
    // Grey press hides the sender from other players; the GM always knows it.
    let grey = m.grey && !to_gm_only;
    let (pool, phase, sender, body) = (
        app.db.write.clone(),
        state.phase.code(),
        sender_power.clone(),
        body.to_string(),
    );
    let (game_seq, account_id) = (game.seq, account.id);
    // Private press and GM announcements are mailed; public press from players is not.
    let mailed = app.mailer.sends() && (from_gm || !public);
    let insert = async move {
        let message = store::press::NewMessage {
            id: msg_id,
            game_id: id,
            seq: game_seq,
            phase: &phase,
            sender_account: account_id,
            sender_power: sender.as_deref(),
            from_gm,
            grey,
            recipients: &recipients,
            body: &body,
            sent_ms: now,
        };
        if !mailed {
            return Ok(store::press::insert(&pool, &message).await?);
        }
        // The game is marked for the press mail pass in the message's own transaction,
        // so that no message is left unmailed (`services::press_mail`).
        let mut tx = pool.begin().await?;
        store::press::insert(&mut *tx, &message).await?;
        store::mail::note_press(&mut *tx, id, now).await?;
        Ok(tx.commit().await?)
    };
    app.db.writing(insert).await?;
    Ok(Sent {
        id: msg_id,
        from: sender_power,
        from_gm,
        grey,
        to: if public {
            Recipients::Everyone(Everyone::All)
        } else {
            Recipients::Powers(to)
        },
        sent: iso_utc(now),
    })
}

/// Which messages to read.
#[derive(Deserialize, Default, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PressQuery {
    /// Only messages sent at or after this time (ms since 1970 UTC): a client polling
    /// for news passes the `latest_ms` of its last read (and drops ids it already has).
    #[serde(default)]
    #[param(minimum = 0, maximum = 253_402_300_799_999_i64)]
    pub since_ms: Option<i64>,
    /// Only messages sent before this time: for paging back through older press.
    #[serde(default)]
    #[param(minimum = 0, maximum = 253_402_300_799_999_i64)]
    pub before_ms: Option<i64>,
    /// The newest this many (1 to 1000, the default) of the messages that match.
    #[serde(default)]
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
}

/// A message as its reader may see it.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PressMessage {
    pub id: i64,
    /// The phase it was sent in (`S1901M`).
    pub phase: String,
    /// The sender's power; null for the GM and for grey press the reader may not unmask.
    pub from: Option<String>,
    pub from_gm: bool,
    pub grey: bool,
    pub to: Recipients,
    pub body: String,
    /// When, ISO 8601 UTC.
    pub sent: String,
    pub sent_ms: i64,
    /// The account that wrote it: for the GM alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
}

impl PressMessage {
    /// Sent by the reader (`role`): the player's power, or the GM.
    pub fn own(&self, role: &Role) -> bool {
        match role {
            Role::Player(me) => !self.from_gm && self.from.as_deref() == Some(me.as_str()),
            Role::Gm => self.from_gm,
            _ => false,
        }
    }
}

/// One read of a game's press.
#[derive(Serialize, ToSchema)]
pub struct PressPage {
    pub game: i64,
    /// Oldest first.
    pub messages: Vec<PressMessage>,
    /// Older messages were left out: page back with `before_ms`.
    pub more: bool,
    /// The time to poll from (`since_ms`); null when nothing was read.
    pub latest_ms: Option<i64>,
}

/// The messages `viewer` may read, oldest first.
pub async fn read(app: &App, viewer: Option<&Account>, id: i64, q: &PressQuery) -> ApiResult<PressPage> {
    let limit = q.limit.unwrap_or(PAGE_MAX);
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(ApiError::unprocessable(format!("`limit` is 1 to {PAGE_MAX}")));
    }
    for (name, time) in [("since_ms", q.since_ms), ("before_ms", q.before_ms)] {
        if time.is_some_and(|t| !(0..=MAX_TIME_MS).contains(&t)) {
            return Err(ApiError::unprocessable(format!(
                "`{name}` is a time from 0 to {MAX_TIME_MS} ms since 1970"
            )));
        }
    }
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, viewer).await?;
    let who = match &role {
        Role::Gm => Readable::All,
        Role::Player(p) => Readable::Power(p),
        Role::Observer | Role::Visitor => Readable::Public,
    };
    let mut rows = store::press::readable(
        &app.db.read,
        id,
        &who,
        q.since_ms.unwrap_or(i64::MIN),
        q.before_ms.unwrap_or(i64::MAX),
        limit + 1,
    )
    .await?;
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    rows.reverse();
    let latest_ms = rows.last().map(|r| r.sent_ms);
    let messages = rows
        .into_iter()
        .filter_map(|r| {
            let to = Recipients::stored(&r.recipients);
            let (visible, own) = match &role {
                Role::Gm => (true, false),
                Role::Player(p) => {
                    let own = r.sender_power.as_deref() == Some(p.as_str());
                    (to.is_everyone() || own || to.powers().contains(p), own)
                }
                Role::Observer | Role::Visitor => (to.is_everyone(), false),
            };
            // The query chose already; this is the rule written once more in Rust, so
            // that a mistake in the SQL cannot show a message to the wrong reader.
            if !visible {
                return None;
            }
            let show_sender = !r.grey || own || role == Role::Gm;
            Some(PressMessage {
                id: r.id,
                phase: r.phase,
                from: if show_sender { r.sender_power } else { None },
                from_gm: r.from_gm,
                grey: r.grey,
                to,
                body: r.body,
                sent: iso_utc(r.sent_ms),
                sent_ms: r.sent_ms,
                // Only the GM learns which account wrote a message.
                account: (role == Role::Gm).then_some(r.account),
            })
        })
        .collect();
    Ok(PressPage {
        game: id,
        messages,
        more,
        latest_ms,
    })
}

/// What the viewer has not read yet of a game's press: messages from others sent since
/// the viewer last opened the game page.
pub struct Unread {
    pub count: usize,
    /// The newest of them addressed to the viewer's power alone or with a few others
    /// (not to everyone), to show without scrolling.
    pub newest_private: Option<PressMessage>,
}

/// The viewer's unread press in game `id`.
pub async fn unread(app: &App, account: &Account, id: i64) -> ApiResult<Unread> {
    let since = store::press_reads::read_ms(&app.db.read, id, account.id).await?;
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
    let q = PressQuery {
        since_ms: Some(since.map_or(0, |t| t + 1)),
        before_ms: None,
        limit: Some(100),
    };
    let page = read(app, Some(account), id, &q).await?;
    let theirs: Vec<PressMessage> = page.messages.into_iter().filter(|m| !m.own(&role)).collect();
    Ok(Unread {
        count: theirs.len(),
        newest_private: theirs.iter().rev().find(|m| !m.to.is_everyone()).cloned(),
    })
}

/// Records that the viewer has now read game `id`'s press.
pub async fn mark_read(app: &App, account: &Account, id: i64) -> ApiResult<()> {
    store::press_reads::mark(&app.db.write, id, account.id, app.clock.now_ms()).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pages' JavaScript and API clients read `to` as `"all"` or a list of names.
    #[test]
    fn recipients_are_all_or_a_list() {
        assert_eq!(
            serde_json::to_value(Recipients::stored("*")).unwrap(),
            serde_json::json!("all")
        );
        assert_eq!(
            serde_json::to_value(Recipients::stored("France,GM")).unwrap(),
            serde_json::json!(["France", "GM"])
        );
    }
}
