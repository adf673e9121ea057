//! Reads arbitrary text as a litmus test and, when it is one, explores it exhaustively under
//! the relaxed memory model within a small budget: the reader, the translation, promises and
//! the explorer must end in a diagnostic or an exploration, never a panic, and quickly.

#![no_main]

use interleave_engine::explore::{Config, Explorer};
use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};
use libfuzzer_sys::fuzz_target;

/// Executions and steps per execution: small enough for libFuzzer's one-second timeout.
const EXECUTIONS: u64 = 64;
const STEPS: u64 = 500;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut scenario = Scenario::new(text, "fuzz.litmus", Dialect::Litmus);
    scenario.memory_model = MemoryModel::Relaxed;
    scenario.max_steps = STEPS;
    scenario.max_instructions_per_step = 20_000;
    let config = Config { runs: EXECUTIONS, first_seed: 0, exhaustive: true, max_preemptions: None };
    if let Ok(mut explorer) = Explorer::new(&scenario, config) {
        let _ = explorer.advance(EXECUTIONS);
        let _ = explorer.result();
    }
});
