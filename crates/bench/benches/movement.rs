//! Movement-phase speed: Chancery against the `diplomacy` crate 0.2 on the same random
//! legal order sets (issue 2, item 8), and the project's whole DATC run.
//!
//! `cargo bench -p chancery-bench` prints criterion's figures for each group, then one
//! summary line per kind of position with the median phase of each engine and their
//! ratio. The workload is fixed by `chancery_bench::workload::SEED`.

#[path = "support/datc.rs"]
mod datc;
#[path = "support/diplomacy_bridge.rs"]
mod diplomacy_bridge;
#[path = "support/timing.rs"]
mod timing;

use std::hint::black_box;
use std::time::{Duration, Instant};

use chancery_bench::commands::commands_for;
use chancery_bench::workload::{standard_workload, OrderSet, Workload};
use chancery_engine::adjudicate::{adjudicate, adjudicate_with};
use chancery_engine::movement::{Command, Resolver};
use chancery_engine::OrderKind;
use criterion::{BatchSize, Criterion};
use diplomacy::geo::{standard_map, Map};

use datc::Datc;
use diplomacy_bridge::DipPhase;
use timing::{median, median_per_set, micros};

/// One kind of position, its order sets as both engines take them.
struct Prepared<'w> {
    name: &'static str,
    w: &'w Workload,
    sets: Vec<OrderSet>,
    dip: Vec<DipPhase>,
    /// Orders turned into holds because the `diplomacy` crate cannot express them.
    converted: usize,
    orders: usize,
}

/// Translates each set, and where the other crate cannot express an order, makes that
/// unit hold in both engines' sets so that they stay the same.
fn prepare<'w>(name: &'static str, w: &'w Workload, sets: &[OrderSet], map: &Map) -> Prepared<'w> {
    let v = &w.variant;
    let mut out = Vec::with_capacity(sets.len());
    let mut dip = Vec::with_capacity(sets.len());
    let mut converted = 0;
    let mut orders = 0;
    for set in sets {
        let state = w.state(set);
        let mut set = set.clone();
        let mut phase = diplomacy_bridge::translate(v, state, &set.orders);
        // A hold in place of one order can leave another without what it relied on (an
        // army whose only convoy went), so repeat until nothing changes.
        loop {
            let bad = diplomacy_bridge::inexpressible(v, state, map, &set.orders, &phase);
            let bad: Vec<usize> = bad
                .into_iter()
                .filter(|&i| set.orders[i].kind != OrderKind::Hold)
                .collect();
            if bad.is_empty() {
                break;
            }
            for &i in &bad {
                set.orders[i].kind = OrderKind::Hold;
            }
            converted += bad.len();
            set.commands = commands_for(state, &set.orders);
            phase = diplomacy_bridge::translate(v, state, &set.orders);
        }
        orders += set.orders.len();
        out.push(set);
        dip.push(phase);
    }
    Prepared {
        name,
        w,
        sets: out,
        dip,
        converted,
        orders,
    }
}

