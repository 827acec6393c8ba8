//! Processing a phase, exactly once, and the GM's rollback and roll forward.
//!
//! Once-only rests on two things: the game's row lock (`store::games::lock_id`) taken before
//! anything is read, and the check that the game is still at the phase the caller
//! meant. A second server, a retry after a crash, or a GM's "process now" racing the
//! deadline all find the phase number moved on and do nothing. The `phases` primary key
//! (game, phase number) backs this up inside the database.
//!
//! Every phase is judged by the engine's one pipeline, `judge_phase`, and its whole
//! judgement is kept beside the public result (`store::phases`), so that history is
//! drawn from it and never judged again.

use chancery_engine::dp::Bid;
use chancery_engine::json::{adjudication_json, state_from_json, AdjudicationJson, StateJson};
use chancery_engine::options::has_choice;
use chancery_engine::parse::parse_order_line;
use chancery_engine::phase::{judge_phase, PhaseResult};
use chancery_engine::{GameState, Order, PowerId, Variant};

use crate::db::Tx;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::jobs::Weight;
use crate::model::{GameId, GameOutcome, GameStatus, HowProcessed, PhaseSeq};
use crate::services::games::LoadedGame;
use crate::store::games::Game;
use crate::store::games::Lock;
use crate::store::phases::{PhaseRow, Table};
use crate::store::set_aside::{Line, Rows, Why};
use crate::store::{self, bids::BidRow};
use crate::App;

pub async fn log_event(
    tx: &mut Tx,
    app: &App,
    game_id: GameId,
    seq: PhaseSeq,
    phase: &str,
    kind: &str,
    detail: &str,
) -> ApiResult<()> {
    Ok(crate::services::games::log_event(tx, app, game_id, seq, phase, kind, detail).await?)
}

/// The powers in civil disorder.
pub async fn disorder_powers(tx: &mut Tx, game_id: GameId) -> ApiResult<Vec<String>> {
    Ok(store::disorder::powers(&mut **tx, game_id).await?)
}

/// The scheduler's processing of phase `seq`: only if it is still the current one, the
/// game is running and its deadline has passed by `now`. `lock` says whether to wait for
/// a game another transaction holds (`Wait`, so a game under a steady stream of order
/// submissions is never starved) or to skip it (`SkipLocked`, so servers sharing a
/// database spread out over the due games). Returns whether this call processed it.
pub async fn process_due(app: &App, game_id: GameId, seq: PhaseSeq, now: i64, lock: Lock) -> ApiResult<bool> {
    let mut tx = app.db.write.begin().await?;
    if !store::games::lock_id(&mut tx, app.db.backend, game_id, lock).await? {
        return Ok(false);
    }
    let Some(game) = store::games::by_id(&mut *tx, game_id).await? else {
        return Ok(false);
    };
    if game.seq != seq || game.status != GameStatus::Active || game.deadline_ms.is_none_or(|d| d > now) {
        return Ok(false);
    }
    let loaded = LoadedGame::of(app, game).await?;
    adjudicate_current(app, &mut tx, &loaded, HowProcessed::Deadline).await?;
    tx.commit().await?;
    Ok(true)
}

/// Adjudicates the game's current phase inside `tx` (which holds the game's lock), from
/// the position the caller loaded under that lock.
pub async fn adjudicate_current(
    app: &App,
    tx: &mut Tx,
    loaded: &LoadedGame,
    how: HowProcessed,
) -> ApiResult<Adjudicated> {
    let game = &loaded.game;
    let judged = judge(app, tx, loaded).await?;
    let now = app.clock.now_ms();
    record(app, tx, game, &judged, now, how, false).await?;
    // The mails go with the result: written in this transaction, they exist exactly
    // when it does, and are sent in the order written. A deadline that passed without
    // some powers' orders is news for the GM on its own (a player may have gone quiet),
    // told before the processing it led to; a GM's or the players' early processing is
    // not.
    if how == HowProcessed::Deadline && !judged.missing.is_empty() {
        crate::services::mail::missing_at_deadline(tx, app, game, loaded.state.phase, &judged.missing).await?;
    }
    crate::services::mail::phase_processed(tx, app, loaded, &judged.result, &judged.missing).await?;
    log_event(tx, app, game.id, game.seq, &judged.phase, "processed", how.as_str()).await?;
    Ok(Adjudicated {
        result: judged.result,
        next: judged.next,
    })
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
    /// The engine's next position: the game's once recorded.
    next: GameState,
}

