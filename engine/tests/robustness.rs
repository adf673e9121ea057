//! Broken input never panics: thousands of mutations of real kernels go through compile and
//! a bounded run, and each ends in diagnostics or a report; generated well-typed kernels all
//! compile and end within their limits; and every input the fuzzers found
//! (`tests/data/robustness/<target>/*.fuzz`, the bytes as saved) runs through the same
//! harness as its fuzz target to the outcome in the `.expected` file beside it.

mod common;

use interleave_engine::scenario::{ArgBinding, Dialect, Scenario};
use interleave_engine::session::Session;
use interleave_engine::why;

const SOURCES: [&str; 3] = [
    include_str!("../../static/examples/count.cl"),
    include_str!("../../tests/data/run/helpers_and_loops.cl"),
    include_str!("../../tests/data/run/barrier_divergence.cl"),
];

/// Fragments a mutation may insert: the tokens most likely to reach unusual paths.
const FRAGMENTS: [&str; 24] = [
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    "*",
    "&",
    "/",
    "%",
    "0",
    "-1",
    "9999999999",
    "int",
    "__local",
    "barrier(CLK_LOCAL_MEM_FENCE);",
    "return;",
    "while(1)",
    "x",
    "\"",
    "'",
    "/*",
    "ulong",
];

/// A tiny deterministic generator; the test needs variety, not quality.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

