//! Rule 3: what a great power may bid in one turn. [`check_bids`] refuses a power's bids
//! when it submits them; [`bid_problem`] and [`barred_minors`] are also used again at
//! adjudication, where a bid that orders changed into a breach is void.

use std::fmt;

use crate::dp::bid::Bid;
use crate::dp::budget::budget;
use crate::order::{Order, OrderKind};
use crate::state::{GameState, PhaseKind, Side, Unit};
use crate::validate::validate;
use crate::variant::{PowerId, PowerKind, ProvinceId, Variant};

/// Why a power's bids were refused: which part of rule 3 they break, for a program to
/// tell one refusal from another, and the reason in words for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidError {
    /// Which limit the bids break.
    pub kind: BidErrorKind,
    /// The reason in words, naming the power, the space and the rule.
    pub message: String,
}

/// The part of rule 3 a power's bids break.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BidErrorKind {
    /// A bid cannot be made on its own: no minor unit there, or an order the unit
    /// could not give.
    Unbiddable,
    /// Two bids by the power on one unit.
    Twice,
    /// More DPs on a unit than the caps allow (1 each, or 2 on one unit).
    OverCap,
    /// The bids together spend more DPs than the power's budget this turn.
    OverBudget,
    /// A bid on a minor the power's own orders attack or support an attack on.
    Attacked,
}

impl BidError {
    fn new(kind: BidErrorKind, message: String) -> BidError {
        BidError { kind, message }
    }
}

impl fmt::Display for BidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for BidError {}

fn space(v: &Variant, p: ProvinceId) -> &str {
    &v.province(p).name
}

/// The minor unit a bid is about, or why it names none.
pub fn bid_unit(v: &Variant, state: &GameState, bid: &Bid) -> Result<Unit, String> {
    let p = bid.order.unit.location.province;
    let unit = state
        .unit_at(p)
        .ok_or_else(|| format!("there is no unit in {} to bid on", space(v, p)))?;
    if !state.acts_as_minor(v, unit.power) {
        let kind = match v.power(unit.power).kind {
            PowerKind::Faction => "a faction",
            _ => "a great power",
        };
        return Err(format!(
            "the unit in {} belongs to {}, {kind}; DPs order only minor powers' units",
            space(v, p),
            v.power(unit.power).name
        ));
    }
    Ok(*unit)
}

/// What is wrong with one bid on its own, if anything: who may bid, when, on which unit,
/// and whether the order is one that unit could carry out. On success, the order in
/// canonical form, given in the minor's name.
pub fn bid_problem(v: &Variant, state: &GameState, bid: &Bid) -> Result<Order, String> {
    let who = &v.power(bid.power).name;
    if state.in_disorder(bid.power) {
        return Err(format!(
            "{who} is in civil disorder and bids no more: its centres are independent minors (rule 11)"
        ));
    }
    if v.power(bid.power).kind != PowerKind::Great {
        return Err(format!("{who} gets no DPs: only great powers bid (rule 2)"));
    }
    if state.phase.kind != PhaseKind::Movement {
        return Err(format!(
            "DPs are bid in Spring and Fall movement phases, not in {}",
            state.phase
        ));
    }
    if bid.dp == 0 {
        return Err("a bid spends at least 1 DP".into());
    }
    let unit = bid_unit(v, state, bid)?;
    match bid.order.kind {
        OrderKind::Hold | OrderKind::Move { .. } | OrderKind::SupportHold { .. } | OrderKind::SupportMove { .. } => {}
        OrderKind::Convoy { .. } => {
            return Err("DPs buy a minor unit a move, hold or support order, not a convoy (rule 3)".into());
        }
        _ => return Err("DPs buy a minor unit a move, hold or support order".into()),
    }
    let as_minor = Order {
        power: unit.power,
        ..bid.order
    };
    validate(v, state, &as_minor).map_err(|e| format!("the minor unit cannot be given that order: {e}"))
}

/// Minors a power may not bid on, given its own orders this turn, each with the order
/// that bars it: a move of its own unit into a space held by the minor's unit, or a
/// support or convoy of any move there. Only the power's own units count: a faction's
/// orders are the faction's, even though its sponsor's player writes them (rule 8).
pub fn barred_minors(v: &Variant, state: &GameState, power: PowerId, orders: &[Order]) -> Vec<(Side, Order)> {
    let mut barred = Vec::new();
    for order in orders.iter().filter(|o| o.power == power) {
        // An order the board refuses is void; the unit holds and attacks nothing.
        let Ok(order) = validate(v, state, order) else {
            continue;
        };
        let Some(owner) = state.unit_at(order.unit.location.province).map(|u| u.power) else {
            continue;
        };
        if owner != power {
            continue;
        }
        let target = match order.kind {
            OrderKind::Move { to, .. } => to.province,
            OrderKind::SupportMove { to, .. } => to.province,
            OrderKind::Convoy { to, .. } => to.province,
            _ => continue,
        };
        if let Some(u) = state.unit_at(target) {
            if state.acts_as_minor(v, u.power) {
                barred.push((state.side(v, u), order));
            }
        }
    }
    barred
}

