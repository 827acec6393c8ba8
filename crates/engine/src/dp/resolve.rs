//! Rule 4 (and 1648's rule 5): turning every power's bids into one order per minor unit,
//! with a report for the GM alone (rule 12). The orders are given in each minor's own
//! name, so the adjudication that follows never says who paid for them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::dp::bid::Bid;
use crate::dp::bids::{barred_message, barred_minors, bid_problem, Limits};
use crate::dp::minors::{minor_units, patrons_of};
use crate::dp::params::DpRules;
use crate::order::{Order, OrderKind, UnitRef};
use crate::state::{GameState, Phase, Unit};
use crate::variant::{Location, PowerId, ProvinceId, Variant};

/// A bid that counted, and what it was worth.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CountedBid {
    /// The bid as submitted.
    pub bid: Bid,
    /// The client bonus added because the bidder is a patron of the minor (once per bid).
    pub bonus: u32,
    /// DPs plus bonus.
    pub value: u32,
}

/// A bid that did not count, and why.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VoidBid {
    /// The bid as submitted.
    pub bid: Bid,
    /// Why it did not count (the rule it broke), for the GM's report.
    pub reason: String,
}

/// One distinct order asked of a minor unit, with its total.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OrderTotal {
    /// The order, as the bids ask it.
    pub order: Order,
    /// Every counted bid's value on it, bonuses included (DP rule 4).
    pub total: u32,
    /// Raw DPs (no bonus) behind it, for the 1648 sortie test.
    pub dps: u32,
    /// Why the order was not considered (1648 rule 5), if it was not.
    pub set_aside: Option<String>,
}

/// How a minor unit's order was chosen from the bids on it (DP rule 4).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Decision {
    /// Nobody bid (or every bid was void or set aside): the unit holds.
    NoBids,
    /// The order with strictly the greatest total.
    Won {
        /// The winning total.
        total: u32,
    },
    /// Two or more orders share the greatest total: the unit holds.
    Tie {
        /// The shared total.
        total: u32,
    },
}

/// What happened to the bids on one minor unit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UnitBids {
    /// The minor unit.
    pub unit: Unit,
    /// The bids on it that counted.
    pub bids: Vec<CountedBid>,
    /// The bids on it that did not, with why.
    pub void: Vec<VoidBid>,
    /// Each distinct order asked, with its total.
    pub totals: Vec<OrderTotal>,
    /// The order the unit is given, in its own power's name: the winner, else a hold.
    pub chosen: Order,
    /// How `chosen` was reached.
    pub decision: Decision,
}

/// The GM's account of a turn's bidding. Never part of the public outcome.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BidReport {
    /// The movement phase the bids were for.
    pub phase: Phase,
    /// The client bonus in force this turn.
    pub bonus: u32,
    /// Every minor unit on the board, in board order.
    pub units: Vec<UnitBids>,
    /// Void bids that name no minor unit at all.
    pub unplaced: Vec<VoidBid>,
}

