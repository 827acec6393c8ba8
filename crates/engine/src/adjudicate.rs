//! One phase in, one phase out: validates the orders, resolves them, explains each
//! result and computes the next position.

use crate::adjust;
use crate::movement::{Backup, Command, Resolver};
use crate::order::{Order, OrderError, OrderKind};
use crate::outcome::{DisbandReason, OrderResult, Outcome};
use crate::state::{Dislodged, GameState, Phase, PhaseKind, Unit};
use crate::validate::{retreat_options, validate};
use crate::variant::{Location, PowerId, PowerKind, ProvinceId, Variant, Victory};

/// The result of adjudicating one phase.
#[derive(Clone, Debug)]
pub struct Adjudication {
    pub phase: Phase,
    /// One entry per unit (movement, retreat) or per adjustment order.
    pub results: Vec<OrderResult>,
    /// Orders that did not apply to any unit (unknown unit, wrong power, wrong phase)
    /// or that lost to a later order for the same unit, with the reason.
    pub refused: Vec<(Order, OrderError)>,
    pub next: GameState,
    /// A great power that reached the victory condition at this phase's end.
    pub winner: Option<PowerId>,
}

/// Adjudicates the phase `state` is in.
pub fn adjudicate(v: &Variant, state: &GameState, orders: &[Order]) -> Adjudication {
    let mut resolver = Resolver::new();
    adjudicate_with(v, state, orders, &mut resolver)
}

/// As `adjudicate`, reusing a resolver's buffers.
pub fn adjudicate_with(v: &Variant, state: &GameState, orders: &[Order], resolver: &mut Resolver) -> Adjudication {
    match state.phase.kind {
        PhaseKind::Movement => movement(v, state, orders, resolver),
        PhaseKind::Retreat => retreats(v, state, orders),
        PhaseKind::Adjustment => adjust::adjustments(v, state, orders),
    }
}

/// Assigns each valid order to its unit. Two different orders for one unit void both
/// (DATC 4.D.3, choice c); repeating the same order is harmless.
/// Each unit's order after validation: the order it will execute, the refused order
/// it had instead (so it holds), and orders that reached no unit.
pub(crate) struct Assignment {
    pub assigned: Vec<Option<Order>>,
    pub void: Vec<Option<(Order, OrderError)>>,
    pub refused: Vec<(Order, OrderError)>,
}

pub(crate) fn assign_orders(v: &Variant, state: &GameState, units: &[Unit], orders: &[Order]) -> Assignment {
    let mut assigned: Vec<Option<Order>> = vec![None; units.len()];
    let mut void: Vec<Option<(Order, OrderError)>> = vec![None; units.len()];
    let mut refused = Vec::new();
    let mut conflicted = vec![false; units.len()];
    for order in orders {
        let index = units.iter().position(|u| {
            u.location.province == order.unit.location.province && order.unit.kind.is_none_or(|k| k == u.kind)
        });
        let index = index.or_else(|| {
            units
                .iter()
                .position(|u| u.location.province == order.unit.location.province)
        });
        match validate(v, state, order) {
            Ok(normal) => {
                let i = index.expect("a validated order names a unit");
                match assigned[i] {
                    Some(prev) if prev != normal => {
                        conflicted[i] = true;
                        refused.push((
                            *order,
                            OrderError::Other("the unit was given two different orders; it holds".into()),
                        ));
                    }
                    _ => assigned[i] = Some(normal),
                }
            }
            Err(e) => match index {
                Some(i) if void[i].is_none() && assigned[i].is_none() => void[i] = Some((*order, e)),
                _ => refused.push((*order, e)),
            },
        }
    }
    for i in 0..units.len() {
        if conflicted[i] {
            if let Some(prev) = assigned[i].take() {
                void[i] = Some((
                    prev,
                    OrderError::Other("the unit was given two different orders; it holds".into()),
                ));
            }
        } else if assigned[i].is_some() {
            void[i] = None;
        }
    }
    Assignment {
        assigned,
        void,
        refused,
    }
}

fn command_of(order: &Order) -> Command {
    match order.kind {
        OrderKind::Move { to, via_convoy } => Command::Move { to, via_convoy },
        OrderKind::SupportHold { unit } => Command::SupportHold {
            target: unit.location.province,
        },
        OrderKind::SupportMove { unit, to } => Command::SupportMove {
            target: unit.location.province,
            to: to.province,
            to_coast: to.coast,
        },
        OrderKind::Convoy { army, to } => Command::Convoy {
            from: army.location.province,
            to: to.province,
        },
        _ => Command::Hold,
    }
}

