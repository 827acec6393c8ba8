//! Every legal order of a position, as typed orders with their canonical text. The
//! pages, the API and the bots ask here rather than composing order text themselves.
//!
//! The lister proposes candidates from the map (neighbours, units in reach, convoy
//! routes of the fleets on the board, build sites) and keeps the ones the
//! [`Validator`] accepts, in the canonical form it returns. So a listed order is
//! exactly one a submission would take: the two cannot disagree.
//!
//! Orders that name a unit are proposed only for units that stand on the board; the
//! validator alone would also take a support of an empty space, which no player means.

use std::rc::Rc;

use crate::adjust::{build_sites, surplus};
use crate::order::{Order, OrderKind, UnitRef};
use crate::rules::Rule;
use crate::state::{GameState, PhaseKind, Unit};
use crate::validate::{retreat_options_into, Validator};
use crate::variant::{Location, PowerId, ProvinceId, Terrain, UnitKind, Variant};

/// Where a convoy could take an army from one space (`Lister::convoy_reach`).
#[derive(Debug, Default)]
struct Reach {
    /// The shores a chain of fleets reaches.
    coasts: Vec<ProvinceId>,
    /// The sea spaces of the fleets in such chains.
    fleets: Vec<ProvinceId>,
}

/// How wide a list to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Everything the validator takes, including a move to a neighbour written
    /// "via convoy" (DATC 4.A.3 makes it a different order).
    All,
    /// What a player weighs: the same less the "via convoy" spellings (a move that
    /// can only go by sea is listed once, without it).
    Plausible,
}

/// The options of one position, indexed once so that asking about many units costs
/// little more than asking about one.
pub struct Lister<'a> {
    v: &'a Variant,
    state: &'a GameState,
    validator: Validator,
    scope: Scope,
    /// Spaces both armies and fleets may stand in (coasts, and seas with a landing such
    /// as 1936's Gibraltar): the only places a convoy can start from or land at.
    coasts: Vec<ProvinceId>,
    buf: Vec<Location>,
    /// Per space: the coasts a convoy by the fleets at sea could land an army from there
    /// at (one search per space, made when first asked).
    convoy_reach: Vec<Option<Rc<Reach>>>,
    /// Per space: the fleet standing at sea there (a unit index), which alone can convoy.
    sea_fleet: Vec<Option<usize>>,
    /// Per unit of the position: where it could be moving to, for supports of its move.
    moves: Vec<Option<Vec<Location>>>,
    /// Per space: whether the unit being listed could move or support into it.
    in_reach: Vec<bool>,
}

