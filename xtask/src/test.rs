//! `cargo xtask test`: every test suite, in order of cost, stopping at the first failure.
//!
//! 1. Tidy: `cargo fmt --all --check`, with the workspace's `rustfmt.toml`, then clippy with
//!    `-D warnings` (settings in `clippy.toml`) on every target of the workspace natively, and
//!    for `wasm32-unknown-unknown` on the app (whose browser tests exist only there) and on the
//!    engine's library and tests (its wasm tests and benchmarks). A warning fails the stage.
//! 2. Native tests of the engine, the CLI, the test-support library, the expected files'
//!    compare-or-bless, the app's pure modules and this crate: fast, and most failures show
//!    up here.
//! 3. The parse scoreboard of other projects' kernels (`cargo xtask corpus`, short form), only
//!    when `../shared/corpus` exists beside the checkout, so a clone without it still passes.
//!    It measures and does not gate, except that an engine panic fails it: user input must
//!    never panic the engine.
//! 4. The wasm-bindgen tests of the engine and of the app, in headless Chromium (the test runner
//!    reads each crate's `webdriver.json` for Chromium's flags). Of the engine's test files only
//!    those in [`ENGINE_WASM_TESTS`] are built: every other one is native only, and building it
//!    for wasm only to find no test in it took about half of this stage.
//! 5. A release build of the app with Trunk, into `dist/`.
//! 6. The end-to-end test, which serves `dist/` and drives it in Chromium.
//!
//! Code that compiles natively but not for wasm fails the tidy stage already (clippy checks the
//! engine and the app for `wasm32-unknown-unknown`), so no stage builds the engine for wasm
//! on its own.
//!
//! The runners' own summaries are the last thing printed, so a log shows at a glance which
//! tests ran and how they ended; this task adds only a header per stage and one final line.

use crate::corpus;
use crate::setup::{self, Tool};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Gives slow machines time to compile wasm in the browser; an explicit setting wins.
const WASM_BINDGEN_TEST_TIMEOUT_SECS: &str = "300";

/// The packages whose native tests the second stage runs, in one `cargo test`.
const NATIVE_PACKAGES: &[&str] = &["interleave-engine", "interleave-cli", "interleave-tests", "interleave-expect", "interleave-app", "xtask"];

/// The engine's test files that hold browser tests (`#[wasm_bindgen_test]`) run by this task.
/// `wasm_bench.rs` and `wasm_memory.rs` hold browser tests too, but they are benchmarks, behind
/// the `wasm-bench` feature, and `cargo xtask bench` runs them; a unit test below keeps this
/// list complete.
pub const ENGINE_WASM_TESTS: &[&str] = &["wasm"];

/// The engine's browser benchmarks, which `cargo xtask bench` runs instead.
pub const ENGINE_WASM_BENCHES: &[&str] = &["wasm_bench", "wasm_memory"];

struct Stage {
    title: &'static str,
    work: Work,
    /// What to do about a failure, when the failing program's own output does not say.
    hint: Option<&'static str>,
}

/// What a stage does.
enum Work {
    /// Programs run one after the other; the stage fails at the first that fails.
    Commands(Vec<Command>),
    /// The corpus scoreboard of a folder, computed in this process (the engine is linked in).
    Corpus(PathBuf),
}

