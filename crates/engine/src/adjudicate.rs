//! One phase in, one phase out: validates the orders, resolves them, explains each
//! result and computes the next position.

use crate::adjust;
use crate::movement::{Backup, Command, Extra, Resolver};
use crate::order::{Order, OrderError, OrderKind};
use crate::outcome::{DisbandReason, OrderResult, Outcome};
use crate::state::{Carried, Dislodged, GameState, Phase, PhaseKind, Unit};
use crate::validate::{can_retreat, retreat_options_into, SpaceIndex, Validator};
use crate::variant::{Location, PowerId, ProvinceId, Variant};

/// The result of adjudicating one phase.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Adjudication {
    /// The phase judged.
    pub phase: Phase,
    /// One entry per unit (movement, retreat) or per adjustment order.
    pub results: Vec<OrderResult>,
    /// Orders that did not apply to any unit (unknown unit, wrong power, wrong phase)
    /// or that lost to a later order for the same unit, with the reason.
    pub refused: Vec<(Order, OrderError)>,
    /// The position after the phase: units moved, dislodged units listed for the
    /// retreat phase, centres changed after a Fall. Its phase is the next in which
    /// somebody has a choice ([`advance`]): a retreat phase no dislodged unit can use,
    /// or a Winter nobody adjusts in, is skipped.
    pub next: GameState,
    /// A great power that reached the victory condition at this phase's end.
    pub winner: Option<PowerId>,
}

