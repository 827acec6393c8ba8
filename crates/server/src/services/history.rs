//! Results and history: every processed phase stays readable by everyone. A result
//! holds every unit's order and outcome with its reason, and never a bid (the GM's bid
//! report is read apart, by the GM's pages alone).
//!
//! A processed phase is read back as it was stored, never judged again: the public
//! result (`result_json`, with names) for the tables, the API and the feed, and the
//! engine's whole judgement (`judged_json`, a `PhaseResult`) for drawing its orders.
//! Phases stored before the judgement was kept are converted once, when the server
//! starts ([`convert_stored_results`]).

use std::collections::BTreeMap;

use chancery_engine::json::{adjudication_json, state_from_json, AdjudicationJson, StateJson};
use chancery_engine::phase::{judge_phase, PhaseResult};
use chancery_engine::{Adjudication, GameState, Order, Variant};
use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::iso_utc;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::model::{GameId, HowProcessed, PhaseSeq};
use crate::services::games;
use crate::services::maps::{self, MapOf};
use crate::store::{self, phases::Table};
use crate::App;

/// A line of the list of processed phases.
#[derive(Serialize, ToSchema)]
pub struct PhaseLine {
    /// The phase's number in the game, from 0.
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    /// Its code (`S1901M`).
    pub phase: String,
    /// When, ISO 8601 UTC.
    pub processed: String,
    /// How: `deadline`, `all ready`, `gm`, …
    pub how: HowProcessed,
    /// The powers with a decision that gave no orders: public, as on every judge ("no
    /// moves received"), so the table knows who let the others down.
    pub missing: Vec<String>,
    /// The powers whose orders a bot gave.
    pub bots: Vec<String>,
}

/// A game's processed phases, in order.
#[derive(Serialize, ToSchema)]
pub struct PhaseList {
    #[schema(value_type = i64)]
    pub game: GameId,
    pub phases: Vec<PhaseLine>,
}

pub async fn list(app: &App, id: GameId) -> ApiResult<PhaseList> {
    games::load(&app.db.read, id).await?;
    let bots = store::bots::played(&app.db.read, id).await?;
    let phases = store::phases::list(&app.db.read, id)
        .await?
        .into_iter()
        .map(|p| PhaseLine {
            bots: bots
                .iter()
                .filter(|b| b.seq == p.seq)
                .map(|b| b.power.clone())
                .collect(),
            seq: p.seq,
            processed: iso_utc(p.processed_ms),
            missing: p.missing,
            phase: p.phase,
            how: p.how,
        })
        .collect();
    Ok(PhaseList { game: id, phases })
}

/// The newest processed phase's number; None before the first.
pub async fn latest(app: &App, id: GameId) -> ApiResult<Option<PhaseSeq>> {
    games::load(&app.db.read, id).await?;
    Ok(store::phases::list(&app.db.read, id).await?.last().map(|p| p.seq))
}

/// Each owner's number of supply centres in a position, by power name.
pub fn centre_counts(position: &StateJson) -> BTreeMap<&str, usize> {
    let mut centres: BTreeMap<&str, usize> = BTreeMap::new();
    for owner in position.owners.values() {
        *centres.entry(owner.as_str()).or_default() += 1;
    }
    centres
}

/// The counts largest first (ties by name), as the pages list them.
pub fn centre_ranking(position: &StateJson) -> Vec<(&str, usize)> {
    let mut counts: Vec<(&str, usize)> = centre_counts(position).into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts
}

/// One processed phase, as the API gives it.
#[derive(Serialize, ToSchema)]
pub struct PhaseDetail {
    #[schema(value_type = i64)]
    pub game: GameId,
    #[schema(value_type = i64)]
    pub seq: PhaseSeq,
    pub phase: String,
    /// When, ISO 8601 UTC.
    pub processed: String,
    pub how: HowProcessed,
    /// The position before the phase, as `chancery adjudicate` writes positions
    /// (docs/adjudicate-json.md).
    pub position: StateJson,
    /// Every unit's order, outcome and reason, the orders refused, the position after
    /// and the winner (docs/adjudicate-json.md).
    pub result: AdjudicationJson,
    /// Supply centres per power after the phase.
    pub centres: BTreeMap<String, usize>,
    /// The powers with a decision that gave no orders.
    pub missing: Vec<String>,
    /// The powers whose orders a bot gave.
    pub bots: Vec<String>,
}

