//! The reduction of BENCHMARKS.md as a bare wasm module, for profiling the engine's wasm in V8
//! outside the browser (BENCHMARKS.md, "Profiling the wasm build" says how): the browser adds
//! nothing to the engine's time but makes `perf` hard to point at it, while Node runs the same
//! V8 with its map of compiled code for `perf`. The module imports nothing and exports two
//! functions, so any wasm host drives it: `launch(work_items)` makes the session (groups of 256,
//! race detection on, the random scheduler, seed 0) and `run()` runs it to its end and returns
//! its simulated operations.

use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use std::cell::RefCell;

const REDUCE: &str = include_str!("../../static/examples/reduce.cl");

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// The benchmarks' reduction over `work_items` work-items (a multiple of 256).
fn reduction(work_items: u64) -> Scenario {
    let mut s = Scenario::new(REDUCE, "reduce.cl", Dialect::OpenCl);
    s.launch.global = vec![work_items];
    s.launch.local = Some(vec![256]);
    let input = format!("in=int[{work_items}]:range=0:1:ro");
    let partial = format!("partial=int[{}]", work_items / 256);
    s.args = [input.as_str(), partial.as_str(), "total=int[1]"].iter().map(|a| ArgBinding::parse(a).expect("a valid argument")).collect();
    s.scheduler = SchedulerKind::Random;
    s.max_steps = 10_000_000;
    s
}

/// Launches the reduction over `work_items` work-items, replacing the session before.
#[unsafe(no_mangle)]
pub extern "C" fn launch(work_items: u32) {
    let session = Session::new(reduction(u64::from(work_items))).expect("the reduction compiles and launches");
    SESSION.with(|s| *s.borrow_mut() = Some(session));
}

/// Runs the launched session to its end; its simulated operations (0 with none launched).
#[unsafe(no_mangle)]
pub extern "C" fn run() -> u64 {
    SESSION.with(|s| {
        s.borrow_mut().as_mut().map_or(0, |session| {
            session.run(u64::MAX);
            session.operations()
        })
    })
}
