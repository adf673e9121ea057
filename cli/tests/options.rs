//! Every option of `run`, `explore` and `link`, with every kind of input, through the
//! `interleave` binary: an option either takes effect (the output differs from the same
//! command without it, and the command still runs) or is refused with exit status 2 and a
//! message that says why. None is ignored: a scenario file, a `.sim` file, a litmus test or a
//! share link takes the options given with it over its own settings.
//!
//! The inputs are in `tests/data/options/`: an OpenCL and a CUDA kernel on which every option
//! leaves a mark, a scenario file of the CUDA kernel, a `.sim` file of the OpenCL kernel and a
//! litmus test; the share link is made from the scenario file by `interleave link`. The
//! table below has one row per option (and a few per option whose value the engine checks);
//! a test reads each subcommand's `--help` and fails when an option has no row, so a new
//! option comes with its proof.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What a command printed, with its exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Output {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn interleave(args: &[String]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_interleave")).current_dir(workspace()).args(args).output().expect("the CLI starts");
    Output { code: out.status.code(), stdout: String::from_utf8_lossy(&out.stdout).into_owned(), stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
}

/// The kinds of input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// An OpenCL C kernel, every setting from the options.
    Cl,
    /// A CUDA kernel.
    Cu,
    /// A scenario file (of the CUDA kernel).
    Toml,
    /// An Oclgrind simulation file (of the OpenCL kernel).
    Sim,
    Litmus,
    /// A share link of the scenario file.
    Link,
}

const KINDS: [Kind; 6] = [Kind::Cl, Kind::Cu, Kind::Toml, Kind::Sim, Kind::Litmus, Kind::Link];

/// What an option does with an input.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// The output differs from the command without the option, which still runs.
    Changes,
    /// The output is the same as without the option: it changes how the work is done, never
    /// its result (`--jobs`).
    Same,
    /// Exit status 2, with this in the message.
    Refused(&'static str),
    /// Refused when the scenario is launched (`run`, `explore`: exit status 2 with this in the
    /// message); `link`, which launches nothing, puts it in the link.
    RefusedAtLaunch(&'static str),
}

/// One row: the option with its value, options both commands get (the option needs them to
/// show), and what it does with each kind of input (the default for kinds not listed); a row
/// with `only` set is for those kinds alone (a `.sim` launch has three dimensions, so its
/// sizes are written with three).
struct Row {
    option: &'static [&'static str],
    context: &'static [&'static str],
    default: Expect,
    except: &'static [(Kind, Expect)],
    only: &'static [Kind],
}

/// Every kind but the `.sim` file, and the `.sim` file alone.
const NOT_SIM: &[Kind] = &[Kind::Cl, Kind::Cu, Kind::Toml, Kind::Litmus, Kind::Link];
const SIM_ONLY: &[Kind] = &[Kind::Sim];

const LITMUS: Expect = Expect::Refused("cannot be used with a litmus test");
const SIM: Expect = Expect::Refused("cannot be used with a `.sim` file");
const NO_HEAP: Expect = Expect::Refused("only CUDA kernels have a device heap");

