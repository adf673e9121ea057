//! The detection scoreboard: Oclgrind's own tests run by the engine, with the errors each
//! `.ref` file expects (its `ERROR` lines, mapped to finding kinds as the corpus README says)
//! compared with the error-level findings the engine reports.
//!
//! A test scores when every expected kind is reported and no error-level finding of another
//! kind is. Each test runs under run-to-block and a few random seeds and the findings of all
//! runs count: the detectors reason over happens-before, so a schedule should not decide
//! whether a race is found, and the board shows it when one does.

use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use interleave_engine::diag::Severity;
use interleave_engine::scenario::SchedulerKind;

/// Random seeds each test runs under, besides run-to-block.
const SEEDS: u64 = 4;

/// How one Oclgrind test fared.
#[derive(Debug, PartialEq)]
pub struct DetectResult {
    pub name: String,
    /// The kinds its `.ref` expects.
    pub expected: BTreeSet<String>,
    /// The error-level kinds the engine reported, over every run.
    pub found: BTreeSet<String>,
    /// Why it did not run, if it did not.
    pub failure: Option<String>,
}

impl DetectResult {
    pub fn scores(&self) -> bool {
        self.failure.is_none() && self.expected == self.found
    }
}

/// The finding kind of one of Oclgrind's error titles (the corpus README's table).
pub fn kind_of_error(text: &str) -> Option<&'static str> {
    let t = text.to_ascii_lowercase();
    Some(if t.contains("data race") {
        "data-race"
    } else if t.contains("divergence") && t.contains("async") {
        "async-copy-divergence"
    } else if t.contains("divergence") {
        "barrier-divergence"
    } else if t.contains("uninitialized") {
        "uninitialized-read"
    } else if t.contains("read-only") {
        "read-only-write"
    } else if t.contains("write-only") {
        "write-only-read"
    } else if t.contains("without waiting for events") {
        "unwaited-event"
    } else if t.contains("invalid wait event") {
        "invalid-wait-event"
    } else if t.contains("not aligned") {
        "misaligned-access"
    } else if t.contains("invalid read") || t.contains("invalid write") || t.contains("exceeds static array size") {
        "out-of-bounds"
    } else {
        return None;
    })
}

fn run_once(sim_path: &Path, scheduler: SchedulerKind, seed: u64) -> Result<BTreeSet<String>, String> {
    let session = crate::corpus_runs::run_sim(sim_path, scheduler, seed)?;
    Ok(session
        .findings()
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| match f.kind.as_str() {
            // Oclgrind reports a null pointer as an invalid access.
            "null-dereference" => "out-of-bounds".to_string(),
            kind => kind.to_string(),
        })
        .collect())
}

/// Runs every Oclgrind test under `dir` that has a `.ref` file and no debugger input.
pub fn oclgrind_detection(dir: &Path, files: Vec<std::path::PathBuf>) -> Vec<DetectResult> {
    let mut results = Vec::new();
    for sim_path in files {
        let name = sim_path.strip_prefix(dir).unwrap_or(&sim_path).display().to_string();
        let Ok(reference) = std::fs::read_to_string(sim_path.with_extension("ref")) else { continue };
        if sim_path.with_extension("inp").exists() {
            continue;
        }
        let expected: BTreeSet<String> = reference.lines().filter_map(|l| l.strip_prefix("ERROR")).filter_map(kind_of_error).map(String::from).collect();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut found = run_once(&sim_path, SchedulerKind::RunToBlock, 0)?;
            for seed in 0..SEEDS {
                found.extend(run_once(&sim_path, SchedulerKind::Random, seed)?);
            }
            // Hitting a limit is the engine's own stop, not one of Oclgrind's errors.
            found.remove("step-limit");
            Ok::<_, String>(found)
        }));
        let (found, failure) = match outcome {
            Ok(Ok(found)) => (found, None),
            Ok(Err(why)) => (BTreeSet::new(), Some(why)),
            Err(_) => (BTreeSet::new(), Some("engine panic".to_string())),
        };
        results.push(DetectResult { name, expected, found, failure });
    }
    results
}

/// The board as text: each test that does not score, then the totals.
pub fn render(results: &[DetectResult], short: bool) -> String {
    let mut out = String::new();
    if !short {
        for r in results.iter().filter(|r| !r.scores()) {
            match &r.failure {
                Some(why) => out.push_str(&format!("  {}: did not run: {why}\n", r.name)),
                None => {
                    let missing: Vec<&String> = r.expected.difference(&r.found).collect();
                    let extra: Vec<&String> = r.found.difference(&r.expected).collect();
                    out.push_str(&format!("  {}: missing {missing:?}, unexpected {extra:?}\n", r.name));
                }
            }
        }
    }
    let scored = results.iter().filter(|r| r.scores()).count();
    let with_errors = results.iter().filter(|r| !r.expected.is_empty()).count();
    let detected = results.iter().filter(|r| !r.expected.is_empty() && r.expected.is_subset(&r.found)).count();
    let clean = results.iter().filter(|r| r.failure.is_none() && r.found.difference(&r.expected).next().is_none()).count();
    out.push_str(&format!(
        "corpus detection: {scored} of {} Oclgrind tests report exactly the errors they expect; expected errors found in {detected} of {with_errors}; no unexpected error in {clean} of {}\n",
        results.len(),
        results.len()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oclgrind_titles_map_to_finding_kinds() {
        assert_eq!(kind_of_error(" Read-write data race at global memory address"), Some("data-race"));
        assert_eq!(kind_of_error(" Work-group divergence detected (barrier)"), Some("barrier-divergence"));
        assert_eq!(kind_of_error(" Work-group divergence detected (async copy)"), Some("async-copy-divergence"));
        assert_eq!(kind_of_error(" Invalid read of size 4 at global memory address 0x0"), Some("out-of-bounds"));
        assert_eq!(kind_of_error(" Invalid write to read-only buffer"), Some("read-only-write"));
        assert_eq!(kind_of_error(" Uninitialized value read"), Some("uninitialized-read"));
        assert_eq!(kind_of_error(" something else"), None);
    }
}
