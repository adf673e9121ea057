//! The engine's benchmarks: interpreter throughput, front-end time, seeking in a long run and
//! exploration. BENCHMARKS.md says what each one measures and records the figures.
//!
//! Run them with `cargo xtask bench` or `cargo bench -p interleave-engine --bench engine`;
//! `-- --test` runs each once, as a smoke test.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode, Throughput};
use interleave_engine::explore::{explore, explore_with, Config};
use interleave_engine::frontend;
use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, MemoryModel, Scenario, SchedulerKind};
use interleave_engine::session::Session;

const REDUCE: &str = include_str!("../../static/examples/reduce.cl");
const COUNT: &str = include_str!("../../static/examples/count.cl");
const BUSY_LOOP: &str = include_str!("busy_loop.cl");
const MP: &str = include_str!("../../static/examples/litmus/mp.litmus");
const SB: &str = include_str!("../../static/examples/litmus/sb.litmus");
const IRIW: &str = include_str!("../../static/examples/litmus/iriw.litmus");

/// Enough steps for every scenario here to complete rather than stop at the step limit.
const MAX_STEPS: u64 = 10_000_000;

fn scenario(source: &str, file_name: &str, global: u64, local: u64, args: &[&str]) -> Scenario {
    let mut s = Scenario::new(source, file_name, Dialect::OpenCl);
    s.launch.global = vec![global];
    s.launch.local = Some(vec![local]);
    s.args = args.iter().map(|a| ArgBinding::parse(a).expect("valid benchmark argument")).collect();
    s.scheduler = SchedulerKind::Random;
    s.max_steps = MAX_STEPS;
    s
}

/// The reduction as its source describes it: 65,536 work-items in work-groups of 256, so 256
/// partial sums and one total. The input counts from 0, so the total, 65,536 x 65,535 / 2,
/// still fits in an `int`.
fn reduction() -> Scenario {
    scenario(REDUCE, "reduce.cl", 65_536, 256, &["in=int[65536]:range=0:1:ro", "partial=int[256]", "total=int[1]"])
}

/// A run of just over a million steps over 256 work-items.
fn busy_loop() -> Scenario {
    scenario(BUSY_LOOP, "busy_loop.cl", 256, 64, &["counters=int[2]"])
}

/// The app's default example with its default launch.
fn count() -> Scenario {
    scenario(COUNT, "count.cl", 8, 4, &["ids=int[8]", "counters=int[2]"])
}

/// Every work-item adds one to a single counter: 65,536 atomics on one word from 256
/// work-groups, each group's a kind of access of its own to the race detector.
fn counter() -> Scenario {
    scenario("__kernel void counter(__global int *c) { atomic_inc(c); }", "counter.cl", 65_536, 256, &["c=int[1]"])
}

/// Runs `scenario` to the end and returns the finished session, checking that it completed:
/// a benchmark of a run that stopped early would measure the wrong thing.
fn run_to_end(scenario: Scenario) -> Session {
    let mut session = Session::new(scenario).expect("the benchmark kernel compiles and launches");
    session.run(u64::MAX);
    assert_eq!(session.status(), RunStatus::Completed, "the benchmark run completes");
    session
}

