//! Broken input never panics: thousands of mutations of real kernels go through compile and
//! a bounded run, and each ends in diagnostics or a report.

mod common;

use interleave_engine::scenario::{ArgBinding, Dialect, Scenario};
use interleave_engine::session::Session;

const SOURCES: [&str; 3] = [
    include_str!("../../static/examples/count.cl"),
    include_str!("../../tests/data/run/helpers_and_loops.cl"),
    include_str!("../../tests/data/run/barrier_divergence.cl"),
];

/// Fragments a mutation may insert: the tokens most likely to reach unusual paths.
const FRAGMENTS: [&str; 24] = [
    "(", ")", "{", "}", "[", "]", ";", "*", "&", "/", "%", "0", "-1", "9999999999", "int", "__local",
    "barrier(CLK_LOCAL_MEM_FENCE);", "return;", "while(1)", "x", "\"", "'", "/*", "ulong",
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
            let report = session.report();
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
        assert!(session.report().steps <= limit, "generated kernel {seed} ran past its step limit");
    }
}