/// The options `run`, `explore` and `link` share.
const RUN_ROWS: &[Row] = &[
    Row {
        option: &["--kernel", "nope"],
        context: &[],
        default: Expect::RefusedAtLaunch("no kernel named `nope`"),
        except: &[(Kind::Sim, SIM), (Kind::Litmus, LITMUS)],
        only: &[],
    },
    Row { option: &["-D", "BIAS=5"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--global", "8"], context: &[], default: Expect::Changes, except: &[(Kind::Litmus, LITMUS)], only: NOT_SIM },
    Row { option: &["--global", "8,1,1"], context: &[], default: Expect::Changes, except: &[], only: SIM_ONLY },
    Row { option: &["--local", "1"], context: &[], default: Expect::Changes, except: &[(Kind::Litmus, LITMUS)], only: NOT_SIM },
    Row { option: &["--local", "1,1,1"], context: &[], default: Expect::Changes, except: &[], only: SIM_ONLY },
    Row { option: &["--grid", "4", "--block", "1"], context: &[], default: Expect::Changes, except: &[(Kind::Litmus, LITMUS)], only: NOT_SIM },
    Row { option: &["--grid", "4,1,1", "--block", "1,1,1"], context: &[], default: Expect::Changes, except: &[], only: SIM_ONLY },
    Row {
        option: &["--offset", "3"],
        context: &[],
        default: Expect::Refused("CUDA has no global offset"),
        except: &[(Kind::Cl, Expect::Changes), (Kind::Litmus, LITMUS)],
        only: NOT_SIM,
    },
    Row { option: &["--offset", "3,0,0"], context: &[], default: Expect::Changes, except: &[], only: SIM_ONLY },
    Row { option: &["--arg", "out=int[4]"], context: &[], default: Expect::Changes, except: &[(Kind::Litmus, LITMUS)], only: &[] },
    Row { option: &["--sched", "round-robin"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--sched", "nope"], context: &[], default: Expect::Refused("unknown scheduler `nope`"), except: &[], only: &[] },
    Row { option: &["--schedule", "0,1,0,1,0,1,0,1,0,0,0,0"], context: &["--sched", "manual"], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--schedule", "0,1"], context: &["--sched", "lockstep"], default: Expect::Changes, except: &[], only: &[] },
    Row {
        option: &["--schedule", "0,1"],
        context: &[],
        default: Expect::Refused("followed only by the manual and lockstep schedulers"),
        except: &[],
        only: &[],
    },
    Row { option: &["--choices", "0,1,0,1,0,1"], context: &["--memory-model", "relaxed"], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--pct-depth", "20"], context: &["--sched", "pct", "--seed", "2"], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--pct-depth", "20"], context: &[], default: Expect::Refused("applies only to the pct scheduler"), except: &[], only: &[] },
    Row { option: &["--pct-depth", "65"], context: &["--sched", "pct"], default: Expect::Refused("PCT depth of 65 is not supported"), except: &[], only: &[] },
    Row { option: &["--resident-groups", "1"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--resident-groups", "0"], context: &[], default: Expect::Refused("at least one work-group must be resident"), except: &[], only: &[] },
    Row { option: &["--progress", "fair"], context: &["--resident-groups", "1"], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--granularity", "statement"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--no-race-detection"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--seed", "9"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--max-steps", "3"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--max-steps", "0"], context: &[], default: Expect::Refused("`max_steps` must be at least 1"), except: &[], only: &[] },
    Row { option: &["--max-instructions-per-step", "2"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--max-work-items", "2"], context: &[], default: Expect::RefusedAtLaunch("max_work_items"), except: &[], only: &[] },
    Row { option: &["--max-memory-bytes", "64"], context: &[], default: Expect::RefusedAtLaunch("max_memory_bytes"), except: &[], only: &[] },
    Row { option: &["--max-printf-bytes", "3"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--max-history-events", "3"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--memory-model", "relaxed"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--default-buffer-elements", "8"], context: &[], default: Expect::Changes, except: &[(Kind::Sim, SIM), (Kind::Litmus, LITMUS)], only: &[] },
    Row { option: &["--warp-size", "1"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--warp-size", "65"], context: &[], default: Expect::Refused("a warp of 65 work-items is not supported"), except: &[], only: &[] },
    Row {
        option: &["--heap-bytes", "16"],
        context: &[],
        default: Expect::Changes,
        except: &[(Kind::Cl, NO_HEAP), (Kind::Sim, NO_HEAP), (Kind::Litmus, NO_HEAP)],
        only: &[],
    },
    Row { option: &["--json"], context: &[], default: Expect::Changes, except: &[], only: &[] },
];

/// The options of `explore` alone.
const EXPLORE_ROWS: &[Row] = &[
    Row { option: &["--runs", "5"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--exhaustive"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--max-preemptions", "0"], context: &["--exhaustive"], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--jobs", "3"], context: &["--runs", "300"], default: Expect::Same, except: &[], only: &[] },
    Row { option: &["--jobs", "0"], context: &[], default: Expect::Refused("0 is not in 1..=256"), except: &[], only: &[] },
    Row { option: &["--jobs", "2"], context: &["--exhaustive"], default: Expect::Refused("cannot be used with"), except: &[], only: &[] },
];

/// The options of `link` alone.
const LINK_ROWS: &[Row] = &[
    Row { option: &["--base", "https://example.org/interleave/"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--step", "5"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--selected", "1"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--panel", "memory"], context: &[], default: Expect::Changes, except: &[], only: &[] },
    Row { option: &["--panel", "nope"], context: &[], default: Expect::Refused("unknown panel `nope`"), except: &[], only: &[] },
];

const DIR: &str = "tests/data/options";

/// The FILE argument and the options every command on this kind of input gets.
fn input(kind: Kind, link: &str) -> (String, Vec<&'static str>) {
    let kernel: &[&str] = &["--global", "4", "--local", "2", "--arg", "out=int[8]", "--arg", "flag=int[2]"];
    match kind {
        Kind::Cl => (format!("{DIR}/kernel.cl"), [kernel, &["--arg", "tmp=local:16"]].concat()),
        // A small heap: the exhaustive search keeps a copy of it at every step.
        Kind::Cu => (format!("{DIR}/kernel.cu"), [kernel, &["--heap-bytes", "1024"]].concat()),
        Kind::Toml => (format!("{DIR}/scenario.toml"), Vec::new()),
        Kind::Sim => (format!("{DIR}/kernel.sim"), Vec::new()),
        Kind::Litmus => (format!("{DIR}/test.litmus"), Vec::new()),
        Kind::Link => (link.to_string(), Vec::new()),
    }
}

/// `base` (options that each take a value) without those `given` replaces, as an option
/// given twice is an error: the same option, and the launch sizes for a grid and block.
fn without(base: &[&'static str], given: &[&str]) -> Vec<&'static str> {
    let given: Vec<&str> = given.iter().copied().filter(|w| w.starts_with('-')).collect();
    let replaced = |flag: &str| given.contains(&flag) || (given.contains(&"--grid") && (flag == "--global" || flag == "--local"));
    base.chunks(2).filter(|pair| !replaced(pair[0])).flatten().copied().collect()
}

/// The share link of the scenario file.
fn scenario_link() -> String {
    let out = interleave(&["link".into(), format!("{DIR}/scenario.toml")]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    out.stdout.trim().to_string()
}

/// Runs every row of `rows` for `subcommand` (whose own options every command gets, unless
/// the row gives one of them) on every kind of input; returns the failures.
fn check_rows(subcommand: &str, own: &[&'static str], rows: &[Row], link: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let mut baselines: BTreeMap<Vec<String>, Output> = BTreeMap::new();
    for kind in KINDS {
        let (file, base) = input(kind, link);
        for row in rows.iter().filter(|r| r.only.is_empty() || r.only.contains(&kind)) {
            let expect = row.except.iter().find(|(k, _)| *k == kind).map_or(row.default, |(_, e)| *e);
            let expect = match (expect, subcommand) {
                (Expect::RefusedAtLaunch(_), "link") => Expect::Changes,
                (Expect::RefusedAtLaunch(m), _) => Expect::Refused(m),
                (e, _) => e,
            };
            let given: Vec<&str> = row.option.iter().chain(row.context).copied().collect();
            let mut common: Vec<String> = vec![subcommand.to_string(), file.clone()];
            common.extend(without(&[base.as_slice(), own].concat(), &given).iter().map(|s| s.to_string()));
            common.extend(row.context.iter().map(|s| s.to_string()));
            let mut with = common.clone();
            with.extend(row.option.iter().map(|s| s.to_string()));
            let shown = format!("interleave {}", with.join(" "));
            let out = interleave(&with);
            match expect {
                Expect::Refused(message) => {
                    if out.code != Some(2) || !out.stderr.contains(message) {
                        failures.push(format!("{shown} ({kind:?}): expected exit 2 with `{message}`, got {:?}:\n{}", out.code, out.stderr));
                    }
                }
                Expect::Same => {
                    let before = baselines.entry(common.clone()).or_insert_with(|| interleave(&common)).clone();
                    if out.code == Some(2) || out != before {
                        failures.push(format!(
                            "{shown} ({kind:?}): prints otherwise than without `{}`:\n{}\n{}",
                            row.option.join(" "),
                            out.stderr,
                            before.stderr
                        ));
                    }
                }
                Expect::Changes | Expect::RefusedAtLaunch(_) => {
                    let before = baselines.entry(common.clone()).or_insert_with(|| interleave(&common)).clone();
                    if before.code == Some(2) {
                        failures.push(format!("interleave {} ({kind:?}): the command without the option fails:\n{}", common.join(" "), before.stderr));
                    } else if out.code == Some(2) {
                        failures.push(format!("{shown} ({kind:?}): refused, but it should take effect:\n{}", out.stderr));
                    } else if out == before {
                        failures.push(format!("{shown} ({kind:?}): prints the same as without `{}`: the option was ignored", row.option.join(" ")));
                    }
                }
            }
        }
    }
    failures
}

/// The long options (and `-D`) a subcommand's `--help` lists.
fn options_in_help(subcommand: &str) -> Vec<String> {
    let help = interleave(&[subcommand.to_string(), "--help".to_string()]).stdout;
    let mut found: Vec<String> = help
        .lines()
        .filter_map(|line| line.trim_start().split([' ', ',', '=', '<']).find(|w| w.starts_with("--") || *w == "-D"))
        .map(str::to_string)
        .filter(|o| o != "--help" && o != "--version")
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The options the rows cover.
fn covered(rows: &[&[Row]]) -> Vec<String> {
    let mut out: Vec<String> =
        rows.iter().flat_map(|r| r.iter()).flat_map(|row| row.option.iter()).filter(|w| w.starts_with('-')).map(|w| w.to_string()).collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_option_has_a_row() {
    for (subcommand, rows) in [("run", vec![RUN_ROWS]), ("explore", vec![RUN_ROWS, EXPLORE_ROWS]), ("link", vec![RUN_ROWS, LINK_ROWS])] {
        let listed = options_in_help(subcommand);
        assert!(listed.len() > 25, "{subcommand} --help lists too few options: {listed:?}");
        let covered = covered(&rows);
        let missing: Vec<&String> = listed.iter().filter(|o| !covered.contains(o)).collect();
        assert!(missing.is_empty(), "options of `{subcommand}` without a row in cli/tests/options.rs: {missing:?}");
        // The help says how options and files combine.
        let help = interleave(&[subcommand.to_string(), "--help".to_string()]).stdout;
        assert!(help.contains("override"), "`{subcommand} --help` does not say that options override a file's settings");
    }
}

#[test]
fn run_options_take_effect_or_are_refused() {
    let failures = check_rows("run", &[], RUN_ROWS, &scenario_link());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn explore_options_take_effect_or_are_refused() {
    let link = scenario_link();
    // Few runs, and short ones: an exhaustive search follows a spin to the step limit.
    let own = ["--runs", "4", "--max-steps", "100"];
    let mut failures = check_rows("explore", &own, RUN_ROWS, &link);
    failures.extend(check_rows("explore", &own, EXPLORE_ROWS, &link));
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn link_options_take_effect_or_are_refused() {
    let link = scenario_link();
    let mut failures = check_rows("link", &[], RUN_ROWS, &link);
    failures.extend(check_rows("link", &[], LINK_ROWS, &link));
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}
