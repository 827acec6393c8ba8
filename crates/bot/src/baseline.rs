//! The baseline bot: DumbBot's method (see [`crate::values`]) on the engine's lists of
//! legal orders. Each unit, in a random order, goes to the space it values most, or now
//! and then to the next best when the two are close; a unit whose chosen space another
//! of ours already goes to supports that move instead; units left holding support our
//! attacks and threatened units. Retreats go to the best free space, builds to the best
//! sites, removals take the least useful units. In a Diplomacy Point phase it bids its
//! budget on the minor units nearest its plans.
//!
//! A [`Plan`] holds everything that does not depend on the dice, so the strong bot can
//! draw many order sets from one plan cheaply.

use chancery_engine::adjust::surplus;
use chancery_engine::dp::bids::barred_minors;
use chancery_engine::dp::{budget, check_bids, patrons_of, Bid};
use chancery_engine::options::{biddable_units, commanded_powers, orderable_units, Lister, Scope};
use chancery_engine::rules::Rule;
use chancery_engine::{
    judge_phase, GameState, Order, OrderKind, Outcome, PhaseKind, PowerId, ProvinceId, Unit, UnitKind, Variant,
};

use crate::random::Rng;
use crate::values::{purpose_of, Graph, Values};
use crate::Decision;

/// How often a unit takes its next best space when the two are worth the same (DumbBot
/// plays the alternative with a chance that falls as the gap between them grows).
pub const ALTERNATIVE: f64 = 0.3;
/// A gap of this share of the best value or more leaves no chance of the alternative.
const ALTERNATIVE_GAP: f64 = 0.2;

/// One unit's choices in a movement phase.
pub struct UnitPlan {
    pub unit: Unit,
    pub hold: Order,
    /// Where it may go (its own space is a hold), best first, with the value of going.
    pub moves: Vec<(f64, ProvinceId, Order)>,
    pub supports: Vec<Order>,
    pub convoys: Vec<Order>,
    /// Original 1958's boarding orders with a unit of our own (rules 6 and 7): the
    /// strong bot pairs them; the baseline does not board.
    pub boards: Vec<Order>,
}

/// A player's view of a phase: values and, in a movement phase, each unit's options.
pub struct Plan {
    pub player: PowerId,
    pub values: Values,
    pub units: Vec<UnitPlan>,
}

fn dest_of(o: &Order) -> Option<ProvinceId> {
    match o.kind {
        OrderKind::Move { to, .. } => Some(to.province),
        _ => None,
    }
}

impl Plan {
    /// Values and options of `player` in a movement phase.
    pub fn new(v: &Variant, g: &Graph, state: &GameState, lister: &mut Lister, player: PowerId) -> Plan {
        let values = Values::new(v, g, state, player, purpose_of(state));
        let mut units = Vec::new();
        if state.phase.kind == PhaseKind::Movement {
            for u in orderable_units(v, state, player) {
                let options = lister.unit_orders(player, &u);
                let Some(hold) = options.iter().find(|o| matches!(o.kind, OrderKind::Hold)).copied() else {
                    continue;
                };
                let here = u.location.province;
                let value = |p: ProvinceId| {
                    let base = values.of(u.kind, p);
                    let s = values.strength[p as usize] as f64;
                    let c = values.competition[p as usize] as f64;
                    // Strength and competition: a space others crowd is less likely taken
                    // (or kept); one we can reach in numbers, more.
                    base * (1.0 + 0.1 * s - 0.15 * c).max(0.2)
                };
                let mut moves = vec![(value(here), here, hold)];
                let mut supports = Vec::new();
                let mut convoys = Vec::new();
                let mut boards = Vec::new();
                for o in options {
                    match o.kind {
                        OrderKind::Move { to, .. } => moves.push((value(to.province), to.province, o)),
                        OrderKind::SupportHold { .. } | OrderKind::SupportMove { .. } => supports.push(o),
                        OrderKind::Convoy { .. } => convoys.push(o),
                        OrderKind::Board { with: None, .. } => boards.push(o),
                        _ => {}
                    }
                }
                moves.sort_by(|a, b| b.0.total_cmp(&a.0));
                units.push(UnitPlan {
                    unit: u,
                    hold,
                    moves,
                    supports,
                    convoys,
                    boards,
                });
            }
        }
        Plan { player, values, units }
    }

