//! `cargo xtask bench [ARGS...]`: the engine's criterion benchmarks, then a short summary.
//!
//! The task runs `cargo bench -p interleave-engine --bench engine -- ARGS...`, so a filter
//! (`cargo xtask bench seek`) or a criterion option (`cargo xtask bench --test`) passes
//! through. Criterion prints its own detailed report; the summary afterwards lists the mean
//! time and throughput of each benchmark measured by this invocation, read from the
//! `estimates.json` and `benchmark.json` files criterion writes under `target/criterion/`.
//! Results of earlier invocations are left out by their modification time, so a filtered run
//! summarises only what it measured. BENCHMARKS.md records the figures and the targets.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};

use serde_json::Value;

/// One measured benchmark, as the summary shows it.
#[derive(Debug, PartialEq)]
struct Measured {
    id: String,
    mean_ns: f64,
    /// Criterion's throughput unit and the count per iteration, when the benchmark set one.
    throughput: Option<(String, u64)>,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let root = crate::workspace_root();
    let mut command = Command::new(crate::setup::cargo());
    command
        .current_dir(&root)
        .args([
            "bench",
            "-p",
            "interleave-engine",
            "--bench",
            "engine",
            "--",
        ])
        .args(args);
    let shown = crate::describe(&command);
    println!("$ {shown}");
    let started = SystemTime::now();
    let clock = Instant::now();
    let status = command
        .status()
        .map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    if !status.success() {
        return Err(format!("`{shown}` exited with {status}"));
    }
    let elapsed = clock.elapsed().as_secs_f64();

    let mut measured = collect(&criterion_dir(&root), started);
    measured.sort_by(|a, b| a.id.cmp(&b.id));
    println!("\n==> summary ({elapsed:.0} s in all, including the build)");
    if measured.is_empty() {
        println!("no benchmark was measured (a filter that matched none, or --test mode)");
    }
    for m in &measured {
        println!("{}", summary_line(m));
    }
    // The browser figures: the same exploration workloads compiled to wasm, in Chromium.
    let wanted = args.iter().all(|a| a.starts_with('-') || "litmus".contains(a.as_str()) || a.contains("litmus"));
    if wanted && !args.iter().any(|a| a == "--test") {
        for line in wasm_bench(&root)? {
            println!("wasm (Chromium): {line}");
        }
    }
    println!("targets and earlier figures: BENCHMARKS.md");
    Ok(())
}

/// Runs `engine/tests/wasm_bench.rs` in headless Chromium (release build, feature
/// `wasm-bench`) and returns the figures it printed.
fn wasm_bench(root: &Path) -> Result<Vec<String>, String> {
    use crate::setup::Tool;
    let found = crate::setup::ensure(&[Tool::WasmTarget, Tool::WasmBindgen, Tool::Chromium])?;
    let chromedriver = found.chromedriver.ok_or("chromedriver was not found")?;
    let mut command = Command::new(crate::setup::cargo());
    command
        .current_dir(root)
        .args(["test", "--release", "-p", "interleave-engine", "--target", crate::setup::WASM_TARGET])
        .args(["--features", "wasm-bench", "--test", "wasm_bench", "--", "--nocapture"])
        .env("CHROMEDRIVER", chromedriver)
        .env("WASM_BINDGEN_TEST_TIMEOUT", "600");
    let shown = crate::describe(&command);
    println!("$ {shown}");
    let output = command.output().map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    if !output.status.success() {
        return Err(format!("`{shown}` exited with {}:\n{}", output.status, String::from_utf8_lossy(&output.stderr)));
    }
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    Ok(wasm_lines(&text))
}

/// The `wasm-bench NAME KEY=VALUE` lines of the browser benchmarks' output, without the tag.
fn wasm_lines(text: &str) -> Vec<String> {
    text.lines().filter_map(|l| l.trim().strip_prefix("wasm-bench ").map(str::to_string)).collect()
}

/// Where criterion writes its results: `criterion/` in cargo's target directory.
fn criterion_dir(root: &Path) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| {
            if dir.is_absolute() {
                dir
            } else {
                root.join(dir)
            }
        })
        .unwrap_or_else(|| root.join("target"));
    target.join("criterion")
}

