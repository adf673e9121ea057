//! The app's state: one reducer over everything the page shows.
//!
//! The reducer is pure. It holds the user's inputs as typed text (so that an invalid value
//! stays on screen while it is being fixed) and what is known about the current session, but
//! not the session itself: a `Session` is large, mutable and not `Clone`, so the app keeps it
//! beside the reducer and bumps [`State::generation`] whenever it changes. Nothing here
//! touches web APIs, so the reducer is tested natively.

use std::rc::Rc;

use interleave_engine::diag::Diagnostic;
use interleave_engine::explore::Exploration;
use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{
    Dialect, Granularity, MemoryModel, Progress, Scenario, SchedulerKind,
};
use yew::{AttrValue, Reducible};

use crate::args::{self, ArgFields};
use crate::examples::{self, Example};
use crate::explore::{self, ExploreMode, WorkerEvent};
use crate::inspector::Tab;
use interleave_engine::inspect::MemoryRef;
use crate::files::{self, Change, OpenedFile};
use crate::form;
use crate::share;
use interleave_engine::link::Link;
use crate::inputs::{self, Carried, Inputs, Stash, StoredArg, StoredReplay};

/// The example the editor starts with.
pub const DEFAULT_SOURCE: &str = examples::DEFAULT.source;

/// The arguments that fit the default example.
pub const DEFAULT_ARGS: [&str; 2] = ["ids=int[8]", "counters=int[2]:fill=0"];

/// The memory models the launch panel offers, with the words it shows for them.
pub const MEMORY_MODELS: [(MemoryModel, &str, &str); 2] = [
    (MemoryModel::Sc, "sc", "sequentially consistent"),
    (MemoryModel::Relaxed, "relaxed", "relaxed"),
];

/// The schedulers the launch panel offers, in the order it lists them.
pub const SCHEDULERS: [SchedulerKind; 5] = [
    SchedulerKind::Random,
    SchedulerKind::RoundRobin,
    SchedulerKind::RunToBlock,
    SchedulerKind::Pct,
    SchedulerKind::Lockstep,
];

/// The dialects the launch panel offers (a litmus test is recognised from its text).
pub const DIALECTS: [(Dialect, &str, &str); 2] = [
    (Dialect::OpenCl, "opencl", "OpenCL C"),
    (Dialect::Cuda, "cuda", "CUDA"),
];

/// The colour theme of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn other(self) -> Theme {
        match self {
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Light,
        }
    }
}

/// One row of the kernel-argument list. The id keeps a row's identity (and its focus) stable
/// while rows before it are removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgRow {
    pub id: u32,
    /// The `NAME=SPEC` text the engine parses.
    pub text: AttrValue,
    /// The parameter the row was made for in the argument table; `None` for a row typed as
    /// text, which is for the parameter its text names.
    pub param: Option<AttrValue>,
    /// The structured fields, when the row was last edited through them; `text` is then
    /// what they make.
    pub fields: Option<ArgFields>,
}

impl ArgRow {
    /// A row typed as text.
    pub fn typed(id: u32, text: AttrValue) -> ArgRow {
        ArgRow {
            id,
            text,
            param: None,
            fields: None,
        }
    }

    /// What the argument table needs to know of the row.
    pub fn input(&self) -> args::RowInput<'_> {
        args::RowInput {
            id: self.id,
            text: &self.text,
            param: self.param.as_deref(),
            fields: self.fields.as_ref(),
        }
    }
}

/// What the status line shows once a run has ended; taken from the engine's report once,
/// not on every frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub status: RunStatus,
    pub steps: u64,
    pub trace_hash: AttrValue,
    /// A litmus test's registers at the end (`1:r0=1 1:r1=0`), and whether its final
    /// condition holds.
    pub registers: Option<AttrValue>,
    pub exists: Option<bool>,
}

/// An explored execution replayed by the manual scheduler: the agent of every step and the
/// decisions of the steps that had several options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub schedule: Vec<u32>,
    pub choices: Vec<u32>,
}

/// How far an exploration has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Running,
    /// Asked to stop; the workers report what they found at the end of their chunk.
    Stopping,
    Done,
    /// Stopped before the end: the results cover the executions run until then.
    Cancelled,
    /// The scenario could not be explored, or a worker failed.
    Failed,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Running => "running",
            Phase::Stopping => "stopping",
            Phase::Done => "done",
            Phase::Cancelled => "cancelled",
            Phase::Failed => "failed",
        }
    }

    /// Whether the workers have all stopped.
    pub fn over(self) -> bool {
        matches!(self, Phase::Done | Phase::Cancelled | Phase::Failed)
    }
}

/// One worker's share of an exploration.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub executions: u64,
    /// The most executions it will run (for an exhaustive search, an upper bound); 0 until
    /// the worker has said.
    pub budget: u64,
    pub result: Option<Rc<Exploration>>,
    pub stopped: bool,
}

/// An exploration: going on, or over with its results.
#[derive(Clone, Debug, PartialEq)]
pub struct ExploreRun {
    /// Tells this exploration's worker messages from those of an earlier one.
    pub id: u64,
    pub mode: ExploreMode,
    /// The scenario explored (seeds and replays are taken relative to it).
    pub scenario: Rc<Scenario>,
    /// One per job, in seed order.
    pub parts: Vec<Part>,
    /// How many workers take the jobs.
    pub workers: usize,
    pub phase: Phase,
    /// The merged results, once every part has reported.
    pub result: Option<Rc<Exploration>>,
    /// Why the exploration failed, when a worker did.
    pub problem: Option<AttrValue>,
    /// The outcome last loaded into the main session.
    pub selected: Option<usize>,
}

impl ExploreRun {
    pub fn executions(&self) -> u64 {
        self.parts.iter().map(|p| p.executions).sum()
    }

    pub fn budget(&self) -> u64 {
        self.parts.iter().map(|p| p.budget).sum()
    }
}

/// How fast Run goes: as fast as the page allows, or slowly enough to watch the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// Chunks of about a frame's worth of steps, one after the other.
    Max,
    /// About this many steps a second.
    PerSecond(u32),
}

impl Speed {
    /// The speeds the run controls offer, with their labels.
    pub const CHOICES: [(Speed, &'static str); 4] = [
        (Speed::Max, "max"),
        (Speed::PerSecond(1000), "1000 steps/s"),
        (Speed::PerSecond(100), "100 steps/s"),
        (Speed::PerSecond(10), "10 steps/s"),
    ];

    pub fn label(self) -> &'static str {
        Speed::CHOICES
            .iter()
            .find(|(speed, _)| *speed == self)
            .map_or("max", |(_, label)| label)
    }
}

/// Where a run stops by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunTarget {
    /// The end of the run.
    End,
    /// The first step after which the session has more findings than this.
    NextFinding { after: usize },
    /// This step (a seek past the furthest step reached, which has to run the scheduler).
    Step(u64),
}

/// The sizes of the resizable panes, in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Panes {
    /// The editor's column.
    pub editor: f64,
    /// The inspector's column.
    pub inspector: f64,
    /// The height of the workspace (editor, timeline, inspector); the results follow below.
    pub workspace: f64,
}

impl Panes {
    pub const DEFAULT: Panes = Panes {
        editor: 520.0,
        inspector: 340.0,
        workspace: 640.0,
    };
    /// No pane gets narrower than this, so a drag cannot make one vanish.
    pub const MIN: f64 = 200.0;
    /// Nor wider than this.
    pub const MAX: f64 = 1400.0;
}

