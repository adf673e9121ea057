//! From the launch panel's text to a [`Scenario`].
//!
//! Each field is checked on its own so that the panel can flag exactly the field that is
//! wrong. Only the shape of the input is checked here (numbers, dimensions, the argument
//! syntax, which the engine's own parser decides); whether the launch suits the kernel is the
//! engine's call, reported as diagnostics when the session is created.
//!
//! The dialect follows the text: a litmus test (its first word is `OPENCL` or `PTX`) places its own
//! threads, so the NDRange and arguments are neither checked nor used for it. Otherwise the
//! panel's dialect decides: an OpenCL NDRange (global, local, offset) or a CUDA grid of
//! blocks, whose global size is grid x block per dimension, as the CLI's `--grid`/`--block`.
//!
//! The kernel's signature (read by the engine's front end) lays out the argument table
//! (`crate::args`); a source that does not compile yet keeps the rows the user had, and the
//! form says why the parameters are unknown.

use std::rc::Rc;

use interleave_engine::diag::{Diagnostic, LineIndex};
use interleave_engine::frontend::{self, KernelSignature};
use interleave_engine::limits::{self, Limit};
use interleave_engine::litmus::{self, LitmusTest};
use interleave_engine::scenario::{self, Dialect, Launch, Scenario};

use crate::args::{self, Sizes, Table};
use crate::inputs::{set_limit, Inputs, LIMITS};

/// The name diagnostics give the editor's text.
pub const FILE_NAME: &str = "kernel.cl";
/// The name diagnostics give the editor's text when it is a litmus test.
pub const LITMUS_FILE_NAME: &str = "test.litmus";

/// The name diagnostics give the editor's text.
pub fn file_name(litmus: bool) -> &'static str {
    if litmus {
        LITMUS_FILE_NAME
    } else {
        FILE_NAME
    }
}

/// Whether `source` is a litmus test of either dialect: the engine's
/// [`litmus::dialect`] decides (its first word, after blank space and comments, is `OPENCL`
/// or `PTX`).
pub fn is_litmus(source: &str) -> bool {
    litmus::dialect(source).is_some()
}

/// The validated form: a scenario when every field is valid, and a message per invalid field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Form {
    pub scenario: Option<Rc<Scenario>>,
    pub global_error: Option<String>,
    pub local_error: Option<String>,
    pub seed_error: Option<String>,
    /// `(row id, message)` for each invalid argument row.
    pub arg_errors: Vec<(u32, String)>,
    /// The number of work-items the global size describes (0 while it is invalid); for a
    /// litmus test, its number of threads (0 while it does not parse).
    pub work_items: u64,
    /// The litmus test the source is, when it is one and parses.
    pub litmus: Option<Rc<LitmusTest>>,
    /// Whether the source is a litmus test (parsed or not).
    pub is_litmus: bool,
    /// Whether the sizes are a CUDA grid and block rather than an OpenCL NDRange.
    pub cuda: bool,
    pub offset_error: Option<String>,
    pub warp_size_error: Option<String>,
    pub pct_depth_error: Option<String>,
    pub resident_groups_error: Option<String>,
    pub max_steps_error: Option<String>,
    /// Why each of the [`LIMITS`] fields is invalid, if it is.
    pub limit_errors: [Option<String>; 5],
    /// The kernels the source defines, once it compiles.
    pub kernels: Option<Rc<Vec<KernelSignature>>>,
    /// The kernel launched, when known.
    pub kernel: Option<String>,
    /// Why the kernel's parameters cannot be read (the source does not compile yet).
    pub signature_problem: Option<String>,
    /// The argument table: a checked row per parameter.
    pub table: Rc<Table>,
}

