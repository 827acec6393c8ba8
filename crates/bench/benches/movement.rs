//! Movement-phase speed: Chancery against the `diplomacy` crate 0.2 on the same random
//! legal order sets, how the cost grows with the units on the board
//! (random 1648 positions), and the project's whole DATC run.
//!
//! `cargo bench -p chancery-bench` prints criterion's figures for Chancery's paths, then
//! the summary: per kind of position, the median phase of each engine measured
//! interleaved (the engines alternate set by set, `timing::interleaved`) and their
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
use chancery_bench::crowded::{crowded_1648, Crowded};
use chancery_bench::workload::{standard_workload, OrderSet, Workload, SEED};
use chancery_engine::adjudicate::{adjudicate, Judge};
use chancery_engine::movement::{Command, Resolver};
use chancery_engine::parse::parse_order;
use chancery_engine::{GameState, Order, OrderKind, PowerId, Variant};
use criterion::Criterion;
use diplomacy::geo::{standard_map, Map};

use datc::Datc;

/// Board sizes of the 1648 workload: the opening's 60 units, and every space that can
/// hold a unit occupied (139 of the map's 140; Terra Incognita is impassable).
const CROWDED_UNITS: [usize; 3] = [60, 100, 139];
use diplomacy_bridge::DipPhase;
use timing::{interleaved, median, micros};

/// One kind of position, its order sets as both engines take them.
struct Prepared<'w> {
    name: &'static str,
    w: &'w Workload,
    sets: Vec<OrderSet>,
    dip: Vec<DipPhase>,
    /// Each set's orders as text: Chancery's canonical notation with the giving power,
    /// and the crate's own notation.
    texts: Vec<Vec<(PowerId, String)>>,
    dip_texts: Vec<Vec<String>>,
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
    let mut texts = Vec::with_capacity(sets.len());
    let mut dip_texts = Vec::with_capacity(sets.len());
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
        texts.push(set.orders.iter().map(|o| (o.power, o.display(v).to_string())).collect());
        dip_texts.push(phase.orders.iter().map(ToString::to_string).collect());
        out.push(set);
        dip.push(phase);
    }
    Prepared {
        name,
        w,
        sets: out,
        dip,
        texts,
        dip_texts,
        converted,
        orders,
    }
}

fn bench_phases(c: &mut Criterion, p: &Prepared) {
    let v = &p.w.variant;
    let n = p.sets.len();
    let mut g = c.benchmark_group(p.name);
    g.sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));

    let mut resolver = Resolver::new();
    let mut i = 0;
    g.bench_function("chancery resolver load+run", |b| {
        b.iter(|| {
            let s = &p.sets[i % n];
            i += 1;
            resolver.load(v, p.w.state(s), &s.commands);
            resolver.run(v);
            black_box(resolver.succeeded(0))
        })
    });
    let mut judge = Judge::new();
    let mut i = 0;
    g.bench_function("chancery Judge::adjudicate", |b| {
        b.iter(|| {
            let s = &p.sets[i % n];
            i += 1;
            black_box(judge.adjudicate(v, p.w.state(s), &s.orders).results.len())
        })
    });
    let mut parsed = Vec::new();
    let mut i = 0;
    g.bench_function("chancery parse + Judge::adjudicate", |b| {
        b.iter(|| {
            let k = i % n;
            i += 1;
            black_box(parse_and_judge(
                v,
                p.w.state(&p.sets[k]),
                &p.texts[k],
                &mut parsed,
                &mut judge,
            ))
        })
    });
    g.finish();
}

/// Chancery from text: each order read by `parse_order` (the seat's power known, as
/// the server reads a submission), then judged.
fn parse_and_judge(
    v: &Variant,
    state: &GameState,
    texts: &[(PowerId, String)],
    parsed: &mut Vec<Order>,
    judge: &mut Judge,
) -> usize {
    parsed.clear();
    parsed.extend(
        texts
            .iter()
            .map(|(power, t)| parse_order(v, *power, t).expect("Chancery reads back the orders it prints")),
    );
    judge.adjudicate(v, state, parsed).results.len()
}

fn bench_datc(c: &mut Criterion, datc: &Datc, w: &Workload) {
    let mut g = c.benchmark_group("datc");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    g.bench_function("tests/datc parse + run", |b| b.iter(|| black_box(datc.run(&w.variant))));
    g.finish();
}

