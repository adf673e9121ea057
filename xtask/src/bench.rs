//! `cargo xtask bench [ARGS...]`: every benchmark of BENCHMARKS.md, then the file rewritten
//! with the figures.
//!
//! Without arguments the task measures, in order:
//! 1. the engine's criterion benchmarks natively (`cargo bench -p interleave-engine --bench
//!    engine`), read back from the `estimates.json` and `benchmark.json` files criterion
//!    writes under `target/criterion/` (results of earlier invocations are left out by their
//!    modification time);
//! 2. the engine's memory figures natively (`--bench memory`, a counting allocator);
//! 3. the same engine workloads compiled to wasm (release) in headless Chromium
//!    (`engine/tests/wasm_bench.rs` and `wasm_memory.rs`, feature `wasm-bench`);
//! 4. the Oclgrind comparison: `interleave run FILE.sim` (release CLI) against
//!    `oclgrind-kernel --data-races FILE.sim` on the `.sim` files in `engine/benches/`, wall
//!    time, one after the other (Debian's `oclgrind` is installed when missing);
//! 5. the reduction's `.sim` file under each scheduler (release CLI), against the random one;
//! 6. the timeline's paint of 1,024 lanes and 100,000 events, the app's component benchmark in
//!    Chromium (release);
//! 7. the app's size: `trunk build --release --offline`, then every file of `dist/`
//!    brotli-compressed;
//! 8. the built app in Chromium (`tests/tests/app_bench.rs`): navigation to interactive, and
//!    the exploration rate of one worker against all of them.
//!
//! Then it rewrites the figures section of BENCHMARKS.md (between its two markers) with one
//! table of workload, native, wasm, Oclgrind, ratio and target, and the machine. A stage that
//! cannot run (a missing tool) leaves its rows marked "not measured" and the reason below the
//! table: benchmarks measure, they never fail a build.
//!
//! With arguments, the task runs only the criterion benchmarks, passing the arguments through
//! (a filter such as `cargo xtask bench seek`, or `--test`, which runs each benchmark once as
//! a smoke test), prints their summary and leaves BENCHMARKS.md alone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};

use serde_json::Value;

/// One measured criterion benchmark, as the summary shows it.
#[derive(Debug, PartialEq)]
pub(crate) struct Measured {
    pub(crate) id: String,
    pub(crate) mean_ns: f64,
    /// Criterion's throughput unit and the count per iteration, when the benchmark set one.
    pub(crate) throughput: Option<(String, u64)>,
}

impl Measured {
    /// Throughput per second, when the benchmark has one.
    pub(crate) fn per_second(&self) -> Option<f64> {
        self.throughput.as_ref().map(|(_, count)| *count as f64 / (self.mean_ns / 1e9))
    }
}

/// Everything one full run measured: criterion's results, the `KEY=VALUE` figures the other
/// stages printed (by stage and name), and what could not be measured.
#[derive(Debug, Default)]
pub(crate) struct Figures {
    pub(crate) criterion: Vec<Measured>,
    /// `(stage, name)` to the figure's values: `("wasm", "seek_1m/mixed")` to `{"ms": "2.1"}`.
    pub(crate) values: BTreeMap<(String, String), BTreeMap<String, String>>,
    /// Stages that failed or could not start, with why.
    pub(crate) problems: Vec<String>,
    /// The load average (1, 5 and 15 minutes) as each stage started.
    pub(crate) loads: Vec<(String, String)>,
}

impl Figures {
    /// The criterion result with this id.
    pub(crate) fn native(&self, id: &str) -> Option<&Measured> {
        self.criterion.iter().find(|m| m.id == id)
    }

    /// One value of a stage's figure, as a number.
    pub(crate) fn get(&self, stage: &str, name: &str, key: &str) -> Option<f64> {
        self.values.get(&(stage.to_owned(), name.to_owned()))?.get(key)?.parse().ok()
    }

    /// One value of a stage's figure, as text.
    pub(crate) fn text(&self, stage: &str, name: &str, key: &str) -> Option<&str> {
        self.values.get(&(stage.to_owned(), name.to_owned()))?.get(key).map(String::as_str)
    }

    /// Adds the `NAME KEY=VALUE...` lines of `stage`.
    pub fn add_lines(&mut self, stage: &str, lines: &[String]) {
        for line in lines {
            let mut words = line.split_whitespace();
            let Some(name) = words.next() else { continue };
            let entry = self.values.entry((stage.to_owned(), name.to_owned())).or_default();
            for word in words {
                if let Some((key, value)) = word.split_once('=') {
                    entry.insert(key.to_owned(), value.to_owned());
                }
            }
        }
    }