/// Which splitter a resize moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    Editor,
    Inspector,
    Workspace,
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub source: AttrValue,
    pub global: AttrValue,
    pub local: AttrValue,
    pub seed: AttrValue,
    pub scheduler: SchedulerKind,
    pub memory_model: MemoryModel,
    /// Replays an explored execution instead of running the scheduler.
    pub replay: Option<Rc<Replay>>,
    pub args: Rc<Vec<ArgRow>>,
    next_arg_id: u32,
    /// The example the editor holds, until it is edited.
    pub example: Option<&'static str>,
    pub theme: Theme,
    /// Bumped by every edit of the source or launch, so derived values (the scenario) are
    /// recomputed only when an input changed.
    pub revision: u64,
    /// Bumped whenever the session changes (created, stepped, replaced or dropped), so views
    /// that read the session know when to read it again.
    pub generation: u64,
    /// Whether a session built from the current inputs exists.
    pub live: bool,
    /// Whether a run is going on in chunks.
    pub running: bool,
    /// The end of the live session's run, once it has ended.
    pub summary: Option<Summary>,
    /// Why the last attempt to create a session failed.
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// The source the diagnostics refer to (their spans are offsets into it).
    pub diagnostics_source: AttrValue,
    /// Whether the inputs changed since the diagnostics were produced.
    pub diagnostics_stale: bool,
    /// Whether to open a session and run it as soon as the inputs are in place (after an
    /// explored outcome was loaded).
    pub autorun: bool,
    pub explore_mode: ExploreMode,
    pub explore_runs: AttrValue,
    pub explore_preemptions: AttrValue,
    pub exploration: Option<Rc<ExploreRun>>,
    /// The selected work-item (linear index): the inspector shows it, the editor marks its
    /// line and the timeline highlights its lane.
    pub selected: Option<usize>,
    pub inspector_tab: Tab,
    /// The memory the inspector's memory tab shows, once the user chose one.
    pub memory: Option<MemoryRef>,
    /// Whether the console shows only the selected work-item's output.
    pub console_only_selected: bool,
    pub speed: Speed,
    /// Where the run going on stops by itself.
    pub run_target: RunTarget,
    /// Whether the keyboard shortcuts overlay is open.
    pub help_open: bool,
    /// The finding last opened (by a click or by next/previous finding).
    pub finding: Option<usize>,
    /// `(serial, step)`: asks the timeline to bring `step` into view; the serial changes with
    /// every request, so asking twice for the same step works.
    pub reveal: Option<(u64, u64)>,
    pub panes: Panes,
    /// OpenCL C or CUDA; a litmus test is recognised from the source instead.
    pub dialect: Dialect,
    /// The kernel to launch when the source defines several.
    pub kernel: Option<AttrValue>,
    /// The global offset (OpenCL only).
    pub offset: AttrValue,
    pub warp_size: AttrValue,
    pub pct_depth: AttrValue,
    /// How many work-groups may be resident at once; empty for all of them.
    pub resident_groups: AttrValue,
    pub progress: Progress,
    pub granularity: Granularity,
    pub max_steps: AttrValue,
    /// The texts of the resource limit fields (`crate::form::LIMITS`, in order).
    pub limits: Rc<[AttrValue; 5]>,
    /// The fields of an opened scenario that the panel has no control for.
    pub carried: Rc<Carried>,
    /// The file the source was opened from.
    pub file_name: Option<AttrValue>,
    /// Whether the inputs were edited since an example or file was loaded (loading over
    /// edits keeps them in `stash`).
    pub edited: bool,
    /// Edits set aside by loading something over them, one click from coming back.
    pub stash: Option<Rc<Stash>>,
    /// The file the diagnostics are about, when they come from opening a file rather than
    /// from compiling the editor's source.
    pub diagnostics_file: Option<AttrValue>,
    /// A share link was opened: the step its run is to be shown at once a session is open.
    pub link_step: Option<u64>,
}

pub enum Action {
    EditSource(AttrValue),
    SetGlobal(AttrValue),
    SetLocal(AttrValue),
    SetSeed(AttrValue),
    SetScheduler(SchedulerKind),
    SetArg {
        id: u32,
        text: AttrValue,
    },
    AddArg,
    RemoveArg(u32),
    SetTheme(Theme),
    /// A fresh session was created from the current inputs.
    SessionOpened,
    /// Creating a session from `source` failed with these diagnostics.
    SessionFailed {
        diagnostics: Rc<Vec<Diagnostic>>,
        source: AttrValue,
    },
    /// The live session took steps; `ended` carries the summary if its run is now over.
    Advanced {
        ended: Option<Summary>,
    },
    /// The live session went back in time; `ended` is the summary if the step it is at now is
    /// the end of the run (it never is after a step back, but seeks may go either way).
    Rewound {
        ended: Option<Summary>,
    },
    RunStarted,
    RunStopped,
    SetMemoryModel(MemoryModel),
    /// Replaces the editor's text (and for a kernel, the launch) with an example.
    LoadExample(&'static Example),
    SetExploreMode(ExploreMode),
    SetExploreRuns(AttrValue),
    SetExplorePreemptions(AttrValue),
    /// Workers were started for a new exploration, one part each, with their budgets.
    ExploreStarted {
        id: u64,
        mode: ExploreMode,
        scenario: Rc<Scenario>,
        /// How many workers take the jobs.
        workers: usize,
        /// Each job's number of seeds (0 for an exhaustive search), in seed order.
        budgets: Vec<u64>,
    },
    /// A worker of exploration `id` reported.
    ExploreEvent {
        id: u64,
        part: usize,
        event: WorkerEvent,
    },
    /// The user asked the exploration to stop; its workers report what they have.
    ExploreStop,
    /// The workers were terminated without waiting for them.
    ExploreAbandoned,
    /// Loads the explored outcome at this index into the launch panel and runs it.
    LoadOutcome(usize),
    /// Loads the seed of the explored finding at this index and runs it.
    LoadFinding(usize),
    /// Selects a work-item (on the timeline, in the inspector, or by opening a finding).
    SelectWorkItem(usize),
    SetInspectorTab(Tab),
    SetMemory(MemoryRef),
    SetConsoleOnlySelected(bool),
    SetSpeed(Speed),
    /// Runs until the session has more findings than `after`, or the run ends.
    RunToFinding { after: usize },
    /// Runs until step `target`, or the run ends.
    RunToStep(u64),
    ToggleHelp,
    CloseHelp,
    /// Opens the finding at this index: the editor selects its place, the timeline shows its
    /// step and its work-item becomes the selected one (`work_item`, a lane, when known).
    OpenFinding {
        index: usize,
        step: Option<u64>,
        work_item: Option<usize>,
    },
    /// Moves a splitter: the pane's new size in CSS pixels.
    ResizePane { pane: Pane, size: f64 },
    /// A session was opened with this many work-items: a selection beyond them is dropped.
    WorkItemsKnown(usize),
    /// Switches between OpenCL C and CUDA (sizes become a grid of blocks and back).
    SetDialect(Dialect),
    SetKernel(AttrValue),
    SetOffset(AttrValue),
    SetWarpSize(AttrValue),
    SetPctDepth(AttrValue),
    SetResidentGroups(AttrValue),
    SetProgress(Progress),
    SetGranularity(Granularity),
    SetMaxSteps(AttrValue),
    /// The text of the resource limit field `crate::form::LIMITS[k]`.
    SetLimit(usize, AttrValue),
    /// The argument table's fields for the parameter `fields.name`.
    SetArgFields(ArgFields),
    /// The argument table's text for parameter `param`.
    SetArgText {
        param: AttrValue,
        text: AttrValue,
    },
    /// Files chosen in the picker or dropped on the page, read as text.
    OpenFiles(Vec<OpenedFile>),
    /// Brings back the inputs set aside by the last load (and sets aside what was loaded).
    RestoreEdits,
    /// Forgets the inputs set aside.
    DismissStash,
    /// Loads a share link's scenario (setting the inputs aside like an example) and its view.
    OpenLink(Rc<Link>),
    /// A share link could not be read: its diagnostic goes to the Problems list.
    LinkFailed(Diagnostic),
    /// The session of an opened link was started.
    LinkStarted,
}

impl State {
    pub fn new(theme: Theme) -> State {
        let args: Vec<ArgRow> = DEFAULT_ARGS
            .iter()
            .enumerate()
            .map(|(i, text)| text_row(i as u32, text))
            .collect();
        State {
            source: AttrValue::from(DEFAULT_SOURCE),
            global: AttrValue::from("8"),
            local: AttrValue::from("4"),
            seed: AttrValue::from("1"),
            scheduler: SchedulerKind::Random,
            memory_model: MemoryModel::Sc,
            replay: None,
            next_arg_id: args.len() as u32,
            args: Rc::new(args),
            example: Some(examples::DEFAULT.id),
            theme,
            revision: 0,
            generation: 0,
            live: false,
            running: false,
            summary: None,
            diagnostics: Rc::default(),
            diagnostics_source: AttrValue::default(),
            diagnostics_stale: false,
            autorun: false,
            explore_mode: ExploreMode::Random,
            explore_runs: AttrValue::from(explore::DEFAULT_RUNS.to_string()),
            explore_preemptions: AttrValue::default(),
            exploration: None,
            selected: None,
            inspector_tab: Tab::WorkItem,
            memory: None,
            console_only_selected: false,
            speed: Speed::Max,
            run_target: RunTarget::End,
            help_open: false,
            finding: None,
            reveal: None,
            panes: Panes::DEFAULT,
            dialect: Dialect::OpenCl,
            kernel: None,
            offset: AttrValue::default(),
            warp_size: AttrValue::from(Scenario::default().warp_size.to_string()),
            pct_depth: AttrValue::from(Scenario::default().pct_depth.to_string()),
            resident_groups: AttrValue::default(),
            progress: Progress::OccupancyBound,
            granularity: Granularity::Event,
            max_steps: AttrValue::from(Scenario::default().max_steps.to_string()),
            limits: Rc::new(crate::form::limit_texts(&Scenario::default()).map(AttrValue::from)),
            carried: Rc::default(),
            file_name: None,
            edited: false,
            stash: None,
            diagnostics_file: None,
            link_step: None,
        }
    }

