//! `cargo xtask fuzz <target> [--time SECONDS]`: runs a cargo-fuzz target from `fuzz/` for a
//! while and reports what it found.
//!
//! The targets (see `fuzz/fuzz_targets/`) check the engine's promise that user input never
//! panics it, hangs it or exhausts memory:
//! - `frontend` compiles arbitrary text as OpenCL C and as CUDA: the lexer, the preprocessor,
//!   the parser and, for every input that parses, semantic analysis and lowering (they are one
//!   call, `frontend::kernels`, so one target reaches all four);
//! - `execute` also launches and runs it for a bounded number of steps;
//! - `typed` executes well-typed kernels: the input bytes are the choices of a small grammar
//!   (`engine/tests/common/generate.rs`), so every input compiles and runs, under every
//!   scheduler, both memory models and both step granularities;
//! - `litmus` reads the text as a litmus test and explores it exhaustively under the relaxed
//!   model within a small budget;
//! - `sim` reads an Oclgrind simulation file (the text before the first NUL byte) with the
//!   kernel after it, binds its arguments and runs it;
//! - `link` decodes a share link, checks that it encodes back to itself, and runs its scenario.
//!
//! cargo-fuzz needs the nightly toolchain (for its coverage instrumentation flags), so this
//! task installs nightly and cargo-fuzz when they are missing; the project itself keeps
//! building on stable.
//!
//! The fuzzer starts from the project's own files, copied on every run into
//! `target/fuzz-corpus/<target>/`: the kernels (`static/examples/*.cl` and
//! `tests/data/**/*.cl`) for `frontend`, `execute` and `typed` (whose bytes read as choices),
//! the `.litmus` files for `litmus`, every `.sim` file joined to the kernel it names for `sim`,
//! and the released share links (`engine/tests/data/links/`) for `link`. libFuzzer adds the
//! inputs it finds interesting to that folder, so later runs continue where earlier ones
//! stopped; it is under `target/`, because generated corpora do not belong in the repository.
//! A crash, timeout or out-of-memory input is saved by cargo-fuzz under
//! `fuzz/artifacts/<target>/`; the task lists the new ones and fails.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The fuzz targets, as named in `fuzz/Cargo.toml`.
pub const TARGETS: &[&str] = &["frontend", "execute", "typed", "litmus", "sim", "link"];

/// How long a run lasts when `--time` is not given.
pub const DEFAULT_SECONDS: u64 = 60;

/// libFuzzer's limits. The engine bounds every run (steps, instructions between events,
/// memory), so an input that takes more than a second or a gigabyte has found a bound that is
/// missing or too loose for an interactive tool.
const LIBFUZZER_LIMITS: &[&str] = &["-timeout=1", "-rss_limit_mb=1024"];

