//! Per-phase medians for the summary lines. Criterion reports the mean over its samples
//! of runs through the sets; the targets the README states are for the median movement phase, so here
//! every phase is timed on its own and the median taken over the sets. No set runs
//! twice in a row (a repeat would find its data in cache and its branches learnt,
//! flattering every engine).

use std::time::Duration;

pub fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    let n = times.len();
    if n == 0 {
        return Duration::ZERO;
    }
    if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

/// Microseconds with one decimal, as the summary prints them.
pub fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

/// Medians of several engines on the same sets, measured interleaved: each set runs
/// on every engine in turn before the next set, the engine that goes first rotating
/// from set to set, so that a change in the machine's load during the run (it is
/// shared) falls on all engines alike. Each engine times itself (`Instant` around the
/// work only, its inputs prepared outside). Returns, per engine, the median over the
/// sets of each set's median time.
pub fn interleaved(sets: usize, rounds: usize, engines: &mut [&mut dyn FnMut(usize) -> Duration]) -> Vec<Duration> {
    let k = engines.len();
    // times[set][engine]: one time per round.
    let mut times: Vec<Vec<Vec<Duration>>> = vec![vec![Vec::with_capacity(rounds); k]; sets];
    // One untimed pass warms up code paths and the engines' reusable buffers.
    for i in 0..sets {
        for e in engines.iter_mut() {
            e(i);
        }
    }
    for _ in 0..rounds {
        for (i, per_engine) in times.iter_mut().enumerate() {
            for j in 0..k {
                let e = (i + j) % k;
                per_engine[e].push(engines[e](i));
            }
        }
    }
    (0..k)
        .map(|e| {
            let mut medians: Vec<Duration> = times.iter_mut().map(|per_engine| median(&mut per_engine[e])).collect();
            median(&mut medians)
        })
        .collect()
}
