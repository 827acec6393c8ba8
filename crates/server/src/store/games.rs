//! `games`: one row per game, its settings, its current position and phase number.

use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

use super::flag;
use crate::db::{Backend, Tx};
use crate::model::{AccountId, GameId, GameOutcome, GameStatus, PhaseSeq, PressRule};

/// A row of `games`.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: GameId,
    pub name: String,
    pub variant: String,
    pub variant_text: Option<String>,
    pub gm_id: AccountId,
    pub status: GameStatus,
    pub press: PressRule,
    pub grey_press: bool,
    pub anonymous: bool,
    /// An anonymous game names its players once finished.
    pub reveal_at_end: bool,
    pub movement_minutes: i64,
    pub retreat_minutes: i64,
    pub adjustment_minutes: i64,
    pub start_at_ms: Option<i64>,
    pub seq: PhaseSeq,
    pub state_json: String,
    pub deadline_ms: Option<i64>,
    pub paused_left_ms: Option<i64>,
    pub outcome: Option<GameOutcome>,
    /// "HH:MM": deadlines fall at this time of day in `time_zone`.
    pub deadline_time: Option<String>,
    pub time_zone: Option<String>,
    /// The last ready mark processes the phase before its deadline.
    pub process_when_ready: bool,
}

const GAME_COLUMNS: &str = "id, name, variant, variant_text, gm_id, status, press, grey_press, anonymous, reveal_at_end, movement_minutes, retreat_minutes, adjustment_minutes, start_at_ms, seq, state_json, deadline_ms, paused_left_ms, outcome, deadline_time, time_zone, process_when_ready";

/// How many times this process has decoded a stored position (`Game::state`), for the
/// test endpoint `/api/test/state-decodes`. Kept beside the `Game` row (whose methods
/// count on it), so that no store module leans on a service.
pub static STATE_DECODES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn game_from_row(r: &AnyRow) -> Result<Game, sqlx::Error> {
    Ok(Game {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        variant: r.try_get("variant")?,
        variant_text: r.try_get("variant_text")?,
        gm_id: r.try_get("gm_id")?,
        status: r.try_get("status")?,
        press: r.try_get("press")?,
        grey_press: flag(r, "grey_press")?,
        anonymous: flag(r, "anonymous")?,
        reveal_at_end: flag(r, "reveal_at_end")?,
        movement_minutes: r.try_get("movement_minutes")?,
        retreat_minutes: r.try_get("retreat_minutes")?,
        adjustment_minutes: r.try_get("adjustment_minutes")?,
        start_at_ms: r.try_get("start_at_ms")?,
        seq: r.try_get("seq")?,
        state_json: r.try_get("state_json")?,
        deadline_ms: r.try_get("deadline_ms")?,
        paused_left_ms: r.try_get("paused_left_ms")?,
        outcome: r.try_get("outcome")?,
        deadline_time: r.try_get("deadline_time")?,
        time_zone: r.try_get("time_zone")?,
        process_when_ready: flag(r, "process_when_ready")?,
    })
}

pub async fn by_id<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId) -> sqlx::Result<Option<Game>> {
    sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
        .bind(id)
        .fetch_optional(e)
        .await?
        .map(|r| game_from_row(&r))
        .transpose()
}

/// How a write transaction holds its game.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// Exclusive, waiting for other holders (GM actions, orders, ready marks).
    Wait,
    /// Exclusive, or nothing at once when another transaction holds the game: the
    /// scheduler's claim, so that servers sharing a database never queue on one phase.
    SkipLocked,
}

/// Takes the game's row lock inside `tx`; false when the game does not exist or (with
/// `SkipLocked`) another transaction holds it.
///
/// PostgreSQL: `SELECT … FOR UPDATE [SKIP LOCKED]`. SQLite has one writer per database,
/// so the first statement of the transaction is a write that takes that lock (waiting up
/// to the busy timeout); reading first and writing later could fail the upgrade.
pub async fn lock_id(tx: &mut Tx, backend: Backend, game_id: GameId, lock: Lock) -> sqlx::Result<bool> {
    match backend {
        Backend::Postgres => {
            let sql = match lock {
                Lock::Wait => "SELECT id FROM games WHERE id = $1 FOR UPDATE",
                Lock::SkipLocked => "SELECT id FROM games WHERE id = $1 FOR UPDATE SKIP LOCKED",
            };
            Ok(sqlx::query(sql)
                .bind(game_id)
                .fetch_optional(&mut **tx)
                .await?
                .is_some())
        }
        Backend::Sqlite => {
            let r = sqlx::query("UPDATE games SET seq = seq WHERE id = $1")
                .bind(game_id)
                .execute(&mut **tx)
                .await?;
            Ok(r.rows_affected() == 1)
        }
    }
}

