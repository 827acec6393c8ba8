//! Whole games between bots through the engine: the rules of play only. The caller
//! decides how each seat is asked (`chancery selfplay` times each decision and runs
//! games on threads), so this module stays pure.
//!
//! An order or bid the engine refuses ends the game with an error: a bot must never
//! give one.

use chancery_engine::dp::check_bids;
use chancery_engine::options::commanded_powers;
use chancery_engine::victory::victory_count;
use chancery_engine::{judge_phase, GameState, Outcome, PowerId, Variant};

use crate::{Decision, Settings};

/// One seat's decision request: the position, the power and its settings.
pub struct Ask<'a> {
    pub state: &'a GameState,
    pub power: PowerId,
    pub settings: &'a Settings,
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Per great power (variant order): centres that count for its victory at the end.
    pub centres: Vec<(PowerId, usize)>,
    /// Per great power: units on the board at the end.
    pub units: Vec<(PowerId, usize)>,
    pub winner: Option<PowerId>,
    /// Great powers with neither centres nor units at the end, or in civil disorder.
    pub eliminated: Vec<PowerId>,
    /// The last phase judged.
    pub last_year: i32,
    /// Phases judged.
    pub phases: usize,
}

/// The great power seated at each rotation: game `game` of a series gives power `i`
/// the kind `kinds[(i - game) mod n]`, the list filled out with its last kind to one per
/// great power, so that over `n` games each kind sits in every seat.
pub fn seating<T: Copy>(v: &Variant, kinds: &[T], game: usize) -> Vec<(PowerId, T)> {
    let powers: Vec<PowerId> = v.great_powers().collect();
    let n = powers.len();
    let last = *kinds.last().expect("at least one seat kind");
    let full: Vec<T> = (0..n).map(|i| kinds.get(i).copied().unwrap_or(last)).collect();
    powers
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, full[(i + n - game % n) % n]))
        .collect()
}

/// Plays one game of `years` years (or to a victory) with the given seats, asking
/// `decide` for each seat's decision each phase. Returns the end, or the first refusal.
pub fn play(
    v: &Variant,
    seats: &[(PowerId, Settings)],
    years: i32,
    mut decide: impl FnMut(Ask) -> Decision,
) -> Result<GameEnd, String> {
    let mut state = GameState::initial(v);
    let last_year = state.phase.year + years - 1;
    let mut phases = 0;
    let mut winner = None;
    while state.phase.year <= last_year {
        let mut orders = Vec::new();
        let mut bids = Vec::new();
        for (power, settings) in seats {
            let power = *power;
            if state.acts_as_minor(v, power) || !has_something(v, &state, power) {
                continue;
            }
            // Each seat gets its own dice each phase, repeatable from the game's seed.
            let settings = Settings {
                seed: settings
                    .seed
                    .wrapping_mul(0x100_0000_01B3)
                    .wrapping_add((phases as u64) << 8 | power as u64),
                ..*settings
            };
            let d = decide(Ask {
                state: &state,
                power,
                settings: &settings,
            });
            if let Err(e) = check_bids(v, &state, power, &d.orders, &d.bids) {
                return Err(format!("{} {}: bids refused: {e}", state.phase, v.power(power).name));
            }
            orders.extend(d.orders);
            bids.extend(d.bids);
        }
        let result = judge_phase(v, &state, &orders, &bids);
        if let Some((o, e)) = result.adjudication.refused.first() {
            return Err(format!("{}: order `{}` refused: {e}", state.phase, o.display(v)));
        }
        for r in &result.adjudication.results {
            if let Outcome::Void(e) = &r.outcome {
                let o = r
                    .given
                    .or(r.order)
                    .map(|o| o.display(v).to_string())
                    .unwrap_or_default();
                return Err(format!("{}: order `{o}` void: {e}", state.phase));
            }
        }
        if let Some(report) = &result.bid_report {
            let void = report
                .units
                .iter()
                .flat_map(|u| u.void.iter())
                .chain(report.unplaced.iter())
                .next();
            if let Some(vb) = void {
                return Err(format!("{}: a bid was void: {vb:?}", state.phase));
            }
        }
        phases += 1;
        winner = result.winner();
        state = result.next().clone();
        if winner.is_some() {
            break;
        }
    }
    let greats: Vec<PowerId> = v.great_powers().collect();
    Ok(GameEnd {
        centres: greats.iter().map(|&p| (p, victory_count(v, &state, p))).collect(),
        units: greats.iter().map(|&p| (p, state.unit_count(p))).collect(),
        winner,
        eliminated: greats
            .iter()
            .copied()
            .filter(|&p| state.in_disorder(p) || !has_something(v, &state, p))
            .collect(),
        last_year: state.phase.year.min(last_year),
        phases,
    })
}

/// Whether the player (with its factions) still has a centre or a unit.
fn has_something(v: &Variant, state: &GameState, player: PowerId) -> bool {
    commanded_powers(v, player)
        .into_iter()
        .any(|p| !state.in_disorder(p) && (state.centre_count(p) > 0 || state.unit_count(p) > 0))
}
