//! Plays random legal phases of a Diplomacy Points variant (1936 by default, or 1648),
//! bids included, and prints what each phase did.
//!
//! ```text
//! cargo run -p chancery-engine --example random_dp -- [1936|1648] [SEED] [PHASES]
//! ```
//!
//! Every order comes from the `options` module, so none is refused. Each great power
//! also bids its Diplomacy Points on the minor powers' units (DP rule 3: one bid per
//! unit, 1 DP each, within its budget, never on a minor its own orders attack), and
//! `judge_phase` turns the bids into the minors' orders before it judges (rule 4). The
//! GM's bid report, which players never see, is printed too.

use chancery_engine::adjust::surplus;
use chancery_engine::builtin::builtin;
use chancery_engine::dp::bids::barred_minors;
use chancery_engine::dp::{budget, check_bids, Bid};
use chancery_engine::options::{biddable_units, commanded_powers, orderable_units, Lister, Scope};
use chancery_engine::{judge_phase, GameState, Order, OrderKind, PhaseKind, PowerId, Variant};

/// A small deterministic generator (xorshift64*), so that a seed replays a game; an
/// example needs no more, and the crate keeps its few dependencies.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// One random legal order per unit `player` commands; in a Winter, the builds or
/// removals due on distinct sites.
fn random_orders(v: &Variant, state: &GameState, lister: &mut Lister, player: PowerId, rng: &mut Rng) -> Vec<Order> {
    let mut orders = Vec::new();
    if state.phase.kind == PhaseKind::Adjustment {
        for power in commanded_powers(v, player) {
            let mut pool = lister.adjustments(power);
            pool.retain(|o| o.kind != OrderKind::Waive);
            for _ in 0..surplus(state, power).unsigned_abs() {
                if pool.is_empty() {
                    break;
                }
                let pick = pool.swap_remove(rng.below(pool.len()));
                // One build per site; removals are of different units already.
                pool.retain(|o| o.unit.location.province != pick.unit.location.province);
                orders.push(pick);
            }
        }
        return orders;
    }
    for unit in orderable_units(v, state, player) {
        let options = lister.unit_orders(player, &unit);
        if !options.is_empty() {
            orders.push(options[rng.below(options.len())]);
        }
    }
    orders
}

/// Bids of 1 DP on random minor units, as many as the budget allows, leaving out the
/// minors the power's own orders attack (rule 3 forbids bidding on them).
fn random_bids(
    v: &Variant,
    state: &GameState,
    lister: &mut Lister,
    player: PowerId,
    own: &[Order],
    rng: &mut Rng,
) -> Vec<Bid> {
    let barred = barred_minors(v, state, player, own);
    let mut units = biddable_units(v, state);
    units.retain(|u| !barred.iter().any(|(side, _)| *side == state.side(v, u)));
    let mut bids = Vec::new();
    for _ in 0..budget(v, state, player).total {
        if units.is_empty() {
            break;
        }
        let unit = units.swap_remove(rng.below(units.len()));
        let options = lister.minor_orders(&unit);
        if let Some(&order) = options.get(rng.below(options.len().max(1))) {
            bids.push(Bid {
                power: player,
                dp: 1,
                order,
            });
        }
    }
    // What a server does on submission; these bids keep the rule, so this never fails.
    check_bids(v, state, player, own, &bids).unwrap_or_else(|e| panic!("{e}"));
    bids
}

fn main() {
    let mut args = std::env::args().skip(1);
    let id = args.next().unwrap_or_else(|| "1936".to_string());
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let phases: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(8);
    let v = match builtin(&id) {
        Some(Ok(v)) => v,
        Some(Err(e)) => panic!("{e}"),
        None => {
            eprintln!("no built-in variant `{id}`; try 1936 or 1648");
            std::process::exit(2);
        }
    };
    // Zero is xorshift's one fixed point.
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut state = GameState::initial(&v);
    for _ in 0..phases {
        println!("== {}", state.phase);
        let mut lister = Lister::new(&v, &state, Scope::Plausible);
        let (mut orders, mut bids) = (Vec::new(), Vec::new());
        // Players are the great powers still in the game; a faction's orders come from
        // its sponsor's player.
        for p in v.great_powers().filter(|&p| !state.in_disorder(p)) {
            let own = random_orders(&v, &state, &mut lister, p, &mut rng);
            if state.phase.kind == PhaseKind::Movement && v.has_minors() {
                let budget = budget(&v, &state, p);
                println!("  {}: {}", v.power(p).name, budget.summary());
                bids.extend(random_bids(&v, &state, &mut lister, p, &own, &mut rng));
            }
            orders.extend(own);
        }
        let result = judge_phase(&v, &state, &orders, &bids);
        if let Some(report) = &result.bid_report {
            // The GM's account of the bidding: players see only the minors' orders.
            print!("{}", report.text(&v));
        }
        for r in &result.adjudication.results {
            let order = r
                .order
                .or(r.given)
                .map_or("(no order)".to_string(), |o| o.display(&v).to_string());
            println!("  {:<17} {order:<28} {}", v.power(r.power()).name, r.reason(&v));
        }
        state = result.next().clone();
        if let Some(w) = result.winner() {
            println!("{} wins", v.power(w).name);
            break;
        }
    }
    let mut centres: Vec<(usize, &str)> = v
        .great_powers()
        .map(|p| (state.centre_count(p), v.power(p).name.as_str()))
        .collect();
    centres.sort_by(|a, b| b.cmp(a));
    println!("== centres before {}:", state.phase);
    for (n, name) in centres {
        println!("  {name:<17} {n}");
    }
}
