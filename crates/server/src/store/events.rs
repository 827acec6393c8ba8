//! `events`: the game's log of starts, processing and GM actions, each stamped with the
//! server that wrote it.

use crate::model::{GameId, PhaseSeq};
use sqlx::{Any, Executor, Row};

use crate::db::new_id;

/// What happened to a game, for the log.
pub struct Event<'a> {
    pub game: GameId,
    pub seq: PhaseSeq,
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

/// An event as the log shows it.
#[derive(Clone, Debug)]
pub struct EventRow {
    pub seq: PhaseSeq,
    pub phase: String,
    pub kind: String,
    pub detail: String,
    pub server: String,
    pub at_ms: i64,
}

/// The game's log, oldest first.
pub async fn of_game<'e, E: Executor<'e, Database = Any>>(e: E, game: GameId) -> sqlx::Result<Vec<EventRow>> {
    sqlx::query("SELECT seq, phase, kind, detail, server, at_ms FROM events WHERE game_id = $1 ORDER BY at_ms, seq")
        .bind(game)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(EventRow {
                seq: r.try_get("seq")?,
                phase: r.try_get("phase")?,
                kind: r.try_get("kind")?,
                detail: r.try_get("detail")?,
                server: r.try_get("server")?,
                at_ms: r.try_get("at_ms")?,
            })
        })
        .collect()
}
