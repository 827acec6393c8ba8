//! Cost of a movement phase with Diplomacy Points: the 1648 opening, where every great
//! power spends its DPs on the minor units and the bids are resolved before the
//! adjudication, next to the Standard opening adjudicated on its own, so that one run
//! shows what bid resolution and the larger map add.
//!
//! `cargo bench -p chancery-bench --bench dp` prints criterion's figures, then one
//! median line per phase. Both phases are fixed order sets built without randomness,
//! so every run measures the same work.

#[path = "support/timing.rs"]
mod timing;

use std::hint::black_box;
use std::time::{Duration, Instant};

use chancery_engine::adjudicate::adjudicate;
use chancery_engine::builtin::builtin;
use chancery_engine::dp::{self, Bid};
use chancery_engine::validate::validate;
use chancery_engine::{
    Adjudication, GameState, Location, Order, OrderKind, PowerId, ProvinceId, Unit, UnitKind, UnitRef, Variant,
};
use criterion::Criterion;

use timing::{interleaved, micros};

/// The 1648 opening with its bids, ready to resolve and adjudicate.
pub struct DpPhase {
    pub variant: Variant,
    pub state: GameState,
    /// One validated order per great-power unit.
    pub orders: Vec<Order>,
    /// Every great power's bids, 1 DP each on distinct minor units.
    pub bids: Vec<Bid>,
}

/// The Standard opening with a move for every unit.
pub struct PlainPhase {
    pub variant: Variant,
    pub state: GameState,
    pub orders: Vec<Order>,
}

fn load(id: &str) -> Variant {
    builtin(id)
        .unwrap_or_else(|| panic!("no built-in variant {id}"))
        .unwrap_or_else(|e| panic!("built-in variant {id} does not load: {e:?}"))
}

/// Spaces a unit could step into, in the map's order.
fn neighbours(v: &Variant, u: &Unit) -> Vec<Location> {
    match u.kind {
        UnitKind::Army => v
            .army_neighbours(u.location.province)
            .iter()
            .filter(|&&p| v.army_can_stand(p))
            .map(|&p| Location::province(p))
            .collect(),
        UnitKind::Fleet => v.fleet_neighbours(u.location).to_vec(),
    }
}

/// A move of `u` to a neighbouring space that is empty at the start and that no earlier
/// unit was sent to, validated in the name of `power`; `None` when there is none.
/// Keeping destinations apart makes the orders look like a real opening instead of a
/// pile of standoffs, and keeps great powers from attacking minors (which would bar
/// their bids on them, rule 3).
fn free_move(v: &Variant, state: &GameState, power: PowerId, u: &Unit, claimed: &mut Vec<ProvinceId>) -> Option<Order> {
    for to in neighbours(v, u) {
        if state.unit_at(to.province).is_some() || claimed.contains(&to.province) {
            continue;
        }
        let order = Order {
            power,
            unit: UnitRef {
                kind: Some(u.kind),
                location: u.location,
            },
            kind: OrderKind::Move { to, via_convoy: false },
        };
        if let Ok(order) = validate(v, state, &order) {
            claimed.push(to.province);
            return Some(order);
        }
    }
    None
}

fn hold(power: PowerId, u: &Unit) -> Order {
    Order {
        power,
        unit: UnitRef {
            kind: Some(u.kind),
            location: u.location,
        },
        kind: OrderKind::Hold,
    }
}

