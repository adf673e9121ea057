//! Time travel is exact: `seek(n)` gives the state a fresh run first reached at step n,
//! whether it goes backwards or forwards, across snapshots, and with manual steps mixed in.

mod common;

use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::why;

/// Eight work-items each doing 600 atomic adds and plain read-modify-writes: about 9,600
/// steps, so seeks cross several snapshots.
const LOOP: &str = "__kernel void busy(__global int *c) {
    for (int k = 0; k < 600; k++) { atomic_add(&c[0], 1); c[1] = c[1] + 1; }
}";

fn scenario(seed: u64) -> Scenario {
    let mut s = Scenario::new(LOOP, "busy.cl", Dialect::OpenCl);
    s.launch.global = vec![8];
    s.launch.local = Some(vec![4]);
    s.args = vec![ArgBinding::parse("c=int[2]").expect("valid argument")];
    s.scheduler = SchedulerKind::Random;
    s.seed = seed;
    s
}

/// What a session shows at its current step.
fn state(session: &Session) -> String {
    let report = why::report(session);
    let lanes: Vec<String> = (0..session.work_item_count()).map(|i| format!("{:?}", session.work_item(i))).collect();
    format!(
        "{} {} {} {:?} {:?} {:?} {}",
        report.steps,
        report.trace_hash,
        session.events().len(),
        report.buffers,
        report.findings,
        report.locks,
        lanes.join(";")
    )
}

fn fresh_at(seed: u64, n: u64) -> String {
    let mut s = Session::new(scenario(seed)).expect("compiles");
    s.run(n);
    state(&s)
}

#[test]
fn seeking_anywhere_equals_a_fresh_run_to_that_step() {
    let mut session = Session::new(scenario(3)).expect("compiles");
    let end = session.run(u64::MAX);
    assert!(end > 5000, "the run should cross snapshots, took {end} steps");
    let final_state = state(&session);
    for n in [0, 1, 2047, 2048, 2049, 4100, end / 2, end - 1, 17, end] {
        assert_eq!(session.seek(n), n);
        assert_eq!(state(&session), fresh_at(3, n), "seek({n})");
    }
    // Forwards from the past replays the same future.
    session.seek(100);
    session.seek(end);
    assert_eq!(state(&session), final_state);
}

#[test]
fn manual_steps_are_replayed_exactly() {
    let mut session = Session::new(scenario(9)).expect("compiles");
    session.run(50);
    assert!(session.step_work_item(5) || session.step_work_item(6), "some work-item can step by hand");
    session.run(3000);
    let at = session.steps();
    let expected = state(&session);
    session.seek(10);
    session.seek(at);
    assert_eq!(state(&session), expected);
    // A work-item that cannot step is refused without changing anything.
    let before = state(&session);
    assert!(!session.step_work_item(10_000));
    assert_eq!(state(&session), before);
}

/// Seeking back and then stepping by hand leaves the recorded path: the events after it are
/// recorded anew, each as a fresh run that took the same steps makes it, not the ones the
/// session had recorded before going back.
#[test]
fn stepping_by_hand_after_seeking_back_records_the_new_path() {
    let events = |s: &Session| s.events().iter().collect::<Vec<_>>();
    let mut session = Session::new(scenario(5)).expect("compiles");
    session.run(u64::MAX);
    let mut fresh = Session::new(scenario(5)).expect("compiles");
    fresh.run(201);
    let recorded = fresh.events().iter().last().expect("a step makes an event").work_item as usize;
    assert_eq!(session.seek(200), 200);
    let wi = (0..8).find(|&wi| wi != recorded && session.step_work_item(wi)).expect("another work-item can step by hand");
    session.run(400);
    let mut fresh = Session::new(scenario(5)).expect("compiles");
    fresh.run(200);
    assert!(fresh.step_work_item(wi));
    fresh.run(400);
    assert_eq!(state(&session), state(&fresh));
    assert_eq!(events(&session), events(&fresh));
}

