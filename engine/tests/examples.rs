//! The project's examples do what their comments promise, under many seeds: the programs that
//! are right give the right answer under every schedule, and the pitfalls go wrong under
//! some schedules and not others.

mod common;

use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{Number, Progress, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::trace::EventKind;
use interleave_engine::why;

/// Runs `scenario` to its end.
fn run(scenario: Scenario) -> Session {
    let mut session = Session::new(scenario).expect("the example compiles and launches");
    session.run(u64::MAX);
    session
}

/// The final contents of buffer `name` as integers (floats truncated).
fn buffer(session: &Session, name: &str) -> Vec<i64> {
    let report = why::report(session);
    let buffer = report.buffers.iter().find(|b| b.name == name).expect("the buffer is reported");
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

fn with_seed(file: &str, scheduler: SchedulerKind, seed: u64) -> Scenario {
    let mut s = common::example(file);
    s.scheduler = scheduler;
    s.seed = seed;
    s
}

#[test]
fn every_example_file_is_listed() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/examples");
    let on_disk: std::collections::BTreeSet<String> = std::fs::read_dir(dir)
        .expect("the examples folder")
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml") && n != "gallery.toml")
        .collect();
    // The gallery's manifest names every scenario file; the CLI's tests run them all. The
    // examples listed here are the ones the engine's own tests run under many schedulers, so
    // each must be a gallery scenario too.
    let manifest = std::fs::read_to_string(format!("{dir}/gallery.toml")).expect("the gallery manifest");
    let gallery: std::collections::BTreeSet<String> =
        manifest.lines().filter_map(|line| line.strip_prefix("scenario = \"")?.strip_suffix('"').map(str::to_string)).collect();
    assert_eq!(on_disk, gallery, "static/examples and the gallery manifest differ");
    for (name, _, _) in common::EXAMPLES {
        assert!(gallery.contains(name), "{name} is in tests/common's EXAMPLES but not in the gallery");
    }
}

#[test]
fn every_example_runs_to_its_end_under_its_own_settings() {
    for (file, _, _) in common::EXAMPLES {
        let session = run(common::example(file));
        assert_eq!(session.status(), RunStatus::Completed, "{file}: {:?}", session.findings());
    }
}

#[test]
fn the_product_examples_give_the_product_under_a_thousand_seeds() {
    for file in ["cas_product.toml", "flag_mutex_product.toml"] {
        for seed in 0..1000 {
            let session = run(with_seed(file, SchedulerKind::Random, seed));
            assert_eq!(session.status(), RunStatus::Completed, "{file} seed {seed}");
            assert_eq!(buffer(&session, "product"), [60], "{file} seed {seed}");
        }
        for kind in [SchedulerKind::RoundRobin, SchedulerKind::Pct, SchedulerKind::RunToBlock, SchedulerKind::Lockstep] {
            let session = run(with_seed(file, kind, 7));
            assert_eq!(buffer(&session, "product"), [60], "{file} under {}", kind.name());
        }
    }
}

#[test]
fn the_lock_based_reduction_hangs_with_one_resident_group_and_finishes_with_all() {
    let all = common::example("interwork_group_reduction.toml");
    assert_eq!(run(all.clone()).status(), RunStatus::Completed);
    let mut finished = 0;
    for seed in 0..50 {
        let mut one = with_seed("interwork_group_reduction.toml", SchedulerKind::Random, seed);
        one.max_resident_groups = Some(1);
        let session = run(one.clone());
        assert_eq!(session.status(), RunStatus::Livelock, "seed {seed}");
        assert!(session.findings().iter().any(|f| f.kind.as_str() == "livelock" && f.message.contains("never started")));
        // With every group resident, the kernel finishes unless the last group of a block
        // released the block's lock before its first group took it (the textbook's race,
        // which then spins forever on a lock nobody will release).
        let session = run(with_seed("interwork_group_reduction.toml", SchedulerKind::Random, seed));
        match session.status() {
            RunStatus::Completed => finished += 1,
            RunStatus::Livelock => {
                assert!(session.findings().iter().all(|f| !f.message.contains("never started")), "seed {seed}")
            }
            other => panic!("seed {seed}: {other:?}"),
        }
        // Under the fair progress model a waiting group starts when the resident ones spin,
        // so one resident group behaves like all of them.
        one.progress = Progress::Fair;
        assert_ne!(run(one).status(), RunStatus::StepLimit, "seed {seed}, fair");
    }
    assert!(finished >= 25, "only {finished} of 50 seeds finished with every group resident");
}

#[test]
fn atomic_inc_and_dec_follow_cudas_formulas_in_every_schedule() {
    for seed in 0..200 {
        let session = run(with_seed("wrapping_counters.toml", SchedulerKind::Random, seed));
        let mut atomics = 0;
        for e in session.events().iter().filter(|e| e.kind == EventKind::Atomic) {
            let (old, new) = (e.read, e.written);
            let location = e.location.expect("an atomic has a location");
            let expected = if location.offset == 0 {
                if old >= 2 {
                    0
                } else {
                    old + 1
                }
            } else if old == 0 || old > 5 {
                5
            } else {
                old - 1
            };
            assert_eq!(new, expected, "seed {seed}: old {old} at offset {}", location.offset);
            atomics += 1;
        }
        assert_eq!(atomics, 16);
        assert_eq!(buffer(&session, "counters"), [2, 4], "seed {seed}");
        // The values seen are the formula's sequence in some order.
        let mut inc = buffer(&session, "seen_inc");
        inc.sort();
        assert_eq!(inc, [0, 0, 0, 1, 1, 1, 2, 2]);
        let mut dec = buffer(&session, "seen_dec");
        dec.sort();
        assert_eq!(dec, [0, 0, 1, 2, 3, 4, 5, 5]);
    }
}

#[test]
fn weak_compare_exchange_fails_spuriously_under_some_seeds_only() {
    let (mut some_lost, mut all_won) = (false, false);
    for seed in 0..100 {
        let session = run(with_seed("weak_cas.toml", SchedulerKind::Random, seed));
        // The retry loop always claims its slot.
        assert_eq!(buffer(&session, "claims"), (1..=8).collect::<Vec<i64>>(), "seed {seed}");
        let won = buffer(&session, "won");
        // `once` holds 1 exactly where the single attempt won.
        assert_eq!(buffer(&session, "once"), won, "seed {seed}");
        some_lost |= won.contains(&0);
        all_won |= won.iter().all(|&w| w == 1);
    }
    assert!(some_lost && all_won, "spurious failures must depend on the seed");
}

#[test]
fn async_copies_without_a_barrier_go_wrong_under_some_seeds_and_never_with_it() {
    let right: Vec<i64> = (1..=8).map(|k| 101 * k).collect();
    let mut wrong_seeds = 0;
    for seed in 0..100 {
        if buffer(&run(with_seed("async_copy_reuse.toml", SchedulerKind::Random, seed)), "out") != right {
            wrong_seeds += 1;
        }
        let mut fixed = with_seed("async_copy_reuse.toml", SchedulerKind::Random, seed);
        fixed.defines.push("FIXED".into());
        assert_eq!(buffer(&run(fixed), "out"), right, "seed {seed} with the barrier");
    }
    assert!(wrong_seeds > 0 && wrong_seeds < 100, "{wrong_seeds} of 100 seeds went wrong");
}

#[test]
fn the_atomic_counter_never_loses_an_update_and_the_plain_one_can() {
    let mut plain = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let counters = buffer(&run(with_seed("count.toml", SchedulerKind::Random, seed)), "counters");
        assert_eq!(counters[1], 8, "seed {seed}");
        plain.insert(counters[0]);
    }
    assert!(plain.len() > 1 && plain.iter().all(|&c| (1..=8).contains(&c)), "{plain:?}");
}

