//! `cargo xtask corpus [DIR] [--json]`: how much of other projects' test kernels the engine
//! accepts.
//!
//! The corpus folder (by default `../shared/corpus` beside the checkout) holds kernels written by
//! other projects, each suite in its own subfolder with its own licence; its `README.md`
//! describes the formats. Those files are read where they are and never copied into this
//! repository. Each suite has one function here that turns its folder into a [`Suite`] of
//! per-kernel outcomes; the scoreboard then counts them and groups the refusals by cause, so the
//! most common missing construct is the first line to read.
//!
//! The parse scoreboard here measures `frontend::kernels` on Oclgrind's `*.cl` files and
//! GPUVerify's `kernel.cl` / `kernel.cu` files; the boards that run kernels live beside it
//! ([`crate::corpus_runs`] and [`crate::corpus_detect`] for Oclgrind's tests,
//! [`crate::corpus_gpuverify`] for GPUVerify's verdicts). They are measurements, not gates, so
//! the task exits 0 whatever the numbers, with one exception in `cargo xtask test`: an engine
//! panic is a bug (user input must never panic the engine), and fails that stage.

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use interleave_engine::frontend;
use interleave_engine::scenario::Dialect;
use serde_json::{json, Value};

/// Where CI keeps the corpus, relative to the workspace root.
pub const DEFAULT_DIR: &str = "../shared/corpus";

/// The category of a kernel whose parsing panicked.
pub const PANIC_CODE: &str = "engine panic";

/// The category of a file that is not UTF-8, which the engine's `&str` API cannot take.
const NOT_UTF8: &str = "not UTF-8 text";

/// How many example paths each group shows.
const EXAMPLES_PER_GROUP: usize = 3;

/// How many groups the short form (the `cargo xtask test` stage) shows.
const SHORT_GROUPS: usize = 10;

/// What happened to one kernel file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Parsed,
    /// The engine refused the file; `code` is a diagnostic code or one of this module's own
    /// categories ([`PANIC_CODE`], [`NOT_UTF8`]).
    Refused {
        code: String,
        message: String,
    },
}

/// One kernel file and its outcome; the path is relative to the corpus folder.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub path: String,
    pub outcome: Outcome,
}

/// The outcomes of one suite of the corpus.
#[derive(Debug)]
pub struct Suite {
    pub name: &'static str,
    pub kernels: Vec<Kernel>,
}

impl Suite {
    fn parsed(&self) -> usize {
        self.kernels.iter().filter(|k| k.outcome == Outcome::Parsed).count()
    }
}

/// Refusals that share a cause.
#[derive(Debug, PartialEq, Eq)]
pub struct Group {
    pub code: String,
    /// The construct (for `unsupported`) or the message pattern.
    pub cause: String,
    pub count: usize,
    pub examples: Vec<String>,
}

impl Group {
    fn label(&self) -> String {
        if self.cause.is_empty() {
            self.code.clone()
        } else {
            format!("{}: {}", self.code, self.cause)
        }
    }
}

/// The parse scoreboard over every suite.
#[derive(Debug)]
pub struct Scoreboard {
    pub suites: Vec<Suite>,
    /// Sorted by count, largest first, then by label so the order is stable.
    pub groups: Vec<Group>,
}

impl Scoreboard {
    pub fn new(suites: Vec<Suite>) -> Scoreboard {
        let groups = group_refusals(suites.iter().flat_map(|s| &s.kernels));
        Scoreboard { suites, groups }
    }

    fn totals(&self) -> (usize, usize) {
        let parsed = self.suites.iter().map(Suite::parsed).sum();
        let total = self.suites.iter().map(|s| s.kernels.len()).sum();
        (parsed, total)
    }

    pub fn panicked(&self) -> usize {
        self.groups.iter().filter(|g| g.code == PANIC_CODE).map(|g| g.count).sum()
    }