    /// One order set drawn from the plan: `alternative` is the chance of the next best
    /// space when two are close (the baseline's own is [`ALTERNATIVE`]).
    pub fn sample(&self, v: &Variant, rng: &mut Rng, alternative: f64) -> Vec<Order> {
        let n = self.units.len();
        let mut chosen: Vec<Option<Order>> = vec![None; n];
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i + 1));
        }
        // Spaces claimed by a move of ours, and by whom.
        let mut claimed: Vec<(ProvinceId, usize)> = Vec::new();
        for &i in &order {
            if chosen[i].is_some() {
                continue;
            }
            let plan = &self.units[i];
            let here = plan.unit.location.province;
            let moves = &plan.moves;
            // Start from the best, stepping to the next while the dice and the gap allow.
            let mut start = 0;
            while start + 1 < moves.len() {
                let (best, next) = (moves[start].0, moves[start + 1].0);
                let gap = if best > 0.0 { (best - next) / best } else { 1.0 };
                let chance = alternative * (1.0 - gap / ALTERNATIVE_GAP).max(0.0);
                if rng.unit() < chance {
                    start += 1;
                } else {
                    break;
                }
            }
            let mut picked = None;
            for k in (start..moves.len()).chain(0..start) {
                let (_, to, o) = moves[k];
                if to == here {
                    // Staying is always possible; a move of ours in is repaired below.
                    claimed.push((to, i));
                    picked = Some(o);
                    break;
                }
                if let Some(&(_, j)) = claimed.iter().find(|c| c.0 == to) {
                    // Another of ours goes there: help it instead.
                    if let Some(s) = self.support_for(i, j, to) {
                        picked = Some(s);
                        break;
                    }
                    continue;
                }
                if let OrderKind::Move { to: dest, .. } = o.kind {
                    if !v.can_reach_province(plan.unit.kind, plan.unit.location, dest.province)
                        && !self.arrange_convoy(i, &o, &mut chosen)
                    {
                        continue;
                    }
                }
                claimed.push((to, i));
                picked = Some(o);
                break;
            }
            chosen[i] = Some(picked.unwrap_or(plan.hold));
        }
        self.repair(&mut chosen);
        self.spare_supports(&mut chosen);
        let mut out: Vec<Order> = chosen.into_iter().flatten().collect();
        crate::one_support_per_stack(&mut out);
        out
    }

    /// The support of unit `i` for unit `j`'s move to `to`, if it may give it.
    fn support_for(&self, i: usize, j: usize, to: ProvinceId) -> Option<Order> {
        let mover = self.units[j].unit.location.province;
        self.units[i].supports.iter().copied().find(|s| match s.kind {
            OrderKind::SupportMove { unit, to: t } => unit.location.province == mover && t.province == to,
            _ => false,
        })
    }

    /// A move beyond the neighbours goes by sea: one of our fleets not yet ordered,
    /// next to both ends, convoys it.
    fn arrange_convoy(&self, army: usize, mv: &Order, chosen: &mut [Option<Order>]) -> bool {
        let OrderKind::Move { to, .. } = mv.kind else {
            return false;
        };
        let from = self.units[army].unit.location.province;
        for (f, plan) in self.units.iter().enumerate() {
            if chosen[f].is_some() || f == army {
                continue;
            }
            let c = plan.convoys.iter().find(|c| match c.kind {
                OrderKind::Convoy { army: a, to: t } => a.location.province == from && t.province == to.province,
                _ => false,
            });
            if let Some(c) = c {
                chosen[f] = Some(*c);
                return true;
            }
        }
        false
    }

    /// Moves of ours into a space one of ours keeps, and swaps between two of ours,
    /// would only bounce: such a mover holds instead (and may then support).
    fn repair(&self, chosen: &mut [Option<Order>]) {
        loop {
            let mut changed = false;
            for i in 0..chosen.len() {
                let Some(to) = chosen[i].as_ref().and_then(dest_of) else {
                    continue;
                };
                let here = self.units[i].unit.location.province;
                let blocked = self.units.iter().enumerate().any(|(j, p)| {
                    j != i
                        && p.unit.location.province == to
                        && match chosen[j].as_ref().and_then(dest_of) {
                            None => true,
                            Some(d) => d == here,
                        }
                });
                if blocked {
                    chosen[i] = Some(self.units[i].hold);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Units left holding support an attack of ours into an occupied or contested
    /// space, or a unit of ours that is threatened where it stands.
    fn spare_supports(&self, chosen: &mut [Option<Order>]) {
        for i in 0..chosen.len() {
            if !matches!(chosen[i].map(|o| o.kind), Some(OrderKind::Hold)) {
                continue;
            }
            let mut best: Option<(f64, Order)> = None;
            for s in &self.units[i].supports {
                let score = match s.kind {
                    OrderKind::SupportMove { unit, to } => {
                        let ours = (0..chosen.len()).find(|&j| {
                            self.units[j].unit.location.province == unit.location.province
                                && chosen[j].as_ref().and_then(dest_of) == Some(to.province)
                        });
                        match ours {
                            Some(j) if self.values.competition[to.province as usize] > 0 => {
                                self.values.of(self.units[j].unit.kind, to.province) * 1.5
                            }
                            _ => continue,
                        }
                    }
                    OrderKind::SupportHold { unit } => {
                        let ours = (0..chosen.len()).find(|&j| {
                            self.units[j].unit.location.province == unit.location.province
                                && chosen[j].as_ref().and_then(dest_of).is_none()
                        });
                        match ours {
                            Some(j) if self.values.competition[unit.location.province as usize] > 0 => {
                                self.values.of(self.units[j].unit.kind, unit.location.province)
                            }
                            _ => continue,
                        }
                    }
                    _ => continue,
                };
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, *s));
                }
            }
            if let Some((_, s)) = best {
                chosen[i] = Some(s);
            }
        }
    }
}

