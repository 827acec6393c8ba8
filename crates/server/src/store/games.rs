//! `games`: one row per game, its settings, its current position and phase number.

use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

use super::flag;
use crate::db::{Backend, Tx};
use crate::model::GameStatus;

/// A row of `games`.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: i64,
    pub name: String,
    pub variant: String,
    pub variant_text: Option<String>,
    pub gm_id: i64,
    pub status: GameStatus,
    pub press: String,
    pub grey_press: bool,
    pub anonymous: bool,
    /// An anonymous game names its players once finished.
    pub reveal_at_end: bool,
    pub movement_minutes: i64,
    pub retreat_minutes: i64,
    pub adjustment_minutes: i64,
    pub start_at_ms: Option<i64>,
    pub seq: i64,
    pub state_json: String,
    pub deadline_ms: Option<i64>,
    pub paused_left_ms: Option<i64>,
    pub outcome: Option<String>,
    /// "HH:MM": deadlines fall at this time of day in `time_zone`.
    pub deadline_time: Option<String>,
    pub time_zone: Option<String>,
}

const GAME_COLUMNS: &str = "id, name, variant, variant_text, gm_id, status, press, grey_press, anonymous, reveal_at_end, movement_minutes, retreat_minutes, adjustment_minutes, start_at_ms, seq, state_json, deadline_ms, paused_left_ms, outcome, deadline_time, time_zone";

/// The `status` column of a row, which the schema only ever sets to a [`GameStatus`].
pub(crate) fn status_of(r: &AnyRow) -> Result<GameStatus, sqlx::Error> {
    let text: String = r.try_get("status")?;
    GameStatus::parse(&text).ok_or_else(|| sqlx::Error::Decode(format!("unknown game status `{text}`").into()))
}

fn game_from_row(r: &AnyRow) -> Result<Game, sqlx::Error> {
    Ok(Game {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        variant: r.try_get("variant")?,
        variant_text: r.try_get("variant_text")?,
        gm_id: r.try_get("gm_id")?,
        status: status_of(r)?,
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
    })
}

pub async fn by_id<'e, E: Executor<'e, Database = Any>>(e: E, id: i64) -> sqlx::Result<Option<Game>> {
    sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
        .bind(id)
        .fetch_optional(e)
        .await?
        .map(|r| game_from_row(&r))
        .transpose()
}

/// Takes the game's row lock inside `tx` and reads the game, in one statement: every
/// write transaction begins here, and on SQLite each statement is a round trip made
/// while holding the database's only write lock (see `db::lock_game` for why SQLite's
/// lock is a write).
pub async fn lock(tx: &mut Tx, backend: Backend, id: i64) -> sqlx::Result<Option<Game>> {
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