/// Resolves the bids of a turn: `orders` are the great powers' (and factions') own
/// orders as finally submitted, `bids` every power's bids. The units of the powers in
/// `state.disordered` are independent minors and take bids; those powers bid no more.
/// Returns an order for each minor unit with a bid that counted (a tie gives a hold),
/// and the GM's report.
pub fn resolve_bids(v: &Variant, state: &GameState, orders: &[Order], bids: &[Bid]) -> (Vec<Order>, BidReport) {
    let rules = &v.rules.dp;
    let bonus = rules.bonus_at(state.phase.season, state.phase.year);
    let mut void: Vec<VoidBid> = Vec::new();
    let mut counted: Vec<(Bid, Order)> = Vec::new();

    let mut bidders: Vec<PowerId> = bids.iter().map(|b| b.power).collect();
    bidders.sort_unstable();
    bidders.dedup();
    for power in bidders {
        let barred = barred_minors(v, state, power, orders);
        let mut limits = Limits::new(v, state, power);
        for bid in bids.iter().filter(|b| b.power == power) {
            match bid_problem(v, state, bid) {
                Err(reason) => void.push(VoidBid { bid: *bid, reason }),
                Ok(order) => {
                    let unit = state.unit_at(order.unit.location.province).expect("validated");
                    let verdict = match barred.iter().find(|(k, _)| *k == state.side(v, unit)) {
                        Some((key, by)) => Err(barred_message(v, power, *key, by)),
                        None => limits.admit(v, bid),
                    };
                    match verdict {
                        Err(reason) => void.push(VoidBid { bid: *bid, reason }),
                        Ok(()) => counted.push((*bid, order)),
                    }
                }
            }
        }
    }

    let mut chosen_orders = Vec::new();
    let mut units = Vec::new();
    for unit in minor_units(v, state) {
        let here = unit.location.province;
        let on_unit: Vec<&(Bid, Order)> = counted
            .iter()
            .filter(|(b, _)| b.order.unit.location.province == here)
            .collect();
        let patrons = patrons_of(v, unit);
        let report = choose(rules, bonus, unit, &patrons, &on_unit, &void);
        // A unit nobody bid on gets no order here, so a case or GM order given to it
        // directly is not contradicted; without one, adjudication records its hold.
        if report.decision != Decision::NoBids {
            chosen_orders.push(report.chosen);
        }
        units.push(report);
    }
    let unplaced = void
        .into_iter()
        .filter(|vb| {
            !units
                .iter()
                .any(|u: &UnitBids| u.unit.location.province == vb.bid.order.unit.location.province)
        })
        .collect();
    (
        chosen_orders,
        BidReport {
            phase: state.phase,
            bonus,
            units,
            unplaced,
        },
    )
}

/// What makes two bids ask for the same thing: the order type and where it points, by
/// space (a support's coast does not change what it supports into).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Meaning {
    Hold,
    Move(Location),
    SupportHold(ProvinceId),
    SupportMove(ProvinceId, ProvinceId),
}

fn meaning(order: &Order) -> Meaning {
    match order.kind {
        OrderKind::Move { to, .. } => Meaning::Move(to),
        OrderKind::SupportHold { unit } => Meaning::SupportHold(unit.location.province),
        OrderKind::SupportMove { unit, to } => Meaning::SupportMove(unit.location.province, to.province),
        _ => Meaning::Hold,
    }
}

/// The order a meaning stands for, in the minor's name; `sample` is one bid's
/// canonical order, which carries a move's route.
fn order_for(unit: &Unit, m: Meaning, sample: &Order) -> Order {
    let me = UnitRef {
        kind: Some(unit.kind),
        location: unit.location,
    };
    let kind = match m {
        Meaning::Hold => OrderKind::Hold,
        Meaning::Move(_) => sample.kind,
        Meaning::SupportHold(p) => OrderKind::SupportHold {
            unit: UnitRef {
                kind: None,
                location: Location::province(p),
            },
        },
        Meaning::SupportMove(p, to) => OrderKind::SupportMove {
            unit: UnitRef {
                kind: None,
                location: Location::province(p),
            },
            to: Location::province(to),
        },
    };
    Order {
        power: unit.power,
        unit: me,
        kind,
    }
}

