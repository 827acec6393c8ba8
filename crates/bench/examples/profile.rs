//! Runs one engine path over the workload, for `valgrind --tool=callgrind`: instruction
//! counts are a stable cross-check of the criterion figures on a busy machine.
//!
//! `cargo build --release -p chancery-bench --example profile`, then
//! `valgrind --tool=callgrind --toggle-collect=profile::measured
//! target/release/examples/profile judge midgame` (paths: judge, adjudicate, parse;
//! workloads: opening, midgame, 1648-60, 1648-139). Only `measured` is counted, not
//! the making of the workload.

use std::hint::black_box;

use chancery_bench::crowded::crowded_1648;
use chancery_bench::workload::{standard_workload, OrderSet, SEED};
use chancery_engine::adjudicate::{adjudicate, Judge};
use chancery_engine::parse::parse_order;
use chancery_engine::{GameState, Order, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("judge", String::as_str);
    let which = args.get(2).map_or("opening", String::as_str);
    let (variant, positions, sets) = match which {
        "opening" | "midgame" => {
            let w = standard_workload();
            let sets = if which == "midgame" { w.midgame } else { w.opening };
            (w.variant, w.positions, sets)
        }
        other => {
            let units: usize = other
                .strip_prefix("1648-")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("unknown workload {other}"));
            let b = crowded_1648(units, SEED ^ units as u64);
            (b.variant, b.positions, b.sets)
        }
    };
    let texts: Vec<Vec<(u8, String)>> = sets
        .iter()
        .map(|s| {
            s.orders
                .iter()
                .map(|o| (o.power, o.display(&variant).to_string()))
                .collect()
        })
        .collect();
    measured(what, &variant, &positions, &sets, &texts);
}

#[inline(never)]
fn measured(what: &str, v: &Variant, positions: &[GameState], sets: &[OrderSet], texts: &[Vec<(u8, String)>]) {
    let mut judge = Judge::new();
    let mut parsed: Vec<Order> = Vec::new();
    for (s, t) in sets.iter().zip(texts) {
        let state = &positions[s.position];
        match what {
            "judge" => {
                black_box(judge.adjudicate(v, state, &s.orders).results.len());
            }
            "adjudicate" => {
                black_box(adjudicate(v, state, &s.orders).results.len());
            }
            "parse" => {
                parsed.clear();
                parsed.extend(t.iter().map(|(p, text)| parse_order(v, *p, text).expect("reads back")));
                black_box(&parsed);
            }
            other => panic!("unknown path {other}"),
        }
    }
}