pub fn run() -> Result<(), String> {
    let found = setup::ensure(&[Tool::Rustfmt, Tool::Clippy, Tool::WasmTarget, Tool::Trunk, Tool::WasmBindgen, Tool::WasmOpt, Tool::Chromium])?;
    // The app links the editor bundle in, so it must exist before the first stage compiles
    // the app (natively).
    crate::editor::ensure_bundle()?;
    let chromium = found.chromium.ok_or("chromium was not found")?;
    let chromedriver = found.chromedriver.ok_or("chromedriver was not found")?;
    let root = crate::workspace_root();
    let dist = root.join("dist");

    let cargo = |args: &[&str]| {
        let mut command = Command::new(setup::cargo());
        command.current_dir(&root).args(args);
        command
    };
    let wasm_test = |package: &str, targets: &[&str]| {
        let mut command = cargo(&["test", "-p", package, "--target", setup::WASM_TARGET]);
        command.args(targets);
        command.env("CHROMEDRIVER", &chromedriver);
        if std::env::var_os("WASM_BINDGEN_TEST_TIMEOUT").is_none() {
            command.env("WASM_BINDGEN_TEST_TIMEOUT", WASM_BINDGEN_TEST_TIMEOUT_SECS);
        }
        command
    };
    // Warnings are errors here, so that none accumulates; a lint allowed at an item (with the
    // reason beside it) or in `clippy.toml` stays allowed.
    let clippy = |args: &[&str]| {
        let mut command = cargo(&["clippy"]);
        command.args(args).args(["--", "-D", "warnings"]);
        command
    };
    let tidy = vec![
        cargo(&["fmt", "--all", "--check"]),
        clippy(&["--workspace", "--all-targets"]),
        clippy(&["-p", "interleave-app", "--target", setup::WASM_TARGET, "--all-targets"]),
        // Not `--all-targets`: the engine's benchmarks are native only.
        clippy(&["-p", "interleave-engine", "--target", setup::WASM_TARGET, "--lib", "--tests", "--features", "wasm-bench"]),
    ];
    let mut native_tests = cargo(&["test"]);
    native_tests.args(NATIVE_PACKAGES.iter().flat_map(|p| ["-p", p]));
    let engine_wasm_tests: Vec<&str> = ENGINE_WASM_TESTS.iter().flat_map(|name| ["--test", name]).collect();
    let mut e2e = cargo(&["test", "-p", "interleave-tests", "--features", "e2e", "--test", "e2e"]);
    e2e.env("INTERLEAVE_DIST", &dist).env("CHROMEDRIVER", &chromedriver).env("CHROMIUM", &chromium);

    let mut stages = vec![
        // Formatting first: it takes seconds, and one style (rustfmt.toml) is the rule. Clippy
        // next: it type-checks without generating code, so it fails sooner than a test build.
        Stage {
            title: "tidy (rustfmt --check, clippy -D warnings)",
            work: Work::Commands(tidy),
            hint: Some(
                "`cargo fmt --all` fixes the formatting; fix what clippy reports above, or, where a lint is wrong for \
                 an item, allow it at that item with a comment saying why",
            ),
        },
        Stage { title: "native tests", work: Work::Commands(vec![native_tests]), hint: None },
        Stage {
            title: "wasm tests in headless Chromium",
            work: Work::Commands(vec![wasm_test("interleave-engine", &engine_wasm_tests), wasm_test("interleave-app", &[])]),
            hint: None,
        },
        Stage { title: "release build of the app (Trunk)", work: Work::Commands(vec![trunk_build(&root)]), hint: None },
        Stage { title: "end-to-end test in Chromium", work: Work::Commands(vec![e2e]), hint: None },
    ];
    let corpus_dir = root.join(corpus::DEFAULT_DIR);
    if corpus_dir.is_dir() {
        stages.insert(2, Stage { title: "corpus scoreboards (parse, runs, detection)", work: Work::Corpus(corpus_dir), hint: None });
    }

    let total = stages.len();
    for (index, stage) in stages.into_iter().enumerate() {
        let number = index + 1;
        println!("\n==> stage {number}/{total}: {}", stage.title);
        let commands = match stage.work {
            Work::Commands(commands) => commands,
            Work::Corpus(dir) => {
                corpus::test_stage(&dir).map_err(|e| format!("stage {number}/{total} ({}) failed: {e}", stage.title))?;
                continue;
            }
        };
        for mut command in commands {
            let shown = crate::describe(&command);
            println!("$ {shown}");
            let status = command.status().map_err(|e| format!("cannot run `{shown}`: {e}"))?;
            if !status.success() {
                let hint = stage.hint.map(|hint| format!("; {hint}")).unwrap_or_default();
                return Err(format!("stage {number}/{total} ({}) failed: `{shown}` exited with {status}{hint}", stage.title));
            }
        }
    }
    println!("xtask: all {total} stages passed");
    Ok(())
}

/// `trunk build --release --offline` at the workspace root, which writes `dist/`. Offline,
/// because Trunk would otherwise try to download wasm-bindgen and wasm-opt itself; the setup
/// step has installed the right versions.
pub fn trunk_build(root: &Path) -> Command {
    let mut command = Command::new("trunk");
    command.current_dir(root).args(["build", "--release", "--offline"]);
    command
}

#[cfg(test)]
mod tests {
    use super::{ENGINE_WASM_BENCHES, ENGINE_WASM_TESTS};

    /// Every engine test file with a browser test is either run by the wasm stage or is one of
    /// the benchmarks `cargo xtask bench` runs, so no browser test is left out of both.
    #[test]
    fn every_engine_browser_test_file_is_run_somewhere() {
        let dir = crate::workspace_root().join("engine/tests");
        let mut with_browser_tests = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("engine/tests exists") {
            let path = entry.expect("a directory entry").path();
            let text = if path.extension().is_some_and(|x| x == "rs") { std::fs::read_to_string(&path).expect("a test file") } else { continue };
            if text.contains("#[wasm_bindgen_test]") {
                with_browser_tests.push(path.file_stem().and_then(|s| s.to_str()).expect("a file name").to_string());
            }
        }
        with_browser_tests.sort();
        let mut listed: Vec<String> = ENGINE_WASM_TESTS.iter().chain(ENGINE_WASM_BENCHES).map(|s| s.to_string()).collect();
        listed.sort();
        assert_eq!(with_browser_tests, listed, "engine test files with browser tests, against ENGINE_WASM_TESTS and ENGINE_WASM_BENCHES");
    }
}