/// Whether both engines moved the same units: a check that the translation is right,
/// printed with the summary. Differences would come from rule choices of the other
/// crate, not from timing: the one in the mid-game sets (1 of 18,788) is an adjacent
/// move with its own power's convoy order on a route another fleet must complete, where
/// Chancery follows DATC v3.0 4.A.3 and the crate does not (tests/known_difference.rs).
fn agreement(p: &Prepared, map: &Map) -> (usize, usize) {
    let v = &p.w.variant;
    let mut r = Resolver::new();
    let mut moves = 0;
    let mut differ = 0;
    for (s, d) in p.sets.iter().zip(&p.dip) {
        r.load(v, p.w.state(s), &s.commands);
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

/// The README's figures for one kind of position, all measured interleaved.
fn summary(p: &Prepared, map: &Map) {
    let v = &p.w.variant;
    let n = p.sets.len();
    let mut r = Resolver::new();
    let mut judge = Judge::new();
    let mut parse_judge = Judge::new();
    let mut parsed = Vec::new();
    let timed = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        start.elapsed()
    };
    let mut resolver_only = |i: usize| {
        let s = &p.sets[i];
        timed(&mut || {
            r.load(v, p.w.state(s), &s.commands);
            r.run(v);
            black_box(r.succeeded(0));
        })
    };
    let mut ours = |i: usize| {
        timed(&mut || {
            black_box(
                judge
                    .adjudicate(v, p.w.state(&p.sets[i]), &p.sets[i].orders)
                    .results
                    .len(),
            );
        })
    };
    let mut fresh = |i: usize| {
        timed(&mut || {
            black_box(adjudicate(v, p.w.state(&p.sets[i]), &p.sets[i].orders).results.len());
        })
    };
    let mut ours_text = |i: usize| {
        timed(&mut || {
            black_box(parse_and_judge(
                v,
                p.w.state(&p.sets[i]),
                &p.texts[i],
                &mut parsed,
                &mut parse_judge,
            ));
        })
    };
    let mut theirs = |i: usize| {
        // The crate consumes its orders: the copy is made outside the clock.
        let mut orders = Some(p.dip[i].orders.clone());
        timed(&mut || {
            let orders = orders.take().expect("run once");
            black_box(diplomacy_bridge::adjudicate(map, &p.dip[i].positions, orders));
        })
    };
    let mut theirs_text = |i: usize| {
        timed(&mut || {
            let orders = diplomacy_bridge::parse(&p.dip_texts[i]);
            black_box(diplomacy_bridge::adjudicate(map, &p.dip[i].positions, orders));
        })
    };
    let m = interleaved(
        n,
        7,
        &mut [
            &mut ours,
            &mut theirs,
            &mut ours_text,
            &mut theirs_text,
            &mut fresh,
            &mut resolver_only,
        ],
    );
    let (ours, theirs, ours_text, theirs_text, fresh, hot) = (m[0], m[1], m[2], m[3], m[4], m[5]);
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let units: usize = p.sets.iter().map(|s| p.w.state(s).units.len()).sum();
    let (moves, differ) = agreement(p, map);
    println!(
        "{}: adjudicate: chancery {}, diplomacy 0.2 {}, ratio {:.1}x; parse + adjudicate: chancery {}, diplomacy 0.2 {}, ratio {:.1}x",
        p.name,
        micros(ours),
        micros(theirs),
        ratio(theirs, ours),
        micros(ours_text),
        micros(theirs_text),
        ratio(theirs_text, ours_text),
    );
    println!(
        "    {} sets, {:.1} units on average; chancery adjudicate() with a fresh judge {} ({:.1}x), resolver load+run alone {} ({:.1}x)",
        n,
        units as f64 / n as f64,
        micros(fresh),
        ratio(theirs, fresh),
        micros(hot),
        ratio(theirs, hot)
    );
    println!(
        "    orders turned into holds because diplomacy 0.2 cannot express them: {} of {}; move outcomes that differ between the engines: {} of {}",
        p.converted, p.orders, differ, moves
    );
}

/// Cost per unit on random 1648 positions of each size, the sizes interleaved.
fn crowded_summary(boards: &[Crowded]) {
    let mut judges: Vec<Judge> = boards.iter().map(|_| Judge::new()).collect();
    let n = boards.iter().map(|b| b.sets.len()).min().unwrap_or(0);
    let mut runs: Vec<Box<dyn FnMut(usize) -> Duration + '_>> = boards
        .iter()
        .zip(judges.iter_mut())
        .map(|(b, judge)| {
            Box::new(move |i: usize| {
                let s = &b.sets[i];
                let start = Instant::now();
                black_box(judge.adjudicate(&b.variant, b.state(s), &s.orders).results.len());
                start.elapsed()
            }) as Box<dyn FnMut(usize) -> Duration>
        })
        .collect();
    let mut engines: Vec<&mut dyn FnMut(usize) -> Duration> = runs
        .iter_mut()
        .map(|r| r.as_mut() as &mut dyn FnMut(usize) -> Duration)
        .collect();
    let m = interleaved(n, 7, &mut engines);
    let per_unit: Vec<f64> = boards
        .iter()
        .zip(&m)
        .map(|(b, t)| t.as_secs_f64() * 1e6 / b.units as f64)
        .collect();
    for ((b, t), u) in boards.iter().zip(&m).zip(&per_unit) {
        println!(
            "1648, {} units ({} random positions, {} sets): Judge::adjudicate {}, {:.3} µs per unit",
            b.units,
            b.positions.len(),
            b.sets.len(),
            micros(*t),
            u
        );
    }
    if let (Some(first), Some(last)) = (per_unit.first(), per_unit.last()) {
        println!("    per unit, largest board against smallest: {:.2}x", last / first);
    }
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
    let boards: Vec<Crowded> = CROWDED_UNITS
        .iter()
        .map(|&u| crowded_1648(u, SEED ^ u as u64))
        .collect();
    for b in &boards {
        assert_eq!(b.refused, 0, "the 1648 workload must hold legal orders only");
    }
    let datc = Datc::load();
    eprintln!("workload ready in {:.1} s", start.elapsed().as_secs_f64());

    let mut c = Criterion::default().configure_from_args();
    bench_phases(&mut c, &opening);
    bench_phases(&mut c, &midgame);
    bench_datc(&mut c, &datc, &w);
    c.final_summary();

    // `cargo bench` passes --bench; `cargo test --benches` does not, and there a quick
    // criterion smoke run is enough.
    if std::env::args().any(|a| a == "--bench") {
        println!();
        println!(
            "median movement phase over each kind's order sets, engines interleaved set by set: \
             chancery = Judge::adjudicate (buffers reused); diplomacy 0.2 = Submission::new + adjudicate \
             (2023 rulebook) + to_retreat_start; parse = each order's text read first"
        );
        summary(&opening, map);
        summary(&midgame, map);
        crowded_summary(&boards);
        datc_summary(&datc, &w);
    }
}
