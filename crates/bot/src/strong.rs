//! The strong bot: a search over its own order sets, each judged by the engine against
//! what the others are likely to do.
//!
//! In a movement phase it builds the baseline's [`Plan`] for every player. The others'
//! likely orders (and bids) are a few order sets drawn from their plans: the
//! predictions. Its own candidates are the baseline's best set, more drawn with more
//! daring, and then changes to the best one unit at a time (another move, a hold, a
//! support of one of its own moves). Each candidate is judged by `judge_phase` against
//! every prediction, the same predictions for all, and scored by the value of the
//! position it leaves ([`position_value`]); the best average wins. The effort is a
//! number of judgements (`Settings::judgements`), so a decision repeats for a seed
//! whatever the machine's load.
//!
//! Retreats and Winters are the baseline's: their choices are few and its values
//! already weigh them.

use chancery_engine::adjudicate::Judge;
use chancery_engine::dp::Bid;
use chancery_engine::options::{Lister, Scope};
use chancery_engine::phase::judge_phase_with;
use chancery_engine::variant::Victory;
use chancery_engine::{GameState, Order, OrderKind, PhaseKind, PowerId, ProvinceId, Season, UnitKind, Variant};

use crate::baseline::{self, minor_options, Plan, ALTERNATIVE};
use crate::random::Rng;
use crate::values::Graph;
use crate::{Decision, Settings};

/// How many predictions of the others' orders each candidate is judged against.
const PREDICTIONS: usize = 6;
/// One-unit changes tried per unit of ours without an improvement before the search
/// stops short of its budget (30 per unit won 17 of 28 Standard games by 1920 where 6
/// won 7, at about three times the time).
const PATIENCE: usize = 30;
/// Boarding is tried only where the best landing within two fleet moves is worth this
/// much more than the best the army could do by land (28 Original 1958 games: 13.1
/// centres and 10 wins at 1.25, 11.2 and 7 with no such limit).
const WORTH_SAILING: f64 = 1.25;

pub fn decide(v: &Variant, state: &GameState, power: PowerId, settings: &Settings) -> Decision {
    let g = Graph::new(v);
    decide_with(v, &g, state, power, settings)
}

/// As [`decide`], with the variant's graphs already built.
pub fn decide_with(v: &Variant, g: &Graph, state: &GameState, power: PowerId, settings: &Settings) -> Decision {
    if state.phase.kind != PhaseKind::Movement {
        return baseline::decide_with(v, g, state, power, settings.seed);
    }
    let mut rng = Rng::new(settings.seed);
    let mut lister = Lister::new(v, state, Scope::Plausible);
    let minors = minor_options(v, state, &mut lister);
    let players: Vec<PowerId> = v
        .great_powers()
        .filter(|&p| !state.acts_as_minor(v, p))
        .filter(|&p| state.units.iter().any(|u| v.controls(p, u.power)))
        .collect();
    let mut plans: Vec<Plan> = players
        .iter()
        .map(|&p| Plan::new(v, g, state, &mut lister, p))
        .collect();
    let Some(me) = players.iter().position(|&p| p == power) else {
        // No units to order: only bids, if any.
        let plan = Plan::new(v, g, state, &mut lister, power);
        let bids = baseline::bids(v, state, &minors, &plan, &[], &mut rng);
        return Decision {
            orders: Vec::new(),
            bids,
        };
    };
    let my_plan = plans.swap_remove(me);
    let others = plans;

    // The predictions: each other player's baseline orders and bids, drawn afresh.
    let predictions: Vec<(Vec<Order>, Vec<Bid>)> = (0..PREDICTIONS)
        .map(|_| {
            let mut orders = Vec::new();
            let mut bids = Vec::new();
            for plan in &others {
                let o = plan.sample(v, &mut rng, ALTERNATIVE);
                bids.extend(baseline::bids(v, state, &minors, plan, &o, &mut rng));
                orders.extend(o);
            }
            (orders, bids)
        })
        .collect();

    let mut search = Search {
        v,
        state,
        power,
        plan: &my_plan,
        minors: &minors,
        predictions: &predictions,
        judge: Judge::new(),
        left: settings.judgements as usize,
        orders: Vec::new(),
        bids: Vec::new(),
        rng: Rng::new(settings.seed ^ 0x5EED),
        pairs: boarding_pairs(v, g, &my_plan),
    };
    let per = predictions.len().max(1);
    // The baseline's best set, then sets drawn with more and more daring.
    let mut best = search.candidate(my_plan.sample(v, &mut rng, 0.0));
    let mut best_score = search.score(&best);
    let draws = (search.left / per / 4).min(24);
    for k in 0..draws {
        let daring = 0.3 + 0.5 * (k as f64 / draws.max(1) as f64);
        let c = search.candidate(my_plan.sample(v, &mut rng, daring));
        if c.0 == best.0 {
            continue;
        }
        let s = search.score(&c);
        if s > best_score {
            best = c;
            best_score = s;
        }
    }
    // Then one unit at a time, while judgements are left.
    let units = my_plan.units.len();
    let mut stale = 0;
    while search.left >= per && units > 0 && stale < PATIENCE * units + 10 {
        let mut orders = best.0.clone();
        if !search.mutate(&mut orders) {
            stale += 1;
            continue;
        }
        let c = search.candidate(orders);
        let s = search.score(&c);
        if s > best_score + 1e-9 {
            best = c;
            best_score = s;
            stale = 0;
        } else {
            stale += 1;
        }
    }
    Decision {
        orders: best.0,
        bids: best.1,
    }
}

