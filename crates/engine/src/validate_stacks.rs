//! Order checks of the Original 1958 mechanisms (`rule stacking`, `rule boarding on`,
//! `rule convoys none`), called by `validate` before its ordinary checks. Each returns
//! `Ok(None)` when the ordinary checks should go on.

use crate::order::{Order, OrderError, OrderKind, UnitRef};
use crate::reach::destination;
use crate::rules::Rule;
use crate::stacking::{arrival, build_site, Arrival};
use crate::state::{GameState, Unit};
use crate::variant::{Location, Terrain, UnitKind, Variant};

fn name(v: &Variant, p: u16) -> String {
    v.province(p).name.clone()
}

const NO_CONVOYS: &str = "there are no convoys in this variant: an army crosses water aboard a fleet \
     (order the army `A ppp B` or `A ppp - qqq B` and the fleet `F ppp B` or `F rrr - qqq B`, rules 6 and 7)";

/// An order naming an army that is aboard a fleet: such an army acts only through its
/// fleet (rule 6: it can neither support nor fight).
pub(crate) fn check_carried_army(v: &Variant, state: &GameState, order: &Order) -> Result<(), OrderError> {
    let p = order.unit.location.province;
    if order.unit.kind != Some(UnitKind::Army) || state.carried.is_empty() {
        return Ok(());
    }
    let army_on_board = state.carried.iter().any(|c| c.fleet.location.province == p);
    let army_here = state
        .units
        .iter()
        .any(|u| u.location.province == p && u.kind == UnitKind::Army);
    if army_on_board && !army_here {
        return Err(OrderError::Other(format!(
            "the army in {} is aboard a fleet: it cannot support or fight, and moves only with its fleet \
             (order the fleet; a move into a coastal space lands it, rule 6)",
            name(v, p)
        )));
    }
    Ok(())
}

/// Movement-phase checks. Returns the normalised order kind of a boarding order.
pub(crate) fn check_movement(
    v: &Variant,
    state: &GameState,
    order: &Order,
    unit: &Unit,
) -> Result<Option<OrderKind>, OrderError> {
    let from = unit.location;
    match order.kind {
        OrderKind::Convoy { .. } if v.rule_on(Rule::NoConvoys) => Err(OrderError::Other(NO_CONVOYS.into())),
        OrderKind::Move { via_convoy: true, .. } if v.rule_on(Rule::NoConvoys) => {
            Err(OrderError::Other(NO_CONVOYS.into()))
        }
        OrderKind::Move { to, .. } => {
            let dest = destination(v, unit.kind, from, to)?;
            if unit.kind == UnitKind::Army && v.rule_on(Rule::NoConvoys) && !v.can_move(UnitKind::Army, from, dest) {
                return Err(OrderError::NotAdjacent {
                    from: name(v, from.province),
                    to: name(v, dest.province),
                    kind: "armies (there are no convoys: board a fleet, rule 6)",
                });
            }
            let here: Vec<Unit> = state
                .units
                .iter()
                .filter(|u| u.location.province == dest.province)
                .copied()
                .collect();
            match arrival(v, state, unit.power, unit.kind, dest, &here) {
                Arrival::Forbidden(why) => Err(OrderError::Other(why.into())),
                _ => Ok(None),
            }
        }
        OrderKind::SupportHold { unit: t } | OrderKind::SupportMove { unit: t, .. }
            if v.rule_on(Rule::Stacking) && t.location.province == from.province =>
        {
            Err(OrderError::Other(
                "units in one space may not support one another (rule 3)".into(),
            ))
        }
        OrderKind::Board { to, with } => check_board(v, state, unit, to, with).map(Some),
        _ => Ok(None),
    }
}