    /// The state the page starts with after a reload: `stored`'s inputs over the defaults.
    pub fn from_stored(theme: Theme, stored: &inputs::Stored) -> State {
        let mut state = State::new(theme);
        state.set_inputs(&stored.current);
        state.edited = stored.edited;
        state.stash = stored.stash.clone().map(Rc::new);
        state
    }

    /// The inputs as they are, for storing them or setting them aside.
    pub fn inputs(&self) -> Inputs {
        Inputs {
            source: self.source.to_string(),
            dialect: inputs::dialect_name(self.dialect).into(),
            kernel: self.kernel.as_ref().map(|k| k.to_string()),
            global: self.global.to_string(),
            local: self.local.to_string(),
            offset: self.offset.to_string(),
            seed: self.seed.to_string(),
            scheduler: self.scheduler.name().into(),
            pct_depth: self.pct_depth.to_string(),
            memory_model: MEMORY_MODELS
                .iter()
                .find(|(model, _, _)| *model == self.memory_model)
                .map_or("sc", |(_, name, _)| name)
                .into(),
            warp_size: self.warp_size.to_string(),
            resident_groups: self.resident_groups.to_string(),
            progress: self.progress.name().into(),
            granularity: self.granularity.name().into(),
            max_steps: self.max_steps.to_string(),
            limits: self.limits.iter().map(|t| t.to_string()).collect(),
            args: self
                .args
                .iter()
                .map(|row| StoredArg {
                    text: row.text.to_string(),
                    param: row.param.as_ref().map(|p| p.to_string()),
                    fields: row
                        .fields
                        .as_ref()
                        .and_then(|f| serde_json::to_value(f).ok()),
                })
                .collect(),
            replay: self.replay.as_ref().map(|r| StoredReplay {
                schedule: r.schedule.clone(),
                choices: r.choices.clone(),
            }),
            carried: Carried::clone(&self.carried),
            example: self.example.map(str::to_string),
            file_name: self.file_name.as_ref().map(|f| f.to_string()),
        }
    }

    /// Puts `inputs` in the editor and the launch panel. Names that are not known (from an
    /// older or damaged stored value) leave the field at its default.
    fn set_inputs(&mut self, inputs: &Inputs) {
        let defaults = State::new(self.theme);
        let text = |value: &str| AttrValue::from(value.to_string());
        self.source = text(&inputs.source);
        self.dialect = DIALECTS
            .iter()
            .find(|(_, name, _)| *name == inputs.dialect)
            .map_or(Dialect::OpenCl, |(dialect, _, _)| *dialect);
        self.kernel = inputs.kernel.as_deref().map(text);
        self.global = text(&inputs.global);
        self.local = text(&inputs.local);
        self.offset = text(&inputs.offset);
        self.seed = text(&inputs.seed);
        self.scheduler = SchedulerKind::parse(&inputs.scheduler)
            .filter(|kind| SCHEDULERS.contains(kind))
            .unwrap_or(defaults.scheduler);
        self.pct_depth = text(&inputs.pct_depth);
        self.memory_model = MEMORY_MODELS
            .iter()
            .find(|(_, name, _)| *name == inputs.memory_model)
            .map_or(defaults.memory_model, |(model, _, _)| *model);
        self.warp_size = text(&inputs.warp_size);
        self.resident_groups = text(&inputs.resident_groups);
        self.progress = Progress::parse(&inputs.progress).unwrap_or_default();
        self.granularity = Granularity::parse(&inputs.granularity).unwrap_or_default();
        self.max_steps = text(&inputs.max_steps);
        let defaults = crate::form::limit_texts(&Scenario::default());
        self.limits = Rc::new(std::array::from_fn(|k| {
            AttrValue::from(inputs.limits.get(k).cloned().unwrap_or_else(|| defaults[k].clone()))
        }));
        let first = self.next_arg_id;
        let rows: Vec<ArgRow> = inputs
            .args
            .iter()
            .enumerate()
            .map(|(i, stored)| {
                let id = first + i as u32;
                match stored.fields() {
                    Some(fields) => ArgRow {
                        id,
                        text: AttrValue::from(fields.text()),
                        param: stored.param.as_deref().map(text),
                        fields: Some(fields),
                    },
                    None => ArgRow {
                        param: stored.param.as_deref().map(text),
                        ..text_row(id, &stored.text)
                    },
                }
            })
            .collect();
        self.next_arg_id += rows.len() as u32;
        self.args = Rc::new(rows);
        self.replay = inputs.replay.as_ref().map(|r| {
            Rc::new(Replay {
                schedule: r.schedule.clone(),
                choices: r.choices.clone(),
            })
        });
        self.carried = Rc::new(inputs.carried.clone());
        self.example = inputs
            .example
            .as_deref()
            .and_then(examples::find)
            .map(|e| e.id);
        self.file_name = inputs.file_name.as_deref().map(text);
    }

    /// Loads something (`label`) in place of the inputs: what `load` sets replaces them, and
    /// edits are set aside in the stash rather than lost. The replay of an earlier input
    /// does not carry over.
    fn replace_inputs(&mut self, label: &str, load: impl FnOnce(&mut State)) {
        let edits = self.edited.then(|| self.inputs());
        self.replay = None;
        load(self);
        let replay = self.replay.clone();
        self.invalidate();
        self.replay = replay;
        self.edited = false;
        self.stash = match (edits, &self.stash) {
            (Some(inputs), _) => Some(Rc::new(Stash {
                label: label.to_string(),
                inputs,
                restored: false,
            })),
            // Nothing new to keep: edits set aside earlier stay, under the new name.
            (None, Some(stash)) if !stash.restored => Some(Rc::new(Stash {
                label: label.to_string(),
                ..Stash::clone(stash)
            })),
            (None, _) => None,
        };
    }

    /// Sets the argument row of parameter `param` (adding it when it has none yet).
    fn set_arg_row(&mut self, param: &str, text: AttrValue, fields: Option<ArgFields>) {
        let mut rows = (*self.args).clone();
        let found = rows.iter_mut().find(|row| row.input().key() == param);
        let row = ArgRow {
            id: found.as_ref().map_or(self.next_arg_id, |row| row.id),
            text,
            param: Some(AttrValue::from(param.to_string())),
            fields,
        };
        match found {
            Some(slot) => *slot = row,
            None => {
                self.next_arg_id += 1;
                rows.push(row);
            }
        }
        self.args = Rc::new(rows);
    }

    /// Whether an exploration's workers are still at work.
    pub fn exploring(&self) -> bool {
        self.exploration
            .as_ref()
            .is_some_and(|run| !run.phase.over())
    }

    /// Whether the live session's run has ended.
    pub fn ended(&self) -> bool {
        self.live && self.summary.is_some()
    }

    /// Any edit of the scenario makes the session describe a different program or launch, so
    /// it is dropped and the next Run or Step starts a new one.
    fn invalidate(&mut self) {
        self.edited = true;
        self.revision += 1;
        self.generation += 1;
        self.live = false;
        self.running = false;
        self.summary = None;
        self.diagnostics_stale = true;
        // A replay is one execution of one program: any edit leaves it meaningless.
        self.replay = None;
        self.autorun = false;
        self.finding = None;
        self.link_step = None;
    }

    /// Sets `f` on a copy of the exploration, if there is one.
    fn update_exploration(&mut self, f: impl FnOnce(&mut ExploreRun)) {
        if let Some(run) = &self.exploration {
            let mut run = ExploreRun::clone(run);
            f(&mut run);
            self.exploration = Some(Rc::new(run));
        }
    }

