//! `press`: the messages of each game, with who may read them.

use sqlx::{Any, Executor, Row};

use super::flag;

/// A message to store.
pub struct NewMessage<'a> {
    pub id: i64,
    pub game_id: i64,
    pub seq: i64,
    pub phase: &'a str,
    pub sender_account: i64,
    /// None for the GM.
    pub sender_power: Option<&'a str>,
    pub from_gm: bool,
    pub grey: bool,
    /// `*` for everyone, else the recipients' names joined by commas.
    pub recipients: &'a str,
    pub body: &'a str,
    pub sent_ms: i64,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(e: E, m: &NewMessage<'_>) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO press (id, game_id, seq, phase, sender_account, sender_power, from_gm, grey, recipients, body, sent_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
        .bind(m.id)
        .bind(m.game_id)
        .bind(m.seq)
        .bind(m.phase)
        .bind(m.sender_account)
        .bind(m.sender_power)
        .bind(m.from_gm as i64)
        .bind(m.grey as i64)
        .bind(m.recipients)
        .bind(m.body)
        .bind(m.sent_ms)
        .execute(e)
        .await?;
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
    pub id: i64,
    pub phase: String,
    pub sender_power: Option<String>,
    pub from_gm: bool,
    pub grey: bool,
    /// `*` for everyone, else the recipients' names joined by commas.
    pub recipients: String,
    pub body: String,
    pub sent_ms: i64,
    pub account: String,
}

/// The newest `limit` messages of the game sent at or after `since_ms` and before
/// `before` (a message's `(sent_ms, id)`: messages are ordered by time, then id, so that
/// a page ends between two messages even when many share a millisecond) that `who` may
/// read, newest first. Who may read what is decided in the query, so that the limit
/// counts only the reader's messages and other conversations are never fetched.
pub async fn readable<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: i64,
    who: &Readable<'_>,
    since_ms: i64,
    before: (i64, i64),
    limit: i64,
) -> sqlx::Result<Vec<MessageRow>> {
    // Recipients are stored as `*` or `A,B,C`; `,A,B,C,` LIKE `%,B,%` finds B.
    let visible = match who {
        Readable::All => "1 = 1",
        Readable::Power(_) => {
            "(p.recipients = '*' OR (p.sender_power = $6 AND p.from_gm = 0) OR (',' || p.recipients || ',') LIKE $7)"
        }
        Readable::Public => "p.recipients = '*'",
    };
    let sql = format!(
        "SELECT p.id, p.phase, p.sender_power, p.from_gm, p.grey, p.recipients, p.body, p.sent_ms, a.name FROM press p JOIN accounts a ON a.id = p.sender_account
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
        query = query.bind(p.to_string()).bind(format!("%,{p},%"));
    }
    query
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(MessageRow {
                id: r.try_get("id")?,
                phase: r.try_get("phase")?,
                sender_power: r.try_get("sender_power")?,
                from_gm: flag(r, "from_gm")?,
                grey: flag(r, "grey")?,
                recipients: r.try_get("recipients")?,
                body: r.try_get("body")?,
                sent_ms: r.try_get("sent_ms")?,
                account: r.try_get("name")?,
            })
        })
        .collect()
}
