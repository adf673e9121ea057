//! A run that keeps no events but atomics ([`Prepared::keep_events`], the command line's)
//! reports exactly what a run that keeps every event reports: `why::finish` starts over,
//! keeping them, as soon as anything asks for one it did not keep. Checked on every example
//! scenario file and litmus test, the pinned scenarios of the determinism tests and the
//! thousand generated kernels: races, scope mismatches, hangs, locks, lock misuse, stale
//! reads, warp divergence and clean runs alike. Both kinds of run must occur, or the check
//! would prove nothing: runs that end forgetting (nothing needed an event), and runs that
//! start over (a finding's explanation, a lock or a stale read read one).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use interleave_engine::scenario::{self, Dialect, Scenario};
use interleave_engine::session::{Prepared, Session};
use interleave_engine::why;

/// How the forgetting run of a scenario ended.
#[derive(Default)]
struct Tally {
    forgot: usize,
    started_over: usize,
    /// Started over with a finding of each kind, by kind.
    kinds: std::collections::BTreeSet<&'static str>,
    forgot_kinds: std::collections::BTreeSet<&'static str>,
}

/// Runs `scenario` both ways and checks that the reports are equal.
fn check(name: &str, scenario: Scenario, tally: &mut Tally) {
    let Ok(mut prepared) = Prepared::new(scenario) else { return };
    prepared.history = false;
    let seed = prepared.scenario.seed;
    let mut keeping = Session::start(&prepared, seed).expect("a prepared scenario launches");
    keeping.run(u64::MAX);
    let expected = why::report(&keeping);
    assert!(!keeping.forgets_events());
    prepared.keep_events = false;
    let mut forgetting = Session::start(&prepared, seed).expect("a prepared scenario launches");
    assert!(forgetting.forgets_events(), "{name}: a session without history or events forgets them");
    let got = why::finish(&mut forgetting, &prepared).expect("it launched once");
    assert_eq!(got, expected, "{name}: the report of the run that forgot events differs");
    if forgetting.forgets_events() {
        tally.forgot += 1;
        tally.forgot_kinds.extend(got.findings.iter().map(|f| f.kind.as_str()));
    } else {
        tally.started_over += 1;
        tally.kinds.extend(got.findings.iter().map(|f| f.kind.as_str()));
        if !got.locks.is_empty() {
            tally.kinds.insert("lock");
        }
        if !got.stale_reads.is_empty() {
            tally.kinds.insert("stale-read");
        }
    }
}

fn examples() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../static/examples")
}

/// Every scenario file of the examples, and every litmus test under both memory models.
fn example_scenarios() -> Vec<(String, Scenario)> {
    let dir = examples();
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("the examples folder").map(|e| e.expect("an entry").path()).collect();
    files.sort();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "toml") && !p.ends_with("gallery.toml")) {
        let text = std::fs::read_to_string(path).expect("readable");
        let s = scenario::from_toml(&text, |file| Ok((std::fs::read_to_string(dir.join(file)).expect("the kernel file"), file.to_string())));
        out.push((path.display().to_string(), s.expect("a valid example")));
    }
    let mut litmus: Vec<_> = std::fs::read_dir(dir.join("litmus")).expect("the litmus folder").map(|e| e.expect("an entry").path()).collect();
    litmus.sort();
    for path in litmus {
        let text = std::fs::read_to_string(&path).expect("readable");
        for (seed, model) in [(0, scenario::MemoryModel::Sc), (1, scenario::MemoryModel::Relaxed), (2, scenario::MemoryModel::Relaxed)] {
            let mut s = Scenario::new(&text, "test.litmus", Dialect::Litmus);
            s.seed = seed;
            s.memory_model = model;
            out.push((format!("{} {model:?} {seed}", path.display()), s));
        }
    }
    out
}

#[test]
fn a_run_that_forgets_events_reports_what_one_that_keeps_them_reports() {
    let mut tally = Tally::default();
    for (name, s) in example_scenarios() {
        check(&name, s, &mut tally);
    }
    for (name, s) in common::scenarios() {
        check(&name, s, &mut tally);
    }
    for (k, s) in common::generated().into_iter().enumerate() {
        check(&format!("generated {k}"), s, &mut tally);
    }
    for (k, s) in common::generated_kernels().into_iter().enumerate() {
        check(&format!("generated kernel {k}"), s, &mut tally);
    }
    assert!(tally.forgot >= 500, "only {} runs ended without needing an event", tally.forgot);
    assert!(tally.started_over >= 100, "only {} runs started over", tally.started_over);
    for kind in ["data-race", "livelock", "lock", "stale-read", "barrier-divergence"] {
        assert!(tally.kinds.contains(kind), "no run that started over had a {kind}: {:?}", tally.kinds);
    }
    eprintln!("{} runs forgot their events to the end ({:?}), {} started over ({:?})", tally.forgot, tally.forgot_kinds, tally.started_over, tally.kinds);
}
