//! The user's inputs as plain data: what the editor and the launch panel hold, in the form
//! the page keeps in `localStorage` and the form scenario files are read into.
//!
//! Everything is kept as the user typed it (text, and enums by name), so that an edit halfway
//! through, invalid or not, survives a reload exactly. The stored value carries a version;
//! decoding is tolerant: a missing field takes its default, an unknown name falls back to the
//! default, an argument row that cannot be read keeps its text, and a value that is not ours
//! at all (or from a newer version) is reported rather than trusted, so a bad stored value
//! can never stop the page from starting.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use interleave_engine::limits::{self, Limit};
use interleave_engine::scenario::{self, Dialect, Granularity, MemoryModel, Progress, Scenario, SchedulerKind};

use crate::args::{self, ArgFields};
use crate::examples;

/// The `localStorage` key of the stored inputs.
pub const STORAGE_KEY: &str = "interleave.inputs";

/// The version of the stored format. Bump it when a field changes meaning, and read the old
/// version in [`decode`].
pub const VERSION: u32 = 1;

/// The memory models the launch panel offers, with the words it shows for them.
pub const MEMORY_MODELS: [(MemoryModel, &str, &str); 2] = [(MemoryModel::Sc, "sc", "sequentially consistent"), (MemoryModel::Relaxed, "relaxed", "relaxed")];

/// The schedulers the launch panel offers, in the order it lists them.
pub const SCHEDULERS: [SchedulerKind; 5] =
    [SchedulerKind::Random, SchedulerKind::RoundRobin, SchedulerKind::RunToBlock, SchedulerKind::Pct, SchedulerKind::Lockstep];

/// The dialects the launch panel offers (a litmus test is recognised from its text).
pub const DIALECTS: [(Dialect, &str, &str); 2] = [(Dialect::OpenCl, "opencl", "OpenCL C"), (Dialect::Cuda, "cuda", "CUDA")];

/// The resource limits the launch panel's "More settings" sets besides the step limit, in the
/// order it shows them (each with its default and hard maximum, from the engine).
pub const LIMITS: [Limit; 5] = [limits::INSTRUCTIONS_PER_STEP, limits::WORK_ITEMS, limits::MEMORY_BYTES, limits::PRINTF_BYTES, limits::HISTORY_EVENTS];

/// The value `scenario` sets for the limit `LIMITS[k]`.
pub fn limit_value(scenario: &Scenario, k: usize) -> u64 {
    match k {
        0 => scenario.max_instructions_per_step,
        1 => scenario.max_work_items,
        2 => scenario.max_memory_bytes,
        3 => scenario.max_printf_bytes,
        _ => scenario.max_history_events,
    }
}

/// Sets the limit `LIMITS[k]` on `scenario`.
pub fn set_limit(scenario: &mut Scenario, k: usize, value: u64) {
    match k {
        0 => scenario.max_instructions_per_step = value,
        1 => scenario.max_work_items = value,
        2 => scenario.max_memory_bytes = value,
        3 => scenario.max_printf_bytes = value,
        _ => scenario.max_history_events = value,
    }
}

/// The texts of the limit fields for `scenario`'s values.
pub fn limit_texts(scenario: &Scenario) -> [String; 5] {
    std::array::from_fn(|k| limit_value(scenario, k).to_string())
}

/// The fields of a scenario the panel has no control for (a scenario file's title,
/// description, lesson and definitions, the heap, limits), carried along unchanged so that opening a file and
/// downloading it again loses nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Carried {
    pub title: String,
    /// What the scenario shows, for people (a gallery example's description).
    pub description: String,
    /// The lesson the scenario teaches, for people.
    pub lesson: String,
    /// Preprocessor definitions (`-D`); they also decide the kernel's signature.
    pub defines: Vec<String>,
    pub heap_bytes: u64,
    pub max_instructions_per_step: u64,
    pub default_buffer_elements: Option<u64>,
    pub report_buffers: Vec<String>,
    pub race_detection: bool,
}

impl Default for Carried {
    fn default() -> Carried {
        Carried::of(&Scenario::default())
    }
}

