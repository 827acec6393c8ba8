//! Winter adjustments: builds up to the centre surplus on free home centres, removals
//! down to the centre count, and the 2023 civil-disorder rule for missing removals.
//! Minor powers (1936, 1648) give no adjustment orders: each is rebuilt in its empty
//! centres instead.

use std::collections::VecDeque;

use crate::order::{Order, OrderError, OrderKind, UnitRef};
use crate::outcome::{OrderResult, Outcome};
use crate::state::{Carried, GameState, Unit};
use crate::validate::Validator;
use crate::variant::{Location, PowerId, ProvinceId, Terrain, UnitKind, Variant};

/// Centres minus units: positive means builds, negative removals.
pub fn surplus(state: &GameState, power: PowerId) -> i64 {
    state.centre_count(power) as i64 - state.unit_count(power) as i64
}

/// Spaces where `power` could build now: its home centres and extra build sites that it
/// controls and that stand empty, less those the variant forbids it.
pub fn build_sites(v: &Variant, state: &GameState, power: PowerId) -> Vec<ProvinceId> {
    if v.rule_on(crate::rules::Rule::Stacking) {
        return crate::stacking::build_provinces(v, state, power);
    }
    free_home_centres(v, state, power).collect()
}

fn free_home_centres<'a>(
    v: &'a Variant,
    state: &'a GameState,
    power: PowerId,
) -> impl Iterator<Item = ProvinceId> + 'a {
    (0..v.provinces.len() as ProvinceId).filter(move |&p| {
        (v.is_home_of(p, power) || v.build_sites.contains(&(power, p)))
            && state.owners[p as usize] == Some(power)
            && !state.units.iter().any(|u| u.location.province == p)
            && !v.build_restricted(power, p)
    })
}

/// Whether any great power or faction has an adjustment to make or choose, or a minor
/// power is due to be rebuilt. Asked after every Fall, so it allocates nothing.
pub fn anyone_adjusts(v: &Variant, state: &GameState) -> bool {
    let players = (0..v.powers.len() as PowerId).filter(|&p| !state.acts_as_minor(v, p));
    let mut players = players.filter(|&p| {
        let s = surplus(state, p);
        s < 0
            || (s > 0
                && if v.rule_on(crate::rules::Rule::Stacking) {
                    !build_sites(v, state, p).is_empty()
                } else {
                    free_home_centres(v, state, p).next().is_some()
                })
    });
    players.next().is_some() || minor_rebuild_iter(v, state).next().is_some()
}

/// The units the Winter rebuilds for minor powers (rule 1: "If a Great Power does not
/// occupy the minor power SC at the end of a Fall turn, the minor power's unit is
/// automatically rebuilt"): one in each centre a minor still controls that stands empty,
/// of the kind the minor started with there (an army where it started with none). The
/// centres of a power in civil disorder are independent minors (rule 11) and get an
/// army, as the rule says ("a minor power army unit is built there"), even where the
/// power started with a fleet.
pub fn minor_rebuilds(v: &Variant, state: &GameState) -> Vec<Unit> {
    minor_rebuild_iter(v, state).collect()
}

fn minor_rebuild_iter<'a>(v: &'a Variant, state: &'a GameState) -> impl Iterator<Item = Unit> + 'a {
    v.provinces.iter().enumerate().filter_map(move |(p, prov)| {
        let owner = state.owners[p]?;
        if !prov.sc || !state.acts_as_minor(v, owner) || state.units.iter().any(|u| u.location.province as usize == p) {
            return None;
        }
        let start = if v.is_minor(owner) {
            v.units
                .iter()
                .find(|u| u.power == owner && u.location.province as usize == p)
        } else {
            None
        };
        let (kind, location) = match start {
            Some(u) => (u.kind, u.location),
            None if v.army_can_stand(p as ProvinceId) => (UnitKind::Army, Location::province(p as ProvinceId)),
            None => (UnitKind::Fleet, Location::province(p as ProvinceId)),
        };
        Some(Unit {
            power: owner,
            kind,
            location,
        })
    })
}