/// The bids of `player` on the minor units, given its orders: each unit's order is
/// the one that helps our plans most (a support of our move into the space, a support
/// of our threatened unit, a sortie that cuts an enemy's support or keeps an enemy out
/// of our empty centre); the units most worth having get the DPs, a client first (its
/// patron's bid earns the client bonus). Never on a minor our own orders attack.
pub fn bids(
    v: &Variant,
    state: &GameState,
    minors: &[(Unit, Vec<Order>)],
    plan: &Plan,
    orders: &[Order],
    rng: &mut Rng,
) -> Vec<Bid> {
    let player = plan.player;
    if minors.is_empty() || state.acts_as_minor(v, player) {
        return Vec::new();
    }
    let total = budget(v, state, player).total;
    if total == 0 {
        return Vec::new();
    }
    let barred = barred_minors(v, state, player, orders);
    let mine = |p: PowerId| v.controls(player, p);
    let moving_to = |from: ProvinceId| {
        orders
            .iter()
            .find(|o| o.unit.location.province == from)
            .and_then(dest_of)
    };
    let mut offers: Vec<(f64, Order)> = Vec::new();
    for (u, options) in minors {
        if barred.iter().any(|(side, _)| *side == state.side(v, u)) {
            continue;
        }
        let mut best: Option<(f64, Order)> = None;
        for &o in options {
            let score = match o.kind {
                OrderKind::SupportMove { unit, to } => match state.unit_at(unit.location.province) {
                    Some(w) if mine(w.power) && moving_to(w.location.province) == Some(to.province) => {
                        2.0 * plan.values.of(w.kind, to.province)
                    }
                    _ => continue,
                },
                OrderKind::SupportHold { unit } => match state.unit_at(unit.location.province) {
                    Some(w)
                        if mine(w.power)
                            && moving_to(w.location.province).is_none()
                            && plan.values.competition[w.location.province as usize] > 0 =>
                    {
                        plan.values.of(w.kind, w.location.province)
                    }
                    _ => continue,
                },
                OrderKind::Move { to, .. } => {
                    let p = to.province;
                    match state.unit_at(p) {
                        // A sortie at an enemy unit cuts its support.
                        Some(w) if !mine(w.power) && !state.acts_as_minor(v, w.power) => {
                            0.5 * plan
                                .values
                                .of(UnitKind::Army, p)
                                .max(plan.values.of(UnitKind::Fleet, p))
                        }
                        Some(_) => continue,
                        // A sortie into our empty, threatened centre keeps others out.
                        None if state.owners[p as usize].is_some_and(mine)
                            && plan.values.competition[p as usize] > 0
                            && !orders.iter().any(|o| dest_of(o) == Some(p)) =>
                        {
                            0.8 * plan
                                .values
                                .of(UnitKind::Army, p)
                                .max(plan.values.of(UnitKind::Fleet, p))
                        }
                        None => continue,
                    }
                }
                _ => continue,
            };
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, o));
            }
        }
        if let Some((mut score, mut o)) = best {
            if patrons_of(v, u).contains(&player) {
                score *= 1.5;
            }
            // A little noise, so that rivals cannot read every bid.
            score *= 0.9 + 0.2 * rng.unit();
            o.power = player;
            offers.push((score, o));
        }
    }
    offers.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Rule 3: at most 1 DP a unit, but one unit may have 2.
    let mut left = total;
    let mut out = Vec::new();
    let n = offers.len().min(left as usize);
    for (k, (_, o)) in offers.into_iter().take(n).enumerate() {
        let dp = if k == 0 && left as usize > n { 2 } else { 1 };
        left -= dp;
        out.push(Bid {
            power: player,
            dp,
            order: o,
        });
    }
    // The engine has the last word: whatever it would refuse is left out.
    while !out.is_empty() && check_bids(v, state, player, orders, &out).is_err() {
        out.pop();
    }
    out
}

