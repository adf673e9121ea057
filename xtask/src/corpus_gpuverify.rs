//! The GPUVerify detection scoreboard: GPUVerify's test kernels run by the engine, with the
//! verifier's verdict on line 1 compared with the races and divergence the engine reports.
//!
//! # Method
//!
//! Each `kernel.cl` / `kernel.cu` under `gpuverify/` is launched as its line 2 says (see
//! [`parse_flags`]; [`IGNORED_FLAGS`] lists the flags that change nothing in a run, with why).
//! Every pointer parameter gets the engine's default for a parameter without an argument, a
//! generous buffer filled from the seed (4 x the work-items, at least 1024 elements; local
//! pointers as many elements of local memory), and by-value structs get seeded bytes. Scalar
//! parameters need a value: they take the small values of [`scalar_value`] in turn, one per
//! chunk of [`CHUNK`] seeds. Each seed is one `explore` run under the random scheduler; a
//! kernel runs [`RUNS`] seeds in `cargo xtask corpus` and [`TEST_RUNS`] in the `cargo xtask
//! test` stage, which must stay quick on two cores (the summary line says which).
//!
//! Only findings about what GPUVerify judges count: `data-race`, `barrier-divergence` and
//! `async-copy-divergence` (races not at all under `--only-divergence`). GPUVerify treats
//! pointers as unbounded arrays of arbitrary contents, so bounds and value findings (out of
//! bounds, null pointers, misalignment, uninitialised reads, division by zero, step limits,
//! deadlocks, ...) are artefacts of the concrete buffers and are ignored. A race the engine
//! marks benign (the racing writes store the same value) does not count either,
//! because GPUVerify tolerates benign races by default (not under `--no-benign`, nor under
//! `--adversarial-abstraction`, where it cannot know the values written); the board says how
//! many `//pass` kernels had one.
//!
//! - A kernel marked `//pass` was verified free of races and divergence for every input, so a
//!   counted finding in any run is a false positive.
//! - A kernel marked `//xfail:NOT_ALL_VERIFIED` counts for detection when its expectations
//!   mention a race or divergence (see [`expectation`]); it is detected when some run reports a
//!   counted finding, and stops at the end of that chunk, since more runs cannot change the
//!   verdict. Other `xfail` kernels (null pointers, bounds, assertions, no expectation at all)
//!   are excluded from both rates and listed, with what the engine found in them.
//! - A kernel the front end refuses, whose line 2 cannot be understood, which the engine cannot
//!   launch, or which a run stops as `unsupported` (so that only part of it was checked) is
//!   "not run", with the reason. A panic is reported the same way and fails the test stage.
//!
//! Launches are shrunk to what a simulator can run a hundred times: a work-group larger than
//! the engine's limit of 1024 work-items is halved until it fits, and then the number of groups
//! is halved until the launch has at most [`MAX_WORK_ITEMS`] work-items, keeping at least two
//! groups when there were several, so that races between groups stay possible. Each run stops
//! after [`MAX_STEPS`] steps. The board notes every kernel whose launch was changed.

use std::collections::BTreeSet;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use interleave_engine::explore::explore;
use interleave_engine::frontend;
use interleave_engine::report::FindingKind;
use interleave_engine::scenario::{ArgBinding, Dialect, ElemType, Scenario, SchedulerKind};
use serde_json::{json, Value};

/// Random-scheduler runs per kernel in `cargo xtask corpus`.
pub const RUNS: u64 = 100;

/// Runs per kernel in the `cargo xtask test` stage. A hundred take about four minutes on two
/// cores (one kernel of pure private arithmetic takes two of them); twenty keep the stage
/// within half a minute and still try four scalar values.
pub const TEST_RUNS: u64 = 20;

/// The most work-items a launch keeps after shrinking. GPUVerify's launches reach a million
/// work-items; the races its tests are about need two work-items of a group or two groups,
/// and 1024 keeps a hundred runs of the whole suite within minutes.
pub const MAX_WORK_ITEMS: u64 = 1024;

/// The engine's limit on the work-items of one work-group.
const MAX_GROUP_ITEMS: u64 = 1024;

/// Steps after which one run stops. A kernel that loops for longer under the concrete inputs is
/// still judged on what it did up to there.
const MAX_STEPS: u64 = 200_000;

/// Seeds are explored in chunks of this many, so a kernel whose finding is already counted
/// stops early: another run could not change its verdict.
const CHUNK: u64 = 5;

/// Flags of line 2 that do not change what a dynamic run checks, with why.
pub const IGNORED_FLAGS: [(&str, &str); 20] = [
    ("--no-inline", "inlining is a verifier transformation; the engine runs calls as written"),
    ("--equality-abstraction", "an abstraction of shared state for the prover; a run uses concrete values"),
    ("--array-equalities", "candidate invariants for the prover"),
    ("--check-array-bounds", "bounds are not judged by this board"),
    ("--clang-opt", "options for GPUVerify's compiler"),
    ("--vcgen-opt", "options for GPUVerify's verification-condition generator"),
    ("--boogie-opt", "options for GPUVerify's prover"),
    ("--debug", "GPUVerify's own debugging output"),
    ("--no-infer", "turns off GPUVerify's invariant inference"),
    ("--asymmetric-asserts", "a prover optimisation"),
    ("--silent", "GPUVerify's output"),
    ("--no-refined-atomics", "a coarser model of atomics for the prover; a verdict under it still holds"),
    ("--no-uniformity-analysis", "a static analysis that helps the prover, not what is checked"),
    ("--no-smart-predication", "how the verifier encodes control flow, not what is checked"),
    ("--no-loop-predicate-invariants", "candidate invariants for the prover"),
    ("--staged-inference", "how the prover infers invariants"),
    ("--infer-info", "GPUVerify's own debugging output"),
    ("--no-source-loc-infer", "GPUVerify's output"),
    ("--time", "GPUVerify's timing report"),
    ("--timeout", "GPUVerify's time limit; runs have their own step limit"),
];