fn reduction_65536(c: &mut Criterion) {
    // Throughput in simulated work-item operations (private instructions and events), the
    // unit of the product's target; the step count is about a fifth of it here.
    let operations = run_to_end(reduction()).operations();
    let mut group = c.benchmark_group("reduction_65536");
    // Each iteration is a whole run of about a million steps. Ten samples of one run each
    // (flat sampling) keep the suite short; criterion's default would make 55 runs.
    group.sample_size(10).sampling_mode(SamplingMode::Flat).measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(operations));
    group.bench_function("launch_and_run", |b| {
        b.iter(|| {
            let mut session = Session::new(reduction()).expect("compiles");
            session.run(u64::MAX);
            black_box(session.steps())
        })
    });
    // The launch (compiling and filling 65,536 work-items) happens outside the timed part, so
    // this is the interpreter and scheduler alone.
    group.bench_function("run_only", |b| {
        b.iter_batched(
            || Session::new(reduction()).expect("compiles"),
            |mut session| {
                session.run(u64::MAX);
                session
            },
            BatchSize::PerIteration,
        )
    });
    // The same run without the data-race detector, to measure what it costs.
    group.bench_function("run_only_without_race_detection", |b| {
        b.iter_batched(
            || {
                let mut scenario = reduction();
                scenario.race_detection = false;
                Session::new(scenario).expect("compiles")
            },
            |mut session| {
                session.run(u64::MAX);
                session
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// A whole run of `scenario()`, from `Session::new` to its end, in steps per second: ten
/// samples of one run each.
fn launch_and_run_in_steps(c: &mut Criterion, name: &str, scenario: fn() -> Scenario) {
    let steps = run_to_end(scenario()).steps();
    let mut group = c.benchmark_group(name);
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(steps));
    group.bench_function("launch_and_run", |b| {
        b.iter(|| {
            let mut session = Session::new(scenario()).expect("compiles");
            session.run(u64::MAX);
            black_box(session.steps())
        })
    });
    group.finish();
}

/// The same measurement on a small launch, 256 work-items against the reduction's 65,536, to
/// show how much the cost of a step depends on the size of the launch.
fn busy_loop_256(c: &mut Criterion) {
    launch_and_run_in_steps(c, "busy_loop_256", busy_loop);
}

/// A word that every work-group's atomics touch: the race detector keeps a bounded number of
/// its accesses, so each access costs the same however many groups came before.
fn counter_65536(c: &mut Criterion) {
    launch_and_run_in_steps(c, "counter_65536", counter);
}

fn compile(c: &mut Criterion) {
    let mut group = c.benchmark_group("compile");
    group.throughput(Throughput::Bytes(REDUCE.len() as u64));
    // `frontend::kernels` lexes, preprocesses, parses and lowers, then lists the signatures,
    // which costs next to nothing; it is the public entry point to the front end.
    group.bench_function("reduce_cl", |b| b.iter(|| frontend::kernels(black_box(REDUCE), Dialect::OpenCl, &[]).expect("compiles")));
    group.finish();
}

/// Where the seek benchmark jumps, in this order and then round again: backwards and forwards,
/// short and long distances, both ends of the run.
const SEEK_TARGETS: [u64; 8] = [999_999, 123_457, 500_001, 750_003, 42, 999_000, 250_007, 871_111];

/// The same targets from the latest to the earliest, for backward seeks only.
const SEEK_TARGETS_DESCENDING: [u64; 8] = [999_999, 999_000, 871_111, 750_003, 500_001, 250_007, 123_457, 42];

/// Times backward seeks through `targets` (latest first), one per iteration. Only the wrap
/// from the earliest target back to the first needs a move to the end of the run, which is
/// not timed. The session may be anywhere in its run when this starts.
fn time_backward_seeks(b: &mut criterion::Bencher<'_>, session: &mut Session, targets: &[u64]) {
    let mut next = 0;
    b.iter_custom(|iterations| {
        let mut total = Duration::ZERO;
        for _ in 0..iterations {
            if next % targets.len() == 0 {
                session.seek(u64::MAX);
            }
            let target = targets[next % targets.len()];
            next += 1;
            let start = Instant::now();
            black_box(session.seek(black_box(target)));
            total += start.elapsed();
        }
        total
    });
}

fn seek_1m(c: &mut Criterion) {
    let mut session = run_to_end(busy_loop());
    let end = session.steps();
    assert!(end >= 1_000_000, "the seek benchmark needs a run of a million steps, took {end}");
    let mut group = c.benchmark_group("seek_1m");
    group.sample_size(10);
    // One iteration is one seek, from wherever the previous one landed to the next target, so
    // the mean is over the whole cycle of targets.
    group.bench_function("mixed", |b| {
        let mut next = 0;
        b.iter(|| {
            let target = SEEK_TARGETS[next % SEEK_TARGETS.len()];
            next += 1;
            let reached = session.seek(black_box(target));
            debug_assert_eq!(reached, target);
            reached
        })
    });
    // Backward seeks alone: each restores the snapshot at or before its target and replays
    // from there.
    group.bench_function("backward", |b| time_backward_seeks(b, &mut session, &SEEK_TARGETS_DESCENDING));
    // One step back from each target in turn, as the app's step-back button does: the move to
    // the target is not timed, the seek to the step before it is.
    group.bench_function("step_back", |b| {
        let mut next = 0;
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                let target = SEEK_TARGETS[next % SEEK_TARGETS.len()];
                next += 1;
                session.seek(target);
                let start = Instant::now();
                black_box(session.seek(black_box(target - 1)));
                total += start.elapsed();
            }
            total
        })
    });
    group.finish();
}

