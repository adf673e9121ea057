//! The PTX litmus scoreboard: Dat3M's PTX litmus tests under the relaxed memory model.
//!
//! `litmus-ptx/expected.csv` gives, per test, what the PTX model says of its final condition:
//! for `exists`, 1 if some execution satisfies it; for `~exists` and `forall`, 1 if the
//! assertion holds in every execution. Each test is explored exhaustively (executions of at
//! most [`MAX_STEPS`] steps), the engine's verdict on the quantified condition taken over the
//! runs that completed (`Exploration::condition_holds`), and the scoreboard counts:
//!
//! - *right*: the verdict agrees with the expected one;
//! - *forbidden found*: the engine showed an outcome the model forbids (an `exists` it
//!   satisfied, or an assertion it broke, that the model says cannot happen), a bug in the
//!   memory model or the reader. One in a test where the race detector reported a data race
//!   is counted apart: as on the OpenCL board, a racy test's outcome is undefined and the
//!   race is the answer that matters;
//! - *allowed not found*: an outcome the model allows that the exploration never showed.
//!
//! Per folder (`Manual`, `Memalloy`, `Barrier`) the right answers are counted too. Like the
//! other scoreboards this one measures; the test stage fails only when the engine panics or
//! shows a forbidden outcome with no race to excuse it.

use std::path::Path;

use interleave_engine::explore::{Config, Explorer};
use interleave_engine::litmus::LitmusQuantifier;
use interleave_engine::report::FindingKind;
use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};

// The panic marker is the OpenCL litmus board's (so are the exploration budgets, which corpus.rs passes).
use crate::corpus_litmus::PANIC;

/// The most steps of one execution. A thread that spins on a flag has executions without
/// end under the relaxed model (its load may read the old value again and again), and the
/// search would follow ever longer ones, each deeper than the last; bounded, it covers every
/// execution up to this length, as a bounded model checker unrolls loops. Executions that
/// reach it did not complete and count for no verdict; the tests' own run in tens of steps.
pub const MAX_STEPS: u64 = 500;

/// What one PTX litmus test gave.
pub struct PtxResult {
    pub path: String,
    /// The value in expected.csv: the condition is reachable (`exists`) or holds (`~exists`,
    /// `forall`) under the PTX model.
    pub expected: bool,
    pub quantifier: Option<LitmusQuantifier>,
    /// The engine's verdict on the same question.
    pub verdict: Option<bool>,
    pub complete: bool,
    pub race_reported: bool,
    /// Why it did not run (a diagnostic), if it did not.
    pub error: Option<String>,
}

impl PtxResult {
    pub fn right(&self) -> bool {
        self.error.is_none() && self.verdict == Some(self.expected)
    }

    /// Whether the engine showed an outcome the model forbids.
    pub fn forbidden_found(&self) -> bool {
        match (self.quantifier, self.verdict) {
            (Some(LitmusQuantifier::Exists), Some(true)) => !self.expected,
            (Some(LitmusQuantifier::NotExists | LitmusQuantifier::Forall), Some(false)) => self.expected,
            _ => false,
        }
    }

    /// A forbidden outcome with no data race to excuse it.
    pub fn unsound(&self) -> bool {
        self.forbidden_found() && !self.race_reported
    }

    /// The folder of the test (`Manual`, ...).
    pub fn folder(&self) -> &str {
        self.path.split('/').next().unwrap_or("")
    }

    fn quantifier_name(&self) -> &'static str {
        match self.quantifier {
            Some(LitmusQuantifier::Exists) => "exists",
            Some(LitmusQuantifier::NotExists) => "~exists",
            Some(LitmusQuantifier::Forall) => "forall",
            None => "?",
        }
    }
}

/// Reads the CSV's `path,value` lines.
fn csv(path: &Path) -> Vec<(String, bool)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let (file, value) = line.trim().rsplit_once(',')?;
            Some((file.trim().to_string(), value.trim() == "1"))
        })
        .collect()
}

/// Explores every test listed in `dir/litmus-ptx/expected.csv`, at most `exhaustive`
/// executions each.
pub fn scoreboard(dir: &Path, exhaustive: u64) -> Vec<PtxResult> {
    let root = dir.join("litmus-ptx");
    let mut listed = csv(&root.join("expected.csv"));
    listed.sort();
    listed
        .into_iter()
        .map(|(file, expected)| {
            let mut result = PtxResult { path: file.clone(), expected, quantifier: None, verdict: None, complete: false, race_reported: false, error: None };
            let text = match std::fs::read_to_string(root.join(&file)) {
                Ok(text) => text,
                Err(e) => {
                    result.error = Some(format!("cannot read: {e}"));
                    return result;
                }
            };
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let test = interleave_engine::litmus::parse(&text).map_err(|d| vec![d])?;
                let mut scenario = Scenario::new(text.as_str(), file.as_str(), Dialect::Litmus);
                scenario.memory_model = MemoryModel::Relaxed;
                scenario.max_steps = MAX_STEPS;
                let config = Config { runs: exhaustive, first_seed: 0, exhaustive: true, max_preemptions: None };
                let mut explorer = Explorer::new(&scenario, config)?;
                while !explorer.advance(u64::MAX)? {}
                Ok::<_, Vec<interleave_engine::diag::Diagnostic>>((test.condition.quantifier, explorer.result()))
            }));
            match run {
                Err(_) => result.error = Some(PANIC.into()),
                Ok(Err(d)) => {
                    result.error = Some(d.first().map_or_else(String::new, |d| format!("{}: {}", d.code, d.message)));
                }
                Ok(Ok((quantifier, e))) => {
                    result.quantifier = Some(quantifier);
                    result.verdict = Some(e.condition_holds(quantifier));
                    result.complete = e.complete;
                    result.race_reported =
                        e.findings.iter().any(|f| f.finding.kind == FindingKind::DataRace && f.finding.severity == interleave_engine::diag::Severity::Error);
                }
            }
            result
        })
        .collect()
}

