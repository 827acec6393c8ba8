//! Press: messages between powers, to everyone, from the GM, and from a player to the
//! GM alone. The game's setting decides what players may send to each other (full:
//! private and public; public: to everyone only; none: nothing); a message to the GM
//! alone is always allowed. Grey press hides the sender's power from the recipients, and
//! each viewer reads only what was sent to them.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::clock::iso_utc;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::limits::{MAX_PRESS_CHARS, MAX_TIME_MS};
use crate::model::{Account, GameId, GameStatus, MessageId, PressRule};
use crate::services::games::{self, role_of, Role};
use crate::store::{self, press::Readable};
use crate::App;

/// The recipient name for the game's GM.
pub const GM: &str = "GM";

/// Most messages one read of the API returns; a long game's press is read in pages
/// (`older` and `before`). A poll every few seconds finds a handful; a page of 100 is
/// what a reader scrolls back through at a time, and a client asking often cannot make
/// the server fetch and send a whole game's press on every request.
pub const PAGE_MAX: i64 = 100;

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
    /// As the API names them: the GM, when a recipient, as `GM` after the powers.
    fn stored(recipients: store::press::Recipients) -> Recipients {
        match recipients {
            store::press::Recipients::Everyone => Recipients::Everyone(Everyone::All),
            store::press::Recipients::Private { mut powers, gm } => {
                if gm {
                    powers.push(GM.to_string());
                }
                Recipients::Powers(powers)
            }
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
    #[schema(value_type = i64)]
    pub id: MessageId,
    /// The sender's power; null for the GM.
    pub from: Option<String>,
    pub from_gm: bool,
    pub grey: bool,
    pub to: Recipients,
    /// When, ISO 8601 UTC.
    pub sent: String,
}

/// Sends press as `account`, the game's GM or one of its players.
pub async fn send(app: &App, account: &Account, id: GameId, m: Message) -> ApiResult<Sent> {
    crate::services::moderation::refuse_if_suspended(app, account).await?;
    let body = m.body.trim();
    if body.is_empty() || body.chars().count() > MAX_PRESS_CHARS {
        return Err(ApiError::unprocessable(format!(
            "a message has 1 to {MAX_PRESS_CHARS} characters"
        )));
    }
    let games::LoadedGame {
        game,
        variant: v,
        state,
    } = games::read(app, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
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
            match game.press {
                PressRule::None => return Err(ApiError::forbidden("this game has no press")),
                PressRule::Public if !public => return Err(ApiError::forbidden("this game allows public press only")),
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
        return Err(ApiError::coded(ErrorCode::GameOver, "the game is over"));
    }
    let recipients = if public {
        store::press::Recipients::Everyone
    } else {
        store::press::Recipients::Private {
            powers: to.iter().filter(|t| *t != GM).cloned().collect(),
            gm: to.iter().any(|t| t == GM),
        }
    };
    let msg_id = MessageId(new_id());
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
        let mut tx = pool.begin().await?;
        store::press::insert(&mut tx, &message).await?;
        if mailed {
            // The game is marked for the press mail pass in the message's own
            // transaction, so that no message is left unmailed (`services::mail::press`).
            store::mail::note_press(&mut *tx, id, now).await?;
        }
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
    /// Only messages sent before this time.
    #[serde(default)]
    #[param(minimum = 0, maximum = 253_402_300_799_999_i64)]
    pub before_ms: Option<i64>,
    /// Only messages older than the page this cursor came from: the `older` of an earlier
    /// answer, to read the page before it (with the same `since_ms`, if any).
    #[serde(default)]
    #[param(max_length = 40, example = "1764720000000.4503599627370495")]
    pub before: Option<String>,
    /// The newest this many (1 to 100, the default) of the messages that match.
    #[serde(default)]
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// Where a page of press ends: its oldest message's time and id, written
/// `SENT_MS.ID`. Messages are ordered by both, so a page ends between two messages even
/// when many were sent in the same millisecond (a time alone would drop or repeat them).
fn cursor(m: &PressMessage) -> String {
    format!("{}.{}", m.sent_ms, m.id)
}

fn parse_cursor(text: &str) -> ApiResult<(i64, MessageId)> {
    let bad = || {
        ApiError::unprocessable("`before` is the `older` cursor of an earlier answer (`SENT_MS.ID`)")
            .with(serde_json::json!({"field": "before"}))
    };
    let (ms, id) = text.split_once('.').ok_or_else(bad)?;
    let number = |t: &str| {
        (!t.is_empty() && t.len() <= 19 && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<i64>().ok())
            .flatten()
            .ok_or_else(bad)
    };
    let (ms, id) = (number(ms)?, number(id)?);
    if ms > MAX_TIME_MS {
        return Err(bad());
    }
    Ok((ms, MessageId(id)))
}

/// A message as its reader may see it.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct PressMessage {
    #[schema(value_type = i64)]
    pub id: MessageId,
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
    #[schema(value_type = i64)]
    pub game: GameId,
    /// Oldest first.
    pub messages: Vec<PressMessage>,
    /// Older messages were left out: read them with `before` set to `older`.
    pub more: bool,
    /// With `more`: the cursor to pass as `before` for the page of older messages.
    pub older: Option<String>,
    /// The time to poll from (`since_ms`); null when nothing was read.
    pub latest_ms: Option<i64>,
}

/// One page of the messages `viewer` may read, oldest first: the newest [`PAGE_MAX`] (or
/// `limit`) of those the query chooses, with a cursor to the page before.
pub async fn read(app: &App, viewer: Option<&Account>, id: GameId, q: &PressQuery) -> ApiResult<PressPage> {
    let limit = q.limit.unwrap_or(PAGE_MAX);
    if !(1..=PAGE_MAX).contains(&limit) {
        return Err(
            ApiError::unprocessable(format!("`limit` is 1 to {PAGE_MAX}: read more with `before`"))
                .with(serde_json::json!({"field": "limit"})),
        );
    }
    for (name, time) in [("since_ms", q.since_ms), ("before_ms", q.before_ms)] {
        if time.is_some_and(|t| !(0..=MAX_TIME_MS).contains(&t)) {
            return Err(ApiError::unprocessable(format!(
                "`{name}` is a time from 0 to {MAX_TIME_MS} ms since 1970"
            )));
        }
    }
    // The earlier of the two ends, when both are given.
    let mut before = (q.before_ms.unwrap_or(i64::MAX), MessageId(i64::MIN));
    if let Some(c) = &q.before {
        before = before.min(parse_cursor(c)?);
    }
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, viewer).await?;
    let mut messages = readable(app, id, &role, q.since_ms.unwrap_or(i64::MIN), before, limit + 1).await?;
    // One more than the page was read: whether older ones are left.
    let more = messages.len() as i64 > limit;
    if more {
        messages.remove(0);
    }
    Ok(PressPage {
        game: id,
        older: if more { messages.first().map(cursor) } else { None },
        latest_ms: messages.last().map(|m| m.sent_ms),
        messages,
        more,
    })
}

/// Every message `role` may read in game `id` sent at or after `since_ms`, oldest
/// first: for the game page, which shows the whole of its press, and for what is left
/// unread.
pub async fn read_all(app: &App, id: GameId, role: &Role, since_ms: i64) -> ApiResult<Vec<PressMessage>> {
    readable(app, id, role, since_ms, (i64::MAX, MessageId(i64::MIN)), i64::MAX).await
}

/// The newest `limit` messages `role` may read in `[since_ms, before)`, oldest first,
/// each as this reader may see it.
async fn readable(
    app: &App,
    id: GameId,
    role: &Role,
    since_ms: i64,
    before: (i64, MessageId),
    limit: i64,
) -> ApiResult<Vec<PressMessage>> {
    let who = match role {
        Role::Gm => Readable::All,
        Role::Player(p) => Readable::Power(p),
        Role::Observer | Role::Visitor => Readable::Public,
    };
    let mut rows = store::press::readable(&app.db.read, id, &who, since_ms, before, limit).await?;
    rows.reverse();
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let public = r.recipients == store::press::Recipients::Everyone;
            let (visible, own) = match role {
                Role::Gm => (true, false),
                Role::Player(p) => {
                    let own = !r.from_gm && r.sender_power.as_deref() == Some(p.as_str());
                    let named = match &r.recipients {
                        store::press::Recipients::Everyone => true,
                        store::press::Recipients::Private { powers, .. } => powers.contains(p),
                    };
                    (named || own, own)
                }
                Role::Observer | Role::Visitor => (public, false),
            };
            // The query chose already; this is the rule written once more in Rust, so
            // that a mistake in the SQL cannot show a message to the wrong reader.
            if !visible {
                return None;
            }
            let show_sender = !r.grey || own || *role == Role::Gm;
            let to = Recipients::stored(r.recipients);
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
                account: (*role == Role::Gm).then_some(r.account),
            })
        })
        .collect())
}

