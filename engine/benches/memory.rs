//! Memory figures of BENCHMARKS.md, measured natively with a counting allocator: the history
//! (snapshots and event log) a million-step run keeps for seeking, and what launching
//! 1,048,576 work-items takes. Not a timing benchmark: it prints one `memory NAME KEY=VALUE`
//! line per figure, which `cargo xtask bench` reads.
//!
//! Run it with `cargo bench -p interleave-engine --bench memory`.

use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;

// The counting allocator, shared with the wasm memory test.
#[path = "../tests/common/counting.rs"]
mod counting;

use counting::live;

const BUSY_LOOP: &str = include_str!("busy_loop.cl");
const REDUCE: &str = include_str!("../../static/examples/reduce.cl");
const VECTOR_ADD: &str = include_str!("vector_add.cl");

fn scenario(source: &str, file_name: &str, global: u64, local: u64, args: &[&str]) -> Scenario {
    let mut s = Scenario::new(source, file_name, Dialect::OpenCl);
    s.launch.global = vec![global];
    s.launch.local = Some(vec![local]);
    s.args = args.iter().map(|a| ArgBinding::parse(a).expect("valid benchmark argument")).collect();
    s.scheduler = SchedulerKind::Random;
    s.max_steps = 10_000_000;
    s
}

/// Runs `scenario` to its end and prints how much more is live afterwards than right after
/// the launch: the snapshots, the event log and anything else the run accumulated.
fn history(name: &str, scenario: Scenario) {
    let before = live();
    let mut session = Session::new(scenario).expect("the benchmark kernel compiles and launches");
    let launched = live();
    session.run(u64::MAX);
    assert_eq!(session.status(), RunStatus::Completed, "{name} completes");
    let history = live() - launched;
    // Seeking keeps the recorded future alongside the restored past; a seek to the start and
    // back to the end shows the most the history holds while the user moves through it.
    session.seek(0);
    let at_start = live() - launched;
    session.seek(u64::MAX);
    println!("memory {name} steps={} machine_bytes={} history_bytes={history} history_after_seek_bytes={at_start}", session.steps(), launched - before,);
}

fn main() {
    // `cargo bench` passes `--bench`; a filter, if any, picks figures by name.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wanted("history_1m") {
        history("history_1m", scenario(BUSY_LOOP, "busy_loop.cl", 256, 64, &["counters=int[2]"]));
    }
    if wanted("history_65536") {
        history("history_65536", scenario(REDUCE, "reduce.cl", 65_536, 256, &["in=int[65536]:range=0:1:ro", "partial=int[256]", "total=int[1]"]));
    }
    for detection in [true, false] {
        let name = if detection { "launch_1m" } else { "launch_1m_without_race_detection" };
        if !wanted(name) {
            continue;
        }
        const N: u64 = 1 << 20;
        let mut scenario = scenario(VECTOR_ADD, "vector_add.cl", N, 256, &["a=float[1048576]:range=0:1:ro", "b=float[1048576]:fill=1:ro", "c=float[1048576]"]);
        scenario.race_detection = detection;
        let before = live();
        counting::reset_peak();
        let session = Session::new(scenario).expect("the vector add launches");
        assert_eq!(session.work_item_count() as u64, N);
        println!("memory {name} work_items={N} live_bytes={} peak_bytes={}", live() - before, counting::peak() - before);
    }
}
