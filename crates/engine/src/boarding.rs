//! Boarding instead of convoys (`rule boarding on`, Original 1958 rules 6 and 7): which
//! boarding orders pair up, and what happens to armies aboard fleets when their fleets
//! move, retreat or are removed. docs/rules-1958.md gives the readings taken.

use crate::movement::{Extra, Resolver};
use crate::order::{Order, OrderKind};
use crate::outcome::{OrderResult, Outcome};
use crate::rules::Rule;
use crate::stacking::{arrival, Arrival};
use crate::state::{Carried, GameState, Unit};
use crate::variant::{Location, ProvinceId, Terrain, UnitKind, Variant};

/// The space where a boarding order means to board: where the unit moves, or where it
/// stands.
pub fn board_space(unit: &Unit, order: &Order) -> Option<ProvinceId> {
    match order.kind {
        OrderKind::Board { to: Some(to), .. } => Some(to.province),
        OrderKind::Board { to: None, .. } => Some(unit.location.province),
        _ => None,
    }
}

/// Pairs the boarding orders of a movement phase: an army's and a fleet's order pair
/// when both board in the same space and each names the other's power (or none, for
/// its own). Both units must order B (rule 7: neither can be made to board by the
/// other's order alone). Returns each unit's partner.
pub fn pair_boarders(units: &[Unit], orders: &[Option<Order>]) -> Vec<Option<usize>> {
    let mut partner: Vec<Option<usize>> = vec![None; units.len()];
    let names = |i: usize, other: usize| -> bool {
        match orders[i].map(|o| o.kind) {
            Some(OrderKind::Board { with, .. }) => with.unwrap_or(units[i].power) == units[other].power,
            _ => false,
        }
    };
    for a in 0..units.len() {
        if units[a].kind != UnitKind::Army {
            continue;
        }
        let Some(space) = orders[a].as_ref().and_then(|o| board_space(&units[a], o)) else {
            continue;
        };
        let fleet = (0..units.len()).find(|&f| {
            units[f].kind == UnitKind::Fleet
                && partner[f].is_none()
                && orders[f].as_ref().and_then(|o| board_space(&units[f], o)) == Some(space)
                && names(a, f)
                && names(f, a)
        });
        if let Some(f) = fleet {
            partner[a] = Some(f);
            partner[f] = Some(a);
        }
    }
    partner
}

/// Whether a fleet at this unit's place carries an army: the index in `state.carried`.
pub fn carried_by(state: &GameState, fleet: &Unit, dislodged: bool, claimed: &[bool]) -> Option<usize> {
    (0..state.carried.len()).find(|&k| {
        let c = &state.carried[k];
        !claimed[k] && c.fleet == *fleet && c.carrier_dislodged == dislodged
    })
}

/// Drops armies whose fleet is no longer on the board (a dislodged fleet disbanded
/// with nowhere to go takes its army with it, rule 6).
pub fn prune(state: &mut GameState) {
    let mut units_left: Vec<Unit> = state.units.clone();
    let mut dislodged_left: Vec<Unit> = state.dislodged.iter().map(|d| d.unit).collect();
    state.carried.retain(|c: &Carried| {
        let pool = if c.carrier_dislodged {
            &mut dislodged_left
        } else {
            &mut units_left
        };
        match pool.iter().position(|u| *u == c.fleet) {
            Some(i) => {
                pool.remove(i);
                true
            }
            None => false,
        }
    });
}

/// The resolver's view of each unit's stack and boarding facts, from the orders
/// assigned to the units. Empty (every unit ordinary) when the variant has neither
/// stacking nor boarding.
pub(crate) fn extras(v: &Variant, state: &GameState, units: &[Unit], assigned: &[Option<Order>]) -> Vec<Extra> {
    if !v.rule_on(Rule::Boarding) && !v.rule_on(Rule::Stacking) {
        return Vec::new();
    }
    let partner = pair_boarders(units, assigned);
    (0..units.len())
        .map(|i| {
            let u = &units[i];
            let (joins, unmatched_board) = match assigned[i].map(|o| o.kind) {
                Some(OrderKind::Move { to, .. }) => {
                    let here: Vec<Unit> = units
                        .iter()
                        .filter(|w| w.location.province == to.province)
                        .copied()
                        .collect();
                    (arrival(v, state, u.power, u.kind, to, &here) == Arrival::Joins, false)
                }
                Some(OrderKind::Board { to: Some(_), .. }) => (false, partner[i].is_none()),
                _ => (false, false),
            };
            Extra {
                joins,
                partner: partner[i],
                unmatched_board,
            }
        })
        .collect()
}