/// Backward seeks in the reduction, from late to early, so each restores a different snapshot.
const REDUCTION_SEEK_TARGETS: [u64; 5] = [900_001, 700_003, 500_005, 300_007, 100_009];

/// Seeking in a large launch: its machine is large, so its snapshots are far apart (the
/// snapshot budget) and a seek replays more steps, each slower than in a small launch.
fn seek_65536(c: &mut Criterion) {
    let mut session = run_to_end(reduction());
    assert!(session.steps() > REDUCTION_SEEK_TARGETS[0], "the reduction runs past the first seek target");
    let mut group = c.benchmark_group("seek_65536");
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group.bench_function("backward", |b| time_backward_seeks(b, &mut session, &REDUCTION_SEEK_TARGETS));
    group.finish();
}

fn explore_random_100(c: &mut Criterion) {
    const RUNS: u64 = 100;
    let scenario = count();
    let mut group = c.benchmark_group("explore_random_100");
    group.throughput(Throughput::Elements(RUNS));
    group.bench_function("count_cl", |b| b.iter(|| explore(black_box(&scenario), 0, RUNS).expect("count.cl runs")));
    group.finish();
}

/// A litmus test under the relaxed memory model.
fn litmus(text: &str, name: &str) -> Scenario {
    let mut s = Scenario::new(text, name, Dialect::Litmus);
    s.memory_model = MemoryModel::Relaxed;
    s
}

/// Random schedules of message passing per second (seeds 0 to 9,999, promises included).
fn litmus_mp_random(c: &mut Criterion) {
    const RUNS: u64 = 10_000;
    let scenario = litmus(MP, "mp.litmus");
    let mut group = c.benchmark_group("litmus_random");
    group.sample_size(10);
    group.throughput(Throughput::Elements(RUNS));
    let config = Config { runs: RUNS, first_seed: 0, exhaustive: false, max_preemptions: None };
    group.bench_function("mp_10000", |b| b.iter(|| explore_with(black_box(&scenario), config).expect("mp.litmus runs")));
    group.finish();
}

/// A whole exhaustive exploration of SB, MP and IRIW under the relaxed model.
fn litmus_exhaustive(c: &mut Criterion) {
    let mut group = c.benchmark_group("litmus_exhaustive");
    group.sample_size(20);
    let config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };
    for (name, text) in [("sb", SB), ("mp", MP), ("iriw", IRIW)] {
        let scenario = litmus(text, name);
        group.bench_function(name, |b| {
            b.iter(|| {
                let e = explore_with(black_box(&scenario), config).expect("the litmus test runs");
                assert!(e.complete, "{name}: the exploration covers every execution");
                e
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Modest settings: the suite shares a two-core machine and should finish in a few minutes.
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(5));
    targets = reduction_65536, busy_loop_256, counter_65536, compile, seek_1m, seek_65536, explore_random_100, litmus_mp_random, litmus_exhaustive
}
criterion_main!(benches);
