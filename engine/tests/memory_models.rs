//! The litmus tests of `static/examples/litmus/` (OpenCL and PTX), and the read-modify-write
//! shapes of `tests/data/explore/` (OpenCL litmus tests and CUDA kernels), under both memory
//! models.
//!
//! For each test and model, exhaustive exploration must cover every execution and observe the
//! final condition exactly when the tables below say the model allows it. The relaxed model
//! includes every sequentially consistent behaviour, so each outcome of the SC exploration
//! must appear among the relaxed ones; random exploration must never find an outcome the
//! exhaustive one missed; and every outcome must replay from the schedule and decisions the
//! explorer reported.

mod common;

use std::collections::BTreeMap;

use interleave_engine::explore::{explore_with, Config, Exploration, Outcome};
use interleave_engine::scenario::{ArgBinding, Dialect, MemoryModel, Number, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::why;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/examples/litmus");
const RMW_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/explore");

/// Whether each test's condition can hold: (file, under SC, under the relaxed model).
const EXPECTED: [(&str, bool, bool); 20] = [
    // Relaxed message passing: the flag may be seen without the data.
    ("mp.litmus", false, true),
    // Release/acquire at device scope across work-groups synchronises.
    ("mp_ra_device.litmus", false, false),
    // At work-group scope across work-groups it does not.
    ("mp_ra_work_group.litmus", false, true),
    // Relaxed store buffering: both loads may miss the other store.
    ("sb.litmus", false, true),
    // seq_cst store buffering and IRIW: one total order forbids the weak outcome.
    ("sb_sc.litmus", false, false),
    ("iriw.litmus", false, false),
    // Load buffering with unconditional relaxed stores: a promise makes it visible.
    ("lb.litmus", false, true),
    // No value out of thin air, in any model.
    ("lb_thin_air.litmus", false, false),
    // Relaxed 2+2W: each location's order may disagree with program order.
    ("two_plus_two_w.litmus", false, true),
    // A barrier with CLK_GLOBAL_MEM_FENCE orders plain writes before plain reads.
    ("barrier_mp.litmus", false, false),
    // A barrier with CLK_LOCAL_MEM_FENCE does not order global memory.
    ("barrier_local_fence_mp.litmus", false, true),
    // A release on a local atomic does not order global data, even within the group...
    ("mp_local_flag.litmus", false, true),
    // ...nor through a chain whose first hop is local and second global.
    ("relay_local_flag.litmus", false, true),
    // A release on a global atomic does, at work-group scope within the group.
    ("mp_global_flag_work_group.litmus", false, false),
    // Fences naming only CLK_GLOBAL_MEM_FENCE around a relaxed local flag order nothing...
    ("mp_local_flag_global_fence.litmus", false, true),
    // ...fences naming both memories order the global data through it.
    ("mp_local_flag_both_fences.litmus", false, false),
    // PTX: release and acquire at gpu scope across CTAs are morally strong and synchronise...
    ("ptx_mp.litmus", false, false),
    // ...at cta scope across CTAs they are not.
    ("ptx_mp_cta.litmus", false, true),
    // fence.sc.sys and fence.sc.gpu on one GPU are morally strong: ordered.
    ("ptx_sb_fence_sc.litmus", false, false),
    // A barrier meeting on two resources keeps time but orders no memory.
    ("ptx_bar_resources.litmus", false, true),
];

/// The read-modify-write litmus tests of `tests/data/explore/` (`litmus_rmw_*`, whose CLI
/// output is pinned there too), as the OpenCL model (Dat3M's `opencl.cat`) decides them: relaxed
/// updates are ordered only by atomicity (an update reads the write just before its own in
/// the location's order), so every shape of plain relaxed accesses keeps its weak outcome;
/// fences, or a release read by an acquire, at device scope forbid it.
const RMW_EXPECTED: [(&str, bool, bool); 23] = [
    ("litmus_rmw_mp.litmus", false, true),
    ("litmus_rmw_mp_fence_writer.litmus", false, true),
    ("litmus_rmw_mp_fence_reader.litmus", false, true),
    ("litmus_rmw_mp_fences.litmus", false, false),
    ("litmus_rmw_mp_release_acquire.litmus", false, false),
    // A release nobody acquires, or an acquire of a relaxed write, synchronises nothing.
    ("litmus_rmw_mp_release_only.litmus", false, true),
    ("litmus_rmw_mp_acquire_only.litmus", false, true),
    // Mixed with plain atomic stores or loads.
    ("litmus_rmw_mp_stores.litmus", false, true),
    ("litmus_rmw_mp_loads.litmus", false, true),
    ("litmus_rmw_sb.litmus", false, true),
    ("litmus_rmw_sb_fences.litmus", false, false),
    ("litmus_rmw_lb.litmus", false, true),
    ("litmus_rmw_lb_fences.litmus", false, false),
    // Work-group-scope fences synchronise within their work-group only.
    ("litmus_rmw_lb_fences_work_group.litmus", false, true),
    ("litmus_rmw_lb_fences_same_group.litmus", false, false),
    ("litmus_rmw_2_2w.litmus", false, true),
    ("litmus_rmw_s.litmus", false, true),
    ("litmus_rmw_r.litmus", false, true),
    ("litmus_rmw_wrc.litmus", false, true),
    ("litmus_rmw_iriw.litmus", false, true),
    // Atomicity: two updates never both read the same write.
    ("litmus_rmw_cas_atomicity.litmus", false, false),
    ("litmus_rmw_add_atomicity.litmus", false, false),
    // Limitation: a cycle through control dependencies. Dat3M's OpenCL model has no axiom
    // against it and allows the outcome; the PTX model forbids it (acyclic rf | dep), and so
    // does the engine in both dialects (a promise is certified by its work-item alone).
    ("litmus_lb_ctrl_cycle.litmus", false, false),
];

/// Every litmus test of both tables, with the folder it is in.
fn all_tests() -> impl Iterator<Item = (&'static str, &'static str, bool, bool)> {
    EXPECTED.into_iter().map(|(f, sc, rlx)| (DIR, f, sc, rlx)).chain(RMW_EXPECTED.into_iter().map(|(f, sc, rlx)| (RMW_DIR, f, sc, rlx)))
}

/// Runs of the random exploration compared with the exhaustive one.
const RANDOM_RUNS: u64 = 2000;

fn scenario(dir: &str, file: &str, model: MemoryModel) -> Scenario {
    let path = format!("{dir}/{file}");
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut s = Scenario::new(source, file, Dialect::Litmus);
    s.memory_model = model;
    s
}

fn model_name(model: MemoryModel) -> &'static str {
    match model {
        MemoryModel::Sc => "sc",
        MemoryModel::Relaxed => "relaxed",
    }
}