/// Judges a Winter: `next` comes in as the position after it will be read, emptied of
/// units (the judge's buffers), and leaves as the position after the adjustments, still
/// in the adjustment phase; the judge then advances it. While the orders are read it is
/// the position they are checked against, so each build sees the ones before it.
pub fn adjustments(
    v: &Variant,
    state: &GameState,
    orders: &[Order],
    validator: &mut Validator,
    results: &mut Vec<OrderResult>,
    refused: &mut Vec<(Order, OrderError)>,
    next: &mut GameState,
) {
    next.phase = state.phase;
    next.units.clone_from(&state.units);
    next.carried.clone_from(&state.carried);
    for power in 0..v.powers.len() as PowerId {
        // Minor powers and powers in civil disorder have no player to order anything:
        // their units come back by the rebuild below, so any order in their name is
        // not read (a published rebuild lists one, and reading it back changes nothing).
        if state.acts_as_minor(v, power) {
            continue;
        }
        let s = surplus(state, power);
        let mine: Vec<Order> = orders
            .iter()
            .filter(|o| o.power == power)
            .map(crate::validate_stacks::winter_order)
            .collect();
        let mine = mine.iter();
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
                match validator.validate(v, next, order) {
                    Ok(o) => {
                        left -= 1;
                        let unit = built_unit(&o);
                        let outcome = match unit {
                            Some(unit) => {
                                next.units.push(unit);
                                Outcome::Built
                            }
                            None => Outcome::Waived,
                        };
                        results.push(OrderResult {
                            unit,
                            order: Some(o),
                            given: None,
                            outcome,
                            dislodged_by: None,
                            retreats: Vec::new(),
                            removed: false,
                        });
                    }
                    Err(e) => refused.push((*order, e)),
                }
            }
            // Builds not ordered are waived (DATC 4.D.7). Each gets the entry an explicit
            // waive gets, so the result accounts for every build the power could have
            // made; builds it had no free site for were never its to waive.
            let unused = (left as usize).min(build_sites(v, next, power).len());
            for _ in 0..unused {
                let o = Order {
                    power,
                    unit: UnitRef {
                        kind: None,
                        location: Location::province(0),
                    },
                    kind: OrderKind::Waive,
                };
                results.push(OrderResult {
                    unit: None,
                    order: Some(o),
                    given: None,
                    outcome: Outcome::Waived,
                    dislodged_by: None,
                    retreats: Vec::new(),
                    removed: false,
                });
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
                match validator.validate(v, next, order) {
                    Ok(o) => {
                        let idx = next.units.iter().position(|u| {
                            u.location.province == o.unit.location.province && Some(u.kind) == o.unit.kind
                        });
                        let removed = match idx {
                            Some(idx) => remove_unit(v, &mut next.units, &mut next.carried, idx),
                            None => remove_passenger(&mut next.carried, &o).into_iter().collect(),
                        };
                        for unit in removed {
                            left = (left - 1).max(0);
                            results.push(OrderResult {
                                unit: Some(unit),
                                order: Some(o),
                                given: None,
                                outcome: Outcome::Removed,
                                dislodged_by: None,
                                retreats: Vec::new(),
                                removed: false,
                            });
                        }
                    }
                    Err(e) => refused.push((*order, e)),
                }
            }
            while left > 0 {
                let Some(idx) = disorder_removal(v, state, &next.units, power) else {
                    break;
                };
                let removed = remove_unit(v, &mut next.units, &mut next.carried, idx);
                left -= removed.len() as i64;
                let unit = removed[0];
                results.push(OrderResult {
                    unit: Some(unit),
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
                    removed: false,
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
    for unit in minor_rebuilds(v, next) {
        next.units.push(unit);
        // Given as a build in the minor's own name, so the result reads like any other
        // build (the minor has no player who ordered it).
        let build = Order {
            power: unit.power,
            unit: UnitRef {
                kind: Some(unit.kind),
                location: unit.location,
            },
            kind: OrderKind::Build { kind: Some(unit.kind) },
        };
        results.push(OrderResult {
            unit: Some(unit),
            order: Some(build),
            given: None,
            outcome: Outcome::Built,
            dislodged_by: None,
            retreats: Vec::new(),
            removed: false,
        });
    }
    next.phase = state.phase.next();
}

/// The unit a validated build puts on the board (validation names every build's kind);
/// a waive builds none.
fn built_unit(o: &Order) -> Option<Unit> {
    match o.kind {
        OrderKind::Build { kind: Some(kind) } => Some(Unit {
            power: o.power,
            kind,
            location: o.unit.location,
        }),
        _ => None,
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

/// Removes `units[idx]`, returning every unit that left the board. A fleet carrying an
/// army puts it ashore when it is removed in a coastal space, and takes it down with it
/// at sea (Original 1958 rule 6).
fn remove_unit(v: &Variant, units: &mut Vec<Unit>, carried: &mut Vec<Carried>, idx: usize) -> Vec<Unit> {
    let unit = units.remove(idx);
    let mut gone = vec![unit];
    if let Some(k) = carried.iter().position(|c| c.fleet == unit && !c.carrier_dislodged) {
        let c = carried.remove(k);
        if v.province(unit.location.province).terrain == Terrain::Coast {
            units.push(c.army_unit());
        } else {
            gone.push(c.army_unit());
        }
    }
    gone
}

/// Removes the army aboard a fleet that a removal names; the fleet stays (rule 6).
fn remove_passenger(carried: &mut Vec<Carried>, order: &Order) -> Option<Unit> {
    let k = carried
        .iter()
        .position(|c| c.army_unit().location.province == order.unit.location.province && c.army == order.power)?;
    Some(carried.remove(k).army_unit())
}
