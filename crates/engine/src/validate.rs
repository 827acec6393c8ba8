//! Checks an order against the board and the phase, and puts it in canonical form
//! (actual unit type and coast, the coast of a move filled in when only one is
//! possible). A refused order is void: the unit holds, or disbands in a retreat.

use crate::order::{Order, OrderError, OrderKind, UnitRef};
use crate::state::{GameState, PhaseKind, Unit};
use crate::variant::{Location, PowerId, PowerKind, ProvinceId, Terrain, UnitKind, Variant};

fn name(v: &Variant, p: ProvinceId) -> String {
    v.province(p).name.clone()
}

fn loc_name(v: &Variant, l: Location) -> String {
    match v.coast_name(l) {
        Some(c) => format!("{} ({c})", v.province(l.province).name),
        None => v.province(l.province).name.clone(),
    }
}

/// Whether `power` may give orders to a unit of `owner`: its own units and those of a
/// faction it plays.
pub fn controls(v: &Variant, power: PowerId, owner: PowerId) -> bool {
    power == owner || v.power(owner).player == Some(power)
}

/// Validates and normalises one order for the current phase.
pub fn validate(v: &Variant, state: &GameState, order: &Order) -> Result<Order, OrderError> {
    match state.phase.kind {
        PhaseKind::Movement => validate_movement(v, state, order),
        PhaseKind::Retreat => validate_retreat(v, state, order),
        PhaseKind::Adjustment => validate_adjustment(v, state, order),
    }
}

fn wrong_phase(order: &Order, state: &GameState) -> OrderError {
    let what = match order.kind {
        OrderKind::Hold => "hold",
        OrderKind::Move { .. } => "move",
        OrderKind::SupportHold { .. } | OrderKind::SupportMove { .. } => "support",
        OrderKind::Convoy { .. } => "convoy",
        OrderKind::Board { .. } => "board",
        OrderKind::Retreat { .. } => "retreat",
        OrderKind::Disband => "disband",
        OrderKind::Build { .. } => "build",
        OrderKind::Remove => "remove",
        OrderKind::Waive => "waive",
    };
    OrderError::WrongPhase {
        order: what,
        phase: state.phase.to_string(),
    }
}

fn own_unit(v: &Variant, state: &GameState, order: &Order) -> Result<Unit, OrderError> {
    let p = order.unit.location.province;
    let mut here = state.units.iter().filter(|u| u.location.province == p);
    let first = *here.next().ok_or_else(|| OrderError::NoUnit { location: name(v, p) })?;
    // Where several units share a space (Original 1958), the type picks one; elsewhere
    // a wrong type is ignored (DATC 4.C.2).
    let unit = match order.unit.kind {
        Some(k) if first.kind != k => here.find(|u| u.kind == k).copied().unwrap_or(first),
        _ => first,
    };
    if !controls(v, order.power, unit.power) {
        return Err(OrderError::NotYourUnit {
            location: name(v, p),
            owner: v.power(unit.power).name.clone(),
        });
    }
    Ok(unit)
}

/// Where a unit of `kind` at `from` would arrive when ordered to `to`, or why not.
pub fn destination(v: &Variant, kind: UnitKind, from: Location, to: Location) -> Result<Location, OrderError> {
    let tp = v.province(to.province);
    if to.province == from.province {
        return Err(OrderError::MoveToSelf {
            location: name(v, from.province),
        });
    }
    match kind {
        UnitKind::Army => {
            if !v.army_can_stand(to.province) {
                return Err(OrderError::ArmyToSea {
                    to: name(v, to.province),
                });
            }
            Ok(Location::province(to.province))
        }
        UnitKind::Fleet => {
            if tp.terrain == Terrain::Land || tp.terrain == Terrain::Impassable {
                return Err(OrderError::FleetToLand {
                    to: name(v, to.province),
                });
            }
            let mut reachable = v
                .fleet_neighbours(from)
                .iter()
                .copied()
                .filter(|l| l.province == to.province);
            let Some(first) = reachable.next() else {
                return Err(OrderError::NotAdjacent {
                    from: loc_name(v, from),
                    to: name(v, to.province),
                    kind: "fleets",
                });
            };
            let more = reachable.next().is_some();
            if tp.coasts.is_empty() {
                return Ok(Location::province(to.province));
            }
            if to.coast != 0 {
                if v.can_move(UnitKind::Fleet, from, to) {
                    return Ok(to);
                }
                return Err(OrderError::CoastUnreachable {
                    from: loc_name(v, from),
                    to: loc_name(v, to),
                });
            }
            if !more {
                // DATC 6.B.2: the only reachable coast is meant.
                return Ok(first);
            }
            let reachable: Vec<Location> = v
                .fleet_neighbours(from)
                .iter()
                .copied()
                .filter(|l| l.province == to.province)
                .collect();
            Err(OrderError::CoastNeeded {
                to: tp.name.clone(),
                coasts: reachable
                    .iter()
                    .filter_map(|l| v.coast_name(*l).map(str::to_string))
                    .collect(),
            })
        }
    }
}