/// A launch as line 2 gives it, before shrinking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flags {
    /// Work-items per group, per dimension (1 to 3 entries, padded with 1s to the rank of the
    /// launch).
    pub local: Vec<u64>,
    /// Work-groups per dimension, the same rank as `local`.
    pub groups: Vec<u64>,
    /// `--warp-sync=N`: GPUVerify assumes warps of N work-items in lockstep.
    pub warp_sync: Option<u32>,
    /// `--only-divergence`: GPUVerify checks barrier divergence, not races.
    pub only_divergence: bool,
    /// `--only-intra-group`: GPUVerify checks races inside a work-group only.
    pub only_intra_group: bool,
    /// `--no-benign` or `--adversarial-abstraction`: GPUVerify reports a race even when every
    /// racing write stores the value already there (with `--no-benign` it does not tolerate
    /// such races; under the adversarial abstraction it cannot know the values), so benign
    /// races count.
    pub benign_races_count: bool,
    /// The flags of [`IGNORED_FLAGS`] the line had.
    pub ignored: Vec<String>,
    /// `-D NAME[=VALUE]` (or `-DNAME[=VALUE]`): macros defined for the kernel's compilation.
    pub defines: Vec<String>,
    /// `--global_offset=N` or `[N,M]`: the NDRange's global offset.
    pub offset: Vec<u64>,
    /// `--kernel-args=K,v1,...,vn`: the values of kernel K's arguments in order, `*` for one
    /// left to the board's choice (GPUVerify's notation).
    pub kernel_args: Option<(String, Vec<String>)>,
}

/// `N`, `[N,M]` or `N,M` (GPUVerify's forms of a size vector).
fn parse_vector(text: &str) -> Result<Vec<u64>, String> {
    let inner = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or(text);
    let values: Vec<u64> = inner
        .split(',')
        .map(|v| v.trim().parse::<u64>().ok().filter(|&n| n > 0))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("`{text}` is not a size (N, [N,M] or [N,M,K] with positive N)"))?;
    if values.len() > 3 {
        return Err(format!("`{text}` has more than three dimensions"));
    }
    Ok(values)
}

/// Pads `v` with 1s to `rank` dimensions.
fn padded(mut v: Vec<u64>, rank: usize) -> Vec<u64> {
    v.resize(rank, 1);
    v
}

/// Reads GPUVerify's launch flags from a kernel's line 2, e.g. `//--local_size=64
/// --num_groups=4 --no-inline` or `//--blockDim=[16,16] --gridDim=2`.
///
/// `--local_size` and CUDA's `--blockDim` give the work-group; `--num_groups` and `--gridDim`
/// the number of groups; `--global_size` the total per dimension (a multiple of the group).
/// Sizes of different ranks are padded with 1s, as GPUVerify does. `-D` defines a macro,
/// `--global_offset` sets the offset and `--kernel-args` fixes arguments. The flags of
/// [`IGNORED_FLAGS`] are accepted and recorded; any other flag makes the launch not
/// understood, since it might change what is checked.
pub fn parse_flags(line: &str) -> Result<Flags, String> {
    let text = line.trim().strip_prefix("//").ok_or("line 2 is not a `//` comment")?;
    let mut local = None;
    let mut groups = None;
    let mut global = None;
    let mut flags = Flags {
        local: Vec::new(),
        groups: Vec::new(),
        warp_sync: None,
        only_divergence: false,
        only_intra_group: false,
        benign_races_count: false,
        ignored: Vec::new(),
        defines: Vec::new(),
        offset: Vec::new(),
        kernel_args: None,
    };
    let mut words = text.split_whitespace();
    while let Some(word) = words.next() {
        if let Some(define) = word.strip_prefix("-D") {
            // `-D NAME=1` or `-DNAME=1`, as a compiler takes it.
            let define = if define.is_empty() { words.next().ok_or("`-D` needs a macro")? } else { define };
            flags.defines.push(define.to_string());
            continue;
        }
        let (name, value) = match word.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (word, None),
        };
        let size = || parse_vector(value.ok_or_else(|| format!("`{name}` needs a value"))?);
        match name {
            "--local_size" | "--blockDim" => local = Some(size()?),
            "--num_groups" | "--gridDim" => groups = Some(size()?),
            "--global_size" => global = Some(size()?),
            "--warp-sync" => {
                let n = value.map_or(Ok(32), |v| v.parse::<u32>().map_err(|_| format!("`{word}` is not a warp size")))?;
                flags.warp_sync = Some(n);
            }
            "--global_offset" => {
                // An offset may be 0, which `parse_vector` (for sizes) refuses.
                let inner = value.ok_or("`--global_offset` needs a value")?;
                let inner = inner.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or(inner);
                flags.offset = inner.split(',').map(|v| v.trim().parse::<u64>().map_err(|_| format!("`{word}` is not an offset"))).collect::<Result<_, _>>()?;
            }
            "--kernel-args" => {
                let list = value.ok_or("`--kernel-args` needs a kernel and its arguments")?;
                let mut parts = list.split(',').map(str::to_string);
                let kernel = parts.next().filter(|k| !k.is_empty()).ok_or("`--kernel-args` needs a kernel name")?;
                flags.kernel_args = Some((kernel, parts.collect()));
            }
            "--only-divergence" => flags.only_divergence = true,
            "--no-benign" | "--adversarial-abstraction" => flags.benign_races_count = true,
            "--only-intra-group" => flags.only_intra_group = true,
            _ if IGNORED_FLAGS.iter().any(|(ignored, _)| *ignored == name) => flags.ignored.push(name.to_string()),
            _ => return Err(format!("unknown flag `{word}`")),
        }
    }
    let local = local.ok_or("no work-group size (`--local_size` or `--blockDim`)")?;
    let groups = match (groups, global) {
        (Some(groups), None) => groups,
        (None, Some(global)) => {
            let rank = global.len().max(local.len());
            let (global, local) = (padded(global, rank), padded(local.clone(), rank));
            if global.iter().zip(&local).any(|(g, l)| g % l != 0) {
                return Err(format!("the global size {global:?} is not a multiple of the group size {local:?}"));
            }
            global.iter().zip(&local).map(|(g, l)| g / l).collect()
        }
        (Some(_), Some(_)) => return Err("both `--num_groups` and `--global_size` are given".into()),
        (None, None) => return Err("no number of groups (`--num_groups`, `--gridDim` or `--global_size`)".into()),
    };
    let rank = local.len().max(groups.len());
    flags.local = padded(local, rank);
    flags.groups = padded(groups, rank);
    Ok(flags)
}