impl Carried {
    /// The carried fields of `scenario`.
    pub fn of(scenario: &Scenario) -> Carried {
        Carried {
            title: scenario.title.clone(),
            description: scenario.description.clone(),
            lesson: scenario.lesson.clone(),
            defines: scenario.defines.clone(),
            heap_bytes: scenario.heap_bytes,
            max_instructions_per_step: scenario.max_instructions_per_step,
            default_buffer_elements: scenario.default_buffer_elements,
            report_buffers: scenario.report_buffers.clone(),
            race_detection: scenario.race_detection,
        }
    }

    /// Sets the carried fields on `scenario`.
    pub fn apply(&self, scenario: &mut Scenario) {
        scenario.title = self.title.clone();
        scenario.description = self.description.clone();
        scenario.lesson = self.lesson.clone();
        scenario.defines = self.defines.clone();
        scenario.heap_bytes = self.heap_bytes;
        scenario.max_instructions_per_step = self.max_instructions_per_step;
        scenario.default_buffer_elements = self.default_buffer_elements;
        scenario.report_buffers = self.report_buffers.clone();
        scenario.race_detection = self.race_detection;
    }
}

/// One argument row: its text, the parameter it was made for, and its fields when it was
/// last edited through them. The id keeps a row's identity (and its focus) stable while rows
/// before it are removed; it is not stored, and rows read back are numbered afresh.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ArgRow {
    #[serde(skip)]
    pub id: u32,
    /// The `NAME=SPEC` text the engine parses.
    pub text: String,
    /// The parameter the row was made for in the argument table; `None` for a row typed as
    /// text, which is for the parameter its text names.
    pub param: Option<String>,
    /// The structured fields, when the row was last edited through them; `text` is then
    /// what they make. Fields that cannot be read (from another version) are dropped and the
    /// row keeps its text.
    #[serde(deserialize_with = "lenient_fields")]
    pub fields: Option<ArgFields>,
}

impl ArgRow {
    /// A row typed as text.
    pub fn typed(id: u32, text: &str) -> ArgRow {
        ArgRow { id, text: text.to_string(), param: None, fields: None }
    }

    /// What the argument table needs to know of the row.
    pub fn input(&self) -> args::RowInput<'_> {
        args::RowInput { id: self.id, text: &self.text, param: self.param.as_deref(), fields: self.fields.as_ref() }
    }
}

fn lenient_fields<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ArgFields>, D::Error> {
    let value = Value::deserialize(d)?;
    Ok(serde_json::from_value(value).ok())
}

/// An explored execution replayed by the manual scheduler: the agent of every step and the
/// decisions of the steps that had several options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Replay {
    pub schedule: Vec<u32>,
    pub choices: Vec<u32>,
}

/// A name read back from storage: one that is not known (an older or damaged value) leaves
/// the field at its default rather than failing the whole value.
fn named<'de, D: Deserializer<'de>, T: serde::de::DeserializeOwned>(d: D, known: impl Fn(&T) -> bool, fallback: T) -> Result<T, D::Error> {
    let value = Value::deserialize(d)?;
    Ok(serde_json::from_value(value).ok().filter(|t| known(t)).unwrap_or(fallback))
}

fn lenient_dialect<'de, D: Deserializer<'de>>(d: D) -> Result<Dialect, D::Error> {
    named(d, |&d| d != Dialect::Litmus, Dialect::OpenCl)
}

fn lenient_scheduler<'de, D: Deserializer<'de>>(d: D) -> Result<SchedulerKind, D::Error> {
    named(d, |kind| SCHEDULERS.contains(kind), SchedulerKind::Random)
}

fn lenient_memory_model<'de, D: Deserializer<'de>>(d: D) -> Result<MemoryModel, D::Error> {
    named(d, |_| true, MemoryModel::Sc)
}

fn lenient_progress<'de, D: Deserializer<'de>>(d: D) -> Result<Progress, D::Error> {
    named(d, |_| true, Progress::default())
}

fn lenient_granularity<'de, D: Deserializer<'de>>(d: D) -> Result<Granularity, D::Error> {
    named(d, |_| true, Granularity::default())
}

