//! Which units take their orders from DP bids, and whose clients they are.

use std::borrow::Cow;

use crate::state::{GameState, Unit};
use crate::variant::{PowerId, PowerKind, Variant};

/// Whether units of `power` take orders only through DP bids: the minor powers, and
/// powers in permanent civil disorder (their centres became independent minors, rule
/// 11), which a caller with the position passes as `&state.disordered`
/// (`GameState::acts_as_minor` says the same from the position alone).
pub fn takes_bids(v: &Variant, power: PowerId, disordered: &[PowerId]) -> bool {
    v.power(power).kind == PowerKind::Minor || disordered.contains(&power)
}

/// The minor units on the board, in board order: those of minor powers and of the
/// powers in civil disorder in `state.disordered` or `also`.
pub fn minor_units<'a>(v: &'a Variant, state: &'a GameState, also: &'a [PowerId]) -> impl Iterator<Item = &'a Unit> {
    state
        .units
        .iter()
        .filter(move |u| state.acts_as_minor(v, u.power) || also.contains(&u.power))
}

/// `state` with the powers in `also` counted as in civil disorder too. Some public
/// functions took the disordered powers as a parameter before the position recorded
/// them; they keep it for their callers and add it to the position's list.
pub(crate) fn with_disordered<'a>(state: &'a GameState, also: &[PowerId]) -> Cow<'a, GameState> {
    if also.iter().all(|p| state.in_disorder(*p)) {
        return Cow::Borrowed(state);
    }
    let mut s = state.clone();
    for &p in also {
        if !s.in_disorder(p) {
            s.disordered.push(p);
        }
    }
    Cow::Owned(s)
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
    if v.power(unit.power).kind == PowerKind::Minor {
        return by_power(unit.power);
    }
    match v.province(unit.location.province).owner {
        Some(first) if v.power(first).kind == PowerKind::Minor => by_power(first),
        _ => Vec::new(),
    }
}

/// The minor a unit stands for when bids are capped and barred: its power, except that
/// each independent minor created by civil disorder is a minor of its own (its space).
pub(crate) fn minor_key(v: &Variant, unit: &Unit) -> (PowerId, Option<u16>) {
    if v.power(unit.power).kind == PowerKind::Minor {
        (unit.power, None)
    } else {
        (unit.power, Some(unit.location.province))
    }
}
