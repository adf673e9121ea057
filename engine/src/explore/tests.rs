//! The explorer's own tests: seeds, the exhaustive search and its reduction, offers.

use super::*;

const MP: &str = include_str!("../../../static/examples/litmus/mp.litmus");

fn mp(model: crate::scenario::MemoryModel) -> Scenario {
    let mut scenario = Scenario::new(MP, "mp.litmus", crate::scenario::Dialect::Litmus);
    scenario.memory_model = model;
    scenario
}

fn random(first_seed: u64, runs: u64) -> Config {
    Config { runs, first_seed, exhaustive: false, max_preemptions: None }
}

#[test]
fn seeds_split_into_contiguous_ranges() {
    assert_eq!(split_seeds(10, 10, 3), [(10, 4), (14, 3), (17, 3)]);
    assert_eq!(split_seeds(0, 2, 8), [(0, 1), (1, 1)]);
    assert_eq!(split_seeds(u64::MAX, 3, 2), [(u64::MAX, 2), (1, 1)]);
    let ranges = split_seeds(7, 1001, 4);
    assert_eq!(ranges.iter().map(|r| r.1).sum::<u64>(), 1001);
}

#[test]
fn a_split_exploration_merges_into_the_whole() {
    let scenario = mp(crate::scenario::MemoryModel::Relaxed);
    let whole = explore_with(&scenario, random(5, 300)).expect("explores");
    let mut parts: Vec<Exploration> = [(5, 100), (105, 7), (112, 193)].iter().map(|&(first, runs)| part(&scenario, random(first, runs))).collect();
    assert_eq!(merge(&parts), whole);
    assert!(whole.distinct_schedules > 0 && whole.distinct_schedules <= whole.runs);
    // The union of the parts' schedules does not depend on their order.
    parts.reverse();
    assert_eq!(merge(&parts).distinct_schedules, whole.distinct_schedules);
}

/// An exploration as a worker reports it, with its trace hashes.
fn part(scenario: &Scenario, config: Config) -> Exploration {
    let mut explorer = Explorer::new(scenario, config).expect("compiles");
    while !explorer.advance(u64::MAX).expect("explores") {}
    explorer.result()
}

/// Every run by seed is equivalent to one execution of the exhaustive search: the random
/// runs' trace hashes are among the exhaustive search's, and its executions, one per
/// trace, are as many as their distinct hashes.
#[test]
fn random_runs_are_classes_of_the_exhaustive_search() {
    let kernels = [
        ("__kernel void f(__global int *c) { int v = c[0]; c[0] = v + 1; c[1 + get_global_id(0)] = v; }", "c=int[4]", MemoryModel::Sc),
        (
            "__kernel void f(__global int *c) { c[get_global_id(0)] = 1; barrier(CLK_GLOBAL_MEM_FENCE); c[2 + get_global_id(0)] = c[1 - get_global_id(0)]; }",
            "c=int[4]",
            MemoryModel::Sc,
        ),
    ];
    for (source, arg, model) in kernels {
        let mut s = Scenario::new(source, "f.cl", Dialect::OpenCl);
        s.launch.global = vec![2];
        s.launch.local = Some(vec![2]);
        s.args = vec![ArgBinding::parse(arg).unwrap()];
        s.memory_model = model;
        let every = part(&s, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None });
        assert!(every.complete);
        assert_eq!(every.distinct_schedules, every.runs, "{source}: one execution per trace");
        let random = part(&s, random(0, 200));
        assert!(random.distinct_schedules <= random.runs);
        assert!(random.distinct_schedules > 1, "{source}");
        for h in &random.schedule_hashes {
            assert!(every.schedule_hashes.contains(h), "{source}: a random run outside the exhaustive search's traces");
        }
    }
}

#[test]
fn merging_keeps_the_first_seed_and_adds_counts() {
    let scenario = mp(crate::scenario::MemoryModel::Relaxed);
    let a = explore_with(&scenario, random(0, 50)).unwrap();
    let b = explore_with(&scenario, random(50, 50)).unwrap();
    let merged = merge(&[a.clone(), b.clone()]);
    assert_eq!(merged.runs, 100);
    assert!(!merged.complete);
    for outcome in &merged.outcomes {
        let count =
            |e: &Exploration| e.outcomes.iter().filter(|o| o.values == outcome.values && o.registers == outcome.registers).map(|o| o.count).sum::<u64>();
        assert_eq!(outcome.count, count(&a) + count(&b));
    }
    assert!(merged.outcomes.windows(2).all(|w| w[0].count >= w[1].count));
    assert_eq!(merge(&[]).runs, 0);
    assert!(!merge(&[]).complete);
}

