//! The threads CPU-heavy work runs on, away from the async runtime, so that one
//! request's work (shaping an uploaded map, drawing a map, checking a variant file,
//! hashing a password) can never hold up the requests that only read and write the
//! database, `/api/health` first of all.
//!
//! A [`Pool`] has a fixed set of worker threads and bounded queues. When a queue is full
//! the work is refused at once ([`JobError::Busy`]: 503 with `Retry-After`) instead of
//! piling up; a request waits at most its time budget for the answer
//! ([`JobError::Late`]: 503 with `Retry-After`). A thread cannot be stopped part way, so
//! a job that outlives its budget runs to its end (the size limits on variant files
//! bound how long that is) and its result is dropped, or kept where the job keeps it
//! (a map's drawing, `services::maps`). A queued job whose requester has given up is
//! skipped.
//!
//! Jobs are quick (drawing a position, a password) or heavy (shaping a map, checking a
//! variant file); heavy jobs may hold at most `heavy_slots` of the workers, so that with
//! every heavy slot taken the others still draw the maps of ordinary games.
//!
//! Hand-written rather than `rayon` or `threadpool`: neither refuses work when it is
//! behind, and neither keeps a worker free of the slow kind of job.

use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use axum::http::StatusCode;

use crate::error::ApiError;

/// How long a job may take; the kind of queue it waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weight {
    Quick,
    Heavy,
}

/// Why a job gave no answer.
#[derive(Debug, PartialEq, Eq)]
pub enum JobError {
    /// Its queue was full: nothing was started.
    Busy,
    /// Not done within the budget.
    Late,
    /// It panicked (a bug; logged).
    Failed,
}

type Task = Box<dyn FnOnce() + Send>;

struct Queues {
    quick: VecDeque<Task>,
    heavy: VecDeque<Task>,
    heavy_running: usize,
    stopping: bool,
}

struct Shared {
    queues: Mutex<Queues>,
    work: Condvar,
    heavy_slots: usize,
    capacity: usize,
}

/// A fixed set of worker threads with two bounded queues (see the module's note).
pub struct Pool {
    name: &'static str,
    shared: Arc<Shared>,
    /// What a refused or late request is told to wait before trying again, in seconds.
    pub retry_after: u64,
}