/// The conversation a message belongs to, seen from `role`: `*all` (to everyone),
/// `*gm` (a player's exchange with the GM), or the sorted names of the viewer's
/// counterparts (`*grey` standing for a sender the viewer may not know). The game page
/// shows one thread per key, and read marks are kept per key.
pub fn thread_of(m: &PressMessage, role: &Role) -> Vec<String> {
    if m.to.is_everyone() {
        return vec!["*all".into()];
    }
    let to = m.to.powers().to_vec();
    let from = m.from.clone();
    let mut parties: Vec<String> = match role {
        Role::Player(me) => {
            // The GM's messages to the player and the player's to the GM alone are one
            // conversation.
            if m.from_gm || to == [GM] {
                return vec!["*gm".into()];
            }
            let mut p: Vec<String> = to.into_iter().chain(from.clone()).filter(|p| p != me).collect();
            if from.is_none() {
                p.push("*grey".into());
            }
            p
        }
        // The GM's own messages go in the thread of their recipients; the rest are
        // conversations between players.
        _ => to.into_iter().filter(|t| t != GM).chain(from).collect(),
    };
    parties.sort();
    parties.dedup();
    parties
}

/// A thread's key as one string, as read marks and the page name it.
pub fn thread_name(key: &[String]) -> String {
    key.join(",")
}