/// A run that ended, was taken back and ended otherwise reports the locks of the path it
/// took last: the analysis kept from its first end is not the second's.
#[test]
fn a_run_that_ends_again_on_another_path_reports_that_paths_locks() {
    let scenario = common::example("flag_mutex_product.toml");
    let mut session = Session::new(scenario.clone()).expect("the example compiles");
    let end = session.run(u64::MAX);
    assert!(!why::report(&session).locks.is_empty(), "the example's run uses its lock");
    let mut checked = 0;
    for back in (1..end).rev().step_by(3) {
        let mut fresh = Session::new(scenario.clone()).expect("the example compiles");
        fresh.run(back + 1);
        let recorded = fresh.events().iter().last().expect("a step makes an event").work_item as usize;
        session.seek(end);
        let ended = state(&session);
        assert_eq!(session.seek(back), back);
        let Some(wi) = (0..session.work_item_count()).find(|&wi| wi != recorded && session.step_work_item(wi)) else { continue };
        session.run(u64::MAX);
        let mut fresh = Session::new(scenario.clone()).expect("the example compiles");
        fresh.run(back);
        assert!(fresh.step_work_item(wi));
        fresh.run(u64::MAX);
        let again = state(&session);
        assert_eq!(again, state(&fresh), "taken back to step {back}, work-item {wi} stepped by hand");
        if again != ended {
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} paths ended otherwise");
}

/// The law on every example, under every scheduler that chooses by itself, with one resident
/// group (groups starting mid-run, also under the fair progress model, whose first check may
/// start groups at the launch that restoring step 0 makes again) and a step per statement:
/// seeking back to a few steps gives what a fresh run shows there.
#[test]
fn seeking_equals_a_fresh_run_for_every_example_and_scheduler() {
    for (file, _, _) in common::EXAMPLES {
        for kind in [SchedulerKind::Random, SchedulerKind::Pct, SchedulerKind::Lockstep, SchedulerKind::RoundRobin, SchedulerKind::RunToBlock] {
            for variant in 0..4 {
                let mut scenario = common::example(file);
                scenario.scheduler = kind;
                scenario.seed = 11;
                match variant {
                    1 => scenario.max_resident_groups = Some(1),
                    2 => scenario.granularity = interleave_engine::scenario::Granularity::Statement,
                    3 => {
                        scenario.max_resident_groups = Some(1);
                        scenario.progress = interleave_engine::scenario::Progress::Fair;
                    }
                    _ => {}
                }
                let mut session = Session::new(scenario.clone()).expect("the example compiles");
                let end = session.run(20_000);
                for n in [end / 3, 1, end.saturating_sub(1), end / 2, end] {
                    session.seek(n);
                    let mut fresh = Session::new(scenario.clone()).expect("the example compiles");
                    fresh.run(n);
                    assert_eq!(state(&session), state(&fresh), "{file} under {} (variant {variant}) at step {n}", kind.name());
                }
            }
        }
    }
}

/// Findings made between the current step and a later snapshot come back when a forward seek
/// restores that snapshot.
#[test]
fn a_forward_seek_keeps_the_findings_made_on_the_way() {
    let mut session = Session::new(scenario(5)).expect("compiles");
    let end = session.run(u64::MAX);
    let all = session.findings().to_vec();
    assert!(!all.is_empty(), "the loop's plain read-modify-write races");
    session.seek(1);
    session.seek(end);
    assert_eq!(session.findings(), &all[..]);
    let mut fresh = Session::new(scenario(5)).expect("compiles");
    fresh.run(end - 1);
    session.seek(end - 1);
    assert_eq!(session.findings(), fresh.findings());
}

/// A launch large enough that each step asks the processor to load what the next steps will
/// touch (16,384 work-items: the engine does so from 8,192), guessing them from the random
/// scheduler's generator on the way forward and reading them from the recorded decisions on
/// a replay. The guesses, right or wrong, change nothing: seeking back replays to the same
/// state as a fresh run, and on to the same end.
#[test]
fn a_large_launch_seeks_like_a_fresh_run() {
    const REDUCE: &str = "__kernel void sum(__global const int *in, __global int *total, __local int *part) {
        int l = get_local_id(0);
        part[l] = in[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
            if (l < s) part[l] += part[l + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (l == 0) atomic_add(total, part[0]);
        if (l == 1) total[1] = l;
    }";
    let large = |seed: u64| {
        let mut s = Scenario::new(REDUCE, "sum.cl", Dialect::OpenCl);
        s.launch.global = vec![16384];
        s.launch.local = Some(vec![64]);
        s.args = ["in=int[16384]:fill=1", "total=int[2]", "part=local:256"].map(|a| ArgBinding::parse(a).expect("valid argument")).to_vec();
        s.scheduler = SchedulerKind::Random;
        s.seed = seed;
        s
    };
    let mut session = Session::new(large(11)).expect("compiles");
    let end = session.run(u64::MAX);
    let report = why::report(&session);
    assert_eq!(report.status, interleave_engine::report::RunStatus::Completed, "{:?}", report.findings);
    assert!(report.findings.iter().any(|f| f.kind == interleave_engine::report::FindingKind::DataRace), "work-items 1 of each group race on total[1]");
    let final_state = state(&session);
    for n in [end / 3, end - 1, 5] {
        assert_eq!(session.seek(n), n);
        let mut fresh = Session::new(large(11)).expect("compiles");
        fresh.run(n);
        assert_eq!(state(&session), state(&fresh), "seek({n})");
    }
    session.seek(end);
    assert_eq!(state(&session), final_state);
}

/// Read-only buffers and constant memory never change after the launch, so a snapshot keeps
/// none of their contents and restoring one leaves the live machine's in place; which
/// work-items may step (the scheduler's `ready_pos`) is not kept either but rebuilt from the
/// ready list. A kernel that reads a read-only buffer, a read-only buffer nothing initialised
/// (each read of it a finding) and constant memory on every round still seeks like a fresh
/// run, backwards and forwards across snapshots, under a scheduler that reads `ready_pos`.
#[test]
fn read_only_memory_and_the_ready_list_come_back_from_a_seek() {
    const WEIGHTED: &str = "__constant int weights[4] = {1, 2, 3, 4};
    __kernel void weighted(__global const int *in, __global const int *unset, __global int *out, __global int *rounds) {
        int i = get_global_id(0);
        for (int k = 0; k < 40; k++) {
            out[i] += in[(i + k) % 64] * weights[k % 4];
            if (k == 20 + i % 8) out[i] += unset[i];
            atomic_add(rounds, 1);
        }
    }";
    let scenario = |kind: SchedulerKind| {
        let mut s = Scenario::new(WEIGHTED, "weighted.cl", Dialect::OpenCl);
        s.launch.global = vec![64];
        s.launch.local = Some(vec![16]);
        s.args = ["in=int[64]:range=3:7:ro", "unset=int[64]:uninit:ro", "out=int[64]", "rounds=int[1]"]
            .map(|a| ArgBinding::parse(a).expect("valid argument"))
            .to_vec();
        s.scheduler = kind;
        s.seed = 3;
        s
    };
    for kind in [SchedulerKind::Random, SchedulerKind::RoundRobin, SchedulerKind::Pct] {
        let mut session = Session::new(scenario(kind)).expect("compiles");
        let end = session.run(u64::MAX);
        let report = why::report(&session);
        assert_eq!(report.status, interleave_engine::report::RunStatus::Completed, "{:?}", report.findings);
        assert!(report.findings.iter().any(|f| f.kind == interleave_engine::report::FindingKind::UninitializedRead), "reads of `unset` are found");
        // A machine this small is snapshotted every 2,048 steps.
        assert!(end > 3 * 2048, "{end} steps: enough for several snapshots");
        let final_state = state(&session);
        for n in [end / 2, 3, end - 1, end / 5, end * 4 / 5] {
            assert_eq!(session.seek(n), n);
            let mut fresh = Session::new(scenario(kind)).expect("compiles");
            fresh.run(n);
            assert_eq!(state(&session), state(&fresh), "{} at seek({n})", kind.name());
        }
        session.seek(end);
        assert_eq!(state(&session), final_state, "{}", kind.name());
    }
}