struct Search<'a> {
    v: &'a Variant,
    state: &'a GameState,
    power: PowerId,
    plan: &'a Plan,
    minors: &'a [(chancery_engine::Unit, Vec<Order>)],
    predictions: &'a [(Vec<Order>, Vec<Bid>)],
    judge: Judge,
    left: usize,
    orders: Vec<Order>,
    bids: Vec<Bid>,
    rng: Rng,
    /// Original 1958: boarding orders of an army and a fleet of ours that would meet
    /// (both must order B, rule 7), as (army, its order, fleet, its order).
    pairs: Vec<(usize, Order, usize, Order)>,
}

/// The pairs of our boarding orders that meet in one space: an army boarding where it
/// stands or after a move, and a fleet boarding there.
fn boarding_pairs(v: &Variant, g: &Graph, plan: &Plan) -> Vec<(usize, Order, usize, Order)> {
    let army_value = |p: ProvinceId| plan.values.army[p as usize];
    // The best an army could do by land from where it stands: its space and neighbours.
    let by_land = |p: ProvinceId| {
        v.army_neighbours(p)
            .iter()
            .map(|&q| army_value(q))
            .fold(army_value(p), f64::max)
    };
    // The best landing a fleet boarding in `s` could make within two moves.
    let by_sea = |s: ProvinceId| {
        let mut best = 0.0f64;
        for &a in &g.fleet[s as usize] {
            for &b in g.fleet[a as usize].iter().chain(std::iter::once(&a)) {
                if v.army_can_stand(b) && b != s {
                    best = best.max(army_value(b));
                }
            }
        }
        best
    };
    let space = |o: &Order| match o.kind {
        OrderKind::Board { to: Some(to), .. } => Some(to.province),
        OrderKind::Board { to: None, .. } => Some(o.unit.location.province),
        _ => None,
    };
    let mut out = Vec::new();
    for (a, army) in plan.units.iter().enumerate() {
        if army.unit.kind != UnitKind::Army {
            continue;
        }
        let land = by_land(army.unit.location.province);
        for ao in &army.boards {
            // Boarding costs the army a phase or two: worth trying only where the sea
            // leads somewhere clearly better than the land does (an army on an island,
            // or hemmed in).
            if space(ao).is_none_or(|s| by_sea(s) < WORTH_SAILING * land) {
                continue;
            }
            for (f, fleet) in plan.units.iter().enumerate() {
                if fleet.unit.kind != UnitKind::Fleet {
                    continue;
                }
                for fo in fleet.boards.iter().filter(|fo| space(fo) == space(ao)) {
                    out.push((a, *ao, f, *fo));
                }
            }
        }
    }
    out
}