fn exhaustive(file: &str, model: MemoryModel) -> Exploration {
    let config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };
    explore_with(&scenario(dir_of(file), file, model), config).unwrap_or_else(|d| panic!("{file}: {d:?}"))
}

fn random(file: &str, model: MemoryModel) -> Exploration {
    let config = Config { runs: RANDOM_RUNS, first_seed: 0, exhaustive: false, max_preemptions: None };
    explore_with(&scenario(dir_of(file), file, model), config).unwrap_or_else(|d| panic!("{file}: {d:?}"))
}

/// The folder of a test of either table.
fn dir_of(file: &str) -> &'static str {
    all_tests().find(|t| t.1 == file).map_or(DIR, |t| t.0)
}

/// What distinguishes two outcomes of a litmus test: its registers and final locations.
type Key = (BTreeMap<String, i64>, BTreeMap<String, Vec<Option<Number>>>);

fn key(o: &Outcome) -> Key {
    (o.registers.clone().expect("a litmus outcome has registers"), o.values.clone())
}

fn show(k: &Key) -> String {
    let registers: Vec<String> = k.0.iter().map(|(r, v)| format!("{r}={v}")).collect();
    let value = |v: &Option<Number>| v.map_or("?".to_string(), |n| n.to_string());
    let locations: Vec<String> = k.1.iter().map(|(l, v)| format!("{l}={}", v.iter().map(value).collect::<Vec<_>>().join(","))).collect();
    format!("{} | {}", registers.join(" "), locations.join(" "))
}

