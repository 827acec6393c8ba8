//! `phases` and `undone_phases`: each processed phase's record (the position judged, the
//! public result, the engine's whole judgement, how and when), and the results a GM's
//! rollback took back, kept for a roll forward.

use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

use crate::model::{GameId, HowProcessed, PhaseSeq};

/// Which of the two tables: the published phases, or those a rollback took back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Phases,
    Undone,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::Phases => "phases",
            Table::Undone => "undone_phases",
        }
    }
}

/// A processed phase's record.
#[derive(Clone, Debug)]
pub struct PhaseRow {
    pub game_id: GameId,
    pub seq: PhaseSeq,
    pub phase: String,
    /// The position judged (`StateJson`).
    pub state_json: String,
    /// The public result (`AdjudicationJson`).
    pub result_json: String,
    pub processed_ms: i64,
    pub how: HowProcessed,
    pub bid_report: Option<String>,
    /// The powers that had a decision and gave no orders, in the variant's order.
    pub missing: Vec<String>,
    /// The engine's `PhaseResult` as JSON of an `Option` (migration 9): SQL NULL for a
    /// phase stored by an older version and not yet converted.
    pub judged_json: Option<String>,
}

const COLUMNS: &str =
    "game_id, seq, phase, state_json, result_json, processed_ms, how, bid_report, missing, judged_json";

fn from_row(r: &AnyRow) -> Result<PhaseRow, sqlx::Error> {
    Ok(PhaseRow {
        game_id: r.try_get("game_id")?,
        seq: r.try_get("seq")?,
        phase: r.try_get("phase")?,
        state_json: r.try_get("state_json")?,
        result_json: r.try_get("result_json")?,
        processed_ms: r.try_get("processed_ms")?,
        how: r.try_get("how")?,
        bid_report: r.try_get("bid_report")?,
        missing: missing_of(r)?,
        judged_json: r.try_get("judged_json")?,
    })
}

/// `missing`: a JSON array of power names (migration 31), NULL for none. Names are kept
/// whole whatever their characters (a variant may name a power `A,B`).
fn missing_of(r: &AnyRow) -> Result<Vec<String>, sqlx::Error> {
    match r.try_get::<Option<String>, _>("missing")? {
        None => Ok(Vec::new()),
        Some(text) => {
            serde_json::from_str(&text).map_err(|e| sqlx::Error::Decode(format!("phases.missing `{text}`: {e}").into()))
        }
    }
}

fn missing_text(missing: &[String]) -> Result<Option<String>, sqlx::Error> {
    if missing.is_empty() {
        return Ok(None);
    }
    serde_json::to_string(missing)
        .map(Some)
        .map_err(|e| sqlx::Error::Encode(e.into()))
}

pub async fn insert<'e, E: Executor<'e, Database = Any>>(e: E, table: Table, p: &PhaseRow) -> sqlx::Result<()> {
    sqlx::query(&format!(
        "INSERT INTO {} ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        table.name()
    ))
    .bind(p.game_id)
    .bind(p.seq)
    .bind(&p.phase)
    .bind(&p.state_json)
    .bind(&p.result_json)
    .bind(p.processed_ms)
    .bind(p.how)
    .bind(&p.bid_report)
    .bind(missing_text(&p.missing)?)
    .bind(&p.judged_json)
    .execute(e)
    .await?;
    Ok(())
}

pub async fn get<'e, E: Executor<'e, Database = Any>>(
    e: E,
    table: Table,
    game_id: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<Option<PhaseRow>> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM {} WHERE game_id = $1 AND seq = $2",
        table.name()
    ))
    .bind(game_id)
    .bind(seq)
    .fetch_optional(e)
    .await?
    .map(|r| from_row(&r))
    .transpose()
}

pub async fn delete<'e, E: Executor<'e, Database = Any>>(
    e: E,
    table: Table,
    game_id: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<()> {
    sqlx::query(&format!("DELETE FROM {} WHERE game_id = $1 AND seq = $2", table.name()))
        .bind(game_id)
        .bind(seq)
        .execute(e)
        .await?;
    Ok(())
}

/// Forgets the rolled-back results from phase `seq` on.
pub async fn delete_undone_from<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    seq: PhaseSeq,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM undone_phases WHERE game_id = $1 AND seq >= $2")
        .bind(game_id)
        .bind(seq)
        .execute(e)
        .await?;
    Ok(())
}

/// A line of a game's list of processed phases.
#[derive(Clone, Debug)]
pub struct PhaseLine {
    pub seq: PhaseSeq,
    pub phase: String,
    pub processed_ms: i64,
    pub how: HowProcessed,
    /// The powers that had a decision and gave no orders.
    pub missing: Vec<String>,
}

/// Every processed phase of the game, in order.
pub async fn list<'e, E: Executor<'e, Database = Any>>(e: E, game_id: GameId) -> sqlx::Result<Vec<PhaseLine>> {
    sqlx::query("SELECT seq, phase, processed_ms, how, missing FROM phases WHERE game_id = $1 ORDER BY seq")
        .bind(game_id)
        .fetch_all(e)
        .await?
        .iter()
        .map(|r| {
            Ok(PhaseLine {
                seq: r.try_get("seq")?,
                phase: r.try_get("phase")?,
                processed_ms: r.try_get("processed_ms")?,
                how: r.try_get("how")?,
                missing: missing_of(r)?,
            })
        })
        .collect()
}

/// The newest `limit` processed phases of the game, newest first.
pub async fn newest<'e, E: Executor<'e, Database = Any>>(
    e: E,
    game_id: GameId,
    limit: i64,
) -> sqlx::Result<Vec<PhaseRow>> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM phases WHERE game_id = $1 ORDER BY seq DESC LIMIT $2"
    ))
    .bind(game_id)
    .bind(limit)
    .fetch_all(e)
    .await?
    .iter()
    .map(from_row)
    .collect()
}

/// The records stored before their judgement was kept (migration 9), not yet converted.
pub async fn unconverted<'e, E: Executor<'e, Database = Any>>(e: E, table: Table) -> sqlx::Result<Vec<PhaseRow>> {
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM {} WHERE judged_json IS NULL",
        table.name()
    ))
    .fetch_all(e)
    .await?
    .iter()
    .map(from_row)
    .collect()
}

/// Keeps a converted record's judgement, unless another server did so first.
pub async fn set_judged<'e, E: Executor<'e, Database = Any>>(
    e: E,
    table: Table,
    game_id: GameId,
    seq: PhaseSeq,
    judged_json: &str,
) -> sqlx::Result<()> {
    sqlx::query(&format!(
        "UPDATE {} SET judged_json = $3 WHERE game_id = $1 AND seq = $2 AND judged_json IS NULL",
        table.name()
    ))
    .bind(game_id)
    .bind(seq)
    .bind(judged_json)
    .execute(e)
    .await?;
    Ok(())
}