fn mutate(source: &str, rng: &mut Lcg) -> String {
    let mut text = source.to_string();
    for _ in 0..1 + rng.below(3) {
        let mut at = rng.below(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        match rng.below(3) {
            0 => {
                let mut end = (at + 1 + rng.below(8)).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                text.replace_range(at..end, "");
            }
            _ => text.insert_str(at, FRAGMENTS[rng.below(FRAGMENTS.len())]),
        }
    }
    text
}

#[test]
fn mutated_kernels_give_diagnostics_or_reports_never_panics() {
    let mut rng = Lcg(2026);
    let mut ran = 0;
    for i in 0..3000 {
        let source = mutate(SOURCES[i % SOURCES.len()], &mut rng);
        let mut scenario = Scenario::new(source.clone(), "m.cl", Dialect::OpenCl);
        scenario.launch.global = vec![8];
        scenario.launch.local = Some(vec![4]);
        scenario.args = ["ids=int[8]", "counters=int[2]", "out=int[8]", "sums=long[8]"]
            .iter()
            .filter_map(|a| ArgBinding::parse(a).ok())
            .filter(|a| source.contains(&a.name))
            .collect();
        scenario.max_steps = 2000;
        if let Ok(mut session) = Session::new(scenario) {
            session.run(2000);
            let report = why::report(&session);
            assert!(report.steps <= 2000);
            ran += 1;
        }
    }
    assert!(ran > 100, "only {ran} mutants ran; the mutations are too destructive to exercise execution");
}

#[test]
fn generated_kernels_compile_and_run_within_their_limits() {
    // Every sentence of the generator's grammar is well typed: a diagnostic here is a front-end
    // bug (or a grammar bug), and a run must end within its step limit whatever it does.
    for seed in 0..400u64 {
        let scenario = common::generate::scenario(&mut common::generate::Lcg(seed), common::generate::Config::default());
        let source = scenario.source.clone();
        let limit = scenario.max_steps;
        let mut session = match Session::new(scenario) {
            Ok(session) => session,
            Err(diagnostics) => panic!("generated kernel {seed} does not compile: {diagnostics:?}\n{source}"),
        };
        session.run(u64::MAX);
        assert!(why::report(&session).steps <= limit, "generated kernel {seed} ran past its step limit");
    }
}

/// Runs one fuzz input as the target `target` does (`fuzz/fuzz_targets/<target>.rs`, with the
/// same bounds) and describes how it ended. Native only, like the test that uses it.
#[cfg(not(target_arch = "wasm32"))]
fn fuzz_outcome(target: &str, data: &[u8]) -> String {
    if target == "typed" {
        return typed_outcome(data);
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return "not UTF-8: skipped, as the target does\n".into();
    };
    let scenario = match target {
        "sim" => {
            let (sim_text, source) = text.split_once('\0').unwrap_or((text, ""));
            let file = match interleave_engine::sim::parse(sim_text) {
                Ok(file) => file,
                Err(d) => return format!("sim file refused: {} {}\n", d.code, d.message),
            };
            match interleave_engine::sim::scenario(&file, source.to_string(), "fuzz.cl".into()) {
                Ok((mut scenario, _)) => {
                    scenario.max_work_items = 4096;
                    scenario
                }
                Err(d) => return format!("scenario refused: {}\n", d.iter().map(|d| format!("{} {}", d.code, d.message)).collect::<Vec<_>>().join("; ")),
            }
        }
        "link" => match interleave_engine::link::decode(text) {
            Ok(link) => {
                let mut scenario = link.scenario;
                scenario.max_work_items = scenario.max_work_items.min(4096);
                scenario
            }
            Err(d) => return format!("link refused: {} {}\n", d.code, d.message),
        },
        other => panic!("no harness for fuzz target `{other}`"),
    };
    let mut scenario = scenario;
    scenario.max_steps = scenario.max_steps.min(2000);
    scenario.max_instructions_per_step = scenario.max_instructions_per_step.min(20_000);
    match Session::new(scenario) {
        Ok(mut session) => {
            session.run(2000);
            let report = why::report(&session);
            let kinds: Vec<String> = report.findings.iter().map(|f| format!("{:?}", f.kind)).collect();
            format!("ran: {:?} after {} steps; findings: {}\n", report.status, report.steps, kinds.join(", "))
        }
        Err(d) => format!("launch refused: {}\n", d.iter().map(|d| format!("{} {}", d.code, d.message)).collect::<Vec<_>>().join("; ")),
    }
}

/// How an input of the `typed` target ends, run as that target runs it: its bytes are the
/// choices of the generator's grammar (a kernel correct by construction when the first byte is
/// odd), with no bounds but the generated scenario's own, and the report is the full one
/// (`why::report`), explanations and all.
#[cfg(not(target_arch = "wasm32"))]
fn typed_outcome(data: &[u8]) -> String {
    use common::generate;
    use interleave_engine::scenario::{self, SchedulerKind};
    let (scenario, correct) = if data.first().is_some_and(|b| b % 2 == 1) {
        let mut choices = generate::Bytes(&data[1..]);
        let spec = common::sync_kernels::spec(&mut choices);
        let model = if generate::Choices::pick(&mut choices, 2) == 0 { scenario::MemoryModel::Sc } else { scenario::MemoryModel::Relaxed };
        let schedulers = [SchedulerKind::Random, SchedulerKind::RoundRobin, SchedulerKind::RunToBlock, SchedulerKind::Pct, SchedulerKind::Lockstep];
        let scheduler = schedulers[generate::Choices::pick(&mut choices, schedulers.len() as u32) as usize];
        let mut scenario = spec.scenario(None, model, scheduler);
        scenario.seed = generate::Choices::pick(&mut choices, 1 << 16) as u64;
        (scenario, true)
    } else {
        let config = generate::Config { max_statements: 12, relaxed: true };
        (generate::scenario(&mut generate::Bytes(data), config), false)
    };
    let limit = scenario.max_steps;
    let mut session = match Session::new(scenario) {
        Ok(session) => session,
        Err(d) => return format!("a generated kernel was refused: {}\n", d.iter().map(|d| format!("{} {}", d.code, d.message)).collect::<Vec<_>>().join("; ")),
    };
    session.run(u64::MAX);
    let report = why::report(&session);
    // Findings counted by kind: a generated kernel may have dozens.
    let mut counts = std::collections::BTreeMap::new();
    for f in &report.findings {
        *counts.entry(format!("{:?}", f.kind)).or_insert(0) += 1;
    }
    let kinds: Vec<String> = counts.iter().map(|(kind, n)| format!("{kind} x{n}")).collect();
    let explained = report.stale_reads.iter().filter(|s| s.explanation.is_some()).count();
    format!(
        "ran{}: {:?} after {} steps (limit {limit}); findings: {}; stale reads: {}, explained: {explained}\n",
        if correct { " (a kernel correct by construction)" } else { "" },
        report.status,
        report.steps,
        kinds.join(", "),
        report.stale_reads.len(),
    )
}

/// Native only: the saved inputs and their expected outcomes are read from disk.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn inputs_the_fuzzers_found_end_as_recorded() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/robustness");
    let mut failures = Vec::new();
    let mut checked = 0;
    for target in ["sim", "link", "typed"] {
        let Ok(entries) = std::fs::read_dir(root.join(target)) else { continue };
        let mut inputs: Vec<_> = entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "fuzz")).collect();
        inputs.sort();
        for input in inputs {
            let data = std::fs::read(&input).expect("a saved fuzz input");
            // A hang would show as a test that never ends; the expected outcome records the
            // limit finding that stops such an input, which is what bounds it.
            let outcome = fuzz_outcome(target, &data);
            if let Err(e) = interleave_expect::check(&outcome, &input.with_extension("expected")) {
                failures.push(e);
            }
            checked += 1;
        }
    }
    assert!(checked >= 1, "no saved fuzz inputs found under {}", root.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
