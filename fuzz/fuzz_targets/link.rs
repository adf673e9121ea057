//! Decodes arbitrary text as a share link and, when it is one, opens its scenario and runs it
//! briefly: the decoder (size bounds, base64url, inflating, JSON schema) and everything a link
//! can set must end in a diagnostic or a report, never a panic, and within the engine's
//! resource limits, whatever sizes the link asks for.

#![no_main]

use interleave_engine::link;
use interleave_engine::session::Session;
use interleave_engine::why;
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
    let Ok(decoded) = link::decode(text) else {
        return;
    };
    // A decoded link must encode to a link that decodes to the same scenario and view.
    let again = link::decode(&link::encode(&decoded)).expect("an encoded link decodes");
    assert_eq!(again, decoded, "a link changed on its way through encode and decode");
    let mut scenario = decoded.scenario;
    scenario.max_steps = scenario.max_steps.min(STEPS);
    scenario.max_instructions_per_step = scenario.max_instructions_per_step.min(20_000);
    scenario.max_work_items = scenario.max_work_items.min(WORK_ITEMS);
    if let Ok(mut session) = Session::new(scenario) {
        session.run(STEPS);
        let _ = why::report(&session);
    }
});