/// The launch a kernel runs with: `flags` shrunk as the module documentation says, with a note
/// for every change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fitted {
    pub local: Vec<u64>,
    pub groups: Vec<u64>,
    pub notes: Vec<String>,
}

impl Fitted {
    pub fn global(&self) -> Vec<u64> {
        self.local.iter().zip(&self.groups).map(|(l, g)| l * g).collect()
    }
}

/// Halves the largest entry of `v` (rounding up) until `fits` holds or every entry is 1.
fn halve_until(v: &mut [u64], fits: impl Fn(&[u64]) -> bool) {
    while !fits(v) {
        let Some(largest) = v.iter_mut().max_by_key(|x| **x).filter(|x| **x > 1) else {
            return;
        };
        *largest = largest.div_ceil(2);
    }
}

/// Shrinks a launch to the engine's group limit and [`MAX_WORK_ITEMS`] (see the module
/// documentation), with a note for each change; under `--only-intra-group` it keeps one group.
pub fn fit(flags: &Flags) -> Fitted {
    let mut notes = Vec::new();
    let mut local = flags.local.clone();
    halve_until(&mut local, |l| l.iter().product::<u64>() <= MAX_GROUP_ITEMS);
    if local != flags.local {
        notes.push(format!("work-group {:?} shrunk to {local:?} (the engine's limit is {MAX_GROUP_ITEMS} work-items)", flags.local));
    }
    let mut groups = flags.groups.clone();
    if flags.only_intra_group {
        // GPUVerify then ignores races between groups; one group has none to report.
        groups.iter_mut().for_each(|g| *g = 1);
    } else {
        let group_items: u64 = local.iter().product();
        let at_least: u64 = if flags.groups.iter().product::<u64>() > 1 { 2 } else { 1 };
        halve_until(&mut groups, |g| {
            let n: u64 = g.iter().product();
            n * group_items <= MAX_WORK_ITEMS || n <= at_least
        });
        if groups != flags.groups {
            notes.push(format!("groups {:?} shrunk to {groups:?} (at most {MAX_WORK_ITEMS} work-items)", flags.groups));
        }
    }
    Fitted { local, groups, notes }
}

/// What line 1 and the expectation lines say about a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// `//pass`: no race and no divergence for any input.
    Pass,
    /// `//xfail` with an expectation that mentions a race or divergence.
    Flagged,
    /// Neither: excluded from both rates, with why.
    Excluded(String),
}

/// Whether an expectation line is about a race or divergence: it names a race (`race`,
/// `racy`, `write-write race`, ...), divergence or non-uniform control flow, or it is a line of
/// GPUVerify's race report (`Write by work item ...`, `Read by work item ...`).
fn mentions_race_or_divergence(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let mut words = lower.split(|c: char| !c.is_ascii_alphanumeric());
    words.any(|w| w.starts_with("race") || w == "racy" || w.starts_with("divergen"))
        || lower.contains("non-uniform control flow")
        || lower.contains("write by work item")
        || lower.contains("read by work item")
}

/// The verdict of line 1 and, for `xfail` kernels, whether the expectations mention a race or
/// divergence. The expectations are read as GPUVerify's test runner reads them: the `//` lines
/// from line 3 on, up to the first line that is not one (a blank line ends them, so a prose
/// comment after a blank line is not an expectation).
pub fn expectation(source: &str) -> Expectation {
    let mut lines = source.lines();
    let first = lines.next().unwrap_or_default().trim().to_ascii_lowercase();
    if first == "//pass" {
        return Expectation::Pass;
    }
    if !first.starts_with("//xfail") {
        return Expectation::Excluded(format!("line 1 is `{first}`, neither //pass nor //xfail"));
    }
    let expectations: Vec<&str> = lines.skip(1).map_while(|l| l.trim().strip_prefix("//")).collect();
    if expectations.iter().any(|l| mentions_race_or_divergence(l)) {
        Expectation::Flagged
    } else if let Some(first) = expectations.iter().find(|l| !l.trim().is_empty()) {
        Expectation::Excluded(format!("expects `{}`", first.trim()))
    } else {
        Expectation::Excluded("no expectation lines".into())
    }
}

/// The integer values scalar parameters take in turn, one per chunk of [`CHUNK`] seeds
/// (`None` stands for the work-group's first dimension). GPUVerify proves a `//pass` kernel for
/// every value, so each is fair there; an `xfail` kernel's race may need a particular one: an
/// offset of 1 (`A[tid + offset]`), an index of 0 that meets another work-item's `p[0]`, or a
/// count as large as the group. The most telling come first, since the test stage's runs try
/// only the first four.
const INT_VALUES: [Option<u64>; 5] = [Some(1), Some(0), None, Some(2), Some(3)];

