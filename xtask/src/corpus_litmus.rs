//! The litmus scoreboard: Dat3M's OpenCL litmus tests under the relaxed memory model.
//!
//! `litmus-opencl/expected.csv` says, per test, whether the OpenCL model allows its final
//! `exists` condition (1) or forbids it (0); `data-race-free.csv` says for some tests whether
//! they are racy (0), in which case their outcome is undefined and the right answer is a
//! `data-race` finding. Each test is explored exhaustively and over random seeds (with the
//! promises that give load buffering), and the scoreboard counts:
//!
//! - *sound*: forbidden tests whose condition was never observed, or racy ones whose race was
//!   reported;
//! - *allowed found*: allowed tests whose condition was observed, by the exhaustive and by the
//!   random exploration;
//! - *racy reported*: racy tests with a `data-race` finding.
//!
//! An unsound test (a forbidden outcome shown, no race to excuse it) is listed first: it is
//! a bug in the memory model. Like the other scoreboards this one measures and does not gate.

use std::path::Path;

use interleave_engine::explore::{Config, Explorer};
use interleave_engine::report::FindingKind;
use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};

/// Random runs per test in `cargo xtask corpus`, and in the test stage.
pub const RUNS: u64 = 10_000;
pub const TEST_RUNS: u64 = 1_000;

/// The most executions of one exhaustive exploration (`complete` says whether it covered all).
pub const EXHAUSTIVE: u64 = 200_000;
pub const TEST_EXHAUSTIVE: u64 = 20_000;

/// The error of a test on which the engine panicked.
pub const PANIC: &str = "engine panic";

/// What one litmus test gave.
pub struct LitmusResult {
    pub path: String,
    /// The condition is allowed (1 in expected.csv).
    pub allowed: bool,
    /// `Some(false)` for a racy test, `Some(true)` for a race-free one, `None` when not listed.
    pub race_free: Option<bool>,
    pub exhaustive_observed: bool,
    pub complete: bool,
    pub random_observed: bool,
    pub race_reported: bool,
    /// Why it did not run (a diagnostic), if it did not.
    pub error: Option<String>,
}

impl LitmusResult {
    pub fn sound(&self) -> bool {
        self.allowed || !(self.exhaustive_observed || self.random_observed) || (self.race_reported && self.race_free != Some(true))
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

/// Explores every listed test under `dir/litmus-opencl`.
pub fn scoreboard(dir: &Path, runs: u64, exhaustive: u64) -> Vec<LitmusResult> {
    let root = dir.join("litmus-opencl");
    let race_free = csv(&root.join("data-race-free.csv"));
    csv(&root.join("expected.csv"))
        .into_iter()
        .map(|(file, allowed)| {
            let race_free = race_free.iter().find(|(f, _)| *f == file).map(|&(_, v)| v);
            let mut result = LitmusResult {
                path: file.clone(),
                allowed,
                race_free,
                exhaustive_observed: false,
                complete: false,
                random_observed: false,
                race_reported: false,
                error: None,
            };
            let text = match std::fs::read_to_string(root.join(&file)) {
                Ok(text) => text,
                Err(e) => {
                    result.error = Some(format!("cannot read: {e}"));
                    return result;
                }
            };
            let mut scenario = Scenario::new(text, file.as_str(), Dialect::Litmus);
            scenario.memory_model = MemoryModel::Relaxed;
            let explore = |exhaustive: bool, runs: u64| {
                let config = Config { runs, first_seed: 0, exhaustive, max_preemptions: None };
                let mut explorer = Explorer::new(&scenario, config)?;
                while !explorer.advance(u64::MAX)? {}
                Ok::<_, Vec<interleave_engine::diag::Diagnostic>>(explorer.result())
            };
            let races = |e: &interleave_engine::explore::Exploration| {
                e.findings.iter().any(|f| f.finding.kind == FindingKind::DataRace && f.finding.severity == interleave_engine::diag::Severity::Error)
            };
            let both = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (explore(true, exhaustive), explore(false, runs))));
            let Ok(both) = both else {
                result.error = Some(PANIC.into());
                return result;
            };
            match both {
                (Ok(full), Ok(random)) => {
                    result.exhaustive_observed = full.exists_observed == Some(true);
                    result.complete = full.complete;
                    result.random_observed = random.exists_observed == Some(true);
                    result.race_reported = races(&full) || races(&random);
                }
                (Err(d), _) | (_, Err(d)) => result.error = Some(d.first().map_or_else(String::new, |d| d.message.clone())),
            }
            result
        })
        .collect()
}