/// A phase processed: its public result and the position the game moved on to (as the
/// engine gave it, so that a caller showing the game afterwards need not decode it).
pub struct Adjudicated {
    pub result: AdjudicationJson,
    pub next: GameState,
}

/// The input the engine judges the current phase on: the stored orders and bids, leaving
/// out powers in civil disorder, who give no orders (the engine's rules for missing
/// orders apply: hold, disband, civil-disorder removals) and buy nothing.
pub struct PhaseInput {
    pub state: GameState,
    pub orders: Vec<Order>,
    pub bids: Vec<Bid>,
    pub disorder: Vec<String>,
}

/// `state` is the game's current position, as the caller decoded it.
pub async fn phase_input(tx: &mut Tx, v: &Variant, game: &Game, state: GameState) -> ApiResult<PhaseInput> {
    let disorder = disorder_powers(tx, game.id).await?;
    let orders = stored_orders(tx, v, game, &disorder).await?;
    let bids = store::bids::for_phase(&mut **tx, game.id, game.seq, None)
        .await?
        .iter()
        .filter(|b| !disorder.contains(&b.power))
        .filter_map(|b| engine_bid(v, b))
        .collect();
    Ok(PhaseInput {
        state,
        orders,
        bids,
        disorder,
    })
}

/// A stored bid as the engine takes it; None when the stored text no longer reads (a
/// variant file changed under the game), so that one bad row never stops a game.
pub fn engine_bid(v: &Variant, b: &BidRow) -> Option<Bid> {
    let power = v.find_power(&b.power)?;
    let (_, order) = parse_order_line(v, &b.order).ok()?;
    Some(Bid {
        power,
        dp: u32::try_from(b.dp).ok()?,
        order,
    })
}

/// How long a phase's judgement may take on the job pool, its wait in the queue
/// included. The game's lock is held meanwhile; past it the transaction is rolled back
/// and the phase is left for the scheduler's next tick (or the GM's next try).
pub const JUDGE_BUDGET: std::time::Duration = std::time::Duration::from_secs(10);

/// The engine's one pipeline (`judge_phase`) on the job pool, never on the async
/// runtime: a large variant's phase is seconds of CPU that would otherwise hold up every
/// request sharing the runtime's threads. The caller keeps the game's lock across the
/// wait, so processing stays exactly once.
pub async fn judge_on_pool<T: Send + 'static>(
    app: &App,
    v: &std::sync::Arc<Variant>,
    input: PhaseInput,
    then: impl FnOnce(&Variant, PhaseResult) -> T + Send + 'static,
) -> ApiResult<T> {
    let v = v.clone();
    app.jobs
        .run(Weight::Quick, JUDGE_BUDGET, move || {
            let judged = judge_phase(&v, &input.state, &input.orders, &input.bids);
            then(&v, judged)
        })
        .await
        .map_err(|e| app.jobs.refusal(e, "judging the phase"))
}