    /// The scoreboard as text. `short` leaves out the example paths and keeps the first
    /// [`SHORT_GROUPS`] groups, for the test run's log.
    pub fn render(&self, short: bool) -> String {
        let mut out = String::new();
        let (parsed, total) = self.totals();
        out.push_str(&format!("{:<12} {:>7} {:>8} {:>8}\n", "suite", "parsed", "refused", "kernels"));
        let mut row = |name: &str, parsed: usize, total: usize| {
            out.push_str(&format!("{:<12} {:>7} {:>8} {:>8}   {} parsed\n", name, parsed, total - parsed, total, percent(parsed, total)));
        };
        for suite in &self.suites {
            row(suite.name, suite.parsed(), suite.kernels.len());
        }
        row("total", parsed, total);

        let shown = if short { self.groups.len().min(SHORT_GROUPS) } else { self.groups.len() };
        if !self.groups.is_empty() {
            let refused = total - parsed;
            out.push_str(&format!(
                "\nrefusals by cause ({} kernels in {} groups{}):\n",
                refused,
                self.groups.len(),
                if shown < self.groups.len() { format!(", top {shown} shown") } else { String::new() }
            ));
            for group in &self.groups[..shown] {
                out.push_str(&format!("{:>5}  {}\n", group.count, group.label()));
                if !short {
                    for example in &group.examples {
                        out.push_str(&format!("         {example}\n"));
                    }
                }
            }
        }
        out.push_str(&format!("corpus: parsed {parsed} of {total} kernels ({})\n", percent(parsed, total)));
        out
    }

    /// The scoreboard as JSON: the text's counts and groups, plus every kernel's outcome so
    /// two runs can be compared file by file.
    pub fn to_json(&self) -> Value {
        let (parsed, total) = self.totals();
        let counts = |parsed: usize, total: usize| {
            json!({
                "parsed": parsed,
                "refused": total - parsed,
                "kernels": total,
                "percent": percent_value(parsed, total),
            })
        };
        json!({
            "suites": self.suites.iter().map(|suite| {
                let mut value = counts(suite.parsed(), suite.kernels.len());
                value["name"] = json!(suite.name);
                value["results"] = suite.kernels.iter().map(|kernel| match &kernel.outcome {
                    Outcome::Parsed => json!({ "path": kernel.path, "outcome": "parsed" }),
                    Outcome::Refused { code, message } => json!({
                        "path": kernel.path,
                        "outcome": "refused",
                        "code": code,
                        "message": message,
                    }),
                }).collect();
                value
            }).collect::<Vec<_>>(),
            "total": counts(parsed, total),
            "groups": self.groups.iter().map(|group| json!({
                "code": group.code,
                "cause": group.cause,
                "count": group.count,
                "examples": group.examples,
            })).collect::<Vec<_>>(),
        })
    }
}

/// The `corpus` task. `dir` defaults to [`DEFAULT_DIR`] under the workspace root.
/// One of the scoreboards `cargo xtask corpus` prints, to run alone with `--board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    Parse,
    Runs,
    Detection,
    GpuVerify,
    Litmus,
    Ptx,
}

