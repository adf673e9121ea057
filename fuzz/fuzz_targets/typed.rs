//! Executes well-typed kernels: the fuzzer's bytes are the choices of a small OpenCL C grammar
//! (the generator the engine's tests use, `engine/tests/common/generate.rs`) that picks the
//! statements, the launch, the scheduler, the seed and the memory model. Unlike `execute`,
//! whose inputs mostly stop in the parser, every input here reaches lowering and execution:
//! a generated kernel must compile (a diagnostic is a front-end bug) and its run must end
//! within its step limit, never in a panic.
//!
//! An input whose first byte is odd instead picks a kernel correct by construction (a lock,
//! barrier, message passing or compare-exchange loop in OpenCL C or CUDA, from
//! `engine/tests/common/sync_kernels.rs`) with its memory model, scheduler and seed: it must
//! run without an error finding, and end with its known result when it completes.

#![no_main]

#[path = "../../engine/tests/common/generate.rs"]
mod generate;
#[path = "../../engine/tests/common/sync_kernels.rs"]
mod sync_kernels;

use generate::Choices;
use interleave_engine::diag::Severity;
use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{MemoryModel, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::why;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.first().is_some_and(|b| b % 2 == 1) {
        correct_by_construction(&data[1..]);
        return;
    }
    let config = generate::Config { max_statements: 12, relaxed: true };
    let scenario = generate::scenario(&mut generate::Bytes(data), config);
    let limit = scenario.max_steps;
    let source = scenario.source.clone();
    let mut session = match Session::new(scenario) {
        Ok(session) => session,
        Err(diagnostics) => panic!("a well-typed kernel was refused: {diagnostics:?}\n{source}"),
    };
    session.run(u64::MAX);
    assert!(why::report(&session).steps <= limit, "the run went past its step limit");
});

/// A kernel correct by construction, under the model, scheduler and seed the bytes pick.
fn correct_by_construction(data: &[u8]) {
    let mut choices = generate::Bytes(data);
    let spec = sync_kernels::spec(&mut choices);
    let model = if choices.pick(2) == 0 { MemoryModel::Sc } else { MemoryModel::Relaxed };
    let schedulers = [SchedulerKind::Random, SchedulerKind::RoundRobin, SchedulerKind::RunToBlock, SchedulerKind::Pct, SchedulerKind::Lockstep];
    let scheduler = schedulers[choices.pick(schedulers.len() as u32) as usize];
    let mut scenario = spec.scenario(None, model, scheduler);
    scenario.seed = choices.pick(1 << 16) as u64;
    let source = scenario.source.clone();
    let mut session = match Session::new(scenario) {
        Ok(session) => session,
        Err(diagnostics) => panic!("a generated kernel was refused: {diagnostics:?}\n{source}"),
    };
    session.run(u64::MAX);
    let report = why::report(&session);
    let errors: Vec<_> = report.findings.iter().filter(|f| f.severity == Severity::Error).collect();
    assert!(errors.is_empty(), "{}: error findings on a correct kernel: {errors:?}\n{source}", spec.describe());
    if report.status == RunStatus::Completed {
        let values = report.buffers.iter().map(|b| (b.name.clone(), b.values.clone())).collect();
        assert!(spec.holds(&values), "{}: a wrong result: {values:?}\n{source}", spec.describe());
    }
}
