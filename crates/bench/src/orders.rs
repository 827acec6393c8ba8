//! Random legal movement orders for every unit of a position.
//!
//! Orders drawn independently per unit would rarely meet, so the draw has two passes:
//! first each unit gets a role (hold, move, move via convoy, support, convoy), then
//! supports and convoys attach to the moves and holds actually ordered, as players'
//! orders do. A support or convoy with nothing to attach to takes some other legal
//! target, which then does not match (also a case the engine must handle).

use chancery_engine::validate::validate;
use chancery_engine::variant::Terrain;
use chancery_engine::{GameState, Location, Order, OrderKind, ProvinceId, UnitKind, UnitRef, Variant};

use crate::options::UnitOptions;
use crate::rng::Rng;

/// How the moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Any legal destination, all alike.
    Uniform,
    /// Mostly towards centres the unit's power does not own, so that random games
    /// grow to mid-game positions instead of wandering.
    Greedy,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Role {
    Hold,
    Move { to: Location, via_convoy: bool },
    Support,
    Convoy,
}

/// The orders drawn for a position, after the engine's own validation.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// One validated order per unit, in unit order.
    pub orders: Vec<Order>,
    /// Draws the engine refused (then replaced by a hold). Zero unless the generator
    /// and the engine disagree about legality.
    pub refused: usize,
}

pub fn random_orders(v: &Variant, state: &GameState, opts: &[UnitOptions], rng: &mut Rng, style: Style) -> Drawn {
    let units = &state.units;
    let roles: Vec<Role> = units
        .iter()
        .zip(opts)
        .map(|(u, o)| draw_role(v, state, u.power, o, rng, style))
        .collect();
    let mut orders = Vec::with_capacity(units.len());
    let mut refused = 0;
    for (i, u) in units.iter().enumerate() {
        let kind = match roles[i] {
            Role::Hold => OrderKind::Hold,
            Role::Move { to, via_convoy } => OrderKind::Move { to, via_convoy },
            Role::Support => support(v, state, &roles, i, rng),
            Role::Convoy => convoy(state, &roles, &opts[i], rng),
        };
        let me = UnitRef {
            kind: Some(u.kind),
            location: u.location,
        };
        let order = Order {
            power: u.power,
            unit: me,
            kind,
        };
        match validate(v, state, &order) {
            Ok(o) => orders.push(o),
            Err(_) => {
                refused += 1;
                orders.push(Order {
                    kind: OrderKind::Hold,
                    ..order
                });
            }
        }
    }
    Drawn { orders, refused }
}

fn draw_role(v: &Variant, state: &GameState, power: u8, o: &UnitOptions, rng: &mut Rng, style: Style) -> Role {
    let r = rng.below(100);
    if !o.convoys.is_empty() && r < 25 {
        return Role::Convoy;
    }
    if !o.convoy_moves.is_empty() && r < 12 {
        let to = *rng.pick(&o.convoy_moves).expect("checked non-empty");
        return Role::Move {
            to: Location::province(to),
            via_convoy: true,
        };
    }
    match r {
        0..=29 => Role::Support,
        30..=39 => Role::Hold,
        _ => match pick_move(v, state, power, &o.moves, rng, style) {
            Some(to) => Role::Move { to, via_convoy: false },
            None => Role::Hold,
        },
    }
}

fn pick_move(
    v: &Variant,
    state: &GameState,
    power: u8,
    moves: &[Location],
    rng: &mut Rng,
    style: Style,
) -> Option<Location> {
    if style == Style::Greedy && rng.chance(70) {
        let wanted: Vec<Location> = moves
            .iter()
            .copied()
            .filter(|l| v.province(l.province).sc && state.owners[l.province as usize] != Some(power))
            .collect();
        if let Some(&to) = rng.pick(&wanted) {
            return Some(to);
        }
    }
    rng.pick(moves).copied()
}

/// A support for an order actually given nearby (own units preferred), else for a
/// unit that could have been ordered so, else a hold.
fn support(v: &Variant, state: &GameState, roles: &[Role], me: usize, rng: &mut Rng) -> OrderKind {
    let units = &state.units;
    let u = units[me];
    let mut own = Vec::new();
    let mut other = Vec::new();
    for (j, t) in units.iter().enumerate() {
        if j == me {
            continue;
        }
        let target = UnitRef {
            kind: Some(t.kind),
            location: t.location,
        };
        let kind = match roles[j] {
            Role::Move { to, .. } => {
                if to.province == u.location.province || !v.can_reach_province(u.kind, u.location, to.province) {
                    continue;
                }
                OrderKind::SupportMove { unit: target, to }
            }
            _ => {
                if !v.can_reach_province(u.kind, u.location, t.location.province) {
                    continue;
                }
                OrderKind::SupportHold { unit: target }
            }
        };
        if t.power == u.power {
            own.push(kind);
        } else {
            other.push(kind);
        }
    }
    let pool = if !own.is_empty() && (other.is_empty() || rng.chance(75)) {
        &own
    } else {
        &other
    };
    if let Some(&k) = rng.pick(pool) {
        return k;
    }
    unmatched_support(v, state, me, rng).unwrap_or(OrderKind::Hold)
}

/// A support for a move no unit was ordered to make: a neighbour of the target that
/// the supporter can also reach.
fn unmatched_support(v: &Variant, state: &GameState, me: usize, rng: &mut Rng) -> Option<OrderKind> {
    let u = state.units[me];
    let mut found = Vec::new();
    for (j, t) in state.units.iter().enumerate() {
        if j == me {
            continue;
        }
        let reach: Vec<ProvinceId> = match t.kind {
            UnitKind::Army => v.army_neighbours(t.location.province).to_vec(),
            UnitKind::Fleet => v.fleet_neighbours(t.location).iter().map(|l| l.province).collect(),
        };
        for to in reach {
            if to != u.location.province
                && v.province(to).terrain != Terrain::Impassable
                && (t.kind == UnitKind::Fleet || v.army_can_stand(to))
                && v.can_reach_province(u.kind, u.location, to)
            {
                found.push(OrderKind::SupportMove {
                    unit: UnitRef {
                        kind: Some(t.kind),
                        location: t.location,
                    },
                    to: Location::province(to),
                });
            }
        }
    }
    rng.pick(&found).copied()
}

/// A convoy of an army actually ordered across this fleet's water, else of one that
/// could have been.
fn convoy(state: &GameState, roles: &[Role], o: &UnitOptions, rng: &mut Rng) -> OrderKind {
    let ordered: Vec<(ProvinceId, ProvinceId)> = o
        .convoys
        .iter()
        .copied()
        .filter(|&(from, to)| {
            state
                .unit_index_at(from)
                .is_some_and(|a| matches!(roles[a], Role::Move { to: t, .. } if t.province == to))
        })
        .collect();
    let pool = if ordered.is_empty() { &o.convoys } else { &ordered };
    let &(from, to) = rng.pick(pool).expect("a convoy role needs a convoy option");
    OrderKind::Convoy {
        army: UnitRef {
            kind: Some(UnitKind::Army),
            location: Location::province(from),
        },
        to: Location::province(to),
    }
}
