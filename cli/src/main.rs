//! `interleave`: run GPU kernels over simulated work-items from the terminal.
//!
//! The command line is a thin layer: it reads files, turns flags into a
//! [`Scenario`](interleave_engine::scenario::Scenario), drives a
//! [`Session`](interleave_engine::session::Session) and prints the report, either as JSON
//! (`--json`, a stable contract) or for people, with rustc-style diagnostics.
//!
//! Exit status: 0 when the run finished with no error finding, 1 when it reported error
//! findings, 2 when the input could not be run.

/// Prints a line on stdout. When stdout is a pipe that was closed early (`interleave run ... |
/// head`), the program ends quietly, as command-line tools do, instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

mod render;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use interleave_engine::diag::Diagnostic;
use interleave_engine::scenario::{ArgBinding, Dialect, Granularity, MemoryModel, Progress, Scenario, SchedulerKind};
use interleave_engine::session::{Prepared, Session};

#[derive(Parser)]
#[command(name = "interleave", version, about = "Run OpenCL C and CUDA kernels over simulated work-items, step by step, under seeded schedules.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a kernel and report its findings and final buffers.
    Run(RunArgs),
    /// Parse and type-check a kernel file; print each kernel and its parameters.
    Parse(ParseArgs),
    /// Run a kernel under many seeds; print its distinct outcomes and findings, each with a
    /// seed that reproduces it.
    Explore(ExploreArgs),
    /// Print the share link of a scenario: FILE and run options as for `run`; the link holds
    /// the whole scenario, and `interleave run LINK` runs it.
    Link(LinkArgs),
}

#[derive(clap::Args)]
struct LinkArgs {
    #[command(flatten)]
    run: RunArgs,
    /// The page the link opens: the app's address (the one `cargo xtask serve` serves by
    /// default).
    #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
    base: String,
    /// The step the link shows the run at.
    #[arg(long, value_name = "N")]
    step: Option<u64>,
    /// The work-item (linear index) the link selects.
    #[arg(long, value_name = "I")]
    selected: Option<u32>,
    /// The panel the link opens: work-item, memory, locks, barriers or console.
    #[arg(long, value_name = "NAME")]
    panel: Option<String>,
}

/// Where `interleave link` points by default: the address `cargo xtask serve` serves.
const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

#[derive(clap::Args)]
struct ExploreArgs {
    #[command(flatten)]
    run: RunArgs,
    /// How many schedules to run (seeds S, S+1, ... from --seed; default 100); with
    /// --exhaustive, the most executions to enumerate (default 1000000). At most 10,000,000.
    #[arg(long)]
    runs: Option<u64>,
    /// Enumerate every schedule (and every write a relaxed load may read) instead of sampling
    /// seeds, with partial-order reduction; JSON `complete` says whether all were covered.
    #[arg(long)]
    exhaustive: bool,
    /// With --exhaustive: the most preemptions (switches away from a work-item that could go
    /// on) in one execution.
    #[arg(long, value_name = "K", requires = "exhaustive")]
    max_preemptions: Option<u32>,
}