pub async fn one(app: &App, id: GameId, seq: PhaseSeq) -> ApiResult<PhaseDetail> {
    let row = store::phases::get(&app.db.read, Table::Phases, id, seq)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("game {id} has no processed phase {seq}")))?;
    let position: StateJson = serde_json::from_str(&row.state_json).map_err(|e| internal("stored position", e))?;
    let result: AdjudicationJson = serde_json::from_str(&row.result_json).map_err(|e| internal("stored result", e))?;
    let centres = centre_counts(&result.next)
        .into_iter()
        .map(|(p, n)| (p.to_string(), n))
        .collect();
    Ok(PhaseDetail {
        game: id,
        seq,
        phase: row.phase,
        processed: iso_utc(row.processed_ms),
        how: row.how,
        position,
        result,
        centres,
        missing: row.missing,
        bots: store::bots::played_in(&app.db.read, id, seq).await?,
    })
}

/// A processed phase's public result, for the game's feed.
pub struct PublishedPhase {
    pub seq: PhaseSeq,
    pub phase: String,
    pub processed_ms: i64,
    pub result: AdjudicationJson,
}

/// The newest `limit` processed phases of game `id` with their public results, newest
/// first. Reads only: nothing is judged again.
pub async fn newest(app: &App, id: GameId, limit: i64) -> ApiResult<Vec<PublishedPhase>> {
    store::phases::newest(&app.db.read, id, limit)
        .await?
        .into_iter()
        .map(|row| {
            Ok(PublishedPhase {
                result: serde_json::from_str(&row.result_json).map_err(|e| internal("stored result", e))?,
                seq: row.seq,
                phase: row.phase,
                processed_ms: row.processed_ms,
            })
        })
        .collect()
}

/// A processed phase as stored, with what drawing it needs.
pub struct ProcessedPhase {
    pub seq: PhaseSeq,
    pub phase: String,
    pub processed_ms: i64,
    /// How it was processed.
    pub how: HowProcessed,
    /// The GM's report on the phase's bids (DP rule 12: the GM's alone).
    pub bid_report: Option<String>,
    /// The powers that had a decision and gave no orders.
    pub missing: Vec<String>,
    /// The powers whose orders a bot gave.
    pub bots: Vec<String>,
    pub before: GameState,
    pub after: GameState,
    /// The public result.
    pub result: AdjudicationJson,
    /// The engine's judgement, for drawing the orders; None for a phase stored by an
    /// older version whose orders could not be drawn again, or whose stored judgement
    /// no longer reads against the variant (see [`stored_judgement`]).
    pub adjudication: Option<Adjudication>,
}

/// A stored phase that cannot be read: the game's record is damaged.
fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::coded(ErrorCode::DamagedGame, format!("{what}: {e}"))
}

/// Phase `seq` of game `id` as stored. Reads only: nothing is judged again.
pub async fn processed_phase(
    db: &crate::reads::Reads,
    v: &Variant,
    id: GameId,
    seq: PhaseSeq,
) -> ApiResult<ProcessedPhase> {
    let row = store::phases::get(db, Table::Phases, id, seq)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("game {id} has no processed phase {seq}")))?;
    let before_json: StateJson = serde_json::from_str(&row.state_json).map_err(|e| internal("stored position", e))?;
    let result: AdjudicationJson = serde_json::from_str(&row.result_json).map_err(|e| internal("stored result", e))?;
    let before = state_from_json(v, &before_json).map_err(|e| internal("stored position", e))?;
    let after = state_from_json(v, &result.next).map_err(|e| internal("stored result", e))?;
    let adjudication = row
        .judged_json
        .as_deref()
        .and_then(|text| stored_judgement(v, &before, &result, text));
    Ok(ProcessedPhase {
        seq,
        missing: row.missing,
        bots: store::bots::played_in(db, id, seq).await?,
        phase: row.phase,
        processed_ms: row.processed_ms,
        how: row.how,
        bid_report: row.bid_report,
        before,
        after,
        result,
        adjudication,
    })
}