impl Pool {
    /// `workers` threads named `chancery-NAME`; heavy jobs on at most `heavy_slots` of
    /// them; each queue holds at most `capacity` waiting jobs.
    pub fn new(name: &'static str, workers: usize, heavy_slots: usize, capacity: usize, retry_after: u64) -> Pool {
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues {
                quick: VecDeque::new(),
                heavy: VecDeque::new(),
                heavy_running: 0,
                stopping: false,
            }),
            work: Condvar::new(),
            heavy_slots: heavy_slots.clamp(1, workers.max(1)),
            capacity,
        });
        for i in 0..workers.max(1) {
            let shared = shared.clone();
            // A worker that cannot start leaves the others; with none, jobs are refused
            // as late rather than lost silently.
            let _ = std::thread::Builder::new()
                .name(format!("chancery-{name}-{i}"))
                .spawn(move || work(&shared));
        }
        Pool {
            name,
            shared,
            retry_after,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queues> {
        self.shared.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn push(&self, weight: Weight, task: Task) -> Result<(), JobError> {
        let mut q = self.lock();
        let queue = match weight {
            Weight::Quick => &mut q.quick,
            Weight::Heavy => &mut q.heavy,
        };
        if queue.len() >= self.shared.capacity {
            return Err(JobError::Busy);
        }
        queue.push_back(task);
        drop(q);
        self.shared.work.notify_all();
        Ok(())
    }

    /// Runs `job` on a worker and waits for its result at most `budget`.
    pub async fn run<T: Send + 'static>(
        &self,
        weight: Weight,
        budget: Duration,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, JobError> {
        let (done, answer) = tokio::sync::oneshot::channel();
        let name = self.name;
        self.push(
            weight,
            Box::new(move || {
                if done.is_closed() {
                    return; // nobody waits for it any more
                }
                let _ = done.send(catch(name, job));
            }),
        )?;
        match tokio::time::timeout(budget, answer).await {
            Ok(Ok(Some(value))) => Ok(value),
            Ok(Ok(None)) | Ok(Err(_)) => Err(JobError::Failed),
            Err(_) => Err(JobError::Late),
        }
    }

    /// Queues `job` to run whether or not anyone waits for it (it keeps its own result).
    pub fn detach(&self, weight: Weight, job: impl FnOnce() + Send + 'static) -> Result<(), JobError> {
        let name = self.name;
        self.push(
            weight,
            Box::new(move || {
                catch(name, job);
            }),
        )
    }

    /// The answer for a job that gave none: 503 with `Retry-After` when the pool is
    /// behind, 500 when the job failed. `what` says what the job was for.
    pub fn refusal(&self, e: JobError, what: &str) -> ApiError {
        match e {
            JobError::Busy => ApiError::unavailable(format!(
                "the server is busy {what}; try again in {} seconds",
                self.retry_after
            ))
            .retry_after(self.retry_after),
            JobError::Late => ApiError::unavailable(format!(
                "{what} is taking longer than the server waits for; try again in {} seconds",
                self.retry_after
            ))
            .retry_after(self.retry_after),
            JobError::Failed => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("{what} failed")),
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.lock().stopping = true;
        self.shared.work.notify_all();
    }
}

/// Runs `job`, turning a panic into `None` (and a line in the log).
fn catch<T>(pool: &str, job: impl FnOnce() -> T) -> Option<T> {
    match std::panic::catch_unwind(AssertUnwindSafe(job)) {
        Ok(v) => Some(v),
        Err(_) => {
            tracing::error!("a job on the {pool} pool panicked");
            None
        }
    }
}

/// A worker: quick jobs first; a heavy job only while a heavy slot is free.
fn work(shared: &Shared) {
    let mut q = shared.queues.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if q.stopping {
            return;
        }
        if let Some(task) = q.quick.pop_front() {
            drop(q);
            task();
            q = shared.queues.lock().unwrap_or_else(|e| e.into_inner());
        } else if q.heavy_running < shared.heavy_slots && !q.heavy.is_empty() {
            let task = q.heavy.pop_front().expect("checked non-empty");
            q.heavy_running += 1;
            drop(q);
            task();
            q = shared.queues.lock().unwrap_or_else(|e| e.into_inner());
            q.heavy_running -= 1;
            // A heavy slot is free again: a worker may be waiting for it.
            shared.work.notify_all();
        } else {
            q = shared.work.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Makes glibc's malloc map every block of 1 MiB or more on its own and unmap it when
/// freed. By default glibc raises that threshold to the size of the largest block freed
/// so far, so argon2id's 19 MiB per password hash comes from the heaps of up to eight
/// arenas per core and stays there: 64 logins at once took the server from 20 to 450
/// MiB, kept after the flood. With the fixed threshold the same flood peaks at about 60
/// MiB and goes back to 22 MiB (measured with `tests/heavy_work.rs`).
pub fn give_back_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; any value is accepted or
    // refused (returning 0), and it is called before the server's threads start.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1024 * 1024);
    }
}

/// The worker count for CPU-bound work: one per core the process may use.
pub fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn a_full_queue_refuses_and_quick_work_passes_heavy() {
        let pool = Pool::new("test", 2, 1, 2, 1);
        let (release, hold) = std::sync::mpsc::channel::<()>();
        let hold = Arc::new(Mutex::new(hold));
        // One heavy job holds the only heavy slot until released ...
        let h = hold.clone();
        pool.detach(Weight::Heavy, move || {
            let _ = h.lock().unwrap().recv();
        })
        .unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        // ... two more wait for it, and a third is refused.
        let ran = Arc::new(AtomicUsize::new(0));
        for _ in 0..2 {
            let ran = ran.clone();
            pool.detach(Weight::Heavy, move || {
                ran.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(pool.detach(Weight::Heavy, || ()), Err(JobError::Busy));
        // The other worker still takes quick work.
        let answer = pool.run(Weight::Quick, Duration::from_secs(5), || 6 * 7).await;
        assert_eq!(answer, Ok(42));
        // A quick job that outlives its budget is late; a panicking one failed.
        let late = pool
            .run(Weight::Quick, Duration::from_millis(10), || {
                std::thread::sleep(Duration::from_millis(200))
            })
            .await;
        assert_eq!(late, Err(JobError::Late));
        let failed = pool
            .run(Weight::Quick, Duration::from_secs(5), || panic!("a bug"))
            .await;
        assert_eq!(failed, Err::<(), _>(JobError::Failed));
        release.send(()).unwrap();
        let refused = pool.refusal(JobError::Busy, "drawing maps");
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        for _ in 0..100 {
            if ran.load(Ordering::SeqCst) == 2 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the queued heavy jobs did not run");
    }
}
