//! The Oclgrind comparison of `cargo xtask bench`: the same `.sim` files run by
//! `interleave run FILE.sim` (the release CLI) and by `oclgrind-kernel --data-races FILE.sim`,
//! one after the other on the same machine, timed by wall clock from start to exit.
//!
//! Both tools resolve the kernel file a `.sim` names from the working directory, so both run
//! in `engine/benches/`, where the files are. The interleave run is allowed enough steps and
//! history to finish (`--max-steps`, `--max-history-events`: a million work-items make more
//! events than the defaults allow); its status line says whether it did.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The `.sim` workloads and how many times each is run (the fastest run counts).
const WORKLOADS: &[(&str, &str, u32)] = &[("reduce_65536", "reduce_65536.sim", 3), ("vector_add_1m", "vector_add_1m.sim", 1)];

/// The schedulers timed on the reduction, each against the random one (the default). The
/// manual scheduler is not among them: it replays a schedule given to it and chooses nothing.
pub const SCHEDULER_NAMES: &[&str] = &["random", "round-robin", "pct", "run-to-block", "lockstep"];

/// The workload the schedulers are compared on, and how many times each runs.
const SCHEDULER_WORKLOAD: (&str, &str, u32) = ("reduce_65536", "reduce_65536.sim", 3);

/// Enough steps for the vector add (two per work-item, three with every read a step).
const MAX_STEPS: &str = "10000000";

/// Enough history for the vector add: the hard maximum of the limit, as the vector add records
/// a little more than four million events.
const MAX_HISTORY_EVENTS: &str = "8000000";

/// Runs every workload with both tools (installing Oclgrind where it is missing) and returns
/// one `NAME KEY=VALUE...` line each.
pub fn compare(root: &Path) -> Result<Vec<String>, String> {
    let oclgrind = crate::setup::ensure(&[crate::setup::Tool::Oclgrind])?.oclgrind.ok_or("oclgrind-kernel was not found")?;
    with_release_cli(root, |interleave| compare_with(&oclgrind, interleave, &root.join("engine/benches")))
}

/// Times the reduction under each scheduler; see [`schedulers`].
pub fn compare_schedulers(root: &Path) -> Result<Vec<String>, String> {
    with_release_cli(root, |interleave| Ok(vec![schedulers(interleave, &root.join("engine/benches"))?]))
}

/// The exploration timed on one thread and on two: the gallery's reduction, random schedules.
const THREADS_WORKLOAD: (&str, &str, u32) = ("reduce", "static/examples/reduce.toml", 10_000);

/// Times `interleave explore` of [`THREADS_WORKLOAD`] with `--jobs 1` and `--jobs 2` (the
/// fastest of two runs each) and returns `explore_threads_NAME one_ms=... two_ms=... runs=...`.
pub fn compare_threads(root: &Path) -> Result<Vec<String>, String> {
    let (name, file, runs) = THREADS_WORKLOAD;
    with_release_cli(root, |interleave| {
        let mut line = format!("explore_threads_{name}");
        let mut outputs = Vec::new();
        for (jobs, key) in [("1", "one_ms"), ("2", "two_ms")] {
            let mut best = f64::INFINITY;
            for _ in 0..2 {
                let mut command = Command::new(interleave);
                command.current_dir(root).args(["explore", file, "--runs", &runs.to_string(), "--jobs", jobs]);
                let (ms, output) = timed(&mut command)?;
                if !output.contains(&format!("explored {runs} schedules")) {
                    return Err(format!("`interleave explore {file} --jobs {jobs}` did not explore {runs} schedules"));
                }
                best = best.min(ms);
                outputs.push(output);
            }
            line.push_str(&format!(" {key}={best:.0}"));
        }
        // The result does not depend on the threads: the benchmark checks it too.
        if outputs.windows(2).any(|w| w[0] != w[1]) {
            return Err("`--jobs 1` and `--jobs 2` printed different explorations".into());
        }
        line.push_str(&format!(" runs={runs}"));
        println!("sim {line}");
        Ok(vec![line])
    })
}