/// Every benchmark under `dir` whose `new/estimates.json` was written at or after `since`.
/// Criterion nests a benchmark's folder one level per part of its id (group, function), so
/// the search walks down to any `new/` folder.
fn collect(dir: &Path, since: SystemTime) -> Vec<Measured> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let estimates = path.join("new/estimates.json");
        let fresh = std::fs::metadata(&estimates)
            .and_then(|m| m.modified())
            .is_ok_and(|modified| modified >= since);
        if fresh {
            if let Some(m) = read_measured(&path.join("new")) {
                found.push(m);
            }
        } else if path.file_name().is_some_and(|name| name != "report") {
            found.extend(collect(&path, since));
        }
    }
    found
}

/// Reads one benchmark's `estimates.json` (the mean) and `benchmark.json` (its id and
/// throughput) from a `new/` folder.
fn read_measured(new: &Path) -> Option<Measured> {
    let read = |name: &str| -> Option<Value> {
        let text = std::fs::read_to_string(new.join(name)).ok()?;
        serde_json::from_str(&text).ok()
    };
    let estimates = read("estimates.json")?;
    let benchmark = read("benchmark.json")?;
    let mean_ns = estimates["mean"]["point_estimate"].as_f64()?;
    let id = benchmark["full_id"].as_str()?.to_owned();
    // Criterion writes a throughput as `{"Elements": n}` or `{"Bytes": n}`, or null for none.
    let throughput = benchmark["throughput"].as_object().and_then(|object| {
        let (unit, count) = object.iter().next()?;
        Some((unit.clone(), count.as_u64()?))
    });
    Some(Measured {
        id,
        mean_ns,
        throughput,
    })
}

/// `seek_1m/mixed  mean 2.41 ms` with `  (415.0 K elements/s)` when there is a throughput.
fn summary_line(m: &Measured) -> String {
    let mut line = format!("{:<32} mean {:>10}", m.id, format_time(m.mean_ns));
    if let Some((unit, count)) = &m.throughput {
        let per_second = *count as f64 / (m.mean_ns / 1e9);
        line.push_str(&format!(
            "   {} {}/s",
            format_count(per_second),
            unit.to_lowercase()
        ));
    }
    line
}

fn format_time(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn format_count(n: f64) -> String {
    if n >= 1e9 {
        format!("{:.2} G", n / 1e9)
    } else if n >= 1e6 {
        format!("{:.2} M", n / 1e6)
    } else if n >= 1e3 {
        format!("{:.2} K", n / 1e3)
    } else {
        format!("{n:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_browser_figures_out_of_the_test_output() {
        let text = "running 2 tests\nwasm-bench litmus_random/mp schedules_per_s=55125\ntest result: ok\n  wasm-bench litmus_exhaustive/sb ms=1.2\n";
        assert_eq!(wasm_lines(text), vec!["litmus_random/mp schedules_per_s=55125", "litmus_exhaustive/sb ms=1.2"]);
    }

    #[test]
    fn reads_criterion_results_and_formats_them() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-{}", std::process::id()));
        let new = dir.join("seek_1m/mixed/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(
            new.join("estimates.json"),
            r#"{"mean":{"confidence_interval":{},"point_estimate":2500000.0,"standard_error":1.0}}"#,
        )
        .unwrap();
        std::fs::write(
            new.join("benchmark.json"),
            r#"{"group_id":"seek_1m","function_id":"mixed","full_id":"seek_1m/mixed","throughput":{"Elements":1000}}"#,
        )
        .unwrap();
        let found = collect(&dir, SystemTime::UNIX_EPOCH);
        // Results older than the run are left out.
        let later = SystemTime::now() + std::time::Duration::from_secs(3600);
        assert!(collect(&dir, later).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            found,
            vec![Measured {
                id: "seek_1m/mixed".into(),
                mean_ns: 2_500_000.0,
                throughput: Some(("Elements".into(), 1000)),
            }]
        );
        let line = summary_line(&found[0]);
        assert!(line.starts_with("seek_1m/mixed"), "{line}");
        assert!(line.contains("2.50 ms"), "{line}");
        assert!(line.contains("400.00 K elements/s"), "{line}");
    }
}