/// The stored judgement's adjudication, if it still belongs to this phase. The engine's
/// form names powers and spaces by their index in the variant, so it is checked against
/// the public result stored beside it (which has names): a variant file changed under a
/// game draws no arrows rather than wrong ones. The check converts; it judges nothing.
fn stored_judgement(v: &Variant, before: &GameState, result: &AdjudicationJson, text: &str) -> Option<Adjudication> {
    let judged: Option<PhaseResult> = serde_json::from_str(text).ok()?;
    let judged = judged?;
    (judged.before == *before && adjudication_json(v, &judged.adjudication) == *result).then_some(judged.adjudication)
}

/// The current position of game `id` as a standalone SVG image (with the legend beside
/// it, as no page is around it). Nothing secret is drawn: no orders before processing.
pub async fn current_map(app: &App, id: GameId) -> ApiResult<String> {
    let loaded = games::read(app, id).await?;
    maps::draw(
        app,
        &loaded.map(app)?,
        &loaded.state,
        None,
        true,
        maps::WAIT_FOR_SHAPING,
    )
    .await
}

/// Phase `seq` as a standalone SVG image: the position before it with every order drawn
/// with its result, from the stored judgement, or with `after` the position it left. A
/// phase stored without a judgement ([`convert_stored_results`]) has no arrows.
pub async fn phase_map(app: &App, id: GameId, seq: PhaseSeq, after: bool) -> ApiResult<String> {
    let game = games::load(&app.db.read, id).await?;
    let map = MapOf::game(app, &game).await?;
    let phase = processed_phase(&app.db.read, &map.variant, id, seq).await?;
    let (state, adjudication) = if after {
        (&phase.after, None)
    } else {
        (&phase.before, phase.adjudication.as_ref())
    };
    maps::draw(app, &map, state, adjudication, true, maps::WAIT_FOR_SHAPING).await
}

/// Converts the phases stored before their judgement was kept (migration 9): each is
/// judged once more, through the engine's one pipeline, from the position before it and
/// the orders its result lists (the minors' orders among them, so no bids are needed),
/// and the judgement is kept only if it agrees with the stored result. Entries the
/// engine has added since (holds of unordered units, waived builds) may be new; anything
/// else that differs (a rule judged otherwise then) keeps the JSON `null`: the phase is
/// shown without arrows, never with wrong ones. Runs at start-up, so that no page view
/// judges anything; returns how many phases it converted.
pub async fn convert_stored_results(app: &App) -> Result<usize, String> {
    let err = |e: sqlx::Error| format!("converting stored results: {e}");
    let mut converted = 0;
    for table in [Table::Phases, Table::Undone] {
        let rows = store::phases::unconverted(&app.db.read, table).await.map_err(err)?;
        for row in rows {
            let (id, seq) = (row.game_id, row.seq);
            let game = games::load(&app.db.read, id).await.map_err(|e| e.message)?;
            let judged = game.variant(app).await.ok().and_then(|v| {
                let before = serde_json::from_str(&row.state_json).ok()?;
                let before = state_from_json(&v, &before).ok()?;
                let stored = serde_json::from_str(&row.result_json).ok()?;
                judge_again(&v, &before, &stored)
            });
            let text = serde_json::to_string(&judged).map_err(|e| e.to_string())?;
            store::phases::set_judged(&app.db.write, table, id, seq, &text)
                .await
                .map_err(err)?;
            converted += 1;
        }
    }
    Ok(converted)
}