/// The minor units that may take bids this phase, each with the orders a bid may
/// carry (empty outside Diplomacy Point movement phases).
pub fn minor_options(v: &Variant, state: &GameState, lister: &mut Lister) -> Vec<(Unit, Vec<Order>)> {
    if state.phase.kind != PhaseKind::Movement || !v.rule_on(Rule::DiplomacyPoints) {
        return Vec::new();
    }
    biddable_units(v, state)
        .into_iter()
        .map(|u| {
            let o = lister.minor_orders(&u);
            (u, o)
        })
        .collect()
}

/// Retreats: each dislodged unit to the free space worth most, two never to the same.
pub fn retreats(v: &Variant, g: &Graph, state: &GameState, lister: &mut Lister, player: PowerId) -> Vec<Order> {
    let values = Values::new(v, g, state, player, purpose_of(state));
    let mut taken: Vec<ProvinceId> = Vec::new();
    let mut out = Vec::new();
    for u in orderable_units(v, state, player) {
        let options = lister.unit_orders(player, &u);
        let mut best: Option<(f64, Order)> = None;
        for o in &options {
            if let OrderKind::Retreat { to } = o.kind {
                if taken.contains(&to.province) {
                    continue;
                }
                let score = values.of(u.kind, to.province) + 1.0;
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, *o));
                }
            }
        }
        match best {
            Some((_, o)) => {
                if let OrderKind::Retreat { to } = o.kind {
                    taken.push(to.province);
                }
                out.push(o);
            }
            None => {
                if let Some(d) = options.iter().find(|o| matches!(o.kind, OrderKind::Disband)) {
                    out.push(*d);
                }
            }
        }
    }
    out
}