#[test]
fn the_table_lists_every_litmus_example() {
    let mut on_disk: Vec<String> = std::fs::read_dir(DIR)
        .expect("the litmus examples folder")
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".litmus"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = EXPECTED.iter().map(|(f, _, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "static/examples/litmus and the table of tests/memory_models.rs differ");
    let mut rmw: Vec<String> = std::fs::read_dir(RMW_DIR)
        .expect("the explore test folder")
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".litmus") && (n.starts_with("litmus_rmw_") || n == "litmus_lb_ctrl_cycle.litmus"))
        .collect();
    rmw.sort();
    let mut listed: Vec<String> = RMW_EXPECTED.iter().map(|(f, _, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(rmw, listed, "tests/data/explore/litmus_rmw_* and RMW_EXPECTED differ");
}

#[test]
fn exhaustive_exploration_observes_the_condition_exactly_when_the_model_allows_it() {
    let mut wrong = Vec::new();
    for (_, file, sc, relaxed) in all_tests() {
        for (model, expected) in [(MemoryModel::Sc, sc), (MemoryModel::Relaxed, relaxed)] {
            let e = exhaustive(file, model);
            let name = model_name(model);
            assert!(e.complete, "{file} ({name}): exhaustive exploration stopped after {} runs", e.runs);
            assert!(e.runs > 0 && !e.outcomes.is_empty(), "{file} ({name}): nothing explored");
            let any = e.outcomes.iter().any(|o| o.exists == Some(true));
            assert_eq!(e.exists_observed, Some(any), "{file} ({name}): exists_observed disagrees with the outcomes");
            if e.exists_observed != Some(expected) {
                wrong.push(format!("{file} ({name}): exists_observed {:?}, expected {expected}", e.exists_observed));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_sequentially_consistent_outcome_is_also_a_relaxed_one() {
    let mut missing = Vec::new();
    for (_, file, _, _) in all_tests() {
        let relaxed: Vec<Key> = exhaustive(file, MemoryModel::Relaxed).outcomes.iter().map(key).collect();
        for o in &exhaustive(file, MemoryModel::Sc).outcomes {
            if !relaxed.contains(&key(o)) {
                missing.push(format!("{file}: {}", show(&key(o))));
            }
        }
    }
    assert!(missing.is_empty(), "SC outcomes the relaxed exploration never reached:\n{}", missing.join("\n"));
}

#[test]
fn random_exploration_finds_nothing_the_exhaustive_one_missed() {
    let mut missed = Vec::new();
    for (_, file, _, _) in all_tests() {
        for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
            let all: Vec<Key> = exhaustive(file, model).outcomes.iter().map(key).collect();
            for o in &random(file, model).outcomes {
                if !all.contains(&key(o)) {
                    missed.push(format!("{file} ({}): seed {} gives {}", model_name(model), o.seed, show(&key(o))));
                }
            }
        }
    }
    assert!(missed.is_empty(), "outcomes of random runs that exhaustive exploration did not find:\n{}", missed.join("\n"));
}

#[test]
fn every_exhaustive_outcome_replays_from_its_schedule_and_choices() {
    let mut wrong = Vec::new();
    for (_, file, _, _) in all_tests() {
        for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
            for o in &exhaustive(file, model).outcomes {
                let mut s = scenario(dir_of(file), file, model);
                s.scheduler = SchedulerKind::Manual;
                s.seed = o.seed;
                s.schedule = o.schedule.clone().expect("an exhaustive outcome has a schedule");
                s.choices = o.choices.clone().expect("an exhaustive outcome has choices");
                let mut session = Session::new(s).expect("the test compiles");
                session.run(u64::MAX);
                let report = why::report(&session);
                if report.registers != o.registers || report.exists != o.exists {
                    wrong.push(format!(
                        "{file} ({}): schedule {:?} choices {:?} gave {:?}, the explorer reported {}",
                        model_name(model),
                        o.schedule,
                        o.choices,
                        report.registers,
                        show(&key(o))
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The kinds of the findings of an exploration.
fn kinds(e: &Exploration) -> Vec<&'static str> {
    e.findings.iter().map(|f| f.finding.kind.as_str()).collect()
}

#[test]
fn scopes_decide_whether_release_and_acquire_synchronise() {
    // Across work-groups, work-group scope does not cover the pair: the acquire is reported
    // and the plain data races.
    for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
        let k = kinds(&exhaustive("mp_ra_work_group.litmus", model));
        assert!(k.contains(&"scope-mismatch") && k.contains(&"data-race"), "{}: {k:?}", model_name(model));
    }
    // A barrier that fences only local memory leaves the plain global accesses racing.
    for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
        let k = kinds(&exhaustive("barrier_local_fence_mp.litmus", model));
        assert!(k.contains(&"data-race"), "barrier_local_fence_mp.litmus ({}): {k:?}", model_name(model));
    }
    // Atomics alone, release and acquire at device scope, and a barrier that fences global
    // memory: nothing races.
    for file in ["mp_ra_device.litmus", "barrier_mp.litmus", "mp.litmus", "sb.litmus", "iriw.litmus"] {
        for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
            let k = kinds(&exhaustive(file, model));
            assert!(!k.contains(&"data-race") && !k.contains(&"scope-mismatch"), "{file} ({}): {k:?}", model_name(model));
        }
    }
}

#[test]
fn a_release_orders_only_the_memory_of_its_address_space() {
    // The release on a local flag (directly, or as the first hop of a relay, or by fences
    // that name global memory only) does not order the write of the global x before its
    // read: the detector reports that race, on x only.
    for file in ["mp_local_flag.litmus", "relay_local_flag.litmus", "mp_local_flag_global_fence.litmus"] {
        for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
            let e = exhaustive(file, model);
            let races: Vec<&str> = e.findings.iter().filter(|f| f.finding.kind.as_str() == "data-race").map(|f| f.finding.message.as_str()).collect();
            assert!(!races.is_empty() && races.iter().all(|m| m.contains("`x`")), "{file} ({}): {races:?}", model_name(model));
            assert!(!kinds(&e).contains(&"scope-mismatch"), "{file} ({}): {:?}", model_name(model), kinds(&e));
        }
    }
    // A global flag, or fences naming both memories around the local flag, order it.
    for file in ["mp_global_flag_work_group.litmus", "mp_local_flag_both_fences.litmus"] {
        for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
            let k = kinds(&exhaustive(file, model));
            assert!(k.is_empty(), "{file} ({}): {k:?}", model_name(model));
        }
    }
}

/// The distinct final contents of `seen` ([Y read, X read]) an exploration found.
fn seen(e: &Exploration) -> Vec<Vec<Option<Number>>> {
    e.outcomes.iter().map(|o| o.values["seen"].clone()).collect()
}

#[test]
fn threadfence_keeps_the_new_y_from_showing_with_the_old_x() {
    let stale = vec![Some(Number::Int(20)), Some(Number::Int(1))];
    for (file, fenced) in [("threadfence_xy_nofence.toml", false), ("threadfence_xy.toml", true)] {
        let scenario = common::example(file);
        assert_eq!(scenario.memory_model, MemoryModel::Relaxed, "{file}");
        let all = explore_with(&scenario, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None }).expect("it compiles");
        assert!(all.complete, "{file}");
        assert!(all.findings.is_empty(), "{file}: volatile accesses do not race: {:?}", all.findings);
        assert_eq!(seen(&all).contains(&stale), !fenced, "{file}: exhaustive outcomes {:?}", seen(&all));
        let sampled = explore_with(&scenario, Config { runs: RANDOM_RUNS, first_seed: 0, exhaustive: false, max_preemptions: None }).expect("it compiles");
        for s in seen(&sampled) {
            assert!(seen(&all).contains(&s), "{file}: random runs found {s:?}, exhaustive exploration did not");
        }
        assert_eq!(seen(&sampled).contains(&stale), !fenced, "{file}: random outcomes {:?}", seen(&sampled));
        // Under sequential consistency the stale pair never shows, fences or not.
        let mut sc = scenario.clone();
        sc.memory_model = MemoryModel::Sc;
        let sc = explore_with(&sc, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None }).expect("it compiles");
        assert!(sc.complete && !seen(&sc).contains(&stale), "{file} under SC: {:?}", seen(&sc));
    }
}

/// Partial-order reduction may skip reorderings of independent steps, never an outcome: the
/// reduced exploration finds exactly what the unreduced one (every schedule within a bound
/// higher than any of these tests needs) finds.
#[test]
fn partial_order_reduction_loses_no_outcome() {
    for (_, file, _, _) in all_tests() {
        for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
            let s = scenario(dir_of(file), file, model);
            let reduced = explore_with(&s, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None }).unwrap();
            let full = explore_with(&s, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: Some(64) }).unwrap();
            assert!(reduced.complete && full.complete, "{file} {}", model_name(model));
            let keys = |e: &Exploration| e.outcomes.iter().map(|o| show(&key(o))).collect::<std::collections::BTreeSet<String>>();
            assert_eq!(keys(&reduced), keys(&full), "{file} under {}", model_name(model));
            assert!(reduced.runs <= full.runs, "{file}: the reduction ran more executions than full enumeration");
        }
    }
}

