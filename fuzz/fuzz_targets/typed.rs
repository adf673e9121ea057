//! Executes well-typed kernels: the fuzzer's bytes are the choices of a small OpenCL C grammar
//! (the generator the engine's tests use, `engine/tests/common/generate.rs`) that picks the
//! statements, the launch, the scheduler, the seed and the memory model. Unlike `execute`,
//! whose inputs mostly stop in the parser, every input here reaches lowering and execution:
//! a generated kernel must compile (a diagnostic is a front-end bug) and its run must end
//! within its step limit, never in a panic.

#![no_main]

#[path = "../../engine/tests/common/generate.rs"]
mod generate;

use interleave_engine::session::Session;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let config = generate::Config { max_statements: 12, relaxed: true };
    let scenario = generate::scenario(&mut generate::Bytes(data), config);
    let limit = scenario.max_steps;
    let source = scenario.source.clone();
    let mut session = match Session::new(scenario) {
        Ok(session) => session,
        Err(diagnostics) => panic!("a well-typed kernel was refused: {diagnostics:?}\n{source}"),
    };
    session.run(u64::MAX);
    assert!(session.report().steps <= limit, "the run went past its step limit");
});