async fn judge(app: &App, tx: &mut Tx, loaded: &LoadedGame) -> ApiResult<Judged> {
    let v = &loaded.variant;
    let input = phase_input(tx, v, &loaded.game, loaded.state.clone()).await?;
    // A power in civil disorder is expected to give none; the GM already knows.
    let missing: Vec<String> = v
        .powers
        .iter()
        .enumerate()
        .filter(|(i, p)| !v.is_minor(*i as PowerId) && p.player.is_none() && !input.disorder.contains(&p.name))
        // Orders given for a faction count as the player's: it gave some.
        .filter(|(i, _)| {
            let p = *i as PowerId;
            has_choice(v, &input.state, p) && !input.orders.iter().any(|o| v.controls(p, o.power))
        })
        .map(|(_, p)| p.name.clone())
        .collect();
    let phase = input.state.phase.code();
    // The engine's one pipeline: the minors' orders bought by the bids (rule 4), the
    // adjudication, rule 8's orphaned factions, the next position and the winner; and
    // the two forms of its result, written out there too (a large map's are long).
    let (result, texts, bid_report, next) = judge_on_pool(app, v, input, |v, judged| {
        let result = adjudication_json(v, &judged.adjudication);
        let texts = serde_json::to_string(&result).and_then(|r| Ok((r, serde_json::to_string(&judged)?)));
        let bid_report = judged.bid_report.as_ref().map(|r| r.text(v));
        (result, texts, bid_report, judged.adjudication.next)
    })
    .await?;
    let (result_text, judged_text) =
        texts.map_err(|e| ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(Judged {
        phase,
        result,
        result_text,
        judged_text,
        bid_report,
        missing,
        next,
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
    how: HowProcessed,
    restored: bool,
) -> ApiResult<()> {
    let row = PhaseRow {
        game_id: game.id,
        seq: game.seq,
        phase: judged.phase.clone(),
        state_json: game.state_json.clone(),
        result_json: judged.result_text.clone(),
        processed_ms,
        how,
        bid_report: judged.bid_report.clone(),
        missing: judged.missing.clone(),
        judged_json: Some(judged.judged_text.clone()),
    };
    store::phases::insert(&mut **tx, Table::Phases, &row).await?;
    if restored {
        // The next phase is again the one the orders and bids set aside by the rollback
        // were given for: they come back.
        store::phases::delete(&mut **tx, Table::Undone, game.id, game.seq).await?;
        store::set_aside::restore(tx, game.id, game.seq.next()).await?;
    } else {
        // A new result for this phase makes any result rolled back from here on stale,
        // and what was set aside from the later phases was given for another position.
        store::phases::delete_undone_from(&mut **tx, game.id, game.seq).await?;
        store::set_aside::forget_from(tx, game.id, game.seq.next()).await?;
    }
    advance_to(app, tx, game, judged).await
}

/// The powers' stored orders for the current phase, leaving out powers in `disorder`.
pub async fn stored_orders(tx: &mut Tx, v: &Variant, game: &Game, disorder: &[String]) -> ApiResult<Vec<Order>> {
    let rows = store::orders::for_phase(&mut **tx, game.id, game.seq).await?;
    let mut orders: Vec<Order> = Vec::with_capacity(rows.len());
    for r in rows.iter().filter(|r| !disorder.contains(&r.power)) {
        // Stored orders were validated on arrival and saved in canonical form, so they
        // read back; one that does not (a variant file changed under a game) is left out
        // rather than stopping the game.
        if let Some(p) = v.find_power(&r.power) {
            match crate::services::stored_orders::read(v, p, &r.text) {
                Ok(o) => orders.push(o),
                Err(e) => tracing::error!(
                    "game {} stored order `{}: {}` unreadable: {e}",
                    game.id,
                    r.power,
                    r.text
                ),
            }
        }
    }
    Ok(orders)
}

/// Moves the game past its current phase to the judged next position (whose phase's
/// kind the engine gave with it: the JSON form is not decoded again).
async fn advance_to(app: &App, tx: &mut Tx, game: &Game, judged: &Judged) -> ApiResult<()> {
    let result = &judged.result;
    let next_text = serde_json::to_string(&result.next).map_err(|e| ApiError::internal(e.to_string()))?;
    let (status, outcome, deadline) = match &result.winner {
        Some(w) => (GameStatus::Finished, Some(GameOutcome::Victory(w.clone())), None),
        None => (
            GameStatus::Active,
            None,
            Some(game.deadline_from(app.clock.now_ms(), judged.next.phase.kind)?),
        ),
    };
    store::games::advance(
        &mut **tx,
        game.id,
        game.seq,
        &next_text,
        status,
        outcome.as_ref(),
        deadline,
    )
    .await?;
    Ok(())
}

/// Takes back the last processed phase: the game returns to the position before it,
/// with the orders that were given then, and a fresh deadline. The result is kept for
/// a roll forward. Returns the phase returned to, by name and number.
pub async fn rollback(app: &App, tx: &mut Tx, game: &Game) -> ApiResult<(String, PhaseSeq)> {
    let Some(seq) = game.seq.previous() else {
        return Err(ApiError::conflict("no phase has been processed yet"));
    };
    let row = store::phases::get(&mut **tx, Table::Phases, game.id, seq)
        .await?
        .ok_or_else(|| ApiError::conflict("the last phase's record is missing"))?;
    store::phases::delete(&mut **tx, Table::Undone, game.id, seq).await?;
    store::phases::insert(&mut **tx, Table::Undone, &row).await?;
    store::phases::delete(&mut **tx, Table::Phases, game.id, seq).await?;
    store::orders::clear_ready(&mut **tx, game.id, seq).await?;
    // The bots' ready marks went too: they decide the phase again (the same orders, as
    // they decide the same position alike).
    store::bots::forget_turns_from(&mut **tx, game.id, seq).await?;
    // The phase the game leaves goes with its orders, bids and ready marks, so that
    // nothing of a phase taken back acts again: set aside, to come back if a roll forward restores the same result,
    // and listed in the GM's log.
    let left = store::set_aside::list(tx, game.id, Rows::After(seq)).await?;
    store::set_aside::set_aside(tx, game.id, Rows::After(seq), Why::Rollback).await?;
    // Civil disorder declared after the phase returned to was processed is not in its
    // position (for rule 11, the power's units are back), so it is undone as well, and
    // the player whose seat it ended has it back, unless the GM has seated someone since.
    store::disorder::restore_seats_after(&mut **tx, game.id, seq).await?;
    store::disorder::delete_after(&mut **tx, game.id, seq).await?;
    let v = game.variant(app).await?;
    let state: StateJson = serde_json::from_str(&row.state_json)
        .map_err(|e| ApiError::coded(ErrorCode::DamagedGame, format!("stored position: {e}")))?;
    let kind = state_from_json(&v, &state)
        .map_err(|e| ApiError::coded(ErrorCode::DamagedGame, format!("stored position: {e}")))?
        .phase
        .kind;
    let deadline = game.deadline_from(app.clock.now_ms(), kind)?;
    store::games::return_to(&mut **tx, game.id, seq, &row.state_json, deadline).await?;
    log_event(tx, app, game.id, seq, &row.phase, "rolled_back", &set_aside_text(&left)).await?;
    Ok((row.phase, seq))
}

/// What was set aside, for the GM's log: `set aside: England F nth - nwg, ready; …`.
pub fn set_aside_text(lines: &[Line]) -> String {
    let mut by_power: Vec<(&str, Vec<&str>)> = Vec::new();
    for l in lines {
        match by_power.iter_mut().find(|(p, _)| *p == l.power) {
            Some((_, list)) => list.push(&l.what),
            None => by_power.push((&l.power, vec![&l.what])),
        }
    }
    if by_power.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = by_power
        .iter()
        .map(|(p, list)| format!("{p} {}", list.join(", ")))
        .collect();
    format!("set aside: {}", parts.join("; "))
}

/// Undoes a rollback: the phase is adjudicated again from the orders and bids stored
/// now. When nothing was changed since the rollback the result is the one taken back, and
/// its record (processing time and how) is restored as it was; when orders or bids were
/// changed in between, the new result is published instead of the stale one. Returns the
/// phase and whether the result differs from the one rolled back.
pub async fn roll_forward(app: &App, tx: &mut Tx, loaded: &LoadedGame) -> ApiResult<(String, bool)> {
    let game = &loaded.game;
    let undone = store::phases::get(&mut **tx, Table::Undone, game.id, game.seq)
        .await?
        .ok_or_else(|| ApiError::conflict("there is no rolled-back phase to restore here"))?;
    if undone.state_json != game.state_json {
        return Err(ApiError::conflict("the position changed since the rollback"));
    }
    let judged = judge(app, tx, loaded).await?;
    let changed = judged.result_text != undone.result_json;
    if changed {
        let how = HowProcessed::RolledForwardChanged;
        record(app, tx, game, &judged, app.clock.now_ms(), how, false).await?;
    } else {
        record(app, tx, game, &judged, undone.processed_ms, undone.how, true).await?;
    }
    let detail = if changed {
        "orders changed since the rollback"
    } else {
        ""
    };
    log_event(tx, app, game.id, game.seq, &judged.phase, "rolled_forward", detail).await?;
    Ok((judged.phase, changed))
}
