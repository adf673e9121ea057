//! Lock recognition on the project's lock examples, through the session's API: the locks found
//! agree with the raw events, their timelines tell a consistent story, and a correct lock never
//! shows a second holder.

mod common;

use interleave_engine::diag::Severity;
use interleave_engine::report::{LockAction, LockReport, RunStatus};
use interleave_engine::scenario::{MemoryModel, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::trace::EventKind;
use interleave_engine::why;

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
/// `stale` are the run's stale reads (step, work-item): under the relaxed model a failed
/// test-and-set may read an older write than the latest, and so come before a release in the
/// lock's modification order though the timeline shows it after; such an attempt may find
/// the lock free in step order.
fn check_alternates(lock: &LockReport, stale: &[(u64, [u64; 3])], context: &str) {
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
                let older = stale.contains(&(e.step, e.work_item));
                assert!(older || holder.is_some() && holder != Some(e.work_item), "{context}: attempt on a free lock at step {}", e.step);
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
        check_alternates(lock, &[], &context);
        // Every acquisition is an atomic event that found the flag clear and set it.
        let address = lock.address.expect("a global lock has an address");
        let sets = session.events().iter().filter(|e| e.kind == EventKind::Atomic && e.location == Some(address) && e.read == 0 && e.written != 0).count();
        assert_eq!(sets as u64, lock.acquisitions, "{context}");
        // The report carries the same locks as the session.
        assert_eq!(why::report(&session).locks, locks, "{context}");
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
        check_alternates(&locks[0], &[], &format!("seed {seed}"));
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

/// The scenario of a `tests/data/run` kernel, from its `// ARGS:` line (launch sizes, warp
/// size and arguments; the scheduler and seed are the caller's).
fn run_test(file: &str, source: &str, scheduler: SchedulerKind, seed: u64) -> Scenario {
    use interleave_engine::scenario::{ArgBinding, Dialect};
    let dialect = if file.ends_with(".cu") { Dialect::Cuda } else { Dialect::OpenCl };
    let mut s = Scenario::new(source, file, dialect);
    let args: Vec<&str> = source.lines().next().and_then(|l| l.strip_prefix("// ARGS:")).expect("an ARGS line").split_whitespace().collect();
    let sizes = |v: &str| v.split(',').map(|n| n.parse().expect("a size")).collect::<Vec<u64>>();
    for pair in args.windows(2) {
        match pair[0] {
            "--global" => s.launch.global = sizes(pair[1]),
            "--local" => s.launch.local = Some(sizes(pair[1])),
            "--warp-size" => s.warp_size = pair[1].parse().expect("a warp size"),
            "--arg" => s.args.push(ArgBinding::parse(pair[1]).expect("a valid argument")),
            _ => {}
        }
    }
    s.scheduler = scheduler;
    s.seed = seed;
    s
}

/// The lock family of `tests/data/run`: the protocols are locks under every schedule, and the
/// patterns that only look like one (toggles, counters, bitmasks, first-one-wins claims) are
/// never locks and never `lock-misuse`, whatever the schedule.
#[test]
fn lock_protocols_are_locks_and_look_alikes_never_are() {
    let locks: [(&str, &str); 4] = [
        ("lock_cas_store_release.cl", include_str!("../../tests/data/run/lock_cas_store_release.cl")),
        ("lock_cas_xchg_release.cl", include_str!("../../tests/data/run/lock_cas_xchg_release.cl")),
        ("lock_flag_mutex.cl", include_str!("../../tests/data/run/lock_flag_mutex.cl")),
        ("lock_ttas_relaxed_poll.cl", include_str!("../../tests/data/run/lock_ttas_relaxed_poll.cl")),
    ];
    let look_alikes: [(&str, &str); 4] = [
        ("not_lock_xor_toggle.cl", include_str!("../../tests/data/run/not_lock_xor_toggle.cl")),
        ("not_lock_counter.cl", include_str!("../../tests/data/run/not_lock_counter.cl")),
        ("not_lock_bitmask.cl", include_str!("../../tests/data/run/not_lock_bitmask.cl")),
        ("not_lock_first_wins.cu", include_str!("../../tests/data/run/not_lock_first_wins.cu")),
    ];
    let mut schedules: Vec<(SchedulerKind, u64)> = (0..40).map(|seed| (SchedulerKind::Random, seed)).collect();
    schedules.extend((0..10).map(|seed| (SchedulerKind::Pct, seed)));
    schedules.extend([(SchedulerKind::RoundRobin, 0), (SchedulerKind::RunToBlock, 0), (SchedulerKind::Lockstep, 0)]);
    // Under the relaxed model a poll may read an older value than memory holds, and its event
    // then shows a value read unlike the value left: that is still no write.
    let models = [MemoryModel::Sc, MemoryModel::Relaxed];
    for ((kind, seed), model) in schedules.into_iter().flat_map(|s| models.map(|m| (s, m))) {
        let mut stale = 0;
        for (file, source) in locks {
            let context = format!("{file} under {} seed {seed}, {model:?} model", kind.name());
            let mut scenario = run_test(file, source, kind, seed);
            scenario.memory_model = model;
            let session = run(scenario);
            stale += session.stale_reads().len();
            // Under lockstep a lock contended within one warp can hang (GPUs before Volta),
            // and a hung lock is still the same lock.
            assert!(matches!(session.status(), RunStatus::Completed | RunStatus::Livelock), "{context}: {:?}", session.status());
            let found = session.locks();
            assert_eq!(found.len(), 1, "{context}: {found:?}");
            assert_eq!(found[0].max_holders, 1, "{context}");
            if session.status() == RunStatus::Completed {
                assert!(session.findings().iter().all(|f| f.kind.as_str() != "lock-misuse"), "{context}: {:?}", session.findings());
                let older: Vec<(u64, [u64; 3])> = session.stale_reads().iter().map(|r| (r.step, r.work_item)).collect();
                check_alternates(&found[0], &older, &context);
            }
        }
        if model == MemoryModel::Relaxed && kind == SchedulerKind::Random {
            assert!(stale > 0, "no lock's poll read an older value under {} seed {seed}: the relaxed model goes untested", kind.name());
        }
        for (file, source) in look_alikes {
            let context = format!("{file} under {} seed {seed}, {model:?} model", kind.name());
            let mut scenario = run_test(file, source, kind, seed);
            scenario.memory_model = model;
            let session = run(scenario);
            assert_eq!(session.status(), RunStatus::Completed, "{context}");
            assert_eq!(session.locks(), [], "{context}");
            assert!(session.findings().is_empty(), "{context}: {:?}", session.findings());
        }
    }
}

/// A lock taken and never released is recognised when the others spin for it, and the hang
/// names it, its holder and what the holder waits for, under every schedule.
#[test]
fn a_lock_that_hangs_before_its_first_release_is_named_with_its_holder() {
    let source = include_str!("../../tests/data/run/lock_never_released_hang.cl");
    for seed in 0..40 {
        let session = run(run_test("lock_never_released_hang.cl", source, SchedulerKind::Random, seed));
        assert_eq!(session.status(), RunStatus::Livelock, "seed {seed}");
        let locks = session.locks();
        assert_eq!((locks.len(), locks[0].location.as_str(), locks[0].acquisitions), (1, "lock[0]", 1), "seed {seed}");
        let hang = session.findings().iter().find(|f| f.kind.as_str() == "livelock").expect("a livelock finding");
        let spinners = hang.related.iter().find(|r| r.message.contains("spin")).expect("the spinners");
        assert!(spinners.message.contains("waiting for the lock `lock[0]`, held by work-item"), "seed {seed}: {}", spinners.message);
        assert!(spinners.message.contains("which waits for them at the barrier at line 9"), "seed {seed}: {}", spinners.message);
    }
}
