//! Laws checked on generated inputs: atomics agree with a sequential model in the order the
//! trace shows, seeking to any step equals a fresh run to that step, and the relaxed memory
//! model allows every outcome sequential consistency allows on small generated kernels
//! (exhaustive exploration under both). Native only: the property-test generator is not built
//! for wasm, where the determinism test runs instead. (The vector-clock laws are unit tests of
//! the race detector's clock, which is private to the engine.)
#![cfg(not(target_arch = "wasm32"))]

mod common;

use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::trace::EventKind;
use interleave_engine::why;
use proptest::prelude::*;

/// One OpenCL 1.x atomic operation on `c[0]` with its operand(s).
#[derive(Clone, Debug)]
enum Op {
    Add(u32),
    Sub(u32),
    Xchg(u32),
    Inc,
    Dec,
    Min(u32),
    Max(u32),
    And(u32),
    Or(u32),
    Xor(u32),
    CmpXchg(u32, u32),
}

impl Op {
    fn source(&self) -> String {
        match self {
            Op::Add(v) => format!("atomic_add(c, {v}u)"),
            Op::Sub(v) => format!("atomic_sub(c, {v}u)"),
            Op::Xchg(v) => format!("atomic_xchg(c, {v}u)"),
            Op::Inc => "atomic_inc(c)".into(),
            Op::Dec => "atomic_dec(c)".into(),
            Op::Min(v) => format!("atomic_min(c, {v}u)"),
            Op::Max(v) => format!("atomic_max(c, {v}u)"),
            Op::And(v) => format!("atomic_and(c, {v}u)"),
            Op::Or(v) => format!("atomic_or(c, {v}u)"),
            Op::Xor(v) => format!("atomic_xor(c, {v}u)"),
            Op::CmpXchg(e, v) => format!("atomic_cmpxchg(c, {e}u, {v}u)"),
        }
    }

    /// The sequential model: the value after this operation on `old`.
    fn apply(&self, old: u32) -> u32 {
        match *self {
            Op::Add(v) => old.wrapping_add(v),
            Op::Sub(v) => old.wrapping_sub(v),
            Op::Xchg(v) => v,
            Op::Inc => old.wrapping_add(1),
            Op::Dec => old.wrapping_sub(1),
            Op::Min(v) => old.min(v),
            Op::Max(v) => old.max(v),
            Op::And(v) => old & v,
            Op::Or(v) => old | v,
            Op::Xor(v) => old ^ v,
            Op::CmpXchg(e, v) => {
                if old == e {
                    v
                } else {
                    old
                }
            }
        }
    }
}

fn op() -> impl Strategy<Value = Op> {
    // Small operands make compare-exchanges succeed now and then.
    let v = 0u32..8;
    prop_oneof![
        v.clone().prop_map(Op::Add),
        v.clone().prop_map(Op::Sub),
        v.clone().prop_map(Op::Xchg),
        Just(Op::Inc),
        Just(Op::Dec),
        v.clone().prop_map(Op::Min),
        v.clone().prop_map(Op::Max),
        v.clone().prop_map(Op::And),
        v.clone().prop_map(Op::Or),
        v.clone().prop_map(Op::Xor),
        (v.clone(), v).prop_map(|(e, n)| Op::CmpXchg(e, n)),
    ]
}

