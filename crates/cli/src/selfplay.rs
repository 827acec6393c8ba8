//! `chancery selfplay`: whole games between bots, seats rotated, with a progress bar,
//! then a table per kind of seat: centres at the end, solo wins, eliminations and time
//! per decision. The games themselves are `chancery_bot::selfplay` (pure); this verb
//! adds the threads, the clock and the table. A refused order or bid stops the run.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chancery_bot::selfplay::{play, seating, GameEnd};
use chancery_bot::{decide, Level, Settings};
use chancery_engine::{PhaseKind, PowerId};
use indicatif::{ProgressBar, ProgressStyle};

use crate::commands::load;
use crate::output::{say, Failure};

pub struct SelfplayArgs<'a> {
    pub variant: &'a str,
    pub games: usize,
    pub years: i32,
    pub seats: &'a str,
    pub seed: u64,
    pub threads: usize,
    pub judgements: Option<u32>,
}

/// What one game left for the table.
struct Played {
    seats: Vec<(PowerId, Level)>,
    end: GameEnd,
    /// Per level: the time of each movement decision.
    times: Vec<(Level, Duration)>,
}

pub fn run(args: &SelfplayArgs) -> Result<ExitCode, Failure> {
    let v = load(args.variant)?;
    let kinds: Vec<Level> = args
        .seats
        .split(',')
        .map(|k| Level::parse(k.trim()).ok_or_else(|| format!("unknown seat `{k}`: random, baseline or strong")))
        .collect::<Result<_, _>>()?;
    if kinds.is_empty() || args.games == 0 || args.years < 1 {
        return Err("at least one seat kind, one game and one year".into());
    }
    let threads = args.threads.max(1);
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} ({eta} left) {msg}")
            .map_err(|e| e.to_string())?,
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<Played, String>)>> = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= args.games {
                    break;
                }
                let seats = seating(&v, &kinds, g);
                let settings: Vec<(PowerId, Settings)> = seats
                    .iter()
                    .map(|&(p, l)| {
                        let mut s = Settings::new(l, args.seed.wrapping_mul(1_000_003).wrapping_add(g as u64));
                        if let Some(j) = args.judgements {
                            s.judgements = j;
                        }
                        (p, s)
                    })
                    .collect();
                let mut times = Vec::new();
                let end = play(&v, &settings, args.years, |ask| {
                    let t = Instant::now();
                    let d = decide(&v, ask.state, ask.power, ask.settings);
                    if ask.state.phase.kind == PhaseKind::Movement {
                        times.push((ask.settings.level, t.elapsed()));
                    }
                    d
                });
                let failed = end.is_err();
                results.lock().unwrap().push((
                    g,
                    end.map(|end| Played { seats, end, times })
                        .map_err(|e| format!("game {g}: {e}")),
                ));
                bar.inc(1);
                if failed {
                    // Stop handing out games: the run has failed.
                    next.store(args.games, Ordering::Relaxed);
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let mut played = Vec::new();
    for (_, r) in results {
        played.push(r?);
    }
    let wall = started.elapsed();
    say!(
        "{}: {} games of up to {} years, seats {} rotated, seed {}, {} thread{}, {:.1} s",
        v.title,
        played.len(),
        args.years,
        args.seats,
        args.seed,
        threads,
        if threads == 1 { "" } else { "s" },
        wall.as_secs_f64()
    );
    say!(
        "{:<9} {:>6} {:>13} {:>9} {:>12} {:>13} {:>13}",
        "seat",
        "seats",
        "mean centres",
        "solo wins",
        "eliminated",
        "median ms",
        "p95 ms"
    );
    let mut seen = Vec::new();
    for &level in &kinds {
        if seen.contains(&level) {
            continue;
        }
        seen.push(level);
        let mut seats = 0usize;
        let mut centres = 0usize;
        let mut wins = 0usize;
        let mut eliminated = 0usize;
        let mut times: Vec<Duration> = Vec::new();
        for p in &played {
            for &(power, _) in p.seats.iter().filter(|s| s.1 == level) {
                seats += 1;
                centres += p.end.centres.iter().find(|c| c.0 == power).map_or(0, |c| c.1);
                wins += (p.end.winner == Some(power)) as usize;
                eliminated += p.end.eliminated.contains(&power) as usize;
            }
            times.extend(p.times.iter().filter(|t| t.0 == level).map(|t| t.1));
        }
        times.sort();
        let pct = |q: f64| {
            times
                .get(((times.len() as f64 * q).ceil() as usize).saturating_sub(1))
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        say!(
            "{:<9} {:>6} {:>13.2} {:>9} {:>12} {:>13.2} {:>13.2}",
            level.as_str(),
            seats,
            centres as f64 / seats.max(1) as f64,
            format!("{wins} ({:.0}%)", 100.0 * wins as f64 / played.len().max(1) as f64),
            eliminated,
            pct(0.5),
            pct(0.95)
        );
    }
    say!(
        "games ended by victory: {} of {}; time per game {:.2} s on average",
        played.iter().filter(|p| p.end.winner.is_some()).count(),
        played.len(),
        wall.as_secs_f64() * threads as f64 / played.len().max(1) as f64
    );
    Ok(ExitCode::SUCCESS)
}
