//! Winter adjustments: builds up to the centre surplus on free home centres, removals
//! down to the centre count, and the 2023 civil-disorder rule for missing removals.

use std::collections::VecDeque;

use crate::adjudicate::{advance, Adjudication};
use crate::order::{Order, OrderError, OrderKind, UnitRef};
use crate::outcome::{OrderResult, Outcome};
use crate::state::{GameState, Unit};
use crate::validate::validate;
use crate::variant::{Location, PowerId, ProvinceId, UnitKind, Variant};

/// Centres minus units: positive means builds, negative removals.
pub fn surplus(state: &GameState, power: PowerId) -> i64 {
    state.centre_count(power) as i64 - state.unit_count(power) as i64
}

/// Spaces where `power` could build now.
pub fn build_sites(v: &Variant, state: &GameState, power: PowerId) -> Vec<ProvinceId> {
    (0..v.provinces.len() as ProvinceId)
        .filter(|&p| {
            (v.is_home_of(p, power) || v.build_sites.contains(&(power, p)))
                && state.owners[p as usize] == Some(power)
                && !state.units.iter().any(|u| u.location.province == p)
        })
        .collect()
}

/// Whether any great power has an adjustment to make or choose.
pub fn anyone_adjusts(v: &Variant, state: &GameState) -> bool {
    v.great_powers().any(|p| {
        let s = surplus(state, p);
        s < 0 || (s > 0 && !build_sites(v, state, p).is_empty())
    })
}

pub fn adjustments(v: &Variant, state: &GameState, orders: &[Order]) -> Adjudication {
    let mut results = Vec::new();
    let mut refused = Vec::new();
    let mut units = state.units.clone();
    for power in 0..v.powers.len() as PowerId {
        let s = surplus(state, power);
        let mine = orders.iter().filter(|o| o.power == power);
        if s > 0 {
            let mut left = s;
            for order in mine {
                if !matches!(order.kind, OrderKind::Build { .. } | OrderKind::Waive) {
                    refused.push((
                        *order,
                        OrderError::NoRemovals {
                            power: v.power(power).name.clone(),
                        },
                    ));
                    continue;
                }
                if left == 0 {
                    refused.push((
                        *order,
                        OrderError::Other(format!("{} has no builds left", v.power(power).name)),
                    ));
                    continue;
                }
                let check_state = GameState {
                    units: units.clone(),
                    ..state.clone()
                };
                match validate(v, &check_state, order) {
                    Ok(o) => {
                        left -= 1;
                        let unit = Unit {
                            power,
                            kind: o.unit.kind.unwrap_or(UnitKind::Army),
                            location: o.unit.location,
                        };
                        let outcome = if o.kind == OrderKind::Waive {
                            Outcome::Waived
                        } else {
                            units.push(unit);
                            Outcome::Built
                        };
                        results.push(OrderResult {
                            unit,
                            order: Some(o),
                            given: None,
                            outcome,
                            dislodged_by: None,
                            retreats: Vec::new(),
                        });
                    }
                    Err(e) => refused.push((*order, e)),
                }
            }
        } else if s < 0 {
            let mut left = -s;
            for order in mine {
                if !matches!(order.kind, OrderKind::Remove | OrderKind::Disband) {
                    refused.push((
                        *order,
                        OrderError::NoBuilds {
                            power: v.power(power).name.clone(),
                        },
                    ));
                    continue;
                }
                if left == 0 {
                    refused.push((*order, OrderError::Other("no more removals are due".into())));
                    continue;
                }
                let check_state = GameState {
                    units: units.clone(),
                    ..state.clone()
                };
                match validate(v, &check_state, order) {
                    Ok(o) => {
                        let idx = units
                            .iter()
                            .position(|u| {
                                u.location.province == o.unit.location.province && Some(u.kind) == o.unit.kind
                            })
                            .expect("validated removal names a unit");
                        let unit = units.remove(idx);
                        left -= 1;
                        results.push(OrderResult {
                            unit,
                            order: Some(o),
                            given: None,
                            outcome: Outcome::Removed,
                            dislodged_by: None,
                            retreats: Vec::new(),
                        });
                    }
                    Err(e) => refused.push((*order, e)),
                }
            }
            for _ in 0..left {
                let Some(idx) = disorder_removal(v, state, &units, power) else {
                    break;
                };
                let unit = units.remove(idx);
                results.push(OrderResult {
                    unit,
                    order: Some(Order {
                        power,
                        unit: UnitRef {
                            kind: Some(unit.kind),
                            location: unit.location,
                        },
                        kind: OrderKind::Remove,
                    }),
                    given: None,
                    outcome: Outcome::RemovedInDisorder,
                    dislodged_by: None,
                    retreats: Vec::new(),
                });
            }
        } else {
            for order in mine {
                refused.push((
                    *order,
                    OrderError::Other(format!("{} has no adjustments to make", v.power(power).name)),
                ));
            }
        }
    }
    let mut next = GameState {
        phase: state.phase.next(),
        units,
        owners: state.owners.clone(),
        dislodged: Vec::new(),
        standoffs: Vec::new(),
    };
    let winner = advance(v, &mut next);
    Adjudication {
        phase: state.phase,
        results,
        refused,
        next,
        winner,
    }
}

/// The unit the 2023 rules remove for a power that did not order enough removals: the
/// one farthest from any centre it owns, counting steps over land and sea alike for
/// both unit types; fleets before armies on a tie, then the space's English name.
pub fn disorder_removal(v: &Variant, state: &GameState, units: &[Unit], power: PowerId) -> Option<usize> {
    let targets: Vec<ProvinceId> = (0..v.provinces.len() as ProvinceId)
        .filter(|&p| state.owners[p as usize] == Some(power))
        .collect();
    let distances = distances_to(v, &targets);
    units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.power == power)
        .max_by(|(_, a), (_, b)| {
            let da = distances[a.location.province as usize];
            let db = distances[b.location.province as usize];
            da.cmp(&db)
                .then((a.kind == UnitKind::Fleet).cmp(&(b.kind == UnitKind::Fleet)))
                .then_with(|| {
                    let na = &v.province(a.location.province).name;
                    let nb = &v.province(b.location.province).name;
                    nb.cmp(na)
                })
        })
        .map(|(i, _)| i)
}

/// Steps from every space to the nearest of `targets`, moving as army or fleet.
fn distances_to(v: &Variant, targets: &[ProvinceId]) -> Vec<u32> {
    let n = v.provinces.len();
    let mut dist = vec![u32::MAX; n];
    let mut queue = VecDeque::new();
    for &t in targets {
        dist[t as usize] = 0;
        queue.push_back(t);
    }
    while let Some(p) = queue.pop_front() {
        let d = dist[p as usize] + 1;
        let prov = v.province(p);
        let fleet_steps = (0..=prov.coasts.len() as u8)
            .flat_map(|c| v.fleet_neighbours(Location::new(p, c)).iter().map(|l| l.province));
        for q in v.army_neighbours(p).iter().copied().chain(fleet_steps) {
            if dist[q as usize] == u32::MAX {
                dist[q as usize] = d;
                queue.push_back(q);
            }
        }
    }
    dist
}