#[derive(clap::Args)]
struct ParseArgs {
    /// The kernel source: a `.cl` (OpenCL C) or `.cu` (CUDA) file.
    file: PathBuf,
    /// The kernel language; by default it follows the file extension.
    #[arg(long, value_name = "opencl|cuda")]
    dialect: Option<String>,
    /// Define a preprocessor macro, as a build option would (repeatable).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// Print the kernels as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct RunArgs {
    /// The kernel source: a `.cl` (OpenCL C) or `.cu` (CUDA) file, an Oclgrind `.sim`
    /// simulation file (which names its kernel, launch and arguments), or a `.toml` scenario
    /// file (which holds every setting of the run), or a share link (a URL with its `#`
    /// fragment, or the bare fragment), which also holds every setting.
    file: PathBuf,
    /// Which kernel to run, when the file defines several.
    #[arg(long)]
    kernel: Option<String>,
    /// Define a preprocessor macro, as a build option would (repeatable).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// Global size: X[,Y[,Z]] work-items.
    #[arg(long, value_name = "X[,Y[,Z]]", default_value = "1")]
    global: String,
    /// Work-group size: X[,Y[,Z]] (default: the largest divisor of X up to 256).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    local: Option<String>,
    /// CUDA grid size in blocks: X[,Y[,Z]] (the global size is grid x block).
    #[arg(long, value_name = "X[,Y[,Z]]", requires = "block", conflicts_with = "global")]
    grid: Option<String>,
    /// CUDA block size in threads: X[,Y[,Z]].
    #[arg(long, value_name = "X[,Y[,Z]]", requires = "grid", conflicts_with = "local")]
    block: Option<String>,
    /// A kernel argument, NAME=SPEC: e.g. data=int[16]:range=0:1, out=int[4]:fill=0, n=int:7,
    /// buf=float[3]:values=1,2,3, tmp=local:256, src=int[64]:random:ro, p=null.
    #[arg(long = "arg", value_name = "NAME=SPEC")]
    args: Vec<String>,
    /// Scheduler: round-robin, random, pct, run-to-block, lockstep or manual.
    #[arg(long, default_value = "random")]
    sched: String,
    /// For --sched manual: the work-item (linear index) of each step, e.g. 0,1,1,0.
    #[arg(long, value_name = "I,J,...")]
    schedule: Option<String>,
    /// The decisions of the steps that have several options, in order (which write a relaxed
    /// load or update reads, 0 being the latest; 1 for a weak compare-exchange that fails
    /// spuriously), as `explore --exhaustive` reports them; later ones come from the seed.
    #[arg(long, value_name = "A,B,...")]
    choices: Option<String>,
    /// The depth of the PCT scheduler (it makes DEPTH - 1 priority changes).
    #[arg(long, value_name = "D", default_value_t = 3)]
    pct_depth: u32,
    /// How many work-groups may be resident at once (default: all).
    #[arg(long, value_name = "N")]
    resident_groups: Option<u32>,
    /// Progress model for work-groups that are not resident: occupancy-bound or fair.
    #[arg(long, default_value = "occupancy-bound")]
    progress: String,
    /// What one step is: event (a shared-memory event) or statement (every statement).
    #[arg(long, default_value = "event")]
    granularity: String,
    /// Do not look for data races (faster, and less memory).
    #[arg(long)]
    no_race_detection: bool,
    /// Global offset: X[,Y[,Z]] (get_global_offset).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    offset: Option<String>,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop after this many steps (at most 100,000,000).
    #[arg(long, default_value_t = interleave_engine::limits::STEPS.default)]
    max_steps: u64,
    /// Stop when a work-item runs this many instructions between two shared-memory events
    /// (an endless private loop; at most 1,000,000,000).
    #[arg(long, value_name = "N", default_value_t = interleave_engine::limits::INSTRUCTIONS_PER_STEP.default)]
    max_instructions_per_step: u64,
    /// Refuse launches of more work-items than this (at most 16,777,216).
    #[arg(long, value_name = "N", default_value_t = interleave_engine::limits::WORK_ITEMS.default)]
    max_work_items: u64,
    /// Refuse launches that allocate more bytes of memory than this (at most 1 GiB).
    #[arg(long, value_name = "BYTES", default_value_t = interleave_engine::limits::MEMORY_BYTES.default)]
    max_memory_bytes: u64,
    /// Keep at most this many bytes of printf output (at most 64 MiB).
    #[arg(long, value_name = "BYTES", default_value_t = interleave_engine::limits::PRINTF_BYTES.default)]
    max_printf_bytes: u64,
    /// Stop after recording this many events of history (at most 8,000,000).
    #[arg(long, value_name = "N", default_value_t = interleave_engine::limits::HISTORY_EVENTS.default)]
    max_history_events: u64,
    /// Memory model: sc or relaxed.
    #[arg(long, default_value = "sc")]
    memory_model: String,
    /// Elements of the buffer given to a pointer parameter without --arg (default: 4 x the
    /// number of work-items, at least 1024).
    #[arg(long, value_name = "N")]
    default_buffer_elements: Option<u64>,
    /// Work-items per warp (CUDA) or sub-group (OpenCL), from 1 to 64.
    #[arg(long, default_value_t = 32)]
    warp_size: u32,
    /// Bytes of the heap device `malloc` allocates from.
    #[arg(long, default_value_t = 8 << 20)]
    heap_bytes: u64,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run(args) => run(args),
        Command::Parse(args) => parse(args),
        Command::Explore(args) => explore(args),
        Command::Link(args) => link(args),
    }
}