/// The CUDA kernels `tests/data/explore/cuda_rmw_*.cu` (whose CLI output is pinned there too):
/// two blocks of one thread write and read `X` and `Y` with `atomicExch` and `atomicAdd(p, 0)`
/// only, and store what they read in `seen`. For each: the weak value of `seen`, and whether
/// the PTX model (CUDA's atomics are relaxed at GPU scope, `__threadfence()` is
/// `fence.sc.gpu`, `__threadfence_block()` `fence.sc.cta`, which orders nothing for another
/// block) allows it. NVIDIA hardware shows the weak outcome of MP, SB and LB, and of MP with a
/// fence on one side only; with fences on both sides, never.
const CUDA_RMW: [(&str, [i64; 2], bool); 10] = [
    ("cuda_rmw_mp.cu", [1, 0], true),
    ("cuda_rmw_mp_fence_writer.cu", [1, 0], true),
    ("cuda_rmw_mp_fence_reader.cu", [1, 0], true),
    ("cuda_rmw_mp_fences.cu", [1, 0], false),
    ("cuda_rmw_sb.cu", [0, 0], true),
    ("cuda_rmw_sb_fences.cu", [0, 0], false),
    ("cuda_rmw_lb.cu", [1, 1], true),
    ("cuda_rmw_lb_fences.cu", [1, 1], false),
    ("cuda_rmw_mp_fences_block.cu", [1, 0], true),
    ("cuda_rmw_lb_fences_block.cu", [1, 1], true),
];

