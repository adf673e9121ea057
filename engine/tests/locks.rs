//! Lock recognition on the project's lock examples, through the session's API: the locks found
//! agree with the raw events, their timelines tell a consistent story, and a correct lock never
//! shows a second holder.

mod common;

use interleave_engine::diag::Severity;
use interleave_engine::report::{LockAction, LockReport, RunStatus};
use interleave_engine::scenario::{Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::trace::EventKind;

fn run(scenario: Scenario) -> Session {
    let mut session = Session::new(scenario).expect("the example compiles and launches");
    session.run(u64::MAX);
    session
}

fn with_seed(file: &str, scheduler: SchedulerKind, seed: u64) -> Scenario {
    let mut s = common::example(file);
    s.scheduler = scheduler;
    s.seed = seed;
    s
}

/// Checks what a correct lock's timeline must show: acquires and releases alternate, each
/// release by the work-item that acquired, and the holder after each step is the acquirer.
fn check_alternates(lock: &LockReport, context: &str) {
    let mut holder = None;
    let mut waited = std::collections::BTreeSet::new();
    let mut contended = 0;
    for e in &lock.timeline {
        match e.what {
            LockAction::Acquire => {
                assert_eq!(holder, None, "{context}: acquired while held at step {}", e.step);
                holder = Some(e.work_item);
                assert_eq!(e.holder, holder, "{context}: step {}", e.step);
                if waited.remove(&e.work_item) {
                    contended += 1;
                }
            }
            LockAction::Release => {
                assert_eq!(holder, Some(e.work_item), "{context}: released by a non-holder at step {}", e.step);
                holder = None;
                assert_eq!(e.holder, None, "{context}: step {}", e.step);
            }
            LockAction::Attempt => {
                assert!(holder.is_some() && holder != Some(e.work_item), "{context}: attempt on a free lock at step {}", e.step);
                waited.insert(e.work_item);
            }
        }
    }
    assert_eq!(holder, None, "{context}: held at the end");
    assert_eq!(lock.contended, contended, "{context}");
}

#[test]
fn the_atomic_flag_mutex_is_one_lock_with_one_holder_at_a_time() {
    let mut schedules: Vec<(SchedulerKind, u64)> = (0..100).map(|seed| (SchedulerKind::Random, seed)).collect();
    for kind in [SchedulerKind::RoundRobin, SchedulerKind::Pct, SchedulerKind::RunToBlock, SchedulerKind::Lockstep] {
        schedules.push((kind, 7));
    }
    for (kind, seed) in schedules {
        let context = format!("{} seed {seed}", kind.name());
        let session = run(with_seed("flag_mutex_product.toml", kind, seed));
        assert_eq!(session.status(), RunStatus::Completed, "{context}");
        let locks = session.locks();
        assert_eq!(locks.len(), 1, "{context}: {locks:?}");
        let lock = &locks[0];
        assert_eq!((lock.location.as_str(), lock.acquisitions, lock.max_holders), ("lock", 4, 1), "{context}");
        assert!(session.findings().iter().all(|f| f.kind.as_str() != "lock-misuse"), "{context}");
        check_alternates(lock, &context);
        // Every acquisition is an atomic event that found the flag clear and set it.
        let address = lock.address.expect("a global lock has an address");
        let sets = session.events().iter().filter(|e| e.kind == EventKind::Atomic && e.location == Some(address) && e.read == 0 && e.written != 0).count();
        assert_eq!(sets as u64, lock.acquisitions, "{context}");
        // The report carries the same locks as the session.
        assert_eq!(session.report().locks, locks, "{context}");
    }
}

#[test]
fn the_cuda_spin_lock_of_a_warp_alternates_under_independent_scheduling() {
    let source = include_str!("../../tests/data/run/warp_lock_independent.cu");
    for seed in 0..50 {
        let mut s = Scenario::new(source, "warp_lock_independent.cu", interleave_engine::scenario::Dialect::Cuda);
        s.launch.global = vec![4];
        s.launch.local = Some(vec![4]);
        s.warp_size = 4;
        s.args = ["lock=int[1]", "count=int[1]"].iter().map(|a| interleave_engine::scenario::ArgBinding::parse(a).expect("valid")).collect();
        s.scheduler = SchedulerKind::Random;
        s.seed = seed;
        let session = run(s);
        let locks = session.locks();
        assert_eq!(locks.len(), 1, "seed {seed}");
        assert_eq!((locks[0].location.as_str(), locks[0].acquisitions, locks[0].max_holders), ("lock[0]", 4, 1), "seed {seed}");
        check_alternates(&locks[0], &format!("seed {seed}"));
    }
}

#[test]
fn the_seed_003_reduction_signals_with_its_locks_and_never_has_two_holders() {
    for seed in 0..30 {
        let session = run(with_seed("interwork_group_reduction.toml", SchedulerKind::Random, seed));
        for lock in session.locks() {
            assert!(lock.location.starts_with("locks["), "seed {seed}: {}", lock.location);
            assert_eq!(lock.max_holders, 1, "seed {seed}: {}", lock.location);
        }
        let misuse: Vec<_> = session.findings().iter().filter(|f| f.kind.as_str() == "lock-misuse").collect();
        // The last group of a block releases the lock its first group took: a warning, never an
        // error, whether the run completed or hung on the textbook's race.
        assert!(misuse.iter().all(|f| f.severity == Severity::Warning), "seed {seed}: {misuse:?}");
        if session.status() == RunStatus::Completed {
            assert!(misuse.iter().any(|f| f.message.contains("which does not hold it")), "seed {seed}");
        }
    }
}

#[test]
fn seeking_back_gives_the_locks_of_that_step() {
    let mut session = run(with_seed("flag_mutex_product.toml", SchedulerKind::Random, 11));
    let end = session.steps();
    let halfway = end / 2;
    session.seek(halfway);
    let mut fresh = Session::new(with_seed("flag_mutex_product.toml", SchedulerKind::Random, 11)).expect("compiles");
    fresh.run(halfway);
    assert_eq!(session.locks(), fresh.locks());
    session.seek(end);
    assert_eq!(session.locks(), run(with_seed("flag_mutex_product.toml", SchedulerKind::Random, 11)).locks());
}