impl Form {
    /// The launch settings that are invalid, by the words their labels use.
    pub fn invalid_settings(&self) -> Vec<String> {
        let (global, local) = if self.cuda { ("Grid", "Block") } else { ("Global size", "Local size") };
        let mut names: Vec<String> = [
            (&self.global_error, global),
            (&self.local_error, local),
            (&self.offset_error, "Offset"),
            (&self.seed_error, "Seed"),
            (&self.pct_depth_error, "PCT depth"),
            (&self.warp_size_error, "Warp size"),
            (&self.resident_groups_error, "Resident groups"),
            (&self.max_steps_error, "Max steps"),
        ]
        .into_iter()
        .filter(|(error, _)| error.is_some())
        .map(|(_, name)| name.to_string())
        .collect();
        names.extend(LIMITS.iter().zip(&self.limit_errors).filter(|(_, error)| error.is_some()).map(|(limit, _)| limit.label.to_string()));
        if !self.is_litmus {
            names.extend(self.table.rows.iter().filter(|row| !row.errors.is_empty()).map(|row| format!("argument `{}`", row.name)));
        }
        names
    }

    pub fn arg_error(&self, id: u32) -> Option<&str> {
        self.arg_errors.iter().find(|(row, _)| *row == id).map(|(_, message)| message.as_str())
    }
}

/// Parses an offset: empty for none, or the engine's sizes syntax (zeros allowed).
pub fn parse_offset(text: &str) -> Result<Vec<u64>, String> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    scenario::parse_dims(text)
}

/// Reads a whole number that fits 32 bits (the engine checks its range).
fn parse_u32(text: &str) -> Result<u32, String> {
    let text = text.trim();
    match text.parse::<u32>() {
        Ok(n) => Ok(n),
        Err(_) if text.is_empty() => Err("enter a whole number".into()),
        Err(_) => Err(format!("`{text}` is not a whole number")),
    }
}

/// `value` when the engine's check of it passed, else the check's message and help.
fn checked<T>(value: T, check: Result<(), Diagnostic>) -> Result<T, String> {
    check.map(|()| value).map_err(|d| match d.help {
        Some(help) => format!("{}: {help}", d.message),
        None => d.message,
    })
}

/// Reads a limit's value and has the engine check it against the limit's range.
fn parse_limit(text: &str, limit: &Limit) -> Result<u64, String> {
    let text = text.trim();
    let value = match text.parse::<u64>() {
        Ok(n) => n,
        Err(_) if text.is_empty() => return Err(format!("enter a whole number from 1 to {}", limit.max)),
        Err(_) => return Err(format!("`{text}` is not a whole number")),
    };
    checked(value, limit.check(value))
}

/// A compiler diagnostic in one line, with where it is.
fn describe(diagnostic: &Diagnostic, source: &str) -> String {
    match diagnostic.span {
        Some(span) => {
            let (line, column) = LineIndex::new(source).line_col(source, span.start);
            format!("line {line}:{column}: {}", diagnostic.message)
        }
        None => diagnostic.message.clone(),
    }
}

/// The kernels `source` defines, as the engine's front end reads them. The last answer is
/// kept, so that edits of the launch fields (which re-validate the form) do not compile an
/// unchanged source again; only the source, dialect and definitions decide it.
fn signatures(source: &str, dialect: Dialect, defines: &[String]) -> Result<Vec<KernelSignature>, Vec<Diagnostic>> {
    type Key = (String, Dialect, Vec<String>);
    type Answer = Result<Vec<KernelSignature>, Vec<Diagnostic>>;
    thread_local! {
        static LAST: std::cell::RefCell<Option<(Key, Answer)>> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some(((s, d, defs), answer)) = last.as_ref() {
            if s == source && *d == dialect && defs == defines {
                return answer.clone();
            }
        }
        let answer = frontend::kernels(source, dialect, defines);
        *last = Some(((source.to_string(), dialect, defines.to_vec()), answer.clone()));
        answer
    })
}

/// Parses the seed: any unsigned 64-bit integer, decimal or `0x` hex.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse::<u64>(),
    };
    parsed.map_err(|_| "the seed is a whole number from 0 to 18446744073709551615".to_string())
}