/// The launch: everything the user has typed or chosen, the one description of it the page
/// has (the state holds it, the form reads it, storage and the stash keep it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Inputs {
    pub source: String,
    /// OpenCL C or CUDA (a litmus test is recognised from the source).
    #[serde(deserialize_with = "lenient_dialect")]
    pub dialect: Dialect,
    /// The kernel to launch when the source defines several.
    pub kernel: Option<String>,
    /// The global size, or for CUDA the grid.
    pub global: String,
    /// The local size, or for CUDA the block.
    pub local: String,
    /// The global offset (OpenCL only).
    pub offset: String,
    pub seed: String,
    #[serde(deserialize_with = "lenient_scheduler")]
    pub scheduler: SchedulerKind,
    pub pct_depth: String,
    #[serde(deserialize_with = "lenient_memory_model")]
    pub memory_model: MemoryModel,
    pub warp_size: String,
    /// How many work-groups may be resident at once; empty for all of them.
    pub resident_groups: String,
    #[serde(deserialize_with = "lenient_progress")]
    pub progress: Progress,
    #[serde(deserialize_with = "lenient_granularity")]
    pub granularity: Granularity,
    pub max_steps: String,
    /// The texts of the resource limit fields ([`LIMITS`], in order); empty in a value
    /// stored before they existed, which then takes the defaults (see [`Inputs::limit`]).
    pub limits: Vec<String>,
    pub args: Vec<ArgRow>,
    /// Replays an explored execution instead of running the scheduler.
    pub replay: Option<Replay>,
    /// The fields of an opened scenario that the panel has no control for.
    pub carried: Carried,
    /// The example the editor holds unedited, by id.
    pub example: Option<String>,
    /// The file the source was opened from.
    pub file_name: Option<String>,
}

impl Default for Inputs {
    /// The inputs the page starts with (the default example and its launch), so that a field
    /// a stored value lacks takes the value it would have on a first visit.
    fn default() -> Inputs {
        let plain = Scenario::default();
        let example = &examples::DEFAULT;
        let launch = example.launch.as_ref();
        Inputs {
            source: example.source.to_string(),
            dialect: Dialect::OpenCl,
            kernel: None,
            global: launch.map_or("8", |l| l.global).to_string(),
            local: launch.map_or("", |l| l.local).to_string(),
            offset: String::new(),
            seed: "1".into(),
            scheduler: SchedulerKind::Random,
            pct_depth: plain.pct_depth.to_string(),
            memory_model: MemoryModel::Sc,
            warp_size: plain.warp_size.to_string(),
            resident_groups: String::new(),
            progress: Progress::OccupancyBound,
            granularity: plain.granularity,
            max_steps: plain.max_steps.to_string(),
            limits: limit_texts(&plain).to_vec(),
            args: launch.map(|l| text_rows(0, l.args)).unwrap_or_default(),
            replay: None,
            carried: Carried::default(),
            example: Some(example.id.to_string()),
            file_name: None,
        }
    }
}

/// Rows typed as text, numbered from `first`.
pub fn text_rows(first: u32, texts: &[&str]) -> Vec<ArgRow> {
    texts.iter().enumerate().map(|(i, text)| ArgRow::typed(first + i as u32, text)).collect()
}

/// One edit of the launch: every field the editor and the launch panel change, one variant
/// each, applied by [`Inputs::edit`].
#[derive(Clone, Debug, PartialEq)]
pub enum InputEdit {
    Source(String),
    /// Switches between OpenCL C and CUDA (sizes become a grid of blocks and back).
    Dialect(Dialect),
    Kernel(String),
    Global(String),
    Local(String),
    Offset(String),
    Seed(String),
    Scheduler(SchedulerKind),
    PctDepth(String),
    MemoryModel(MemoryModel),
    WarpSize(String),
    ResidentGroups(String),
    Progress(Progress),
    Granularity(Granularity),
    MaxSteps(String),
    /// The text of the resource limit field `LIMITS[k]`.
    Limit(usize, String),
    /// Text typed into the row `id` (a row set aside, or one added as text).
    Arg {
        id: u32,
        text: String,
    },
    /// Adds a row typed as text.
    AddArg,
    RemoveArg(u32),
    /// The argument table's fields for the parameter `fields.name`.
    ArgFields(ArgFields),
    /// The argument table's text for parameter `param`.
    ArgText {
        param: String,
        text: String,
    },
}