pub fn run(target: &str, seconds: u64) -> Result<(), String> {
    if !TARGETS.contains(&target) {
        return Err(format!("unknown fuzz target `{target}` (targets: {})", TARGETS.join(", ")));
    }
    // With no tools asked for, this only puts cargo's bin directory on PATH, where
    // `cargo install cargo-fuzz` puts the `cargo-fuzz` binary.
    crate::setup::ensure(&[])?;
    ensure_nightly()?;
    ensure_cargo_fuzz()?;

    let root = crate::workspace_root();
    let fuzz_dir = root.join("fuzz");
    let corpus = root.join("target/fuzz-corpus").join(target);
    let seeds = seed_corpus(&root, &corpus, target)?;
    println!("seed corpus: {seeds} inputs written to {}", relative(&root, &corpus));

    let artifacts = fuzz_dir.join("artifacts").join(target);
    let before = list_files(&artifacts);

    let mut command = Command::new("cargo");
    command
        .current_dir(&fuzz_dir)
        // cargo-fuzz's default build: optimised, with debug assertions and overflow checks (an
        // arithmetic overflow in the engine is a bug to find) and AddressSanitizer. The engine's
        // only `unsafe` code is a prefetch hint, yet the sanitizer is what turns a stack
        // overflow into a saved input: without it the target dies of a bare SIGSEGV and the
        // input is lost.
        .args(["+nightly", "fuzz", "run", target])
        .arg(&corpus)
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .args(LIBFUZZER_LIMITS)
        // The fuzz build uses nightly and sanitizer flags, so it shares no artifacts with the
        // stable builds: it keeps to `fuzz/target` even when a shared target directory is set,
        // and the toolchain comes from `+nightly`, not from the cargo that started this task.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    println!("$ {} (in fuzz/)", crate::describe(&command));
    let mut child = command.spawn().map_err(|e| format!("cannot run cargo +nightly fuzz: {e}"))?;

    // libFuzzer reports on stderr. Its per-input progress lines ("#N NEW ...") run to thousands
    // in a minute; they are counted, not shown, and everything else (build output, status
    // pulses, panic messages) passes through.
    let mut log = Log::default();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if log.take(&line) {
                eprintln!("{line}");
            }
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;

    let found: Vec<PathBuf> = list_files(&artifacts).into_iter().filter(|file| !before.contains(file)).collect();
    println!("\nfuzz {target}: {}", log.summary(seconds));
    if !found.is_empty() {
        println!("fuzz {target}: found {} failing input(s):", found.len());
        for file in &found {
            println!("  {}", relative(&root, file));
        }
        println!(
            "Reproduce one with `cargo +nightly fuzz run {target} FILE` in fuzz/, fix the \
             engine, and turn each input into a regression test in tests/data/."
        );
        return Err(format!("the fuzzer found {} failing input(s)", found.len()));
    }
    if !status.success() {
        return Err(format!("cargo fuzz run {target} exited with {status}"));
    }
    Ok(())
}

/// What libFuzzer's output said, gathered line by line.
#[derive(Debug, Default, PartialEq)]
struct Log {
    /// The last status line (`#N DONE cov: ... exec/s: ...` at the end of a run).
    last_status: Option<String>,
    /// `Done N runs in S second(s)`.
    done: Option<String>,
    /// Progress lines left out of the log.
    hidden: u64,
}

impl Log {
    /// Records `line` and says whether to show it.
    fn take(&mut self, line: &str) -> bool {
        if line.starts_with("Done ") && line.contains(" runs in ") {
            self.done = Some(line.trim().to_owned());
            return true;
        }
        // Each new function reached is listed too, indented under its progress line.
        if line.trim_start().starts_with("NEW_FUNC") {
            self.hidden += 1;
            return false;
        }
        let Some(rest) = line.strip_prefix('#') else {
            return true;
        };
        if !rest.starts_with(|c: char| c.is_ascii_digit()) {
            return true;
        }
        if line.contains("cov:") {
            self.last_status = Some(line.trim().to_owned());
        }
        let quiet = ["NEW", "REDUCE", "RELOAD"].iter().any(|word| line.split_whitespace().nth(1) == Some(word));
        if quiet {
            self.hidden += 1;
        }
        !quiet
    }

    /// One line: executions, coverage and speed from the last status line.
    fn summary(&self, seconds: u64) -> String {
        let Some(status) = &self.last_status else {
            return format!("no libFuzzer status line was seen (asked for {seconds} s)");
        };
        let words: Vec<&str> = status.split_whitespace().collect();
        let field = |name: &str| words.iter().position(|w| *w == name).and_then(|i| words.get(i + 1)).copied();
        let runs = words[0].trim_start_matches('#');
        let mut parts = vec![format!("{runs} executions")];
        if let Some(cov) = field("cov:") {
            parts.push(format!("coverage {cov} edges"));
        }
        if let Some(ft) = field("ft:") {
            parts.push(format!("{ft} features"));
        }
        if let Some(corp) = field("corp:") {
            parts.push(format!("corpus {corp} inputs/bytes"));
        }
        if let Some(speed) = field("exec/s:") {
            parts.push(format!("{speed} exec/s"));
        }
        let mut summary = parts.join(", ");
        if let Some(done) = &self.done {
            summary.push_str(&format!(" ({done})"));
        }
        summary
    }
}