#[test]
fn outcomes_equal_as_the_engine_compares_them_merge() {
    let outcome = |value: f64, count: u64, seed: u64| Outcome {
        values: [("f".to_string(), vec![Some(Number::Float(value))])].into(),
        registers: None,
        exists: None,
        ended: None,
        count,
        seed,
        schedule: None,
        choices: None,
        explanation: None,
    };
    let part = |outcomes: Vec<Outcome>| Exploration {
        runs: outcomes.iter().map(|o| o.count).sum(),
        discarded: 0,
        complete: false,
        findings: Vec::new(),
        outcomes,
        exists_observed: None,
        distinct_schedules: 0,
        distinct_schedules_capped: false,
        schedule_hashes: Vec::new(),
        pct: None,
        exhaustive_offer: None,
    };
    let merged = merge(&[part(vec![outcome(0.0, 2, 0), outcome(1.5, 1, 1)]), part(vec![outcome(-0.0, 3, 7), outcome(2.5, 4, 8)])]);
    let counts: Vec<(u64, u64)> = merged.outcomes.iter().map(|o| (o.count, o.seed)).collect();
    assert_eq!(counts, [(5, 0), (4, 8), (1, 1)]);
}

use crate::scenario::{ArgBinding, Dialect, MemoryModel, SchedulerKind};

#[test]
fn lost_updates_show_several_outcomes_and_each_reproduces() {
    let mut s = Scenario::new("__kernel void f(__global int *c) { c[0] = c[0] + 1; atomic_inc(&c[1]); }", "f.cl", Dialect::OpenCl);
    s.launch.global = vec![8];
    s.args = vec![ArgBinding::parse("c=int[2]").unwrap()];
    let e = explore(&s, 0, 50).unwrap();
    assert_eq!(e.runs, 50);
    assert_eq!(e.outcomes.iter().map(|o| o.count).sum::<u64>(), 50);
    assert!(e.outcomes.len() > 1, "lost updates should give several outcomes");
    for o in &e.outcomes {
        assert_eq!(o.values["c"][1], Some(Number::Int(8)), "the atomic counter never loses an update");
        let mut again = s.clone();
        again.seed = o.seed;
        let mut session = Session::new(again).unwrap();
        session.run(u64::MAX);
        assert_eq!(outcome_key(&session.report().buffers), o.values, "seed {} reproduces its outcome", o.seed);
    }
}

/// Two work-items each add one to a counter with a plain load and store: the exhaustive
/// exploration finds exactly the outcomes 1 and 2, and each replays.
#[test]
fn exhaustive_finds_every_outcome_and_each_replays() {
    let mut s = Scenario::new("__kernel void f(__global int *c) { int v = c[0]; c[0] = v + 1; }", "f.cl", Dialect::OpenCl);
    s.launch.global = vec![2];
    s.args = vec![ArgBinding::parse("c=int[1]").unwrap()];
    for model in [MemoryModel::Sc, MemoryModel::Relaxed] {
        s.memory_model = model;
        let e = explore_with(&s, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None }).unwrap();
        assert!(e.complete);
        let mut finals: Vec<Option<Number>> = e.outcomes.iter().map(|o| o.values["c"][0]).collect();
        finals.sort_by_key(|v| format!("{v:?}"));
        assert_eq!(finals, vec![Some(Number::Int(1)), Some(Number::Int(2))], "{model:?}");
        for o in &e.outcomes {
            let mut again = s.clone();
            again.scheduler = SchedulerKind::Manual;
            again.schedule = o.schedule.clone().unwrap();
            again.choices = o.choices.clone().unwrap();
            let mut session = Session::new(again).unwrap();
            session.run(u64::MAX);
            assert_eq!(outcome_key(&session.report().buffers), o.values);
        }
    }
}

