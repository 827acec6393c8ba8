//! Quick strength check while tuning: `cargo run --release -p chancery-bot --example arena VARIANT GAMES YEARS strong,baseline`.
use chancery_bot::selfplay::{play, seating};
use chancery_bot::{decide, Level, Settings};
use chancery_engine::builtin::builtin;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let v = builtin(&a[1]).unwrap().unwrap();
    let games: usize = a[2].parse().unwrap();
    let years: i32 = a[3].parse().unwrap();
    let kinds: Vec<Level> = a[4].split(',').map(|k| Level::parse(k).unwrap()).collect();
    let mut sum = std::collections::HashMap::<&str, (f64, usize, usize)>::new();
    let t0 = std::time::Instant::now();
    let mut times = Vec::new();
    for g in 0..games {
        let seats: Vec<_> = seating(&v, &kinds, g)
            .into_iter()
            .map(|(p, l)| (p, Settings::new(l, g as u64 * 7919 + 1)))
            .collect();
        let end = play(&v, &seats, years, |ask| {
            let t = std::time::Instant::now();
            let d = decide(&v, ask.state, ask.power, ask.settings);
            if ask.settings.level == Level::Strong && ask.state.phase.kind == chancery_engine::PhaseKind::Movement {
                times.push(t.elapsed());
            }
            d
        })
        .unwrap();
        for (p, c) in &end.centres {
            let l = seats.iter().find(|s| s.0 == *p).unwrap().1.level.as_str();
            let e = sum.entry(l).or_default();
            e.0 += *c as f64;
            e.1 += 1;
            if end.winner == Some(*p) {
                e.2 += 1;
            }
        }
        eprintln!(
            "game {g}: {:?} winner {:?} year {}",
            end.centres, end.winner, end.last_year
        );
    }
    for (k, (c, n, w)) in sum {
        println!("{k}: mean centres {:.2} over {n} seats, {w} wins", c / n as f64);
    }
    times.sort();
    if !times.is_empty() {
        println!(
            "strong decisions: median {:?}, p95 {:?}, max {:?}",
            times[times.len() / 2],
            times[times.len() * 95 / 100],
            times[times.len() - 1]
        );
    }
    println!("{:?}", t0.elapsed());
}
