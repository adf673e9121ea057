//! CUDA's member masks under many schedules: the lanes a mask names meet, the others are
//! neither waited for nor heard from, and a named lane that never comes is divergence,
//! whatever the order the lanes run in.

use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, Number, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::why;

/// The scenario of a `tests/data/run` CUDA kernel from its `// ARGS:` line, under `scheduler`.
fn scenario(source: &str, scheduler: SchedulerKind, seed: u64) -> Scenario {
    let mut s = Scenario::new(source, "kernel.cu", Dialect::Cuda);
    let args: Vec<&str> = source.lines().next().and_then(|l| l.strip_prefix("// ARGS:")).expect("an ARGS line").split_whitespace().collect();
    for pair in args.windows(2) {
        match pair[0] {
            "--global" => s.launch.global = vec![pair[1].parse().expect("a size")],
            "--local" => s.launch.local = Some(vec![pair[1].parse().expect("a size")]),
            "--warp-size" => s.warp_size = pair[1].parse().expect("a warp size"),
            "--arg" => s.args.push(ArgBinding::parse(pair[1]).expect("a valid argument")),
            _ => {}
        }
    }
    s.scheduler = scheduler;
    s.seed = seed;
    s
}

fn run(s: Scenario) -> Session {
    let mut session = Session::new(s).expect("compiles and launches");
    session.run(u64::MAX);
    session
}

fn values(session: &Session, name: &str) -> Vec<i64> {
    let report = why::report(session);
    let buffer = report.buffers.iter().find(|b| b.name == name).expect("the buffer");
    buffer
        .values
        .iter()
        .map(|v| match v.expect("initialised") {
            Number::Int(i) => i,
            Number::UInt(u) => u as i64,
            Number::Float(f) => f as i64,
        })
        .collect()
}

fn schedules() -> Vec<(SchedulerKind, u64)> {
    let mut all: Vec<(SchedulerKind, u64)> = (0..50).map(|seed| (SchedulerKind::Random, seed)).collect();
    all.extend((0..10).map(|seed| (SchedulerKind::Pct, seed)));
    all.extend([(SchedulerKind::RoundRobin, 0), (SchedulerKind::RunToBlock, 0), (SchedulerKind::Lockstep, 0)]);
    all
}

#[test]
fn halves_of_a_warp_meet_under_their_own_masks_in_every_schedule() {
    let source = include_str!("../../tests/data/run/warp_partial_masks.cu");
    let swapped: Vec<i64> = (16..32).map(|t| t ^ 1).collect();
    for (kind, seed) in schedules() {
        let session = run(scenario(source, kind, seed));
        let context = format!("{} seed {seed}", kind.name());
        assert_eq!(session.status(), RunStatus::Completed, "{context}");
        assert!(session.findings().is_empty(), "{context}: {:?}", session.findings());
        let out = values(&session, "out");
        assert_eq!(&out[..3], [120, 1, 1], "{context}");
        assert_eq!(&out[16..], swapped, "{context}");
        assert_eq!(values(&session, "votes"), [0x9249], "{context}");
    }
}

#[test]
fn a_named_lane_that_never_arrives_is_divergence_in_every_schedule() {
    let source = include_str!("../../tests/data/run/warp_mask_lane_missing.cu");
    for (kind, seed) in schedules() {
        let session = run(scenario(source, kind, seed));
        let kinds: Vec<&str> = session.findings().iter().map(|f| f.kind.as_str()).collect();
        assert_eq!(kinds, ["barrier-divergence"], "{} seed {seed}", kind.name());
    }
}

#[test]
fn both_sides_of_a_branch_meet_with_independent_scheduling_and_not_in_lockstep() {
    let source = include_str!("../../tests/data/run/warp_mask_branches.cu");
    for seed in 0..50 {
        let session = run(scenario(source, SchedulerKind::Random, seed));
        assert!(session.findings().is_empty(), "seed {seed}: {:?}", session.findings());
        assert_eq!(values(&session, "out"), [1, 0, 3, 2, 5, 4, 7, 6], "seed {seed}");
    }
    let session = run(scenario(source, SchedulerKind::Lockstep, 0));
    let kinds: Vec<&str> = session.findings().iter().map(|f| f.kind.as_str()).collect();
    assert_eq!(kinds, ["barrier-divergence"]);
}

/// Lockstep by hand: in a launch of one warp, exactly one lane may step at any time (the
/// next lane of the instruction under way, or the first lane of the next one); the others
/// show as held back and a click on one of them does nothing. Stepping the one lane that may
/// step, by hand, runs the kernel to its end as lockstep runs it.
#[test]
fn lockstep_holds_lanes_back_from_a_step_by_hand() {
    use interleave_engine::session::WorkItemStatus;
    let source = "__kernel void f(__global int *out) { int t = get_local_id(0); if (t == 0) out[0] = 1; out[1 + t] = t; }";
    let mut s = Scenario::new(source, "f.cl", Dialect::OpenCl);
    s.launch.global = vec![4];
    s.launch.local = Some(vec![4]);
    s.warp_size = 4;
    s.scheduler = SchedulerKind::Lockstep;
    s.args = vec![ArgBinding::parse("out=int[5]").unwrap()];
    let mut session = Session::new(s.clone()).unwrap();
    let mut by_hand = Vec::new();
    while session.status() == RunStatus::Running {
        let statuses: Vec<WorkItemStatus> = (0..4).map(|i| session.work_item(i).status).collect();
        let free: Vec<usize> = (0..4).filter(|&i| statuses[i] == WorkItemStatus::Ready).collect();
        assert_eq!(free.len(), 1, "step {}: {statuses:?}", session.steps());
        for held in (0..4).filter(|&i| statuses[i] == WorkItemStatus::HeldBack) {
            assert!(!session.step_work_item(held), "step {}: held-back lane {held} stepped", session.steps());
        }
        assert!(session.step_work_item(free[0]));
        by_hand.push(free[0] as u32);
    }
    assert_eq!(session.status(), RunStatus::Completed);
    assert!(session.findings().is_empty(), "{:?}", session.findings());
    assert_eq!(values(&session, "out"), [1, 0, 1, 2, 3]);
    // The lockstep scheduler makes the same run.
    let mut scheduled = Session::new(s).unwrap();
    scheduled.run(u64::MAX);
    assert_eq!(scheduled.schedule(), by_hand);
}
