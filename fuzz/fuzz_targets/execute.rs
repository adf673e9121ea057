//! Compiles, launches and runs arbitrary text as a kernel over four work-items in two groups:
//! whatever the kernel does, the run must end in findings and a report, never a panic, and
//! within its step budget.

#![no_main]

use interleave_engine::scenario::{Dialect, Scenario};
use interleave_engine::session::Session;
use interleave_engine::why;
use libfuzzer_sys::fuzz_target;

/// Small enough that libFuzzer's one-second timeout flags a hang, not a long but legal run.
const STEPS: u64 = 2000;

fuzz_target!(|data: &[u8]| {
    // The engine takes text; the CLI and the app refuse other bytes before they reach it.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut scenario = Scenario::new(text, "fuzz.cl", Dialect::OpenCl);
    // Two groups of two: enough for barriers, local memory and races within and across groups.
    scenario.launch.global = vec![4];
    scenario.launch.local = Some(vec![2]);
    scenario.max_steps = STEPS;
    // An endless private loop must stop well inside libFuzzer's one-second timeout.
    scenario.max_instructions_per_step = 20_000;
    if let Ok(mut session) = Session::new(scenario) {
        session.run(STEPS);
        let _ = why::report(&session);
    }
});