impl Board {
    const NAMES: [(&'static str, Board); 6] = [
        ("parse", Board::Parse),
        ("runs", Board::Runs),
        ("detection", Board::Detection),
        ("gpuverify", Board::GpuVerify),
        ("litmus", Board::Litmus),
        ("ptx", Board::Ptx),
    ];

    pub fn parse(name: &str) -> Result<Board, String> {
        Board::NAMES.iter().find(|(n, _)| *n == name).map(|&(_, b)| b).ok_or_else(|| {
            let names: Vec<&str> = Board::NAMES.iter().map(|(n, _)| *n).collect();
            format!("unknown board `{name}`: choose {}", names.join(", "))
        })
    }
}

pub fn run(dir: Option<PathBuf>, json: bool, only: Option<Board>) -> Result<(), String> {
    // The folder is named as the user gave it, or as the default is documented, rather than by
    // the absolute path it resolves to.
    let (dir, shown) = match dir {
        Some(dir) => {
            let shown = dir.display().to_string();
            (dir, shown)
        }
        None => (crate::workspace_root().join(DEFAULT_DIR), DEFAULT_DIR.to_owned()),
    };
    if !dir.is_dir() {
        println!("corpus: {shown} not found; skipping");
        return Ok(());
    }
    let wanted = |b: Board| only.is_none_or(|o| o == b);
    let scoreboard = wanted(Board::Parse).then(|| parse_scoreboard(&dir));
    let runs = wanted(Board::Runs).then(|| run_scoreboard(&dir));
    let detection = wanted(Board::Detection).then(|| detect_scoreboard(&dir));
    let gpuverify = wanted(Board::GpuVerify).then(|| gpuverify_scoreboard(&dir, crate::corpus_gpuverify::RUNS));
    let litmus = wanted(Board::Litmus).then(|| litmus_scoreboard(&dir, crate::corpus_litmus::RUNS, crate::corpus_litmus::EXHAUSTIVE));
    let ptx = wanted(Board::Ptx).then(|| ptx_scoreboard(&dir, crate::corpus_litmus::EXHAUSTIVE));
    if json {
        let mut value = scoreboard.map_or_else(|| json!({}), |s| s.to_json());
        value["dir"] = json!(shown);
        if let Some(runs) = runs {
            value["runs"] =
                runs.iter().map(|r| json!({ "test": r.name, "run_to_block": r.ordered, "random_seeds_matching": r.seeds, "failure": r.failure })).collect();
        }
        if let Some(detection) = detection {
            value["detection"] = detection
                .iter()
                .map(|r| json!({ "test": r.name, "expected": r.expected, "found": r.found, "scores": r.scores(), "failure": r.failure }))
                .collect();
        }
        if let Some(gpuverify) = gpuverify {
            value["gpuverify_detection"] = crate::corpus_gpuverify::to_json(&gpuverify, crate::corpus_gpuverify::RUNS);
        }
        if let Some(litmus) = litmus {
            value["litmus"] = litmus
                .iter()
                .map(|r| json!({ "test": r.path, "allowed": r.allowed, "race_free": r.race_free, "exhaustive_observed": r.exhaustive_observed, "complete": r.complete, "random_observed": r.random_observed, "race_reported": r.race_reported, "sound": r.sound(), "error": r.error }))
                .collect();
        }
        if let Some(ptx) = ptx {
            value["litmus_ptx"] = ptx
                .iter()
                .map(|r| json!({ "test": r.path, "expected": r.expected, "verdict": r.verdict, "right": r.right(), "forbidden_found": r.forbidden_found(), "race_reported": r.race_reported, "complete": r.complete, "error": r.error }))
                .collect();
        }
        let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        println!("corpus: {shown}");
        if let Some(scoreboard) = scoreboard {
            print!("{}", scoreboard.render(false));
        }
        if let Some(runs) = runs {
            print!("{}", crate::corpus_runs::render(&runs, false));
        }
        if let Some(detection) = detection {
            print!("{}", crate::corpus_detect::render(&detection, false));
        }
        if let Some(gpuverify) = gpuverify {
            print!("{}", crate::corpus_gpuverify::render(&gpuverify, crate::corpus_gpuverify::RUNS, false));
        }
        if let Some(litmus) = litmus {
            print!("{}", crate::corpus_litmus::render(&litmus, crate::corpus_litmus::RUNS, false));
        }
        if let Some(ptx) = ptx {
            print!("{}", crate::corpus_ptx::render(&ptx, false));
        }
    }
    Ok(())
}

/// Explores Dat3M's PTX litmus tests exhaustively under the relaxed model (see
/// [`crate::corpus_ptx`]).
pub fn ptx_scoreboard(dir: &Path, exhaustive: u64) -> Vec<crate::corpus_ptx::PtxResult> {
    with_quiet_panics(|| crate::corpus_ptx::scoreboard(dir, exhaustive))
}

/// Explores Dat3M's OpenCL litmus tests under the relaxed model (see [`crate::corpus_litmus`]).
pub fn litmus_scoreboard(dir: &Path, runs: u64, exhaustive: u64) -> Vec<crate::corpus_litmus::LitmusResult> {
    with_quiet_panics(|| crate::corpus_litmus::scoreboard(dir, runs, exhaustive))
}

/// Runs GPUVerify's kernels under `runs` seeds each and compares the races and divergence found
/// with the verifier's verdicts (see [`crate::corpus_gpuverify`]).
pub fn gpuverify_scoreboard(dir: &Path, runs: u64) -> Vec<crate::corpus_gpuverify::GvResult> {
    let files = files_under(&dir.join("gpuverify"), &|name| name == "kernel.cl" || name == "kernel.cu");
    with_quiet_panics(|| crate::corpus_gpuverify::gpuverify_detection(dir, files, runs))
}

/// Runs Oclgrind's tests and compares the errors found with the expected ones (see
/// [`crate::corpus_detect`]).
pub fn detect_scoreboard(dir: &Path) -> Vec<crate::corpus_detect::DetectResult> {
    let files = files_under(&dir.join("oclgrind"), &|name| name.ends_with(".sim"));
    with_quiet_panics(|| crate::corpus_detect::oclgrind_detection(dir, files))
}

/// Runs Oclgrind's error-free tests and compares their output (see [`crate::corpus_runs`]).
pub fn run_scoreboard(dir: &Path) -> Vec<crate::corpus_runs::RunResult> {
    let files = files_under(&dir.join("oclgrind"), &|name| name.ends_with(".sim"));
    with_quiet_panics(|| crate::corpus_runs::oclgrind_runs(dir, files))
}

/// The `cargo xtask test` stage: the short scoreboard, failing only when the engine panicked.
pub fn test_stage(dir: &Path) -> Result<(), String> {
    let scoreboard = parse_scoreboard(dir);
    print!("{}", scoreboard.render(true));
    let runs = run_scoreboard(dir);
    print!("{}", crate::corpus_runs::render(&runs, true));
    let detection = detect_scoreboard(dir);
    print!("{}", crate::corpus_detect::render(&detection, true));
    // Fewer runs than `cargo xtask corpus` makes, so that the stage stays quick; the summary
    // line says how many.
    let gpuverify = gpuverify_scoreboard(dir, crate::corpus_gpuverify::TEST_RUNS);
    print!("{}", crate::corpus_gpuverify::render(&gpuverify, crate::corpus_gpuverify::TEST_RUNS, true));
    let litmus = litmus_scoreboard(dir, crate::corpus_litmus::TEST_RUNS, crate::corpus_litmus::TEST_EXHAUSTIVE);
    print!("{}", crate::corpus_litmus::render(&litmus, crate::corpus_litmus::TEST_RUNS, true));
    if litmus.iter().any(|r| r.error.as_deref() == Some(crate::corpus_litmus::PANIC)) {
        return Err("the engine panicked while exploring a litmus test; run `cargo xtask corpus`".into());
    }
    let ptx = ptx_scoreboard(dir, crate::corpus_litmus::TEST_EXHAUSTIVE);
    print!("{}", crate::corpus_ptx::render(&ptx, true));
    if ptx.iter().any(|r| r.error.as_deref() == Some(crate::corpus_litmus::PANIC)) {
        return Err("the engine panicked while exploring a PTX litmus test; run `cargo xtask corpus`".into());
    }
    // The PTX model forbids these outcomes and no race excuses them: a wrong verdict.
    let unsound: Vec<&str> = ptx.iter().filter(|r| r.unsound()).map(|r| r.path.as_str()).collect();
    if !unsound.is_empty() {
        return Err(format!("the engine shows outcomes the PTX model forbids in {}; run `cargo xtask corpus`", unsound.join(", ")));
    }
    if runs.iter().any(|r| r.failure.as_deref() == Some("engine panic")) || detection.iter().any(|r| r.failure.as_deref() == Some("engine panic")) {
        return Err("the engine panicked while running an Oclgrind test; run `cargo xtask corpus`".into());
    }
    let panicked: Vec<&str> = gpuverify.iter().filter(|r| r.panicked()).map(|r| r.path.as_str()).collect();
    if !panicked.is_empty() {
        return Err(format!("the engine panicked while running GPUVerify kernel(s) {}; run `cargo xtask corpus`", panicked.join(", ")));
    }
    match scoreboard.panicked() {
        0 => Ok(()),
        n => Err(format!("the engine panicked on {n} corpus kernel(s); run `cargo xtask corpus` for the files")),
    }
}

/// Parses every kernel of every suite, with panics caught and reported as outcomes.
pub fn parse_scoreboard(dir: &Path) -> Scoreboard {
    with_quiet_panics(|| Scoreboard::new(vec![oclgrind_parse(dir), gpuverify_parse(dir)]))
}

/// Oclgrind's tests: every `*.cl` under `oclgrind/`, all OpenCL C.
fn oclgrind_parse(dir: &Path) -> Suite {
    let files = files_under(&dir.join("oclgrind"), &|name| name.ends_with(".cl"));
    Suite { name: "oclgrind", kernels: parse_files(dir, files) }
}

/// GPUVerify's tests: `kernel.cl` (OpenCL C) and `kernel.cu` (CUDA) under `gpuverify/`.
fn gpuverify_parse(dir: &Path) -> Suite {
    let files = files_under(&dir.join("gpuverify"), &|name| name == "kernel.cl" || name == "kernel.cu");
    Suite { name: "gpuverify", kernels: parse_files(dir, files) }
}

fn parse_files(dir: &Path, files: Vec<PathBuf>) -> Vec<Kernel> {
    files
        .into_iter()
        .map(|file| {
            let path = file.strip_prefix(dir).unwrap_or(&file).to_string_lossy().replace('\\', "/");
            let outcome = match std::fs::read(&file) {
                Ok(bytes) => parse_bytes(&bytes, dialect_of(&file)),
                Err(e) => Outcome::Refused { code: "unreadable".into(), message: e.to_string() },
            };
            Kernel { path, outcome }
        })
        .collect()
}

/// The dialect a file is written in, from its extension.
fn dialect_of(file: &Path) -> Dialect {
    match file.extension().and_then(|e| e.to_str()) {
        Some("cu") => Dialect::Cuda,
        _ => Dialect::OpenCl,
    }
}

/// Runs the front end on one file's bytes.
pub fn parse_bytes(bytes: &[u8], dialect: Dialect) -> Outcome {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Outcome::Refused { code: NOT_UTF8.into(), message: NOT_UTF8.into() };
    };
    catching_panics(|| match frontend::kernels(text, dialect, &[]) {
        Ok(_) => Outcome::Parsed,
        Err(diagnostics) => match diagnostics.into_iter().next() {
            Some(d) => Outcome::Refused { code: d.code, message: d.message },
            // An error without a diagnostic would leave the user with nothing to read, which
            // is itself a defect worth its own line.
            None => Outcome::Refused { code: "no diagnostic".into(), message: "refused without a diagnostic".into() },
        },
    })
}