    /// Runs one stage, noting the load average first; a failure is noted, not returned.
    fn stage(&mut self, title: &str, work: impl FnOnce(&mut Figures) -> Result<(), String>) {
        println!("\n==> bench: {title}");
        self.loads.push((title.to_owned(), load_average()));
        if let Err(problem) = work(self) {
            println!("bench: {title}: {problem}");
            self.problems.push(format!("{title}: {problem}"));
        }
    }
}

/// `/proc/loadavg`'s first three fields, or `unknown`.
pub(crate) fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map(|text| text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")).unwrap_or_else(|_| "unknown".into())
}

pub fn run(args: &[String]) -> Result<(), String> {
    let root = crate::workspace_root();
    if !args.is_empty() {
        let measured = criterion(&root, args)?;
        print_summary(&measured);
        println!("targets and the last full run's figures: BENCHMARKS.md");
        return Ok(());
    }
    let clock = Instant::now();
    let mut figures = Figures::default();
    figures.stage("criterion benchmarks (native)", |f| {
        f.criterion = criterion(&root, &[])?;
        Ok(())
    });
    figures.stage("memory (native)", |f| {
        let mut command = cargo(&root, &["bench", "-p", "interleave-engine", "--bench", "memory"]);
        let lines = tagged_output(&mut command, "memory ")?;
        f.add_lines("memory", &lines);
        Ok(())
    });
    figures.stage("engine in Chromium (wasm)", |f| {
        let lines = wasm_bench(&root)?;
        f.add_lines("wasm", &lines);
        Ok(())
    });
    figures.stage("Oclgrind comparison", |f| {
        let lines = crate::bench_sim::compare(&root)?;
        f.add_lines("sim", &lines);
        Ok(())
    });
    figures.stage("schedulers", |f| {
        let lines = crate::bench_sim::compare_schedulers(&root)?;
        f.add_lines("sim", &lines);
        Ok(())
    });
    figures.stage("exploration threads (native)", |f| {
        let lines = crate::bench_sim::compare_threads(&root)?;
        f.add_lines("sim", &lines);
        Ok(())
    });
    figures.stage("timeline paint in Chromium", |f| {
        let lines = timeline_bench(&root)?;
        f.add_lines("timeline", &lines);
        Ok(())
    });
    let dist = root.join("dist");
    figures.stage("app size (trunk build --release)", |f| {
        crate::editor::ensure_bundle()?;
        crate::setup::ensure(crate::setup::BUILD_TOOLS)?;
        // Builds sharing the target directory can leave a truncated file behind for Trunk to
        // copy; a dist/ with an empty wasm module is built again, once.
        for attempt in 0..2 {
            run_shown(&mut crate::test::trunk_build(&root))?;
            match crate::bench_size::empty_wasm(&dist) {
                None => break,
                Some(name) if attempt == 0 => println!("bench: {name} is empty; building again"),
                Some(name) => return Err(format!("trunk wrote an empty {name} twice")),
            }
        }
        let lines = crate::bench_size::measure(&dist)?;
        f.add_lines("size", &lines);
        Ok(())
    });
    figures.stage("app in Chromium (load, workers)", |f| {
        let lines = app_bench(&root, &dist)?;
        f.add_lines("app", &lines);
        Ok(())
    });
    print_summary(&figures.criterion);
    for ((stage, name), values) in &figures.values {
        let shown: Vec<String> = values.iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!("{stage}: {name} {}", shown.join(" "));
    }
    let path = root.join("BENCHMARKS.md");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let section = crate::bench_report::section(&figures, &crate::bench_report::machine());
    let updated = crate::bench_report::replace_section(&text, &section)?;
    std::fs::write(&path, updated).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!(
        "\nbench: {:.0} s in all; BENCHMARKS.md rewritten{}",
        clock.elapsed().as_secs_f64(),
        if figures.problems.is_empty() { String::new() } else { format!(" ({} stage(s) not measured)", figures.problems.len()) }
    );
    Ok(())
}

fn cargo(root: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(crate::setup::cargo());
    command.current_dir(root).args(args);
    command
}