/// Checks every field of the form and builds the scenario when all are valid.
pub fn validate(state: &Inputs) -> Form {
    if is_litmus(&state.source) {
        return validate_litmus(state);
    }
    let cuda = state.dialect == Dialect::Cuda;
    let mut form = Form { cuda, ..Form::default() };
    // For CUDA, `global` and `local` hold the grid and the block.
    let global = scenario::parse_sizes(&state.global).map_err(|e| form.global_error = Some(e)).ok();
    let local = if state.local.trim().is_empty() && !cuda {
        Some(None)
    } else if state.local.trim().is_empty() {
        form.local_error = Some("enter the block size, e.g. 32 or 16,16".into());
        None
    } else {
        match scenario::parse_sizes(&state.local) {
            Ok(local) if global.as_ref().is_some_and(|g| g.len() != local.len()) => {
                form.local_error = Some(if cuda {
                    "give the block as many dimensions as the grid".into()
                } else {
                    "give the local size as many dimensions as the global size".into()
                });
                None
            }
            Ok(local) => Some(Some(local)),
            Err(e) => {
                form.local_error = Some(e);
                None
            }
        }
    };
    // The global size in work-items: for CUDA, grid x block.
    let global = match (global, &local) {
        (Some(grid), Some(Some(block))) if cuda => {
            let product: Option<Vec<u64>> = grid.iter().zip(block).map(|(g, b)| g.checked_mul(*b)).collect();
            if product.is_none() {
                form.global_error = Some("too many threads".into());
            }
            product
        }
        // Without a valid block, a grid alone says nothing about the threads.
        (_, _) if cuda => None,
        (global, _) => global,
    };
    if let Some(global) = &global {
        form.work_items = global.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n)).unwrap_or(0);
        if form.work_items == 0 {
            form.global_error = Some("too many work-items".into());
        }
    }
    let offset = if cuda {
        Some(Vec::new())
    } else {
        match parse_offset(&state.offset) {
            Ok(offset) if !offset.is_empty() && global.as_ref().is_some_and(|g| g.len() != offset.len()) => {
                form.offset_error = Some("give the offset as many dimensions as the global size".into());
                None
            }
            Ok(offset) => Some(offset),
            Err(e) => {
                form.offset_error = Some(e);
                None
            }
        }
    };
    // The text is read here; the value is the engine's to check, with its own words.
    let warp_size = parse_u32(&state.warp_size).and_then(|n| checked(n, scenario::check_warp_size(n))).map_err(|e| form.warp_size_error = Some(e)).ok();
    let resident_groups = if state.resident_groups.trim().is_empty() {
        Some(None)
    } else {
        parse_u32(&state.resident_groups)
            .and_then(|n| checked(Some(n), scenario::check_resident_groups(Some(n))))
            .map_err(|e| form.resident_groups_error = Some(e))
            .ok()
    };
    let common = common_settings(state, &mut form);

    // The kernel's parameters lay out the argument table.
    let dialect = if cuda { Dialect::Cuda } else { Dialect::OpenCl };
    let params = match signatures(&state.source, dialect, &state.carried.defines) {
        Ok(kernels) if kernels.is_empty() => {
            form.signature_problem = Some("the source defines no kernel yet".into());
            None
        }
        Ok(kernels) => {
            let chosen = state.kernel.as_deref().and_then(|name| kernels.iter().position(|k| k.name == name)).unwrap_or(0);
            form.kernel = Some(kernels[chosen].name.clone());
            let params = kernels[chosen].params.clone();
            form.kernels = Some(Rc::new(kernels));
            Some(params)
        }
        Err(diagnostics) => {
            form.signature_problem = Some(diagnostics.first().map_or_else(|| "the source does not compile".to_string(), |d| describe(d, &state.source)));
            None
        }
    };
    let group_items = match &local {
        Some(Some(local)) => local.iter().product(),
        _ => form.work_items.min(256),
    };
    let sizes = Sizes { work_items: form.work_items, group_items };
    let rows: Vec<args::RowInput> = state.args.iter().map(|row| row.input()).collect();
    let table = args::table(params.as_deref(), &rows, sizes);
    for row in table.rows.iter().chain(&table.set_aside) {
        if let (Some(id), Some((_, message))) = (row.id, row.errors.first()) {
            form.arg_errors.push((id, message.clone()));
        }
    }
    let args_valid = table.valid();
    let bindings = table.bindings();
    form.table = Rc::new(table);

    if let (Some(global), Some(local), Some(offset), Some(warp_size), Some(resident_groups), Some(common), true) =
        (global, local, offset, warp_size, resident_groups, common, form.global_error.is_none() && args_valid)
    {
        let mut scenario = Scenario::new(state.source.as_str(), FILE_NAME, dialect);
        state.carried.apply(&mut scenario);
        scenario.launch = Launch { global, local, offset };
        scenario.args = bindings;
        scenario.kernel = match &form.kernels {
            Some(kernels) if kernels.len() > 1 => form.kernel.clone(),
            Some(_) => None,
            None => state.kernel.as_ref().map(|k| k.to_string()),
        };
        scenario.warp_size = warp_size;
        scenario.max_resident_groups = resident_groups;
        scenario.progress = state.progress;
        common.apply(&mut scenario);
        schedule(&mut scenario, state);
        form.scenario = Some(Rc::new(scenario));
    }
    form
}