#[cfg(feature = "count-adjudications")]
static ADJUDICATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many phases this process has adjudicated (every path goes through
/// `Judge::adjudicate`), for tests that must show a path judges nothing.
#[cfg(feature = "count-adjudications")]
pub fn adjudications() -> u64 {
    ADJUDICATIONS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Adjudicates the phase `state` is in.
pub fn adjudicate(v: &Variant, state: &GameState, orders: &[Order]) -> Adjudication {
    Judge::new().adjudicate_owned(v, state, orders)
}

/// Adjudicates phase after phase, keeping its working buffers and its last result
/// between calls: once warmed up, a movement phase of valid orders allocates nothing
/// (`crates/bench/tests/alloc.rs`). One judge serves any variant and any game.
#[derive(Default)]
pub struct Judge {
    resolver: Resolver,
    validator: Validator,
    /// The units of the phase's orders indexed by space (movement: the board;
    /// retreats: the dislodged units).
    spaces: SpaceIndex,
    assigned: Vec<Option<Order>>,
    void: Vec<Option<(Order, OrderError)>>,
    conflicted: Vec<bool>,
    commands: Vec<Command>,
    extras: Vec<Extra>,
    next_index: Vec<Option<usize>>,
    /// Spaces with a unit in the next position.
    occupied: Vec<bool>,
    /// Retreat lists of earlier results, kept for reuse.
    spare_lists: Vec<Vec<Location>>,
    /// Retreats: the dislodged units, the spaces retreated to, the armies aboard
    /// claimed by a retreating fleet.
    retreating: Vec<Unit>,
    targets: Vec<ProvinceId>,
    claimed: Vec<bool>,
    out: Option<Adjudication>,
}

impl Judge {
    /// A judge with empty buffers; they grow to the board's size on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adjudicates the phase `state` is in. The result is kept until the next call.
    pub fn adjudicate(&mut self, v: &Variant, state: &GameState, orders: &[Order]) -> &Adjudication {
        #[cfg(feature = "count-adjudications")]
        ADJUDICATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let out = match state.phase.kind {
            PhaseKind::Movement => self.movement(v, state, orders),
            PhaseKind::Retreat => self.retreats(v, state, orders),
            PhaseKind::Adjustment => {
                let mut out = self.recycle(state);
                adjust::adjustments(
                    v,
                    state,
                    orders,
                    &mut self.validator,
                    &mut out.results,
                    &mut out.refused,
                    &mut out.next,
                );
                out.winner = advance(v, &mut out.next);
                out
            }
        };
        self.out.insert(out)
    }

    /// As `adjudicate`, handing the result over (its buffers leave the judge; the
    /// working buffers stay).
    pub fn adjudicate_owned(&mut self, v: &Variant, state: &GameState, orders: &[Order]) -> Adjudication {
        self.adjudicate(v, state, orders);
        self.out.take().expect("the judge keeps the result it just made")
    }

    /// The resolver of the last movement phase, for reading its decisions.
    pub fn resolver(&self) -> &Resolver {
        &self.resolver
    }

    /// The last result's buffers, emptied, to be filled again.
    fn recycle(&mut self, state: &GameState) -> Adjudication {
        match self.out.take() {
            Some(mut out) => {
                for r in out.results.drain(..) {
                    if r.retreats.capacity() > 0 {
                        let mut list = r.retreats;
                        list.clear();
                        self.spare_lists.push(list);
                    }
                }
                out.phase = state.phase;
                out.refused.clear();
                out.winner = None;
                let next = &mut out.next;
                next.phase = state.phase;
                next.units.clear();
                next.owners.clone_from(&state.owners);
                next.dislodged.clear();
                next.standoffs.clear();
                next.carried.clear();
                next.capitals.clone_from(&state.capitals);
                next.disordered.clone_from(&state.disordered);
                out
            }
            None => Adjudication {
                phase: state.phase,
                results: Vec::new(),
                refused: Vec::new(),
                next: GameState {
                    units: Vec::new(),
                    dislodged: Vec::new(),
                    standoffs: Vec::new(),
                    carried: Vec::new(),
                    ..state.clone()
                },
                winner: None,
            },
        }
    }

    /// Assigns each valid order to its unit. Two different orders for one unit void
    /// both (DATC 4.D.3, choice c); repeating the same order is harmless. Fills
    /// `assigned` (the order each unit will execute) and `void` (the refused order it
    /// had instead, so it holds); orders that reached no unit go to `refused`.
    fn assign(
        &mut self,
        v: &Variant,
        state: &GameState,
        units: &[Unit],
        orders: &[Order],
        refused: &mut Vec<(Order, OrderError)>,
    ) {
        let n = units.len();
        self.assigned.clear();
        self.assigned.resize(n, None);
        self.void.clear();
        self.void.resize(n, None);
        self.conflicted.clear();
        self.conflicted.resize(n, false);
        self.spaces.build(v, units);
        for order in orders {
            let p = order.unit.location.province;
            let first = self.spaces.units_in(p).next();
            // An order without the unit's type means the first unit in the space, as
            // `validate` reads it.
            let kind = order.unit.kind.or_else(|| first.map(|j| units[j].kind));
            let matching = |j: &usize| kind.is_none_or(|k| k == units[*j].kind);
            let index = self.spaces.units_in(p).find(matching).or(first);
            // In a stack (Original 1958) each order goes to the next unit of its type
            // that has none yet; only a single unit can be given two conflicting orders.
            let stacked = self.spaces.units_in(p).filter(matching).nth(1).is_some();
            let index = if stacked {
                let free = self
                    .spaces
                    .units_in(p)
                    .filter(matching)
                    .find(|&j| self.assigned[j].is_none() && self.void[j].is_none());
                match free {
                    Some(j) => Some(j),
                    None => {
                        refused.push((
                            *order,
                            OrderError::Other(format!(
                                "there are more orders than units of that type in {}",
                                v.province(p).name
                            )),
                        ));
                        continue;
                    }
                }
            } else {
                index
            };
            match self.validator.validate(v, state, order) {
                Ok(normal) => {
                    let i = index.expect("a validated order names a unit");
                    match self.assigned[i] {
                        Some(prev) if prev != normal => {
                            self.conflicted[i] = true;
                            refused.push((
                                *order,
                                OrderError::Other("the unit was given two different orders; it holds".into()),
                            ));
                        }
                        _ => self.assigned[i] = Some(normal),
                    }
                }
                Err(e) => match index {
                    // An order for an army aboard a fleet is not the fleet's order.
                    Some(i)
                        if self.void[i].is_none()
                            && self.assigned[i].is_none()
                            && !names_army_aboard(state, units, i, order) =>
                    {
                        self.void[i] = Some((*order, e))
                    }
                    _ => refused.push((*order, e)),
                },
            }
        }
        for i in 0..n {
            if self.conflicted[i] {
                if let Some(prev) = self.assigned[i].take() {
                    self.void[i] = Some((
                        prev,
                        OrderError::Other("the unit was given two different orders; it holds".into()),
                    ));
                }
            } else if self.assigned[i].is_some() {
                self.void[i] = None;
            }
        }
    }
}

/// Whether `order` names an army aboard the fleet `units[i]` rather than the fleet.
fn names_army_aboard(state: &GameState, units: &[Unit], i: usize, order: &Order) -> bool {
    order.unit.kind == Some(crate::variant::UnitKind::Army)
        && units[i].kind == crate::variant::UnitKind::Fleet
        && state.carried.iter().any(|c| c.fleet == units[i])
}

/// Whether unit `i`'s successful move is half of two fleets exchanging spaces along
/// different coasts (`rule swaps different-coasts`): a plain move, not circular movement.
fn coast_swap(v: &Variant, units: &[Unit], commands: &[Command], i: usize) -> bool {
    let Command::Move { to, .. } = commands[i] else {
        return false;
    };
    v.rule_on(crate::rules::Rule::CoastSwaps)
        && units.iter().enumerate().any(|(j, u)| {
            u.location.province == to.province
                && matches!(commands[j], Command::Move { to: back, .. } if back.province == units[i].location.province)
        })
}

/// Whether unit `i`'s move into `p` failed because the unit from `p` beat it head to
/// head and dislodged it: such a move leaves no standoff behind (DATC 6.H.9, "a
/// dislodged unit will not make the attacker's area contested").
fn lost_head_to_head(r: &Resolver, units: &[Unit], i: usize, p: ProvinceId) -> bool {
    r.dislodged_by(i)
        .is_some_and(|m| units[m].location.province == p && !r.uses_convoy(m))
}

/// The resolver's view of a validated movement order; other orders hold.
pub fn command_of(order: &Order) -> Command {
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
        // A unit moving to board moves; one boarding where it stands holds (and so
        // may be supported but supports nothing, rule 6).
        OrderKind::Board { to: Some(to), .. } => Command::Move { to, via_convoy: false },
        _ => Command::Hold,
    }
}

impl Judge {
    fn movement(&mut self, v: &Variant, state: &GameState, orders: &[Order]) -> Adjudication {
        let mut out = self.recycle(state);
        let units = &state.units;
        self.validator.index(v, state);
        self.assign(v, state, units, orders, &mut out.refused);
        crate::stacking::void_duplicate_supports(v, units, &mut self.assigned, &mut self.void);
        // A minor unit nobody bought an order for holds; saying so gives it an order in
        // the published result like every other minor unit, without telling who bid.
        for (i, unit) in units.iter().enumerate() {
            if self.assigned[i].is_none() && self.void[i].is_none() && state.acts_as_minor(v, unit.power) {
                self.assigned[i] = Some(Order::hold(unit));
            }
        }
        self.commands.clear();
        self.commands.extend(
            self.assigned
                .iter()
                .map(|o| o.as_ref().map_or(Command::Hold, command_of)),
        );
        self.extras = crate::boarding::extras(v, state, units, &self.assigned);
        let r = &mut self.resolver;
        r.load_with(v, state, &self.commands, &self.extras);
        r.run(v);
        let (assigned, void, commands) = (&self.assigned, &self.void, &self.commands);

        let results = &mut out.results;
        let next_units = &mut out.next.units;
        self.next_index.clear();
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
                        if r.backup(i) == Backup::CircularMovement && !coast_swap(v, units, commands, i) {
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
            let minor = state.acts_as_minor(v, unit.power);
            self.next_index.push(dislodger.is_none().then_some(next_units.len()));
            if dislodger.is_some() && minor {
                // A minor power's unit never retreats: it is removed at once.
            } else if let Some(m) = dislodger {
                out.next.dislodged.push(Dislodged {
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
                unit: Some(*unit),
                order: assigned[i],
                given: void[i].as_ref().map(|(o, _)| *o),
                outcome,
                dislodged_by,
                retreats: Vec::new(),
                removed: dislodger.is_some() && minor,
            });
        }

        if !self.extras.is_empty() || !state.carried.is_empty() {
            let finish = crate::boarding::Finish {
                units,
                assigned,
                extras: &self.extras,
                next_index: &self.next_index,
            };
            out.next.carried = crate::boarding::finish_movement(v, state, r, finish, results, next_units);
        }

        // A space left empty after a real bounce is closed to retreats, and so is the
        // target of a successful sortie.
        let next = &mut out.next;
        self.occupied.clear();
        self.occupied.resize(v.provinces.len(), false);
        for u in &next.units {
            self.occupied[u.location.province as usize] = true;
        }
        for (i, c) in commands.iter().enumerate() {
            if let Command::Move { to, .. } = c {
                let p = to.province;
                if r.is_sortie(i) && r.succeeded(i) {
                    if !next.standoffs.contains(&p) {
                        next.standoffs.push(p);
                    }
                } else if !r.succeeded(i)
                    && !next.standoffs.contains(&p)
                    && !self.occupied[p as usize]
                    && r.route_ok(v, i)
                    && !lost_head_to_head(r, units, i, p)
                {
                    next.standoffs.push(p);
                }
            }
        }

        next.phase = Phase::new(state.phase.season, state.phase.year, PhaseKind::Retreat);
        for res in results.iter_mut() {
            // Minor units are removed at once and have no entry to retreat from.
            if let Some(idx) = next.dislodged.iter().position(|d| Some(d.unit) == res.unit) {
                let mut list = self.spare_lists.pop().unwrap_or_default();
                retreat_options_into(v, next, idx, &mut list);
                res.retreats = list;
            }
        }
        out.winner = advance(v, next);
        out
    }

    /// A retreat phase, in the judge's buffers as a movement phase is.
    fn retreats(&mut self, v: &Variant, state: &GameState, orders: &[Order]) -> Adjudication {
        let mut out = self.recycle(state);
        let mut units = std::mem::take(&mut self.retreating);
        units.clear();
        units.extend(state.dislodged.iter().map(|d| d.unit));
        self.validator.index(v, state);
        self.assign(v, state, &units, orders, &mut out.refused);
        let (assigned, void) = (&self.assigned, &self.void);
        // Count valid retreats per destination: two or more to one space all fail.
        let targets = &mut self.targets;
        targets.clear();
        for o in assigned.iter().flatten() {
            if let OrderKind::Retreat { to } = o.kind {
                targets.push(to.province);
            }
        }
        let next_units = &mut out.next.units;
        next_units.extend_from_slice(&state.units);
        let results = &mut out.results;
        // Armies aboard fleets that did not have to retreat stay as they are; those aboard
        // a retreating fleet go with it, and die with it when it is disbanded (rule 6).
        let carried = &mut out.next.carried;
        carried.extend(state.carried.iter().filter(|c| !c.carrier_dislodged).copied());
        let claimed = &mut self.claimed;
        claimed.clear();
        claimed.resize(state.carried.len(), false);
        for (i, unit) in units.iter().enumerate() {
            let mut options = self.spare_lists.pop().unwrap_or_default();
            retreat_options_into(v, state, i, &mut options);
            let passenger = crate::boarding::carried_by(state, unit, true, claimed);
            if let Some(k) = passenger {
                claimed[k] = true;
            }
            let outcome = match (&assigned[i], &void[i]) {
                (Some(o), _) => match o.kind {
                    OrderKind::Retreat { to } => {
                        if targets.iter().filter(|&&p| p == to.province).count() > 1 {
                            Outcome::Disbanded {
                                why: DisbandReason::Clash,
                            }
                        } else {
                            let moved = Unit { location: to, ..*unit };
                            next_units.push(moved);
                            if let Some(k) = passenger {
                                carried.push(Carried {
                                    fleet: moved,
                                    carrier_dislodged: false,
                                    ..state.carried[k]
                                });
                            }
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
                unit: Some(*unit),
                order: assigned[i],
                given: void[i].as_ref().map(|(o, _)| *o),
                outcome,
                dislodged_by: None,
                retreats: options,
                removed: false,
            });
        }
        self.retreating = units;
        out.winner = advance(v, &mut out.next);
        out
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
    // By position, since reading a strength needs the resolver mutably.
    for k in 0.. {
        let Some(m) = r.moves_into(to).nth(k) else { break };
        if m == i {
            continue;
        }
        let p = r.final_prevent_strength(v, m);
        if p > against {
            against = p;
            by = r.origin_of(m);
        }
    }
    Outcome::Bounced { attack, against, by }
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
                // Backwards, so that removing one leaves the indices still to check.
                for i in (0..next.dislodged.len()).rev() {
                    if !can_retreat(v, next, i) {
                        next.dislodged.remove(i);
                    }
                }
                if !next.carried.is_empty() {
                    crate::boarding::prune(next);
                }
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
    crate::victory::winner(v, state)
}

/// Where a unit was after a move, used by callers that draw arrows.
pub fn destination_of(order: &Order) -> Option<Location> {
    match order.kind {
        OrderKind::Move { to, .. } | OrderKind::Retreat { to } => Some(to),
        _ => None,
    }
}
