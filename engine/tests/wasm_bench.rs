//! The engine benchmarks of BENCHMARKS.md, compiled to wasm and timed in headless Chromium
//! with the browser's clock: the 65,536 work-item reduction in operations per second (race
//! detection on and off), seeks in a million-step run, random schedules of message passing per
//! second, and an exhaustive exploration of SB, MP and IRIW. `cargo xtask bench` runs them (feature
//! `wasm-bench`) and reads the `wasm-bench` lines they print; each also checks the result it
//! timed, so a broken exploration cannot pass as a fast one.
//!
//! V8 compiles wasm in tiers: every function starts in the baseline compiler (Liftoff) and
//! moves to the optimising one (TurboFan), compiled in the background, once it is hot. A
//! figure taken in the first fraction of a second after loading therefore measures partly
//! baseline code and how soon the optimised code arrives, which on a loaded machine varies a
//! lot. The random-schedule test prints two figures: right after a short warm-up, as first
//! measured (`litmus_random/mp`), and after a second of exploring (`litmus_random/mp_warm`),
//! which is the throughput of a longer exploration.
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]

use interleave_engine::explore::{explore_with, Config};
use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, MemoryModel, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    /// Milliseconds since the page started, with sub-millisecond resolution.
    #[wasm_bindgen(js_namespace = performance)]
    fn now() -> f64;
}

const MP: &str = include_str!("../../static/examples/litmus/mp.litmus");
const SB: &str = include_str!("../../static/examples/litmus/sb.litmus");
const IRIW: &str = include_str!("../../static/examples/litmus/iriw.litmus");
const REDUCE: &str = include_str!("../../static/examples/reduce.cl");
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

/// The reduction of the native benchmarks over `global` work-items in groups of 256.
fn reduction(global: u64, race_detection: bool) -> Scenario {
    let input = format!("in=int[{global}]:range=0:1:ro");
    let partial = format!("partial=int[{}]", global / 256);
    let mut s = kernel(REDUCE, "reduce.cl", global, 256, &[&input, &partial, "total=int[1]"]);
    s.race_detection = race_detection;
    s
}

/// Runs a launched session to its end, checking that it completed, and returns the
/// milliseconds the run took.
fn time_run(session: &mut Session) -> f64 {
    let start = now();
    session.run(u64::MAX);
    let ms = now() - start;
    assert_eq!(session.status(), RunStatus::Completed, "the benchmark run completes");
    ms
}

/// The 65,536 work-item reduction in simulated operations per second, with the race detector
/// on and off. A smaller reduction first brings the interpreter's code to V8's optimising
/// tier; then each configuration runs twice, alternating, and the faster run of each counts
/// (the slower one is the one another process on the machine interrupted more).
#[wasm_bindgen_test]
fn reduction_operations_per_second() {
    let mut warm = Session::new(reduction(4096, true)).expect("compiles");
    time_run(&mut warm);
    let mut best = [f64::INFINITY; 2];
    let mut operations = [0u64; 2];
    for _ in 0..2 {
        for (i, detection) in [true, false].into_iter().enumerate() {
            let mut session = Session::new(reduction(65_536, detection)).expect("compiles");
            let ms = time_run(&mut session);
            best[i] = best[i].min(ms);
            operations[i] = session.operations();
        }
    }
    assert_eq!(operations[0], operations[1], "the detector does not change what runs");
    for (i, name) in ["run_only", "run_only_without_race_detection"].into_iter().enumerate() {
        console_log!(
            "wasm-bench reduction_65536/{name} ms={:.1} operations={} operations_per_s={:.0}",
            best[i],
            operations[i],
            operations[i] as f64 / (best[i] / 1000.0)
        );
    }
}

/// Seeks in a finished run of a million steps: the native benchmark's cycle of targets, and a
/// step back from each; the mean and the worst of each.
#[wasm_bindgen_test]
fn seek_in_a_million_step_run() {
    const TARGETS: [u64; 8] = [999_999, 123_457, 500_001, 750_003, 42, 999_000, 250_007, 871_111];
    const ROUNDS: usize = 4;
    let mut session = Session::new(kernel(BUSY_LOOP, "busy_loop.cl", 256, 64, &["counters=int[2]"])).expect("compiles");
    let run_ms = time_run(&mut session);
    let steps = session.steps();
    assert!(steps >= 1_000_000, "a million steps: {steps}");
    // One round untimed, so that the seek code runs optimised.
    for target in TARGETS {
        session.seek(target);
    }
    let (mut seeks, mut backs) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        for target in TARGETS {
            let start = now();
            assert_eq!(session.seek(target), target);
            seeks.push(now() - start);
            let start = now();
            assert_eq!(session.seek(target - 1), target - 1);
            backs.push(now() - start);
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let worst = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    console_log!("wasm-bench busy_loop_256/run_only ms={run_ms:.1} steps={steps}");
    console_log!("wasm-bench seek_1m/mixed ms={:.3} worst_ms={:.3}", mean(&seeks), worst(&seeks));
    console_log!("wasm-bench seek_1m/step_back ms={:.3} worst_ms={:.3}", mean(&backs), worst(&backs));
}

fn litmus(text: &str, name: &str) -> Scenario {
    let mut s = Scenario::new(text, name, Dialect::Litmus);
    s.memory_model = MemoryModel::Relaxed;
    s
}

#[wasm_bindgen_test]
fn mp_random_schedules_per_second() {
    const RUNS: u64 = 20_000;
    let scenario = litmus(MP, "mp.litmus");
    let config = Config { runs: RUNS, first_seed: 0, exhaustive: false, max_preemptions: None };
    let explore = || {
        let e = explore_with(&scenario, config).expect("mp.litmus runs");
        assert_eq!(e.runs + e.discarded, RUNS);
        assert_eq!(e.exists_observed, Some(true), "random exploration shows message passing's weak outcome");
    };
    // One warm-up exploration, then the timed one.
    let loaded = now();
    explore_with(&scenario, Config { runs: 1_000, ..config }).expect("mp.litmus runs");
    let start = now();
    explore();
    let seconds = (now() - start) / 1000.0;
    console_log!("wasm-bench litmus_random/mp schedules_per_s={:.0}", RUNS as f64 / seconds);
    // Then exploring until a second has passed (as criterion warms up natively), and five
    // timed explorations.
    const WARM_UP_MS: f64 = 1_000.0;
    const TIMED: u32 = 5;
    while now() - loaded < WARM_UP_MS {
        explore();
    }
    let start = now();
    for _ in 0..TIMED {
        explore();
    }
    let seconds = (now() - start) / 1000.0;
    console_log!("wasm-bench litmus_random/mp_warm schedules_per_s={:.0}", (RUNS * TIMED as u64) as f64 / seconds);
}

#[wasm_bindgen_test]
fn exhaustive_sb_mp_iriw() {
    const REPEAT: u32 = 20;
    let config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };
    for (name, text, weak) in [("sb", SB, true), ("mp", MP, true), ("iriw", IRIW, false)] {
        let scenario = litmus(text, name);
        explore_with(&scenario, config).expect("the litmus test runs");
        let start = now();
        for _ in 0..REPEAT {
            let e = explore_with(&scenario, config).expect("the litmus test runs");
            assert!(e.complete, "{name}: every execution covered");
            assert_eq!(e.exists_observed, Some(weak), "{name}");
        }
        let ms = (now() - start) / REPEAT as f64;
        console_log!("wasm-bench litmus_exhaustive/{name} ms={ms:.3}");
    }
}
