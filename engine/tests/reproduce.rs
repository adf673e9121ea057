//! What an exploration reports as reproducing something reproduces it: every seed it names
//! for an outcome or a finding gives that outcome or finding in a plain run with that seed
//! (what `interleave run --seed N` and the app run), and every schedule and choices of an
//! exhaustive result give it in a manual replay. Checked on generated kernels (with relaxed
//! loads and a weak compare-exchange, whose spurious failures are decisions too) under both
//! memory models and every scheduler. Native only: the property-test generator is not built
//! for wasm.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeMap;

use common::generate;
use interleave_engine::explore::{explore_with, Config, Exploration};
use interleave_engine::report::Report;
use interleave_engine::scenario::{MemoryModel, Number, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::why;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// A generated kernel with a weak compare-exchange added before its last statement, under
/// `model` and `scheduler` (the manual one following a short schedule).
fn scenario(kernel: u64, model: MemoryModel, scheduler: SchedulerKind, max_statements: u32) -> Scenario {
    let mut s = generate::scenario(&mut generate::Lcg(kernel), generate::Config { max_statements, relaxed: false });
    let last = "    a[gid & 7] = x0 + x1 + x2 + x3;\n}";
    let weak_cas = "    {\n        int e = atomic_load_explicit(&d[gid & 3], memory_order_relaxed);\n        \
                    if (!atomic_compare_exchange_weak_explicit(&d[gid & 3], &e, e + 1, memory_order_relaxed, memory_order_relaxed))\n            \
                    x3 = x3 + 1;\n    }\n";
    s.source = s.source.replace(last, &format!("{weak_cas}{last}"));
    s.memory_model = model;
    s.scheduler = scheduler;
    s.schedule = if scheduler == SchedulerKind::Manual { vec![0, 1, 0, 1, 1, 0, 2, 0, 0, 1] } else { Vec::new() };
    s
}

fn run(scenario: Scenario) -> Report {
    let mut session = Session::new(scenario).expect("a generated kernel compiles");
    session.run(u64::MAX);
    why::report(&session)
}

fn values(report: &Report) -> BTreeMap<String, Vec<Option<Number>>> {
    report.buffers.iter().map(|b| (b.name.clone(), b.values.clone())).collect()
}

/// Checks that every seed and replay `e` names reproduces its outcome or finding; returns
/// what does not.
fn check(s: &Scenario, e: &Exploration) -> Vec<String> {
    let mut wrong = Vec::new();
    let again = |seed: u64, replay: Option<(&Vec<u32>, &Vec<u32>)>| {
        let mut s = match replay {
            Some((schedule, choices)) => s.replaying(schedule, choices),
            None => s.clone(),
        };
        s.seed = seed;
        run(s)
    };
    for o in &e.outcomes {
        let report = again(o.seed, o.schedule.as_ref().zip(o.choices.as_ref()));
        if values(&report) != o.values || report.registers != o.registers {
            wrong.push(format!("outcome of seed {} (replay {:?} {:?}) is {:?}, the run gave {:?}", o.seed, o.schedule, o.choices, o.values, values(&report)));
        }
    }
    // A finding of no run (the one that stops an exhaustive search at a limit) has nothing to
    // reproduce.
    for f in e.findings.iter().filter(|f| f.runs > 0) {
        let report = again(f.seed, f.schedule.as_ref().zip(f.choices.as_ref()));
        if !report.findings.contains(&f.finding) {
            let got: Vec<String> = report.findings.iter().map(|g| format!("{} {}:{} {}", g.kind.as_str(), g.line, g.column, g.message)).collect();
            wrong.push(format!(
                "finding {} at {}:{} of seed {} (replay {:?} {:?}) is not in its run: {got:?}",
                f.finding.kind.as_str(),
                f.finding.line,
                f.finding.column,
                f.seed,
                f.schedule,
                f.choices
            ));
        }
    }
    wrong
}

fn model() -> impl Strategy<Value = MemoryModel> {
    prop_oneof![Just(MemoryModel::Sc), Just(MemoryModel::Relaxed)]
}

fn scheduler() -> impl Strategy<Value = SchedulerKind> {
    proptest::sample::select(SchedulerKind::ALL.iter().map(|(_, k)| *k).collect::<Vec<_>>())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, rng_seed: RngSeed::Fixed(73), failure_persistence: None, ..ProptestConfig::default() })]

    /// Exploration by seeds: each seed it names is the run that showed it.
    #[test]
    fn every_seed_explore_names_reproduces_its_outcome_and_finding(
        kernel in any::<u64>(),
        model in model(),
        scheduler in scheduler(),
        first_seed in 0u64..1000,
    ) {
        let s = scenario(kernel, model, scheduler, 6);
        let e = explore_with(&s, Config { runs: 12, first_seed, exhaustive: false, max_preemptions: None }).expect("a generated kernel compiles");
        let wrong = check(&s, &e);
        prop_assert!(wrong.is_empty(), "{}\n{}", wrong.join("\n"), s.source);
    }

    /// Exhaustive exploration: each outcome and finding replays from its schedule and choices
    /// (a lockstep exploration's under lockstep, whose warps the replay keeps together).
    #[test]
    fn every_replay_exhaustive_exploration_records_reproduces_it(
        kernel in any::<u64>(),
        model in model(),
        scheduler in prop_oneof![Just(SchedulerKind::Random), Just(SchedulerKind::Lockstep)],
    ) {
        let mut s = scenario(kernel, model, scheduler, 3);
        // Short executions, so that a spin ends soon at the step limit.
        s.max_steps = 150;
        let e = explore_with(&s, Config { runs: 60, first_seed: 0, exhaustive: true, max_preemptions: None }).expect("a generated kernel compiles");
        for o in &e.outcomes {
            prop_assert!(o.schedule.is_some() && o.choices.is_some(), "an exhaustive outcome without its replay");
        }
        let wrong = check(&s, &e);
        prop_assert!(wrong.is_empty(), "{}\n{}", wrong.join("\n"), s.source);
    }
}
