//! The run scoreboard: Oclgrind's own tests (`oclgrind/**/*.sim`) run by the engine, their
//! final buffers and printf output compared with the `EXACT` lines of each `.ref` file.
//!
//! Only tests that expect no error are scored here; the ones that expect an error report are
//! the detectors' to score. Each test runs under run-to-block (Oclgrind's own order) and
//! under 20 random seeds: a test whose expected output depends on the order of racing
//! work-items matches the first and not all of the second, which the board shows.

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use interleave_engine::report::{Report, RunStatus};
use interleave_engine::scenario::{Number, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::sim;

/// Random seeds each test also runs under.
pub const SEEDS: u64 = 20;

/// How one Oclgrind test fared.
#[derive(Debug, PartialEq)]
pub struct RunResult {
    pub name: String,
    /// Whether its output matched under run-to-block.
    pub ordered: bool,
    /// Under how many of the random seeds it matched.
    pub seeds: u64,
    /// Why it did not run, if it did not.
    pub failure: Option<String>,
}

/// Oclgrind's dump of a report: `Argument 'x': N bytes` and `  x[i] = v` lines, then printf.
pub fn dump_lines(report: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    for b in &report.buffers {
        let size = match b.ty.as_str() {
            "char" | "uchar" | "bool" => 1,
            "short" | "ushort" => 2,
            "int" | "uint" | "float" => 4,
            _ => 8,
        };
        lines.push(format!("Argument '{}': {} bytes", b.name, b.values.len() * size));
        for (i, v) in b.values.iter().enumerate() {
            let text = match v {
                None => "uninit".to_string(),
                Some(Number::Float(f)) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
                Some(n) => n.to_string(),
            };
            lines.push(format!("  {}[{i}] = {text}", b.name));
        }
    }
    for p in &report.printf {
        lines.extend(p.text.trim_end_matches('\n').split('\n').map(String::from));
    }
    lines
}

/// Whether every `EXACT` expectation is one of `lines`.
pub fn matches(expected: &[String], lines: &[String]) -> bool {
    expected.iter().all(|e| lines.contains(e))
}

/// Runs an Oclgrind `.sim` test to its end under `scheduler` and `seed`; the run scoreboard
/// and the detection scoreboard both read its session.
pub fn run_sim(sim_path: &Path, scheduler: SchedulerKind, seed: u64) -> Result<Session, String> {
    let text = std::fs::read_to_string(sim_path).map_err(|e| e.to_string())?;
    let parsed = sim::parse(&text).map_err(|d| d.message)?;
    let source_path = sim_path.parent().unwrap_or(Path::new("")).join(&parsed.source_file);
    let source = std::fs::read_to_string(&source_path).map_err(|e| e.to_string())?;
    let (mut scenario, _) =
        sim::scenario(&parsed, source, parsed.source_file.clone()).map_err(|d| d.first().map_or_else(String::new, |d| d.message.clone()))?;
    scenario.scheduler = scheduler;
    scenario.seed = seed;
    scenario.max_steps = 2_000_000;
    let mut session = Session::new(scenario).map_err(|d| d.first().map_or_else(String::new, |d| d.message.clone()))?;
    session.run(u64::MAX);
    Ok(session)
}

fn run_once(sim_path: &Path, scheduler: SchedulerKind, seed: u64) -> Result<Report, String> {
    let report = run_sim(sim_path, scheduler, seed)?.report();
    if report.status != RunStatus::Completed {
        return Err(format!("the run ended with status {}", report.status.as_str()));
    }
    Ok(report)
}

/// Runs every error-free Oclgrind test under `dir`.
pub fn oclgrind_runs(dir: &Path, files: Vec<std::path::PathBuf>) -> Vec<RunResult> {
    let mut results = Vec::new();
    for sim_path in files {
        let name = sim_path.strip_prefix(dir).unwrap_or(&sim_path).display().to_string();
        let Ok(reference) = std::fs::read_to_string(sim_path.with_extension("ref")) else { continue };
        // Tests that expect an error, or drive Oclgrind's interactive debugger, are not
        // output comparisons.
        if reference.lines().any(|l| l.starts_with("ERROR")) || sim_path.with_extension("inp").exists() {
            continue;
        }
        let expected: Vec<String> = reference.lines().filter_map(|l| l.strip_prefix("EXACT ")).map(String::from).collect();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let ordered = run_once(&sim_path, SchedulerKind::RunToBlock, 0)?;
            let ordered_ok = matches(&expected, &dump_lines(&ordered));
            let mut seeds = 0;
            for seed in 0..SEEDS {
                if run_once(&sim_path, SchedulerKind::Random, seed).is_ok_and(|r| matches(&expected, &dump_lines(&r))) {
                    seeds += 1;
                }
            }
            Ok::<_, String>((ordered_ok, seeds))
        }));
        results.push(match outcome {
            Ok(Ok((ordered, seeds))) => RunResult { name, ordered, seeds, failure: None },
            Ok(Err(why)) => RunResult { name, ordered: false, seeds: 0, failure: Some(why) },
            Err(_) => RunResult { name, ordered: false, seeds: 0, failure: Some("engine panic".into()) },
        });
    }
    results
}

/// The board as text: totals, then each test that did not match everywhere.
pub fn render(results: &[RunResult], short: bool) -> String {
    let ordered = results.iter().filter(|r| r.ordered).count();
    let all_seeds = results.iter().filter(|r| r.seeds == SEEDS).count();
    let mut out = String::new();
    if !short {
        for r in results.iter().filter(|r| !r.ordered || r.seeds < SEEDS) {
            match &r.failure {
                Some(why) => out.push_str(&format!("  {}: did not run: {why}\n", r.name)),
                None => {
                    out.push_str(&format!("  {}: run-to-block {}, random seeds {}/{SEEDS}\n", r.name, if r.ordered { "matches" } else { "differs" }, r.seeds))
                }
            }
        }
    }
    out.push_str(&format!(
        "corpus runs: {ordered} of {} Oclgrind tests match their expected output under run-to-block; {all_seeds} under all {SEEDS} random seeds\n",
        results.len()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::report::{BufferReport, PrintfLine};

    #[test]
    fn dumps_look_like_oclgrind_and_compare_by_line() {
        let report = Report {
            status: RunStatus::Completed,
            steps: 1,
            trace_hash: String::new(),
            findings: Vec::new(),
            buffers: vec![BufferReport { name: "out".into(), ty: "float".into(), values: vec![Some(Number::Float(2.0)), Some(Number::Float(42.24))] }],
            printf: vec![PrintfLine { work_item: [0, 0, 0], text: "a\nb\n".into() }],
            locks: Vec::new(),
            registers: None,
            exists: None,
            stale_reads: Vec::new(),
            warnings: Vec::new(),
            schedule_stop: None,
        };
        let lines = dump_lines(&report);
        assert_eq!(lines, vec!["Argument 'out': 8 bytes", "  out[0] = 2", "  out[1] = 42.24", "a", "b"]);
        assert!(matches(&["  out[1] = 42.24".to_string(), "b".to_string()], &lines));
        assert!(!matches(&["  out[1] = 42".to_string()], &lines));
    }
}