/// Writes the seeds of `target` into `corpus` (creating it), named after their paths so that
/// two `kernel.cl` files cannot overwrite each other. Returns how many were written.
fn seed_corpus(root: &Path, corpus: &Path, target: &str) -> Result<usize, String> {
    std::fs::create_dir_all(corpus).map_err(|e| format!("cannot create {}: {e}", corpus.display()))?;
    let seeds = seeds(root, target)?;
    for (name, bytes) in &seeds {
        std::fs::write(corpus.join(format!("seed-{name}")), bytes).map_err(|e| format!("cannot write seed {name}: {e}"))?;
    }
    Ok(seeds.len())
}

/// The seeds of `target`, each with a file name made from its path.
fn seeds(root: &Path, target: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    let read = |path: &Path| std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()));
    let name = |path: &Path| relative(root, path).replace('/', "-");
    let mut out = Vec::new();
    match target {
        "litmus" => {
            let mut files = source_files(&root.join("static/examples"), "litmus", true);
            files.extend(source_files(&root.join("tests/data"), "litmus", true));
            for file in files {
                out.push((name(&file), read(&file)?));
            }
        }
        "sim" => {
            for file in source_files(&root.join("tests/data"), "sim", true) {
                let text = read(&file)?;
                // The first line that is not blank or a comment names the kernel's file,
                // relative to the `.sim` file.
                let kernel =
                    String::from_utf8_lossy(&text).lines().map(|line| line.split('#').next().unwrap_or("").trim().to_owned()).find(|line| !line.is_empty());
                let Some(kernel) = kernel else { continue };
                let Some(dir) = file.parent() else { continue };
                let mut seed = text.clone();
                seed.push(0);
                seed.extend(read(&dir.join(kernel))?);
                out.push((name(&file), seed));
            }
        }
        "link" => {
            for file in source_files(&root.join("engine/tests/data/links"), "txt", true) {
                let text = String::from_utf8_lossy(&read(&file)?).into_owned();
                // Each line is a trace hash and a link; comments start with `#`.
                for (k, line) in text.lines().filter(|l| !l.starts_with('#')).enumerate() {
                    if let Some(link) = line.split_whitespace().nth(1) {
                        out.push((format!("{}-{k}", name(&file)), link.as_bytes().to_vec()));
                    }
                }
            }
        }
        _ => {
            let mut files = source_files(&root.join("static/examples"), "cl", false);
            files.extend(source_files(&root.join("tests/data"), "cl", true));
            for file in files {
                out.push((name(&file), read(&file)?));
            }
        }
    }
    Ok(out)
}

/// The files named `*.<extension>` in `dir`, and in its subfolders when `recursive`, sorted.
fn source_files(dir: &Path, extension: &str, recursive: bool) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_dir() && recursive => pending.push(path),
                Ok(kind) if kind.is_file() && path.extension().is_some_and(|e| e == extension) => files.push(path),
                _ => {}
            }
        }
    }
    files.sort();
    files
}

fn list_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir).map(|entries| entries.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    files.sort();
    files
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/")
}

/// The nightly toolchain, which cargo-fuzz needs for its `-Z` coverage instrumentation flags.
fn ensure_nightly() -> Result<(), String> {
    if let Some(version) = succeeds("rustup", &["run", "nightly", "rustc", "--version"]) {
        println!("ok: nightly toolchain ({})", version.trim());
        return Ok(());
    }
    println!("installing: nightly toolchain (rustup toolchain install nightly --profile minimal)");
    crate::setup::run(Command::new("rustup").args(["toolchain", "install", "nightly", "--profile", "minimal"]))
}

