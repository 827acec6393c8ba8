//! `events`: the game's log of starts, processing and GM actions, each stamped with the
//! server that wrote it.

use sqlx::{Any, Executor};

use crate::db::new_id;

/// What happened to a game, for the log.
pub struct Event<'a> {
    pub game: i64,
    pub seq: i64,
    pub phase: &'a str,
    pub kind: &'a str,
    pub detail: &'a str,
    pub server: &'a str,
    pub at_ms: i64,
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(e: E, ev: &Event<'_>) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO events (id, game_id, seq, phase, kind, detail, server, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
        .bind(new_id())
        .bind(ev.game)
        .bind(ev.seq)
        .bind(ev.phase)
        .bind(ev.kind)
        .bind(ev.detail)
        .bind(ev.server)
        .bind(ev.at_ms)
        .execute(e)
        .await?;
    Ok(())
}