/// What the movement phase did to boarders and carried armies, applied to the
/// results and the next position built by the ordinary adjudication:
/// - a pair whose army and fleet both end the turn in the space boards: the army goes
///   aboard (rules 6, 7); a boarding order without a partner is a standoff;
/// - a carrying fleet that moved to sea takes its army along; one that moved into a
///   coastal space lands the army there and goes back where it came from, unless
///   another unit moved in there, in which case the army stays aboard (rule 6);
/// - a carrying fleet that is dislodged keeps its army aboard while it retreats.
///
/// `next_index[i]` is where unit `i` is in `next_units` (None when dislodged).
pub(crate) struct Finish<'a> {
    pub units: &'a [Unit],
    pub assigned: &'a [Option<Order>],
    pub extras: &'a [Extra],
    pub next_index: &'a [Option<usize>],
}

pub(crate) fn finish_movement(
    v: &Variant,
    state: &GameState,
    r: &Resolver,
    f: Finish,
    results: &mut [OrderResult],
    next_units: &mut Vec<Unit>,
) -> Vec<Carried> {
    let Finish {
        units,
        assigned,
        extras,
        next_index,
    } = f;
    let mut carried = Vec::new();
    let mut aboard: Vec<usize> = Vec::new();
    for (i, e) in extras.iter().enumerate() {
        let Some(order) = assigned[i] else { continue };
        let Some(space) = board_space(&units[i], &order) else {
            continue;
        };
        match e.partner {
            None => {
                if !matches!(results[i].outcome, Outcome::Void(_)) && results[i].dislodged_by.is_none() {
                    results[i].outcome = Outcome::BoardUnmatched;
                }
            }
            Some(p) if units[i].kind == UnitKind::Army => {
                let end = |k: usize| next_index[k].map(|n| next_units[n]);
                if let (Some(army), Some(fleet)) = (end(i), end(p)) {
                    if army.location.province == space && fleet.location.province == space {
                        aboard.push(next_index[i].expect("army on the board"));
                        carried.push(Carried {
                            army: army.power,
                            fleet,
                            carrier_dislodged: false,
                        });
                        results[i].outcome = Outcome::Boarded;
                        results[p].outcome = Outcome::Boarded;
                    }
                }
            }
            Some(_) => {}
        }
    }
    let mut claimed = vec![false; units.len()];
    for c in &state.carried {
        let Some(i) = (0..units.len()).find(|&i| !claimed[i] && units[i] == c.fleet) else {
            continue;
        };
        claimed[i] = true;
        let Some(n) = next_index[i] else {
            carried.push(Carried {
                carrier_dislodged: true,
                ..*c
            });
            continue;
        };
        let moved =
            matches!(assigned[i].map(|o| o.kind), Some(OrderKind::Move { .. })) && r.succeeded(i) && !r.is_sortie(i);
        let at = next_units[n].location;
        if moved && v.province(at.province).terrain == Terrain::Coast {
            let origin = units[i].location.province;
            let blocked = r.moves_into(origin).any(|m| r.succeeded(m) && !r.is_sortie(m));
            if blocked {
                results[i].outcome = Outcome::LandingStuck;
                carried.push(Carried {
                    fleet: next_units[n],
                    ..*c
                });
            } else {
                results[i].outcome = Outcome::Landed;
                next_units[n].location = units[i].location;
                next_units.push(Unit {
                    power: c.army,
                    kind: UnitKind::Army,
                    location: Location::province(at.province),
                });
            }
        } else {
            carried.push(Carried {
                fleet: next_units[n],
                ..*c
            });
        }
    }
    aboard.sort_unstable();
    for n in aboard.into_iter().rev() {
        next_units.remove(n);
    }
    carried
}