/// The 1648 opening: great-power units step into free spaces (or hold where none is
/// left), and each great power spends its whole budget at 1 DP a unit on minor units
/// nobody has bid on yet, a patron taking its own clients first. With 1 DP per unit the
/// budgets reach at most their total number of minor units, so any minor units beyond
/// that get no bid and hold, as the rules make them.
pub fn dp_opening() -> DpPhase {
    let v = load("1648");
    let state = GameState::initial(&v);
    let mut claimed = Vec::new();

    let orders: Vec<Order> = state
        .units
        .iter()
        .filter(|u| !state.acts_as_minor(&v, u.power))
        .map(|u| free_move(&v, &state, u.power, u, &mut claimed).unwrap_or_else(|| hold(u.power, u)))
        .collect();

    let mut left: Vec<(PowerId, u32)> = v.great_powers().map(|p| (p, dp::budget(&v, &state, p).total)).collect();
    let mut bids = Vec::new();
    let mut next = 0;
    let minors: Vec<Unit> = dp::minor_units(&v, &state).copied().collect();
    for u in &minors {
        let patrons = dp::patrons_of(&v, u);
        // A patron with DPs left backs its client; otherwise the powers take turns, so
        // the spending is spread instead of the first power emptying its budget.
        let bidder = match left.iter().position(|&(p, n)| n > 0 && patrons.contains(&p)) {
            Some(i) => i,
            None => {
                let Some(k) = (0..left.len())
                    .map(|k| (next + k) % left.len())
                    .find(|&i| left[i].1 > 0)
                else {
                    break;
                };
                next = k + 1;
                k
            }
        };
        left[bidder].1 -= 1;
        // Checked in the minor's own name: the unit, not the bidder, must be able to
        // carry the order out.
        let order = free_move(&v, &state, u.power, u, &mut claimed).unwrap_or_else(|| hold(u.power, u));
        bids.push(Bid {
            power: left[bidder].0,
            dp: 1,
            order,
        });
    }

    for p in v.great_powers() {
        if let Err(e) = dp::check_bids(&v, &state, p, &orders, &bids) {
            panic!("the workload's bids are refused: {e}");
        }
    }
    DpPhase {
        variant: v,
        state,
        orders,
        bids,
    }
}

/// What a judge does with a 1648 movement phase once orders and bids are in.
pub fn run_dp(p: &DpPhase) -> Adjudication {
    let (minor_orders, _report) = dp::resolve_bids(&p.variant, &p.state, &p.orders, &p.bids);
    let mut all = Vec::with_capacity(p.orders.len() + minor_orders.len());
    all.extend_from_slice(&p.orders);
    all.extend(minor_orders);
    adjudicate(&p.variant, &p.state, &all)
}

/// The Standard opening with every unit moving to a free space.
pub fn standard_opening() -> PlainPhase {
    let v = load("standard");
    let state = GameState::initial(&v);
    let mut claimed = Vec::new();
    let orders = state
        .units
        .iter()
        .map(|u| free_move(&v, &state, u.power, u, &mut claimed).expect("every Standard unit has a free space"))
        .collect();
    PlainPhase {
        variant: v,
        state,
        orders,
    }
}

fn main() {
    let dp_phase = dp_opening();
    let standard = standard_opening();

    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("dp");
    g.sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    g.bench_function("1648 opening resolve_bids + adjudicate", |b| {
        b.iter(|| black_box(run_dp(black_box(&dp_phase))))
    });
    g.bench_function("standard opening adjudicate", |b| {
        b.iter(|| {
            black_box(adjudicate(
                &standard.variant,
                black_box(&standard.state),
                black_box(&standard.orders),
            ))
        })
    });
    g.finish();
    c.final_summary();

    // `cargo bench` passes --bench; `cargo test --benches` does not, and there the quick
    // criterion smoke run is enough.
    if std::env::args().any(|a| a == "--bench") {
        // Each workload is one order set, so the median is over repeated runs of it, the
        // two phases alternating.
        let mut dp_run = |_: usize| {
            let start = Instant::now();
            black_box(run_dp(&dp_phase));
            start.elapsed()
        };
        let mut plain_run = |_: usize| {
            let start = Instant::now();
            black_box(adjudicate(&standard.variant, &standard.state, &standard.orders));
            start.elapsed()
        };
        let m = interleaved(1, 2001, &mut [&mut dp_run, &mut plain_run]);
        let (with_dp, plain) = (m[0], m[1]);
        let minors = dp::minor_units(&dp_phase.variant, &dp_phase.state).count();
        let (chosen, _) = dp::resolve_bids(&dp_phase.variant, &dp_phase.state, &dp_phase.orders, &dp_phase.bids);
        println!();
        println!(
            "1648 opening, resolve_bids + adjudicate: median {} ({} units; {} bids of 1 DP on {} minor units, {} orders chosen)",
            micros(with_dp),
            dp_phase.state.units.len(),
            dp_phase.bids.len(),
            minors,
            chosen.len()
        );
        println!(
            "standard opening, adjudicate: median {} ({} units)",
            micros(plain),
            standard.state.units.len()
        );
    }
}