/// Runs `f`, turning a panic into an [`PANIC_CODE`] outcome that names the panic's message and
/// where it was raised, so the scoreboard shows the bug instead of dying on it.
fn catching_panics(f: impl FnOnce() -> Outcome) -> Outcome {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(outcome) => outcome,
        Err(payload) => Outcome::Refused { code: PANIC_CODE.into(), message: panic_text(payload.as_ref()) },
    }
}

/// A caught panic's message and where it was raised (recorded by the quiet hook of
/// [`with_quiet_panics`]).
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    let location = PANIC_LOCATION.with(|l| l.borrow_mut().take()).map(|l| format!(" (at {l})")).unwrap_or_default();
    format!("{message}{location}")
}

/// A caught panic as a scoreboard line: [`PANIC_CODE`], its message and where it was raised.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    format!("{PANIC_CODE}: {}", panic_text(payload))
}

thread_local! {
    /// Where the last caught panic of this thread was raised, recorded by the quiet hook of
    /// [`with_quiet_panics`]. The hook runs on the panicking thread, so with kernels run on
    /// several threads each panic keeps its own location.
    static PANIC_LOCATION: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with a panic hook that records the location instead of printing a backtrace per
/// file: the scoreboard reports each panic itself, and a hundred backtraces would bury it.
///
/// The hook is process-wide, so swaps are serialised: two overlapping calls (parallel tests)
/// could otherwise restore each other's hook and leave the quiet one installed for good.
fn with_quiet_panics<T>(f: impl FnOnce() -> T) -> T {
    static HOOK_SWAP: Mutex<()> = Mutex::new(());
    let _swap = HOOK_SWAP.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        if let Some(location) = info.location() {
            let at = format!("{}:{}", location.file(), location.line());
            PANIC_LOCATION.with(|slot| *slot.borrow_mut() = Some(at));
        }
    }));
    let result = f();
    panic::set_hook(previous);
    result
}

