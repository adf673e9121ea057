//! Data-driven tests of the `interleave` subcommands.
//!
//! Each `tests/data/SUBCOMMAND/NAME.cl` (or `.cu`) starts with a `// ARGS: ...` line; a
//! `NAME.sim` simulation file or `NAME.toml` scenario file carries its own launch (a scenario
//! file may start with a `# ARGS: ...` line of options for the subcommand). The test runs
//! `interleave SUBCOMMAND FILE ARGS` from the workspace root and compares exit status, stdout
//! and stderr with `NAME.expected` beside it. A `NAME.link` file holds a share link (or a
//! fragment), which is passed as FILE itself. The kernels of `tests/data/lower/` are run with
//! `parse` (their `ARGS` give `--ir`), so their expectations are the lowered programs.
//! `UPDATE_EXPECT=1 cargo test` rewrites the expectations.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs the CLI on one input and renders everything it did as text.
fn observe(subcommand: &str, relative: &str) -> String {
    let root = workspace();
    let source = std::fs::read_to_string(root.join(relative)).expect("test input is readable");
    let file = if relative.ends_with(".link") { source.trim().to_string() } else { relative.to_string() };
    // Kernels carry their arguments on a first `// ARGS:` line; a `.sim` file carries its own.
    let args = if relative.ends_with(".toml") {
        // A scenario file may carry options for the subcommand on a first `# ARGS:` line.
        source.lines().next().and_then(|l| l.strip_prefix("# ARGS:")).unwrap_or_default()
    } else if relative.ends_with(".sim") || relative.ends_with(".link") {
        ""
    } else {
        let args_line = source.lines().next().unwrap_or_default();
        args_line.strip_prefix("// ARGS:").expect("the first line of a test input is `// ARGS: ...`")
    };
    let output = Command::new(env!("CARGO_BIN_EXE_interleave"))
        .current_dir(&root)
        .arg(subcommand)
        .arg(&file)
        .args(args.split_whitespace())
        .output()
        .expect("the CLI starts");
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        output.status.code().map_or("signal".to_string(), |c| c.to_string()),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Checks every input of `tests/data/SUBCOMMAND`; there must be at least `min` of them.
fn check_dir(subcommand: &str, min: usize) {
    check_dir_with(subcommand, subcommand, min)
}

/// Checks every input of `tests/data/FOLDER` with `interleave SUBCOMMAND`; there must be at
/// least `min` of them.
fn check_dir_with(folder: &str, subcommand: &str, min: usize) {
    let dir = workspace().join("tests/data").join(folder);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("the test data folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cl" || e == "cu" || e == "sim" || e == "toml" || e == "litmus" || e == "link"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= min, "expected at least {min} inputs in {}", dir.display());
    let failures: Vec<String> = inputs
        .iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            let actual = observe(subcommand, &format!("tests/data/{folder}/{name}"));
            interleave_expect::check(&actual, &path.with_extension("expected")).err()
        })
        .collect();
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), inputs.len(), failures.join("\n"));
}

#[test]
fn run_outputs_match_their_expectations() {
    check_dir("run", 10);
}

#[test]
fn explore_outputs_match_their_expectations() {
    check_dir("explore", 2);
}

#[test]
fn shrink_outputs_match_their_expectations() {
    check_dir("shrink", 6);
}