/// The scoreboard for people; `short` gives the summary lines only.
pub fn render(results: &[LitmusResult], runs: u64, short: bool) -> String {
    let ran: Vec<&LitmusResult> = results.iter().filter(|r| r.error.is_none()).collect();
    // Tests that did not run count against every score, as misses.
    let forbidden: Vec<&LitmusResult> = results.iter().filter(|r| !r.allowed).collect();
    let allowed: Vec<&LitmusResult> = results.iter().filter(|r| r.allowed).collect();
    let racy: Vec<&LitmusResult> = results.iter().filter(|r| r.race_free == Some(false)).collect();
    let sound = forbidden.iter().filter(|r| r.error.is_none() && r.sound()).count();
    let found = allowed.iter().filter(|r| r.exhaustive_observed).count();
    let found_random = allowed.iter().filter(|r| r.random_observed).count();
    let either = allowed.iter().filter(|r| r.exhaustive_observed || r.random_observed).count();
    let reported = racy.iter().filter(|r| r.race_reported).count();
    let incomplete = ran.iter().filter(|r| !r.complete).count();
    let percent = |a: usize, b: usize| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
    let mut out = format!(
        "litmus (relaxed model, exhaustive and {runs} random runs): sound {sound}/{}, allowed found {found}/{} exhaustive ({:.1}%), {found_random}/{} random, {either}/{} either, racy reported {reported}/{}, not run {}, exhaustive incomplete {incomplete}\n",
        forbidden.len(),
        allowed.len(),
        percent(found, allowed.len()),
        allowed.len(),
        allowed.len(),
        racy.len(),
        results.len() - ran.len(),
    );
    let unsound: Vec<&LitmusResult> = forbidden.iter().copied().filter(|r| r.error.is_none() && !r.sound()).collect();
    if !unsound.is_empty() {
        out.push_str("  UNSOUND (a forbidden outcome shown, no race reported):\n");
        for r in unsound {
            out.push_str(&format!("    {}\n", r.path));
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
    list(
        "allowed, not found",
        allowed.iter().filter(|r| r.error.is_none() && !r.exhaustive_observed && !r.random_observed).map(|r| r.path.clone()).collect(),
        &mut out,
    );
    list("racy, race not reported", racy.iter().filter(|r| r.error.is_none() && !r.race_reported).map(|r| r.path.clone()).collect(), &mut out);
    list("exhaustive exploration stopped at its budget", ran.iter().filter(|r| !r.complete).map(|r| r.path.clone()).collect(), &mut out);
    list("not run", results.iter().filter_map(|r| r.error.as_ref().map(|e| format!("{}: {e}", r.path))).collect(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(allowed: bool, race_free: Option<bool>, observed: bool, race: bool) -> LitmusResult {
        LitmusResult {
            path: "t.litmus".into(),
            allowed,
            race_free,
            exhaustive_observed: observed,
            complete: true,
            random_observed: false,
            race_reported: race,
            error: None,
        }
    }

    #[test]
    fn a_forbidden_outcome_is_excused_only_by_a_reported_race() {
        assert!(result(false, None, false, false).sound());
        assert!(!result(false, None, true, false).sound());
        assert!(result(false, Some(false), true, true).sound());
        assert!(!result(false, Some(true), true, true).sound(), "a race-free test has no race to excuse it");
        assert!(result(true, None, true, false).sound());
    }

    #[test]
    fn the_summary_counts_each_category() {
        let results = vec![result(false, None, false, false), result(true, Some(false), true, true), result(true, None, false, false)];
        let text = render(&results, 10, true);
        assert!(text.contains("sound 1/1"), "{text}");
        assert!(text.contains("allowed found 1/2 exhaustive"), "{text}");
        assert!(text.contains("racy reported 1/1"), "{text}");
        assert!(!text.contains("UNSOUND"));
    }
}