/// The sea spaces whose fleets could carry an army from `from` to `to` on some convoy
/// route of the fleets now on the board, counting only routes where every fleet is
/// needed (DATC 6.G.19: a fleet no route needs gives an impossible order). Empty when
/// no route exists at all (DATC 6.D.32: the army's move is then impossible).
pub fn convoy_fleets(v: &Variant, state: &GameState, from: ProvinceId, to: ProvinceId) -> Vec<ProvinceId> {
    let fleets: Vec<Location> = state
        .units
        .iter()
        .filter(|u| u.kind == UnitKind::Fleet && v.province(u.location.province).terrain == Terrain::Sea)
        .map(|u| u.location)
        .collect();
    let touches = |f: Location, p: ProvinceId| v.fleet_neighbours(f).iter().any(|l| l.province == p);
    let mut useful: Vec<ProvinceId> = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    fn extend(
        fleets: &[Location],
        path: &mut Vec<usize>,
        useful: &mut Vec<ProvinceId>,
        touches: &dyn Fn(Location, ProvinceId) -> bool,
        from: ProvinceId,
        to: ProvinceId,
    ) {
        let last = *path.last().expect("path starts with a fleet");
        if touches(fleets[last], to) {
            for &f in path.iter() {
                if !useful.contains(&fleets[f].province) {
                    useful.push(fleets[f].province);
                }
            }
            return;
        }
        for next in 0..fleets.len() {
            if path.contains(&next) || !touches(fleets[last], fleets[next].province) {
                continue;
            }
            // A route with a shortcut does not need the fleets it skips.
            let shortcut = touches(fleets[next], from)
                || path[..path.len() - 1]
                    .iter()
                    .any(|&f| touches(fleets[f], fleets[next].province));
            if shortcut {
                continue;
            }
            path.push(next);
            extend(fleets, path, useful, touches, from, to);
            path.pop();
        }
    }
    for first in 0..fleets.len() {
        if touches(fleets[first], from) {
            path.push(first);
            extend(&fleets, &mut path, &mut useful, &touches, from, to);
            path.pop();
        }
    }
    useful
}

