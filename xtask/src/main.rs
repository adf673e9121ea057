//! `cargo xtask`: the project's developer tasks, written in Rust so that they need nothing but
//! cargo to start (the alias lives in `.cargo/config.toml`).
//!
//! - `cargo xtask serve [--port N]` builds the app with Trunk and serves it on 127.0.0.1.
//! - `cargo xtask test` runs every test suite, from native unit tests to the browser
//!   end-to-end test, stopping at the first failure.
//! - `cargo xtask corpus [DIR] [--json]` prints how many of other projects' test kernels the
//!   engine parses, and why it refuses the rest (see [`corpus`]).
//! - `cargo xtask fuzz <target> [--time SECONDS]` runs a cargo-fuzz target from `fuzz/` (see
//!   [`fuzz`]).
//! - `cargo xtask bench` runs every benchmark (natively, in headless Chromium, against
//!   Oclgrind, the app's size and load time) and rewrites BENCHMARKS.md's figures;
//!   `cargo xtask bench ARGS...` runs only the criterion benchmarks ARGS selects (see
//!   [`bench`]).
//! - `cargo xtask editor` builds the code editor's JavaScript bundle, which the app needs to
//!   compile (see [`editor`]); `serve` and `test` do this first on their own.
//!
//! Each first makes sure the tools it uses are installed (see [`setup`]), so a fresh machine
//! needs only these commands. Each task is a module with one entry point; a new task is a
//! new module plus one arm in [`Task::parse`] and [`main`].

mod bench;
mod bench_report;
mod bench_sim;
mod bench_size;
mod corpus;
mod corpus_detect;
mod corpus_gpuverify;
mod corpus_litmus;
mod corpus_ptx;
mod corpus_runs;
mod editor;
mod fuzz;
mod serve;
mod setup;
mod test;

use std::path::PathBuf;
use std::process::{Command, ExitCode};

const USAGE: &str = "\
usage: cargo xtask <task>

tasks:
  serve [--port N]   build the app with Trunk (release) and serve dist/ on 127.0.0.1:N
                     (default 8080) until Ctrl-C
  test               run all tests: native, wasm in headless Chromium, and end-to-end
  corpus [DIR] [--json] [--board NAME]
                     print the scoreboards of the kernels in DIR (default
                     ../shared/corpus beside the checkout); --board runs only one:
                     parse, runs, detection, gpuverify, litmus or ptx
  fuzz <TARGET> [--time SECONDS]
                     fuzz the engine for SECONDS (default 60) with a cargo-fuzz target:
                     frontend, execute, typed, litmus, sim or link (installs nightly and
                     cargo-fuzz if missing)
  bench [ARGS...]    run every benchmark (native, wasm in Chromium, Oclgrind, app size
                     and load) and rewrite BENCHMARKS.md's figures; with ARGS, only the
                     criterion benchmarks, ARGS going to criterion (a filter such as
                     `seek`, or `--test`), and BENCHMARKS.md is left alone
  editor             build the code editor's JavaScript bundle (app/js/bundle/editor.js)
                     with npm and esbuild, if it is missing or out of date
  help               print this message

`serve` and `test` install the tools they need first (Rust's wasm target, Trunk,
wasm-bindgen-cli, wasm-opt, and for `test` Chromium with chromedriver) and build the
editor bundle.";

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
enum Task {
    Serve { port: u16 },
    Test,
    Corpus { dir: Option<PathBuf>, json: bool, board: Option<corpus::Board> },
    Fuzz { target: String, seconds: u64 },
    Bench { args: Vec<String> },
    Editor,
    Help,
}

impl Task {
    /// Parses the arguments after `cargo xtask`. Hand-written: a few tasks and options do not
    /// justify an argument-parsing dependency in a crate that is rebuilt on every fresh clone.
    fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Task, String> {
        let mut args = args.into_iter();
        let task = match args.next().as_deref() {
            None | Some("help" | "-h" | "--help") => Task::Help,
            Some("test") => Task::Test,
            Some("editor") => Task::Editor,
            // Everything after `bench` belongs to criterion (a filter, `--test`, ...).
            Some("bench") => return Ok(Task::Bench { args: args.collect() }),
            Some("serve") => {
                let mut port = 8080;
                while let Some(arg) = args.next() {
                    let value = match arg.strip_prefix("--port=") {
                        Some(value) => value.to_owned(),
                        None if arg == "--port" || arg == "-p" => args.next().ok_or("--port needs a value")?,
                        None => return Err(format!("unknown argument to serve: {arg}")),
                    };
                    port = value.parse().map_err(|_| format!("not a port number: {value}"))?;
                }
                return Ok(Task::Serve { port });
            }
            Some("corpus") => {
                let (mut dir, mut json, mut board) = (None, false, None);
                while let Some(arg) = args.next() {
                    match arg.as_str() {
                        "--json" => json = true,
                        "--board" => {
                            let name = args.next().ok_or("--board needs a name")?;
                            board = Some(corpus::Board::parse(&name)?);
                        }
                        _ if arg.starts_with('-') => return Err(format!("unknown argument to corpus: {arg}")),
                        _ if dir.is_none() => dir = Some(PathBuf::from(arg)),
                        _ => return Err(format!("unexpected argument: {arg}")),
                    }
                }
                return Ok(Task::Corpus { dir, json, board });
            }
            Some("fuzz") => {
                let (mut target, mut seconds) = (None, fuzz::DEFAULT_SECONDS);
                while let Some(arg) = args.next() {
                    let value = match arg.strip_prefix("--time=") {
                        Some(value) => value.to_owned(),
                        None if arg == "--time" => args.next().ok_or("--time needs a value")?,
                        None if arg.starts_with('-') => return Err(format!("unknown argument to fuzz: {arg}")),
                        None if target.is_none() => {
                            target = Some(arg);
                            continue;
                        }
                        None => return Err(format!("unexpected argument: {arg}")),
                    };
                    seconds = value.parse().ok().filter(|&s| s > 0).ok_or_else(|| format!("not a number of seconds: {value}"))?;
                }
                let target = target.ok_or_else(|| format!("fuzz needs a target: {}", fuzz::TARGETS.join(" or ")))?;
                return Ok(Task::Fuzz { target, seconds });
            }
            Some(other) => return Err(format!("unknown task: {other}")),
        };
        match args.next() {
            Some(extra) => Err(format!("unexpected argument: {extra}")),
            None => Ok(task),
        }
    }
}