impl Inputs {
    /// Applies `edit`. An edit of the source leaves the example it came from; a replay is
    /// not touched here (the state drops it with any edit that changes something).
    pub fn edit(&mut self, edit: InputEdit) {
        match edit {
            InputEdit::Source(text) => {
                if text != self.source {
                    self.source = text;
                    self.example = None;
                }
            }
            InputEdit::Dialect(dialect) => self.set_dialect(dialect),
            InputEdit::Kernel(name) => self.kernel = Some(name),
            InputEdit::Global(text) => self.global = text,
            InputEdit::Local(text) => self.local = text,
            InputEdit::Offset(text) => self.offset = text,
            InputEdit::Seed(text) => self.seed = text,
            InputEdit::Scheduler(kind) => self.scheduler = kind,
            InputEdit::PctDepth(text) => self.pct_depth = text,
            InputEdit::MemoryModel(model) => self.memory_model = model,
            InputEdit::WarpSize(text) => self.warp_size = text,
            InputEdit::ResidentGroups(text) => self.resident_groups = text,
            InputEdit::Progress(progress) => self.progress = progress,
            InputEdit::Granularity(granularity) => self.granularity = granularity,
            InputEdit::MaxSteps(text) => self.max_steps = text,
            InputEdit::Limit(k, text) => {
                if k < LIMITS.len() {
                    let defaults = limit_texts(&Scenario::default());
                    while self.limits.len() < LIMITS.len() {
                        self.limits.push(defaults[self.limits.len()].clone());
                    }
                    self.limits[k] = text;
                }
            }
            InputEdit::Arg { id, text } => {
                if let Some(row) = self.args.iter_mut().find(|row| row.id == id) {
                    // Typed text is what counts from now on; the fields follow it.
                    row.text = text;
                    row.fields = None;
                }
            }
            InputEdit::AddArg => {
                let id = self.next_arg_id();
                self.args.push(ArgRow::typed(id, ""));
            }
            InputEdit::RemoveArg(id) => self.args.retain(|row| row.id != id),
            InputEdit::ArgFields(fields) => {
                let param = fields.name.clone();
                self.set_arg_row(&param, fields.text(), Some(fields));
            }
            InputEdit::ArgText { param, text } => self.set_arg_row(&param, text, None),
        }
    }

    /// Puts `example` in the editor. A gallery example's scenario file sets every input (its
    /// launch, seed, scheduler, memory model, residency...), as opening the file would; a
    /// kernel example brings its launch; a litmus test leaves the run settings as they are.
    pub fn load_example(&mut self, example: &examples::Example) {
        if let Some(Ok(scenario)) = example.scenario() {
            *self = from_scenario(&scenario);
        }
        self.source = example.source.to_string();
        self.example = Some(example.id.to_string());
        self.file_name = None;
        if let Some(launch) = &example.launch {
            self.dialect = Dialect::OpenCl;
            self.kernel = None;
            self.global = launch.global.to_string();
            self.local = launch.local.to_string();
            self.offset = String::new();
            self.args = text_rows(0, launch.args);
            self.carried = Carried::default();
        }
    }

    /// Switches the dialect, turning the sizes into a grid of blocks or back when they
    /// convert exactly.
    pub fn set_dialect(&mut self, dialect: Dialect) {
        if dialect == self.dialect || dialect == Dialect::Litmus {
            return;
        }
        let (global, local) = convert_sizes(&self.global, &self.local, dialect);
        self.global = global;
        self.local = local;
        self.dialect = dialect;
    }

    /// The text of the limit field `LIMITS[k]` (its default when the value has none).
    pub fn limit(&self, k: usize) -> String {
        self.limits.get(k).cloned().unwrap_or_else(|| limit_value(&Scenario::default(), k).to_string())
    }

