//! The movement path allocates nothing per phase once warmed up ("no heap
//! allocation per phase in the hot loop", and the whole `adjudicate` path, not only the
//! resolver: an allocation per phase is what makes thousands of phases a second slow). A counting global allocator counts the allocations this
//! thread makes while a `Judge` validates, resolves and explains each phase and builds
//! the next position, and while `Resolver::load` and `Resolver::run` adjudicate
//! pre-converted commands, after the buffers have grown to the largest phase of the
//! workload.

use std::alloc::{GlobalAlloc, Layout, System};
use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};

use chancery_bench::workload::standard_workload;
use chancery_engine::adjudicate::Judge;
use chancery_engine::movement::Resolver;

struct Counting;

thread_local! {
    // Only the measuring thread counts: the test harness allocates on other threads.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    // Per thread too: the tests run in parallel, each counting its own work.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    // When set, each counted allocation also records where it came from, so that a
    // failure names the engine's file and line. Recording allocates itself, hence the
    // guard against counting its own allocations.
    static TRACING: Cell<bool> = const { Cell::new(false) };
    static IN_TRACE: Cell<bool> = const { Cell::new(false) };
    static TRACES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn note() {
    if !COUNTING.with(Cell::get) || IN_TRACE.with(Cell::get) {
        return;
    }
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
    if TRACING.with(Cell::get) {
        IN_TRACE.with(|c| c.set(true));
        let trace = engine_frames(&Backtrace::force_capture().to_string());
        TRACES.with(|t| t.borrow_mut().push(trace));
        IN_TRACE.with(|c| c.set(false));
    }
}

/// The frames of a backtrace that are in the engine crate, with their file:line.
fn engine_frames(trace: &str) -> String {
    let lines: Vec<&str> = trace.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.contains("chancery_engine::") {
            out.push(line.trim().to_string());
            if let Some(at) = lines.get(i + 1).filter(|l| l.trim_start().starts_with("at ")) {
                out.push(format!("    {}", at.trim()));
            }
        }
    }
    out.join("\n")
}

// SAFETY: every call is passed straight to the system allocator; counting touches
// only const-initialised thread-locals, and the optional trace is
// guarded so that its own allocations are not traced again.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_allocations() {
    let n = allocations_in(|| {
        std::hint::black_box(vec![1u8; 64]);
    });
    assert_eq!(n, 1);
}

/// Runs `phase` on every set once cold (it must allocate, or the counter is blind),
/// once to warm up, then counts; fails naming the engine's lines that allocated.
fn assert_warm_phases_allocate_nothing(what: &str, sets: usize, mut phase: impl FnMut(usize)) {
    let cold = allocations_in(|| phase(0));
    assert!(cold > 0, "{what}: a fresh instance should allocate its buffers");
    // Warm-up: every phase once, so the buffers reach the largest size any needs.
    for k in 0..sets {
        phase(k);
    }
    let mut allocating = Vec::new();
    for k in 0..sets {
        let n = allocations_in(|| phase(k));
        if n > 0 {
            allocating.push((k, n));
        }
    }
    if let Some(&(k, _)) = allocating.first() {
        // Run the first offender again with tracing on to say where the engine allocates.
        TRACING.with(|c| c.set(true));
        allocations_in(|| phase(k));
        TRACING.with(|c| c.set(false));
        let traces = TRACES.with(|t| t.borrow().join("\n--\n"));
        panic!(
            "{what}: {} of {sets} warmed-up phases allocated (set index, allocations): {:?}\nwhere set {k} allocates:\n{traces}",
            allocating.len(),
            &allocating[..allocating.len().min(10)]
        );
    }
}

#[test]
fn a_warmed_up_resolver_adjudicates_without_allocating() {
    let w = standard_workload();
    let v = &w.variant;
    let sets: Vec<_> = w.opening.iter().chain(&w.midgame).collect();
    let mut r = Resolver::new();
    assert_warm_phases_allocate_nothing("resolver", sets.len(), |k| {
        r.load(v, w.state(sets[k]), &sets[k].commands);
        r.run(v);
    });
}

/// The whole path from orders to results and the next position: validation (with the
/// convoy route searches), assignment, resolution, outcomes, retreat options, and the
/// advance past empty retreat phases and the Fall's ownership and victory checks.
#[test]
fn a_warmed_up_judge_adjudicates_without_allocating() {
    let w = standard_workload();
    let v = &w.variant;
    let sets: Vec<_> = w.opening.iter().chain(&w.midgame).collect();
    let mut judge = Judge::new();
    assert_warm_phases_allocate_nothing("judge", sets.len(), |k| {
        std::hint::black_box(judge.adjudicate(v, w.state(sets[k]), &sets[k].orders));
    });
}
