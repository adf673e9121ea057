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

mod parallel;
mod render;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use interleave_engine::diag::Diagnostic;
use interleave_engine::scenario::{ArgBinding, Dialect, Granularity, MemoryModel, Progress, Scenario, SchedulerKind};
use interleave_engine::session::{Prepared, Session};
use interleave_engine::why;

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
    /// Parse and type-check a kernel file; print each kernel and its parameters, or with --ir
    /// the lowered program.
    Parse(ParseArgs),
    /// Run a kernel under many seeds; print its distinct outcomes and findings, each with a
    /// seed that reproduces it.
    Explore(ExploreArgs),
    /// Print the share link of a scenario: FILE and run options as for `run`; the link holds
    /// the whole scenario, and `interleave run LINK` runs it.
    Link(LinkArgs),
    /// Run a kernel, then find the schedule with the fewest preemptions, and then the fewest
    /// steps, that still shows one of its failures (the first error finding by default); print
    /// it as the options that replay it, with its share link.
    Shrink(ShrinkArgs),
    /// Run a kernel under each execution model (independent work-items, lockstep warps of 32
    /// and 64, fewer resident work-groups under both progress models, each memory model) and
    /// print which findings and outcomes appear under which.
    Compare(CompareArgs),
}

#[derive(clap::Args)]
struct CompareArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Seeds each model runs, from --seed (default 100; at most 10,000,000).
    #[arg(long, value_name = "N")]
    runs: Option<u64>,
}

#[derive(clap::Args)]
struct ShrinkArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Shrink the run's finding N (counted from 1, in the order `run` prints them) instead of
    /// its first error finding.
    #[arg(long, value_name = "N", conflicts_with = "outcome")]
    finding: Option<usize>,
    /// Shrink to an outcome instead: every named buffer (or litmus register, 1:r0) ends with
    /// exactly these values, e.g. --outcome counters=2,8 (repeatable).
    #[arg(long, value_name = "NAME=VALUES", num_args = 1..)]
    outcome: Vec<String>,
    /// The most executions to explore and replay while shrinking (default 2,000; at most
    /// 10,000,000); when it runs out, the best schedule found so far is printed.
    #[arg(long, value_name = "N")]
    budget: Option<u64>,
    /// The page the share link opens (as for `interleave link`).
    #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
    base: String,
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
    /// Threads that run the seeds, from 1 to 256 (default: one per core). The result is the
    /// same whatever the number; the exhaustive search runs on one.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=parallel::MAX_THREADS as i64), conflicts_with = "exhaustive")]
    jobs: Option<u32>,
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
    /// Print the lowered program instead of the kernels: the engine's IR, with the kernels,
    /// local arrays and program-scope variables, then each function's variables and
    /// instructions with their source lines.
    #[arg(long, conflicts_with = "json")]
    ir: bool,
}