/// Every shrink of `tests/data/shrink` that succeeds gives a schedule no longer, and with no
/// more preemptions, than the run it started from (where that run shows the target), and
/// `run` with the replay options it prints (`--sched manual --schedule ...`, or `--sched
/// lockstep` for a lockstep run) shows the same finding (kind and places) or the same outcome.
#[test]
fn shrunk_schedules_replay_to_their_target_and_are_no_larger() {
    let dir = workspace().join("tests/data/shrink");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/data/shrink") {
        let path = entry.expect("an entry").path();
        let Some(ext) = path.extension().and_then(|e| e.to_str()).filter(|e| *e == "cl" || *e == "toml") else { continue };
        let relative = format!("tests/data/shrink/{}", path.file_name().unwrap().to_string_lossy());
        let text = std::fs::read_to_string(&path).expect("readable");
        let prefix = if ext == "toml" { "# ARGS:" } else { "// ARGS:" };
        let args: Vec<String> = text.lines().next().and_then(|l| l.strip_prefix(prefix)).unwrap_or_default().split_whitespace().map(str::to_string).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_interleave"))
            .current_dir(workspace())
            .arg("shrink")
            .arg(&relative)
            .args(&args)
            .arg("--json")
            .output()
            .expect("the CLI starts");
        if out.status.code() == Some(2) {
            continue; // a refusal, checked by its expected output
        }
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{relative}: {}", String::from_utf8_lossy(&out.stderr)));
        let (before, after) = (&json["before"], &json["after"]);
        // An outcome the run as given does not end with (one picked from an exploration) has
        // no run to compare sizes with; its replay is still checked below.
        if before.is_object() {
            assert!(after["steps"].as_u64() <= before["steps"].as_u64(), "{relative}: longer than the run it started from");
            assert!(after["preemptions"].as_u64() <= before["preemptions"].as_u64(), "{relative}: more preemptions than the run it started from");
        } else {
            assert!(before.is_null(), "{relative}: `before` is neither a run nor null: {before}");
        }
        // The run options without the shrink's own, then the replay.
        let mut run_args: Vec<String> = Vec::new();
        let mut i = 0;
        while i < args.len() {
            match args[i].as_str() {
                "--outcome" => {
                    i += 1;
                    while i < args.len() && !args[i].starts_with("--") {
                        i += 1;
                    }
                    continue;
                }
                // The replay options name their own scheduler.
                "--budget" | "--finding" | "--sched" => i += 2,
                _ => {
                    run_args.push(args[i].clone());
                    i += 1;
                }
            }
        }
        run_args.extend(json["replay"].as_str().expect("replay options").split_whitespace().map(str::to_string));
        let replay = Command::new(env!("CARGO_BIN_EXE_interleave"))
            .current_dir(workspace())
            .arg("run")
            .arg(&relative)
            .args(&run_args)
            .arg("--json")
            .output()
            .expect("the CLI starts");
        let report: serde_json::Value =
            serde_json::from_slice(&replay.stdout).unwrap_or_else(|_| panic!("{relative}: {}", String::from_utf8_lossy(&replay.stderr)));
        assert_eq!(report["steps"], after["steps"], "{relative}: the replay ran another number of steps");
        let places = |f: &serde_json::Value| {
            let mut p = vec![(f["line"].as_u64(), f["column"].as_u64())];
            if f["kind"] == "data-race" {
                p.push((f["related"][0]["line"].as_u64(), f["related"][0]["column"].as_u64()));
            }
            p.sort();
            (f["kind"].as_str().map(str::to_string), p)
        };
        match (&json["target"]["finding"], &json["target"]["outcome"]) {
            (finding, _) if finding.is_object() => {
                let found = report["findings"].as_array().expect("findings").iter().any(|f| places(f) == places(finding));
                assert!(found, "{relative}: the replay does not show the shrunk finding: {}", report["findings"]);
            }
            (_, outcome) => {
                for (name, values) in outcome.as_object().expect("an outcome") {
                    let got = match report["buffers"].as_array().and_then(|b| b.iter().find(|b| b["name"] == name.as_str())) {
                        Some(b) => b["values"].clone(),
                        None => serde_json::json!([report["registers"][name]]),
                    };
                    assert_eq!(&got, values, "{relative}: {name} after the replay");
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} shrinks checked");
}

#[test]
fn link_outputs_match_their_expectations() {
    check_dir("link", 4);
}

/// The `trace_hash` of `interleave run ARGS --json`.
fn run_hash(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_interleave")).current_dir(workspace()).arg("run").args(args).arg("--json").output().expect("the CLI starts");
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("JSON on stdout for {args:?}: {}", String::from_utf8_lossy(&out.stderr)));
    json["trace_hash"].as_str().expect("a trace hash").to_string()
}

#[test]
fn running_a_link_gives_the_trace_of_its_file() {
    let cases: &[&[&str]] = &[
        &["static/examples/count.toml"],
        &["static/examples/weak_cas.toml"],
        &["static/examples/threadfence_xy.toml"],
        &["static/examples/async_copy_reuse.toml"],
        &["static/examples/count.cl", "--global", "8", "--local", "4", "--arg", "ids=int[8]", "--arg", "counters=int[2]", "--sched", "pct", "--seed", "5"],
        &["static/examples/litmus/mp.litmus", "--memory-model", "relaxed", "--seed", "3"],
        &["tests/data/run/launch_from_sim_file.sim", "--seed", "2"],
    ];
    for args in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_interleave")).current_dir(workspace()).arg("link").args(*args).output().expect("the CLI starts");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let url = String::from_utf8(out.stdout).expect("UTF-8").trim().to_string();
        assert!(url.starts_with("http://127.0.0.1:8080/#v1."), "{url}");
        let fragment = url.split_once('#').expect("a fragment").1.to_string();
        let expected = run_hash(args);
        assert_eq!(run_hash(&[&url]), expected, "{args:?}");
        assert_eq!(run_hash(&[&fragment]), expected, "{args:?}");
        assert_eq!(run_hash(&[&format!("#{fragment}")]), expected, "{args:?}");
    }
}

#[test]
fn parse_outputs_match_their_expectations() {
    check_dir("parse", 8);
}

/// The lowered program of kernels that cover each part of the lowering (control flow,
/// memory, vectors, conversions, atomics, synchronisation, collectives, the built-in library,
/// CUDA), as `interleave parse --ir` prints it.
#[test]
fn lowered_programs_match_their_expectations() {
    check_dir_with("lower", "parse", 15);
}

#[test]
fn the_same_seed_gives_the_same_trace_and_other_seeds_explore() {
    let hash = |seed: u64| {
        let out = Command::new(env!("CARGO_BIN_EXE_interleave"))
            .current_dir(workspace())
            .args(["run", "static/examples/count.cl", "--global", "8", "--local", "4", "--arg", "ids=int[8]", "--arg", "counters=int[2]", "--json", "--seed"])
            .arg(seed.to_string())
            .output()
            .expect("the CLI starts");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
        (json["trace_hash"].as_str().unwrap_or_default().to_string(), json["buffers"][1]["values"][0].as_i64())
    };
    assert_eq!(hash(7), hash(7));
    let outcomes: std::collections::BTreeSet<_> = (0..20).map(|s| hash(s).1).collect();
    assert!(outcomes.len() > 1, "20 seeds should show different lost-update counts, saw {outcomes:?}");
}