fn dialect_of(file: &Path, flag: Option<&str>) -> Result<Dialect, Diagnostic> {
    match flag {
        Some("opencl") => return Ok(Dialect::OpenCl),
        Some("cuda") => return Ok(Dialect::Cuda),
        Some("litmus") => return Ok(Dialect::Litmus),
        Some(other) => {
            return Err(Diagnostic::error("invalid-option", format!("unknown dialect `{other}`")).with_help("choose opencl, cuda or litmus"))
        }
        None => {}
    }
    match file.extension().and_then(|e| e.to_str()) {
        Some("cl") => Ok(Dialect::OpenCl),
        Some("cu") => Ok(Dialect::Cuda),
        Some("litmus") => Ok(Dialect::Litmus),
        _ => Err(Diagnostic::error("unsupported", format!("cannot tell the kernel language of `{}`", file.display()))
            .with_help("name OpenCL C files `.cl`, CUDA files `.cu` and litmus tests `.litmus`, or pass --dialect")),
    }
}

fn parse(args: ParseArgs) -> ExitCode {
    let file_name = args.file.display().to_string();
    let (source, dialect) = match read_source(&args.file).and_then(|s| Ok((s, dialect_of(&args.file, args.dialect.as_deref())?))) {
        Ok(v) => v,
        Err(d) => return render::fail(&[d], "", ""),
    };
    let kernels = match interleave_engine::frontend::check(&source, dialect, &args.defines) {
        Ok((k, warnings)) => {
            render::warnings(&warnings, &file_name, &source);
            k
        }
        Err(diagnostics) => return render::fail(&diagnostics, &file_name, &source),
    };
    if args.json {
        match serde_json::to_string_pretty(&serde_json::json!({ "kernels": kernels })) {
            Ok(text) => out!("{text}"),
            Err(e) => {
                eprintln!("error: cannot encode the kernels: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        for k in &kernels {
            let params: Vec<String> =
                k.params.iter().map(|p| format!("{} {} {}", p.address_space, p.ty, p.name)).collect();
            out!("kernel {}({})", k.name, params.join(", "));
        }
    }
    ExitCode::SUCCESS
}

/// Parses `X[,Y[,Z]]`.
fn parse_dims(flag: &str, text: &str) -> Result<Vec<u64>, Diagnostic> {
    let dims: Result<Vec<u64>, _> = text.split(',').map(|p| p.trim().parse::<u64>()).collect();
    match dims {
        Ok(d) if (1..=3).contains(&d.len()) => Ok(d),
        _ => Err(Diagnostic::error("invalid-option", format!("invalid {flag} `{text}`"))
            .with_help(format!("write 1 to 3 sizes separated by commas, e.g. {flag} 64 or {flag} 16,16"))),
    }
}

fn scenario_from(args: &RunArgs, source: String) -> Result<Scenario, Diagnostic> {
    let file_name = args.file.display().to_string();
    let dialect = if args.file.extension().is_some_and(|e| e == "sim") { Dialect::OpenCl } else { dialect_of(&args.file, None)? };
    let mut scenario = Scenario::new(source, file_name, dialect);
    scenario.kernel = args.kernel.clone();
    scenario.defines = args.defines.clone();
    scenario.launch.global = parse_dims("--global", &args.global)?;
    scenario.launch.local = args.local.as_deref().map(|l| parse_dims("--local", l)).transpose()?;
    if let (Some(grid), Some(block)) = (&args.grid, &args.block) {
        // CUDA's terms: blocks of threads; the NDRange is their product per dimension.
        let (grid, block) = (parse_dims("--grid", grid)?, parse_dims("--block", block)?);
        if grid.len() != block.len() {
            return Err(Diagnostic::error("invalid-option", "--grid and --block need the same number of dimensions"));
        }
        let global = grid.iter().zip(&block).map(|(g, b)| g.checked_mul(*b)).collect::<Option<Vec<u64>>>();
        scenario.launch.global = global.ok_or_else(|| Diagnostic::error("invalid-option", "--grid x --block is too large"))?;
        scenario.launch.local = Some(block);
    }
    scenario.args = args.args.iter().map(|a| ArgBinding::parse(a)).collect::<Result<_, _>>()?;
    scenario.scheduler = SchedulerKind::parse(&args.sched).ok_or_else(|| {
        let names: Vec<&str> = SchedulerKind::ALL.iter().map(|(n, _)| *n).collect();
        Diagnostic::error("invalid-option", format!("unknown scheduler `{}`", args.sched))
            .with_help(format!("choose one of: {}", names.join(", ")))
    })?;
    scenario.seed = args.seed;
    scenario.max_steps = args.max_steps;
    scenario.max_instructions_per_step = args.max_instructions_per_step;
    scenario.max_work_items = args.max_work_items;
    scenario.max_memory_bytes = args.max_memory_bytes;
    scenario.max_printf_bytes = args.max_printf_bytes;
    scenario.max_history_events = args.max_history_events;
    scenario.memory_model = match args.memory_model.as_str() {
        "sc" => MemoryModel::Sc,
        "relaxed" => MemoryModel::Relaxed,
        other => {
            return Err(Diagnostic::error("invalid-option", format!("unknown memory model `{other}`"))
                .with_help("choose sc or relaxed"))
        }
    };
    scenario.default_buffer_elements = args.default_buffer_elements;
    if !(1..=64).contains(&args.warp_size) {
        return Err(Diagnostic::error("invalid-option", format!("a warp of {} work-items is not supported", args.warp_size))
            .with_help("choose --warp-size from 1 to 64"));
    }
    scenario.warp_size = args.warp_size;
    scenario.heap_bytes = args.heap_bytes;
    scenario.pct_depth = args.pct_depth;
    if args.pct_depth == 0 {
        return Err(Diagnostic::error("invalid-option", "--pct-depth must be at least 1"));
    }
    scenario.max_resident_groups = args.resident_groups;
    if args.resident_groups == Some(0) {
        return Err(Diagnostic::error("invalid-option", "--resident-groups must be at least 1")
            .with_help("leave it out to make every work-group resident"));
    }
    scenario.progress = Progress::parse(&args.progress).ok_or_else(|| {
        Diagnostic::error("invalid-option", format!("unknown progress model `{}`", args.progress))
            .with_help("choose occupancy-bound or fair")
    })?;
    scenario.granularity = Granularity::parse(&args.granularity).ok_or_else(|| {
        Diagnostic::error("invalid-option", format!("unknown granularity `{}`", args.granularity))
            .with_help("choose event or statement")
    })?;
    scenario.race_detection = !args.no_race_detection;
    if let Some(offset) = &args.offset {
        scenario.launch.offset = parse_dims("--offset", offset)?;
    }
    let numbers = |flag: &str, text: &str, what: &str| {
        text.split(',')
            .map(|t| t.trim().parse::<u32>())
            .collect::<Result<Vec<u32>, _>>()
            .map_err(|_| Diagnostic::error("invalid-option", format!("{flag} `{text}` is not a list of {what}")))
    };
    if let Some(schedule) = &args.schedule {
        scenario.schedule = numbers("--schedule", schedule, "work-item indices")?;
    }
    if let Some(choices) = &args.choices {
        scenario.choices = numbers("--choices", choices, "numbers")?;
    }
    Ok(scenario)
}

fn read_source(path: &Path) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path)
        .map_err(|e| Diagnostic::error("invalid-input", format!("cannot read `{}`: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::error("invalid-input", format!("`{}` is not UTF-8 text (invalid byte at offset {})", path.display(), e.utf8_error().valid_up_to()))
    })
}

/// A scenario from an Oclgrind `.sim` file: launch and arguments from the file, the run
/// options (scheduler, seed, limits) from the command line.
fn scenario_from_sim(args: &RunArgs) -> Result<Scenario, (Vec<Diagnostic>, String, String)> {
    let sim_name = args.file.display().to_string();
    let text = read_source(&args.file).map_err(|d| (vec![d], String::new(), String::new()))?;
    let sim = interleave_engine::sim::parse(&text).map_err(|d| (vec![d], sim_name.clone(), text.clone()))?;
    let source_path = args.file.parent().unwrap_or(Path::new("")).join(&sim.source_file);
    let source = read_source(&source_path).map_err(|d| (vec![d], String::new(), String::new()))?;
    let file_name = source_path.display().to_string();
    let (mut scenario, _) = interleave_engine::sim::scenario(&sim, source.clone(), file_name.clone())
        .map_err(|d| (d, file_name.clone(), source.clone()))?;
    // The run options of the command line still apply; the launch is the file's.
    let options = scenario_from(args, String::new()).map_err(|d| (vec![d], String::new(), String::new()))?;
    scenario.scheduler = options.scheduler;
    scenario.seed = options.seed;
    scenario.max_steps = options.max_steps;
    scenario.max_instructions_per_step = options.max_instructions_per_step;
    scenario.max_work_items = options.max_work_items;
    scenario.max_memory_bytes = options.max_memory_bytes;
    scenario.max_printf_bytes = options.max_printf_bytes;
    scenario.max_history_events = options.max_history_events;
    scenario.memory_model = options.memory_model;
    scenario.warp_size = options.warp_size;
    scenario.heap_bytes = options.heap_bytes;
    scenario.pct_depth = options.pct_depth;
    scenario.max_resident_groups = options.max_resident_groups;
    scenario.progress = options.progress;
    scenario.granularity = options.granularity;
    scenario.schedule = options.schedule;
    scenario.race_detection = options.race_detection;
    scenario.defines.extend(options.defines);
    Ok(scenario)
}

/// A scenario from a `.toml` scenario file: the serialised `Scenario`, where `source_file`
/// (a path relative to the scenario file) may stand for an inline `source`. Every run setting
/// comes from the file.
fn scenario_from_toml(path: &Path) -> Result<Scenario, (Vec<Diagnostic>, String, String)> {
    let name = path.display().to_string();
    let text = read_source(path).map_err(|d| (vec![d], String::new(), String::new()))?;
    // A problem in the kernel file is reported without the scenario file's text.
    let mut source_problem = false;
    let read = |file: &str| {
        let source_path = path.parent().unwrap_or(Path::new("")).join(file);
        let source = read_source(&source_path).inspect_err(|_| source_problem = true)?;
        Ok((source, source_path.display().to_string()))
    };
    interleave_engine::scenario::from_toml(&text, read).map_err(|d| {
        if source_problem {
            (vec![d], String::new(), String::new())
        } else {
            (vec![d], name.clone(), text.clone())
        }
    })
}

/// The scenario of a `run` or `explore` invocation, from whichever kind of file it names; on
/// failure the diagnostics have been printed and the exit status is returned.
fn load_scenario(args: &RunArgs) -> Result<Scenario, ExitCode> {
    if is_link(&args.file) {
        let text = args.file.to_string_lossy();
        interleave_engine::link::decode(&text).map(|l| l.scenario).map_err(|d| render::fail(&[d], "", ""))
    } else if args.file.extension().is_some_and(|e| e == "toml") {
        scenario_from_toml(&args.file).map_err(|(d, name, text)| render::fail(&d, &name, &text))
    } else if args.file.extension().is_some_and(|e| e == "sim") {
        scenario_from_sim(args).map_err(|(d, name, text)| render::fail(&d, &name, &text))
    } else {
        let source = read_source(&args.file).map_err(|d| render::fail(&[d], "", ""))?;
        scenario_from(args, source).map_err(|d| render::fail(&[d], "", ""))
    }
}

/// Whether FILE is a share link: it looks like one and names no file.
fn is_link(file: &Path) -> bool {
    file.to_str().is_some_and(interleave_engine::link::looks_like_link) && !file.exists()
}

fn link(args: LinkArgs) -> ExitCode {
    let mut scenario = match load_scenario(&args.run) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // Diagnostics name the file without the directories it was in on this machine.
    if let Some(name) = Path::new(&scenario.file_name).file_name().and_then(|n| n.to_str()) {
        scenario.file_name = name.to_string();
    }
    let view = interleave_engine::link::LinkView { step: args.step, selected: args.selected, panel: args.panel };
    if let Some(panel) = &view.panel {
        if !interleave_engine::link::PANELS.contains(&panel.as_str()) {
            let d = Diagnostic::error("invalid-option", format!("unknown panel `{panel}`"))
                .with_help(format!("choose one of: {}", interleave_engine::link::PANELS.join(", ")));
            return render::fail(&[d], "", "");
        }
    }
    let url = interleave_engine::link::url(&args.base, &interleave_engine::link::Link { scenario, view });
    if args.run.json {
        out!("{}", serde_json::json!({ "url": url }));
    } else {
        out!("{url}");
    }
    ExitCode::SUCCESS
}

fn explore(args: ExploreArgs) -> ExitCode {
    let scenario = match load_scenario(&args.run) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let config = interleave_engine::explore::Config {
        runs: args.runs.unwrap_or(if args.exhaustive { 0 } else { 100 }),
        first_seed: scenario.seed,
        exhaustive: args.exhaustive,
        max_preemptions: args.max_preemptions,
    };
    // The exploration compiles the scenario for itself; this compile is for its warnings.
    if let Ok(prepared) = Prepared::new(scenario.clone()) {
        render::warnings(prepared.warnings(), &scenario.file_name, &scenario.source);
    }
    let exploration = match interleave_engine::explore::explore_with(&scenario, config) {
        Ok(e) => e,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    let human = || render::exploration(&exploration, &scenario);
    finish(&exploration, args.run.json, human, exploration.has_errors())
}

/// Prints `value` as JSON or for people, and gives the exit status: 1 when there were error
/// findings, 0 otherwise.
fn finish<T: serde::Serialize>(value: &T, json: bool, human: impl FnOnce(), has_errors: bool) -> ExitCode {
    if json {
        match serde_json::to_string_pretty(value) {
            Ok(text) => out!("{text}"),
            Err(e) => {
                eprintln!("error: cannot encode the result as JSON: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        human();
    }
    if has_errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run(args: RunArgs) -> ExitCode {
    let scenario = match load_scenario(&args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // A run from the command line never steps back, so it keeps no snapshots: a large launch
    // then pays neither for copying its machine every few thousand steps nor for holding the
    // copies (the report is the same either way).
    let started = Prepared::new(scenario.clone()).and_then(|mut prepared| {
        prepared.history = false;
        Session::start(&prepared, prepared.scenario.seed)
    });
    let mut session = match started {
        Ok(s) => s,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    render::warnings(session.warnings(), &scenario.file_name, &scenario.source);
    session.run(u64::MAX);
    let report = session.report();
    // The process ends right after printing: freeing a large launch's machine piece by piece
    // (hundreds of thousands of small vectors) would only delay the exit, so it is left to
    // the operating system.
    std::mem::forget(session);
    finish(&report, args.json, || render::report(&report, &scenario), report.has_errors())
}