fn main() -> ExitCode {
    let task = match Task::parse(std::env::args().skip(1)) {
        Ok(task) => task,
        Err(message) => {
            eprintln!("xtask: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let result = match task {
        Task::Help => {
            println!("{USAGE}");
            Ok(())
        }
        Task::Serve { port } => serve::run(port),
        Task::Test => test::run(),
        Task::Corpus { dir, json, board } => corpus::run(dir, json, board),
        Task::Fuzz { target, seconds } => fuzz::run(&target, seconds),
        Task::Bench { args } => bench::run(&args),
        Task::Editor => editor::ensure_bundle(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: this crate sits one level below it. Every task runs its commands there,
/// whatever directory `cargo xtask` was started from.
pub fn workspace_root() -> PathBuf {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    root.canonicalize().unwrap_or(root)
}

/// A command as a shell-like line for the log, with the program's directory left out: the
/// full path of the toolchain's cargo would only hide what is being run.
pub fn describe(command: &Command) -> String {
    let program = std::path::Path::new(command.get_program());
    let name = program.file_name().unwrap_or(program.as_os_str());
    let mut words = vec![name.to_string_lossy().into_owned()];
    words.extend(command.get_args().map(|arg| arg.to_string_lossy().into_owned()));
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Task, String> {
        Task::parse(args.iter().map(|a| a.to_string()))
    }

    #[test]
    fn parses_tasks_and_options() {
        assert_eq!(parse(&[]), Ok(Task::Help));
        assert_eq!(parse(&["help"]), Ok(Task::Help));
        assert_eq!(parse(&["test"]), Ok(Task::Test));
        assert_eq!(parse(&["editor"]), Ok(Task::Editor));
        assert_eq!(parse(&["serve"]), Ok(Task::Serve { port: 8080 }));
        assert_eq!(parse(&["serve", "--port", "8099"]), Ok(Task::Serve { port: 8099 }));
        assert_eq!(parse(&["serve", "--port=9000"]), Ok(Task::Serve { port: 9000 }));
        assert_eq!(parse(&["corpus"]), Ok(Task::Corpus { dir: None, json: false, board: None }));
        assert_eq!(parse(&["corpus", "some/dir", "--json"]), Ok(Task::Corpus { dir: Some(PathBuf::from("some/dir")), json: true, board: None }));
        assert_eq!(parse(&["corpus", "--board", "ptx"]), Ok(Task::Corpus { dir: None, json: false, board: Some(corpus::Board::Ptx) }));
        assert!(parse(&["corpus", "--board", "all"]).unwrap_err().contains("parse, runs"));
        assert!(parse(&["corpus", "--board"]).unwrap_err().contains("needs a name"));
        assert_eq!(parse(&["fuzz", "frontend"]), Ok(Task::Fuzz { target: "frontend".into(), seconds: 60 }));
        assert_eq!(parse(&["fuzz", "execute", "--time", "5"]), Ok(Task::Fuzz { target: "execute".into(), seconds: 5 }));
        assert_eq!(parse(&["fuzz", "--time=7", "execute"]), Ok(Task::Fuzz { target: "execute".into(), seconds: 7 }));
        assert_eq!(parse(&["bench"]), Ok(Task::Bench { args: vec![] }));
        assert_eq!(parse(&["bench", "seek_1m", "--test"]), Ok(Task::Bench { args: vec!["seek_1m".into(), "--test".into()] }));
    }

    #[test]
    fn rejects_bad_arguments() {
        assert!(parse(&["benchmark"]).unwrap_err().contains("unknown task"));
        assert!(parse(&["test", "extra"]).unwrap_err().contains("unexpected"));
        assert!(parse(&["serve", "--port"]).unwrap_err().contains("needs a value"));
        assert!(parse(&["serve", "--port", "http"]).unwrap_err().contains("not a port"));
        assert!(parse(&["serve", "--port", "70000"]).is_err());
        assert!(parse(&["serve", "--host", "x"]).is_err());
        assert!(parse(&["corpus", "a", "b"]).unwrap_err().contains("unexpected"));
        assert!(parse(&["corpus", "--all"]).unwrap_err().contains("unknown"));
        assert!(parse(&["fuzz"]).unwrap_err().contains("needs a target"));
        assert!(parse(&["fuzz", "frontend", "--time"]).unwrap_err().contains("needs a value"));
        assert!(parse(&["fuzz", "frontend", "--time", "0"]).unwrap_err().contains("not a number"));
        assert!(parse(&["fuzz", "frontend", "execute"]).unwrap_err().contains("unexpected"));
    }

    #[test]
    fn workspace_root_holds_the_workspace_manifest() {
        let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
        assert!(manifest.contains("[workspace]"));
    }
}