/// A kernel in which work-item `w` performs `programs[w]` in order, keeping each old value.
fn kernel(programs: &[Vec<Op>], per_item: usize) -> String {
    let mut body = String::new();
    for (w, ops) in programs.iter().enumerate() {
        body.push_str(&format!("    if (w == {w}) {{\n"));
        for (k, op) in ops.iter().enumerate() {
            body.push_str(&format!("        olds[{}] = {};\n", w * per_item + k, op.source()));
        }
        body.push_str("    }\n");
    }
    format!("__kernel void ops(volatile __global uint *c, __global uint *olds)\n{{\n    int w = get_global_id(0);\n{body}}}\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whatever the schedule, the atomic events on the counter, taken in trace order, are
    /// exactly what a sequential counter would do, and each work-item got back the old value
    /// its event read.
    #[test]
    fn atomics_agree_with_a_sequential_model(
        programs in prop::collection::vec(prop::collection::vec(op(), 1..6), 1..5),
        seed in 0u64..1000,
        scheduler in prop_oneof![Just(SchedulerKind::Random), Just(SchedulerKind::Pct), Just(SchedulerKind::RoundRobin), Just(SchedulerKind::Lockstep)],
        start in 0u32..8,
    ) {
        let per_item = 6;
        let items = programs.len();
        let mut s = Scenario::new(kernel(&programs, per_item), "ops.cl", Dialect::OpenCl);
        s.launch.global = vec![items as u64];
        s.launch.local = Some(vec![items as u64]);
        s.warp_size = 2;
        s.args = vec![
            ArgBinding::parse(&format!("c=uint[1]:fill={start}")).unwrap(),
            ArgBinding::parse(&format!("olds=uint[{}]", items * per_item)).unwrap(),
        ];
        s.scheduler = scheduler;
        s.seed = seed;
        let mut session = Session::new(s).unwrap();
        session.run(u64::MAX);
        prop_assert_eq!(session.status(), RunStatus::Completed);
        let mut value = start;
        let mut next = vec![0usize; items];
        let mut olds = vec![None; items * per_item];
        for e in session.events().iter().filter(|e| e.kind == EventKind::Atomic) {
            let w = e.work_item as usize;
            let op = &programs[w][next[w]];
            prop_assert_eq!(e.read as u32, value, "{:?} of work-item {} read a value the model does not have", op, w);
            value = op.apply(value);
            prop_assert_eq!(e.written as u32, value);
            olds[w * per_item + next[w]] = Some(e.read as u32);
            next[w] += 1;
        }
        for (w, ops) in programs.iter().enumerate() {
            prop_assert_eq!(next[w], ops.len());
        }
        let report = why::report(&session);
        let final_value = &report.buffers[0].values[0];
        prop_assert_eq!(final_value.map(|n| n.as_f64() as u32), Some(value));
        for (k, old) in olds.iter().enumerate() {
            if let Some(old) = old {
                prop_assert_eq!(report.buffers[1].values[k].map(|n| n.as_f64() as u32), Some(*old));
            }
        }
    }

    /// Seeking to any step, from wherever the session is, gives what a fresh run shows there.
    #[test]
    fn seeking_anywhere_equals_a_fresh_run(seed in 0u64..10_000, targets in prop::collection::vec(0u64..3000, 1..6)) {
        let source = "__kernel void busy(__global int *c) {
            for (int k = 0; k < 200; k++) { atomic_add(&c[0], 1); c[1] = c[1] + 1; }
        }";
        let mut s = Scenario::new(source, "busy.cl", Dialect::OpenCl);
        s.launch.global = vec![8];
        s.launch.local = Some(vec![4]);
        s.args = vec![ArgBinding::parse("c=int[2]").unwrap()];
        s.seed = seed;
        let mut session = Session::new(s.clone()).unwrap();
        session.run(u64::MAX);
        for target in targets {
            let reached = session.seek(target);
            let mut fresh = Session::new(s.clone()).unwrap();
            fresh.run(reached);
            prop_assert_eq!(session.trace_hash(), fresh.trace_hash());
            prop_assert_eq!(why::report(&session), why::report(&fresh));
        }
    }
}

/// Small generated kernels, explored exhaustively under sequential consistency and under the
/// relaxed model: every SC outcome (final buffer contents) must be a relaxed outcome too. A
/// kernel whose exploration does not finish within the budget under either model proves
/// nothing and is skipped; enough of them must finish for the law to have been checked.
#[test]
fn relaxed_outcomes_include_the_sequentially_consistent_ones() {
    use interleave_engine::explore::{explore_with, Config};
    use interleave_engine::scenario::MemoryModel;
    const KERNELS: u64 = 48;
    let mut checked = 0;
    let mut missing = Vec::new();
    for seed in 0..KERNELS {
        let config = common::generate::Config { max_statements: 3, relaxed: false };
        let mut s = common::generate::scenario(&mut common::generate::Lcg(1000 + seed), config);
        // Two work-items, in one group or in two: small enough to enumerate.
        s.launch.global = vec![2];
        s.launch.local = Some(vec![1 + seed % 2]);
        s.max_resident_groups = None;
        s.max_steps = 120;
        let explore = |model: MemoryModel| {
            let mut s = s.clone();
            s.memory_model = model;
            explore_with(&s, Config { runs: 3000, first_seed: 0, exhaustive: true, max_preemptions: None })
                .unwrap_or_else(|d| panic!("generated kernel {seed}: {d:?}"))
        };
        let sc = explore(MemoryModel::Sc);
        let relaxed = explore(MemoryModel::Relaxed);
        if !(sc.complete && relaxed.complete) {
            continue;
        }
        checked += 1;
        for outcome in &sc.outcomes {
            if !relaxed.outcomes.iter().any(|r| r.values == outcome.values) {
                missing.push(format!("kernel {seed}: {:?}\n{}", outcome.values, s.source));
            }
        }
    }
    assert!(missing.is_empty(), "SC outcomes the relaxed model never reached:\n{}", missing.join("\n"));
    assert!(checked >= KERNELS / 4, "only {checked} of {KERNELS} generated kernels were explored completely");
}

