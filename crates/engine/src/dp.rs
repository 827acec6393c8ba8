//! Diplomacy Points: how great powers steer the armed minor powers of 1936 and 1648
//! (Ambition & Empire rules). Each Spring and Fall every great power gets a budget of
//! DPs ([`budget`]), bids them on minor units ([`bids`] checks a power's bids when it
//! submits them), and the GM's judge turns all bids into one order per minor unit
//! ([`resolve`]), keeping who bid what in a report only the GM sees.
//!
//! The numbers come from the variant's `rule` lines ([`params`]); docs/rules-dp.md lists
//! every reading taken where the rule pages are ambiguous.

pub mod bids;
pub mod budget;
pub mod disorder;
pub mod params;
pub mod resolve;

use std::borrow::Cow;

use crate::order::Order;
use crate::state::{GameState, Unit};
use crate::variant::{PowerId, PowerKind, Variant};

pub use bids::{check_bids, BidError};
pub use budget::{budget, budgets, Budget};
pub use disorder::{civil_disorder, declare_civil_disorder, orphaned_factions, orphans_into_disorder};
pub use params::{dp_rules, DpRules};
pub use resolve::{resolve_bids, BidReport};

/// DPs a great power spends on one minor unit, with the order it asks that unit to
/// carry out. `order.unit` names the minor unit; `order.power` is ignored (the order,
/// if chosen, is given in the minor power's own name so the outcome never shows who
/// paid for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Bid {
    pub power: PowerId,
    pub dp: u32,
    pub order: Order,
}

/// A bid as a line of text after its power: `[DP] [N] order`, e.g. `2 A Austria S A
/// Munich - Bohemia` or `DP A Rome H`; without a number the bid is 1 DP. The case files
/// (`Germany: DP 2 A Austria …`) and `chancery adjudicate`'s `bids` use it.
pub fn parse_bid(v: &Variant, power: PowerId, text: &str) -> Result<Bid, String> {
    let mut rest = text.trim();
    if let Some((word, after)) = rest.split_once(char::is_whitespace) {
        if word.eq_ignore_ascii_case("dp") {
            rest = after.trim();
        }
    }
    let (dp, order_text) = match rest.split_once(char::is_whitespace) {
        Some((n, o)) if n.chars().all(|c| c.is_ascii_digit()) => {
            let dp = n.parse::<u32>().map_err(|_| format!("`{n}` is not a number of DPs"))?;
            (dp, o.trim())
        }
        _ => (1, rest),
    };
    let order = crate::parse::parse_order(v, power, order_text).map_err(|e| format!("bid `{text}`: {e}"))?;
    Ok(Bid { power, dp, order })
}

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

#[cfg(test)]
mod tests;