    /// Puts the launch panel on an explored execution: its seed, and its replay when the
    /// seed alone does not reproduce it; then asks for a run.
    fn load(&mut self, seed: u64, replay: Option<Replay>, scheduler: SchedulerKind) {
        self.invalidate();
        self.seed = AttrValue::from(seed.to_string());
        match replay {
            Some(replay) => self.replay = Some(Rc::new(replay)),
            None => self.scheduler = scheduler,
        }
        self.autorun = true;
    }
}

impl Default for State {
    fn default() -> State {
        State::new(Theme::Light)
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(reduce(&self, action))
    }
}

/// The reducer proper, by reference so that tests can call it without `Rc`.
pub fn reduce(state: &State, action: Action) -> State {
    let mut next = state.clone();
    match action {
        Action::EditSource(text) => {
            if text == state.source {
                return next;
            }
            next.source = text;
            next.example = None;
            next.invalidate();
        }
        Action::LoadExample(example) => next.replace_inputs(example.title, |next| {
            // A gallery example's scenario file sets every input (its launch, seed, scheduler,
            // memory model, residency...), as opening the file would.
            if let Some(Ok(scenario)) = example.scenario() {
                next.set_inputs(&inputs::from_scenario(&scenario));
            }
            next.source = AttrValue::from(example.source);
            next.example = Some(example.id);
            next.file_name = None;
            if let Some(launch) = example.launch {
                next.dialect = Dialect::OpenCl;
                next.kernel = None;
                next.global = AttrValue::from(launch.global);
                next.local = AttrValue::from(launch.local);
                next.offset = AttrValue::default();
                let args: Vec<ArgRow> = launch
                    .args
                    .iter()
                    .enumerate()
                    .map(|(i, text)| text_row(next.next_arg_id + i as u32, text))
                    .collect();
                next.next_arg_id += args.len() as u32;
                next.args = Rc::new(args);
                next.carried = Rc::default();
            }
        }),
        Action::SetMemoryModel(model) => {
            next.memory_model = model;
            next.invalidate();
        }
        Action::SetGlobal(text) => {
            next.global = text;
            next.invalidate();
        }
        Action::SetLocal(text) => {
            next.local = text;
            next.invalidate();
        }
        Action::SetSeed(text) => {
            next.seed = text;
            next.invalidate();
        }
        Action::SetScheduler(kind) => {
            next.scheduler = kind;
            next.invalidate();
        }
        Action::SetArg { id, text } => {
            let mut args = (*state.args).clone();
            if let Some(row) = args.iter_mut().find(|row| row.id == id) {
                // Typed text is what counts from now on; the fields follow it.
                row.text = text;
                row.fields = None;
            }
            next.args = Rc::new(args);
            next.invalidate();
        }
        Action::AddArg => {
            let mut args = (*state.args).clone();
            args.push(ArgRow::typed(state.next_arg_id, AttrValue::default()));
            next.next_arg_id += 1;
            next.args = Rc::new(args);
            next.invalidate();
        }
        Action::RemoveArg(id) => {
            let args = state
                .args
                .iter()
                .filter(|row| row.id != id)
                .cloned()
                .collect();
            next.args = Rc::new(args);
            next.invalidate();
        }
        Action::SetTheme(theme) => next.theme = theme,
        Action::SessionOpened => {
            next.finding = None;
            next.autorun = false;
            next.generation += 1;
            next.live = true;
            next.running = false;
            next.summary = None;
            next.diagnostics = Rc::default();
            next.diagnostics_stale = false;
            next.diagnostics_file = None;
        }
        Action::SessionFailed {
            diagnostics,
            source,
        } => {
            next.autorun = false;
            next.generation += 1;
            next.diagnostics_source = source;
            next.live = false;
            next.running = false;
            next.summary = None;
            next.diagnostics = diagnostics;
            next.diagnostics_stale = false;
            next.diagnostics_file = None;
        }
        Action::Advanced { ended } => {
            // Steps of a session that an edit has already dropped change nothing on screen.
            if !state.live {
                return next;
            }
            next.generation += 1;
            if ended.is_some() {
                next.summary = ended;
                next.running = false;
            }
        }
        Action::Rewound { ended } => {
            if !state.live {
                return next;
            }
            next.generation += 1;
            next.summary = ended;
            next.running = false;
        }
        Action::RunStarted => {
            next.running = state.live && state.summary.is_none();
            next.run_target = RunTarget::End;
        }
        Action::RunToFinding { after } => {
            next.running = state.live && state.summary.is_none();
            next.run_target = RunTarget::NextFinding { after };
        }
        Action::RunToStep(target) => {
            next.running = state.live && state.summary.is_none();
            next.run_target = RunTarget::Step(target);
        }
        Action::RunStopped => next.running = false,
        Action::SetExploreMode(mode) => next.explore_mode = mode,
        Action::SetExploreRuns(text) => next.explore_runs = text,
        Action::SetExplorePreemptions(text) => next.explore_preemptions = text,
        Action::ExploreStarted {
            id,
            mode,
            scenario,
            workers,
            budgets,
        } => {
            let parts = budgets
                .into_iter()
                .map(|budget| Part {
                    executions: 0,
                    budget,
                    result: None,
                    stopped: false,
                })
                .collect();
            next.exploration = Some(Rc::new(ExploreRun {
                id,
                mode,
                scenario,
                parts,
                workers,
                phase: Phase::Running,
                result: None,
                problem: None,
                selected: None,
            }));
        }
        Action::ExploreEvent { id, part, event } => {
            let current = state
                .exploration
                .as_ref()
                .is_some_and(|run| run.id == id && !run.phase.over() && part < run.parts.len());
            if !current {
                return next;
            }
            if let WorkerEvent::Failed { diagnostics } = &event {
                next.diagnostics_file = None;
                next.diagnostics = Rc::new(diagnostics.clone());
                next.diagnostics_source = state
                    .exploration
                    .as_ref()
                    .map(|run| AttrValue::from(run.scenario.source.clone()))
                    .unwrap_or_default();
                next.diagnostics_stale = false;
            }
            next.update_exploration(|run| explore_event(run, part, event));
        }
        Action::ExploreStop => next.update_exploration(|run| {
            if run.phase == Phase::Running {
                run.phase = Phase::Stopping;
            }
        }),
        Action::ExploreAbandoned => next.update_exploration(|run| {
            if !run.phase.over() {
                run.phase = Phase::Cancelled;
                run.result = merged(&run.parts, false);
            }
        }),
        Action::LoadOutcome(index) => {
            let Some(run) = &state.exploration else {
                return next;
            };
            let Some(outcome) = run.result.as_ref().and_then(|r| r.outcomes.get(index)) else {
                return next;
            };
            let replay = outcome.schedule.as_ref().map(|schedule| Replay {
                schedule: schedule.clone(),
                choices: outcome.choices.clone().unwrap_or_default(),
            });
            next.load(outcome.seed, replay, run.scenario.scheduler);
            next.update_exploration(|run| run.selected = Some(index));
        }
        Action::LoadFinding(index) => {
            let Some(run) = &state.exploration else {
                return next;
            };
            let Some(found) = run.result.as_ref().and_then(|r| r.findings.get(index)) else {
                return next;
            };
            // A finding of the exhaustive search replays from its schedule and decisions; one
            // of random exploration from its seed, whose run is the one that showed it. (The
            // finding that stopped an exhaustive search has neither.)
            let replay = found.schedule.as_ref().map(|schedule| Replay {
                schedule: schedule.clone(),
                choices: found.choices.clone().unwrap_or_default(),
            });
            if replay.is_none() && run.mode != ExploreMode::Random {
                return next;
            }
            next.load(found.seed, replay, run.scenario.scheduler);
            next.update_exploration(|run| run.selected = None);
        }
        Action::SelectWorkItem(index) => next.selected = Some(index),
        Action::SetInspectorTab(tab) => next.inspector_tab = tab,
        Action::SetMemory(memory) => next.memory = Some(memory),
        Action::SetConsoleOnlySelected(only) => next.console_only_selected = only,
        Action::SetSpeed(speed) => next.speed = speed,
        Action::ToggleHelp => next.help_open = !state.help_open,
        Action::CloseHelp => next.help_open = false,
        Action::OpenFinding {
            index,
            step,
            work_item,
        } => {
            next.finding = Some(index);
            if let Some(step) = step {
                let serial = state.reveal.map_or(1, |(serial, _)| serial + 1);
                next.reveal = Some((serial, step));
            }
            if work_item.is_some() {
                next.selected = work_item;
            }
        }
        Action::ResizePane { pane, size } => {
            let size = if size.is_finite() {
                size.clamp(Panes::MIN, Panes::MAX)
            } else {
                return next;
            };
            match pane {
                Pane::Editor => next.panes.editor = size,
                Pane::Inspector => next.panes.inspector = size,
                Pane::Workspace => next.panes.workspace = size,
            }
        }
        Action::WorkItemsKnown(count) => next.selected = state.selected.filter(|&s| s < count),
        Action::SetDialect(dialect) => {
            if dialect == state.dialect || dialect == Dialect::Litmus {
                return next;
            }
            let (global, local) = form::convert_sizes(&state.global, &state.local, dialect);
            next.global = AttrValue::from(global);
            next.local = AttrValue::from(local);
            next.dialect = dialect;
            next.invalidate();
        }
        Action::SetKernel(name) => {
            next.kernel = Some(name);
            next.invalidate();
        }
        Action::SetOffset(text) => {
            next.offset = text;
            next.invalidate();
        }
        Action::SetWarpSize(text) => {
            next.warp_size = text;
            next.invalidate();
        }
        Action::SetPctDepth(text) => {
            next.pct_depth = text;
            next.invalidate();
        }
        Action::SetResidentGroups(text) => {
            next.resident_groups = text;
            next.invalidate();
        }
        Action::SetProgress(progress) => {
            next.progress = progress;
            next.invalidate();
        }
        Action::SetGranularity(granularity) => {
            next.granularity = granularity;
            next.invalidate();
        }
        Action::SetMaxSteps(text) => {
            next.max_steps = text;
            next.invalidate();
        }
        Action::SetLimit(k, text) => {
            if k < next.limits.len() {
                let mut limits = (*next.limits).clone();
                limits[k] = text;
                next.limits = Rc::new(limits);
                next.invalidate();
            }
        }
        Action::SetArgFields(fields) => {
            let param = fields.name.clone();
            next.set_arg_row(&param, AttrValue::from(fields.text()), Some(fields));
            next.invalidate();
        }
        Action::SetArgText { param, text } => {
            next.set_arg_row(&param, text, None);
            next.invalidate();
        }
        Action::OpenFiles(opened) => match files::open(&opened) {
            Ok(opened) => next.replace_inputs(&opened.label, |next| {
                // The problems of a file opened before are settled by this one.
                if next.diagnostics_file.take().is_some() {
                    next.diagnostics = Rc::default();
                }
                match opened.change {
                    Change::Source {
                        source,
                        dialect,
                        file_name,
                    } => {
                        next.source = AttrValue::from(source);
                        if let Some(dialect) = dialect {
                            let (global, local) =
                                form::convert_sizes(&next.global, &next.local, dialect);
                            next.global = AttrValue::from(global);
                            next.local = AttrValue::from(local);
                            next.dialect = dialect;
                        }
                        next.kernel = None;
                        next.example = None;
                        next.file_name = Some(AttrValue::from(file_name));
                    }
                    Change::Scenario(inputs) => next.set_inputs(&inputs),
                }
            }),
            Err(failure) => {
                next.diagnostics = Rc::new(failure.diagnostics);
                next.diagnostics_source = AttrValue::from(failure.source);
                next.diagnostics_file = Some(AttrValue::from(failure.file_name));
                next.diagnostics_stale = false;
                next.generation += 1;
            }
        },
        Action::RestoreEdits => {
            let Some(stash) = &state.stash else {
                return next;
            };
            let loaded = state.inputs();
            next.set_inputs(&stash.inputs);
            next.invalidate();
            next.edited = !stash.restored;
            next.stash = Some(Rc::new(Stash {
                label: stash.label.clone(),
                inputs: loaded,
                restored: !stash.restored,
            }));
        }
        Action::DismissStash => next.stash = None,
        Action::OpenLink(link) => {
            let label = match link.scenario.title.trim() {
                "" => "a shared link".to_string(),
                title => title.to_string(),
            };
            next.replace_inputs(&label, |next| {
                if next.diagnostics_file.take().is_some() {
                    next.diagnostics = Rc::default();
                }
                next.set_inputs(&inputs::from_scenario(&link.scenario));
                next.example = None;
            });
            next.selected = link.view.selected.map(|s| s as usize);
            if let Some(tab) = share::tab_of(link.view.panel.as_deref()) {
                next.inspector_tab = tab;
            }
            next.link_step = Some(link.view.step.unwrap_or(0));
        }
        Action::LinkFailed(diagnostic) => {
            next.diagnostics = Rc::new(vec![diagnostic]);
            next.diagnostics_source = AttrValue::default();
            next.diagnostics_file = Some(AttrValue::from("link"));
            next.diagnostics_stale = false;
            next.generation += 1;
        }
        Action::LinkStarted => next.link_step = None,
    }
    next
}

/// A row typed as text, shown in the table with the fields its text stands for.
fn text_row(id: u32, text: &str) -> ArgRow {
    ArgRow::typed(id, AttrValue::from(text.to_string()))
}

/// Applies one worker's report to its exploration.
fn explore_event(run: &mut ExploreRun, part: usize, event: WorkerEvent) {
    match event {
        WorkerEvent::Progress { executions, budget } => {
            run.parts[part].executions = executions;
            run.parts[part].budget = budget;
        }
        WorkerEvent::Done {
            exploration,
            stopped,
        } => {
            let slot = &mut run.parts[part];
            slot.executions = exploration.runs + exploration.discarded;
            slot.stopped = stopped;
            slot.result = Some(exploration);
            if run.parts.iter().all(|p| p.result.is_some()) {
                let stopped = run.phase == Phase::Stopping || run.parts.iter().any(|p| p.stopped);
                run.phase = if stopped {
                    Phase::Cancelled
                } else {
                    Phase::Done
                };
                run.result = merged(&run.parts, true);
            }
        }
        WorkerEvent::Failed { .. } => {
            run.phase = Phase::Failed;
            run.problem = Some("the scenario could not be explored; see the problems below".into());
        }
        WorkerEvent::Crashed { message } => {
            run.phase = Phase::Failed;
            run.problem = Some(message.into());
            run.result = merged(&run.parts, false);
        }
    }
}

/// The results of the parts that have reported, merged; with `all`, only once every part
/// has. A lone part is its own result.
fn merged(parts: &[Part], all: bool) -> Option<Rc<Exploration>> {
    let done: Vec<&Rc<Exploration>> = parts.iter().filter_map(|p| p.result.as_ref()).collect();
    if done.is_empty() || (all && done.len() < parts.len()) {
        return None;
    }
    if let [only] = done.as_slice() {
        return Some(Rc::clone(only));
    }
    let explorations: Vec<Exploration> = done.iter().map(|e| Exploration::clone(e)).collect();
    Some(Rc::new(explore::merge(&explorations)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_back_from_the_end_reopens_the_run() {
        let ended = reduce(
            &opened(),
            Action::Advanced {
                ended: Some(summary(RunStatus::Completed)),
            },
        );
        assert!(ended.ended());
        let back = reduce(&ended, Action::Rewound { ended: None });
        assert!(!back.ended() && back.live && !back.running);
        assert!(back.generation > ended.generation);
    }

    fn opened() -> State {
        reduce(&State::default(), Action::SessionOpened)
    }

    #[test]
    fn run_to_finding_runs_with_its_target_and_run_resets_it() {
        let to_finding = reduce(&opened(), Action::RunToFinding { after: 2 });
        assert!(to_finding.running);
        assert_eq!(to_finding.run_target, RunTarget::NextFinding { after: 2 });
        let paused = reduce(&to_finding, Action::RunStopped);
        let run = reduce(&paused, Action::RunStarted);
        assert!(run.running);
        assert_eq!(run.run_target, RunTarget::End);
        // Without a session nothing runs.
        let idle = reduce(&State::default(), Action::RunToFinding { after: 0 });
        assert!(!idle.running);
    }

    #[test]
    fn opening_a_finding_reveals_its_step_and_selects_its_work_item() {
        let first = reduce(
            &opened(),
            Action::OpenFinding {
                index: 1,
                step: Some(12),
                work_item: Some(3),
            },
        );
        assert_eq!(first.finding, Some(1));
        assert_eq!(first.selected, Some(3));
        let (serial, step) = first.reveal.expect("a reveal request");
        assert_eq!(step, 12);
        // Opening the same finding again asks again, with a new serial.
        let again = reduce(
            &first,
            Action::OpenFinding {
                index: 1,
                step: Some(12),
                work_item: None,
            },
        );
        assert_eq!(again.reveal, Some((serial + 1, 12)));
        assert_eq!(again.selected, Some(3), "no work-item keeps the selection");
        // A new session forgets which finding was open, but not the selection.
        let reopened = reduce(&again, Action::SessionOpened);
        assert_eq!(reopened.finding, None);
        assert_eq!(reopened.selected, Some(3));
    }

    #[test]
    fn panes_stay_within_their_bounds() {
        let wide = reduce(
            &State::default(),
            Action::ResizePane {
                pane: Pane::Editor,
                size: 1e9,
            },
        );
        assert_eq!(wide.panes.editor, Panes::MAX);
        let narrow = reduce(
            &wide,
            Action::ResizePane {
                pane: Pane::Inspector,
                size: 3.0,
            },
        );
        assert_eq!(narrow.panes.inspector, Panes::MIN);
        let nan = reduce(
            &narrow,
            Action::ResizePane {
                pane: Pane::Workspace,
                size: f64::NAN,
            },
        );
        assert_eq!(nan.panes, narrow.panes);
    }

    #[test]
    fn view_settings_keep_the_session() {
        let state = opened();
        let actions: Vec<Action> = vec![
            Action::SelectWorkItem(2),
            Action::SetInspectorTab(Tab::Locks),
            Action::SetConsoleOnlySelected(true),
            Action::SetSpeed(Speed::PerSecond(10)),
            Action::ToggleHelp,
            Action::ResizePane {
                pane: Pane::Workspace,
                size: 400.0,
            },
        ];
        let mut now = state.clone();
        for action in actions {
            now = reduce(&now, action);
            assert!(now.live);
            assert_eq!(now.generation, state.generation);
            assert_eq!(now.revision, state.revision);
        }
        assert_eq!(now.selected, Some(2));
        assert_eq!(now.inspector_tab, Tab::Locks);
        assert!(now.console_only_selected && now.help_open);
        assert_eq!(now.speed.label(), "10 steps/s");
        assert!(!reduce(&now, Action::CloseHelp).help_open);
    }

    fn summary(status: RunStatus) -> Summary {
        Summary {
            status,
            steps: 42,
            trace_hash: "3fa2".into(),
            registers: None,
            exists: None,
        }
    }

    #[test]
    fn starts_with_the_example_and_its_launch() {
        let state = State::default();
        assert!(state.source.contains("__kernel void count"));
        assert_eq!(state.global.as_str(), "8");
        assert_eq!(state.local.as_str(), "4");
        assert_eq!(state.seed.as_str(), "1");
        let args: Vec<&str> = state.args.iter().map(|row| row.text.as_str()).collect();
        assert_eq!(args, DEFAULT_ARGS);
        assert!(!state.live && !state.running);
    }

    #[test]
    fn opening_a_session_clears_old_diagnostics() {
        let failed = reduce(
            &State::default(),
            Action::SessionFailed {
                diagnostics: Rc::new(vec![Diagnostic::error("syntax-error", "bad")]),
                source: "bad".into(),
            },
        );
        assert_eq!(failed.diagnostics.len(), 1);
        assert!(!failed.live);
        let opened = reduce(&failed, Action::SessionOpened);
        assert!(opened.live);
        assert!(opened.diagnostics.is_empty());
        assert!(opened.generation > failed.generation);
    }

    #[test]
    fn every_edit_invalidates_the_session() {
        let edits: Vec<fn() -> Action> = vec![
            || Action::EditSource("__kernel void k() {}".into()),
            || Action::SetGlobal("16".into()),
            || Action::SetLocal("".into()),
            || Action::SetSeed("7".into()),
            || Action::SetScheduler(SchedulerKind::Pct),
            || Action::SetArg {
                id: 0,
                text: "ids=int[16]".into(),
            },
            || Action::AddArg,
            || Action::RemoveArg(1),
            || Action::SetMemoryModel(MemoryModel::Relaxed),
            || Action::LoadExample(&examples::EXAMPLES[1]),
        ];
        for edit in edits {
            let running = reduce(&opened(), Action::RunStarted);
            assert!(running.running);
            let edited = reduce(&running, edit());
            assert!(!edited.live);
            assert!(!edited.running);
            assert!(edited.revision > running.revision);
            assert!(edited.generation > running.generation);
        }
    }

    #[test]
    fn an_unchanged_source_keeps_the_session() {
        let state = opened();
        let same = reduce(&state, Action::EditSource(state.source.clone()));
        assert!(same.live);
        assert_eq!(same.revision, state.revision);
    }

    #[test]
    fn argument_rows_keep_their_ids() {
        let added = reduce(&State::default(), Action::AddArg);
        assert_eq!(added.args.len(), 3);
        let removed = reduce(&added, Action::RemoveArg(0));
        let ids: Vec<u32> = removed.args.iter().map(|row| row.id).collect();
        assert_eq!(ids, [1, 2]);
        let edited = reduce(
            &removed,
            Action::SetArg {
                id: 2,
                text: "n=int:3".into(),
            },
        );
        assert_eq!(edited.args[1].text.as_str(), "n=int:3");
        let again = reduce(&edited, Action::AddArg);
        assert_eq!(again.args[2].id, 3);
    }

    #[test]
    fn a_run_stops_when_it_ends() {
        let running = reduce(&opened(), Action::RunStarted);
        let progressed = reduce(&running, Action::Advanced { ended: None });
        assert!(progressed.running);
        assert!(progressed.generation > running.generation);
        let ended = reduce(
            &progressed,
            Action::Advanced {
                ended: Some(summary(RunStatus::Completed)),
            },
        );
        assert!(!ended.running);
        assert!(ended.ended());
        assert_eq!(ended.summary.as_ref().map(|s| s.steps), Some(42));
        // An ended run cannot be started again; Reset makes a new session for that.
        assert!(!reduce(&ended, Action::RunStarted).running);
        let reset = reduce(&ended, Action::SessionOpened);
        assert!(reset.summary.is_none());
    }

    #[test]
    fn pausing_stops_the_run_but_keeps_the_session() {
        let running = reduce(&opened(), Action::RunStarted);
        let paused = reduce(&running, Action::RunStopped);
        assert!(!paused.running);
        assert!(paused.live);
    }

    #[test]
    fn a_run_needs_a_session() {
        assert!(!reduce(&State::default(), Action::RunStarted).running);
        let advanced = reduce(&State::default(), Action::Advanced { ended: None });
        assert_eq!(advanced.generation, 0);
    }

    #[test]
    fn the_theme_toggles_without_touching_the_session() {
        let state = opened();
        let dark = reduce(&state, Action::SetTheme(state.theme.other()));
        assert_eq!(dark.theme, Theme::Dark);
        assert!(dark.live);
        assert_eq!(dark.generation, state.generation);
    }

    use interleave_engine::explore::{explore_with, Config};
    use interleave_engine::scenario::Dialect;

    fn mp() -> Scenario {
        let mut scenario =
            Scenario::new(examples::EXAMPLES[1].source, "test.litmus", Dialect::Litmus);
        scenario.memory_model = MemoryModel::Relaxed;
        scenario
    }

    fn explored(state: &State, id: u64, mode: ExploreMode, parts: usize) -> State {
        reduce(
            state,
            Action::ExploreStarted {
                id,
                mode,
                scenario: Rc::new(mp()),
                workers: parts,
                budgets: vec![100; parts],
            },
        )
    }

    fn done(id: u64, part: usize, config: Config, stopped: bool) -> Action {
        Action::ExploreEvent {
            id,
            part,
            event: WorkerEvent::Done {
                exploration: Rc::new(explore_with(&mp(), config).unwrap()),
                stopped,
            },
        }
    }

    fn seeds(first_seed: u64, runs: u64) -> Config {
        Config {
            runs,
            first_seed,
            exhaustive: false,
            max_preemptions: None,
        }
    }

    const EXHAUSTIVE: Config = Config {
        runs: 0,
        first_seed: 0,
        exhaustive: true,
        max_preemptions: None,
    };

    #[test]
    fn an_exploration_merges_its_parts_when_all_have_reported() {
        let state = explored(&State::default(), 1, ExploreMode::Random, 2);
        assert!(state.exploring());
        let progress = reduce(
            &state,
            Action::ExploreEvent {
                id: 1,
                part: 1,
                event: WorkerEvent::Progress {
                    executions: 40,
                    budget: 100,
                },
            },
        );
        let run = progress.exploration.clone().unwrap();
        assert_eq!((run.executions(), run.budget()), (40, 200));
        let half = reduce(&progress, done(1, 0, seeds(0, 100), false));
        assert_eq!(half.exploration.as_ref().unwrap().phase, Phase::Running);
        assert!(half.exploration.as_ref().unwrap().result.is_none());
        let all = reduce(&half, done(1, 1, seeds(100, 100), false));
        let run = all.exploration.clone().unwrap();
        assert_eq!(run.phase, Phase::Done);
        assert!(!all.exploring());
        let result = run.result.clone().unwrap();
        assert_eq!(result, Rc::new(explore_with(&mp(), seeds(0, 200)).unwrap()));
        assert_eq!(run.executions(), 200);
    }

    #[test]
    fn messages_of_an_earlier_exploration_are_ignored() {
        let state = explored(&State::default(), 2, ExploreMode::Exhaustive, 1);
        let stale = reduce(&state, done(1, 0, EXHAUSTIVE, false));
        assert_eq!(stale.exploration, state.exploration);
        let out_of_range = reduce(&state, done(2, 5, EXHAUSTIVE, false));
        assert_eq!(out_of_range.exploration, state.exploration);
    }

    #[test]
    fn stopping_gives_the_results_so_far() {
        let state = explored(&State::default(), 1, ExploreMode::Random, 2);
        let stopping = reduce(&state, Action::ExploreStop);
        assert_eq!(
            stopping.exploration.as_ref().unwrap().phase,
            Phase::Stopping
        );
        let one = reduce(&stopping, done(1, 0, seeds(0, 10), true));
        let both = reduce(&one, done(1, 1, seeds(50, 10), true));
        let run = both.exploration.clone().unwrap();
        assert_eq!(run.phase, Phase::Cancelled);
        assert_eq!(run.result.as_ref().unwrap().runs, 20);
        // Abandoning keeps what has arrived.
        let abandoned = reduce(&one, Action::ExploreAbandoned);
        let run = abandoned.exploration.clone().unwrap();
        assert_eq!(run.phase, Phase::Cancelled);
        assert_eq!(run.result.as_ref().unwrap().runs, 10);
    }

    #[test]
    fn a_failed_exploration_shows_its_diagnostics() {
        let state = explored(&State::default(), 1, ExploreMode::Exhaustive, 1);
        let failed = reduce(
            &state,
            Action::ExploreEvent {
                id: 1,
                part: 0,
                event: WorkerEvent::Failed {
                    diagnostics: vec![Diagnostic::error("litmus", "bad")],
                },
            },
        );
        assert_eq!(failed.exploration.as_ref().unwrap().phase, Phase::Failed);
        assert_eq!(failed.diagnostics.len(), 1);
        assert!(failed.diagnostics_source.starts_with("OPENCL MP"));
        let crashed = reduce(
            &state,
            Action::ExploreEvent {
                id: 1,
                part: 0,
                event: WorkerEvent::Crashed {
                    message: "gone".into(),
                },
            },
        );
        let run = crashed.exploration.clone().unwrap();
        assert_eq!(
            (run.phase, run.problem.as_deref()),
            (Phase::Failed, Some("gone"))
        );
    }

    #[test]
    fn an_exhaustive_outcome_loads_as_a_replay() {
        let state = reduce(
            &State::default(),
            Action::LoadExample(&examples::EXAMPLES[1]),
        );
        let state = reduce(&state, Action::SetMemoryModel(MemoryModel::Relaxed));
        let state = reduce(
            &explored(&state, 1, ExploreMode::Exhaustive, 1),
            done(1, 0, EXHAUSTIVE, false),
        );
        let result = state.exploration.as_ref().unwrap().result.clone().unwrap();
        let weak = result
            .outcomes
            .iter()
            .position(|o| o.exists == Some(true))
            .unwrap();
        let loaded = reduce(&state, Action::LoadOutcome(weak));
        let replay = loaded.replay.clone().expect("a replay");
        assert_eq!(
            Some(&replay.schedule),
            result.outcomes[weak].schedule.as_ref()
        );
        assert!(loaded.autorun && !loaded.live);
        assert_eq!(loaded.exploration.as_ref().unwrap().selected, Some(weak));
        let scenario = crate::form::validate(&loaded).scenario.unwrap();
        assert_eq!(scenario.scheduler, SchedulerKind::Manual);
        assert_eq!(scenario.choices, replay.choices);
        // Opening the session ends the request to run; an edit drops the replay.
        assert!(!reduce(&loaded, Action::SessionOpened).autorun);
        let edited = reduce(&loaded, Action::SetSeed("3".into()));
        assert!(edited.replay.is_none() && !edited.autorun);
        // A finding of an exhaustive search loads as the replay of the execution that showed
        // it, never as a seed alone.
        for (index, found) in result.findings.iter().enumerate() {
            let loaded = reduce(&state, Action::LoadFinding(index));
            assert_eq!(
                loaded.replay.as_ref().map(|r| &r.schedule),
                found.schedule.as_ref(),
                "finding {index}"
            );
        }
        assert_eq!(
            reduce(&state, Action::LoadOutcome(99)).revision,
            state.revision
        );
    }

    #[test]
    fn a_random_outcome_loads_its_seed_and_scheduler() {
        let mut state = reduce(&State::default(), Action::SetScheduler(SchedulerKind::Pct));
        state = explored(&state, 1, ExploreMode::Random, 1);
        // The explored scenario's scheduler (random) wins over the panel's.
        let state = reduce(&state, done(1, 0, seeds(20, 50), false));
        let result = state.exploration.as_ref().unwrap().result.clone().unwrap();
        let index = result
            .outcomes
            .iter()
            .position(|o| o.schedule.is_none())
            .unwrap();
        let loaded = reduce(&state, Action::LoadOutcome(index));
        assert_eq!(
            loaded.seed.as_str(),
            result.outcomes[index].seed.to_string()
        );
        assert_eq!(loaded.scheduler, SchedulerKind::Random);
        assert!(loaded.replay.is_none() && loaded.autorun);
    }

    #[test]
    fn explore_settings_keep_the_session() {
        let state = opened();
        for action in [
            Action::SetExploreMode(ExploreMode::Exhaustive),
            Action::SetExploreRuns("50".into()),
            Action::SetExplorePreemptions("2".into()),
        ] {
            let next = reduce(&state, action);
            assert!(next.live);
            assert_eq!(next.revision, state.revision);
        }
    }

    #[test]
    fn a_kernel_example_brings_its_launch() {
        let litmus = reduce(
            &State::default(),
            Action::LoadExample(&examples::EXAMPLES[1]),
        );
        assert!(litmus.source.starts_with("OPENCL MP"));
        assert_eq!(litmus.example, Some("litmus/mp.litmus"));
        let edited = reduce(&litmus, Action::SetGlobal("3".into()));
        let back = reduce(&edited, Action::LoadExample(&examples::DEFAULT));
        assert_eq!(back.global.as_str(), "8");
        assert_eq!(
            back.args
                .iter()
                .map(|a| a.text.as_str())
                .collect::<Vec<_>>(),
            DEFAULT_ARGS
        );
        assert!(reduce(&back, Action::EditSource("x".into()))
            .example
            .is_none());
    }

    #[test]
    fn a_gallery_example_brings_every_setting_of_its_scenario_file() {
        let hang = examples::find("interwork_group_reduction_hang.toml").expect("a gallery example");
        let loaded = reduce(&State::default(), Action::LoadExample(hang));
        assert_eq!(loaded.example, Some("interwork_group_reduction_hang.toml"));
        assert_eq!(loaded.source.as_str(), hang.source);
        assert_eq!((loaded.global.as_str(), loaded.local.as_str(), loaded.seed.as_str()), ("64", "4", "3"));
        assert_eq!(loaded.resident_groups.as_str(), "1");
        assert_eq!(loaded.carried.title, hang.title);
        assert!(!loaded.edited);
        let scenario = form::validate(&loaded).scenario.expect("a valid scenario");
        assert_eq!(scenario.max_resident_groups, Some(1));
        assert_eq!(scenario.max_steps, 50000);
        assert_eq!(scenario.report_buffers, ["sums", "locks"]);
        let mp = reduce(&loaded, Action::LoadExample(examples::find("mp_relaxed.toml").expect("a gallery example")));
        assert_eq!(mp.memory_model, MemoryModel::Relaxed);
        assert!(form::validate(&mp).is_litmus);
    }

    #[test]
    fn a_selected_work_item_survives_new_sessions_that_have_it() {
        let selected = reduce(&State::default(), Action::SelectWorkItem(6));
        assert_eq!(selected.selected, Some(6));
        let opened = reduce(&selected, Action::SessionOpened);
        assert_eq!(reduce(&opened, Action::WorkItemsKnown(8)).selected, Some(6));
        assert_eq!(reduce(&opened, Action::WorkItemsKnown(4)).selected, None);
    }

    #[test]
    fn the_new_launch_settings_invalidate_the_session() {
        let edits: Vec<fn() -> Action> = vec![
            || Action::SetDialect(Dialect::Cuda),
            || Action::SetKernel("count".into()),
            || Action::SetOffset("2".into()),
            || Action::SetWarpSize("16".into()),
            || Action::SetPctDepth("4".into()),
            || Action::SetResidentGroups("1".into()),
            || Action::SetProgress(Progress::Fair),
            || Action::SetGranularity(Granularity::Statement),
            || Action::SetMaxSteps("500".into()),
            || Action::SetArgText {
                param: "ids".into(),
                text: "ids=int[4]".into(),
            },
        ];
        for edit in edits {
            let running = reduce(&opened(), Action::RunStarted);
            let edited = reduce(&running, edit());
            assert!(!edited.live && !edited.running && edited.edited);
            assert!(edited.revision > running.revision);
        }
    }

    #[test]
    fn switching_the_dialect_turns_sizes_into_a_grid_and_back() {
        let cuda = reduce(&State::default(), Action::SetDialect(Dialect::Cuda));
        assert_eq!((cuda.global.as_str(), cuda.local.as_str()), ("2", "4"));
        let back = reduce(&cuda, Action::SetDialect(Dialect::OpenCl));
        assert_eq!((back.global.as_str(), back.local.as_str()), ("8", "4"));
        // Sizes that do not divide stay as they are.
        let odd = reduce(&State::default(), Action::SetLocal("3".into()));
        let odd = reduce(&odd, Action::SetDialect(Dialect::Cuda));
        assert_eq!(odd.global.as_str(), "8");
        assert_eq!(
            reduce(&odd, Action::SetDialect(Dialect::Litmus)).dialect,
            Dialect::Cuda
        );
    }

    #[test]
    fn table_edits_update_a_parameter_s_row_or_add_one() {
        let mut fields = crate::args::ArgFields::from_binding(
            &interleave_engine::scenario::ArgBinding::parse("counters=int[2]").unwrap(),
        );
        fields.len = "3".into();
        let state = reduce(&State::default(), Action::SetArgFields(fields.clone()));
        assert_eq!(state.args.len(), 2);
        assert_eq!(state.args[1].id, 1);
        assert_eq!(state.args[1].text.as_str(), "counters=int[3]");
        assert_eq!(state.args[1].fields, Some(fields.clone()));
        fields.name = "extra".into();
        let added = reduce(&state, Action::SetArgFields(fields));
        assert_eq!(added.args.len(), 3);
        assert_eq!(added.args[2].param.as_deref(), Some("extra"));
        // Text typed into the row replaces its fields.
        let typed = reduce(
            &added,
            Action::SetArgText {
                param: "extra".into(),
                text: "extra=null".into(),
            },
        );
        assert_eq!(typed.args[2].fields, None);
        assert_eq!(typed.args[2].text.as_str(), "extra=null");
    }

    #[test]
    fn loading_over_edits_keeps_them_one_click_away() {
        let untouched = reduce(
            &State::default(),
            Action::LoadExample(&examples::EXAMPLES[1]),
        );
        assert!(
            untouched.stash.is_none(),
            "an unedited example loses nothing"
        );
        let edited = reduce(&State::default(), Action::SetGlobal("3".into()));
        let loaded = reduce(&edited, Action::LoadExample(&examples::EXAMPLES[1]));
        let stash = loaded.stash.clone().expect("the edits are kept");
        assert_eq!(stash.label, examples::EXAMPLES[1].title);
        assert!(!stash.restored && !loaded.edited);
        assert!(loaded.source.starts_with("OPENCL MP"));
        // Loading another example without editing keeps the same edits aside.
        let again = reduce(&loaded, Action::LoadExample(&examples::EXAMPLES[2]));
        assert_eq!(again.stash.as_ref().unwrap().inputs.global, "3");
        let restored = reduce(&again, Action::RestoreEdits);
        assert_eq!(restored.global.as_str(), "3");
        assert!(restored.source.contains("__kernel void count"));
        assert!(restored.stash.as_ref().unwrap().restored);
        assert!(restored.revision > again.revision && restored.edited);
        // And back: what was loaded is kept in turn.
        let back = reduce(&restored, Action::RestoreEdits);
        assert_eq!(back.source, again.source);
        assert!(!back.stash.as_ref().unwrap().restored);
        assert!(reduce(&back, Action::DismissStash).stash.is_none());
    }

    #[test]
    fn stored_inputs_bring_back_the_state() {
        let mut state = State::default();
        for action in [
            Action::SetDialect(Dialect::Cuda),
            Action::SetGlobal("x".into()),
            Action::SetWarpSize("8".into()),
            Action::SetScheduler(SchedulerKind::Lockstep),
            Action::SetProgress(Progress::Fair),
            Action::SetGranularity(Granularity::Statement),
            Action::SetMemoryModel(MemoryModel::Relaxed),
            Action::SetResidentGroups("2".into()),
            Action::SetArgText {
                param: "ids".into(),
                text: "ids=int[".into(),
            },
        ] {
            state = reduce(&state, action);
        }
        let text = inputs::encode(state.inputs(), state.edited, None);
        let stored = inputs::decode(&text).unwrap();
        let back = State::from_stored(Theme::Dark, &stored);
        assert_eq!(back.inputs(), state.inputs());
        assert!(back.edited);
        assert_eq!(back.theme, Theme::Dark);
        // An unedited example comes back as that example.
        let example = reduce(
            &State::default(),
            Action::LoadExample(&examples::EXAMPLES[3]),
        );
        let stored =
            inputs::decode(&inputs::encode(example.inputs(), example.edited, None)).unwrap();
        let back = State::from_stored(Theme::Light, &stored);
        assert_eq!(back.example, Some(examples::EXAMPLES[3].id));
        assert!(!back.edited);
    }

    #[test]
    fn opened_files_replace_the_inputs_or_explain_why_not() {
        let file = |name: &str, text: &str| OpenedFile {
            name: name.into(),
            text: text.into(),
            unreadable: None,
        };
        let opened = reduce(
            &State::default(),
            Action::OpenFiles(vec![
                file(
                    "t.toml",
                    "source_file = \"t.cu\"\nseed = 9\n[launch]\nglobal = [8]\nlocal = [2]\n",
                ),
                file("t.cu", "__global__ void t(int *p) { p[threadIdx.x] = 1; }"),
            ]),
        );
        assert_eq!(opened.dialect, Dialect::Cuda);
        assert_eq!((opened.global.as_str(), opened.local.as_str()), ("4", "2"));
        assert_eq!(opened.seed.as_str(), "9");
        assert_eq!(opened.file_name.as_deref(), Some("t.cu"));
        assert!(opened.stash.is_none() && !opened.edited);
        let kernel = reduce(
            &opened,
            Action::OpenFiles(vec![file("k.cl", "__kernel void k() {}")]),
        );
        assert_eq!(kernel.dialect, Dialect::OpenCl);
        assert!(kernel.stash.is_none(), "nothing was edited");
        assert_eq!((kernel.global.as_str(), kernel.local.as_str()), ("8", "2"));
        assert_eq!(kernel.seed.as_str(), "9", "a kernel file keeps the launch");
        let failed = reduce(&kernel, Action::OpenFiles(vec![file("t.toml", "seed = [")]));
        assert_eq!(failed.source, kernel.source);
        assert_eq!(failed.diagnostics.len(), 1);
        assert_eq!(failed.diagnostics_file.as_deref(), Some("t.toml"));
        assert_eq!(failed.diagnostics_source.as_str(), "seed = [");
        assert!(reduce(&failed, Action::SessionOpened)
            .diagnostics_file
            .is_none());
        let fixed = reduce(
            &failed,
            Action::OpenFiles(vec![file("k.cl", "__kernel void k() {}")]),
        );
        assert!(fixed.diagnostics.is_empty() && fixed.diagnostics_file.is_none());
    }

    #[test]
    fn a_link_replaces_the_inputs_and_sets_its_view() {
        let mut scenario = interleave_engine::scenario::Scenario::new("<img src=x onerror=alert(1)>", "k.cl", Dialect::OpenCl);
        scenario.launch.global = vec![4];
        scenario.seed = 42;
        let link = share::link_of(&scenario, Some(9), Some(2), Tab::Memory);
        let edited = reduce(&State::default(), Action::SetGlobal("3".into()));
        let opened = reduce(&edited, Action::OpenLink(Rc::new(link)));
        assert_eq!(opened.source, "<img src=x onerror=alert(1)>");
        assert_eq!(opened.seed, "42");
        assert_eq!(opened.global, "4");
        assert_eq!(opened.selected, Some(2));
        assert_eq!(opened.inspector_tab, Tab::Memory);
        assert_eq!(opened.link_step, Some(9));
        assert_eq!(opened.stash.as_ref().expect("the edits are kept").inputs.global, "3");
        assert_eq!(reduce(&opened, Action::LinkStarted).link_step, None);
        // An edit before the session opens drops the pending step.
        assert_eq!(reduce(&opened, Action::SetSeed("1".into())).link_step, None);

        let failed = reduce(&State::default(), Action::LinkFailed(Diagnostic::error("invalid-link", "broken")));
        assert_eq!(failed.diagnostics[0].code, "invalid-link");
        assert_eq!(failed.diagnostics_file.as_deref(), Some("link"));
        assert_eq!(failed.source, State::default().source, "the inputs stay");
    }
}