/// Advancing a few executions at a time (as the app's worker does) ends with the same
/// results as one call, for seeds and for the exhaustive search.
#[test]
fn chunked_exploration_equals_one_go() {
    let mut s = Scenario::new("__kernel void f(__global int *c) { int v = c[0]; c[0] = v + 1; c[1] = v; }", "f.cl", Dialect::OpenCl);
    s.launch.global = vec![3];
    s.args = vec![ArgBinding::parse("c=int[2]").unwrap()];
    s.memory_model = MemoryModel::Relaxed;
    for exhaustive in [false, true] {
        let config = Config { runs: if exhaustive { 0 } else { 40 }, first_seed: 7, exhaustive, max_preemptions: None };
        let whole = explore_with(&s, config).unwrap();
        let mut explorer = Explorer::new(&s, config).unwrap();
        let mut chunks = 0;
        while !explorer.advance(3).unwrap() {
            chunks += 1;
            assert!(explorer.executions() <= explorer.budget());
        }
        assert!(chunks > 1, "the exploration was not split");
        assert_eq!(explorer.result(), whole, "exhaustive: {exhaustive}");
    }
}

/// A small scenario is offered its exhaustive search, with the search's own count; one
/// whose executions do not fit the budget is not.
#[test]
fn exhaustive_search_is_offered_when_it_fits() {
    let mut s = Scenario::new("__kernel void f(__global int *c) { int v = c[0]; c[0] = v + 1; }", "f.cl", Dialect::OpenCl);
    s.launch.global = vec![2];
    s.args = vec![ArgBinding::parse("c=int[1]").unwrap()];
    let every = explore_with(&s, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None }).unwrap();
    assert_eq!(exhaustive_size(&s), Some(every.runs));
    // Offered after seeds, in chunks as a worker runs it, it is the same.
    let mut explorer = Explorer::new(&s, random(0, 10)).unwrap();
    explorer.offer_exhaustive();
    while !explorer.advance(3).unwrap() {}
    let result = explorer.result();
    assert_eq!((result.runs, result.exhaustive_offer), (10, Some(every.runs)));
    s.source = "__kernel void f(__global int *c) { int v = c[0]; c[0] = v + 1; v = c[1]; c[1] = v + 1; v = c[2]; c[2] = v + 1; }".into();
    s.launch.global = vec![6];
    s.args = vec![ArgBinding::parse("c=int[3]").unwrap()];
    assert_eq!(exhaustive_size(&s), None);
}

#[test]
fn independent_steps_are_not_reordered() {
    // Four work-items writing four different words: one execution covers them all.
    let mut s = Scenario::new("__kernel void f(__global int *c) { c[get_global_id(0)] = 1; c[get_global_id(0)] = 2; }", "f.cl", Dialect::OpenCl);
    s.launch.global = vec![4];
    s.args = vec![ArgBinding::parse("c=int[4]").unwrap()];
    let e = explore_with(&s, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None }).unwrap();
    assert!(e.complete);
    assert_eq!(e.runs, 1);
    // Without reduction, a preemption bound of 0 still runs each work-item to its end.
    let bounded = explore_with(&s, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: Some(0) }).unwrap();
    assert!(bounded.complete);
    assert_eq!(bounded.runs, 24, "4! orders of whole work-items");
}

/// An offered search stops when its bookkeeping outgrows [`OFFER_WORK`], whatever the
/// memory limit: a launch of 1,024 work-items (the gallery's reduction) is a path of some
/// 14,000 steps with hundreds of agents enabled at each, whose search would take minutes
/// before its first execution ended (it did once its machines became small enough for the
/// memory limit to let the path grow that deep).
#[test]
fn an_offered_search_of_a_large_launch_ends_unoffered() {
    let mut s = Scenario::new(include_str!("../../../static/examples/reduce.cl"), "reduce.cl", Dialect::OpenCl);
    s.launch.global = vec![1024];
    s.launch.local = Some(vec![256]);
    s.args = ["in=int[1024]:range=1:1", "partial=int[4]", "total=int[1]:fill=0"].iter().map(|a| ArgBinding::parse(a).unwrap()).collect();
    s.max_memory_bytes = crate::limits::MEMORY_BYTES.max;
    assert_eq!(exhaustive_size(&s), None);
    // Run as the offer runs it, the search ends by itself (the memory limit would end it
    // with an error instead) before its first execution, incomplete: the allowance ended it.
    let mut explorer = Explorer::new(&s, Config { runs: OFFER_EXECUTIONS, first_seed: 0, exhaustive: true, max_preemptions: None }).unwrap();
    if let State::Exhaustive(search) = &mut explorer.state {
        search.work_left = OFFER_WORK;
    }
    assert_eq!(explorer.advance(u64::MAX).map_err(|d| d[0].message.clone()), Ok(true));
    let result = explorer.result();
    assert_eq!((result.complete, result.runs), (false, 0));
}
