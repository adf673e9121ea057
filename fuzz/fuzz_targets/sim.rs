//! Reads arbitrary text as an Oclgrind simulation file (`.sim`) and, when it is one, builds its
//! scenario from the kernel source given after the first NUL byte and runs it briefly: the
//! reader, the argument binding and the launch checks must end in diagnostics or a report,
//! never a panic, and within the engine's resource limits (a file may ask for any sizes).

#![no_main]

use interleave_engine::session::Session;
use interleave_engine::why;
use interleave_engine::sim;
use libfuzzer_sys::fuzz_target;

/// Small enough that libFuzzer's one-second timeout flags a hang, not a long but legal run.
const STEPS: u64 = 2000;
/// Likewise for the launch: a file or link may legally ask for millions of work-items, whose
/// launch takes longer than the timeout under the sanitizer (the first `sim` run found one of
/// 105,450, `engine/tests/data/robustness/sim/`). Above this, the launch is refused with the
/// work-items limit's diagnostic, which is what the target then checks.
const WORK_ITEMS: u64 = 4096;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The seeds are a `.sim` file, a NUL byte and the kernel it names, so that mutations reach
    // both the reader and the binding of its arguments to a real kernel's parameters.
    let (sim_text, source) = text.split_once('\0').unwrap_or((text, ""));
    let Ok(file) = sim::parse(sim_text) else {
        return;
    };
    let Ok((mut scenario, _dumped)) = sim::scenario(&file, source.to_string(), "fuzz.cl".into()) else {
        return;
    };
    scenario.max_steps = STEPS;
    scenario.max_instructions_per_step = 20_000;
    scenario.max_work_items = WORK_ITEMS;
    if let Ok(mut session) = Session::new(scenario) {
        session.run(STEPS);
        let _ = why::report(&session);
    }
});
