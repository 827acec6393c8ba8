//! Adjudicating a phase, exactly once, and the GM's rollback and roll forward.
//!
//! Once-only rests on two things: the game's row lock (`db::lock_game`) taken before
//! anything is read, and the check that the game is still at the phase the caller
//! meant. A second server, a retry after a crash, or a GM's "process now" racing the
//! deadline all find the phase number moved on and do nothing. The `phases` primary key
//! (game, phase number) backs this up inside the database.

use chancery_engine::dp;
use chancery_engine::json::{adjudication_json, state_from_json, AdjudicationJson, StateJson};
use chancery_engine::parse::parse_order;
use chancery_engine::phase::judge_phase;
use chancery_engine::variant::PowerKind;
use chancery_engine::{GameState, Order, Variant};
use sqlx::Row;

use crate::db::{lock_game, Lock, Tx};
use crate::error::{ApiError, ApiResult};
use crate::model::GameStatus;
use crate::services::games;
use crate::store::games::Game;
use crate::App;

pub async fn log_event(
    tx: &mut Tx,
    app: &App,
    game_id: i64,
    seq: i64,
    phase: &str,
    kind: &str,
    detail: &str,
) -> ApiResult<()> {
    Ok(crate::services::games::log_event(tx, app, game_id, seq, phase, kind, detail).await?)
}

/// The powers in civil disorder.
pub const DISORDER: &str = "SELECT power FROM disorder WHERE game_id = $1";

pub async fn disorder_powers(tx: &mut Tx, game_id: i64) -> ApiResult<Vec<String>> {
    Ok(crate::store::powers_where(&mut **tx, DISORDER, game_id).await?)
}

/// The scheduler's processing of phase `seq`: only if it is still the current one, the
/// game is running and its deadline has passed by `now`. `lock` says whether to wait for
/// a game another transaction holds (`Wait`, so a game under a steady stream of order
/// submissions is never starved) or to skip it (`SkipLocked`, so servers sharing a
/// database spread out over the due games). Returns whether this call processed it.
pub async fn process_due(app: &App, game_id: i64, seq: i64, now: i64, lock: Lock) -> ApiResult<bool> {
    let mut tx = app.db.write.begin().await?;
    if !lock_game(&mut tx, app.db.backend, game_id, lock).await? {
        return Ok(false);
    }
    let game = games::load(&mut *tx, game_id).await?;
    if game.seq != seq || game.status != GameStatus::Active || game.deadline_ms.is_none_or(|d| d > now) {
        return Ok(false);
    }
    adjudicate_current(app, &mut tx, &game, "deadline").await?;
    tx.commit().await?;
    Ok(true)
}

/// Adjudicates the game's current phase inside `tx` (which holds the game's lock).
pub async fn adjudicate_current(app: &App, tx: &mut Tx, game: &Game, how: &str) -> ApiResult<AdjudicationJson> {
    let judged = judge(app, tx, game).await?;
    let now = app.clock.now_ms();
    record(app, tx, game, &judged, now, how, false).await?;
    log_event(tx, app, game.id, game.seq, &judged.phase, "processed", how).await?;
    Ok(judged.result)
}

/// A phase judged from the orders and bids stored now, not yet recorded.
struct Judged {
    phase: String,
    /// The public result, with names (the API's and the pages' form).
    result: AdjudicationJson,
    result_text: String,
    /// The engine's whole judgement (`PhaseResult`), kept so that history draws from it.
    judged_text: String,
    bid_report: Option<String>,
    /// The powers with a decision to make that gave no orders (no moves received).
    missing: Vec<String>,
}

/// The input the engine judges the current phase on: the stored orders and bids, leaving
/// out powers in civil disorder, who give no orders (the engine's rules for missing
/// orders apply: hold, disband, civil-disorder removals) and buy nothing.
pub struct PhaseInput {
    pub state: GameState,
    pub orders: Vec<Order>,
    pub bids: Vec<dp::Bid>,
    pub disorder: Vec<String>,
}

pub async fn phase_input(tx: &mut Tx, v: &Variant, game: &Game) -> ApiResult<PhaseInput> {
    let state = game.state(v)?;
    let disorder = disorder_powers(tx, game.id).await?;
    let orders = stored_orders(tx, v, game, &disorder).await?;
    let bids = crate::bids::phase_bids(tx, v, game, &disorder).await?;
    Ok(PhaseInput {
        state,
        orders,
        bids,
        disorder,
    })
}

