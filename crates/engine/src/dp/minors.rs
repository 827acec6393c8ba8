//! Which units take their orders from DP bids, and whose clients they are.

use crate::state::{GameState, Unit};
use crate::variant::{PowerId, Variant};

/// The minor units on the board, in board order: those of minor powers and of the
/// powers in civil disorder (`GameState::acts_as_minor`).
pub fn minor_units<'a>(v: &'a Variant, state: &'a GameState) -> impl Iterator<Item = &'a Unit> {
    state.units.iter().filter(move |u| state.acts_as_minor(v, u.power))
}

/// The patrons of the minor that owns `unit`. A new minor created by civil disorder on
/// a centre that started as a client's keeps that client's patrons (1648: "considered
/// a power's client if so designated on the map").
pub fn patrons_of(v: &Variant, unit: &Unit) -> Vec<PowerId> {
    let by_power = |m: PowerId| {
        v.clients
            .iter()
            .filter(|(client, _)| *client == m)
            .flat_map(|(_, patrons)| patrons.iter().copied())
            .collect::<Vec<_>>()
    };
    if v.is_minor(unit.power) {
        return by_power(unit.power);
    }
    match v.province(unit.location.province).owner {
        Some(first) if v.is_minor(first) => by_power(first),
        _ => Vec::new(),
    }
}