/// The value of a scalar parameter of type `ty` in chunk `chunk`: the integers of
/// [`INT_VALUES`] in turn (a `char` at most 64, which any char holds), `bool` alternating 1
/// and 0, and floats 1.0, 0.0 and 0.5 in turn.
pub fn scalar_value(ty: ElemType, local_x: u64, chunk: usize) -> String {
    match ty {
        ElemType::Bool => ["1", "0"][chunk % 2].into(),
        ElemType::Float | ElemType::Double => ["1.0", "0.0", "0.5"][chunk % 3].into(),
        _ => {
            let v = INT_VALUES[chunk % INT_VALUES.len()].unwrap_or(local_x);
            if matches!(ty, ElemType::Char | ElemType::UChar) { v.min(64) } else { v }.to_string()
        }
    }
}

/// A counted finding, with the first seed that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reported {
    pub kind: String,
    pub line: u32,
    pub column: u32,
    /// The first line of the finding's message.
    pub message: String,
    pub seed: u64,
    /// The scalar arguments of that run (`n=0 x=0`), empty when the kernel has none.
    pub scalars: String,
    /// In how many runs it appeared.
    pub runs: u64,
}

/// What happened when a kernel ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Refused by the front end, launch not understood, not launched, stopped as unsupported,
    /// or the engine panicked.
    NotRun(String),
    Ran {
        /// How many seeds ran (fewer than asked when a counted finding stopped it early).
        runs: u64,
        /// The counted findings (races and divergence), one per kind and source position, as
        /// `explore` deduplicates them.
        counted: Vec<Reported>,
        /// How many benign races were seen (not counted), by source line.
        benign: usize,
        /// Every other finding kind seen (ignored by the rates).
        ignored: BTreeSet<String>,
    },
}

/// One kernel of the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GvResult {
    /// Relative to the corpus folder.
    pub path: String,
    pub expectation: Expectation,
    /// How the launch was shrunk to fit (empty when it runs at the size line 2 says).
    pub shrunk: Vec<String>,
    /// How the run differs from GPUVerify's check otherwise (`--warp-sync`,
    /// `--only-intra-group`).
    pub notes: Vec<String>,
    pub outcome: Outcome,
}

impl GvResult {
    fn counted(&self) -> Option<&[Reported]> {
        match &self.outcome {
            Outcome::Ran { counted, .. } => Some(counted),
            Outcome::NotRun(_) => None,
        }
    }

    /// A `//pass` kernel that ran and reported a race or divergence.
    pub fn false_positive(&self) -> bool {
        self.expectation == Expectation::Pass && self.counted().is_some_and(|c| !c.is_empty())
    }

    /// A counted `xfail` kernel that ran and reported nothing counted.
    pub fn missed(&self) -> bool {
        self.expectation == Expectation::Flagged && self.counted().is_some_and(|c| c.is_empty())
    }

    pub fn panicked(&self) -> bool {
        matches!(&self.outcome, Outcome::NotRun(why) if why.starts_with(crate::corpus::PANIC_CODE))
    }
}

/// Whether a finding counts, given the launch flags.
fn counts(kind: FindingKind, flags: &Flags) -> bool {
    match kind {
        FindingKind::DataRace => !flags.only_divergence,
        FindingKind::BarrierDivergence | FindingKind::AsyncCopyDivergence => true,
        _ => false,
    }
}