fn movement(v: &Variant, state: &GameState, orders: &[Order], r: &mut Resolver) -> Adjudication {
    let units = &state.units;
    let Assignment {
        assigned,
        void,
        refused,
    } = assign_orders(v, state, units, orders);
    let commands: Vec<Command> = assigned
        .iter()
        .map(|o| o.as_ref().map_or(Command::Hold, command_of))
        .collect();
    r.load(v, units, &commands);
    r.run(v);

    let mut results = Vec::with_capacity(units.len());
    let mut next_units = Vec::with_capacity(units.len());
    let mut dislodged = Vec::new();
    for (i, unit) in units.iter().enumerate() {
        let dislodger = r.dislodged_by(i);
        let outcome = match (&void[i], commands[i]) {
            (Some((_, e)), _) => Outcome::Void(e.clone()),
            (None, Command::Hold) => Outcome::Held,
            (None, Command::Move { to, .. }) if r.is_sortie(i) => {
                if r.succeeded(i) {
                    Outcome::SortieSucceeded { target: to.province }
                } else {
                    move_failure(v, r, i, to.province)
                }
            }
            (None, Command::Move { to, .. }) => {
                if r.succeeded(i) {
                    if r.backup(i) == Backup::CircularMovement {
                        Outcome::CircularMove
                    } else {
                        Outcome::Moved
                    }
                } else {
                    move_failure(v, r, i, to.province)
                }
            }
            (None, Command::SupportHold { .. } | Command::SupportMove { .. }) => {
                if !r.support_matches(i) {
                    Outcome::SupportUnmatched
                } else if r.succeeded(i) {
                    Outcome::Supported
                } else {
                    let here = unit.location.province;
                    let cutter = r
                        .moves_into(here)
                        .find(|&m| units[m].power != unit.power && r.succeeded(m))
                        .or_else(|| r.moves_into(here).find(|&m| units[m].power != unit.power));
                    match cutter {
                        Some(m) => Outcome::SupportCut {
                            by: units[m].location.province,
                        },
                        None => Outcome::SupportUnmatched,
                    }
                }
            }
            (None, Command::Convoy { .. }) => {
                if r.backup(i) == Backup::ConvoyParadox {
                    Outcome::ConvoyParadox
                } else if r.succeeded(i) {
                    Outcome::Convoyed
                } else if dislodger.is_some() {
                    Outcome::Held
                } else {
                    Outcome::ConvoyUnmatched
                }
            }
        };
        let moved_to = match commands[i] {
            Command::Move { to, .. } if r.succeeded(i) && !r.is_sortie(i) => Some(to),
            _ => None,
        };
        let dislodged_by = dislodger.map(|m| units[m].location.province);
        let minor = v.power(unit.power).kind == PowerKind::Minor;
        if dislodger.is_some() && minor {
            // A minor power's unit never retreats: it is removed at once.
        } else if let Some(m) = dislodger {
            dislodged.push(Dislodged {
                unit: *unit,
                attacker_from: if r.uses_convoy(m) {
                    None
                } else {
                    Some(units[m].location.province)
                },
            });
        } else {
            next_units.push(Unit {
                location: moved_to.unwrap_or(unit.location),
                ..*unit
            });
        }
        results.push(OrderResult {
            unit: *unit,
            order: assigned[i],
            given: void[i].as_ref().map(|(o, _)| *o),
            outcome,
            dislodged_by,
            retreats: Vec::new(),
        });
    }

    // A space left empty after a real bounce is closed to retreats, and so is the
    // target of a successful sortie.
    let mut standoffs: Vec<ProvinceId> = Vec::new();
    for (i, c) in commands.iter().enumerate() {
        if let Command::Move { to, .. } = c {
            let p = to.province;
            if r.is_sortie(i) && r.succeeded(i) {
                if !standoffs.contains(&p) {
                    standoffs.push(p);
                }
            } else if !r.succeeded(i)
                && !standoffs.contains(&p)
                && !next_units.iter().any(|u| u.location.province == p)
                && r.route_ok(v, i)
            {
                standoffs.push(p);
            }
        }
    }

    let mut next = GameState {
        phase: Phase::new(state.phase.season, state.phase.year, PhaseKind::Retreat),
        units: next_units,
        owners: state.owners.clone(),
        dislodged,
        standoffs,
    };
    for res in results.iter_mut() {
        if res.dislodged_by.is_some() {
            let idx = next
                .dislodged
                .iter()
                .position(|d| d.unit == res.unit)
                .expect("dislodged unit recorded");
            res.retreats = retreat_options(v, &next, idx);
        }
    }
    let winner = advance(v, &mut next);
    Adjudication {
        phase: state.phase,
        results,
        refused,
        next,
        winner,
    }
}

fn move_failure(v: &Variant, r: &mut Resolver, i: usize, to: ProvinceId) -> Outcome {
    if !r.route_ok(v, i) {
        return Outcome::NoConvoy;
    }
    let attack = r.final_attack_strength(v, i);
    if attack == 0 {
        return Outcome::OwnUnit { at: to };
    }
    // Report the strongest opposition: the defender first, then any stronger rival.
    let mut against = match r.opponent(i) {
        Some(opp) => r.final_defend_strength(v, opp),
        None => r.final_hold_strength(v, to),
    };
    let mut by = to;
    let rivals: Vec<usize> = r.moves_into(to).filter(|&m| m != i).collect();
    for m in rivals {
        let p = r.final_prevent_strength(v, m);
        if p > against {
            against = p;
            by = r.origin_of(m);
        }
    }
    Outcome::Bounced { attack, against, by }
}