/// The settings a litmus test shares with a kernel: seed, PCT depth, granularity and the
/// step limit.
struct Common {
    seed: u64,
    pct_depth: u32,
    max_steps: u64,
    granularity: interleave_engine::scenario::Granularity,
    /// The values of the [`LIMITS`], in order.
    limits: [u64; 5],
}

impl Common {
    fn apply(&self, scenario: &mut Scenario) {
        scenario.seed = self.seed;
        scenario.pct_depth = self.pct_depth;
        scenario.max_steps = self.max_steps;
        scenario.granularity = self.granularity;
        for (k, value) in self.limits.iter().enumerate() {
            set_limit(scenario, k, *value);
        }
    }
}

/// Checks the settings every run has, flagging the invalid ones on `form`.
fn common_settings(state: &Inputs, form: &mut Form) -> Option<Common> {
    let seed = parse_seed(&state.seed).map_err(|e| form.seed_error = Some(e)).ok();
    let pct_depth = parse_u32(&state.pct_depth).and_then(|n| checked(n, scenario::check_pct_depth(n))).map_err(|e| form.pct_depth_error = Some(e)).ok();
    let max_steps = parse_limit(&state.max_steps, &limits::STEPS).map_err(|e| form.max_steps_error = Some(e)).ok();
    let mut limits = [0u64; 5];
    for (k, limit) in LIMITS.iter().enumerate() {
        match parse_limit(&state.limit(k), limit) {
            Ok(value) => limits[k] = value,
            Err(e) => form.limit_errors[k] = Some(e),
        }
    }
    if form.limit_errors.iter().any(Option::is_some) {
        return None;
    }
    Some(Common { limits, seed: seed?, pct_depth: pct_depth?, max_steps: max_steps?, granularity: state.granularity })
}

/// The form of a litmus test: only the seed is checked, because the test gives the launch
/// and the arguments (the engine fills them in).
fn validate_litmus(state: &Inputs) -> Form {
    let mut form = Form { is_litmus: true, ..Form::default() };
    // A test that does not parse still becomes a scenario, so that the engine's diagnostic
    // (which points into the test) shows when the user runs it.
    if let Ok(test) = litmus::parse(&state.source) {
        form.work_items = test.threads.len() as u64;
        form.litmus = Some(Rc::new(test));
    }
    if let Some(common) = common_settings(state, &mut form) {
        let mut scenario = Scenario::new(state.source.as_str(), LITMUS_FILE_NAME, Dialect::Litmus);
        common.apply(&mut scenario);
        schedule(&mut scenario, state);
        form.scenario = Some(Rc::new(scenario));
    }
    form
}