/// The options of `run`, `explore` and `link`. Each is `None` (or empty) unless given, so that
/// a flag given with a scenario file, a `.sim` file, a litmus test or a link overrides the
/// file's value and one not given leaves it; the defaults in the help are the engine's
/// (`Scenario::new`, `crate::limits`).
#[derive(clap::Args)]
struct RunArgs {
    /// The input: a `.cl` (OpenCL C) or `.cu` (CUDA) kernel, a `.litmus` test, an Oclgrind
    /// `.sim` simulation file (which names its kernel, launch and arguments), a `.toml`
    /// scenario file (which holds every setting of the run), or a share link (a URL with its
    /// `#` fragment, or the bare fragment), which also holds every setting. Options given with
    /// a file or link override its values; an option that cannot apply to the input (a launch
    /// option with a litmus test, which places its threads itself) is refused.
    file: PathBuf,
    /// Which kernel to run, when the file defines several.
    #[arg(long)]
    kernel: Option<String>,
    /// Define a preprocessor macro, as a build option would (repeatable; replaces a file's
    /// definition of the same name).
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]")]
    defines: Vec<String>,
    /// Global size: X[,Y[,Z]] work-items (default 1).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    global: Option<String>,
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
    /// buf=float[3]:values=1,2,3, tmp=local:256, src=int[64]:random:ro, p=null (repeatable;
    /// replaces a file's argument of the same name).
    #[arg(long = "arg", value_name = "NAME=SPEC")]
    args: Vec<String>,
    /// Scheduler: round-robin, random, pct, run-to-block, lockstep or manual (default random).
    #[arg(long, value_name = "NAME")]
    sched: Option<String>,
    /// For --sched manual: the work-item (linear index) of each step, e.g. 0,1,1,0; with
    /// --sched lockstep, the lanes of each step, whose warps it follows (refused with any
    /// other scheduler).
    #[arg(long, value_name = "I,J,...")]
    schedule: Option<String>,
    /// The decisions of the steps that have several options, in order (which write a relaxed
    /// load or update reads, 0 being the latest; 1 for a weak compare-exchange that fails
    /// spuriously), as `explore --exhaustive` reports them; later ones come from the seed.
    #[arg(long, value_name = "A,B,...")]
    choices: Option<String>,
    /// The depth of the PCT scheduler, from 1 to 64: it makes D - 1 priority changes (default
    /// 3; only with --sched pct).
    #[arg(long, value_name = "D")]
    pct_depth: Option<u32>,
    /// How many work-groups may be resident at once (default: all).
    #[arg(long, value_name = "N")]
    resident_groups: Option<u32>,
    /// Progress model for work-groups that are not resident: occupancy-bound (default) or
    /// fair.
    #[arg(long, value_name = "MODEL")]
    progress: Option<String>,
    /// What one step is: observable (a shared-memory event another work-item could observe;
    /// reads of constant memory and read-only buffers join the work-item's own step before;
    /// default), event (every shared-memory event, those reads too) or statement (every
    /// statement).
    #[arg(long, value_name = "STEP")]
    granularity: Option<String>,
    /// Do not look for data races (faster, and less memory).
    #[arg(long)]
    no_race_detection: bool,
    /// Global offset: X[,Y[,Z]] (get_global_offset; default 0; OpenCL only, as CUDA has none).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    offset: Option<String>,
    /// Seed of every random choice (default 0); `explore` runs seeds from this one.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Stop after this many steps (default 1,000,000; at most 100,000,000).
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
    /// Stop when a work-item runs this many instructions between two shared-memory events
    /// (an endless private loop; default 10,000,000; at most 1,000,000,000).
    #[arg(long, value_name = "N")]
    max_instructions_per_step: Option<u64>,
    /// Refuse launches of more work-items than this (default 4,194,304; at most 16,777,216).
    #[arg(long, value_name = "N")]
    max_work_items: Option<u64>,
    /// Refuse launches that hold more bytes of memory than this, and stop runs that grow past
    /// it (default 256 MiB; at most 1 GiB).
    #[arg(long, value_name = "BYTES")]
    max_memory_bytes: Option<u64>,
    /// Keep at most this many bytes of printf output (default 1 MiB; at most 64 MiB).
    #[arg(long, value_name = "BYTES")]
    max_printf_bytes: Option<u64>,
    /// Stop after recording this many events of history (default 4,000,000; at most
    /// 8,000,000).
    #[arg(long, value_name = "N")]
    max_history_events: Option<u64>,
    /// Memory model: sc (default) or relaxed.
    #[arg(long, value_name = "MODEL")]
    memory_model: Option<String>,
    /// Elements of the buffer given to a pointer parameter without --arg (default: 4 x the
    /// number of work-items, at least 1024).
    #[arg(long, value_name = "N")]
    default_buffer_elements: Option<u64>,
    /// Work-items per warp (CUDA) or sub-group (OpenCL), from 1 to 64 (default 32).
    #[arg(long, value_name = "N")]
    warp_size: Option<u32>,
    /// Bytes of the heap device `malloc` allocates from (default 8 MiB; CUDA only, as OpenCL C
    /// has no `malloc`).
    #[arg(long, value_name = "BYTES")]
    heap_bytes: Option<u64>,
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
        Command::Shrink(args) => shrink(args),
        Command::Compare(args) => compare(args),
    }
}

