//! Scenarios shared by the native and the wasm determinism tests, and the pinned hashes.
// Each test binary uses part of this module; the rest is not dead, only unused there.
#![allow(dead_code)]

pub mod generate;
pub mod sync_kernels;

use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;

const COUNT: &str = include_str!("../../../static/examples/count.cl");
const HELPERS: &str = include_str!("../../../tests/data/run/helpers_and_loops.cl");

/// The pinned `name hash` lines, for the browser's comparison (tests/wasm.rs); the native test
/// reads and re-pins the same file.
pub const EXPECTED: &str = include_str!("../data/trace_hashes.txt");

fn scenario(source: &str, global: u64, local: u64, args: &[&str], scheduler: SchedulerKind, seed: u64) -> Scenario {
    let mut s = Scenario::new(source, "kernel.cl", Dialect::OpenCl);
    s.launch.global = vec![global];
    s.launch.local = Some(vec![local]);
    s.args = args.iter().map(|a| ArgBinding::parse(a).expect("valid test argument")).collect();
    s.scheduler = scheduler;
    s.seed = seed;
    s
}

/// The project's examples: each scenario file with its kernel. A native test checks that
/// this list names every file in `static/examples`.
pub const EXAMPLES: [(&str, &str, &str); 11] = [
    ("cas_product.toml", include_str!("../../../static/examples/cas_product.toml"), include_str!("../../../static/examples/cas_product.cl")),
    ("count.toml", include_str!("../../../static/examples/count.toml"), include_str!("../../../static/examples/count.cl")),
    (
        "flag_mutex_product.toml",
        include_str!("../../../static/examples/flag_mutex_product.toml"),
        include_str!("../../../static/examples/flag_mutex_product.cl"),
    ),
    (
        "interwork_group_reduction.toml",
        include_str!("../../../static/examples/interwork_group_reduction.toml"),
        include_str!("../../../static/examples/interwork_group_reduction.cl"),
    ),
    (
        "interwork_group_reduction_fixed.toml",
        include_str!("../../../static/examples/interwork_group_reduction_fixed.toml"),
        include_str!("../../../static/examples/interwork_group_reduction_fixed.cl"),
    ),
    ("reduce.toml", include_str!("../../../static/examples/reduce.toml"), include_str!("../../../static/examples/reduce.cl")),
    ("weak_cas.toml", include_str!("../../../static/examples/weak_cas.toml"), include_str!("../../../static/examples/weak_cas.cl")),
    ("wrapping_counters.toml", include_str!("../../../static/examples/wrapping_counters.toml"), include_str!("../../../static/examples/wrapping_counters.cu")),
    ("async_copy_reuse.toml", include_str!("../../../static/examples/async_copy_reuse.toml"), include_str!("../../../static/examples/async_copy_reuse.cl")),
    ("threadfence_xy.toml", include_str!("../../../static/examples/threadfence_xy.toml"), include_str!("../../../static/examples/threadfence_xy.cu")),
    (
        "threadfence_xy_nofence.toml",
        include_str!("../../../static/examples/threadfence_xy_nofence.toml"),
        include_str!("../../../static/examples/threadfence_xy_nofence.cu"),
    ),
];

/// An example's scenario, as its file describes it.
pub fn example(name: &str) -> Scenario {
    let (_, toml, source) = EXAMPLES.iter().find(|(n, _, _)| *n == name).expect("a listed example");
    interleave_engine::scenario::from_toml(toml, |file| Ok((source.to_string(), file.to_string()))).expect("a valid example")
}

/// Named scenarios covering every scheduler, barriers, atomics, helpers and printf, and every
/// example under its own settings, with one resident group, and a step per statement.
pub fn scenarios() -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for (name, kind) in SchedulerKind::ALL {
        for seed in [0, 1, 42] {
            let mut s = scenario(COUNT, 64, 16, &["ids=int[64]", "counters=int[2]"], kind, seed);
            // The manual scheduler follows a given list: a few work-items, by hand (no other
            // scheduler takes one).
            if kind == SchedulerKind::Manual {
                s.schedule = vec![0, 1, 2, 0, 16, 17, 0, 1];
            }
            out.push((format!("count-{name}-{seed}"), s));
        }
    }
    for (file, _, _) in EXAMPLES {
        let name = file.trim_end_matches(".toml");
        // Every event a step, as the links and files made before reads of unwritable memory
        // were folded name it: their hashes were pinned then and must never change.
        let every_event = || {
            let mut s = example(file);
            s.granularity = interleave_engine::scenario::Granularity::Event;
            s
        };
        out.push((format!("example-{name}"), every_event()));
        let mut one = every_event();
        one.max_resident_groups = Some(1);
        out.push((format!("example-{name}-one-resident"), one));
        out.push((format!("example-{name}-observable"), example(file)));
        let mut one = example(file);
        one.max_resident_groups = Some(1);
        out.push((format!("example-{name}-observable-one-resident"), one));
        let mut statements = example(file);
        statements.granularity = interleave_engine::scenario::Granularity::Statement;
        out.push((format!("example-{name}-statements"), statements));
    }
    out.push(("helpers-random-5".into(), scenario(HELPERS, 4, 4, &["out=int[4]", "sums=long[4]"], SchedulerKind::Random, 5)));
    out.push(("default-buffers-random-9".into(), scenario(COUNT, 32, 8, &[], SchedulerKind::Random, 9)));
    out
}