/// Files under `root` (recursively) whose name satisfies `wanted`, sorted so the scoreboard is
/// the same on every machine. Symbolic links are not followed, so a link cycle cannot loop.
fn files_under(root: &Path, wanted: &dyn Fn(&str) -> bool) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let path = entry.path();
            if kind.is_dir() {
                pending.push(path);
            } else if kind.is_file() && entry.file_name().to_str().is_some_and(wanted) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Groups the refused kernels by [`cause`], largest group first.
fn group_refusals<'a>(kernels: impl IntoIterator<Item = &'a Kernel>) -> Vec<Group> {
    let mut groups: BTreeMap<(String, String), Group> = BTreeMap::new();
    for kernel in kernels {
        let Outcome::Refused { code, message } = &kernel.outcome else {
            continue;
        };
        let cause = cause(code, message);
        let group = groups.entry((code.clone(), cause.clone())).or_insert_with(|| Group { code: code.clone(), cause, count: 0, examples: Vec::new() });
        group.count += 1;
        if group.examples.len() < EXAMPLES_PER_GROUP {
            group.examples.push(kernel.path.clone());
        }
    }
    // The map's order (by code, then cause) breaks ties, so equal counts keep a stable order.
    let mut groups: Vec<Group> = groups.into_values().collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    groups
}