fn dialect_of(file: &Path, flag: Option<&str>) -> Result<Dialect, Diagnostic> {
    match flag {
        Some("opencl") => return Ok(Dialect::OpenCl),
        Some("cuda") => return Ok(Dialect::Cuda),
        Some("litmus") => return Ok(Dialect::Litmus),
        Some(other) => return Err(Diagnostic::error("invalid-option", format!("unknown dialect `{other}`")).with_help("choose opencl, cuda or litmus")),
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
    if args.ir {
        return match interleave_engine::frontend::ir_text(&source, dialect, &args.defines) {
            Ok((text, warnings)) => {
                render::warnings(&warnings, &file_name, &source);
                out!("{}", text.trim_end());
                ExitCode::SUCCESS
            }
            Err(diagnostics) => render::fail(&diagnostics, &file_name, &source),
        };
    }
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
            let params: Vec<String> = k.params.iter().map(|p| format!("{} {} {}", p.address_space, p.ty, p.name)).collect();
            out!("kernel {}({})", k.name, params.join(", "));
        }
    }
    ExitCode::SUCCESS
}

/// Parses `X[,Y[,Z]]` with the engine's one syntax of sizes (`scenario::parse_dims`); the
/// values themselves are the launch's to check.
fn parse_dims(flag: &str, text: &str) -> Result<Vec<u64>, Diagnostic> {
    match interleave_engine::scenario::parse_dims(text) {
        Ok(d) => Ok(d),
        Err(_) => Err(Diagnostic::error("invalid-option", format!("invalid {flag} `{text}`"))
            .with_help(format!("write 1 to 3 sizes separated by commas, e.g. {flag} 64 or {flag} 16,16"))),
    }
}

/// What FILE is; it decides which options apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// A `.cl` or `.cu` kernel (or a `.litmus` test): every setting from the options.
    Kernel,
    /// A `.toml` scenario file or a share link: the options override its settings.
    Scenario,
    /// An Oclgrind `.sim` file: it names the kernel and binds every argument.
    Sim,
}

/// The scenario of a kernel or litmus file before any option: the engine's defaults.
fn scenario_from(file: &Path, source: String) -> Result<Scenario, Diagnostic> {
    Ok(Scenario::new(source, file.display().to_string(), dialect_of(file, None)?))
}