/// Words for a minor key: "Yugoslavia", or "the independent minor in Paris".
pub(crate) fn minor_name(v: &Variant, key: Side) -> String {
    match key {
        Side::Power(p) | Side::Minor(p) => v.power(p).name.clone(),
        Side::Independent(at) => format!("the independent minor in {}", space(v, at)),
    }
}

/// Checks all of one power's bids for a turn as it submits them (rule 3): each bid on
/// its own, one bid per unit, at most 1 DP per unit except one unit with 2, the total
/// within the budget, and no bid on a minor the power's own orders attack.
pub fn check_bids(
    v: &Variant,
    state: &GameState,
    power: PowerId,
    own_orders: &[Order],
    bids: &[Bid],
) -> Result<(), BidError> {
    let who = &v.power(power).name;
    let mine: Vec<&Bid> = bids.iter().filter(|b| b.power == power).collect();
    for bid in &mine {
        if let Err(e) = bid_problem(v, state, bid) {
            return Err(BidError::new(
                BidErrorKind::Unbiddable,
                format!(
                    "rule 3: {who}'s bid on {}: {e}",
                    space(v, bid.order.unit.location.province)
                ),
            ));
        }
    }
    if let Some(e) = limits_problem(v, state, power, &mine) {
        return Err(e);
    }
    let barred = barred_minors(v, state, power, own_orders);
    for bid in &mine {
        let unit = state.unit_at(bid.order.unit.location.province).expect("checked above");
        if let Some((key, order)) = barred.iter().find(|(k, _)| *k == state.side(v, unit)) {
            return Err(BidError::new(
                BidErrorKind::Attacked,
                barred_message(v, power, *key, order),
            ));
        }
    }
    Ok(())
}

pub(crate) fn barred_message(v: &Variant, power: PowerId, key: Side, order: &Order) -> String {
    let minor = minor_name(v, key);
    let verb = match order.kind {
        OrderKind::Move { .. } => "attacks",
        _ => "supports an attack on",
    };
    format!(
        "rule 3: {} {verb} {minor} this turn ({}), so it may not bid DPs on {minor}'s units",
        v.power(power).name,
        order.display(v)
    )
}

/// Admits one power's bids one at a time, in the order given, against the limits of
/// rule 3; used at adjudication, where a bid past a limit is void on its own (the pages
/// abolished forfeiting all of a power's DPs for over-allocating).
pub(crate) struct Limits {
    budget: u32,
    spent: u32,
    seen: Vec<ProvinceId>,
    double: Option<ProvinceId>,
}

impl Limits {
    pub(crate) fn new(v: &Variant, state: &GameState, power: PowerId) -> Limits {
        Limits {
            budget: budget(v, state, power).total,
            spent: 0,
            seen: Vec::new(),
            double: None,
        }
    }

    pub(crate) fn admit(&mut self, v: &Variant, bid: &Bid) -> Result<(), String> {
        let p = bid.order.unit.location.province;
        if self.seen.contains(&p) {
            return Err(format!(
                "rule 3: a second bid by the same power on the unit in {}",
                space(v, p)
            ));
        }
        if bid.dp > 2 || (bid.dp == 2 && self.double.is_some()) {
            return Err("rule 3: more DPs on one unit than the caps allow (1, or 2 on one unit)".into());
        }
        if self.spent + bid.dp > self.budget {
            return Err(format!("rule 3: past the power's budget of {} DPs", self.budget));
        }
        self.seen.push(p);
        if bid.dp == 2 {
            self.double = Some(p);
        }
        self.spent += bid.dp;
        Ok(())
    }
}

/// The per-turn limits of rule 3 on one power's bids, which do not depend on orders.
fn limits_problem(v: &Variant, state: &GameState, power: PowerId, mine: &[&Bid]) -> Option<BidError> {
    let who = &v.power(power).name;
    let mut seen: Vec<ProvinceId> = Vec::new();
    let mut doubles: Vec<ProvinceId> = Vec::new();
    for bid in mine {
        let p = bid.order.unit.location.province;
        if seen.contains(&p) {
            return Some(BidError::new(
                BidErrorKind::Twice,
                format!(
                    "rule 3: {who} bids twice on the unit in {}; give one order per unit (`DP 2` spends two DPs on it)",
                    space(v, p)
                ),
            ));
        }
        seen.push(p);
        if bid.dp > 2 {
            return Some(BidError::new(BidErrorKind::OverCap, format!(
                "rule 3: {who} bids {} DPs on the unit in {}; a minor unit takes at most 1 DP from each power, or 2 for one unit",
                bid.dp,
                space(v, p)
            )));
        }
        if bid.dp == 2 {
            doubles.push(p);
        }
    }
    if doubles.len() > 1 {
        let names: Vec<&str> = doubles.iter().map(|&p| space(v, p)).collect();
        let all = if names.len() == 2 { "both" } else { "all" };
        return Some(BidError::new(
            BidErrorKind::OverCap,
            format!(
                "rule 3: only one minor unit may take 2 DPs from {who}, but {} {all} do",
                names.join(" and ")
            ),
        ));
    }
    let spent: u32 = mine.iter().map(|b| b.dp).sum();
    let b = budget(v, state, power);
    if spent > b.total {
        return Some(BidError::new(
            BidErrorKind::OverBudget,
            format!(
                "rule 3: {who}'s bids spend {spent} DPs, over its budget of {}",
                b.summary()
            ),
        ));
    }
    None
}