fn retreats(v: &Variant, state: &GameState, orders: &[Order]) -> Adjudication {
    let units: Vec<Unit> = state.dislodged.iter().map(|d| d.unit).collect();
    let Assignment {
        assigned,
        void,
        refused,
    } = assign_orders(v, state, &units, orders);
    // Count valid retreats per destination: two or more to one space all fail.
    let mut targets: Vec<ProvinceId> = Vec::new();
    for o in assigned.iter().flatten() {
        if let OrderKind::Retreat { to } = o.kind {
            targets.push(to.province);
        }
    }
    let mut next_units = state.units.clone();
    let mut results = Vec::with_capacity(units.len());
    for (i, unit) in units.iter().enumerate() {
        let options = retreat_options(v, state, i);
        let outcome = match (&assigned[i], &void[i]) {
            (Some(o), _) => match o.kind {
                OrderKind::Retreat { to } => {
                    if targets.iter().filter(|&&p| p == to.province).count() > 1 {
                        Outcome::Disbanded {
                            why: DisbandReason::Clash,
                        }
                    } else {
                        next_units.push(Unit { location: to, ..*unit });
                        Outcome::Retreated
                    }
                }
                _ => Outcome::Disbanded {
                    why: DisbandReason::Ordered,
                },
            },
            (None, Some((_, e))) => Outcome::Void(e.clone()),
            (None, None) if options.is_empty() => Outcome::Disbanded {
                why: DisbandReason::NoRetreat,
            },
            (None, None) => Outcome::Disbanded {
                why: DisbandReason::NoOrder,
            },
        };
        results.push(OrderResult {
            unit: *unit,
            order: assigned[i],
            given: void[i].as_ref().map(|(o, _)| *o),
            outcome,
            dislodged_by: None,
            retreats: options,
        });
    }
    let mut next = GameState {
        phase: state.phase,
        units: next_units,
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

/// Moves a freshly adjudicated position to the next phase in which somebody has a
/// choice: a retreat phase only when a dislodged unit can retreat somewhere, centre
/// ownership after Fall, an adjustment phase only when a power must or may adjust.
/// Returns the winner, if the Fall ended with one.
pub fn advance(v: &Variant, next: &mut GameState) -> Option<PowerId> {
    let mut winner = None;
    loop {
        match next.phase.kind {
            PhaseKind::Movement => return winner,
            PhaseKind::Retreat => {
                // Dislodged units with nowhere to go disband at once.
                let keep: Vec<bool> = (0..next.dislodged.len())
                    .map(|i| !retreat_options(v, next, i).is_empty())
                    .collect();
                let mut k = keep.iter();
                next.dislodged.retain(|_| *k.next().unwrap_or(&false));
                if !next.dislodged.is_empty() {
                    return winner;
                }
                next.standoffs.clear();
                if next.phase.season == crate::variant::Season::Fall {
                    update_owners(v, next);
                    winner = victory(v, next);
                    if winner.is_some() {
                        next.phase = Phase::new(next.phase.season, next.phase.year, PhaseKind::Adjustment);
                        return winner;
                    }
                }
                next.phase = next.phase.next();
            }
            PhaseKind::Adjustment => {
                if adjust::anyone_adjusts(v, next) {
                    return winner;
                }
                next.phase = next.phase.next();
            }
        }
    }
}

/// After Fall: a centre belongs to the power with a unit in it; an empty centre keeps
/// its owner.
pub fn update_owners(v: &Variant, state: &mut GameState) {
    for u in &state.units {
        let p = u.location.province as usize;
        if v.provinces[p].sc {
            state.owners[p] = Some(u.power);
        }
    }
}

/// The great power that meets the variant's victory condition, if exactly one does
/// with the most.
pub fn victory(v: &Variant, state: &GameState) -> Option<PowerId> {
    let mut best: Option<(PowerId, usize)> = None;
    let mut tie = false;
    for p in v.great_powers() {
        let (count, needed) = match v.victory {
            Victory::Centres(n) => (state.centre_count(p), n as usize),
            Victory::Units(n) => (state.unit_count(p), n as usize),
        };
        if count >= needed {
            match best {
                Some((_, c)) if c == count => tie = true,
                Some((_, c)) if c > count => {}
                _ => {
                    best = Some((p, count));
                    tie = false;
                }
            }
        }
    }
    if tie {
        None
    } else {
        best.map(|(p, _)| p)
    }
}

/// Where a unit was after a move, used by callers that draw arrows.
pub fn destination_of(order: &Order) -> Option<Location> {
    match order.kind {
        OrderKind::Move { to, .. } | OrderKind::Retreat { to } => Some(to),
        _ => None,
    }
}