/// Maps every option given on the command line onto `scenario`, over what the file or link
/// set; an option that cannot apply to this input is refused. The values themselves are the
/// engine's to check (`Scenario::check`, when the scenario is prepared or linked).
fn apply_options(args: &RunArgs, scenario: &mut Scenario, input: Input) -> Result<(), Diagnostic> {
    let litmus = scenario.dialect == Dialect::Litmus;
    // Options that set what a litmus test places itself, or what a `.sim` file binds itself.
    let launch_options = [
        ("--kernel", args.kernel.is_some(), "kernel"),
        ("--global", args.global.is_some(), "launch"),
        ("--local", args.local.is_some(), "launch"),
        ("--grid", args.grid.is_some(), "launch"),
        ("--block", args.block.is_some(), "launch"),
        ("--offset", args.offset.is_some(), "launch"),
        ("--arg", !args.args.is_empty(), "args"),
        ("--default-buffer-elements", args.default_buffer_elements.is_some(), "default_buffer_elements"),
    ];
    for (flag, given, field) in launch_options {
        if !given {
            continue;
        }
        if litmus && interleave_engine::scenario::LITMUS_PLACES.contains(&field) {
            return Err(interleave_engine::scenario::refused_for_litmus(&format!("`{flag}`")));
        }
        if input == Input::Sim && matches!(flag, "--kernel" | "--default-buffer-elements") {
            let why = if flag == "--kernel" {
                "the `.sim` file names its kernel, and binds its arguments to that kernel's parameters"
            } else {
                "the `.sim` file gives every argument, so no buffer takes the default size"
            };
            return Err(Diagnostic::error("invalid-option", format!("`{flag}` cannot be used with a `.sim` file: {why}"))
                .with_help("leave it out, or change the `.sim` file"));
        }
    }
    if let Some(kernel) = &args.kernel {
        scenario.kernel = Some(kernel.clone());
    }
    // A definition replaces the file's definition of the same name.
    for define in &args.defines {
        let name = |d: &str| d.split_once('=').map_or(d, |(n, _)| n).trim().to_string();
        scenario.defines.retain(|d| name(d) != name(define));
        scenario.defines.push(define.clone());
    }
    if let Some(global) = &args.global {
        scenario.launch.global = parse_dims("--global", global)?;
    }
    if let Some(local) = &args.local {
        scenario.launch.local = Some(parse_dims("--local", local)?);
    }
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
    if let Some(offset) = &args.offset {
        scenario.launch.offset = parse_dims("--offset", offset)?;
    }
    // An argument replaces the file's argument of the same parameter.
    for text in &args.args {
        let binding = ArgBinding::parse(text)?;
        match scenario.args.iter_mut().find(|a| a.name == binding.name) {
            Some(existing) => *existing = binding,
            None => scenario.args.push(binding),
        }
    }
    if let Some(sched) = &args.sched {
        scenario.scheduler = SchedulerKind::parse(sched).ok_or_else(|| {
            let names: Vec<&str> = SchedulerKind::ALL.iter().map(|(n, _)| *n).collect();
            Diagnostic::error("invalid-option", format!("unknown scheduler `{sched}`")).with_help(format!("choose one of: {}", names.join(", ")))
        })?;
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
    if let Some(depth) = args.pct_depth {
        // Only the PCT scheduler has a depth: given with another, it would change nothing.
        if scenario.scheduler != SchedulerKind::Pct {
            return Err(Diagnostic::error(
                "invalid-option",
                format!("`--pct-depth` applies only to the pct scheduler, and this run uses `{}`", scenario.scheduler.name()),
            )
            .with_help("add `--sched pct`, or leave `--pct-depth` out"));
        }
        scenario.pct_depth = depth;
    }
    if let Some(groups) = args.resident_groups {
        scenario.max_resident_groups = Some(groups);
    }
    if let Some(progress) = &args.progress {
        scenario.progress = Progress::parse(progress)
            .ok_or_else(|| Diagnostic::error("invalid-option", format!("unknown progress model `{progress}`")).with_help("choose occupancy-bound or fair"))?;
    }
    if let Some(granularity) = &args.granularity {
        scenario.granularity = Granularity::parse(granularity).ok_or_else(|| {
            Diagnostic::error("invalid-option", format!("unknown granularity `{granularity}`")).with_help("choose observable, event or statement")
        })?;
    }
    if args.no_race_detection {
        scenario.race_detection = false;
    }
    if let Some(seed) = args.seed {
        scenario.seed = seed;
    }
    let limits = [
        (args.max_steps, &mut scenario.max_steps),
        (args.max_instructions_per_step, &mut scenario.max_instructions_per_step),
        (args.max_work_items, &mut scenario.max_work_items),
        (args.max_memory_bytes, &mut scenario.max_memory_bytes),
        (args.max_printf_bytes, &mut scenario.max_printf_bytes),
        (args.max_history_events, &mut scenario.max_history_events),
    ];
    for (given, field) in limits {
        if let Some(value) = given {
            *field = value;
        }
    }
    if let Some(model) = &args.memory_model {
        scenario.memory_model = match model.as_str() {
            "sc" => MemoryModel::Sc,
            "relaxed" => MemoryModel::Relaxed,
            other => return Err(Diagnostic::error("invalid-option", format!("unknown memory model `{other}`")).with_help("choose sc or relaxed")),
        };
    }
    if let Some(elements) = args.default_buffer_elements {
        scenario.default_buffer_elements = Some(elements);
    }
    if let Some(warp_size) = args.warp_size {
        scenario.warp_size = warp_size;
    }
    if let Some(heap_bytes) = args.heap_bytes {
        // Device `malloc` is CUDA's: an OpenCL kernel or litmus test has no heap to size.
        if scenario.dialect != Dialect::Cuda {
            return Err(Diagnostic::error("invalid-option", "`--heap-bytes` sizes the heap of device `malloc`, and only CUDA kernels have a device heap")
                .with_help("leave it out"));
        }
        scenario.heap_bytes = heap_bytes;
    }
    Ok(())
}

fn read_source(path: &Path) -> Result<String, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error("invalid-input", format!("cannot read `{}`: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::error("invalid-input", format!("`{}` is not UTF-8 text (invalid byte at offset {})", path.display(), e.utf8_error().valid_up_to()))
    })
}

