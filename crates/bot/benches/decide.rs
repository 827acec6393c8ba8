//! Decision time of the bots (the targets: the strong bot's median within 300 ms and p95
//! within 1 s per power per phase on 1648 on one core; the baseline within 20 ms, so that a game of bots
//! moves at a person's pace): one
//! great power's movement decision in a mid-game position of 1648 and of Standard,
//! reached by five years of baseline play from a fixed seed, so every run measures the
//! same work.
//!
//! `cargo bench -p chancery-bot --bench decide`.

use std::hint::black_box;

use chancery_bot::{decide, Level, Settings};
use chancery_engine::builtin::builtin;
use chancery_engine::{judge_phase, GameState, PhaseKind, Variant};
use criterion::{criterion_group, criterion_main, Criterion};

/// The position after `years` years of baseline play, at its next Spring movement.
fn mid_game(v: &Variant, years: i32) -> GameState {
    let mut state = GameState::initial(v);
    let end = state.phase.year + years;
    let mut turn = 0u64;
    while state.phase.year < end || state.phase.kind != PhaseKind::Movement {
        let mut orders = Vec::new();
        let mut bids = Vec::new();
        for p in v.great_powers() {
            if state.acts_as_minor(v, p) {
                continue;
            }
            let d = decide(v, &state, p, &Settings::new(Level::Baseline, turn * 31 + p as u64));
            orders.extend(d.orders);
            bids.extend(d.bids);
        }
        let r = judge_phase(v, &state, &orders, &bids);
        state = r.next().clone();
        turn += 1;
    }
    state
}

fn bench(c: &mut Criterion) {
    for name in ["1648", "standard"] {
        let v = builtin(name).unwrap().unwrap();
        let state = mid_game(&v, 5);
        // The power with the most units: the slowest decision of the position.
        let power = v
            .great_powers()
            .max_by_key(|&p| state.units.iter().filter(|u| v.controls(p, u.power)).count())
            .unwrap();
        for level in [Level::Baseline, Level::Strong] {
            let mut group = c.benchmark_group(format!("{name} {}", level.as_str()));
            if level == Level::Strong {
                group.sample_size(20);
            }
            let mut seed = 0;
            group.bench_function(v.power(power).name.as_str(), |b| {
                b.iter(|| {
                    seed += 1;
                    black_box(decide(&v, &state, power, &Settings::new(level, seed)))
                })
            });
            group.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