/// Runs a scenario to its end and returns its trace hash.
pub fn trace_hash(scenario: Scenario) -> String {
    let mut session = match Session::new(scenario) {
        Ok(s) => s,
        Err(d) => return format!("diagnostics: {d:?}"),
    };
    session.run(u64::MAX);
    session.trace_hash()
}

/// A thousand generated scenarios: every small example under five schedulers and 25 seeds,
/// every other one a step per statement, every third one with a single resident group.
pub fn generated() -> Vec<Scenario> {
    let schedulers = [SchedulerKind::Random, SchedulerKind::Pct, SchedulerKind::RoundRobin, SchedulerKind::RunToBlock, SchedulerKind::Lockstep];
    let mut out = Vec::new();
    // The larger reduction example is left out so that the thousand runs stay quick in wasm.
    for (file, _, _) in EXAMPLES.iter().filter(|(f, _, _)| *f != "reduce.toml") {
        for (k, scheduler) in schedulers.iter().enumerate() {
            for seed in 0..25u64 {
                let mut s = example(file);
                s.scheduler = *scheduler;
                s.seed = seed * 7919 + k as u64;
                // Pinned before the observable granularity existed: every event a step.
                s.granularity = interleave_engine::scenario::Granularity::Event;
                if seed % 2 == 1 {
                    s.granularity = interleave_engine::scenario::Granularity::Statement;
                }
                if seed % 3 == 2 {
                    s.max_resident_groups = Some(1);
                }
                if seed % 5 == 4 {
                    s.memory_model = interleave_engine::scenario::MemoryModel::Relaxed;
                }
                out.push(s);
            }
        }
    }
    // Litmus tests under both memory models: the relaxed model's decisions must replay alike.
    for (name, text) in LITMUS {
        for seed in 0..20u64 {
            let mut s = Scenario::new(text, name, interleave_engine::scenario::Dialect::Litmus);
            s.seed = seed;
            if seed % 2 == 1 {
                s.memory_model = interleave_engine::scenario::MemoryModel::Relaxed;
            }
            out.push(s);
        }
    }
    out
}

/// Litmus examples the generated scenarios run.
pub const LITMUS: [(&str, &str); 3] = [
    ("mp.litmus", include_str!("../../../static/examples/litmus/mp.litmus")),
    ("sb.litmus", include_str!("../../../static/examples/litmus/sb.litmus")),
    ("two_plus_two_w.litmus", include_str!("../../../static/examples/litmus/two_plus_two_w.litmus")),
];

/// Every scenario's `name hash` line, in order, then one line whose hash digests the trace
/// hashes of the thousand generated scenarios.
pub fn observed() -> String {
    let mut text: String = scenarios().into_iter().map(|(name, s)| format!("{name} {}\n", trace_hash(s))).collect();
    let generated = generated();
    let all: String = generated.iter().map(|s| trace_hash(s.clone())).collect::<Vec<_>>().join(",");
    text.push_str(&format!("generated-{} {:016x}\n", generated.len(), fnv1a(all.as_bytes())));
    text
}

/// FNV-1a, a fixed and tiny digest, so the test needs no hashing dependency of its own.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// How many generated kernels the determinism tests run.
pub const GENERATED_KERNELS: u64 = 1000;

/// The pinned `k<index> <trace hash>` lines of the generated kernels, for the browser's
/// comparison (tests/wasm.rs); the native test reads and re-pins the same file.
pub const GENERATED_HASHES: &str = include_str!("../data/generated_hashes.txt");

/// The generated kernels: each a kernel, launch, scheduler, seed, granularity and memory model
/// from the generator seeded with its index.
pub fn generated_kernels() -> Vec<Scenario> {
    (0..GENERATED_KERNELS).map(|k| generate::scenario(&mut generate::Lcg(k), generate::Config::default())).collect()
}

/// The `k<index> <trace hash>` line of every generated kernel; with `through_links`, each is
/// first encoded as a share link and decoded again, as opening the link would.
pub fn generated_kernel_hashes(through_links: bool) -> String {
    generated_kernels()
        .into_iter()
        .enumerate()
        .map(|(k, scenario)| {
            let scenario = if through_links {
                let link = interleave_engine::link::Link { scenario, view: Default::default() };
                match interleave_engine::link::decode(&interleave_engine::link::encode(&link)) {
                    Ok(link) => link.scenario,
                    Err(d) => return format!("k{k} link: {}\n", d.message),
                }
            } else {
                scenario
            };
            format!("k{k} {}\n", trace_hash(scenario))
        })
        .collect()
}
