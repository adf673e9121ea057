//! The operation count the benchmarks report throughput in: every private instruction plus one
//! event per step. It is part of the run's state, so time travel gives it back exactly, and a
//! kernel whose instructions are known gives a known count.

use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;

/// Four work-items, each with one loop of 50 rounds of private arithmetic around one atomic.
const KERNEL: &str = "__kernel void k(__global int *c) {
    int x = get_global_id(0);
    for (int i = 0; i < 50; i++) { x = x * 3 + 1; atomic_add(&c[0], x & 1); }
}";

fn scenario() -> Scenario {
    let mut s = Scenario::new(KERNEL, "k.cl", Dialect::OpenCl);
    s.launch.global = vec![4];
    s.launch.local = Some(vec![2]);
    s.args = vec![ArgBinding::parse("c=int[1]").expect("valid argument")];
    s.scheduler = SchedulerKind::Random;
    s
}

#[test]
fn operations_count_instructions_and_events_and_follow_seeks() {
    let mut session = Session::new(scenario()).expect("compiles");
    // The launch runs each work-item's private code up to its first event, so the count
    // starts above zero: here the same few instructions in each of the four.
    let launched = session.operations();
    assert!(launched > 0 && launched.is_multiple_of(4), "{launched} operations at the launch");
    let mut at = Vec::new();
    while session.step() {
        at.push(session.operations());
    }
    assert_eq!(session.status(), RunStatus::Completed);
    // Every step counts its event and at least the private instructions before it, and the
    // loop does more than one instruction a round.
    assert!(at.windows(2).all(|w| w[1] > w[0]), "the count grows with every step");
    let total = *at.last().unwrap();
    assert!(total > 3 * session.steps(), "{total} operations in {} steps", session.steps());
    // Backwards and forwards, the count is the one first reached at that step.
    for target in [150u64, 3, 77, 199, 1] {
        session.seek(target);
        assert_eq!(session.operations(), at[target as usize - 1], "at step {target}");
    }
    session.seek(0);
    assert_eq!(session.operations(), launched, "back at the launch");
    // The same run again gives the same count.
    let mut again = Session::new(scenario()).expect("compiles");
    again.run(u64::MAX);
    assert_eq!(again.operations(), total);
}
