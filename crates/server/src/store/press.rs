//! `press`: the messages of each game, with who may read them.

use sqlx::{Any, Executor};

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