/// Lockstep, replayed: a lockstep run's schedule and decisions, given back to the lockstep
/// scheduler, make the same run (trace hash, findings, status) on generated kernels with warps
/// of one, two and four lanes. The replay follows the schedule only where lockstep allows
/// (`sched::Scheduler::Lockstep`), so a run it could not make would stop short instead.
#[test]
fn a_lockstep_run_replays_under_lockstep() {
    let mut replayed = 0;
    for kernel in 0..40u64 {
        let config = common::generate::Config { max_statements: 5, relaxed: true };
        let mut s = common::generate::scenario(&mut common::generate::Lcg(7000 + kernel), config);
        s.scheduler = SchedulerKind::Lockstep;
        s.warp_size = [1, 2, 4][kernel as usize % 3];
        s.max_steps = 400;
        let mut first = Session::new(s.clone()).unwrap_or_else(|d| panic!("kernel {kernel}: {d:?}"));
        first.run(u64::MAX);
        let mut again = Session::new(s.replaying(&first.schedule(), &first.choices())).unwrap();
        again.run(u64::MAX);
        let context = format!("kernel {kernel}, warps of {}\n{}", s.warp_size, s.source);
        assert_eq!(again.steps(), first.steps(), "{context}");
        assert_eq!(again.trace_hash(), first.trace_hash(), "{context}");
        assert_eq!(why::report(&again).findings, why::report(&first).findings, "{context}");
        if first.status() != RunStatus::Running {
            assert_eq!(again.status(), first.status(), "{context}");
        }
        replayed += 1;
    }
    assert_eq!(replayed, 40);
}

/// The exhaustive search under lockstep against runs of the lockstep scheduler, on small
/// generated kernels: every outcome a run reaches is among the search's (when the search
/// covered everything), and every outcome of the search replays under lockstep
/// (`reproduce.rs` checks the replays of generated kernels under lockstep too).
#[test]
fn lockstep_runs_reach_only_what_the_lockstep_search_enumerates() {
    use interleave_engine::explore::{explore_with, Config};
    const KERNELS: u64 = 40;
    let mut checked = 0;
    let mut missing = Vec::new();
    for kernel in 0..KERNELS {
        let config = common::generate::Config { max_statements: 3, relaxed: false };
        let mut s = common::generate::scenario(&mut common::generate::Lcg(9000 + kernel), config);
        if s.source.matches("l[").count() > 1 {
            // Local memory (`l`, past its declaration) starts with contents drawn from the
            // seed, so runs of other seeds would start elsewhere than the search, which runs
            // one.
            continue;
        }
        // Four work-items in warps of two: two warps to interleave, lanes to keep together.
        s.launch.global = vec![4];
        s.launch.local = Some(vec![2 + 2 * (kernel % 2)]);
        s.max_resident_groups = None;
        s.scheduler = SchedulerKind::Lockstep;
        s.warp_size = 2;
        s.max_steps = 120;
        let every = explore_with(&s, Config { runs: 4000, first_seed: 0, exhaustive: true, max_preemptions: None })
            .unwrap_or_else(|d| panic!("generated kernel {kernel}: {d:?}"));
        if !every.complete {
            continue;
        }
        checked += 1;
        let runs = explore_with(&s, Config { runs: 200, first_seed: 0, exhaustive: false, max_preemptions: None }).unwrap();
        for outcome in &runs.outcomes {
            if !every.outcomes.iter().any(|o| o.values == outcome.values) {
                missing.push(format!("kernel {kernel}, seed {}: {:?}\n{}", outcome.seed, outcome.values, s.source));
            }
        }
        for o in &every.outcomes {
            let schedule = o.schedule.as_ref().expect("an exhaustive outcome has its schedule");
            let mut replay = Session::new(s.replaying(schedule, o.choices.as_deref().unwrap_or_default())).unwrap();
            replay.run(u64::MAX);
            let values: std::collections::BTreeMap<_, _> = why::report(&replay).buffers.into_iter().map(|b| (b.name, b.values)).collect();
            assert_eq!(values, o.values, "kernel {kernel}: the replay of {schedule:?}\n{}", s.source);
        }
    }
    assert!(missing.is_empty(), "outcomes of lockstep runs the lockstep search never reached:\n{}", missing.join("\n"));
    assert!(checked >= KERNELS / 4, "only {checked} of {KERNELS} generated kernels were explored completely");
}