fn validate_movement(v: &Variant, state: &GameState, order: &Order) -> Result<Order, OrderError> {
    let original_rules = crate::validate_stacks::active(v);
    if original_rules {
        crate::validate_stacks::check_carried_army(v, state, order)?;
    }
    let unit = match order.kind {
        OrderKind::Hold
        | OrderKind::Move { .. }
        | OrderKind::SupportHold { .. }
        | OrderKind::SupportMove { .. }
        | OrderKind::Convoy { .. }
        | OrderKind::Board { .. } => own_unit(v, state, order)?,
        _ => return Err(wrong_phase(order, state)),
    };
    let me = UnitRef {
        kind: Some(unit.kind),
        location: unit.location,
    };
    let from = unit.location;
    if original_rules {
        if let Some(kind) = crate::validate_stacks::check_movement(v, state, order, &unit)? {
            return Ok(Order {
                power: order.power,
                unit: me,
                kind,
            });
        }
    } else if matches!(order.kind, OrderKind::Board { .. }) {
        return Err(OrderError::Other("there is no boarding in this variant".into()));
    }
    let kind = match order.kind {
        OrderKind::Hold => OrderKind::Hold,
        OrderKind::Move { to, via_convoy } => {
            if unit.kind == UnitKind::Fleet && via_convoy {
                return Err(OrderError::ConvoyNotArmy {
                    location: name(v, from.province),
                });
            }
            // 1936 Yugoslavia: a minor power's units never attack each other.
            let own_target = state
                .units
                .iter()
                .any(|u| u.location.province == to.province && u.power == unit.power);
            if own_target && v.power(unit.power).kind == PowerKind::Minor {
                return Err(OrderError::Other(format!(
                    "{}'s units never attack each other",
                    v.power(unit.power).name
                )));
            }
            match unit.kind {
                UnitKind::Fleet => OrderKind::Move {
                    to: destination(v, UnitKind::Fleet, from, to)?,
                    via_convoy: false,
                },
                UnitKind::Army => {
                    let dest = destination(v, UnitKind::Army, from, to)?;
                    let adjacent = v.can_move(UnitKind::Army, from, dest);
                    let by_sea = convoy_fleets(v, state, from.province, dest.province);
                    if !adjacent && by_sea.is_empty() {
                        return Err(
                            if v.fleet_can_stand(from.province) && v.fleet_can_stand(dest.province) {
                                OrderError::CannotConvoyThere {
                                    to: name(v, dest.province),
                                }
                            } else {
                                OrderError::NotAdjacent {
                                    from: name(v, from.province),
                                    to: name(v, dest.province),
                                    kind: "armies",
                                }
                            },
                        );
                    }
                    if via_convoy && by_sea.is_empty() {
                        return Err(OrderError::CannotConvoyThere {
                            to: name(v, dest.province),
                        });
                    }
                    OrderKind::Move { to: dest, via_convoy }
                }
            }
        }
        OrderKind::SupportHold { unit: target } => {
            let tp = target.location.province;
            if tp == from.province {
                return Err(OrderError::SupportSelf);
            }
            if !v.can_reach_province(unit.kind, from, tp) {
                return Err(OrderError::CannotSupportThere {
                    from: loc_name(v, from),
                    to: name(v, tp),
                });
            }
            OrderKind::SupportHold {
                unit: UnitRef {
                    kind: target.kind,
                    location: Location::province(tp),
                },
            }
        }
        OrderKind::SupportMove { unit: target, to } => {
            let tp = target.location.province;
            if tp == from.province {
                return Err(OrderError::SupportSelf);
            }
            if tp == to.province {
                return Err(OrderError::MoveToSelf { location: name(v, tp) });
            }
            if !v.can_reach_province(unit.kind, from, to.province) {
                return Err(OrderError::CannotSupportThere {
                    from: loc_name(v, from),
                    to: name(v, to.province),
                });
            }
            OrderKind::SupportMove {
                unit: UnitRef {
                    kind: target.kind,
                    location: Location::province(tp),
                },
                // DATC 4.B.4: a support need not name the coast (6.B.4), but a coast it
                // names must be the one moved to (6.B.9).
                to: if v.province(to.province).coasts.is_empty() {
                    Location::province(to.province)
                } else {
                    to
                },
            }
        }
        OrderKind::Convoy { army, to } => {
            if unit.kind != UnitKind::Fleet {
                return Err(OrderError::ConvoyFleet);
            }
            if v.province(from.province).terrain != Terrain::Sea {
                return Err(OrderError::ConvoyNotAtSea {
                    location: name(v, from.province),
                });
            }
            let ap = army.location.province;
            let carried = state.units.iter().find(|u| u.location.province == ap);
            if army.kind == Some(UnitKind::Fleet) || carried.is_some_and(|u| u.kind == UnitKind::Fleet) {
                return Err(OrderError::ConvoyNotArmy { location: name(v, ap) });
            }
            if ap == to.province {
                return Err(OrderError::MoveToSelf { location: name(v, ap) });
            }
            if carried.is_none() {
                return Err(OrderError::NoUnit { location: name(v, ap) });
            }
            if !convoy_fleets(v, state, ap, to.province).contains(&from.province) {
                return Err(OrderError::ConvoyNotOnRoute {
                    fleet: name(v, from.province),
                    from: name(v, ap),
                    to: name(v, to.province),
                });
            }
            OrderKind::Convoy {
                army: UnitRef {
                    kind: Some(UnitKind::Army),
                    location: Location::province(ap),
                },
                to: Location::province(to.province),
            }
        }
        _ => unreachable!("filtered above"),
    };
    Ok(Order {
        power: order.power,
        unit: me,
        kind,
    })
}

/// Spaces a dislodged unit may retreat to.
pub fn retreat_options(v: &Variant, state: &GameState, index: usize) -> Vec<Location> {
    let d = &state.dislodged[index];
    let u = d.unit;
    let candidates: Vec<Location> = match u.kind {
        UnitKind::Army => v
            .army_neighbours(u.location.province)
            .iter()
            .map(|&p| Location::province(p))
            .collect(),
        UnitKind::Fleet => v.fleet_neighbours(u.location).to_vec(),
    };
    candidates
        .into_iter()
        .filter(|l| retreat_blocked(v, state, index, *l).is_none())
        .collect()
}

fn retreat_blocked(v: &Variant, state: &GameState, index: usize, to: Location) -> Option<&'static str> {
    let d = &state.dislodged[index];
    if !v.can_move(d.unit.kind, d.unit.location, to) {
        return Some("it is not adjacent");
    }
    if state.units.iter().any(|u| u.location.province == to.province) {
        return Some("it is occupied");
    }
    if d.attacker_from == Some(to.province) {
        return Some("the attack came from there");
    }
    if state.standoffs.contains(&to.province) {
        return Some("a standoff left it empty this turn");
    }
    None
}