impl<'a> Lister<'a> {
    /// Indexes `state` for listing.
    pub fn new(v: &'a Variant, state: &'a GameState, scope: Scope) -> Lister<'a> {
        let mut validator = Validator::new();
        validator.index(v, state);
        let coasts = (0..v.provinces.len() as ProvinceId)
            .filter(|&p| v.army_can_stand(p) && v.fleet_can_stand(p))
            .collect();
        let mut sea_fleet = vec![None; v.provinces.len()];
        for (i, u) in state.units.iter().enumerate() {
            let p = u.location.province as usize;
            if u.kind == UnitKind::Fleet
                && v.province(u.location.province).terrain == Terrain::Sea
                && sea_fleet[p].is_none()
            {
                sea_fleet[p] = Some(i);
            }
        }
        Lister {
            v,
            state,
            validator,
            scope,
            coasts,
            buf: Vec::new(),
            convoy_reach: vec![None; v.provinces.len()],
            sea_fleet,
            moves: vec![None; state.units.len()],
            in_reach: Vec::new(),
        }
    }

    /// The coasts an army in `from` could be convoyed to by the fleets at sea, and the
    /// sea spaces of the fleets that could carry it: a search through chains of sea
    /// spaces holding fleets (DATC 6.D.32: no chain, no convoy). Made once per space.
    fn convoy_reach(&mut self, from: ProvinceId) -> Rc<Reach> {
        if let Some(r) = &self.convoy_reach[from as usize] {
            return r.clone();
        }
        let v = self.v;
        let mut reach = Reach::default();
        if !v.rule_on(Rule::NoConvoys) && self.shore(from) {
            let mut seen = vec![false; v.provinces.len()];
            let mut work: Vec<ProvinceId> = Vec::new();
            for (p, &fleet) in self.sea_fleet.iter().enumerate() {
                if fleet.is_some_and(|f| {
                    v.fleet_neighbours(self.state.units[f].location)
                        .iter()
                        .any(|l| l.province == from)
                }) {
                    seen[p] = true;
                    work.push(p as ProvinceId);
                }
            }
            let mut reached = vec![false; v.provinces.len()];
            while let Some(at) = work.pop() {
                reach.fleets.push(at);
                let f = self.sea_fleet[at as usize].expect("a fleet stands there");
                for l in v.fleet_neighbours(self.state.units[f].location) {
                    let q = l.province;
                    // A sea with a landing (1936's Gibraltar) is a shore and may also
                    // hold a convoying fleet.
                    if q != from && self.shore(q) {
                        reached[q as usize] = true;
                    }
                    if !seen[q as usize] && self.sea_fleet[q as usize].is_some() {
                        seen[q as usize] = true;
                        work.push(q);
                    }
                }
            }
            reach.coasts = (0..v.provinces.len() as ProvinceId)
                .filter(|&q| reached[q as usize])
                .collect();
        }
        let reach = Rc::new(reach);
        self.convoy_reach[from as usize] = Some(reach.clone());
        reach
    }

    /// Adds `order` in its canonical form if the validator takes it. The candidates
    /// are made distinct (tests/options.rs checks that no order is listed twice), so no
    /// search of the list is needed.
    fn keep(&mut self, order: Order, out: &mut Vec<Order>) {
        if let Ok(ok) = self.validator.validate(self.v, self.state, &order) {
            out.push(ok);
        }
    }

    /// Every legal order `power` may give the unit `unit` in this phase: movement
    /// orders for a unit on the board, retreats and disbanding for a dislodged one.
    /// Empty in an adjustment phase (see [`Lister::adjustments`]) and for a unit the
    /// power does not command.
    pub fn unit_orders(&mut self, power: PowerId, unit: &Unit) -> Vec<Order> {
        let mut out = Vec::with_capacity(32);
        match self.state.phase.kind {
            PhaseKind::Movement => self.movement(power, unit, &mut out),
            PhaseKind::Retreat => self.retreats(power, unit, &mut out),
            PhaseKind::Adjustment => {}
        }
        out
    }

    /// The orders a Diplomacy Point bid may carry for the minor unit `unit` (DP rule 3:
    /// hold, move or support, never a convoy), in the minor's own name. A bid gives the
    /// order with the bidder's power; the unit follows it in its own.
    pub fn minor_orders(&mut self, unit: &Unit) -> Vec<Order> {
        let mut out = Vec::new();
        if self.state.phase.kind != PhaseKind::Movement || !self.state.acts_as_minor(self.v, unit.power) {
            return out;
        }
        self.movement(unit.power, unit, &mut out);
        out.retain(|o| {
            matches!(
                o.kind,
                OrderKind::Hold
                    | OrderKind::Move { .. }
                    | OrderKind::SupportHold { .. }
                    | OrderKind::SupportMove { .. }
            )
        });
        out
    }

    fn movement(&mut self, power: PowerId, unit: &Unit, out: &mut Vec<Order>) {
        let (v, state) = (self.v, self.state);
        if !v.controls(power, unit.power) {
            return;
        }
        let me = UnitRef {
            kind: Some(unit.kind),
            location: unit.location,
        };
        let order = |kind| Order { power, unit: me, kind };
        self.keep(order(OrderKind::Hold), out);
        let from = unit.location;
        let no_convoys = v.rule_on(Rule::NoConvoys);
        // Moves over land or water to a neighbour.
        match unit.kind {
            UnitKind::Army => {
                let reach = self.convoy_reach(from.province);
                for &p in v.army_neighbours(from.province) {
                    let to = Location::province(p);
                    self.keep(order(OrderKind::Move { to, via_convoy: false }), out);
                    if self.scope == Scope::All && reach.coasts.binary_search(&p).is_ok() {
                        self.keep(order(OrderKind::Move { to, via_convoy: true }), out);
                    }
                }
                // Moves by convoy beyond the neighbours, to the coasts a chain of fleets
                // at sea reaches.
                if !no_convoys {
                    for &p in &reach.coasts {
                        if !v.army_neighbours(from.province).contains(&p) {
                            let to = Location::province(p);
                            self.keep(order(OrderKind::Move { to, via_convoy: false }), out);
                            if self.scope == Scope::All {
                                self.keep(order(OrderKind::Move { to, via_convoy: true }), out);
                            }
                        }
                    }
                }
            }
            UnitKind::Fleet => {
                for &to in v.fleet_neighbours(from) {
                    self.keep(order(OrderKind::Move { to, via_convoy: false }), out);
                }
            }
        }
        // Supports of the units in reach, holding or moving.
        let stacks = v.rule_on(Rule::Stacking);
        // The spaces this unit could support into, as a table: asked once per other
        // unit's every move.
        self.in_reach.clear();
        self.in_reach.resize(v.provinces.len(), false);
        match unit.kind {
            UnitKind::Army => v
                .army_neighbours(from.province)
                .iter()
                .for_each(|&p| self.in_reach[p as usize] = true),
            UnitKind::Fleet => v
                .fleet_neighbours(from)
                .iter()
                .for_each(|l| self.in_reach[l.province as usize] = true),
        }
        for (j, other) in state.units.iter().enumerate() {
            if other.location.province == from.province || (stacks && twin_before(state, j)) {
                continue;
            }
            let target = UnitRef {
                kind: Some(other.kind),
                location: Location::province(other.location.province),
            };
            if self.in_reach[other.location.province as usize] {
                self.keep(order(OrderKind::SupportHold { unit: target }), out);
            }
            let moves = self.moves_of(j);
            for &to in &moves {
                if to.province != from.province && self.in_reach[to.province as usize] {
                    self.keep(order(OrderKind::SupportMove { unit: target, to }), out);
                }
            }
            self.moves[j] = Some(moves);
        }
        // Convoys by a fleet at sea of the armies its route could carry.
        if unit.kind == UnitKind::Fleet && v.province(from.province).terrain == Terrain::Sea && !no_convoys {
            for (j, army) in state.units.iter().enumerate() {
                if army.kind != UnitKind::Army
                    || !self.shore(army.location.province)
                    || (stacks && twin_before(state, j))
                {
                    continue;
                }
                let a = UnitRef {
                    kind: Some(UnitKind::Army),
                    location: army.location,
                };
                let reach = self.convoy_reach(army.location.province);
                if !reach.fleets.contains(&from.province) {
                    continue;
                }
                for &p in &reach.coasts {
                    if self
                        .validator
                        .on_convoy_route(v, state, from.province, army.location.province, p)
                    {
                        self.keep(
                            order(OrderKind::Convoy {
                                army: a,
                                to: Location::province(p),
                            }),
                            out,
                        );
                    }
                }
            }
        }
        if v.rule_on(Rule::Boarding) {
            self.boardings(power, unit, out);
        }
    }

    /// Original 1958 rules 6 and 7: board where the unit stands or after a move, with
    /// a unit of its own power or of another that shares the space.
    fn boardings(&mut self, power: PowerId, unit: &Unit, out: &mut Vec<Order>) {
        let (v, state) = (self.v, self.state);
        let me = UnitRef {
            kind: Some(unit.kind),
            location: unit.location,
        };
        let mut spaces: Vec<Option<Location>> = vec![None];
        match unit.kind {
            UnitKind::Army => spaces.extend(
                v.army_neighbours(unit.location.province)
                    .iter()
                    .map(|&p| Some(Location::province(p))),
            ),
            UnitKind::Fleet => spaces.extend(v.fleet_neighbours(unit.location).iter().map(|&l| Some(l))),
        }
        for to in spaces {
            let space = to.map_or(unit.location.province, |l| l.province);
            let mut partners: Vec<Option<PowerId>> = vec![None];
            for u in state.units.iter().filter(|u| u.power != unit.power) {
                let near = u.location.province == space || v.can_reach_province(u.kind, u.location, space);
                if near && !partners.contains(&Some(u.power)) {
                    partners.push(Some(u.power));
                }
            }
            for with in partners {
                self.keep(
                    Order {
                        power,
                        unit: me,
                        kind: OrderKind::Board { to, with },
                    },
                    out,
                );
            }
        }
    }

    fn shore(&self, p: ProvinceId) -> bool {
        self.coasts.binary_search(&p).is_ok()
    }

    /// Where the unit with index `j` could be moving to, for the supports of its move
    /// (taken out of the cache; the caller puts it back). An army's list includes the
    /// coasts a convoy could bring it to.
    fn moves_of(&mut self, j: usize) -> Vec<Location> {
        if let Some(m) = self.moves[j].take() {
            return m;
        }
        let v = self.v;
        let unit = self.state.units[j];
        let mut out = Vec::new();
        match unit.kind {
            UnitKind::Army => {
                out.extend(
                    v.army_neighbours(unit.location.province)
                        .iter()
                        .map(|&p| Location::province(p)),
                );
                for &p in &self.convoy_reach(unit.location.province).coasts {
                    let to = Location::province(p);
                    if !out.contains(&to) {
                        out.push(to);
                    }
                }
            }
            UnitKind::Fleet => {
                for &l in v.fleet_neighbours(unit.location) {
                    // A support need only name the space (DATC 6.B.4); one that names
                    // the coast too is also right when it is the coast moved to (6.B.9).
                    let to = Location::province(l.province);
                    if !out.contains(&to) {
                        out.push(to);
                    }
                    if l.coast != 0 && self.scope == Scope::All && !out.contains(&l) {
                        out.push(l);
                    }
                }
            }
        }
        out
    }

    fn retreats(&mut self, power: PowerId, unit: &Unit, out: &mut Vec<Order>) {
        let (v, state) = (self.v, self.state);
        let Some(index) = state.dislodged.iter().position(|d| d.unit == *unit) else {
            return;
        };
        if !v.controls(power, unit.power) {
            return;
        }
        let me = UnitRef {
            kind: Some(unit.kind),
            location: unit.location,
        };
        let mut to = std::mem::take(&mut self.buf);
        retreat_options_into(v, state, index, &mut to);
        for &l in &to {
            self.keep(
                Order {
                    power,
                    unit: me,
                    kind: OrderKind::Retreat { to: l },
                },
                out,
            );
        }
        self.buf = to;
        self.keep(
            Order {
                power,
                unit: me,
                kind: OrderKind::Disband,
            },
            out,
        );
    }

    /// The adjustment orders open to `power` itself (a great power or a faction) in a
    /// Winter: a build of each kind on each free site and a waiver while it has builds
    /// to make, or the removal of each of its units while it has too many. Each order
    /// is checked on its own against the Winter's position.
    pub fn adjustments(&mut self, power: PowerId) -> Vec<Order> {
        let (v, state) = (self.v, self.state);
        let mut out = Vec::new();
        if state.phase.kind != PhaseKind::Adjustment || state.acts_as_minor(v, power) {
            return out;
        }
        let s = surplus(state, power);
        let none = UnitRef {
            kind: None,
            location: Location::province(0),
        };
        if s > 0 {
            for p in build_sites(v, state, power) {
                let prov = v.province(p);
                let mut at = vec![(UnitKind::Army, Location::province(p))];
                if prov.terrain == Terrain::Coast {
                    if prov.coasts.is_empty() {
                        at.push((UnitKind::Fleet, Location::province(p)));
                    } else {
                        at.extend((1..=prov.coasts.len() as u8).map(|c| (UnitKind::Fleet, Location::new(p, c))));
                    }
                }
                for (kind, location) in at {
                    let order = Order {
                        power,
                        unit: UnitRef {
                            kind: Some(kind),
                            location,
                        },
                        kind: OrderKind::Build { kind: Some(kind) },
                    };
                    self.keep(order, &mut out);
                }
            }
            self.keep(
                Order {
                    power,
                    unit: none,
                    kind: OrderKind::Waive,
                },
                &mut out,
            );
        } else if s < 0 {
            let units = state.units.iter().copied().chain(
                state
                    .carried
                    .iter()
                    .filter(|c| !c.carrier_dislodged)
                    .map(|c| c.army_unit()),
            );
            for u in units.filter(|u| u.power == power).collect::<Vec<_>>() {
                let order = Order {
                    power,
                    unit: UnitRef {
                        kind: Some(u.kind),
                        location: u.location,
                    },
                    kind: OrderKind::Remove,
                };
                self.keep(order, &mut out);
            }
        }
        out
    }
}

