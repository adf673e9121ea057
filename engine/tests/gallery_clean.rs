//! The gallery's cards that promise no finding keep the promise under every scheduler and
//! many seeds: no error-severity finding (no race, hang, lock misuse, ...) in any run.
//!
//! The cards are the variants of `static/examples/gallery.toml` whose `findings` list is
//! empty. Each runs under the random, round-robin, run-to-block, PCT and lockstep schedulers
//! with seeds 0 to 999 (the schedulers that draw nothing still differ by seed where the
//! machine draws: weak compare-exchanges, the relaxed model's reads), one test per scheduler
//! so that the harness runs them side by side. A release build (`cargo test --release`) runs
//! all the seeds, about 80 s of processor time in all (45 s on two cores), most of it the
//! 1,024-work-item reduction under PCT and lockstep, whose picks scan every ready work-item;
//! the normal debug build, about three times slower, the first 100.

use interleave_engine::diag::Severity;
use interleave_engine::gallery::{self, Check};
use interleave_engine::scenario::{self, Scenario, SchedulerKind};
use interleave_engine::session::{Prepared, Session};

/// Seeds per card and scheduler.
const SEEDS: u64 = if cfg!(debug_assertions) { 100 } else { 1000 };

fn examples() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../static/examples")
}

/// A scenario file of the examples folder, with the file it names read beside it.
fn scenario_file(name: &str) -> Scenario {
    let dir = examples();
    let text = std::fs::read_to_string(dir.join(name)).expect("the scenario file is readable");
    scenario::from_toml(&text, |file| {
        let source = std::fs::read_to_string(dir.join(file)).expect("the kernel file is readable");
        Ok((source, file.to_string()))
    })
    .unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

/// The cards that promise no finding.
fn clean_cards() -> Vec<String> {
    let manifest = std::fs::read_to_string(examples().join("gallery.toml")).expect("the manifest is readable");
    let entries = gallery::read(&manifest).expect("the manifest is valid");
    entries.into_iter().flat_map(|e| e.variants).filter(|v| v.findings.is_empty()).map(|v| v.scenario).collect()
}

/// Runs every card that promises no finding under `kind` and the seeds; no error finding.
fn check_clean_cards(kind: SchedulerKind) {
    let cards = clean_cards();
    assert!(cards.len() >= 10, "only {} cards promise no finding", cards.len());
    let mut failures = Vec::new();
    for card in &cards {
        let mut s = scenario_file(card);
        s.scheduler = kind;
        let prepared = Prepared::new(s).unwrap_or_else(|d| panic!("{card}: {d:?}"));
        for seed in 0..SEEDS {
            let mut session = Session::start(&prepared, seed).expect("it launches");
            session.run(u64::MAX);
            if let Some(f) = session.findings().iter().find(|f| f.severity == Severity::Error) {
                failures.push(format!("{card} under {} seed {seed}: {} (line {})", kind.name(), f.message, f.line));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn clean_cards_under_the_random_scheduler() {
    check_clean_cards(SchedulerKind::Random);
}

#[test]
fn clean_cards_under_round_robin() {
    check_clean_cards(SchedulerKind::RoundRobin);
}

#[test]
fn clean_cards_under_run_to_block() {
    check_clean_cards(SchedulerKind::RunToBlock);
}

#[test]
fn clean_cards_under_pct() {
    check_clean_cards(SchedulerKind::Pct);
}

#[test]
fn clean_cards_under_lockstep() {
    check_clean_cards(SchedulerKind::Lockstep);
}

/// The cards that show a finding still show it under their own check's first run, so the
/// list above is not empty by accident of a detector that finds nothing.
#[test]
fn cards_with_findings_still_find_something() {
    let manifest = std::fs::read_to_string(examples().join("gallery.toml")).expect("the manifest is readable");
    let entries = gallery::read(&manifest).expect("the manifest is valid");
    for v in entries.into_iter().flat_map(|e| e.variants).filter(|v| !v.findings.is_empty() && v.check == Check::Run) {
        let mut session = Session::new(scenario_file(&v.scenario)).expect("it launches");
        session.run(u64::MAX);
        for kind in &v.findings {
            assert!(session.findings().iter().any(|f| f.kind == *kind), "{}: no {} finding", v.scenario, kind.as_str());
        }
    }
}