fn validate_retreat(v: &Variant, state: &GameState, order: &Order) -> Result<Order, OrderError> {
    let p = order.unit.location.province;
    // In a dislodged stack (Original 1958) the unit's type picks which unit retreats.
    let index = state
        .dislodged
        .iter()
        .position(|d| d.unit.location.province == p && order.unit.kind.is_none_or(|k| k == d.unit.kind));
    let index = index.or_else(|| state.dislodged.iter().position(|d| d.unit.location.province == p));
    let Some(index) = index else {
        if state.units.iter().any(|u| u.location.province == p) {
            return Err(OrderError::NotDislodged { location: name(v, p) });
        }
        return Err(OrderError::NoUnit { location: name(v, p) });
    };
    let unit = state.dislodged[index].unit;
    if !controls(v, order.power, unit.power) {
        return Err(OrderError::NotYourUnit {
            location: name(v, p),
            owner: v.power(unit.power).name.clone(),
        });
    }
    let me = UnitRef {
        kind: Some(unit.kind),
        location: unit.location,
    };
    let kind = match order.kind {
        OrderKind::Disband | OrderKind::Remove => OrderKind::Disband,
        OrderKind::Retreat { to } | OrderKind::Move { to, via_convoy: false } => {
            let to = destination(v, unit.kind, unit.location, to)?;
            if let Some(why) = retreat_blocked(v, state, index, to) {
                return Err(OrderError::RetreatBlocked {
                    to: loc_name(v, to),
                    why,
                });
            }
            OrderKind::Retreat { to }
        }
        OrderKind::Move { via_convoy: true, .. } => {
            return Err(OrderError::Other("a retreat cannot be convoyed".into()));
        }
        _ => return Err(wrong_phase(order, state)),
    };
    Ok(Order {
        power: order.power,
        unit: me,
        kind,
    })
}

fn validate_adjustment(v: &Variant, state: &GameState, order: &Order) -> Result<Order, OrderError> {
    if crate::validate_stacks::active(v) {
        if let Some(checked) = crate::validate_stacks::check_adjustment(v, state, order) {
            return checked;
        }
    }
    match order.kind {
        OrderKind::Waive => Ok(*order),
        OrderKind::Remove | OrderKind::Disband => {
            let unit = own_unit(v, state, order)?;
            Ok(Order {
                power: order.power,
                unit: UnitRef {
                    kind: Some(unit.kind),
                    location: unit.location,
                },
                kind: OrderKind::Remove,
            })
        }
        OrderKind::Build { kind } => {
            let loc = order.unit.location;
            let p = loc.province;
            let prov = v.province(p);
            let power = order.power;
            let is_site = prov.homes.contains(&power) || v.build_sites.contains(&(power, p));
            if !is_site {
                return Err(OrderError::BuildNotHome {
                    location: prov.name.clone(),
                });
            }
            if crate::adjust::build_restricted(v, power, p) {
                return Err(OrderError::Other(format!(
                    "{} may never build in {} (a rule of this variant)",
                    v.power(power).name,
                    prov.name
                )));
            }
            if state.owners[p as usize] != Some(power) {
                return Err(OrderError::BuildNotOwned {
                    location: prov.name.clone(),
                });
            }
            if state.units.iter().any(|u| u.location.province == p) {
                return Err(OrderError::BuildOccupied {
                    location: prov.name.clone(),
                });
            }
            // DATC 4.C.3: without a type, an army on land, a fleet when a coast is named.
            let kind = match kind {
                Some(k) => k,
                None if prov.terrain == Terrain::Land => UnitKind::Army,
                None if loc.coast != 0 => UnitKind::Fleet,
                None => {
                    return Err(OrderError::BuildKindMissing {
                        location: prov.name.clone(),
                    })
                }
            };
            let at = match kind {
                UnitKind::Army => {
                    if !v.army_can_stand(p) {
                        return Err(OrderError::ArmyToSea { to: prov.name.clone() });
                    }
                    Location::province(p)
                }
                UnitKind::Fleet => {
                    if prov.terrain != Terrain::Coast {
                        return Err(OrderError::BuildFleetInland {
                            location: prov.name.clone(),
                        });
                    }
                    if !prov.coasts.is_empty() && loc.coast == 0 {
                        // DATC 6.B.14: a fleet on a split coast needs its coast named.
                        return Err(OrderError::CoastNeeded {
                            to: prov.name.clone(),
                            coasts: prov.coasts.clone(),
                        });
                    }
                    loc
                }
            };
            Ok(Order {
                power,
                unit: UnitRef {
                    kind: Some(kind),
                    location: at,
                },
                kind: OrderKind::Build { kind: Some(kind) },
            })
        }
        _ => Err(wrong_phase(order, state)),
    }
}