/// The scheduler and memory model, or the replay of an explored execution.
fn schedule(scenario: &mut Scenario, state: &Inputs) {
    scenario.memory_model = state.memory_model;
    scenario.scheduler = state.scheduler;
    if let Some(replay) = &state.replay {
        // Lockstep replays under lockstep, every other scheduler's run under the manual one.
        scenario.scheduler = state.scheduler.replayed_by();
        scenario.schedule = replay.schedule.clone();
        scenario.choices = replay.choices.clone();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::InputEdit;
    use interleave_engine::scenario::MemoryModel;
    use interleave_engine::scenario::SchedulerKind;

    /// `inputs` after `edit`.
    fn reduce(inputs: &Inputs, edit: InputEdit) -> Inputs {
        let mut next = inputs.clone();
        next.edit(edit);
        next
    }

    /// `inputs` with `example` loaded.
    fn loaded(example: &crate::examples::Example) -> Inputs {
        let mut inputs = Inputs::default();
        inputs.load_example(example);
        inputs
    }

    #[test]
    fn the_default_form_is_a_valid_scenario() {
        let form = validate(&Inputs::default());
        let scenario = form.scenario.expect("valid");
        assert_eq!(scenario.launch.global, [8]);
        assert_eq!(scenario.launch.local, Some(vec![4]));
        assert_eq!(scenario.seed, 1);
        assert_eq!(scenario.args.len(), 2);
        assert_eq!(form.work_items, 8);
    }

    #[test]
    fn invalid_fields_are_flagged_and_block_the_scenario() {
        for (action, check) in [
            (InputEdit::Global("0".into()), (|f: &Form| f.global_error.is_some()) as fn(&Form) -> bool),
            (InputEdit::Global("abc".into()), |f| f.global_error.is_some() && f.work_items == 0),
            (InputEdit::Local("4,4".into()), |f| f.local_error.is_some()),
            (InputEdit::Seed("-1".into()), |f| f.seed_error.is_some()),
            (InputEdit::Arg { id: 0, text: "ids=quux[8]".into() }, |f| f.arg_error(0).is_some()),
            (InputEdit::Arg { id: 1, text: "ids=int[2]".into() }, |f| f.arg_error(1).is_some_and(|m| m.contains("twice"))),
        ] {
            let form = validate(&reduce(&Inputs::default(), action));
            assert!(check(&form), "{form:?}");
            assert!(form.scenario.is_none());
        }
    }

    #[test]
    fn an_empty_local_size_lets_the_engine_choose() {
        let form = validate(&reduce(&Inputs::default(), InputEdit::Local("".into())));
        assert_eq!(form.scenario.expect("valid").launch.local, None);
    }

    #[test]
    fn empty_argument_rows_are_skipped() {
        let form = validate(&reduce(&Inputs::default(), InputEdit::AddArg));
        assert_eq!(form.scenario.expect("valid").args.len(), 2);
    }

    #[test]
    fn a_litmus_test_ignores_the_launch_fields() {
        let state = loaded(&crate::examples::EXAMPLES[1]);
        let state = reduce(&state, InputEdit::Global("nonsense".into()));
        let state = reduce(&state, InputEdit::MemoryModel(MemoryModel::Relaxed));
        let form = validate(&state);
        assert!(form.is_litmus && form.global_error.is_none());
        assert_eq!(form.work_items, 2);
        let scenario = form.scenario.expect("valid");
        assert_eq!(scenario.dialect, Dialect::Litmus);
        assert_eq!(scenario.memory_model, MemoryModel::Relaxed);
        assert_eq!(scenario.file_name, LITMUS_FILE_NAME);
        // A broken test is still handed to the engine, which explains what is wrong.
        let broken = validate(&reduce(&state, InputEdit::Source("OPENCL X\nnonsense".into())));
        assert!(broken.scenario.is_some() && broken.litmus.is_none());
        assert_eq!(broken.work_items, 0);
        let bad_seed = validate(&reduce(&state, InputEdit::Seed("x".into())));
        assert!(bad_seed.scenario.is_none() && bad_seed.seed_error.is_some());
    }

    #[test]
    fn seeds_accept_hex() {
        assert_eq!(parse_seed("0x10"), Ok(16));
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
    }

    #[test]
    fn the_new_settings_are_checked_and_block_the_scenario() {
        for (action, check) in [
            (InputEdit::Offset("1,2".into()), (|f: &Form| f.offset_error.is_some()) as fn(&Form) -> bool),
            (InputEdit::Offset("-1".into()), |f| f.offset_error.is_some()),
            (InputEdit::WarpSize("0".into()), |f| f.warp_size_error.is_some()),
            (InputEdit::WarpSize("65".into()), |f| f.warp_size_error.is_some()),
            (InputEdit::PctDepth("".into()), |f| f.pct_depth_error.is_some()),
            (InputEdit::ResidentGroups("0".into()), |f| f.resident_groups_error.is_some()),
            (InputEdit::MaxSteps("0".into()), |f| f.max_steps_error.is_some()),
            (InputEdit::MaxSteps((limits::STEPS.max + 1).to_string()), |f| f.max_steps_error.is_some()),
            (InputEdit::ArgText { param: "ids".into(), text: "ids=int[x]".into() }, |f| f.arg_error(0).is_some()),
        ] {
            let form = validate(&reduce(&Inputs::default(), action));
            assert!(check(&form), "{form:?}");
            assert!(form.scenario.is_none());
            assert!(!form.invalid_settings().is_empty());
        }
    }

    #[test]
    fn every_setting_reaches_the_scenario() {
        let mut state = Inputs::default();
        for action in [
            InputEdit::Offset("2".into()),
            InputEdit::WarpSize("4".into()),
            InputEdit::Scheduler(SchedulerKind::Pct),
            InputEdit::PctDepth("5".into()),
            InputEdit::ResidentGroups("1".into()),
            InputEdit::Progress(interleave_engine::scenario::Progress::Fair),
            InputEdit::Granularity(interleave_engine::scenario::Granularity::Statement),
            InputEdit::MaxSteps("1234".into()),
        ] {
            state = reduce(&state, action);
        }
        let scenario = validate(&state).scenario.expect("valid");
        assert_eq!(scenario.launch.offset, [2]);
        assert_eq!(scenario.warp_size, 4);
        assert_eq!(scenario.scheduler, SchedulerKind::Pct);
        assert_eq!(scenario.pct_depth, 5);
        assert_eq!(scenario.max_resident_groups, Some(1));
        assert_eq!(scenario.progress, interleave_engine::scenario::Progress::Fair);
        assert_eq!(scenario.granularity, interleave_engine::scenario::Granularity::Statement);
        assert_eq!(scenario.max_steps, 1234);
        // The empty resident count means every group.
        let all = reduce(&state, InputEdit::ResidentGroups(" ".into()));
        assert_eq!(validate(&all).scenario.unwrap().max_resident_groups, None);
    }

    #[test]
    fn the_resource_limits_are_checked_against_their_hard_maxima() {
        let defaults = validate(&Inputs::default()).scenario.expect("valid");
        assert_eq!(defaults.max_work_items, limits::WORK_ITEMS.default);
        let raised = reduce(&Inputs::default(), InputEdit::Limit(1, "64".into()));
        assert_eq!(validate(&raised).scenario.expect("valid").max_work_items, 64);
        let too_high = (limits::MEMORY_BYTES.max + 1).to_string();
        let form = validate(&reduce(&Inputs::default(), InputEdit::Limit(2, too_high)));
        assert!(form.scenario.is_none());
        assert!(form.limit_errors[2].is_some());
        assert_eq!(form.invalid_settings(), ["Max memory (bytes)"]);
    }

    #[test]
    fn a_cuda_launch_is_a_grid_of_blocks() {
        let state = reduce(&Inputs::default(), InputEdit::Dialect(Dialect::Cuda));
        let state = reduce(&state, InputEdit::Source("__global__ void count(int *ids, int *counters) {}".into()));
        let form = validate(&state);
        assert!(form.cuda);
        assert_eq!(form.work_items, 8);
        let scenario = form.scenario.expect("valid");
        assert_eq!(scenario.dialect, Dialect::Cuda);
        assert_eq!(scenario.launch.global, [8]);
        assert_eq!(scenario.launch.local, Some(vec![4]));
        let no_block = validate(&reduce(&state, InputEdit::Local("".into())));
        assert!(no_block.local_error.is_some() && no_block.scenario.is_none());
        assert_eq!(no_block.work_items, 0);
        let mismatched = validate(&reduce(&state, InputEdit::Local("2,2".into())));
        assert!(mismatched.local_error.unwrap().contains("block"));
    }

    #[test]
    fn the_table_follows_the_kernel_s_signature() {
        let form = validate(&Inputs::default());
        let names: Vec<&str> = form.table.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["ids", "counters"]);
        assert_eq!(form.kernel.as_deref(), Some("count"));
        assert!(form.signature_problem.is_none());
        // Two kernels: the first is chosen until another is, and the scenario names it.
        let two = reduce(&Inputs::default(), InputEdit::Source("__kernel void a(__global int *ids) {}\n__kernel void b(float x) {}".into()));
        let form = validate(&two);
        assert_eq!(form.kernels.as_ref().map(|k| k.len()), Some(2));
        assert_eq!(form.scenario.unwrap().kernel.as_deref(), Some("a"));
        let b = validate(&reduce(&two, InputEdit::Kernel("b".into())));
        assert_eq!(b.table.rows[0].name, "x");
        assert_eq!(b.table.set_aside.len(), 2, "the rows of `a` are kept aside");
        assert!(b.scenario.is_none(), "`x` needs a value");
        let b = validate(&reduce(&reduce(&two, InputEdit::Kernel("b".into())), InputEdit::ArgText { param: "x".into(), text: "x=float:1.5".into() }));
        let scenario = b.scenario.expect("valid");
        assert_eq!(scenario.kernel.as_deref(), Some("b"));
        assert_eq!(scenario.args.len(), 1);
    }

    #[test]
    fn a_source_that_does_not_compile_keeps_its_rows() {
        let state = reduce(&Inputs::default(), InputEdit::Source("__kernel void count(__global int *ids".into()));
        let form = validate(&state);
        let problem = form.signature_problem.clone().expect("a reason");
        assert!(problem.starts_with("line 1:"), "{problem}");
        let names: Vec<&str> = form.table.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["ids", "counters"]);
        // The run still goes to the engine, which explains the error in full.
        assert_eq!(form.scenario.expect("valid").args.len(), 2);
    }

    #[test]
    fn a_litmus_test_checks_its_run_settings() {
        let state = loaded(&crate::examples::EXAMPLES[1]);
        let state = reduce(&state, InputEdit::MaxSteps("10".into()));
        assert_eq!(validate(&state).scenario.unwrap().max_steps, 10);
        let bad = validate(&reduce(&state, InputEdit::PctDepth("100".into())));
        assert!(bad.pct_depth_error.is_some() && bad.scenario.is_none());
        assert_eq!(bad.invalid_settings(), ["PCT depth"]);
    }

    #[test]
    fn an_offset_may_be_empty_or_zero() {
        assert_eq!(parse_offset(""), Ok(vec![]));
        assert_eq!(parse_offset("0, 4"), Ok(vec![0, 4]));
    }

    #[test]
    fn ranges_are_the_engine_s_and_its_words_are_shown() {
        let form = validate(&reduce(&Inputs::default(), InputEdit::WarpSize("100".into())));
        let message = form.warp_size_error.expect("refused");
        assert!(message.contains("a warp of 100 work-items is not supported"), "{message}");
        let form = validate(&reduce(&Inputs::default(), InputEdit::PctDepth("65".into())));
        assert!(form.pct_depth_error.expect("refused").contains("PCT depth of 65"));
        let form = validate(&reduce(&Inputs::default(), InputEdit::WarpSize("64".into())));
        assert_eq!(form.scenario.expect("valid").warp_size, 64);
    }
}