fn cuda(file: &str, model: MemoryModel) -> Scenario {
    let path = format!("{RMW_DIR}/{file}");
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut s = Scenario::new(source, file, Dialect::Cuda);
    s.launch.global = vec![2];
    s.launch.local = Some(vec![1]);
    s.args = vec![ArgBinding::parse("seen=int[2]:fill=9").expect("a valid argument")];
    s.memory_model = model;
    s
}

#[test]
fn cuda_updates_show_exactly_the_weak_outcomes_the_ptx_model_allows() {
    let mut wrong = Vec::new();
    for (file, weak, allowed) in CUDA_RMW {
        let weak: Vec<Option<Number>> = weak.iter().map(|&v| Some(Number::Int(v))).collect();
        let config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };
        let sc = explore_with(&cuda(file, MemoryModel::Sc), config).expect("it compiles");
        let relaxed = explore_with(&cuda(file, MemoryModel::Relaxed), config).expect("it compiles");
        assert!(sc.complete && relaxed.complete, "{file}");
        assert!(relaxed.findings.is_empty(), "{file}: atomics do not race: {:?}", relaxed.findings);
        if seen(&sc).contains(&weak) {
            wrong.push(format!("{file}: SC shows {weak:?}"));
        }
        if seen(&relaxed).contains(&weak) != allowed {
            wrong.push(format!("{file}: relaxed outcomes {:?}, the weak {weak:?} should be {}", seen(&relaxed), if allowed { "among them" } else { "absent" }));
        }
        for s in seen(&sc) {
            if !seen(&relaxed).contains(&s) {
                wrong.push(format!("{file}: the SC outcome {s:?} is not a relaxed one"));
            }
        }
        let config = Config { runs: RANDOM_RUNS, first_seed: 0, exhaustive: false, max_preemptions: None };
        for s in seen(&explore_with(&cuda(file, MemoryModel::Relaxed), config).expect("it compiles")) {
            if !seen(&relaxed).contains(&s) {
                wrong.push(format!("{file}: random runs found {s:?}, exhaustive exploration did not"));
            }
        }
        for o in &relaxed.outcomes {
            let mut s = cuda(file, MemoryModel::Relaxed);
            s.scheduler = SchedulerKind::Manual;
            s.schedule = o.schedule.clone().expect("an exhaustive outcome has a schedule");
            s.choices = o.choices.clone().expect("an exhaustive outcome has choices");
            let mut session = Session::new(s).expect("it compiles");
            session.run(u64::MAX);
            let report = why::report(&session);
            let replayed = report.buffers.iter().find(|b| b.name == "seen").map(|b| b.values.clone());
            if replayed.as_ref() != Some(&o.values["seen"]) {
                wrong.push(format!("{file}: schedule {:?} choices {:?} gave {replayed:?}, not {:?}", o.schedule, o.choices, o.values["seen"]));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
