//! `press`: the messages of each game, with who may read them.

use crate::model::{AccountId, GameId, MessageId, PhaseSeq};
use sqlx::{Any, Executor, Row};

use super::flag;

/// To whom a message goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipients {
    /// Everyone: public press.
    Everyone,
    /// These powers (in the order written) and, with `gm`, the game's GM.
    Private { powers: Vec<String>, gm: bool },
}

/// A message to store.
pub struct NewMessage<'a> {
    pub id: MessageId,
    pub game_id: GameId,
    pub seq: PhaseSeq,
    pub phase: &'a str,
    pub sender_account: AccountId,
    /// None for the GM.
    pub sender_power: Option<&'a str>,
    pub from_gm: bool,
    pub grey: bool,
    pub recipients: &'a Recipients,
    pub body: &'a str,
    pub sent_ms: i64,
}

/// Stores a message and its recipients, one row per power: `e` is a transaction.
pub async fn insert(e: &mut sqlx::AnyConnection, m: &NewMessage<'_>) -> sqlx::Result<()> {
    let (public, to_gm, powers): (bool, bool, &[String]) = match m.recipients {
        Recipients::Everyone => (true, false, &[]),
        Recipients::Private { powers, gm } => (false, *gm, powers),
    };
    sqlx::query("INSERT INTO press (id, game_id, seq, phase, sender_account, sender_power, from_gm, grey, public, to_gm, body, sent_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)")
        .bind(m.id)
        .bind(m.game_id)
        .bind(m.seq)
        .bind(m.phase)
        .bind(m.sender_account)
        .bind(m.sender_power)
        .bind(m.from_gm as i64)
        .bind(m.grey as i64)
        .bind(public as i64)
        .bind(to_gm as i64)
        .bind(m.body)
        .bind(m.sent_ms)
        .execute(&mut *e)
        .await?;
    for (ord, power) in powers.iter().enumerate() {
        sqlx::query("INSERT INTO press_recipients (press_id, game_id, power, ord) VALUES ($1, $2, $3, $4)")
            .bind(m.id)
            .bind(m.game_id)
            .bind(power)
            .bind(ord as i64)
            .execute(&mut *e)
            .await?;
    }
    Ok(())
}

/// Whose messages a read may return; decided by the service from the viewer's role.
pub enum Readable<'a> {
    /// The GM: every message of the game.
    All,
    /// A player: public messages, the power's own and those sent to it.
    Power(&'a str),
    /// Observers and visitors: public messages only.
    Public,
}

/// A stored message, with the account that wrote it.
pub struct MessageRow {
    pub id: MessageId,
    pub phase: String,
    pub sender_power: Option<String>,
    pub from_gm: bool,
    pub grey: bool,
    pub recipients: Recipients,
    pub body: String,
    pub sent_ms: i64,
    pub account: String,
}

/// The newest `limit` messages of the game sent at or after `since_ms` and before
/// `before` (a message's `(sent_ms, id)`: messages are ordered by time, then id, so that
/// a page ends between two messages even when many share a millisecond) that `who` may
/// read, newest first. Who may read what is decided in the query, by equality on the
/// recipients' rows (never a pattern a name could widen), so that the limit counts
/// only the reader's messages and other conversations are never fetched.
pub async fn readable<'e, E: Executor<'e, Database = Any> + Copy>(
    e: E,
    game_id: GameId,
    who: &Readable<'_>,
    since_ms: i64,
    before: (i64, MessageId),
    limit: i64,
) -> sqlx::Result<Vec<MessageRow>> {
    let visible = match who {
        Readable::All => "1 = 1",
        Readable::Power(_) => {
            "(p.public = 1 OR (p.sender_power = $6 AND p.from_gm = 0)
              OR EXISTS (SELECT 1 FROM press_recipients r WHERE r.press_id = p.id AND r.power = $6))"
        }
        Readable::Public => "p.public = 1",
    };
    let sql = format!(
        "SELECT p.id, p.phase, p.sender_power, p.from_gm, p.grey, p.public, p.to_gm, p.body, p.sent_ms, a.name FROM press p JOIN accounts a ON a.id = p.sender_account
         WHERE p.game_id = $1 AND p.sent_ms >= $2 AND (p.sent_ms < $3 OR (p.sent_ms = $3 AND p.id < $4)) AND {visible}
         ORDER BY p.sent_ms DESC, p.id DESC LIMIT $5"
    );
    let mut query = sqlx::query(&sql)
        .bind(game_id)
        .bind(since_ms)
        .bind(before.0)
        .bind(before.1)
        .bind(limit);
    if let Readable::Power(p) = who {
        query = query.bind(p.to_string());
    }
    let mut rows = query
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            let recipients = if flag(r, "public")? {
                Recipients::Everyone
            } else {
                Recipients::Private {
                    powers: Vec::new(),
                    gm: flag(r, "to_gm")?,
                }
            };
            Ok(MessageRow {
                id: r.try_get("id")?,
                phase: r.try_get("phase")?,
                sender_power: r.try_get("sender_power")?,
                from_gm: flag(r, "from_gm")?,
                grey: flag(r, "grey")?,
                recipients,
                body: r.try_get("body")?,
                sent_ms: r.try_get("sent_ms")?,
                account: r.try_get("name")?,
            })
        })
        .collect::<sqlx::Result<Vec<MessageRow>>>()?;
    // The private messages' recipients, by the ids just read (a second window query
    // could see a message written in between).
    let private: Vec<MessageId> = rows
        .iter()
        .filter(|m| m.recipients != Recipients::Everyone)
        .map(|m| m.id)
        .collect();
    let mut powers: std::collections::HashMap<MessageId, Vec<String>> = std::collections::HashMap::new();
    for ids in private.chunks(500) {
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT press_id, power FROM press_recipients WHERE press_id IN ({}) ORDER BY press_id, ord",
            marks.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for id in ids {
            query = query.bind(*id);
        }
        for r in query.fetch_all(e).await? {
            powers
                .entry(r.try_get("press_id")?)
                .or_default()
                .push(r.try_get("power")?);
        }
    }
    for m in &mut rows {
        if let Recipients::Private { powers: to, .. } = &mut m.recipients {
            *to = powers.remove(&m.id).unwrap_or_default();
        }
    }
    Ok(rows)
}