async fn judge(app: &App, tx: &mut Tx, game: &Game) -> ApiResult<Judged> {
    let v = game.variant(app)?;
    let input = phase_input(tx, &v, game).await?;
    let PhaseInput {
        state,
        orders,
        bids,
        disorder,
    } = &input;
    // A power in civil disorder is expected to give none; the GM already knows.
    let missing: Vec<String> = v
        .powers
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind != PowerKind::Minor && p.player.is_none() && !disorder.contains(&p.name))
        .filter(|(i, p)| {
            crate::orders::has_choice(&v, state, &p.name) && !orders.iter().any(|o| o.power as usize == *i)
        })
        .map(|(_, p)| p.name.clone())
        .collect();
    // The engine's one pipeline: the minors' orders bought by the bids (rule 4), the
    // adjudication, rule 8's orphaned factions, the next position and the winner.
    let judged = judge_phase(&v, state, orders, bids);
    let internal = |e: serde_json::Error| ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    let result = adjudication_json(&v, &judged.adjudication);
    let result_text = serde_json::to_string(&result).map_err(internal)?;
    let judged_text = serde_json::to_string(&judged).map_err(internal)?;
    Ok(Judged {
        phase: state.phase.code(),
        result,
        result_text,
        judged_text,
        bid_report: judged.bid_report.as_ref().map(|r| r.text(&v)),
        missing,
    })
}