/// Takes the game's row lock inside `tx` and reads the game, in one statement: every
/// write transaction begins here, and on SQLite each statement is a round trip made
/// while holding the database's only write lock (see [`lock_id`] for why SQLite's
/// lock is a write).
pub async fn lock(tx: &mut Tx, backend: Backend, id: GameId) -> sqlx::Result<Option<Game>> {
    let sql = match backend {
        Backend::Postgres => format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1 FOR UPDATE"),
        Backend::Sqlite => format!("UPDATE games SET seq = seq WHERE id = $1 RETURNING {GAME_COLUMNS}"),
    };
    sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| game_from_row(&r))
        .transpose()
}

/// The newest `limit` games.
pub async fn newest<'e, E: Executor<'e, Database = Any>>(e: E, limit: i64) -> sqlx::Result<Vec<Game>> {
    sqlx::query(&format!(
        "SELECT {GAME_COLUMNS} FROM games ORDER BY created_ms DESC LIMIT $1"
    ))
    .bind(limit)
    .fetch_all(e)
    .await?
    .iter()
    .map(game_from_row)
    .collect()
}

/// A new game, as its creation stores it.
pub struct NewGameRow<'a> {
    pub id: GameId,
    pub name: &'a str,
    pub variant: &'a str,
    pub variant_text: Option<&'a str>,
    pub gm_id: AccountId,
    pub press: PressRule,
    pub grey_press: bool,
    pub anonymous: bool,
    pub reveal_at_end: bool,
    pub movement_minutes: i64,
    pub retreat_minutes: i64,
    pub adjustment_minutes: i64,
    pub start_at_ms: Option<i64>,
    pub state_json: &'a str,
    pub created_ms: i64,
    pub deadline_time: Option<&'a str>,
    pub time_zone: Option<&'a str>,
    pub process_when_ready: bool,
}

/// Adds a forming game at phase 0.
pub async fn insert<'e, E: Executor<'e, Database = Any>>(e: E, g: &NewGameRow<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO games (id, name, variant, variant_text, gm_id, status, press, grey_press, anonymous, movement_minutes, retreat_minutes, adjustment_minutes, start_at_ms, seq, state_json, created_ms, deadline_time, time_zone, reveal_at_end, process_when_ready)
         VALUES ($1, $2, $3, $4, $5, 'forming', $6, $7, $8, $9, $10, $11, $12, 0, $13, $14, $15, $16, $17, $18)",
    )
    .bind(g.id)
    .bind(g.name)
    .bind(g.variant)
    .bind(g.variant_text)
    .bind(g.gm_id)
    .bind(g.press)
    .bind(g.grey_press as i64)
    .bind(g.anonymous as i64)
    .bind(g.movement_minutes)
    .bind(g.retreat_minutes)
    .bind(g.adjustment_minutes)
    .bind(g.start_at_ms)
    .bind(g.state_json)
    .bind(g.created_ms)
    .bind(g.deadline_time)
    .bind(g.time_zone)
    .bind(g.reveal_at_end as i64)
    .bind(g.process_when_ready as i64)
    .execute(e)
    .await?;
    Ok(())
}