/// What a refusal is grouped by. For `unsupported`, the construct the message names (the words
/// before "is not supported"), because that is what a new feature would fix; for anything else,
/// the message with every backquoted name replaced by `X`, so "unknown identifier `a`" and
/// "unknown identifier `b`" count as one problem. Categories whose message is their name (not
/// UTF-8) get no cause.
pub fn cause(code: &str, message: &str) -> String {
    if message == code {
        return String::new();
    }
    if code == "unsupported" {
        if let Some(construct) = unsupported_construct(message) {
            return construct;
        }
    }
    mask_backquoted(message)
}

/// `the \`half\` type is not supported yet` → `the \`half\` type`; `None` when the message does
/// not have that shape.
fn unsupported_construct(message: &str) -> Option<String> {
    const MARKERS: [&str; 4] = [" is not supported", " are not supported", " is not available", " are not available"];
    let end = MARKERS.iter().filter_map(|m| message.find(m)).min()?;
    let construct = message[..end].trim();
    (!construct.is_empty()).then(|| construct.to_owned())
}

/// Replaces the text of every `` `...` `` span with `X`; an unclosed backquote is kept as is.
pub fn mask_backquoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find('`') {
        let Some(len) = rest[start + 1..].find('`') else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str("`X`");
        rest = &rest[start + 1 + len + 1..];
    }
    out.push_str(rest);
    out
}

/// `parsed` as a percentage of `total`, with one decimal; 0 of 0 is 0%.
fn percent(parsed: usize, total: usize) -> String {
    format!("{:.1}%", percent_value(parsed, total))
}