/// Winter: builds on the sites worth most, or the removal of the units worth least,
/// for the player and each faction it plays. Under the stacking rules several units
/// may be built in one space; elsewhere one a space.
pub fn adjustments(v: &Variant, g: &Graph, state: &GameState, lister: &mut Lister, player: PowerId) -> Vec<Order> {
    let values = Values::new(v, g, state, player, purpose_of(state));
    let stacking = v.rule_on(Rule::Stacking);
    let mut out: Vec<Order> = Vec::new();
    for p in commanded_powers(v, player) {
        let options = lister.adjustments(p);
        let s = surplus(state, p);
        if s > 0 {
            let mut builds: Vec<(f64, Order)> = options
                .iter()
                .filter_map(|o| match o.kind {
                    OrderKind::Build { kind: Some(k) } => Some((values.of(k, o.unit.location.province) + 1.0, *o)),
                    _ => None,
                })
                .collect();
            builds.sort_by(|a, b| b.0.total_cmp(&a.0));
            let mut made = 0;
            let mut used: Vec<ProvinceId> = Vec::new();
            let mut round = 0;
            // Stacking: as many rounds over the sites as there are builds to make.
            while made < s && round < if stacking { s } else { 1 } {
                for (_, o) in &builds {
                    if made >= s {
                        break;
                    }
                    let at = o.unit.location.province;
                    if used.contains(&at) {
                        continue;
                    }
                    used.push(at);
                    out.push(*o);
                    made += 1;
                }
                used.clear();
                round += 1;
            }
        } else if s < 0 {
            let mut removals: Vec<(f64, Order)> = options
                .iter()
                .filter(|o| matches!(o.kind, OrderKind::Remove))
                .map(|o| {
                    let kind = o.unit.kind.unwrap_or(UnitKind::Army);
                    (values.of(kind, o.unit.location.province), *o)
                })
                .collect();
            removals.sort_by(|a, b| a.0.total_cmp(&b.0));
            out.extend(removals.into_iter().take((-s) as usize).map(|r| r.1));
        }
    }
    // The engine has the last word: a build it would not make is left out (under the
    // stacking rules the lister checks each build alone).
    let result = judge_phase(v, state, &out, &[]);
    let bad: Vec<Order> = result
        .adjudication
        .results
        .iter()
        .filter_map(|r| match (&r.outcome, r.given) {
            (Outcome::Void(_), Some(g)) => Some(g),
            _ => None,
        })
        .chain(result.adjudication.refused.iter().map(|(o, _)| *o))
        .collect();
    if !bad.is_empty() {
        out.retain(|o| !bad.contains(o));
    }
    out
}

/// The baseline's decision.
pub fn decide(v: &Variant, state: &GameState, player: PowerId, seed: u64) -> Decision {
    let g = Graph::new(v);
    decide_with(v, &g, state, player, seed)
}

/// As [`decide`], with the variant's graphs already built.
pub fn decide_with(v: &Variant, g: &Graph, state: &GameState, player: PowerId, seed: u64) -> Decision {
    let mut rng = Rng::new(seed);
    let mut lister = Lister::new(v, state, Scope::Plausible);
    match state.phase.kind {
        PhaseKind::Movement => {
            let plan = Plan::new(v, g, state, &mut lister, player);
            let orders = plan.sample(v, &mut rng, ALTERNATIVE);
            let minors = minor_options(v, state, &mut lister);
            let bids = bids(v, state, &minors, &plan, &orders, &mut rng);
            Decision { orders, bids }
        }
        PhaseKind::Retreat => Decision {
            orders: retreats(v, g, state, &mut lister, player),
            bids: Vec::new(),
        },
        PhaseKind::Adjustment => Decision {
            orders: adjustments(v, g, state, &mut lister, player),
            bids: Vec::new(),
        },
    }
}