/// Builds the release CLI and runs `work` with a private copy of it: other builds sharing the
/// target directory could replace the binary between runs.
fn with_release_cli(root: &Path, work: impl FnOnce(&Path) -> Result<Vec<String>, String>) -> Result<Vec<String>, String> {
    let mut build = Command::new(crate::setup::cargo());
    build.current_dir(root).args(["build", "--release", "-p", "interleave-cli"]);
    let shown = crate::describe(&build);
    println!("$ {shown}");
    let status = build.status().map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    if !status.success() {
        return Err(format!("`{shown}` exited with {status}"));
    }
    let interleave = std::env::temp_dir().join(format!("interleave-bench-{}", std::process::id()));
    std::fs::copy(target_dir(root).join("release/interleave"), &interleave)
        .map_err(|e| format!("cannot copy the release CLI to {}: {e}", interleave.display()))?;
    let result = work(&interleave);
    let _ = std::fs::remove_file(&interleave);
    result
}

/// The comparison proper, with the two tools' binaries and the folder of `.sim` files.
fn compare_with(oclgrind: &Path, interleave: &Path, dir: &Path) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for &(name, file, runs) in WORKLOADS {
        let (mut ours, mut theirs) = (f64::INFINITY, f64::INFINITY);
        let mut status_line = String::new();
        let mut oclgrind_ok = true;
        for _ in 0..runs {
            let mut command = Command::new(interleave);
            command.current_dir(dir).args(["run", file, "--max-steps", MAX_STEPS, "--max-history-events", MAX_HISTORY_EVENTS]);
            let (ms, output) = timed(&mut command)?;
            ours = ours.min(ms);
            status_line = output.lines().find(|l| l.starts_with("status: ")).unwrap_or("status: unknown").to_owned();
            let mut command = Command::new(oclgrind);
            command.current_dir(dir).args(["--data-races", file]);
            let started = Instant::now();
            let status = command.stdout(Stdio::null()).stderr(Stdio::null()).status().map_err(|e| format!("cannot run oclgrind-kernel: {e}"))?;
            theirs = theirs.min(started.elapsed().as_secs_f64() * 1000.0);
            oclgrind_ok &= status.success();
        }
        // `status: completed after 917760 steps (trace ...)`
        let mut words = status_line.split_whitespace().skip(1);
        let state = words.next().unwrap_or("unknown");
        let steps = words.nth(1).unwrap_or("0");
        let line = format!(
            "{name} interleave_ms={ours:.0} oclgrind_ms={theirs:.0} interleave_status={state} interleave_steps={steps} oclgrind_ok={oclgrind_ok} runs={runs}"
        );
        println!("sim {line}");
        lines.push(line);
    }
    Ok(lines)
}

/// Times [`SCHEDULER_WORKLOAD`] under each of [`SCHEDULER_NAMES`] (the fastest of its runs; an
/// error if a run does not complete) and returns `schedulers_WORKLOAD NAME_ms=...`, each
/// scheduler's name in snake case.
fn schedulers(interleave: &Path, dir: &Path) -> Result<String, String> {
    let (name, file, runs) = SCHEDULER_WORKLOAD;
    let mut line = format!("schedulers_{name}");
    for scheduler in SCHEDULER_NAMES {
        let mut best = f64::INFINITY;
        for _ in 0..runs {
            let mut command = Command::new(interleave);
            command.current_dir(dir).args(["run", file, "--sched", scheduler, "--max-steps", MAX_STEPS, "--max-history-events", MAX_HISTORY_EVENTS]);
            let (ms, output) = timed(&mut command)?;
            // A run a limit stopped would be quick for the wrong reason: no figure then.
            let status = output.lines().find(|l| l.starts_with("status: ")).unwrap_or("status: unknown");
            if !status.starts_with("status: completed") {
                return Err(format!("`interleave run {file} --sched {scheduler}` did not complete ({status})"));
            }
            best = best.min(ms);
        }
        line.push_str(&format!(" {}_ms={best:.0}", scheduler.replace('-', "_")));
    }
    println!("sim {line}");
    Ok(line)
}

/// Runs `command` to its end and returns the milliseconds it took and its standard output.
/// Its exit status is not checked: the CLI exits with 1 when a run has findings.
fn timed(command: &mut Command) -> Result<(f64, String), String> {
    let started = Instant::now();
    let output = command.stderr(Stdio::null()).output().map_err(|e| format!("cannot run {}: {e}", crate::describe(command)))?;
    Ok((started.elapsed().as_secs_f64() * 1000.0, String::from_utf8_lossy(&output.stdout).into_owned()))
}

/// Cargo's target directory: `CARGO_TARGET_DIR` if set (relative to the workspace), else
/// `target/`.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| if dir.is_absolute() { dir } else { root.join(dir) })
        .unwrap_or_else(|| root.join("target"))
}