/// Whether a unit of the same kind stands in the same space before unit `j` (Original
/// 1958 stacks): orders naming the one name the other, so only the first is listed.
fn twin_before(state: &GameState, j: usize) -> bool {
    let u = &state.units[j];
    state.units[..j]
        .iter()
        .any(|t| t.kind == u.kind && t.location.province == u.location.province)
}

/// The units `power` gives orders to in this phase: on the board in a movement phase
/// (its own and its factions'), dislodged in a retreat phase. Armies aboard fleets act
/// through their fleets and are not listed.
pub fn orderable_units(v: &Variant, state: &GameState, power: PowerId) -> Vec<Unit> {
    match state.phase.kind {
        PhaseKind::Movement => state
            .units
            .iter()
            .filter(|u| v.controls(power, u.power))
            .copied()
            .collect(),
        PhaseKind::Retreat => state
            .dislodged
            .iter()
            .map(|d| d.unit)
            .filter(|u| v.controls(power, u.power))
            .collect(),
        PhaseKind::Adjustment => Vec::new(),
    }
}

/// The powers whose orders `player` writes: itself and the factions it plays.
pub fn commanded_powers(v: &Variant, player: PowerId) -> Vec<PowerId> {
    (0..v.powers.len() as PowerId)
        .filter(|&p| v.controls(player, p))
        .collect()
}