fn ensure_cargo_fuzz() -> Result<(), String> {
    if let Some(version) = succeeds("cargo", &["fuzz", "--version"]) {
        println!("ok: {}", version.trim());
        return Ok(());
    }
    println!("installing: cargo-fuzz (cargo install cargo-fuzz; a few minutes)");
    crate::setup::run(Command::new(crate::setup::cargo()).args(["install", "cargo-fuzz"]))?;
    succeeds("cargo", &["fuzz", "--version"]).map(|_| ()).ok_or_else(|| "cargo-fuzz was installed, but `cargo fuzz --version` still fails".into())
}

/// The stdout of a command that succeeded, or `None`.
fn succeeds(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).stdin(Stdio::null()).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_comes_from_the_last_status_line() {
        let mut log = Log::default();
        let lines = [
            "INFO: Seed: 1234",
            "#2\tINITED cov: 100 ft: 120 corp: 20/3Kb exec/s: 0 rss: 40Mb",
            "#64\tNEW    cov: 110 ft: 130 corp: 21/3Kb lim: 4 exec/s: 0 rss: 41Mb L: 3/3 MS: 1 ChangeByte-",
            "\tNEW_FUNC[1/1]: 0x55 in engine::f src/lib.rs:1",
            "#65\tREDUCE cov: 110 ft: 130 corp: 21/3Kb lim: 4 exec/s: 0 rss: 41Mb L: 2/3 MS: 1 EraseBytes-",
            "#262144\tpulse  cov: 400 ft: 900 corp: 300/20Kb lim: 400 exec/s: 4000 rss: 80Mb",
            "#250000\tDONE   cov: 420 ft: 950 corp: 310/21Kb lim: 400 exec/s: 4100 rss: 81Mb",
            "Done 250000 runs in 61 second(s)",
        ];
        let shown: Vec<bool> = lines.iter().map(|line| log.take(line)).collect();
        assert_eq!(shown, vec![true, true, false, false, false, true, true, true]);
        assert_eq!(log.hidden, 3);
        assert_eq!(
            log.summary(60),
            "250000 executions, coverage 420 edges, 950 features, corpus 310/21Kb inputs/bytes, \
             4100 exec/s (Done 250000 runs in 61 second(s))"
        );
    }

    #[test]
    fn a_run_without_status_lines_says_so() {
        let mut log = Log::default();
        assert!(log.take("   Compiling interleave-engine v0.1.0"));
        assert!(log.take("#[derive(Debug)] in a panic message"));
        assert!(log.summary(5).contains("no libFuzzer status line"));
    }

    #[test]
    fn the_seed_corpus_holds_the_project_kernels() {
        let root = crate::workspace_root();
        let examples = source_files(&root.join("static/examples"), "cl", false);
        assert!(!examples.is_empty());
        let litmus = source_files(&root.join("static/examples"), "litmus", true);
        assert!(litmus.iter().any(|p| p.ends_with("litmus/mp.litmus")));
        let data = source_files(&root.join("tests/data"), "cl", true);
        assert!(data.iter().any(|p| p.starts_with(root.join("tests/data/run"))));
        assert!(data.iter().all(|p| p.extension().is_some_and(|e| e == "cl")));
    }

    #[test]
    fn every_target_has_seeds_and_sim_seeds_carry_their_kernel() {
        let root = crate::workspace_root();
        for target in TARGETS {
            let seeds = seeds(&root, target).expect("the seeds are readable");
            assert!(!seeds.is_empty(), "{target} has no seeds");
        }
        for (name, bytes) in seeds(&root, "sim").expect("the sim seeds") {
            let nul = bytes.iter().position(|b| *b == 0);
            assert!(nul.is_some_and(|at| bytes[at..].windows(8).any(|w| w == b"__kernel")), "{name}");
        }
        assert!(seeds(&root, "link").expect("the link seeds").iter().all(|(_, link)| link.starts_with(b"http") || link.starts_with(b"v1.")));
    }
}
