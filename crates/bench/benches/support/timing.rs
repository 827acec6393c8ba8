//! Per-phase medians for the summary lines. Criterion reports the mean over its samples
//! of runs through the sets; the target is the median movement phase, so here
//! every phase is timed on its own and the median taken over the sets.

use std::time::{Duration, Instant};

/// Median over the sets of each set's median time. The sets are visited in turn,
/// `rounds` times, so no set runs twice in a row (a repeat would find its data in cache
/// and its branches learnt, flattering both engines). `prepare(i)` makes a run's input
/// outside the clock.
pub fn median_per_set<T>(
    sets: usize,
    rounds: usize,
    mut prepare: impl FnMut(usize) -> T,
    mut run: impl FnMut(usize, T),
) -> Duration {
    let mut per_set: Vec<Vec<Duration>> = vec![Vec::with_capacity(rounds); sets];
    // One untimed pass warms up code paths and the engines' reusable buffers.
    for i in 0..sets {
        run(i, prepare(i));
    }
    for _ in 0..rounds {
        for (i, times) in per_set.iter_mut().enumerate() {
            let input = prepare(i);
            let start = Instant::now();
            run(i, input);
            times.push(start.elapsed());
        }
    }
    let mut medians: Vec<Duration> = per_set.iter_mut().map(|t| median(t)).collect();
    median(&mut medians)
}

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