/// Whether `player` has anything to decide in this phase: a unit to order or a
/// dislodged unit to retreat (its own or a faction's), or in a Winter builds or
/// removals for itself or a faction it plays. A phase waits only for players who have.
pub fn has_choice(v: &Variant, state: &GameState, player: PowerId) -> bool {
    match state.phase.kind {
        PhaseKind::Movement => state.units.iter().any(|u| v.controls(player, u.power)),
        PhaseKind::Retreat => state.dislodged.iter().any(|d| v.controls(player, d.unit.power)),
        PhaseKind::Adjustment => commanded_powers(v, player)
            .into_iter()
            .any(|p| state.centre_count(p) != state.unit_count(p)),
    }
}

/// The minor units great powers may bid on in this phase (DP variants, movement only):
/// the units of minor powers and of powers in civil disorder.
pub fn biddable_units(v: &Variant, state: &GameState) -> Vec<Unit> {
    if state.phase.kind != PhaseKind::Movement {
        return Vec::new();
    }
    state
        .units
        .iter()
        .filter(|u| state.acts_as_minor(v, u.power))
        .copied()
        .collect()
}

/// What `player` may order in this phase, grouped: per unit in a movement or retreat
/// phase; in a Winter one group per power it commands (itself and its factions), with
/// `None` as the unit.
pub fn power_orders(v: &Variant, state: &GameState, player: PowerId, scope: Scope) -> Vec<(Option<Unit>, Vec<Order>)> {
    let mut lister = Lister::new(v, state, scope);
    match state.phase.kind {
        PhaseKind::Adjustment => commanded_powers(v, player)
            .into_iter()
            .map(|p| (None, lister.adjustments(p)))
            .filter(|(_, o)| !o.is_empty())
            .collect(),
        _ => orderable_units(v, state, player)
            .into_iter()
            .map(|u| (Some(u), lister.unit_orders(player, &u)))
            .collect(),
    }
}