    /// An id no row has.
    pub fn next_arg_id(&self) -> u32 {
        self.args.iter().map(|row| row.id + 1).max().unwrap_or(0)
    }

    /// Numbers the rows from `first` (rows read back or loaded get fresh ids, so that the
    /// table's rows of what was there before are not reused) and returns the next free id.
    pub fn number_rows(&mut self, first: u32) -> u32 {
        for (i, row) in self.args.iter_mut().enumerate() {
            row.id = first + i as u32;
            // Fields that were read back make the text.
            if let Some(fields) = &row.fields {
                row.text = fields.text();
            }
        }
        first + self.args.len() as u32
    }

    /// Sets the argument row of parameter `param` (adding it when it has none yet).
    fn set_arg_row(&mut self, param: &str, text: String, fields: Option<ArgFields>) {
        let next = self.next_arg_id();
        let found = self.args.iter_mut().find(|row| row.input().key() == param);
        let row = ArgRow { id: found.as_ref().map_or(next, |row| row.id), text, param: Some(param.to_string()), fields };
        match found {
            Some(slot) => *slot = row,
            None => self.args.push(row),
        }
    }
}

/// Sizes as the panel writes them: `8` or `8,2`.
pub fn sizes_text(sizes: &[u64]) -> String {
    let parts: Vec<String> = sizes.iter().map(u64::to_string).collect();
    parts.join(",")
}

/// The sizes in the other dialect's terms: an NDRange's global size becomes the grid (global
/// / local per dimension) and a grid becomes the global size (grid x block). Sizes that do
/// not convert exactly (unparsable, or not divisible) are left as they are.
pub fn convert_sizes(global: &str, local: &str, to: Dialect) -> (String, String) {
    let unchanged = (global.to_string(), local.to_string());
    let (Ok(g), Ok(l)) = (scenario::parse_sizes(global), scenario::parse_sizes(local)) else {
        return unchanged;
    };
    if g.len() != l.len() {
        return unchanged;
    }
    let converted: Option<Vec<u64>> = match to {
        Dialect::Cuda => g.iter().zip(&l).map(|(g, l)| (g % l == 0).then_some(g / l)).collect(),
        Dialect::OpenCl | Dialect::Litmus => g.iter().zip(&l).map(|(g, l)| g.checked_mul(*l)).collect(),
    };
    match converted {
        Some(global) => (sizes_text(&global), local.trim().to_string()),
        None => unchanged,
    }
}

/// The inputs that describe `scenario` (a scenario file, or a `.sim` file's launch). A CUDA
/// launch is shown as a grid of blocks; a manual schedule becomes a replay.
pub fn from_scenario(scenario: &Scenario) -> Inputs {
    let launch = &scenario.launch;
    let (global, local) = match (scenario.dialect, &launch.local) {
        (Dialect::Cuda, Some(block)) if block.len() == launch.global.len() && block.iter().zip(&launch.global).all(|(b, g)| *b > 0 && g % b == 0) => {
            let grid: Vec<u64> = launch.global.iter().zip(block).map(|(g, b)| g / b).collect();
            (sizes_text(&grid), sizes_text(block))
        }
        // A CUDA launch without a block leaves the block to be filled in (the panel flags it).
        (Dialect::Cuda, None) => (sizes_text(&launch.global), String::new()),
        (_, local) => (sizes_text(&launch.global), local.as_deref().map(sizes_text).unwrap_or_default()),
    };
    // A replay is the manual scheduler's, or lockstep's when it follows a schedule.
    let replay = (scenario.scheduler == SchedulerKind::Manual || !scenario.schedule.is_empty())
        .then(|| Replay { schedule: scenario.schedule.clone(), choices: scenario.choices.clone() });
    let scheduler = match scenario.scheduler {
        SchedulerKind::Manual => SchedulerKind::Random,
        other => other,
    };
    let texts: Vec<String> = scenario.args.iter().map(|b| b.to_string()).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    Inputs {
        source: scenario.source.clone(),
        dialect: match scenario.dialect {
            Dialect::Cuda => Dialect::Cuda,
            Dialect::OpenCl | Dialect::Litmus => Dialect::OpenCl,
        },
        kernel: scenario.kernel.clone(),
        global,
        local,
        offset: sizes_text(&launch.offset),
        seed: scenario.seed.to_string(),
        scheduler,
        pct_depth: scenario.pct_depth.to_string(),
        memory_model: scenario.memory_model,
        warp_size: scenario.warp_size.to_string(),
        resident_groups: scenario.max_resident_groups.map(|n| n.to_string()).unwrap_or_default(),
        progress: scenario.progress,
        granularity: scenario.granularity,
        max_steps: scenario.max_steps.to_string(),
        limits: limit_texts(scenario).to_vec(),
        args: text_rows(0, &texts),
        replay,
        carried: Carried::of(scenario),
        example: None,
        file_name: None,
    }
}

