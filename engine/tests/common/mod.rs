//! Scenarios shared by the native and the wasm determinism tests, and the pinned hashes.

use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;

const COUNT: &str = include_str!("../../../static/examples/count.cl");
const HELPERS: &str = include_str!("../../../tests/data/run/helpers_and_loops.cl");

/// The pinned `name hash` lines, written natively by `UPDATE_EXPECT=1`.
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

/// Named scenarios covering every scheduler, barriers, atomics, helpers and printf.
pub fn scenarios() -> Vec<(String, Scenario)> {
    let mut out = Vec::new();
    for (name, kind) in SchedulerKind::ALL {
        if kind == SchedulerKind::Lockstep {
            continue;
        }
        for seed in [0, 1, 42] {
            out.push((
                format!("count-{name}-{seed}"),
                scenario(COUNT, 64, 16, &["ids=int[64]", "counters=int[2]"], kind, seed),
            ));
        }
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

/// Every scenario's `name hash` line, in order.
pub fn observed() -> String {
    scenarios().into_iter().map(|(name, s)| format!("{name} {}\n", trace_hash(s))).collect()
}
