//! Checks an order against the board and the phase, and puts it in canonical form
//! (actual unit type and coast, the coast of a move filled in when only one is
//! possible). A refused order is void: the unit holds, or disbands in a retreat.

use crate::order::{Order, OrderError, OrderKind, UnitRef};
use crate::reach::{destination, loc_name, name};
use crate::state::{GameState, PhaseKind, Unit};
use crate::variant::{Location, ProvinceId, Terrain, UnitKind, Variant};

/// Validates and normalises one order for the current phase. To check many orders of
/// one position, index it once with a `Validator` instead.
pub fn validate(v: &Variant, state: &GameState, order: &Order) -> Result<Order, OrderError> {
    let mut x = Validator::new();
    x.index(v, state);
    x.validate(v, state, order)
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
    pick_own_unit(v, order, first, here.copied())
}

/// The unit an order means among those in its space, checked to be the ordering
/// power's to command.
fn pick_own_unit(
    v: &Variant,
    order: &Order,
    first: Unit,
    mut others: impl Iterator<Item = Unit>,
) -> Result<Unit, OrderError> {
    let p = order.unit.location.province;
    // Where several units share a space (Original 1958), the type picks one; elsewhere
    // a wrong type is ignored (DATC 4.C.2).
    let unit = match order.unit.kind {
        Some(k) if first.kind != k => others.find(|u| u.kind == k).unwrap_or(first),
        _ => first,
    };
    if !v.controls(order.power, unit.power) {
        return Err(OrderError::NotYourUnit {
            location: name(v, p),
            owner: v.power(unit.power).name.clone(),
        });
    }
    Ok(unit)
}

const NONE: u16 = u16::MAX;

/// Which units stand in each space, as linked lists over a slice of units, so that
/// finding an order's unit does not scan the board.
#[derive(Clone, Debug, Default)]
pub struct SpaceIndex {
    /// The first unit (an index into the slice) in each space, or NONE.
    first: Vec<u16>,
    /// The next unit in the same space (several only in a stack, Original 1958).
    next: Vec<u16>,
}

impl SpaceIndex {
    /// Indexes `units` on `v`'s spaces, reusing the buffers of the last call.
    pub fn build(&mut self, v: &Variant, units: &[Unit]) {
        self.first.clear();
        self.first.resize(v.provinces.len(), NONE);
        self.next.clear();
        self.next.resize(units.len(), NONE);
        // Backwards, so that each space's list starts with its first unit.
        for (i, u) in units.iter().enumerate().rev() {
            let p = u.location.province as usize;
            self.next[i] = self.first[p];
            self.first[p] = i as u16;
        }
    }

    /// The units in space `p`, in the slice's order.
    pub fn units_in(&self, p: ProvinceId) -> impl Iterator<Item = usize> + '_ {
        let mut i = self.first.get(p as usize).copied().unwrap_or(NONE);
        std::iter::from_fn(move || {
            (i != NONE).then(|| {
                let here = i as usize;
                i = self.next[here];
                here
            })
        })
    }
}

/// The board of one phase indexed for checking its orders: which units stand in each
/// space and which sea spaces hold a fleet. Indexing once per phase keeps the cost of
/// an order independent of the number of units; the buffers are kept between phases,
/// so a warmed-up validator allocates nothing for a valid order.
#[derive(Clone, Debug, Default)]
pub struct Validator {
    spaces: SpaceIndex,
    /// The fleets at sea, which alone can convoy (unit indices).
    seas: Vec<u16>,
    /// Per space: a fleet at sea stands there (the first one, a unit index), or NONE.
    sea_fleet: Vec<u16>,
    /// Convoy route search: spaces already reached, and the work list or current path.
    seen: Vec<bool>,
    work: Vec<u16>,
    queue: Vec<u16>,
}

