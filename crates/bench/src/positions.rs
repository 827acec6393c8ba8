//! Mid-game positions reached by playing random games forward with the engine: the
//! movement phases of those games at which the board holds enough units.

use chancery_engine::adjudicate::Judge;
use chancery_engine::adjust::{build_sites, surplus};
use chancery_engine::validate::retreat_options;
use chancery_engine::variant::Terrain;
use chancery_engine::{GameState, Location, Order, OrderKind, PhaseKind, UnitKind, UnitRef, Variant};

use crate::options::unit_options;
use crate::orders::{random_orders, Style};
use crate::rng::Rng;

/// Games are cut off here; by then any position worth having has been seen.
const LAST_YEAR: i32 = 1940;
/// Positions taken from one game at most, so that the set spans many games.
const PER_GAME: usize = 4;
/// A safety net: a seed that never reaches `min_units` must not loop for ever.
const MAX_GAMES: usize = 10_000;

/// `wanted` movement-phase positions with at least `min_units` units, from random
/// games seeded by `seed`. Fewer are returned only if `MAX_GAMES` games never get there.
pub fn midgame_positions(v: &Variant, seed: u64, min_units: usize, wanted: usize) -> Vec<GameState> {
    let mut rng = Rng::new(seed);
    let mut judge = Judge::new();
    let mut found = Vec::with_capacity(wanted);
    for _ in 0..MAX_GAMES {
        if found.len() >= wanted {
            break;
        }
        let mut state = GameState::initial(v);
        let mut taken = 0;
        while state.phase.year <= LAST_YEAR && taken < PER_GAME && found.len() < wanted {
            let orders = match state.phase.kind {
                PhaseKind::Movement => {
                    // Skip a few qualifying phases now and then so that one game's
                    // consecutive turns do not dominate.
                    if state.units.len() >= min_units && rng.chance(50) {
                        found.push(state.clone());
                        taken += 1;
                    }
                    let opts = unit_options(v, &state);
                    random_orders(v, &state, &opts, &mut rng, Style::Greedy).orders
                }
                PhaseKind::Retreat => retreats(v, &state, &mut rng),
                PhaseKind::Adjustment => builds(v, &state, &mut rng),
            };
            let adj = judge.adjudicate(v, &state, &orders);
            if adj.winner.is_some() {
                break;
            }
            state = adj.next.clone();
        }
    }
    found
}

/// Each dislodged unit retreats somewhere it may, or is left to disband.
fn retreats(v: &Variant, state: &GameState, rng: &mut Rng) -> Vec<Order> {
    let mut orders = Vec::new();
    for (i, d) in state.dislodged.iter().enumerate() {
        if let Some(&to) = rng.pick(&retreat_options(v, state, i)) {
            orders.push(Order {
                power: d.unit.power,
                unit: UnitRef {
                    kind: Some(d.unit.kind),
                    location: d.unit.location,
                },
                kind: OrderKind::Retreat { to },
            });
        }
    }
    orders
}

/// Every build a power is owed, on its free home centres, army or fleet at random.
/// Removals are left to the engine's civil-disorder rule.
fn builds(v: &Variant, state: &GameState, rng: &mut Rng) -> Vec<Order> {
    let mut orders = Vec::new();
    for power in v.great_powers() {
        let owed = surplus(state, power);
        if owed <= 0 {
            continue;
        }
        let mut sites = build_sites(v, state, power);
        for _ in 0..owed {
            if sites.is_empty() {
                break;
            }
            let p = sites.swap_remove(rng.below(sites.len()));
            let prov = v.province(p);
            let fleet = prov.terrain == Terrain::Coast && rng.chance(40);
            let (kind, location) = if fleet {
                let coast = if prov.coasts.is_empty() {
                    0
                } else {
                    1 + rng.below(prov.coasts.len()) as u8
                };
                (UnitKind::Fleet, Location::new(p, coast))
            } else {
                (UnitKind::Army, Location::province(p))
            };
            orders.push(Order {
                power,
                unit: UnitRef {
                    kind: Some(kind),
                    location,
                },
                kind: OrderKind::Build { kind: Some(kind) },
            });
        }
    }
    orders
}
