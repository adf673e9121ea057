//! The memory figures of BENCHMARKS.md in headless Chromium: a launch of 1,048,576 work-items
//! (the target is 256 MB of wasm memory), then the history a million-step run keeps for
//! seeking (the target is 64 MB). A file of its own, so that it runs in a fresh page: the
//! wasm memory never shrinks, so its size after the launch is that of the launch alone.
//! `cargo xtask bench` runs it (feature `wasm-bench`) and reads the `wasm-bench` lines.
//!
//! The wasm memory size is what the tab pays; the counting allocator says how much of it the
//! engine holds live, and the most it held at once.
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]

use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use wasm_bindgen_test::*;

// The counting allocator, shared with the native memory benchmark.
#[path = "common/counting.rs"]
mod counting;

wasm_bindgen_test_configure!(run_in_browser);

const VECTOR_ADD: &str = include_str!("../benches/vector_add.cl");
const BUSY_LOOP: &str = include_str!("../benches/busy_loop.cl");

fn kernel(source: &str, file_name: &str, global: u64, local: u64, args: &[&str]) -> Scenario {
    let mut s = Scenario::new(source, file_name, Dialect::OpenCl);
    s.launch.global = vec![global];
    s.launch.local = Some(vec![local]);
    s.args = args.iter().map(|a| ArgBinding::parse(a).expect("valid benchmark argument")).collect();
    s.scheduler = SchedulerKind::Random;
    s.max_steps = 10_000_000;
    s
}

/// The size of the wasm memory, in bytes (64 KiB pages).
fn wasm_memory() -> usize {
    core::arch::wasm32::memory_size(0) * 65_536
}

#[wasm_bindgen_test]
fn launch_of_a_million_work_items_and_history_of_a_million_steps() {
    const N: u64 = 1 << 20;
    let (memory_before, live_before) = (wasm_memory(), counting::live());
    counting::reset_peak();
    let mut session =
        Session::new(kernel(VECTOR_ADD, "vector_add.cl", N, 256, &["a=float[1048576]:range=0:1:ro", "b=float[1048576]:fill=1:ro", "c=float[1048576]"]))
            .expect("a million work-items launch");
    assert_eq!(session.work_item_count() as u64, N);
    // A few steps, so that the launch is a running one (its first work-group started).
    assert_eq!(session.run(1000), 1000);
    console_log!(
        "wasm-bench launch_1m work_items={N} wasm_memory_bytes={} memory_before_bytes={memory_before} live_bytes={} peak_bytes={}",
        wasm_memory(),
        counting::live() - live_before,
        counting::peak() - live_before,
    );
    drop(session);

    let mut session = Session::new(kernel(BUSY_LOOP, "busy_loop.cl", 256, 64, &["counters=int[2]"])).expect("compiles");
    let launched = counting::live();
    session.run(u64::MAX);
    assert_eq!(session.status(), RunStatus::Completed);
    assert!(session.steps() >= 1_000_000, "{}", session.steps());
    let history = counting::live() - launched;
    let steps = session.steps();
    session.seek(0);
    let after_seek = counting::live() - launched;
    console_log!("wasm-bench history_1m steps={steps} history_bytes={history} history_after_seek_bytes={after_seek} wasm_memory_bytes={}", wasm_memory());
}