impl Search<'_> {
    /// An order set made legal as a set, with the bids that suit it.
    fn candidate(&mut self, mut orders: Vec<Order>) -> (Vec<Order>, Vec<Bid>) {
        crate::one_support_per_stack(&mut orders);
        let bids = baseline::bids(self.v, self.state, self.minors, self.plan, &orders, &mut self.rng);
        (orders, bids)
    }

    /// The average value, over the predictions, of the positions the candidate leaves.
    fn score(&mut self, c: &(Vec<Order>, Vec<Bid>)) -> f64 {
        let mut total = 0.0;
        for (orders, bids) in self.predictions {
            self.orders.clear();
            self.orders.extend_from_slice(&c.0);
            self.orders.extend_from_slice(orders);
            self.bids.clear();
            self.bids.extend_from_slice(&c.1);
            self.bids.extend_from_slice(bids);
            let r = judge_phase_with(self.v, self.state, &self.orders, &self.bids, &mut self.judge);
            total += position_value(self.v, self.state, r.next(), self.power, r.winner(), self.plan);
            self.left = self.left.saturating_sub(1);
        }
        total / self.predictions.len().max(1) as f64
    }

    /// Changes one unit's order: to one of its better moves, a hold, or a support of
    /// another of our units' orders. False when the change is no change.
    fn mutate(&mut self, orders: &mut [Order]) -> bool {
        if !self.pairs.is_empty() && self.rng.below(4) == 0 {
            let (a, ao, f, fo) = self.pairs[self.rng.below(self.pairs.len())];
            let slot = |u: &crate::baseline::UnitPlan, orders: &[Order]| {
                orders
                    .iter()
                    .position(|o| o.unit.location == u.unit.location && o.unit.kind == Some(u.unit.kind))
            };
            let (Some(i), Some(j)) = (slot(&self.plan.units[a], orders), slot(&self.plan.units[f], orders)) else {
                return false;
            };
            if orders[i] == ao && orders[j] == fo {
                return false;
            }
            orders[i] = ao;
            orders[j] = fo;
            return true;
        }
        let n = self.plan.units.len();
        let i = self.rng.below(n);
        let unit = &self.plan.units[i];
        let Some(slot) = orders
            .iter()
            .position(|o| o.unit.location == unit.unit.location && o.unit.kind == Some(unit.unit.kind))
        else {
            return false;
        };
        let new = match self.rng.below(3) {
            0 => unit.hold,
            1 => {
                let k = self.rng.below(unit.moves.len().min(5));
                unit.moves[k].2
            }
            _ => {
                // Support what another of ours does.
                let j = self.rng.below(orders.len());
                let other = orders[j];
                let wanted = match other.kind {
                    OrderKind::Move { to, .. } => Some(to.province),
                    OrderKind::Hold | OrderKind::SupportHold { .. } | OrderKind::SupportMove { .. } => None,
                    _ => return false,
                };
                let found = unit.supports.iter().find(|s| match (s.kind, wanted) {
                    (OrderKind::SupportMove { unit: u, to }, Some(w)) => {
                        u.location.province == other.unit.location.province && to.province == w
                    }
                    (OrderKind::SupportHold { unit: u }, None) => u.location.province == other.unit.location.province,
                    _ => false,
                });
                match found {
                    Some(s) => *s,
                    None => return false,
                }
            }
        };
        if orders[slot] == new {
            return false;
        }
        orders[slot] = new;
        true
    }
}

/// What a position is worth to `player` (with its factions), in centres: the centres
/// it will own (in Fall, whoever stands on a centre takes it; in Spring, standing on one
/// is half of taking it), its units (a dislodged unit is likely lost), and a little for
/// where its units stand by the baseline's values, so that among equal outcomes the
/// one nearer more centres wins. A victory is worth more than any position.
pub fn position_value(
    v: &Variant,
    before: &GameState,
    next: &GameState,
    player: PowerId,
    winner: Option<PowerId>,
    plan: &Plan,
) -> f64 {
    if winner == Some(player) {
        return 1000.0;
    }
    let mine = |p: PowerId| v.controls(player, p);
    let fall = before.phase.season == Season::Fall;
    let mut score = 0.0;
    for (p, prov) in v.provinces.iter().enumerate() {
        if !prov.sc {
            continue;
        }
        let owner = next.owners[p];
        let occupant = next.units.iter().find(|u| u.location.province as usize == p);
        let held = |o: Option<PowerId>| o.is_some_and(mine);
        let by_unit = occupant.filter(|u| !next.acts_as_minor(v, u.power)).map(|u| u.power);
        let ours_now = held(owner);
        let ours_after = match by_unit {
            Some(q) => mine(q),
            None => ours_now,
        };
        score += if fall || next.phase.kind == PhaseKind::Adjustment {
            ours_after as u8 as f64
        } else {
            0.5 * ours_now as u8 as f64 + 0.5 * ours_after as u8 as f64
        };
    }
    let units_weight = match v.victory {
        Victory::Units(_) => 0.8,
        Victory::Centres(_) => 0.35,
    };
    let max_value = plan
        .values
        .army
        .iter()
        .chain(plan.values.fleet.iter())
        .fold(1.0f64, |a, &b| a.max(b));
    for u in next.units.iter().filter(|u| mine(u.power)) {
        score += units_weight + 0.25 * plan.values.of(u.kind, u.location.province) / max_value;
    }
    // An army aboard counts as a unit and no more: valuing where its fleet could land it
    // made the search board too often (one strong bot in Original 1958 fell from 2.9 to
    // 1.7 times a baseline's centres); a landing shows in the next position's value.
    score += next.carried.iter().filter(|c| mine(c.army)).count() as f64 * units_weight;
    score += next.dislodged.iter().filter(|d| mine(d.unit.power)).count() as f64 * 0.1;
    score
}