fn percent_value(parsed: usize, total: usize) -> f64 {
    if total == 0 {
        0.0
    } else {
        // Rounded to one decimal so JSON and text agree.
        (parsed as f64 * 1000.0 / total as f64).round() / 10.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(path: &str, code: &str, message: &str) -> Kernel {
        Kernel { path: path.into(), outcome: Outcome::Refused { code: code.into(), message: message.into() } }
    }

    fn parsed(path: &str) -> Kernel {
        Kernel { path: path.into(), outcome: Outcome::Parsed }
    }

    #[test]
    fn unsupported_refusals_group_by_the_construct() {
        assert_eq!(cause("unsupported", "vector types is not supported yet"), "vector types");
        assert_eq!(cause("unsupported", "the `half` type is not supported yet"), "the `half` type");
        assert_eq!(cause("unsupported", "recursion is not supported (`f` calls itself)"), "recursion");
        assert_eq!(cause("unsupported", "CUDA kernels are not supported yet"), "CUDA kernels");
        assert_eq!(cause("unsupported", "the lockstep scheduler is not available yet"), "the lockstep scheduler");
        // A message without the usual shape falls back to its pattern.
        assert_eq!(cause("unsupported", "macro `m` expands too far"), "macro `X` expands too far");
    }

    #[test]
    fn other_refusals_group_by_message_pattern() {
        assert_eq!(cause("syntax-error", "expected `;`, found `}`"), "expected `X`, found `X`");
        assert_eq!(cause("type-error", "unknown identifier `get_foo`"), cause("type-error", "unknown identifier `bar`"));
        assert_eq!(cause(NOT_UTF8, NOT_UTF8), "");
    }

    #[test]
    fn masking_keeps_text_outside_backquotes() {
        assert_eq!(mask_backquoted("no names"), "no names");
        assert_eq!(mask_backquoted("`a` and `bc`"), "`X` and `X`");
        assert_eq!(mask_backquoted("unclosed `quote"), "unclosed `quote");
        assert_eq!(mask_backquoted("``"), "`X`");
        assert_eq!(mask_backquoted("ünïcödé `ß` ok"), "ünïcödé `X` ok");
    }

    #[test]
    fn groups_are_counted_sorted_and_keep_three_examples() {
        let kernels = vec![
            parsed("a/ok.cl"),
            refused("a/1.cl", "syntax-error", "expected `;`, found `x`"),
            refused("a/2.cl", "unsupported", "vector types is not supported yet"),
            refused("a/3.cl", "unsupported", "vector types is not supported yet"),
            refused("a/4.cl", "unsupported", "vector types is not supported yet"),
            refused("a/5.cl", "unsupported", "vector types is not supported yet"),
            refused("a/6.cl", "syntax-error", "expected `;`, found `y`"),
            refused("a/7.cl", PANIC_CODE, "boom (at engine/src/x.rs:1)"),
        ];
        let groups = group_refusals(&kernels);
        let summary: Vec<(&str, &str, usize)> = groups.iter().map(|g| (g.code.as_str(), g.cause.as_str(), g.count)).collect();
        assert_eq!(
            summary,
            vec![("unsupported", "vector types", 4), ("syntax-error", "expected `X`, found `X`", 2), (PANIC_CODE, "boom (at engine/src/x.rs:1)", 1),]
        );
        assert_eq!(groups[0].examples, vec!["a/2.cl", "a/3.cl", "a/4.cl"]);
        assert_eq!(groups[1].examples, vec!["a/1.cl", "a/6.cl"]);
    }

    #[test]
    fn the_scoreboard_counts_suites_and_ends_with_the_total_line() {
        let scoreboard = Scoreboard::new(vec![
            Suite { name: "one", kernels: vec![parsed("one/a.cl"), refused("one/b.cl", NOT_UTF8, NOT_UTF8)] },
            Suite { name: "two", kernels: vec![parsed("two/a.cl")] },
        ]);
        assert_eq!(scoreboard.panicked(), 0);
        let text = scoreboard.render(false);
        assert!(text.contains("one/b.cl"), "{text}");
        assert!(text.contains("    1  not UTF-8 text\n"), "{text}");
        assert_eq!(text.lines().last(), Some("corpus: parsed 2 of 3 kernels (66.7%)"));
        let short = scoreboard.render(true);
        assert!(!short.contains("one/b.cl"), "{short}");
        let json = scoreboard.to_json();
        assert_eq!(json["total"]["parsed"], 2);
        assert_eq!(json["total"]["percent"], 66.7);
        assert_eq!(json["suites"][0]["results"][1]["code"], NOT_UTF8);
        assert_eq!(json["groups"][0]["count"], 1);
    }

    #[test]
    fn the_short_form_shows_at_most_ten_groups() {
        let kernels = (0..15).map(|i| refused(&format!("k{i}.cl"), "syntax-error", &format!("error {i}"))).collect();
        let scoreboard = Scoreboard::new(vec![Suite { name: "s", kernels }]);
        let short = scoreboard.render(true);
        assert!(short.contains("15 groups, top 10 shown"), "{short}");
        assert_eq!(short.lines().filter(|l| l.contains("syntax-error")).count(), 10);
        assert_eq!(short.lines().last(), Some("corpus: parsed 0 of 15 kernels (0.0%)"));
    }

    #[test]
    fn percentages_round_to_one_decimal() {
        assert_eq!(percent(0, 0), "0.0%");
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(2, 3), "66.7%");
        assert_eq!(percent(5, 5), "100.0%");
    }

    #[test]
    fn files_are_classified_and_never_panic_the_scoreboard() {
        assert_eq!(parse_bytes(b"\xff\xfe kernel", Dialect::OpenCl), Outcome::Refused { code: NOT_UTF8.into(), message: NOT_UTF8.into() });
        assert_eq!(parse_bytes(b"__kernel void k(__global int *p) { p[0] = 1; }", Dialect::OpenCl), Outcome::Parsed);
        assert!(matches!(parse_bytes(b"__kernel void k( {", Dialect::OpenCl), Outcome::Refused { .. }));
        let outcome = with_quiet_panics(|| catching_panics(|| panic!("index {} is out", 7)));
        match outcome {
            Outcome::Refused { code, message } => {
                assert_eq!(code, PANIC_CODE);
                assert!(message.starts_with("index 7 is out (at "), "{message}");
                assert!(message.contains("corpus.rs"), "{message}");
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn suites_find_their_files_and_dialects() {
        let dir = std::env::temp_dir().join(format!("xtask-corpus-test-{}", std::process::id()));
        let write = |path: &str, text: &[u8]| {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("oclgrind/g/a.cl", b"__kernel void k() {}");
        write("oclgrind/g/a.sim", b"a.cl\nk\n1 1 1\n1 1 1\n");
        write("gpuverify/OpenCL/g/t/kernel.cl", b"__kernel void k() {}");
        write("gpuverify/CUDA/g/t/kernel.cu", b"__global__ void k() {}");
        write("gpuverify/CUDA/g/t/other.cu", b"");
        let scoreboard = parse_scoreboard(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        let paths: Vec<Vec<&str>> = scoreboard.suites.iter().map(|s| s.kernels.iter().map(|k| k.path.as_str()).collect()).collect();
        assert_eq!(paths, vec![vec!["oclgrind/g/a.cl"], vec!["gpuverify/CUDA/g/t/kernel.cu", "gpuverify/OpenCL/g/t/kernel.cl"],]);
        assert_eq!(scoreboard.suites[0].kernels[0].outcome, Outcome::Parsed);
        assert_eq!(dialect_of(Path::new("x/kernel.cu")), Dialect::Cuda);
        assert_eq!(dialect_of(Path::new("x/kernel.cl")), Dialect::OpenCl);
    }
}