fn bench_phases(c: &mut Criterion, p: &Prepared, map: &Map) {
    let v = &p.w.variant;
    let n = p.sets.len();
    let mut g = c.benchmark_group(p.name);
    g.sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));

    let mut resolver = Resolver::new();
    let mut i = 0;
    g.bench_function("chancery resolver load+run", |b| {
        b.iter(|| {
            let s = &p.sets[i % n];
            i += 1;
            resolver.load(v, &p.w.state(s).units, &s.commands);
            resolver.run(v);
            black_box(resolver.succeeded(0))
        })
    });
    let mut i = 0;
    g.bench_function("chancery adjudicate_with", |b| {
        b.iter(|| {
            let s = &p.sets[i % n];
            i += 1;
            black_box(adjudicate_with(v, p.w.state(s), &s.orders, &mut resolver))
        })
    });
    let mut i = 0;
    g.bench_function("chancery adjudicate", |b| {
        b.iter(|| {
            let s = &p.sets[i % n];
            i += 1;
            black_box(adjudicate(v, p.w.state(s), &s.orders))
        })
    });
    let mut i = 0;
    g.bench_function("diplomacy 0.2", |b| {
        b.iter_batched(
            || {
                let k = i % n;
                i += 1;
                (k, p.dip[k].orders.clone())
            },
            |(k, orders)| diplomacy_bridge::adjudicate(map, &p.dip[k].positions, orders),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn bench_datc(c: &mut Criterion, datc: &Datc, w: &Workload) {
    let mut g = c.benchmark_group("datc");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function("tests/datc parse + run", |b| b.iter(|| black_box(datc.run(&w.variant))));
    g.finish();
}

/// Whether both engines moved the same units: a check that the translation is right,
/// printed with the summary. Differences would come from rule choices of the other
/// crate, not from timing.
fn agreement(p: &Prepared, map: &Map) -> (usize, usize) {
    let v = &p.w.variant;
    let mut r = Resolver::new();
    let mut moves = 0;
    let mut differ = 0;
    for (s, d) in p.sets.iter().zip(&p.dip) {
        r.load(v, &p.w.state(s).units, &s.commands);
        r.run(v);
        let theirs = diplomacy_bridge::move_successes(map, d);
        for (i, c) in s.commands.iter().enumerate() {
            if let (Command::Move { .. }, Some(ok)) = (c, theirs[i]) {
                moves += 1;
                if r.succeeded(i) != ok {
                    differ += 1;
                }
            }
        }
    }
    (moves, differ)
}

fn summary(p: &Prepared, map: &Map) {
    let v = &p.w.variant;
    let n = p.sets.len();
    let mut r = Resolver::new();
    let hot = median_per_set(
        n,
        9,
        |_| (),
        |i, ()| {
            let s = &p.sets[i];
            r.load(v, &p.w.state(s).units, &s.commands);
            r.run(v);
            black_box(r.succeeded(0));
        },
    );
    let with = median_per_set(
        n,
        9,
        |_| (),
        |i, ()| {
            let s = &p.sets[i];
            black_box(adjudicate_with(v, p.w.state(s), &s.orders, &mut r));
        },
    );
    let full = median_per_set(
        n,
        9,
        |_| (),
        |i, ()| {
            let s = &p.sets[i];
            black_box(adjudicate(v, p.w.state(s), &s.orders));
        },
    );
    let theirs = median_per_set(
        n,
        5,
        |i| p.dip[i].orders.clone(),
        |i, orders| {
            black_box(diplomacy_bridge::adjudicate(map, &p.dip[i].positions, orders));
        },
    );
    let ratio = |ours: Duration| theirs.as_secs_f64() / ours.as_secs_f64();
    let units: usize = p.sets.iter().map(|s| p.w.state(s).units.len()).sum();
    let (moves, differ) = agreement(p, map);
    println!(
        "{}: chancery {}, diplomacy 0.2 {}, ratio {:.1}x",
        p.name,
        micros(with),
        micros(theirs),
        ratio(with)
    );
    println!(
        "    {} sets, {:.1} units on average; chancery adjudicate (fresh resolver) {} ({:.1}x), resolver load+run alone {} ({:.1}x)",
        n,
        units as f64 / n as f64,
        micros(full),
        ratio(full),
        micros(hot),
        ratio(hot)
    );
    println!(
        "    orders turned into holds because diplomacy 0.2 cannot express them: {} of {}; move outcomes that differ between the engines: {} of {}",
        p.converted, p.orders, differ, moves
    );
}

fn datc_summary(datc: &Datc, w: &Workload) {
    let (passed, failed) = datc.run(&w.variant);
    let mut times: Vec<Duration> = (0..20)
        .map(|_| {
            let start = Instant::now();
            black_box(datc.run(&w.variant));
            start.elapsed()
        })
        .collect();
    println!(
        "datc: {} files, {passed} passed, {failed} failed, whole run (parse + adjudicate) median {:.2} ms",
        datc.files.len(),
        median(&mut times).as_secs_f64() * 1e3
    );
}

fn main() {
    let start = Instant::now();
    let w = standard_workload();
    assert_eq!(w.refused, 0, "the workload must hold legal orders only");
    let map = standard_map();
    let opening = prepare("opening", &w, &w.opening, map);
    let midgame = prepare("midgame", &w, &w.midgame, map);
    let datc = Datc::load();
    eprintln!("workload ready in {:.1} s", start.elapsed().as_secs_f64());

    let mut c = Criterion::default().configure_from_args();
    bench_phases(&mut c, &opening, map);
    bench_phases(&mut c, &midgame, map);
    bench_datc(&mut c, &datc, &w);
    c.final_summary();

    // `cargo bench` passes --bench; `cargo test --benches` does not, and there a quick
    // criterion smoke run is enough.
    if std::env::args().any(|a| a == "--bench") {
        println!();
        println!(
            "median movement phase over each kind's order sets: chancery = adjudicate_with (reused resolver), \
             diplomacy 0.2 = Submission::new + adjudicate (2023 rulebook)"
        );
        summary(&opening, map);
        summary(&midgame, map);
        datc_summary(&datc, &w);
    }
}