/// Publishes a judged phase and moves the game on to the next one. `restored`: the
/// result is the one a rollback took back, so the later phases rolled back with it still
/// follow from it and stay available to roll forward.
async fn record(
    app: &App,
    tx: &mut Tx,
    game: &Game,
    judged: &Judged,
    processed_ms: i64,
    how: &str,
    restored: bool,
) -> ApiResult<()> {
    let missing = (!judged.missing.is_empty()).then(|| judged.missing.join(","));
    sqlx::query("INSERT INTO phases (game_id, seq, phase, state_json, result_json, processed_ms, how, bid_report, missing, judged_json) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
        .bind(game.id)
        .bind(game.seq)
        .bind(&judged.phase)
        .bind(&game.state_json)
        .bind(&judged.result_text)
        .bind(processed_ms)
        .bind(how)
        .bind(&judged.bid_report)
        .bind(missing)
        .bind(&judged.judged_text)
        .execute(&mut **tx)
        .await?;
    // A new result for this phase makes any result rolled back from here on stale.
    let stale = if restored { "seq = $2" } else { "seq >= $2" };
    sqlx::query(&format!("DELETE FROM undone_phases WHERE game_id = $1 AND {stale}"))
        .bind(game.id)
        .bind(game.seq)
        .execute(&mut **tx)
        .await?;
    advance_to(app, tx, game, &judged.result).await
}

/// The powers' stored orders for the current phase, leaving out powers in `disorder`.
pub async fn stored_orders(tx: &mut Tx, v: &Variant, game: &Game, disorder: &[String]) -> ApiResult<Vec<Order>> {
    let rows =
        sqlx::query("SELECT power, text FROM orders WHERE game_id = $1 AND seq = $2 ORDER BY submitted_ms, unit_key")
            .bind(game.id)
            .bind(game.seq)
            .fetch_all(&mut **tx)
            .await?;
    let mut orders: Vec<Order> = Vec::with_capacity(rows.len());
    for r in &rows {
        let power: String = r.get("power");
        if disorder.contains(&power) {
            continue;
        }
        let text: String = r.get("text");
        // Stored orders were validated on arrival and saved in canonical form, so they
        // read back; one that does not (a variant file changed under a game) is left out
        // rather than stopping the game.
        if let Some(p) = v.find_power(&power) {
            match parse_order(v, p, &text) {
                Ok(o) => orders.push(o),
                Err(e) => eprintln!(
                    "chancery-server: game {} stored order `{power}: {text}` unreadable: {e}",
                    game.id
                ),
            }
        }
    }
    Ok(orders)
}

/// Moves the game past its current phase to the result's next position.
async fn advance_to(app: &App, tx: &mut Tx, game: &Game, result: &AdjudicationJson) -> ApiResult<()> {
    let v = game.variant(app)?;
    let next = state_from_json(&v, &result.next).map_err(ApiError::bad_request)?;
    let next_text = serde_json::to_string(&result.next).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let (status, outcome, deadline) = match &result.winner {
        Some(w) => ("finished", Some(format!("victory: {w}")), None),
        None => (
            "active",
            None,
            Some(game.deadline_from(app.clock.now_ms(), next.phase.kind)),
        ),
    };
    sqlx::query("UPDATE games SET seq = seq + 1, state_json = $3, status = $4, outcome = $5, deadline_ms = $6, paused_left_ms = NULL WHERE id = $1 AND seq = $2")
        .bind(game.id)
        .bind(game.seq)
        .bind(next_text)
        .bind(status)
        .bind(outcome)
        .bind(deadline)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Takes back the last processed phase: the game returns to the position before it,
/// with the orders that were given then, and a fresh deadline. The result is kept for
/// a roll forward.
pub async fn rollback(app: &App, tx: &mut Tx, game: &Game) -> ApiResult<String> {
    if game.seq == 0 {
        return Err(ApiError::conflict("no phase has been processed yet"));
    }
    let seq = game.seq - 1;
    let row = sqlx::query(
        "SELECT phase, state_json, result_json, processed_ms, how, bid_report, missing, judged_json FROM phases WHERE game_id = $1 AND seq = $2",
    )
    .bind(game.id)
    .bind(seq)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| ApiError::conflict("the last phase's record is missing"))?;
    let phase: String = row.get("phase");
    let state_json: String = row.get("state_json");
    sqlx::query("DELETE FROM undone_phases WHERE game_id = $1 AND seq = $2")
        .bind(game.id)
        .bind(seq)
        .execute(&mut **tx)
        .await?;
    sqlx::query("INSERT INTO undone_phases (game_id, seq, phase, state_json, result_json, processed_ms, how, bid_report, missing, judged_json) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
        .bind(game.id)
        .bind(seq)
        .bind(&phase)
        .bind(&state_json)
        .bind(row.get::<String, _>("result_json"))
        .bind(row.get::<i64, _>("processed_ms"))
        .bind(row.get::<String, _>("how"))
        .bind(row.get::<Option<String>, _>("bid_report"))
        .bind(row.get::<Option<String>, _>("missing"))
        .bind(row.get::<Option<String>, _>("judged_json"))
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM phases WHERE game_id = $1 AND seq = $2")
        .bind(game.id)
        .bind(seq)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM ready WHERE game_id = $1 AND seq = $2")
        .bind(game.id)
        .bind(seq)
        .execute(&mut **tx)
        .await?;
    // Civil disorder declared after the phase returned to was processed is not in its
    // position (for rule 11, the power's units are back), so it is undone as well, and
    // the player whose seat it ended has it back, unless the GM has seated someone since.
    sqlx::query(
        "UPDATE members SET active = 1, left_ms = NULL \
         WHERE id IN (SELECT seat_member FROM disorder WHERE game_id = $1 AND since_seq > $2) \
         AND NOT EXISTS (SELECT 1 FROM members AS seated WHERE seated.game_id = members.game_id \
             AND seated.power = members.power AND seated.role = 'player' AND seated.active = 1)",
    )
    .bind(game.id)
    .bind(seq)
    .execute(&mut **tx)
    .await?;
    sqlx::query("DELETE FROM disorder WHERE game_id = $1 AND since_seq > $2")
        .bind(game.id)
        .bind(seq)
        .execute(&mut **tx)
        .await?;
    let v = game.variant(app)?;
    let state: StateJson = serde_json::from_str(&state_json).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let kind = state_from_json(&v, &state).map_err(ApiError::bad_request)?.phase.kind;
    let deadline = game.deadline_from(app.clock.now_ms(), kind);
    sqlx::query("UPDATE games SET seq = $2, state_json = $3, status = 'active', outcome = NULL, deadline_ms = $4, paused_left_ms = NULL WHERE id = $1")
        .bind(game.id)
        .bind(seq)
        .bind(&state_json)
        .bind(deadline)
        .execute(&mut **tx)
        .await?;
    log_event(tx, app, game.id, seq, &phase, "rolled_back", "").await?;
    Ok(phase)
}

/// Undoes a rollback: the phase is adjudicated again from the orders and bids stored
/// now. When nothing was changed since the rollback the result is the one taken back, and
/// its record (processing time and how) is restored as it was; when orders or bids were
/// changed in between, the new result is published instead of the stale one. Returns the
/// phase and whether the result differs from the one rolled back.
pub async fn roll_forward(app: &App, tx: &mut Tx, game: &Game) -> ApiResult<(String, bool)> {
    let row = sqlx::query(
        "SELECT state_json, result_json, processed_ms, how FROM undone_phases WHERE game_id = $1 AND seq = $2",
    )
    .bind(game.id)
    .bind(game.seq)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| ApiError::conflict("there is no rolled-back phase to restore here"))?;
    if row.get::<String, _>("state_json") != game.state_json {
        return Err(ApiError::conflict("the position changed since the rollback"));
    }
    let judged = judge(app, tx, game).await?;
    let changed = judged.result_text != row.get::<String, _>("result_json");
    if changed {
        let how = "gm: rolled forward with changed orders";
        record(app, tx, game, &judged, app.clock.now_ms(), how, false).await?;
    } else {
        let how: String = row.get("how");
        record(app, tx, game, &judged, row.get("processed_ms"), &how, true).await?;
    }
    let detail = if changed {
        "orders changed since the rollback"
    } else {
        ""
    };
    log_event(tx, app, game.id, game.seq, &judged.phase, "rolled_forward", detail).await?;
    Ok((judged.phase, changed))
}