impl Validator {
    /// A validator with empty buffers; [`Validator::index`] a position before use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Indexes `state`'s units; call before validating orders against a new position.
    pub fn index(&mut self, v: &Variant, state: &GameState) {
        self.spaces.build(v, &state.units);
        self.sea_fleet.clear();
        self.sea_fleet.resize(v.provinces.len(), NONE);
        for (i, u) in state.units.iter().enumerate().rev() {
            let p = u.location.province as usize;
            if u.kind == UnitKind::Fleet && v.provinces[p].terrain == Terrain::Sea {
                self.sea_fleet[p] = i as u16;
            }
        }
        self.seas.clear();
        self.seas.extend(
            state
                .units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.kind == UnitKind::Fleet && v.province(u.location.province).terrain == Terrain::Sea)
                .map(|(i, _)| i as u16),
        );
    }

    fn units_in(&self, p: ProvinceId) -> impl Iterator<Item = usize> + '_ {
        self.spaces.units_in(p)
    }

    /// Validates and normalises one order against the indexed position. Adjustment
    /// orders are checked against `state` itself, with no index: each build or removal
    /// changes the position the next one is checked against, so a Winter reuses one
    /// validator without indexing it again per order.
    pub fn validate(&mut self, v: &Variant, state: &GameState, order: &Order) -> Result<Order, OrderError> {
        match state.phase.kind {
            PhaseKind::Movement => self.validate_movement(v, state, order),
            PhaseKind::Retreat => validate_retreat(v, state, order),
            PhaseKind::Adjustment => validate_adjustment(v, state, order),
        }
    }

    /// Whether the fleets at sea form a chain from `from` to `to` (DATC 6.D.32: without
    /// one an army's move by sea is impossible). A breadth-first search over the sea
    /// spaces that hold fleets.
    pub fn convoy_route_exists(&mut self, v: &Variant, state: &GameState, from: ProvinceId, to: ProvinceId) -> bool {
        let touches = |f: u16, p: ProvinceId| {
            v.fleet_neighbours(state.units[f as usize].location)
                .iter()
                .any(|l| l.province == p)
        };
        self.seen.clear();
        self.seen.resize(v.provinces.len(), false);
        self.work.clear();
        for &f in &self.seas {
            let p = state.units[f as usize].location.province as usize;
            if !self.seen[p] && touches(f, from) {
                self.seen[p] = true;
                self.work.push(f);
            }
        }
        let mut k = 0;
        while k < self.work.len() {
            let f = self.work[k];
            k += 1;
            if touches(f, to) {
                return true;
            }
            for l in v.fleet_neighbours(state.units[f as usize].location) {
                let q = l.province as usize;
                let g = self.sea_fleet[q];
                if g != NONE && !self.seen[q] {
                    self.seen[q] = true;
                    self.work.push(g);
                }
            }
        }
        false
    }

    /// Whether the fleet at sea in `fleet` is on some convoy route from `from` to `to`
    /// of the fleets on the board on which every fleet is needed (DATC 6.G.19: a fleet
    /// no such route needs gives an impossible convoy order). Routes are walked depth
    /// first; a route with a shortcut is not followed, as it needs fewer fleets.
    pub fn on_convoy_route(
        &mut self,
        v: &Variant,
        state: &GameState,
        fleet: ProvinceId,
        from: ProvinceId,
        to: ProvinceId,
    ) -> bool {
        if self.sea_fleet.get(fleet as usize).is_none_or(|&f| f == NONE)
            || !self.convoy_route_exists(v, state, from, to)
        {
            return false;
        }
        self.work.clear();
        for k in 0..self.seas.len() {
            let first = self.seas[k];
            if self.touches(v, state, first, from) {
                self.work.push(first);
                if self.extend(v, state, fleet, from, to) {
                    return true;
                }
                self.work.pop();
            }
        }
        false
    }

    /// The sea spaces of the indexed position whose fleets are on some convoy route
    /// from `from` to `to` on which every fleet is needed, in the order of the units.
    pub fn convoy_fleets(
        &mut self,
        v: &Variant,
        state: &GameState,
        from: ProvinceId,
        to: ProvinceId,
    ) -> Vec<ProvinceId> {
        let mut out = Vec::new();
        if !self.convoy_route_exists(v, state, from, to) {
            return out;
        }
        for k in 0..self.seas.len() {
            let p = state.units[self.seas[k] as usize].location.province;
            if self.on_convoy_route(v, state, p, from, to) {
                out.push(p);
            }
        }
        out
    }

    fn touches(&self, v: &Variant, state: &GameState, f: u16, p: ProvinceId) -> bool {
        v.fleet_neighbours(state.units[f as usize].location)
            .iter()
            .any(|l| l.province == p)
    }

    /// Extends the route in `work` by one fleet at a time; true once a complete route
    /// through `fleet` is found.
    fn extend(&mut self, v: &Variant, state: &GameState, fleet: ProvinceId, from: ProvinceId, to: ProvinceId) -> bool {
        let last = *self.work.last().expect("a route starts with a fleet");
        if self.touches(v, state, last, to) {
            return self
                .work
                .iter()
                .any(|&f| state.units[f as usize].location.province == fleet);
        }
        let through = |x: &Self| {
            x.work
                .iter()
                .any(|&f| state.units[f as usize].location.province == fleet)
        };
        if !through(self) && !self.may_reach(v, state, fleet, from, to) {
            // No way on can pass the fleet asked about: without this cut the search
            // walks every route of a sea full of fleets.
            return false;
        }
        for l in v.fleet_neighbours(state.units[last as usize].location) {
            let next = self.sea_fleet[l.province as usize];
            if next == NONE || self.work.contains(&next) || self.skipped(v, state, next, l.province, from) {
                continue;
            }
            self.work.push(next);
            if self.extend(v, state, fleet, from, to) {
                return true;
            }
            self.work.pop();
        }
        false
    }

    /// Whether a route in `work` may not go on to fleet `next` (in space `p`): it would
    /// have a shortcut, from the army's space or from an earlier fleet of the route.
    fn skipped(&self, v: &Variant, state: &GameState, next: u16, p: ProvinceId, from: ProvinceId) -> bool {
        self.touches(v, state, next, from)
            || self.work[..self.work.len() - 1]
                .iter()
                .any(|&f| self.touches(v, state, f, p))
    }

    /// Whether the route in `work` could still reach the fleet in `fleet`: a search
    /// over the fleets the route may go on to, ignoring the shortcuts the new part
    /// would make among itself (so it never cuts a route that exists).
    fn may_reach(
        &mut self,
        v: &Variant,
        state: &GameState,
        fleet: ProvinceId,
        from: ProvinceId,
        to: ProvinceId,
    ) -> bool {
        self.seen.clear();
        self.seen.resize(v.provinces.len(), false);
        self.queue.clear();
        self.queue.push(*self.work.last().expect("a route starts with a fleet"));
        let mut k = 0;
        while k < self.queue.len() {
            let f = self.queue[k];
            k += 1;
            for l in v.fleet_neighbours(state.units[f as usize].location) {
                let p = l.province;
                let g = self.sea_fleet[p as usize];
                if g == NONE || self.seen[p as usize] || self.work.contains(&g) || self.skipped(v, state, g, p, from) {
                    continue;
                }
                if p == fleet {
                    return true;
                }
                self.seen[p as usize] = true;
                // A route ends at the first fleet that reaches the destination.
                if !self.touches(v, state, g, to) {
                    self.queue.push(g);
                }
            }
        }
        false
    }

    fn own_unit(&self, v: &Variant, state: &GameState, order: &Order) -> Result<Unit, OrderError> {
        let p = order.unit.location.province;
        let mut here = self.units_in(p).map(|j| state.units[j]);
        let first = here.next().ok_or_else(|| OrderError::NoUnit { location: name(v, p) })?;
        pick_own_unit(v, order, first, here)
    }

    fn validate_movement(&mut self, v: &Variant, state: &GameState, order: &Order) -> Result<Order, OrderError> {
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
            | OrderKind::Board { .. } => self.own_unit(v, state, order)?,
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
                let side = state.side(v, &unit);
                if side.is_minor()
                    && self
                        .units_in(to.province)
                        .any(|j| state.side(v, &state.units[j]) == side)
                {
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
                        // Only a move that may go by sea needs a route: searching one for
                        // every adjacent move made validation grow with the fleets at sea.
                        let adjacent = v.can_move(UnitKind::Army, from, dest);
                        let by_sea = (!adjacent || via_convoy)
                            && self.convoy_route_exists(v, state, from.province, dest.province);
                        if !adjacent && !by_sea {
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
                        if via_convoy && !by_sea {
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
                let carried = self.units_in(ap).next().map(|j| state.units[j]);
                if army.kind == Some(UnitKind::Fleet) || carried.is_some_and(|u| u.kind == UnitKind::Fleet) {
                    return Err(OrderError::ConvoyNotArmy { location: name(v, ap) });
                }
                if ap == to.province {
                    return Err(OrderError::MoveToSelf { location: name(v, ap) });
                }
                // A convoy lands its army: the destination must be a space an army can
                // stand in (DATC 6.A.2's rule for the army's move, asked of the convoy).
                if !v.army_can_stand(to.province) {
                    return Err(OrderError::ArmyToSea {
                        to: name(v, to.province),
                    });
                }
                if carried.is_none() {
                    return Err(OrderError::NoUnit { location: name(v, ap) });
                }
                if !self.on_convoy_route(v, state, from.province, ap, to.province) {
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
}

/// The sea spaces whose fleets could carry an army from `from` to `to` on some convoy
/// route of the fleets now on the board, counting only routes where every fleet is
/// needed (DATC 6.G.19). Empty when no route exists at all (DATC 6.D.32). To ask about
/// many routes of one position, use `Validator::convoy_fleets`.
pub fn convoy_fleets(v: &Variant, state: &GameState, from: ProvinceId, to: ProvinceId) -> Vec<ProvinceId> {
    let mut x = Validator::new();
    x.index(v, state);
    x.convoy_fleets(v, state, from, to)
}

/// Spaces a dislodged unit may retreat to.
pub fn retreat_options(v: &Variant, state: &GameState, index: usize) -> Vec<Location> {
    let mut out = Vec::new();
    retreat_options_into(v, state, index, &mut out);
    out
}

/// As `retreat_options`, into a list the caller keeps (emptied first).
pub fn retreat_options_into(v: &Variant, state: &GameState, index: usize, out: &mut Vec<Location>) {
    out.clear();
    out.extend(retreat_candidates(v, state, index).filter(|l| retreat_blocked(v, state, index, *l).is_none()));
}

/// Whether a dislodged unit has anywhere to retreat to.
pub fn can_retreat(v: &Variant, state: &GameState, index: usize) -> bool {
    retreat_candidates(v, state, index).any(|l| retreat_blocked(v, state, index, l).is_none())
}

fn retreat_candidates<'a>(v: &'a Variant, state: &GameState, index: usize) -> impl Iterator<Item = Location> + 'a {
    let u = state.dislodged[index].unit;
    let (armies, fleets): (&[ProvinceId], &[Location]) = match u.kind {
        UnitKind::Army => (v.army_neighbours(u.location.province), &[]),
        UnitKind::Fleet => (&[], v.fleet_neighbours(u.location)),
    };
    armies
        .iter()
        .map(|&p| Location::province(p))
        .chain(fleets.iter().copied())
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
    if !v.controls(order.power, unit.power) {
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
    let mut order = *order;
    if crate::validate_stacks::active(v) {
        order = crate::validate_stacks::winter_order(&order);
        if let Some(checked) = crate::validate_stacks::check_adjustment(v, state, &order) {
            return checked;
        }
    }
    let order = &order;
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
            if v.build_restricted(power, p) {
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