/// Runs one kernel for up to `runs` seeds.
fn run_kernel(
    source: &str,
    dialect: Dialect,
    file_name: &str,
    expectation: &Expectation,
    runs: u64,
    shrunk: &mut Vec<String>,
    notes: &mut Vec<String>,
) -> Outcome {
    let line2 = source.lines().nth(1).unwrap_or_default();
    let flags = match parse_flags(line2) {
        Ok(flags) => flags,
        Err(why) => return Outcome::NotRun(format!("launch not understood: {why}")),
    };
    let kernels = match frontend::kernels(source, dialect, &flags.defines) {
        Ok(kernels) => kernels,
        Err(diagnostics) => {
            let why = diagnostics.first().map_or_else(|| "refused without a diagnostic".to_string(), |d| format!("{}: {}", d.code, d.message));
            return Outcome::NotRun(format!("refused: {why}"));
        }
    };
    let fitted = fit(&flags);
    shrunk.clone_from(&fitted.notes);
    if flags.only_intra_group {
        notes.push("one work-group (--only-intra-group: GPUVerify checks races within a group only)".into());
    }
    if let Some(n) = flags.warp_sync {
        notes.push(format!("warps of {n} (--warp-sync): run under the lockstep scheduler, whose lanes of one instruction are ordered, as GPUVerify assumes"));
    }
    let mut counted: Vec<Reported> = Vec::new();
    let mut benign = BTreeSet::new();
    let mut ignored = BTreeSet::new();
    let mut ran = 0;
    // A source with several kernels is checked kernel by kernel, as GPUVerify does.
    for kernel in &kernels {
        let mut scenario = Scenario::new(source, file_name, dialect);
        scenario.kernel = Some(kernel.name.clone());
        scenario.defines.clone_from(&flags.defines);
        scenario.launch.offset.clone_from(&flags.offset);
        scenario.launch.global = fitted.global();
        scenario.launch.local = Some(fitted.local.clone());
        scenario.scheduler = SchedulerKind::Random;
        scenario.max_steps = MAX_STEPS;
        // GPUVerify's warp-synchronous assumption is the engine's lockstep scheduler: the
        // lanes of a warp execute each instruction together, ordered with each other.
        if let Some(n) = flags.warp_sync {
            scenario.warp_size = n;
            scenario.scheduler = SchedulerKind::Lockstep;
        }
        // `--kernel-args` fixes some arguments of its kernel, by position.
        let given: &[String] = match &flags.kernel_args {
            Some((name, values)) if *name == kernel.name => values,
            _ => &[],
        };
        let scalars: Vec<(&str, ElemType, Option<&str>)> = kernel
            .params
            .iter()
            .enumerate()
            // Pointers and by-value structs get the engine's seeded defaults.
            .filter(|(_, p)| p.address_space == "private")
            .filter_map(|(i, p)| {
                let fixed = given.get(i).map(String::as_str).filter(|v| *v != "*");
                Some((p.name.as_str(), ElemType::parse(&p.ty)?, fixed))
            })
            .collect();
        let mut first_seed = 0;
        while first_seed < runs {
            let chunk = CHUNK.min(runs - first_seed);
            let index = (first_seed / CHUNK) as usize;
            scenario.args.clear();
            let mut shown = Vec::new();
            for &(name, ty, fixed) in &scalars {
                let value = fixed.map_or_else(|| scalar_value(ty, fitted.local[0], index), str::to_string);
                let text = format!("{name}={}:{value}", ty.name());
                match ArgBinding::parse(&text) {
                    Ok(binding) => scenario.args.push(binding),
                    Err(d) => return Outcome::NotRun(format!("argument `{text}`: {}", d.message)),
                }
                if let Some((_, value)) = text.rsplit_once(':') {
                    shown.push(format!("{name}={value}"));
                }
            }
            for seed in first_seed..first_seed + chunk {
                // One seed per call, so that a finding is counted once per run in which it
                // appears (`explore` counts appearances, and a run can report one position
                // twice, for two racing partners).
                let exploration = match explore(&scenario, seed, 1) {
                    Ok(e) => e,
                    Err(diagnostics) => {
                        let why = diagnostics.first().map_or_else(String::new, |d| format!("{}: {}", d.code, d.message));
                        return Outcome::NotRun(format!("not launched: {why}"));
                    }
                };
                for seeded in exploration.findings {
                    let f = &seeded.finding;
                    if f.kind == FindingKind::Unsupported {
                        // The engine stopped a work-item it could not execute, so the runs
                        // check only part of the kernel and no verdict would be fair.
                        let message = f.message.lines().next().unwrap_or_default();
                        return Outcome::NotRun(format!("stopped by the engine: {message}"));
                    }
                    if counts(f.kind, &flags) && (!f.benign || flags.benign_races_count) {
                        match counted.iter_mut().find(|r| r.kind == f.kind.as_str() && (r.line, r.column) == (f.line, f.column)) {
                            Some(r) => r.runs += 1,
                            None => counted.push(Reported {
                                kind: f.kind.as_str().to_string(),
                                line: f.line,
                                column: f.column,
                                message: f.message.lines().next().unwrap_or_default().to_string(),
                                seed,
                                scalars: shown.join(" "),
                                runs: 1,
                            }),
                        }
                    } else if f.kind == FindingKind::DataRace && f.benign {
                        benign.insert(f.line);
                    } else if f.kind == FindingKind::DataRace {
                        ignored.insert("data-race (--only-divergence)".to_string());
                    } else {
                        ignored.insert(f.kind.as_str().to_string());
                    }
                }
            }
            first_seed += chunk;
            ran = ran.max(first_seed);
            // Only a `//pass` kernel needs every run: for the others the verdict is settled by
            // the first counted finding.
            if !counted.is_empty() && *expectation != Expectation::Pass {
                break;
            }
        }
    }
    Outcome::Ran { runs: ran, counted, benign: benign.len(), ignored }
}

/// Runs every kernel in `files` (paths under `dir`) for `runs` seeds, on as many threads as the
/// machine has cores; the results come back in the order of `files`.
pub fn gpuverify_detection(dir: &Path, files: Vec<PathBuf>, runs: u64) -> Vec<GvResult> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GvResult>>> = Mutex::new(vec![None; files.len()]);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(index) else { break };
                let result = one_file(dir, file, runs);
                results.lock().unwrap_or_else(|p| p.into_inner())[index] = Some(result);
            });
        }
    });
    results.into_inner().unwrap_or_else(|p| p.into_inner()).into_iter().flatten().collect()
}

fn one_file(dir: &Path, file: &Path, runs: u64) -> GvResult {
    let path = file.strip_prefix(dir).unwrap_or(file).to_string_lossy().replace('\\', "/");
    let source = match std::fs::read(file).map(String::from_utf8) {
        Ok(Ok(source)) => source,
        Ok(Err(_)) => {
            return GvResult {
                path,
                expectation: Expectation::Excluded("not UTF-8".into()),
                shrunk: Vec::new(),
                notes: Vec::new(),
                outcome: Outcome::NotRun("not UTF-8 text".into()),
            }
        }
        Err(e) => {
            return GvResult {
                path,
                expectation: Expectation::Excluded("unreadable".into()),
                shrunk: Vec::new(),
                notes: Vec::new(),
                outcome: Outcome::NotRun(e.to_string()),
            }
        }
    };
    let expectation = expectation(&source);
    let dialect = if path.ends_with(".cu") { Dialect::Cuda } else { Dialect::OpenCl };
    let file_name = file.file_name().map_or_else(|| "kernel.cl".to_string(), |n| n.to_string_lossy().into_owned());
    let (mut shrunk, mut notes) = (Vec::new(), Vec::new());
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| run_kernel(&source, dialect, &file_name, &expectation, runs, &mut shrunk, &mut notes)))
        .unwrap_or_else(|payload| Outcome::NotRun(crate::corpus::panic_message(payload.as_ref())));
    GvResult { path, expectation, shrunk, notes, outcome }
}

/// The counts both rates come from.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// `//pass` kernels that ran, and those of them with a counted finding.
    pub pass_ran: usize,
    pub false_positives: usize,
    /// `xfail` kernels expecting a race or divergence that ran, and those of them detected.
    pub flagged_ran: usize,
    pub detected: usize,
    /// Kernels not run, whatever their verdict.
    pub not_run: usize,
    /// `xfail` kernels that ran but whose expectations are about something else.
    pub excluded: usize,
    /// `//pass` kernels with a benign race (not counted).
    pub benign: usize,
}