/// forming → active with its first deadline; nothing when the game is not forming.
pub async fn start<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId, deadline_ms: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET status = 'active', deadline_ms = $2 WHERE id = $1 AND status = 'forming'")
        .bind(id)
        .bind(deadline_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// Moves the game from phase `seq` to the next, at `state_json`: still running with the
/// next deadline, or finished with its outcome.
pub async fn advance<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: GameId,
    seq: PhaseSeq,
    state_json: &str,
    status: GameStatus,
    outcome: Option<&GameOutcome>,
    deadline_ms: Option<i64>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET seq = seq + 1, state_json = $3, status = $4, outcome = $5, deadline_ms = $6, paused_left_ms = NULL WHERE id = $1 AND seq = $2")
        .bind(id)
        .bind(seq)
        .bind(state_json)
        .bind(status)
        .bind(outcome)
        .bind(deadline_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// Puts the game back at phase `seq` and its position, running again (a rollback).
pub async fn return_to<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: GameId,
    seq: PhaseSeq,
    state_json: &str,
    deadline_ms: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET seq = $2, state_json = $3, status = $4, outcome = NULL, deadline_ms = $5, paused_left_ms = NULL WHERE id = $1")
        .bind(id)
        .bind(seq)
        .bind(state_json)
        .bind(GameStatus::Active)
        .bind(deadline_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// The forming games whose start time has come by `now`.
pub async fn starting<'e, E: Executor<'e, Database = Any>>(e: E, now: i64) -> sqlx::Result<Vec<GameId>> {
    sqlx::query("SELECT id FROM games WHERE status = 'forming' AND start_at_ms IS NOT NULL AND start_at_ms <= $1")
        .bind(now)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| r.try_get("id"))
        .collect()
}

/// A running game whose deadline has passed, in the phase it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DueGame {
    pub id: GameId,
    pub seq: PhaseSeq,
}

/// The running games whose deadline has passed by `now`, soonest first, at most `limit`.
pub async fn due<'e, E: Executor<'e, Database = Any>>(e: E, now: i64, limit: i64) -> sqlx::Result<Vec<DueGame>> {
    sqlx::query("SELECT id, seq FROM games WHERE status = 'active' AND deadline_ms <= $1 ORDER BY deadline_ms LIMIT $2")
        .bind(now)
        .bind(limit)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(DueGame {
                id: r.try_get("id")?,
                seq: r.try_get("seq")?,
            })
        })
        .collect()
}

/// Sets the running game's deadline.
pub async fn set_deadline<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId, deadline_ms: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET deadline_ms = $2 WHERE id = $1")
        .bind(id)
        .bind(deadline_ms)
        .execute(e)
        .await?;
    Ok(())
}

/// Pauses the game with `left_ms` to play when it resumes.
pub async fn pause<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId, left_ms: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET status = $3, paused_left_ms = $2, deadline_ms = NULL WHERE id = $1")
        .bind(id)
        .bind(left_ms)
        .bind(GameStatus::Paused)
        .execute(e)
        .await?;
    Ok(())
}

/// Resumes a paused game with its new deadline.
pub async fn resume<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId, deadline_ms: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET status = $3, paused_left_ms = NULL, deadline_ms = $2 WHERE id = $1")
        .bind(id)
        .bind(deadline_ms)
        .bind(GameStatus::Active)
        .execute(e)
        .await?;
    Ok(())
}

/// Replaces the current position (a declaration changed it within the phase).
pub async fn set_state<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId, state_json: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET state_json = $2 WHERE id = $1")
        .bind(id)
        .bind(state_json)
        .execute(e)
        .await?;
    Ok(())
}

/// Hands the game to another GM.
pub async fn set_gm<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId, gm_id: AccountId) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET gm_id = $2 WHERE id = $1")
        .bind(id)
        .bind(gm_id)
        .execute(e)
        .await?;
    Ok(())
}

/// The settings a GM may change while the game runs.
pub struct SettingsRow<'a> {
    pub name: &'a str,
    pub press: PressRule,
    pub grey_press: bool,
    pub movement_minutes: i64,
    pub retreat_minutes: i64,
    pub adjustment_minutes: i64,
    pub deadline_time: Option<&'a str>,
    pub time_zone: Option<&'a str>,
    pub process_when_ready: bool,
}

pub async fn set_settings<'e, E: Executor<'e, Database = Any>>(
    e: E,
    id: GameId,
    s: &SettingsRow<'_>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE games SET name = $2, press = $3, grey_press = $4, movement_minutes = $5, retreat_minutes = $6, \
         adjustment_minutes = $7, deadline_time = $8, time_zone = $9, process_when_ready = $10 WHERE id = $1",
    )
    .bind(id)
    .bind(s.name)
    .bind(s.press)
    .bind(s.grey_press as i64)
    .bind(s.movement_minutes)
    .bind(s.retreat_minutes)
    .bind(s.adjustment_minutes)
    .bind(s.deadline_time)
    .bind(s.time_zone)
    .bind(s.process_when_ready as i64)
    .execute(e)
    .await?;
    Ok(())
}

/// Ends the game with its outcome.
pub async fn finish<'e, E: Executor<'e, Database = Any>>(e: E, id: GameId, outcome: &GameOutcome) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET status = $3, outcome = $2, deadline_ms = NULL WHERE id = $1")
        .bind(id)
        .bind(outcome)
        .bind(GameStatus::Finished)
        .execute(e)
        .await?;
    Ok(())
}