/// A scenario from an Oclgrind `.sim` file: its kernel, launch and arguments.
fn scenario_from_sim(file: &Path) -> Result<Scenario, (Vec<Diagnostic>, String, String)> {
    let sim_name = file.display().to_string();
    let text = read_source(file).map_err(|d| (vec![d], String::new(), String::new()))?;
    let sim = interleave_engine::sim::parse(&text).map_err(|d| (vec![d], sim_name.clone(), text.clone()))?;
    let source_path = file.parent().unwrap_or(Path::new("")).join(&sim.source_file);
    let source = read_source(&source_path).map_err(|d| (vec![d], String::new(), String::new()))?;
    let file_name = source_path.display().to_string();
    let (scenario, _) = interleave_engine::sim::scenario(&sim, source.clone(), file_name.clone()).map_err(|d| (d, file_name.clone(), source.clone()))?;
    Ok(scenario)
}

/// A scenario from a `.toml` scenario file: the serialised `Scenario`, where `source_file`
/// (a path relative to the scenario file) may stand for an inline `source`.
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

/// The scenario of a `run`, `explore` or `link` invocation: the file's (or link's), with the
/// options given on the command line over it. On failure the diagnostics have been printed
/// and the exit status is returned.
fn load_scenario(args: &RunArgs) -> Result<Scenario, ExitCode> {
    let (mut scenario, input) = if is_link(&args.file) {
        let text = args.file.to_string_lossy();
        let link = interleave_engine::link::decode(&text).map_err(|d| render::fail(&[d], "", ""))?;
        (link.scenario, Input::Scenario)
    } else if args.file.extension().is_some_and(|e| e == "toml") {
        (scenario_from_toml(&args.file).map_err(|(d, name, text)| render::fail(&d, &name, &text))?, Input::Scenario)
    } else if args.file.extension().is_some_and(|e| e == "sim") {
        (scenario_from_sim(&args.file).map_err(|(d, name, text)| render::fail(&d, &name, &text))?, Input::Sim)
    } else {
        let source = read_source(&args.file).map_err(|d| render::fail(&[d], "", ""))?;
        (scenario_from(&args.file, source).map_err(|d| render::fail(&[d], "", ""))?, Input::Kernel)
    };
    apply_options(args, &mut scenario, input).map_err(|d| render::fail(&[d], "", ""))?;
    Ok(scenario)
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
    // Nothing runs here, so the engine's checks are asked for directly: a link holds only
    // settings the engine honours.
    if let Err(diagnostics) = scenario.check() {
        return render::fail(&diagnostics, &scenario.file_name, &scenario.source);
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

/// The share link of `scenario` showing its run at `step`; file names lose their directories.
fn share_link(base: &str, mut scenario: Scenario, step: Option<u64>) -> String {
    if let Some(name) = Path::new(&scenario.file_name).file_name().and_then(|n| n.to_str()) {
        scenario.file_name = name.to_string();
    }
    let view = interleave_engine::link::LinkView { step, selected: None, panel: None };
    interleave_engine::link::url(base, &interleave_engine::link::Link { scenario, view })
}

fn shrink(args: ShrinkArgs) -> ExitCode {
    use interleave_engine::shrink::{self, Pick, Target};
    let scenario = match load_scenario(&args.run) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let pick = if !args.outcome.is_empty() {
        match shrink::parse_outcome(&args.outcome) {
            Ok(terms) => Pick::Outcome(terms),
            Err(d) => return render::fail(&[d], "", ""),
        }
    } else {
        args.finding.map_or(Pick::FirstError, Pick::Finding)
    };
    let config = shrink::Config { budget: args.budget.unwrap_or(0) };
    let mut shrinker = match shrink::Shrinker::new(&scenario, pick, config) {
        Ok(s) => s,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    render::warnings(compile_warnings(&scenario).as_slice(), &scenario.file_name, &scenario.source);
    let result = shrinker.advance(u64::MAX).and_then(|_| shrinker.result());
    let shrunk = match result {
        Ok(s) => s,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    let target = shrinker.target().clone();
    // The replay: the scheduler that follows a schedule (lockstep keeps its warps together)
    // following the shrunk schedule and its decisions.
    let replay = scenario.replaying(&shrunk.after.schedule, &shrunk.after.choices);
    let url = share_link(&args.base, replay.clone(), Some(shrunk.after.steps));
    let options = scenario.replay_options(&shrunk.after.schedule, &shrunk.after.choices);
    let is_error = matches!(&target, Target::Finding(f) if f.severity == interleave_engine::diag::Severity::Error);
    let mut replayed = match Session::new(replay) {
        Ok(s) => s,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    replayed.run(u64::MAX);
    if args.run.json {
        let value = serde_json::json!({
            "target": match &target {
                Target::Finding(f) => serde_json::json!({ "finding": f }),
                Target::Outcome(terms) => serde_json::json!({ "outcome": terms.iter().cloned().collect::<std::collections::BTreeMap<_, _>>() }),
            },
            "before": shrunk.before,
            "after": shrunk.after,
            "replay": options,
            "url": url,
            "executions": shrunk.executions,
            "budget": shrunk.budget,
            "budget_exhausted": shrunk.budget_exhausted,
            "fewest_preemptions": shrunk.fewest_preemptions,
        });
        return finish(&value, true, || {}, is_error);
    }
    if let Target::Finding(wanted) = &target {
        render::shrunk_finding(wanted, replayed.findings(), &scenario);
    }
    let size = |steps: u64, preemptions: u32| format!("{steps} steps, {preemptions} preemption{}", if preemptions == 1 { "" } else { "s" });
    out!("shrunk {}", shrink::describe(&target));
    match &shrunk.before {
        Some(b) => out!("before: {}", size(b.steps, b.preemptions)),
        None => out!("before: the run as given does not show it"),
    }
    let fewest = shrink::proof(&shrunk).map(|p| format!(" ({p})")).unwrap_or_default();
    out!("after:  {}{fewest}", size(shrunk.after.steps, shrunk.after.preemptions));
    out!("replay: {options}");
    out!("link:   {url}");
    let budget = interleave_engine::limits::thousands(shrunk.budget);
    if shrunk.budget_exhausted {
        out!("the budget of {budget} executions ran out: this is the smallest schedule found so far (raise it with --budget)");
    } else {
        out!("{} of {budget} executions", interleave_engine::limits::thousands(shrunk.executions));
    }
    if is_error {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The compiler's warnings about the scenario's source (shrink and compare compile it for
/// themselves).
fn compile_warnings(scenario: &Scenario) -> Vec<Diagnostic> {
    Prepared::new(scenario.clone()).map(|p| p.warnings().to_vec()).unwrap_or_default()
}

fn compare(args: CompareArgs) -> ExitCode {
    let scenario = match load_scenario(&args.run) {
        Ok(s) => s,
        Err(code) => return code,
    };
    render::warnings(compile_warnings(&scenario).as_slice(), &scenario.file_name, &scenario.source);
    let comparison = match interleave_engine::compare::compare(&scenario, args.runs.unwrap_or(0)) {
        Ok(c) => c,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    let human = || render::comparison(&comparison, &scenario);
    finish(&comparison, args.run.json, human, comparison.has_errors())
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
    let threads = args.jobs.map_or_else(parallel::cores, |n| n as usize);
    let mut exploration = match parallel::explore(&scenario, config, threads) {
        Ok(e) => e,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    // A random exploration, which cannot be complete, offers the exhaustive search when the
    // engine finds that it covers every execution within a small budget.
    if !args.exhaustive {
        exploration.exhaustive_offer = interleave_engine::explore::exhaustive_size(&scenario);
    }
    // The trace hashes are for merging parts; a finished exploration prints their count.
    exploration.schedule_hashes.clear();
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
    // copies. Nor does it keep events until a finding needs them (`why::finish`). The
    // report is the same either way.
    let started = Prepared::new(scenario.clone()).and_then(|mut prepared| {
        prepared.history = false;
        prepared.keep_events = false;
        Session::start(&prepared, prepared.scenario.seed).map(|session| (prepared, session))
    });
    let (prepared, mut session) = match started {
        Ok(s) => s,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    render::warnings(session.warnings(), &scenario.file_name, &scenario.source);
    let report = match why::finish(&mut session, &prepared) {
        Ok(report) => report,
        Err(diagnostics) => return render::fail(&diagnostics, &scenario.file_name, &scenario.source),
    };
    // The process ends right after printing: freeing a large launch's machine piece by piece
    // (hundreds of thousands of small vectors) would only delay the exit, so it is left to
    // the operating system.
    std::mem::forget(session);
    finish(&report, args.json, || render::report(&report, &scenario), report.has_errors())
}