/// The data-race findings of a run, by the name of the memory they are in.
fn races(session: &Session) -> Vec<String> {
    session.findings().iter().filter(|f| f.kind.as_str() == "data-race").map(|f| f.message.split('`').nth(1).unwrap_or_default().to_string()).collect()
}

#[test]
fn the_examples_that_are_right_report_no_race_under_many_seeds() {
    for file in
        ["cas_product.toml", "flag_mutex_product.toml", "interwork_group_reduction_fixed.toml", "reduce.toml", "weak_cas.toml", "wrapping_counters.toml"]
    {
        for seed in 0..40 {
            let session = run(with_seed(file, SchedulerKind::Random, seed));
            assert_eq!(races(&session), Vec::<String>::new(), "{file} seed {seed}");
        }
    }
    for seed in 0..40 {
        let session = run(with_seed("interwork_group_reduction_fixed.toml", SchedulerKind::Random, seed));
        assert_eq!(session.status(), RunStatus::Completed, "seed {seed}");
        assert_eq!(buffer(&session, "sums")[255], 64, "seed {seed}");
    }
}

#[test]
fn the_pitfalls_report_their_races() {
    // The book's reduction: the block's first group reads partial sums that the other groups
    // of its block published with nothing ordering them before the read.
    for seed in 0..20 {
        let session = run(with_seed("interwork_group_reduction.toml", SchedulerKind::Random, seed));
        assert!(races(&session).contains(&"sums".to_string()), "seed {seed}: {:?}", session.findings());
    }
    // Reusing the tile for the second async copy without a barrier races under every
    // schedule, whether or not this one produced a wrong sum; with the barrier it never does.
    for seed in 0..20 {
        let session = run(with_seed("async_copy_reuse.toml", SchedulerKind::Random, seed));
        let finding = session.findings().iter().find(|f| f.kind.as_str() == "data-race").expect("a race");
        let lines = [finding.line, finding.related[0].line];
        assert!(lines.contains(&15) && lines.contains(&19), "seed {seed}: lines {lines:?}");
        let mut fixed = with_seed("async_copy_reuse.toml", SchedulerKind::Random, seed);
        fixed.defines.push("FIXED".into());
        assert!(races(&run(fixed)).is_empty(), "seed {seed} with the barrier");
    }
    // The plain counter races; the atomic one does not.
    let session = run(common::example("count.toml"));
    assert!(races(&session).iter().all(|name| name == "counters") && !races(&session).is_empty());
}

#[test]
fn race_detection_changes_findings_only() {
    for (file, _, _) in common::EXAMPLES {
        let mut off = common::example(file);
        off.race_detection = false;
        let (on, off) = (run(common::example(file)), run(off));
        assert_eq!(on.trace_hash(), off.trace_hash(), "{file}");
        assert!(races(&off).is_empty(), "{file}");
        let non_race = |s: &Session| s.findings().iter().filter(|f| f.kind.as_str() != "data-race").count();
        assert_eq!(non_race(&on), non_race(&off), "{file}");
    }
}