/// The scoreboard for people; `short` gives the summary lines only.
pub fn render(results: &[PtxResult], short: bool) -> String {
    let total = results.len();
    let right = results.iter().filter(|r| r.right()).count();
    let forbidden = results.iter().filter(|r| r.unsound()).count();
    let excused = results.iter().filter(|r| r.forbidden_found() && r.race_reported).count();
    let missed: Vec<&PtxResult> = results.iter().filter(|r| r.error.is_none() && r.verdict.is_some() && !r.right() && !r.forbidden_found()).collect();
    let not_run = results.iter().filter(|r| r.error.is_some()).count();
    let incomplete = results.iter().filter(|r| r.error.is_none() && !r.complete).count();
    let percent = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    let mut folders: Vec<&str> = results.iter().map(PtxResult::folder).collect();
    folders.dedup();
    folders.sort_unstable();
    folders.dedup();
    let per_folder: Vec<String> = folders
        .iter()
        .map(|f| {
            let of = results.iter().filter(|r| r.folder() == *f);
            format!("{f} {}/{}", of.clone().filter(|r| r.right()).count(), of.count())
        })
        .collect();
    let mut out = format!(
        "litmus-ptx (relaxed model, exhaustive, {MAX_STEPS} steps at most): right {right}/{total} ({:.1}%), forbidden found {forbidden} ({excused} more in racy tests), allowed not found {} ({} in racy tests), not run {not_run}, exhaustive incomplete {incomplete}\n  {}\n",
        percent(right, total),
        missed.len(),
        missed.iter().filter(|r| r.race_reported).count(),
        per_folder.join(", "),
    );
    let line = |r: &PtxResult| {
        let race = if r.race_reported { " (data race reported)" } else { "" };
        format!("{} [{} expected {}]{race}", r.path, r.quantifier_name(), u8::from(r.expected))
    };
    let unsound: Vec<String> = results.iter().filter(|r| r.unsound()).map(line).collect();
    if !unsound.is_empty() {
        out.push_str("  FORBIDDEN FOUND (an outcome the PTX model forbids, no race reported):\n");
        for u in unsound {
            out.push_str(&format!("    {u}\n"));
        }
    }
    if short {
        return out;
    }
    let list = |title: &str, items: Vec<String>, out: &mut String| {
        if !items.is_empty() {
            out.push_str(&format!("  {title}:\n"));
            for item in items {
                out.push_str(&format!("    {item}\n"));
            }
        }
    };
    list("forbidden found in racy tests", results.iter().filter(|r| r.forbidden_found() && r.race_reported).map(line).collect(), &mut out);
    list("allowed, not found", missed.iter().map(|r| line(r)).collect(), &mut out);
    list(
        "exhaustive exploration stopped at its budget",
        results.iter().filter(|r| r.error.is_none() && !r.complete).map(|r| r.path.clone()).collect(),
        &mut out,
    );
    list("not run", results.iter().filter_map(|r| r.error.as_ref().map(|e| format!("{}: {e}", r.path))).collect(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(quantifier: LitmusQuantifier, expected: bool, verdict: bool, race: bool) -> PtxResult {
        PtxResult {
            path: "Manual/t.litmus".into(),
            expected,
            quantifier: Some(quantifier),
            verdict: Some(verdict),
            complete: true,
            race_reported: race,
            error: None,
        }
    }

    #[test]
    fn a_forbidden_outcome_depends_on_the_quantifier() {
        // `exists` that the model forbids, shown by the engine.
        assert!(result(LitmusQuantifier::Exists, false, true, false).unsound());
        // An assertion the model says holds, broken by the engine.
        assert!(result(LitmusQuantifier::Forall, true, false, false).unsound());
        assert!(result(LitmusQuantifier::NotExists, true, false, false).unsound());
        // Missing an allowed outcome is not showing a forbidden one.
        assert!(!result(LitmusQuantifier::Exists, true, false, false).forbidden_found());
        assert!(!result(LitmusQuantifier::Forall, false, true, false).forbidden_found());
        // A reported race excuses it.
        assert!(!result(LitmusQuantifier::Exists, false, true, true).unsound());
        assert!(result(LitmusQuantifier::Exists, false, true, true).forbidden_found());
    }

    #[test]
    fn the_summary_counts_right_answers_per_folder() {
        let mut other = result(LitmusQuantifier::Exists, true, false, false);
        other.path = "Barrier/b.litmus".into();
        let results = vec![result(LitmusQuantifier::Exists, true, true, false), result(LitmusQuantifier::Forall, true, false, false), other];
        let text = render(&results, true);
        assert!(text.contains("right 1/3"), "{text}");
        assert!(text.contains("forbidden found 1 (0 more in racy tests)"), "{text}");
        assert!(text.contains("allowed not found 1 (0 in racy tests)"), "{text}");
        assert!(text.contains("Barrier 0/1, Manual 1/2"), "{text}");
        assert!(text.contains("FORBIDDEN FOUND"), "{text}");
    }
}
