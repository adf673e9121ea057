//! Kernels correct by construction get no error finding, and the same kernels with one
//! synchronisation broken get one. The generator (`common/sync_kernels.rs`) writes locks,
//! barriers, message passing and compare-exchange retry loops in OpenCL C and CUDA over one
//! or several groups. Each correct kernel is explored under both memory models and every
//! scheduler but the manual one (random, round-robin, run-to-block, PCT, lockstep): no run
//! may report an error finding or end with a wrong result. Each broken variant must be
//! caught in some explored execution: a data race, a scope mismatch, lock misuse or a wrong
//! result. Native only: the property-test generator is not built for wasm.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::generate::Lcg;
use common::sync_kernels::{self, Break, Spec};
use interleave_engine::diag::Severity;
use interleave_engine::explore::{explore, Exploration};
use interleave_engine::scenario::{MemoryModel, SchedulerKind};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Seeds per exploration of a correct kernel, under each model and scheduler.
const CORRECT_RUNS: u64 = 16;
/// Seeds per exploration of a broken kernel, under each model and the random and PCT
/// schedulers.
const BROKEN_RUNS: u64 = 150;

const SCHEDULERS: [SchedulerKind; 5] =
    [SchedulerKind::Random, SchedulerKind::RoundRobin, SchedulerKind::RunToBlock, SchedulerKind::Pct, SchedulerKind::Lockstep];
const MODELS: [MemoryModel; 2] = [MemoryModel::Sc, MemoryModel::Relaxed];

/// The finding kinds that flag a broken synchronisation.
const FLAGS: [&str; 3] = ["data-race", "scope-mismatch", "lock-misuse"];

fn explored(spec: &Spec, broken: Option<Break>, model: MemoryModel, scheduler: SchedulerKind, runs: u64) -> Exploration {
    let s = spec.scenario(broken, model, scheduler);
    explore(&s, 0, runs).unwrap_or_else(|d| panic!("{}: the generated kernel does not run: {d:?}\n{}", spec.describe(), s.source))
}

/// What is wrong with an exploration of a correct kernel: its error findings and wrong results.
fn problems(spec: &Spec, e: &Exploration) -> Vec<String> {
    let mut out: Vec<String> = e
        .findings
        .iter()
        .filter(|f| f.finding.severity == Severity::Error)
        .map(|f| format!("{} at {}:{} (seed {}): {}", f.finding.kind.as_str(), f.finding.line, f.finding.column, f.seed, f.finding.message))
        .collect();
    out.extend(e.outcomes.iter().filter(|o| !spec.holds(&o.values)).map(|o| format!("wrong result (seed {}): {:?}", o.seed, o.values)));
    out
}

/// Whether an exploration of a broken kernel caught it.
fn caught(spec: &Spec, e: &Exploration) -> bool {
    e.findings.iter().any(|f| f.finding.severity == Severity::Error && FLAGS.contains(&f.finding.kind.as_str()))
        || e.outcomes.iter().any(|o| !spec.holds(&o.values))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, rng_seed: RngSeed::Fixed(2026), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn correct_kernels_have_no_error_finding_under_any_model_or_scheduler(kernel in any::<u64>()) {
        let spec = sync_kernels::spec(&mut Lcg(kernel));
        let mut wrong = Vec::new();
        for model in MODELS {
            for scheduler in SCHEDULERS {
                let e = explored(&spec, None, model, scheduler, CORRECT_RUNS);
                wrong.extend(problems(&spec, &e).into_iter().map(|p| format!("{model:?} {scheduler:?}: {p}")));
            }
        }
        let source = spec.scenario(None, MemoryModel::Sc, SchedulerKind::Random).source;
        prop_assert!(wrong.is_empty(), "{}\n{}\n{source}", spec.describe(), wrong.join("\n"));
    }

    #[test]
    fn one_broken_synchronisation_is_caught(kernel in any::<u64>()) {
        let spec = sync_kernels::spec(&mut Lcg(kernel));
        for broken in spec.breaks() {
            let seen = MODELS.iter().any(|&model| {
                [SchedulerKind::Random, SchedulerKind::Pct].iter().any(|&scheduler| caught(&spec, &explored(&spec, Some(broken), model, scheduler, BROKEN_RUNS)))
            });
            let source = spec.scenario(Some(broken), MemoryModel::Sc, SchedulerKind::Random).source;
            prop_assert!(seen, "{} with {broken:?} was not caught\n{source}", spec.describe());
        }
    }
}

/// A warp-synchronous reduction (no barrier: each step reads what the lanes of its warp wrote
/// one instruction before) is correct by construction in lockstep, where the lanes of one
/// instruction are ordered with each other, and racy with independent work-items. The
/// exhaustive search must agree with that under lockstep too: every execution, no finding,
/// the one sum per warp; and find the race without lockstep.
#[test]
fn a_warp_synchronous_reduction_is_correct_only_in_lockstep() {
    use interleave_engine::explore::{explore_with, Config};
    use interleave_engine::scenario::{ArgBinding, Dialect, Number, Scenario};
    let source = "__kernel void wsum(__global int *out)\n{\n    __local int s[8];\n    int t = get_local_id(0);\n    int w = t & ~3;\n    int l = t & 3;\n    \
                  s[t] = t;\n    if (l < 2) s[t] = s[t] + s[w + l + 2];\n    if (l < 1) s[t] = s[t] + s[w + l + 1];\n    if (l == 0) out[t >> 2] = s[t];\n}\n";
    let mut s = Scenario::new(source, "wsum.cl", Dialect::OpenCl);
    s.launch.global = vec![8];
    s.launch.local = Some(vec![8]);
    s.warp_size = 4;
    s.args = vec![ArgBinding::parse("out=int[2]").unwrap()];
    let every = |scheduler: SchedulerKind| {
        let s = Scenario { scheduler, ..s.clone() };
        explore_with(&s, Config { runs: 200_000, first_seed: 0, exhaustive: true, max_preemptions: None }).unwrap()
    };
    let lockstep = every(SchedulerKind::Lockstep);
    assert!(lockstep.complete, "{} executions", lockstep.runs);
    assert!(lockstep.findings.is_empty(), "{:?}", lockstep.findings.iter().map(|f| &f.finding.message).collect::<Vec<_>>());
    let sums: Vec<_> = lockstep.outcomes.iter().map(|o| o.values["out"].clone()).collect();
    assert_eq!(sums, [vec![Some(Number::Int(6)), Some(Number::Int(22))]]);
    let independent = every(SchedulerKind::Random);
    assert!(independent.findings.iter().any(|f| f.finding.kind.as_str() == "data-race"), "no race without lockstep");
}
