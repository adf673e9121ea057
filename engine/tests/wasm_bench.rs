//! The exploration benchmarks of BENCHMARKS.md, compiled to wasm and timed in headless
//! Chromium with the browser's clock: random schedules of message passing per second, and an
//! exhaustive exploration of SB, MP and IRIW. `cargo xtask bench` runs them (feature
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
use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};
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