/// The viewer's read marks in one game: everything up to `all_ms`, and each thread up
/// to its own time.
pub struct ReadMarks {
    all_ms: Option<i64>,
    threads: std::collections::HashMap<String, i64>,
}

impl ReadMarks {
    /// Whether the viewer has read `m` (their own messages are read).
    pub fn read(&self, m: &PressMessage, role: &Role) -> bool {
        if m.own(role) || self.all_ms.is_some_and(|t| m.sent_ms <= t) {
            return true;
        }
        self.threads
            .get(&thread_name(&thread_of(m, role)))
            .is_some_and(|&t| m.sent_ms <= t)
    }
}

/// The server's read marks of `account` in game `id`, so that every device agrees.
pub async fn read_marks(app: &App, account: &Account, id: GameId) -> ApiResult<ReadMarks> {
    Ok(ReadMarks {
        all_ms: store::press_reads::read_ms(&app.db.read, id, account.id).await?,
        threads: store::press_reads::thread_marks(&app.db.read, id, account.id)
            .await?
            .into_iter()
            .map(|m| (m.thread, m.read_ms))
            .collect(),
    })
}

/// What the viewer has not read yet of a game's press: messages from others not covered
/// by the viewer's read marks (a thread opened on the game page, or the whole press
/// marked read).
pub struct Unread {
    pub count: usize,
    /// The newest of them addressed to the viewer's power alone or with a few others
    /// (not to everyone), to show without scrolling.
    pub newest_private: Option<PressMessage>,
}

/// The viewer's unread press in game `id`.
pub async fn unread(app: &App, account: &Account, id: GameId) -> ApiResult<Unread> {
    let marks = read_marks(app, account, id).await?;
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
    let since = marks.all_ms.map_or(0, |t| t + 1);
    let messages = read_all(app, id, &role, since).await?;
    let theirs: Vec<PressMessage> = messages.into_iter().filter(|m| !marks.read(m, &role)).collect();
    Ok(Unread {
        count: theirs.len(),
        newest_private: theirs.iter().rev().find(|m| !m.to.is_everyone()).cloned(),
    })
}

/// A reading to record: one thread, or the whole press.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"thread": "France,Italy", "up_to_ms": 1764720000000_i64}))]
pub struct Reading {
    /// The thread as the game page names it (`*all`, `*gm`, or the other powers' names
    /// joined by commas); absent: every thread.
    #[serde(default)]
    pub thread: Option<String>,
    /// Read up to this time (the newest message shown); absent or later than now: now.
    #[serde(default)]
    pub up_to_ms: Option<i64>,
}

/// The read marks after a reading, and what is left unread.
#[derive(Serialize, ToSchema)]
pub struct ReadState {
    #[schema(value_type = i64)]
    pub game: GameId,
    /// Messages from others still unread.
    pub unread: usize,
}