fn choose(
    rules: &DpRules,
    bonus: u32,
    unit: &Unit,
    patrons: &[PowerId],
    on_unit: &[&(Bid, Order)],
    void: &[VoidBid],
) -> UnitBids {
    let here = unit.location.province;
    let mut bids = Vec::new();
    let mut totals: BTreeMap<Meaning, OrderTotal> = BTreeMap::new();
    let mut patron_backed: Vec<Meaning> = Vec::new();
    let mut other_dps: BTreeMap<Meaning, u32> = BTreeMap::new();
    for (bid, order) in on_unit {
        let m = meaning(order);
        let is_patron = patrons.contains(&bid.power);
        let b = if is_patron { bonus } else { 0 };
        bids.push(CountedBid {
            bid: *bid,
            bonus: b,
            value: bid.dp + b,
        });
        if is_patron {
            patron_backed.push(m);
        } else {
            *other_dps.entry(m).or_default() += bid.dp;
        }
        let entry = totals.entry(m).or_insert_with(|| OrderTotal {
            order: order_for(unit, m, order),
            total: 0,
            dps: 0,
            set_aside: None,
        });
        entry.total += bid.dp + b;
        entry.dps += bid.dp;
    }
    // 1648: a client's sortie counts only if a patron backs it or other powers put
    // enough DPs behind it (before any bonus).
    if let (Some(threshold), false) = (rules.client_sortie_threshold, patrons.is_empty()) {
        for (m, t) in totals.iter_mut() {
            if !matches!(m, Meaning::Move(_)) || patron_backed.contains(m) {
                continue;
            }
            let others = other_dps.get(m).copied().unwrap_or(0);
            if others < threshold {
                t.set_aside = Some(format!(
                    "rule 5: a client's move counts only if a patron bids for it or other powers bid at least {threshold} DPs for it; they bid {others}"
                ));
            }
        }
    }
    let live: Vec<&OrderTotal> = totals.values().filter(|t| t.set_aside.is_none()).collect();
    let best = live.iter().map(|t| t.total).max();
    let hold = Order::hold(unit);
    let (chosen, decision) = match best {
        None => (hold, Decision::NoBids),
        Some(top) => {
            let winners: Vec<&&OrderTotal> = live.iter().filter(|t| t.total == top).collect();
            if winners.len() == 1 {
                (winners[0].order, Decision::Won { total: top })
            } else {
                (hold, Decision::Tie { total: top })
            }
        }
    };
    UnitBids {
        unit: *unit,
        bids,
        void: void
            .iter()
            .filter(|vb| vb.bid.order.unit.location.province == here)
            .cloned()
            .collect(),
        totals: totals.into_values().collect(),
        chosen,
        decision,
    }
}

impl BidReport {
    /// The report as the GM reads it: per minor unit, every bid, the totals, the void
    /// bids with their reasons, and the order chosen.
    pub fn text(&self, v: &Variant) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "DP bids, {} (client bonus +{})", self.phase, self.bonus);
        for u in &self.units {
            if u.bids.is_empty() && u.void.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                "{} {} ({}):",
                u.unit.kind.letter(),
                v.province(u.unit.location.province).name,
                v.power(u.unit.power).name
            );
            for b in &u.bids {
                let bonus = if b.bonus > 0 {
                    format!(" + {} client bonus", b.bonus)
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "  {} {} DP{bonus} = {}: {}",
                    v.power(b.bid.power).name,
                    b.bid.dp,
                    b.value,
                    b.bid.order.display(v)
                );
            }
            for vb in &u.void {
                let _ = writeln!(
                    out,
                    "  void: {} {} DP {}: {}",
                    v.power(vb.bid.power).name,
                    vb.bid.dp,
                    vb.bid.order.display(v),
                    vb.reason
                );
            }
            for t in &u.totals {
                match &t.set_aside {
                    Some(why) => {
                        let _ = writeln!(out, "  total {} for {} (set aside: {why})", t.total, t.order.display(v));
                    }
                    None => {
                        let _ = writeln!(out, "  total {} for {}", t.total, t.order.display(v));
                    }
                }
            }
            let how = match u.decision {
                Decision::NoBids => "no bid counts, so it holds".to_string(),
                Decision::Won { total } => format!("greatest total {total}"),
                Decision::Tie { total } => format!("tie at {total}, so it holds"),
            };
            let _ = writeln!(out, "  chosen: {} ({how})", u.chosen.display(v));
        }
        for vb in &self.unplaced {
            let _ = writeln!(
                out,
                "void: {} {} DP {}: {}",
                v.power(vb.bid.power).name,
                vb.bid.dp,
                vb.bid.order.display(v),
                vb.reason
            );
        }
        out
    }
}
