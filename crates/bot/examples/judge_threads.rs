//! The engine judging on one thread and on two, without Python: 2,000 Standard phases
//! from random play, handed out from a shared counter as `process_many` does, the thread
//! counts alternating round by round. It tells what the machine's cores give the judge,
//! the figure `process_many`'s gain is read against (crates/python/README.md).
//!
//!     cargo run --release -p chancery-bot --example judge_threads

use chancery_bot::{decide, Level, Settings};
use chancery_engine::adjudicate::Judge;
use chancery_engine::builtin::builtin;
use chancery_engine::phase::judge_phase_with;
use chancery_engine::{GameState, Order};
use std::time::Instant;

fn main() {
    let v = builtin("standard").unwrap().unwrap();
    // Twenty games of random orders, 25 phases each, judged four times over.
    let mut jobs: Vec<(GameState, Vec<Order>)> = Vec::new();
    for g in 0..20u64 {
        let mut s = GameState::initial(&v);
        for ph in 0..25u64 {
            let mut orders = Vec::new();
            for p in 0..7 {
                let d = decide(&v, &s, p, &Settings::new(Level::Random, g * 1000 + ph * 10 + p as u64));
                orders.extend(d.orders);
            }
            let r = chancery_engine::judge_phase(&v, &s, &orders, &[]);
            jobs.push((s.clone(), orders));
            s = r.next().clone();
        }
    }
    let jobs: Vec<_> = std::iter::repeat_n(jobs, 4).flatten().collect();
    for round in 0..6 {
        for threads in if round % 2 == 0 { [1, 2] } else { [2, 1] } {
            let t = Instant::now();
            let next = std::sync::atomic::AtomicUsize::new(0);
            std::thread::scope(|sc| {
                for _ in 0..threads {
                    sc.spawn(|| {
                        let mut j = Judge::new();
                        let mut keep = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some((s, o)) = jobs.get(i) else { break };
                            keep.push(judge_phase_with(&v, s, o, &[], &mut j));
                        }
                        keep.len()
                    });
                }
            });
            println!(
                "threads {threads}: {:.2} µs per phase",
                t.elapsed().as_secs_f64() * 1e6 / jobs.len() as f64
            );
        }
    }
}