/// Runs `command` with its output shown.
fn run_shown(command: &mut Command) -> Result<(), String> {
    let shown = crate::describe(command);
    println!("$ {shown}");
    let status = command.status().map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` exited with {status}"))
    }
}

/// Runs `command` and returns the lines of its output (stdout and stderr) that start with
/// `tag` (leading spaces ignored), without the tag.
fn tagged_output(command: &mut Command, tag: &str) -> Result<Vec<String>, String> {
    let shown = crate::describe(command);
    println!("$ {shown}");
    let output = command.output().map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!("`{shown}` exited with {}:\n{}", output.status, tail.join("\n")));
    }
    let lines = tagged_lines(&text, tag);
    for line in &lines {
        println!("{tag}{line}");
    }
    Ok(lines)
}

/// Runs the criterion benchmarks with `args` and returns what they measured, by id.
fn criterion(root: &Path, args: &[String]) -> Result<Vec<Measured>, String> {
    let mut command = cargo(root, &["bench", "-p", "interleave-engine", "--bench", "engine", "--"]);
    command.args(args);
    let started = SystemTime::now();
    run_shown(&mut command)?;
    let mut measured = collect(&criterion_dir(root), started);
    measured.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(measured)
}

fn print_summary(measured: &[Measured]) {
    println!("\n==> criterion summary");
    if measured.is_empty() {
        println!("no benchmark was measured (a filter that matched none, or --test mode)");
    }
    for m in measured {
        println!("{}", summary_line(m));
    }
}

/// Runs the engine's browser benchmarks (`wasm_bench.rs`, `wasm_memory.rs`) in headless
/// Chromium (release build, feature `wasm-bench`) and returns the figures they printed.
fn wasm_bench(root: &Path) -> Result<Vec<String>, String> {
    use crate::setup::Tool;
    let found = crate::setup::ensure(&[Tool::WasmTarget, Tool::WasmBindgen, Tool::Chromium])?;
    let chromedriver = found.chromedriver.ok_or("chromedriver was not found")?;
    let mut command = cargo(root, &["test", "--release", "-p", "interleave-engine", "--target", crate::setup::WASM_TARGET]);
    command.args(["--features", "wasm-bench"]);
    for name in crate::test::ENGINE_WASM_BENCHES {
        command.args(["--test", name]);
    }
    command.args(["--", "--nocapture"]).env("CHROMEDRIVER", chromedriver).env("WASM_BINDGEN_TEST_TIMEOUT", "900");
    tagged_output(&mut command, "wasm-bench ")
}

/// Runs the app's timeline benchmark (a component test that paints 1,024 lanes and 100,000
/// events at several zooms and scroll positions) in headless Chromium, release build, and
/// returns its figures as one `timeline KEY=VALUE...` line.
fn timeline_bench(root: &Path) -> Result<Vec<String>, String> {
    use crate::setup::Tool;
    let found = crate::setup::ensure(&[Tool::WasmTarget, Tool::WasmBindgen, Tool::Chromium])?;
    let chromedriver = found.chromedriver.ok_or("chromedriver was not found")?;
    crate::editor::ensure_bundle()?;
    let mut command = cargo(root, &["test", "--release", "-p", "interleave-app", "--target", crate::setup::WASM_TARGET]);
    command
        .args(["--test", "timeline", "--", "--nocapture", "a_thousand_lanes_and_a_hundred_thousand_events"])
        .env("CHROMEDRIVER", chromedriver)
        .env("WASM_BINDGEN_TEST_TIMEOUT", "900");
    let lines = tagged_output(&mut command, "timeline of 1,024 lanes")?;
    let line = lines.first().ok_or("the timeline test printed no figures")?;
    Ok(vec![format!("lanes_1024 {}", timeline_values(line).ok_or_else(|| format!("cannot read {line:?}"))?)])
}

/// `first_render_ms=.. paint_mean_ms=.. paint_worst_ms=.. paints=.. rerender_ms=..` from the
/// timeline test's line (after its `timeline of 1,024 lanes` tag).
fn timeline_values(line: &str) -> Option<String> {
    let after = |label: &str| -> Option<&str> {
        let rest = &line[line.find(label)? + label.len()..];
        rest.split_whitespace().next()
    };
    let events = line.trim_start().strip_prefix("and ")?.split_whitespace().next()?;
    Some(format!(
        "events={events} first_render_ms={} paint_mean_ms={} paint_worst_ms={} paints={} rerender_ms={}",
        after("first render ")?,
        after("paint mean ")?,
        after("worst ")?,
        after("over ")?,
        after("re-render ")?,
    ))
}

/// Runs `tests/tests/app_bench.rs` against the built app in `dist`.
fn app_bench(root: &Path, dist: &Path) -> Result<Vec<String>, String> {
    use crate::setup::Tool;
    let found = crate::setup::ensure(&[Tool::Chromium])?;
    let chromedriver = found.chromedriver.ok_or("chromedriver was not found")?;
    let chromium = found.chromium.ok_or("chromium was not found")?;
    let mut command = cargo(root, &["test", "-p", "interleave-tests", "--features", "e2e", "--test", "app_bench", "--", "--nocapture"]);
    command.env("INTERLEAVE_DIST", dist).env("CHROMEDRIVER", chromedriver).env("CHROMIUM", chromium);
    tagged_output(&mut command, "app-bench ")
}

/// The lines of `text` that start with `tag` (after leading spaces), without the tag.
fn tagged_lines(text: &str, tag: &str) -> Vec<String> {
    text.lines().filter_map(|l| l.trim().strip_prefix(tag).map(str::to_string)).collect()
}

/// Where criterion writes its results: `criterion/` in cargo's target directory.
fn criterion_dir(root: &Path) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| if dir.is_absolute() { dir } else { root.join(dir) })
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
        let fresh = std::fs::metadata(&estimates).and_then(|m| m.modified()).is_ok_and(|modified| modified >= since);
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
    Some(Measured { id, mean_ns, throughput })
}

/// `seek_1m/mixed  mean 2.41 ms` with `  (415.0 K elements/s)` when there is a throughput.
fn summary_line(m: &Measured) -> String {
    let mut line = format!("{:<32} mean {:>10}", m.id, format_time(m.mean_ns));
    if let Some((unit, count)) = &m.throughput {
        let per_second = *count as f64 / (m.mean_ns / 1e9);
        line.push_str(&format!("   {} {}/s", format_count(per_second), unit.to_lowercase()));
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
    fn picks_the_figures_out_of_the_test_output() {
        let text = "running 2 tests\nwasm-bench litmus_random/mp schedules_per_s=55125\ntest result: ok\n  wasm-bench litmus_exhaustive/sb ms=1.2\n";
        let lines = tagged_lines(text, "wasm-bench ");
        assert_eq!(lines, vec!["litmus_random/mp schedules_per_s=55125", "litmus_exhaustive/sb ms=1.2"]);
        let mut figures = Figures::default();
        figures.add_lines("wasm", &lines);
        assert_eq!(figures.get("wasm", "litmus_random/mp", "schedules_per_s"), Some(55125.0));
        assert_eq!(figures.text("wasm", "litmus_exhaustive/sb", "ms"), Some("1.2"));
        assert_eq!(figures.get("wasm", "litmus_exhaustive/sb", "missing"), None);
    }

    #[test]
    fn reads_the_timeline_figures() {
        let line = "timeline of 1,024 lanes and 100000 events: first render 35.2 ms, paint mean 4.10 ms, worst 9.80 ms over 20 paints, re-render 12.5 ms";
        let tail = &tagged_lines(line, "timeline of 1,024 lanes")[0];
        assert_eq!(
            timeline_values(tail).as_deref(),
            Some("events=100000 first_render_ms=35.2 paint_mean_ms=4.10 paint_worst_ms=9.80 paints=20 rerender_ms=12.5")
        );
    }

    #[test]
    fn reads_criterion_results_and_formats_them() {
        let dir = std::env::temp_dir().join(format!("xtask-bench-{}", std::process::id()));
        let new = dir.join("seek_1m/mixed/new");
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(new.join("estimates.json"), r#"{"mean":{"confidence_interval":{},"point_estimate":2500000.0,"standard_error":1.0}}"#).unwrap();
        std::fs::write(new.join("benchmark.json"), r#"{"group_id":"seek_1m","function_id":"mixed","full_id":"seek_1m/mixed","throughput":{"Elements":1000}}"#)
            .unwrap();
        let found = collect(&dir, SystemTime::UNIX_EPOCH);
        // Results older than the run are left out.
        let later = SystemTime::now() + std::time::Duration::from_secs(3600);
        assert!(collect(&dir, later).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(found, vec![Measured { id: "seek_1m/mixed".into(), mean_ns: 2_500_000.0, throughput: Some(("Elements".into(), 1000)) }]);
        let line = summary_line(&found[0]);
        assert!(line.starts_with("seek_1m/mixed"), "{line}");
        assert!(line.contains("2.50 ms"), "{line}");
        assert!(line.contains("400.00 K elements/s"), "{line}");
    }
}