/// A phase stored without its judgement, judged again from the orders its result lists.
fn judge_again(v: &Variant, before: &GameState, stored: &AdjudicationJson) -> Option<PhaseResult> {
    let orders: Vec<Order> = stored
        .results
        .iter()
        .filter_map(|r| {
            let text = r.order.as_deref()?;
            crate::services::stored_orders::read_named(v, &r.power, text)
        })
        .collect();
    let mut judged = judge_phase(v, before, &orders, &[]);
    let replayed = adjudication_json(v, &judged.adjudication);
    let agrees = replayed.phase == stored.phase
        && replayed.next == stored.next
        && replayed.winner == stored.winner
        && replayed.refused == stored.refused
        && stored.results.iter().all(|r| replayed.results.contains(r));
    if !agrees {
        return None;
    }
    // The minors' orders came in as given orders here; the bids that bought them are not
    // known, and their report is kept apart (the `bid_report` column).
    judged.minor_orders = orders.into_iter().filter(|o| v.is_minor(o.power)).collect();
    judged.bid_report = None;
    // Kept in the stored result's entries and order, so that it reads back against it.
    let results = stored
        .results
        .iter()
        .filter_map(|r| replayed.results.iter().position(|x| x == r))
        .map(|i| judged.adjudication.results[i].clone())
        .collect();
    judged.adjudication.results = results;
    Some(judged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chancery_engine::parse::parse_order;

    fn standard_phase(orders: &[(&str, &str)]) -> (Variant, GameState, AdjudicationJson) {
        let v = chancery_engine::builtin::builtin("standard").unwrap().unwrap();
        let s = GameState::initial(&v);
        let parsed: Vec<Order> = orders
            .iter()
            .map(|(p, o)| parse_order(&v, v.find_power(p).unwrap(), o).unwrap())
            .collect();
        let stored = adjudication_json(&v, &judge_phase(&v, &s, &parsed, &[]).adjudication);
        (v, s, stored)
    }

    fn reads_back(v: &Variant, s: &GameState, stored: &AdjudicationJson, judged: &PhaseResult) -> bool {
        let text = serde_json::to_string(&Some(judged)).unwrap();
        stored_judgement(v, s, stored, &text).is_some()
    }

    #[test]
    fn an_older_result_is_judged_again_once_and_reads_back() {
        // Two armies bounce in Galicia (standoff: equal strength, neither moves).
        let (v, s, stored) = standard_phase(&[("Austria", "A vie - gal"), ("Russia", "A war - gal")]);
        let judged = judge_again(&v, &s, &stored).expect("the result replays from its own orders");
        assert_eq!(adjudication_json(&v, &judged.adjudication), stored);
        assert!(reads_back(&v, &s, &stored, &judged));
    }

    /// Results stored by an engine that did not list unordered units' holds still draw.
    #[test]
    fn a_result_without_the_entries_added_since_still_converts() {
        let (v, s, mut stored) = standard_phase(&[("Austria", "A vie - gal")]);
        let before = stored.results.len();
        stored.results.retain(|r| r.unit != "F lon");
        assert_eq!(stored.results.len(), before - 1, "London's hold was listed");
        let judged = judge_again(&v, &s, &stored).expect("converts");
        assert!(reads_back(&v, &s, &stored, &judged));
    }

    #[test]
    fn a_result_that_does_not_replay_gets_no_arrows() {
        let (v, s, mut stored) = standard_phase(&[("Austria", "A vie - gal")]);
        // A result the engine would not give for these orders (as from an older engine).
        let moved = stored.results.iter_mut().find(|r| r.unit == "A vie").unwrap();
        moved.reason = "something else".into();
        assert!(
            judge_again(&v, &s, &stored).is_none(),
            "wrong arrows are worse than none"
        );
        // Kept as the JSON `null`: read back as no judgement, and never converted again.
        assert!(stored_judgement(&v, &s, &stored, "null").is_none());
    }

    /// A judgement stored for another result (as after a variant file changed under the
    /// game, moving the indices it names powers and spaces by) is not drawn.
    #[test]
    fn a_judgement_that_disagrees_with_its_result_is_not_drawn() {
        let (v, s, stored) = standard_phase(&[("Austria", "A vie - gal")]);
        let other = judge_phase(
            &v,
            &s,
            &[parse_order(&v, v.find_power("Austria").unwrap(), "A vie - tyr").unwrap()],
            &[],
        );
        assert!(!reads_back(&v, &s, &stored, &other));
    }
}