/// Counts `results` for the two rates.
pub fn totals(results: &[GvResult]) -> Totals {
    let mut t = Totals::default();
    for r in results {
        match (&r.expectation, &r.outcome) {
            (_, Outcome::NotRun(_)) => t.not_run += 1,
            (Expectation::Pass, Outcome::Ran { counted, benign, .. }) => {
                t.pass_ran += 1;
                t.false_positives += usize::from(!counted.is_empty());
                t.benign += usize::from(*benign > 0);
            }
            (Expectation::Flagged, Outcome::Ran { counted, .. }) => {
                t.flagged_ran += 1;
                t.detected += usize::from(!counted.is_empty());
            }
            (Expectation::Excluded(_), Outcome::Ran { .. }) => t.excluded += 1,
        }
    }
    t
}

fn percent(n: usize, total: usize) -> String {
    if total == 0 {
        "-".into()
    } else {
        format!("{:.1}%", n as f64 * 100.0 / total as f64)
    }
}

/// The board as text. The short form (the test stage) is the summary line alone.
pub fn render(results: &[GvResult], runs: u64, short: bool) -> String {
    let t = totals(results);
    let mut out = String::new();
    if !short {
        out.push_str(&format!("gpuverify detection ({runs} random-scheduler runs per kernel; races and divergence only):\n"));
        let mut section = |title: String, lines: Vec<String>| {
            out.push_str(&format!("  {title}\n"));
            for line in lines {
                out.push_str(&format!("    {line}\n"));
            }
        };
        let fp: Vec<String> =
            results
                .iter()
                .filter(|r| r.false_positive())
                .flat_map(|r| {
                    let counted = r.counted().unwrap_or_default();
                    std::iter::once(r.path.clone())
                        .chain(counted.iter().map(|c| {
                            format!("  {} at {}:{} ({}; in {} of {} runs): {}", c.kind, c.line, c.column, reproduce(c), c.runs, runs_of(r), c.message)
                        }))
                        .chain(r.notes.iter().map(|n| format!("  note: {n}")))
                        .collect::<Vec<_>>()
                })
                .collect();
        section(format!("false positives: {} of {} //pass kernels", t.false_positives, t.pass_ran), fp);
        let missed: Vec<String> = results
            .iter()
            .filter(|r| r.missed())
            .map(|r| match &r.outcome {
                Outcome::Ran { ignored, benign, .. } if !ignored.is_empty() || *benign > 0 => {
                    let mut seen: Vec<String> = ignored.iter().cloned().collect();
                    if *benign > 0 {
                        seen.insert(0, "benign data-race".into());
                    }
                    format!("{} (only {})", r.path, seen.join(", "))
                }
                _ => r.path.clone(),
            })
            .collect();
        section(format!("misses: {} of {} //xfail kernels expecting a race or divergence", t.flagged_ran - t.detected, t.flagged_ran), missed);
        // The first counted finding of each detected kernel, so a detection for the wrong
        // reason (another race than the one GPUVerify names) can be spotted.
        let detected: Vec<String> = results
            .iter()
            .filter(|r| r.expectation == Expectation::Flagged)
            .filter_map(|r| {
                let c = r.counted()?.first()?;
                Some(format!("{}: {} at {}:{} ({})", r.path, c.kind, c.line, c.column, reproduce(c)))
            })
            .collect();
        section(format!("detected: {}", t.detected), detected);
        let not_run: Vec<String> = results
            .iter()
            .filter_map(|r| match &r.outcome {
                Outcome::NotRun(why) => Some(format!("{}: {why}", r.path)),
                Outcome::Ran { .. } => None,
            })
            .collect();
        section(format!("not run: {}", t.not_run), not_run);
        let excluded: Vec<String> = results
            .iter()
            .filter_map(|r| match (&r.expectation, &r.outcome) {
                (Expectation::Excluded(why), Outcome::Ran { counted, .. }) => {
                    let found = if counted.is_empty() { String::new() } else { format!(" (the engine reports {})", kinds(counted)) };
                    Some(format!("{}: {why}{found}", r.path))
                }
                _ => None,
            })
            .collect();
        section(format!("excluded //xfail kernels (expectations mention no race or divergence): {}", t.excluded), excluded);
        let notes: Vec<String> = results.iter().filter(|r| !r.notes.is_empty()).map(|r| format!("{}: {}", r.path, r.notes.join("; "))).collect();
        section(format!("run differently from GPUVerify: {}", notes.len()), notes);
        // Shrunk launches are many and alike; the JSON output lists each.
        let shrunk = results.iter().filter(|r| !r.shrunk.is_empty()).count();
        out.push_str(&format!("  launches shrunk to at most {MAX_WORK_ITEMS} work-items: {shrunk} (each in --json)\n"));
    }
    out.push_str(&format!(
        "corpus gpuverify ({runs} runs per kernel): false positives {} of {} //pass kernels ({}); detected {} of {} //xfail races or divergence ({}); {} not run; {} //xfail excluded; benign races (not counted) in {} //pass kernels\n",
        t.false_positives,
        t.pass_ran,
        percent(t.false_positives, t.pass_ran),
        t.detected,
        t.flagged_ran,
        percent(t.detected, t.flagged_ran),
        t.not_run,
        t.excluded,
        t.benign,
    ));
    out
}

/// How many runs a kernel had.
fn runs_of(r: &GvResult) -> u64 {
    match &r.outcome {
        Outcome::Ran { runs, .. } => *runs,
        Outcome::NotRun(_) => 0,
    }
}

/// How to reproduce a counted finding: its seed and scalar arguments.
fn reproduce(c: &Reported) -> String {
    if c.scalars.is_empty() {
        format!("seed {}", c.seed)
    } else {
        format!("seed {}, {}", c.seed, c.scalars)
    }
}