/// Inputs set aside when something else was loaded over them, until the user restores or
/// dismisses them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stash {
    /// What was loaded (an example's title, a file's name).
    pub label: String,
    pub inputs: Inputs,
    /// Whether the user already restored their edits: the stash then holds what was loaded.
    pub restored: bool,
}

/// What `localStorage` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    pub version: u32,
    pub current: Inputs,
    /// Whether `current` was edited since it was loaded (so loading over it sets it aside).
    #[serde(default = "edited_by_default")]
    pub edited: bool,
    #[serde(default)]
    pub stash: Option<Stash>,
}

/// Without word either way, inputs are taken as the user's own edits, which are kept.
fn edited_by_default() -> bool {
    true
}

/// The stored text of `current` (`edited` or not) and `stash`.
pub fn encode(current: Inputs, edited: bool, stash: Option<Stash>) -> String {
    let stored = Stored { version: VERSION, current, edited, stash };
    // Plain strings, numbers and JSON values only: this cannot fail.
    serde_json::to_string(&stored).unwrap_or_default()
}

/// Reads a stored value, or says why it cannot be used.
pub fn decode(text: &str) -> Result<Stored, String> {
    // From bytes, as every JSON reader of the page does, so that serde_json's parser is
    // compiled for one input type only.
    let value: Value = serde_json::from_slice(text.as_bytes()).map_err(|e| format!("the saved inputs are not JSON ({e})"))?;
    let version = value.get("version").and_then(Value::as_u64).ok_or("the saved inputs have no version")?;
    if version > u64::from(VERSION) {
        return Err(format!("the saved inputs are from a newer version of Interleave (format {version})"));
    }
    let current = value.get("current").ok_or("the saved inputs are empty")?.clone();
    let mut current: Inputs = serde_json::from_value(current).map_err(|e| format!("the saved inputs cannot be read ({e})"))?;
    current.number_rows(0);
    // A stash that cannot be read is dropped rather than blocking the current inputs.
    let stash = value.get("stash").cloned().and_then(|stash| serde_json::from_value::<Option<Stash>>(stash).ok()).flatten().map(|mut stash| {
        stash.inputs.number_rows(0);
        stash
    });
    let edited = value.get("edited").and_then(Value::as_bool).unwrap_or_else(edited_by_default);
    Ok(Stored { version: VERSION, current, edited, stash })
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::scenario::{from_toml, ArgBinding, Launch};

    #[test]
    fn inputs_survive_encoding() {
        let mut inputs = Inputs { global: "abc".into(), ..Inputs::default() };
        inputs.carried.defines = vec!["N=4".into()];
        let stash = Stash { label: "MP".into(), inputs: Inputs::default(), restored: false };
        let decoded = decode(&encode(inputs.clone(), false, Some(stash.clone()))).unwrap();
        assert_eq!(decoded.current, inputs);
        assert!(!decoded.edited);
        assert_eq!(decoded.stash, Some(stash));
    }

    #[test]
    fn bad_stored_values_are_reported_not_trusted() {
        for (text, why) in [
            ("", "not JSON"),
            ("{\"current\": {}}", "no version"),
            ("[1, 2]", "no version"),
            ("{\"version\": 99, \"current\": {}}", "newer version"),
            ("{\"version\": 1}", "empty"),
            ("{\"version\": 1, \"current\": {\"global\": 8}}", "cannot be read"),
        ] {
            let error = decode(text).unwrap_err();
            assert!(error.contains(why), "{text}: {error}");
        }
    }

    #[test]
    fn missing_and_unreadable_parts_take_their_defaults() {
        let text =
            r#"{"version": 1, "current": {"source": "k", "args": [{"text": "n=int:1", "fields": {"kind": "teapot"}}], "unknown": 3}, "stash": {"label": 7}}"#;
        let stored = decode(text).unwrap();
        assert_eq!(stored.current.source, "k");
        assert_eq!(stored.current.global, Inputs::default().global);
        assert_eq!(stored.current.args[0].text, "n=int:1");
        assert_eq!(stored.current.args[0].fields, None);
        assert_eq!(stored.stash, None);
        assert!(stored.edited);
    }

    #[test]
    fn stored_names_read_as_the_panel_s_choices() {
        let text = r#"{"version": 1, "current": {"dialect": "cuda", "scheduler": "round-robin", "memory_model": "relaxed", "progress": "fair", "granularity": "statement"}}"#;
        let current = decode(text).unwrap().current;
        assert_eq!(current.dialect, Dialect::Cuda);
        assert_eq!(current.scheduler, SchedulerKind::RoundRobin);
        assert_eq!(current.memory_model, MemoryModel::Relaxed);
        assert_eq!(current.progress, Progress::Fair);
        assert_eq!(current.granularity, Granularity::Statement);
        // Names the panel does not offer, or does not know, leave their defaults.
        let text = r#"{"version": 1, "current": {"dialect": "litmus", "scheduler": "manual", "memory_model": 3, "progress": "teapot"}}"#;
        let current = decode(text).unwrap().current;
        let defaults = Inputs::default();
        assert_eq!(current.dialect, defaults.dialect);
        assert_eq!(current.scheduler, defaults.scheduler);
        assert_eq!(current.memory_model, defaults.memory_model);
        assert_eq!(current.progress, defaults.progress);
    }

    #[test]
    fn every_edit_reaches_its_field() {
        let mut inputs = Inputs::default();
        for edit in [
            InputEdit::Global("16".into()),
            InputEdit::Local("2".into()),
            InputEdit::Offset("1".into()),
            InputEdit::Seed("7".into()),
            InputEdit::Scheduler(SchedulerKind::Pct),
            InputEdit::PctDepth("3".into()),
            InputEdit::MemoryModel(MemoryModel::Relaxed),
            InputEdit::WarpSize("8".into()),
            InputEdit::ResidentGroups("1".into()),
            InputEdit::Progress(Progress::Fair),
            InputEdit::Granularity(Granularity::Statement),
            InputEdit::MaxSteps("99".into()),
            InputEdit::Limit(4, "5".into()),
            InputEdit::Kernel("k".into()),
        ] {
            inputs.edit(edit);
        }
        assert_eq!((inputs.global.as_str(), inputs.local.as_str()), ("16", "2"));
        assert_eq!((inputs.offset.as_str(), inputs.seed.as_str()), ("1", "7"));
        assert_eq!(inputs.scheduler, SchedulerKind::Pct);
        assert_eq!(inputs.pct_depth, "3");
        assert_eq!(inputs.memory_model, MemoryModel::Relaxed);
        assert_eq!((inputs.warp_size.as_str(), inputs.resident_groups.as_str()), ("8", "1"));
        assert_eq!((inputs.progress, inputs.granularity), (Progress::Fair, Granularity::Statement));
        assert_eq!(inputs.max_steps, "99");
        assert_eq!(inputs.limit(4), "5");
        assert_eq!(inputs.kernel.as_deref(), Some("k"));
        // Rows: added with a fresh id, typed into, removed.
        let id = inputs.next_arg_id();
        inputs.edit(InputEdit::AddArg);
        inputs.edit(InputEdit::Arg { id, text: "n=int:3".into() });
        assert_eq!(inputs.args.last().map(|r| (r.id, r.text.as_str())), Some((id, "n=int:3")));
        inputs.edit(InputEdit::RemoveArg(id));
        assert!(inputs.args.iter().all(|r| r.id != id));
        // Editing the source leaves the example.
        assert!(inputs.example.is_some());
        inputs.edit(InputEdit::Source("x".into()));
        assert_eq!(inputs.example, None);
    }

    #[test]
    fn a_limit_edit_fills_in_the_limits_an_old_value_lacks() {
        let mut inputs = Inputs { limits: Vec::new(), ..Inputs::default() };
        inputs.edit(InputEdit::Limit(2, "10".into()));
        assert_eq!(inputs.limits.len(), LIMITS.len());
        assert_eq!(inputs.limit(2), "10");
        assert_eq!(inputs.limit(1), limits::WORK_ITEMS.default.to_string());
    }

    #[test]
    fn sizes_convert_between_dialects_only_when_exact() {
        assert_eq!(convert_sizes("16,4", "4,2", Dialect::Cuda), ("4,2".to_string(), "4,2".to_string()));
        assert_eq!(convert_sizes("4,2", "4,2", Dialect::OpenCl), ("16,4".to_string(), "4,2".to_string()));
        for (global, local) in [("9", "4"), ("8", ""), ("8", "2,2"), ("x", "1")] {
            assert_eq!(convert_sizes(global, local, Dialect::Cuda), (global.to_string(), local.to_string()));
        }
    }

    /// A lockstep replay (a shrunk lockstep hang, say) stays a lockstep run: the form shows
    /// lockstep with the replay, and makes the same scenario again.
    #[test]
    fn a_lockstep_replay_stays_in_lockstep() {
        let mut scenario = Scenario::new("__kernel void f(__global int *p) { p[0] = 1; }", "k.cl", Dialect::OpenCl);
        scenario.scheduler = SchedulerKind::Lockstep;
        scenario.schedule = vec![0, 1, 0, 1];
        let inputs = from_scenario(&scenario);
        assert_eq!(inputs.scheduler, SchedulerKind::Lockstep);
        assert_eq!(inputs.replay.as_ref().map(|r| r.schedule.clone()), Some(vec![0, 1, 0, 1]));
        let again = crate::form::validate(&inputs).scenario.expect("the form makes a scenario");
        assert_eq!((again.scheduler, &again.schedule), (SchedulerKind::Lockstep, &scenario.schedule));
    }

    #[test]
    fn a_cuda_scenario_shows_its_grid_and_block() {
        let mut scenario = Scenario::new("", "k.cu", Dialect::Cuda);
        scenario.launch = Launch { global: vec![64, 4], local: Some(vec![32, 2]), offset: Vec::new() };
        scenario.scheduler = SchedulerKind::Manual;
        scenario.schedule = vec![1, 0];
        scenario.args = vec![ArgBinding::parse("p=int[4]:fill=1").unwrap()];
        let inputs = from_scenario(&scenario);
        assert_eq!((inputs.global.as_str(), inputs.local.as_str()), ("2,2", "32,2"));
        assert_eq!(inputs.dialect, Dialect::Cuda);
        assert_eq!(inputs.scheduler, SchedulerKind::Random);
        assert_eq!(inputs.replay.unwrap().schedule, [1, 0]);
        assert_eq!(inputs.args[0].text, "p=int[4]:fill=1");
    }

    #[test]
    fn a_scenario_file_s_hidden_fields_are_carried() {
        let scenario = from_toml(
            "title = \"t\"\ndescription = \"d\"\nlesson = \"l\"\ndefines = [\"N=2\"]\nheap_bytes = 64\nrace_detection = false\nsource = \"x\"\n[launch]\nglobal = [4]\noffset = [2]\n",
            |_| unreachable!("inline source"),
        )
        .unwrap();
        let inputs = from_scenario(&scenario);
        assert_eq!(inputs.offset, "2");
        assert_eq!(inputs.local, "");
        let mut back = Scenario::default();
        inputs.carried.apply(&mut back);
        assert_eq!(back.title, "t");
        assert_eq!((back.description.as_str(), back.lesson.as_str()), ("d", "l"));
        assert_eq!(back.defines, ["N=2"]);
        assert_eq!(back.heap_bytes, 64);
        assert!(!back.race_detection);
    }
}