fn check_board(
    v: &Variant,
    state: &GameState,
    unit: &Unit,
    to: Option<Location>,
    with: Option<crate::variant::PowerId>,
) -> Result<OrderKind, OrderError> {
    if !v.rule_on(Rule::Boarding) {
        return Err(OrderError::Other("there is no boarding in this variant".into()));
    }
    let from = unit.location;
    let carrying = state.carried.iter().any(|c| c.fleet == *unit && !c.carrier_dislodged);
    if carrying {
        return Err(OrderError::Other(format!(
            "the fleet in {} already carries an army; it may not take on another, nor land one and embark \
             another in the same turn (rules 6 and 7)",
            name(v, from.province)
        )));
    }
    let space = match to {
        Some(t) => destination(v, unit.kind, from, t)?,
        None => from,
    };
    if v.province(space.province).terrain != Terrain::Coast {
        return Err(OrderError::Other(format!(
            "boarding happens in a coastal province; {} is not one (rule 6)",
            name(v, space.province)
        )));
    }
    if unit.kind == UnitKind::Army && to.is_some() && !v.can_move(UnitKind::Army, from, space) {
        return Err(OrderError::NotAdjacent {
            from: name(v, from.province),
            to: name(v, space.province),
            kind: "armies",
        });
    }
    Ok(OrderKind::Board {
        to: to.map(|_| space),
        with: with.filter(|&p| p != unit.power),
    })
}

/// Adjustment-phase checks of an order as `winter_order` reads it: builds under the
/// stacking rules (armies in the capital, fleets in a naval base, several per space)
/// and the removal of an army aboard a fleet. None when the ordinary checks apply.
pub(crate) fn check_adjustment(v: &Variant, state: &GameState, order: &Order) -> Option<Result<Order, OrderError>> {
    match order.kind {
        OrderKind::Build { kind } if v.rule_on(Rule::Stacking) => Some(check_build(v, state, order, kind)),
        OrderKind::Remove | OrderKind::Disband if order.unit.kind == Some(UnitKind::Army) => {
            let p = order.unit.location.province;
            let army_here = state
                .units
                .iter()
                .any(|u| u.location.province == p && u.kind == UnitKind::Army);
            let passenger = state
                .carried
                .iter()
                .find(|c| c.fleet.location.province == p && !c.carrier_dislodged);
            match passenger {
                Some(c) if !army_here => {
                    if !v.controls(order.power, c.army) {
                        return Some(Err(OrderError::NotYourUnit {
                            location: name(v, p),
                            owner: v.power(c.army).name.clone(),
                        }));
                    }
                    Some(Ok(Order {
                        power: order.power,
                        unit: UnitRef {
                            kind: Some(UnitKind::Army),
                            location: Location::province(p),
                        },
                        kind: OrderKind::Remove,
                    }))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn check_build(v: &Variant, state: &GameState, order: &Order, kind: Option<UnitKind>) -> Result<Order, OrderError> {
    let at = order.unit.location;
    let p = at.province;
    let prov = v.province(p);
    let power = order.power;
    if !prov.homes.contains(&power) {
        return Err(OrderError::BuildNotHome {
            location: prov.name.clone(),
        });
    }
    if state.owners[p as usize] != Some(power) {
        return Err(OrderError::BuildNotOwned {
            location: prov.name.clone(),
        });
    }
    // Own units do not stop a build (rule 4: several builds in one space, rule 5);
    // another power's unit does.
    if state.units.iter().any(|u| u.location.province == p && u.power != power) {
        return Err(OrderError::BuildOccupied {
            location: prov.name.clone(),
        });
    }
    let capital = crate::stacking::capital(v, state, power) == Some(p);
    let base = crate::stacking::naval_base(v, p, power).is_some();
    let kind = match kind {
        Some(k) => k,
        None if capital && !base => UnitKind::Army,
        None if base && !capital => UnitKind::Fleet,
        None if at.coast != 0 => UnitKind::Fleet,
        None => {
            return Err(OrderError::BuildKindMissing {
                location: prov.name.clone(),
            })
        }
    };
    let site = build_site(v, state, power, kind, at).map_err(OrderError::Other)?;
    Ok(Order {
        power,
        unit: UnitRef {
            kind: Some(kind),
            location: site,
        },
        kind: OrderKind::Build { kind: Some(kind) },
    })
}

/// Whether any of these mechanisms is switched on for the variant.
pub(crate) fn active(v: &Variant) -> bool {
    v.rule_on(Rule::Stacking) || v.rule_on(Rule::Boarding) || v.rule_on(Rule::NoConvoys)
}

/// An order as a Winter reads it: with the boarding rule `A par B` parses as boarding,
/// and in an adjustment phase it means the build `Build A par`.
pub fn winter_order(order: &Order) -> Order {
    match order.kind {
        OrderKind::Board { to: None, .. } => Order {
            kind: OrderKind::Build { kind: order.unit.kind },
            ..*order
        },
        _ => *order,
    }
}