/// Records that `account` has read a thread of game `id` (or all of its press) up to a
/// time, on the server, so that the marks agree on every device.
pub async fn mark_read(app: &App, account: &Account, id: GameId, r: Reading) -> ApiResult<ReadState> {
    let game = games::load(&app.db.read, id).await?;
    let role = role_of(&app.db.read, &game, Some(account)).await?;
    if matches!(role, Role::Visitor) {
        return Err(ApiError::forbidden(
            "only the game's players, observers and GM keep read marks",
        ));
    }
    let now = app.clock.now_ms();
    let ms = match r.up_to_ms {
        Some(t) if !(0..=MAX_TIME_MS).contains(&t) => {
            return Err(ApiError::unprocessable(format!(
                "`up_to_ms` is a time from 0 to {MAX_TIME_MS} ms since 1970"
            )))
        }
        // A mark in the future would hide messages not yet written.
        Some(t) => t.min(now),
        None => now,
    };
    match r.thread.as_deref() {
        None => store::press_reads::mark(&app.db.write, id, account.id, ms).await?,
        Some(t) if t.is_empty() || t.chars().count() > 1000 => {
            return Err(ApiError::unprocessable(
                "`thread` names a thread of the game page (1 to 1000 characters)",
            ))
        }
        Some(t) => store::press_reads::mark_thread(&app.db.write, id, account.id, t, ms).await?,
    }
    Ok(ReadState {
        game: id,
        unread: unread(app, account, id).await?.count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(from: Option<&str>, from_gm: bool, to: &[&str]) -> PressMessage {
        PressMessage {
            id: MessageId(1),
            phase: "S1901M".into(),
            from: from.map(str::to_string),
            from_gm,
            grey: from.is_none() && !from_gm,
            to: if to.is_empty() {
                Recipients::Everyone(Everyone::All)
            } else {
                Recipients::Powers(to.iter().map(|s| s.to_string()).collect())
            },
            body: String::new(),
            sent: String::new(),
            sent_ms: 0,
            account: None,
        }
    }

    #[test]
    fn threads_are_per_counterpart_seen_from_the_player() {
        let me = Role::Player("France".into());
        let sent = message(Some("France"), false, &["Italy", "Germany"]);
        let got = message(Some("Italy"), false, &["France", "Germany"]);
        assert_eq!(thread_of(&sent, &me), vec!["Germany", "Italy"]);
        assert_eq!(thread_of(&got, &me), thread_of(&sent, &me));
        assert_eq!(thread_of(&message(None, true, &["France"]), &me), vec!["*gm"]);
        // A player's note to the GM joins the GM's messages to that player, on both sides.
        let to_gm = message(Some("France"), false, &["GM"]);
        assert_eq!(thread_of(&to_gm, &me), vec!["*gm"]);
        assert_eq!(thread_of(&to_gm, &Role::Gm), vec!["France"]);
        assert_eq!(thread_of(&message(None, true, &["France"]), &Role::Gm), vec!["France"]);
        assert_eq!(thread_of(&message(Some("Italy"), false, &[]), &me), vec!["*all"]);
    }

    #[test]
    fn grey_press_has_its_own_thread() {
        let me = Role::Player("France".into());
        assert_eq!(thread_of(&message(None, false, &["France"]), &me), vec!["*grey"]);
    }

    /// A message is read when the whole press or its own thread was read after it was
    /// sent; a reading of another thread does not cover it.
    #[test]
    fn a_thread_mark_covers_its_own_thread_only() {
        let me = Role::Player("France".into());
        let mut m = message(Some("Italy"), false, &["France"]);
        m.sent_ms = 100;
        let marks = |all: Option<i64>, threads: &[(&str, i64)]| ReadMarks {
            all_ms: all,
            threads: threads.iter().map(|(k, t)| (k.to_string(), *t)).collect(),
        };
        assert!(!marks(None, &[]).read(&m, &me));
        assert!(marks(None, &[("Italy", 100)]).read(&m, &me));
        assert!(!marks(None, &[("Italy", 99)]).read(&m, &me));
        assert!(!marks(Some(50), &[("Germany", 200), ("*all", 200)]).read(&m, &me));
        assert!(marks(Some(100), &[]).read(&m, &me));
        // One's own messages are never unread.
        assert!(marks(None, &[]).read(&message(Some("France"), false, &["Italy"]), &me));
    }

    /// The pages' JavaScript and API clients read `to` as `"all"` or a list of names.
    #[test]
    fn recipients_are_all_or_a_list() {
        assert_eq!(
            serde_json::to_value(Recipients::stored(store::press::Recipients::Everyone)).unwrap(),
            serde_json::json!("all")
        );
        let private = store::press::Recipients::Private {
            powers: vec!["France".into(), "A,B".into()],
            gm: true,
        };
        assert_eq!(
            serde_json::to_value(Recipients::stored(private)).unwrap(),
            serde_json::json!(["France", "A,B", "GM"])
        );
    }
}