/// The distinct kinds of `reported`, comma-separated.
fn kinds(reported: &[Reported]) -> String {
    let kinds: BTreeSet<&str> = reported.iter().map(|r| r.kind.as_str()).collect();
    kinds.into_iter().collect::<Vec<_>>().join(", ")
}

/// The board as JSON: the totals and every kernel's outcome.
pub fn to_json(results: &[GvResult], runs: u64) -> Value {
    let t = totals(results);
    json!({
        "runs_per_kernel": runs,
        "pass_kernels_run": t.pass_ran,
        "false_positives": t.false_positives,
        "flagged_kernels_run": t.flagged_ran,
        "detected": t.detected,
        "not_run": t.not_run,
        "excluded": t.excluded,
        "results": results.iter().map(|r| {
            let expectation = match &r.expectation {
                Expectation::Pass => json!("pass"),
                Expectation::Flagged => json!("race-or-divergence"),
                Expectation::Excluded(why) => json!({ "excluded": why }),
            };
            let mut value = json!({ "path": r.path, "expectation": expectation, "shrunk": r.shrunk, "notes": r.notes });
            match &r.outcome {
                Outcome::NotRun(why) => value["not_run"] = json!(why),
                Outcome::Ran { runs, counted, benign, ignored } => {
                    value["runs"] = json!(runs);
                    value["counted"] = counted.iter().map(|c| json!({ "kind": c.kind, "line": c.line, "column": c.column, "seed": c.seed, "scalars": c.scalars, "runs": c.runs, "message": c.message })).collect();
                    value["benign_races"] = json!(benign);
                    value["ignored_kinds"] = json!(ignored);
                }
            }
            value
        }).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(line: &str) -> (Vec<u64>, Vec<u64>) {
        let f = parse_flags(line).unwrap();
        (f.local, f.groups)
    }

    #[test]
    fn opencl_and_cuda_launch_lines_parse() {
        assert_eq!(flags("//--local_size=64 --num_groups=4 --no-inline"), (vec![64], vec![4]));
        assert_eq!(flags("//--blockDim=32 --gridDim=2"), (vec![32], vec![2]));
        assert_eq!(flags("//--gridDim=1 --blockDim=2 --no-inline"), (vec![2], vec![1]));
        assert_eq!(flags("//--local_size=[64,64] --num_groups=[64,64] --no-inline"), (vec![64, 64], vec![64, 64]));
        assert_eq!(flags("//--local_size=64 --global_size=256"), (vec![64], vec![4]));
        assert_eq!(flags("//--local_size=[64,64] --global_size=[256,256]"), (vec![64, 64], vec![4, 4]));
        assert_eq!(flags("//--local_size=1,10 --num_groups=1,10 --check-array-bounds"), (vec![1, 10], vec![1, 10]));
        // Sizes of different ranks are padded with 1s.
        assert_eq!(flags("//--local_size=[10,10,10] --num_groups=2 --check-array-bounds"), (vec![10, 10, 10], vec![2, 1, 1]));
        assert_eq!(flags("//--no-infer --local_size=16 --num_groups=16"), (vec![16], vec![16]));
    }

    #[test]
    fn flags_that_change_the_check_are_kept_and_others_ignored() {
        let f = parse_flags("//--local_size=1024 --num_groups=1 --warp-sync=16 --no-inline").unwrap();
        assert_eq!(f.warp_sync, Some(16));
        assert_eq!(f.ignored, vec!["--no-inline"]);
        assert!(parse_flags("//--local_size=1024 --global_size=1024 --only-divergence").unwrap().only_divergence);
        assert!(parse_flags("//--local_size=64 --num_groups=12 --no-inline --only-intra-group").unwrap().only_intra_group);
        for flag in ["--no-benign", "--adversarial-abstraction"] {
            let f = parse_flags(&format!("//--local_size=64 --num_groups=1 {flag}")).unwrap();
            assert!(f.benign_races_count && f.ignored.is_empty(), "{flag}");
        }
        assert!(!parse_flags("//--local_size=64 --num_groups=1").unwrap().benign_races_count);
        let f = parse_flags("//--local_size=256 --num_groups=2 --vcgen-opt=/checkArrays:A,B,C").unwrap();
        assert_eq!(f.ignored, vec!["--vcgen-opt"]);
    }

    #[test]
    fn defines_offsets_and_kernel_arguments_are_kept() {
        let f = parse_flags("//--local_size=8 --num_groups=2 -DN=4 -D WIDTH --global_offset=[3,0] --kernel-args=foo,*,7").unwrap();
        assert_eq!(f.defines, vec!["N=4", "WIDTH"]);
        assert_eq!(f.offset, vec![3, 0]);
        assert_eq!(f.kernel_args, Some(("foo".to_string(), vec!["*".to_string(), "7".to_string()])));
        assert!(parse_flags("//--local_size=8 --num_groups=2 -D").unwrap_err().contains("-D"));
        assert!(parse_flags("//--local_size=8 --num_groups=2 --kernel-args=").unwrap_err().contains("kernel name"));
        assert!(parse_flags("//--local_size=8 --num_groups=2 --global_offset=x").unwrap_err().contains("offset"));
    }

    #[test]
    fn launches_that_cannot_be_understood_say_why() {
        assert!(parse_flags("--local_size=64 --num_groups=4").unwrap_err().contains("comment"));
        assert!(parse_flags("//--num_groups=4").unwrap_err().contains("work-group size"));
        assert!(parse_flags("//--local_size=64").unwrap_err().contains("number of groups"));
        assert!(parse_flags("//--local_size=64 --global_size=100").unwrap_err().contains("multiple"));
        assert!(parse_flags("//--local_size=0 --num_groups=1").unwrap_err().contains("not a size"));
        assert!(parse_flags("//--local_size=[1,2,3,4] --num_groups=1").unwrap_err().contains("three"));
        assert!(parse_flags("//--local_size=8 --num_groups=1 --loop-unwind=3").unwrap_err().contains("unknown flag"));
    }

    #[test]
    fn big_launches_shrink_to_the_limits() {
        let shrunk = |line: &str| {
            let fitted = fit(&parse_flags(line).unwrap());
            (fitted.local, fitted.groups)
        };
        assert_eq!(shrunk("//--local_size=64 --num_groups=64 --no-inline"), (vec![64], vec![16]));
        // Two groups stay, so that races between groups can still happen.
        assert_eq!(shrunk("//--local_size=1024 --num_groups=1024"), (vec![1024], vec![2]));
        assert_eq!(shrunk("//--blockDim=2048 --gridDim=64"), (vec![1024], vec![2]));
        assert_eq!(shrunk("//--local_size=[64,64] --num_groups=[64,64]"), (vec![32, 32], vec![2, 1]));
        assert_eq!(shrunk("//--local_size=1024 --num_groups=1"), (vec![1024], vec![1]));
        assert_eq!(shrunk("//--local_size=64 --num_groups=12 --only-intra-group"), (vec![64], vec![1]));
        let fitted = fit(&parse_flags("//--blockDim=2048 --gridDim=64").unwrap());
        assert_eq!(fitted.notes.len(), 2, "{:?}", fitted.notes);
        let fitted = fit(&parse_flags("//--local_size=2 --num_groups=5").unwrap());
        assert_eq!((fitted.global(), fitted.notes.is_empty()), (vec![10], true));
    }

    #[test]
    fn scalars_cycle_through_small_values() {
        let ints: Vec<String> = (0..6).map(|chunk| scalar_value(ElemType::Int, 64, chunk)).collect();
        assert_eq!(ints, vec!["1", "0", "64", "2", "3", "1"]);
        assert_eq!(scalar_value(ElemType::UChar, 1024, 2), "64");
        assert_eq!(scalar_value(ElemType::Float, 64, 1), "0.0");
        assert_eq!(scalar_value(ElemType::Bool, 64, 0), "1");
        // Every value is one the argument syntax takes for its type.
        for ty in ElemType::ALL {
            for chunk in 0..5 {
                let text = format!("x={}:{}", ty.name(), scalar_value(ty, 1024, chunk));
                assert!(ArgBinding::parse(&text).is_ok(), "{text}");
            }
        }
    }

    fn ran(expectation: Expectation, counted: usize) -> GvResult {
        let reported = Reported { kind: "data-race".into(), line: 3, column: 1, message: "data race".into(), seed: 4, scalars: "n=0".into(), runs: 2 };
        GvResult {
            path: "gpuverify/k/kernel.cl".into(),
            expectation,
            shrunk: Vec::new(),
            notes: vec!["a note".into()],
            outcome: Outcome::Ran { runs: 10, counted: vec![reported; counted], benign: 0, ignored: BTreeSet::new() },
        }
    }

    #[test]
    fn the_board_counts_both_rates_and_lists_the_offenders() {
        let results = vec![
            ran(Expectation::Pass, 0),
            ran(Expectation::Pass, 1),
            ran(Expectation::Flagged, 1),
            ran(Expectation::Flagged, 0),
            ran(Expectation::Excluded("no expectation lines".into()), 0),
            GvResult {
                path: "gpuverify/p/kernel.cl".into(),
                expectation: Expectation::Pass,
                shrunk: Vec::new(),
                notes: Vec::new(),
                outcome: Outcome::NotRun(format!("{}: boom", crate::corpus::PANIC_CODE)),
            },
        ];
        let t = totals(&results);
        assert_eq!((t.pass_ran, t.false_positives, t.flagged_ran, t.detected, t.not_run, t.excluded), (2, 1, 2, 1, 1, 1));
        assert!(results[5].panicked() && !results[0].panicked());
        let text = render(&results, 10, false);
        assert!(text.contains("data-race at 3:1 (seed 4, n=0; in 2 of 10 runs): data race"), "{text}");
        assert!(text.contains("boom"), "{text}");
        assert!(text.contains("  note: a note"), "{text}");
        let short = render(&results, 10, true);
        assert_eq!(short.lines().count(), 1, "{short}");
        assert!(short.contains("false positives 1 of 2 //pass kernels (50.0%); detected 1 of 2"), "{short}");
        let json = to_json(&results, 10);
        assert_eq!(json["false_positives"], 1);
        assert_eq!(json["results"][1]["counted"][0]["seed"], 4);
    }

    #[test]
    fn expectations_decide_which_xfail_kernels_count() {
        assert_eq!(expectation("//pass\n//--local_size=8 --num_groups=1\n"), Expectation::Pass);
        assert_eq!(expectation("//PASS\n//--local_size=8 --num_groups=1\n"), Expectation::Pass);
        let flagged = |third: &str| expectation(&format!("//xfail:NOT_ALL_VERIFIED\n//--local_size=8 --num_groups=1\n{third}\nkernel void k() {{}}\n"));
        assert_eq!(flagged("//kernel.cl: error: possible write-write race on p\\[0]"), Expectation::Flagged);
        assert_eq!(flagged("//kernel.cl:13:5: error: barrier may be reached by non-uniform control flow"), Expectation::Flagged);
        assert_eq!(flagged("//This kernel is racy."), Expectation::Flagged);
        assert_eq!(flagged("//Write by work item 0 with local id 0 in work group 0"), Expectation::Flagged);
        assert!(matches!(flagged("//error: possible null pointer access for work item"), Expectation::Excluded(_)));
        assert!(matches!(flagged("//this assertion might not hold for work item"), Expectation::Excluded(_)));
        assert_eq!(flagged(""), Expectation::Excluded("no expectation lines".into()));
        // Words that merely contain the letters do not count.
        assert!(matches!(flagged("//trace and brace"), Expectation::Excluded(_)));
    }
}
