//! The app's state: one reducer over everything the page shows.
//!
//! The state is the launch ([`Inputs`], the one description of it: what the editor and the
//! launch panel hold, as typed, so that an invalid value stays on screen while it is being
//! fixed) and, beside it, the run, the problems, the exploration and the view. The session
//! itself is not here: a `Session` is large, mutable and not `Clone`, so the app keeps it
//! beside the reducer and bumps [`Run::generation`] whenever it changes.
//!
//! The reducer is pure and split by concern: `launch` (edits, loads, the stash, links and
//! files), `run` (the session's life), `exploring` (the exploration and its workers' reports)
//! and `view` (selection, panels, theme). Nothing here touches web APIs, so it is tested
//! natively.

use std::collections::BTreeSet;
use std::rc::Rc;

use interleave_engine::diag::Diagnostic;
use interleave_engine::explore::Exploration;
use interleave_engine::inspect::MemoryRef;
use interleave_engine::link::Link;
use interleave_engine::report::{Finding, RunStatus};
use interleave_engine::scenario::Scenario;
use yew::{AttrValue, Reducible};

use crate::examples::Example;
use crate::explore::{self, ExploreMode, WorkerEvent};
use crate::files::OpenedFile;
use crate::inputs::{self, InputEdit, Inputs, Replay, Stash};
use crate::inspector::Tab;
use crate::task::TaskEvent;

mod exploring;
mod launch;
mod panes;
mod run;
mod tasks;
#[cfg(test)]
mod tasks_tests;
#[cfg(test)]
mod tests;
mod view;

pub use panes::{Pane, Panes, LAYOUT_KEY};
pub use tasks::{CompareRun, Comparing, Focus, Shrinking, TaskRun};

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
    pub const CHOICES: [(Speed, &'static str); 4] =
        [(Speed::Max, "max"), (Speed::PerSecond(1000), "1000 steps/s"), (Speed::PerSecond(100), "100 steps/s"), (Speed::PerSecond(10), "10 steps/s")];

    pub fn label(self) -> &'static str {
        Speed::CHOICES.iter().find(|(speed, _)| *speed == self).map_or("max", |(_, label)| label)
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

/// What is known of the session (the session itself is kept beside the state).
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// Bumped whenever the session changes (created, stepped, replaced or dropped), so views
    /// that read the session know when to read it again.
    pub generation: u64,
    /// Whether a session built from the current inputs exists.
    pub live: bool,
    /// Whether a run is going on in chunks.
    pub running: bool,
    /// The end of the live session's run, once it has ended.
    pub summary: Option<Summary>,
    /// Whether to open a session and run it as soon as the inputs are in place (after an
    /// explored outcome was loaded).
    pub autorun: bool,
    pub speed: Speed,
    /// Where the run going on stops by itself.
    pub target: RunTarget,
    /// A share link was opened: the step its run is to be shown at once a session is open.
    pub link_step: Option<u64>,
}

/// What the Problems list shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Problems {
    /// Why the last attempt to create a session (or to open a file or link) failed.
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// The source the diagnostics refer to (their spans are offsets into it).
    pub source: AttrValue,
    /// Whether the inputs changed since the diagnostics were produced.
    pub stale: bool,
    /// The file the diagnostics are about, when they come from opening a file or a link
    /// rather than from compiling the editor's source.
    pub file: Option<AttrValue>,
}

/// The Explore panel: its settings, and the exploration under way or last finished.
#[derive(Clone, Debug, PartialEq)]
pub struct Exploring {
    pub mode: ExploreMode,
    pub runs: AttrValue,
    pub preemptions: AttrValue,
    pub current: Option<Rc<ExploreRun>>,
}

/// How the page is shown: nothing here changes the scenario or the session.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub theme: Theme,
    /// The selected work-item (linear index): the inspector shows it, the editor marks its
    /// line and the timeline highlights its lane.
    pub selected: Option<usize>,
    pub inspector_tab: Tab,
    /// The memory the inspector's memory tab shows, once the user chose one.
    pub memory: Option<MemoryRef>,
    /// Whether the console shows only the selected work-item's output.
    pub console_only_selected: bool,
    /// Whether the keyboard shortcuts overlay is open.
    pub help_open: bool,
    /// The finding last opened (by a click or by next/previous finding).
    pub finding: Option<usize>,
    /// `(serial, step)`: asks the timeline to bring `step` into view; the serial changes with
    /// every request, so asking twice for the same step works.
    pub reveal: Option<(u64, u64)>,
    pub panes: Panes,
    /// The work-items a shrunk failure involves, the timeline's other lanes collapsed.
    pub focus: Option<Focus>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The launch, as typed: the one description of it.
    pub inputs: Rc<Inputs>,
    /// Bumped by every edit of the inputs, so derived values (the form and its scenario) are
    /// recomputed only when an input changed.
    pub revision: u64,
    /// Whether the inputs were edited since an example or file was loaded (loading over
    /// edits keeps them in `stash`).
    pub edited: bool,
    /// Edits set aside by loading something over them, one click from coming back.
    pub stash: Option<Rc<Stash>>,
    pub run: Run,
    pub problems: Problems,
    pub explore: Exploring,
    /// The shrink under way or last finished.
    pub shrink: Option<Rc<Shrinking>>,
    pub compare: Comparing,
    pub view: View,
}

pub enum Action {
    /// Edits one field of the launch.
    Edit(InputEdit),
    /// Replaces the editor's text (and for a kernel, the launch) with an example.
    LoadExample(&'static Example),
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
    /// Runs until the session has more findings than `after`, or the run ends.
    RunToFinding {
        after: usize,
    },
    /// Runs until step `target`, or the run ends.
    RunToStep(u64),
    RunStopped,
    SetSpeed(Speed),
    /// A session was opened with this many work-items: a selection beyond them is dropped.
    WorkItemsKnown(usize),
    /// The session of an opened link was started.
    LinkStarted,

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

    SetTheme(Theme),
    /// Selects a work-item (on the timeline, in the inspector, or by opening a finding).
    SelectWorkItem(usize),
    SetInspectorTab(Tab),
    SetMemory(MemoryRef),
    SetConsoleOnlySelected(bool),
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
    ResizePane {
        pane: Pane,
        size: f64,
    },

    /// A worker was started to shrink `target` (the finding, when it is one).
    ShrinkStarted {
        id: u64,
        target: AttrValue,
        finding: Option<Rc<Finding>>,
    },
    /// The worker of shrink `id` reported; its answer loads the shrunk schedule and runs it.
    ShrinkEvent {
        id: u64,
        event: TaskEvent,
    },
    /// Asks the shrink to stop with the smallest schedule found so far.
    ShrinkStop,
    /// The shrunk run has ended: these work-items are involved (the timeline focuses on them).
    ShrinkFocus(BTreeSet<usize>),
    /// Collapses the lanes outside the focus (`true`) or shows them all again.
    SetFocus(bool),
    SetCompareRuns(AttrValue),
    /// A worker was started to compare the execution models of `scenario`.
    CompareStarted {
        id: u64,
        scenario: Rc<Scenario>,
    },
    CompareEvent {
        id: u64,
        event: TaskEvent,
    },
    CompareStop,
    /// Opens a cell of the comparison: the launch takes model `model`'s settings and `seed`,
    /// and runs (`row` is the cell's row, remembered to highlight it).
    OpenModel {
        model: usize,
        row: usize,
        seed: u64,
    },
}

impl State {
    pub fn new(theme: Theme) -> State {
        State {
            inputs: Rc::new(Inputs::default()),
            revision: 0,
            edited: false,
            stash: None,
            run: Run { generation: 0, live: false, running: false, summary: None, autorun: false, speed: Speed::Max, target: RunTarget::End, link_step: None },
            problems: Problems::default(),
            explore: Exploring {
                mode: ExploreMode::Random,
                runs: AttrValue::from(explore::DEFAULT_RUNS.to_string()),
                preemptions: AttrValue::default(),
                current: None,
            },
            shrink: None,
            compare: Comparing { runs: AttrValue::from(interleave_engine::compare::DEFAULT_RUNS.to_string()), current: None },
            view: View {
                theme,
                selected: None,
                inspector_tab: Tab::WorkItem,
                memory: None,
                console_only_selected: false,
                help_open: false,
                finding: None,
                reveal: None,
                panes: Panes::DEFAULT,
                focus: None,
            },
        }
    }

    /// The state the page starts with after a reload: `stored`'s inputs over the defaults.
    pub fn from_stored(theme: Theme, stored: &inputs::Stored) -> State {
        let mut state = State::new(theme);
        state.inputs = Rc::new(launch::known_example(stored.current.clone()));
        state.edited = stored.edited;
        state.stash = stored.stash.clone().map(Rc::new);
        state
    }

    /// The example the editor holds unedited.
    pub fn example(&self) -> Option<&'static str> {
        self.inputs.example.as_deref().and_then(crate::examples::find).map(|example| example.id)
    }

    /// Whether an exploration's workers are still at work.
    pub fn exploring(&self) -> bool {
        self.explore.current.as_ref().is_some_and(|run| !run.phase.over())
    }

    /// Whether the live session's run has ended.
    pub fn ended(&self) -> bool {
        self.run.live && self.run.summary.is_some()
    }

    /// Whether the last attempt to open a session failed (and nothing changed since): the
    /// status line says so, the Problems list says why.
    pub fn session_failed(&self) -> bool {
        !self.run.live && !self.problems.stale && !self.problems.diagnostics.is_empty() && self.problems.file.is_none()
    }

    /// What the inputs are called: the file they were opened from, or the example.
    pub fn file_label(&self) -> Option<AttrValue> {
        self.inputs.file_name.clone().map(AttrValue::from).or_else(|| self.example().map(AttrValue::from))
    }

    /// Whether the exploration shown explored another program than `scenario` (the form's,
    /// `None` while it is invalid): its outcomes then say nothing of the inputs as they are.
    pub fn exploration_stale(&self, scenario: Option<&Scenario>) -> bool {
        self.explore.current.as_ref().is_some_and(|run| scenario.is_none_or(|scenario| !explore::same_program(scenario, &run.scenario)))
    }

    /// Whether the comparison shown compared another program than `scenario`.
    pub fn comparison_stale(&self, scenario: Option<&Scenario>) -> bool {
        self.compare.current.as_ref().is_some_and(|run| scenario.is_none_or(|scenario| !explore::same_program(scenario, &run.scenario)))
    }

    /// Any edit of the scenario makes the session describe a different program or launch, so
    /// it is dropped and the next Run or Step starts a new one.
    fn invalidate(&mut self) {
        self.edited = true;
        self.revision += 1;
        self.run.generation += 1;
        self.run.live = false;
        self.run.running = false;
        self.run.summary = None;
        self.run.autorun = false;
        self.run.link_step = None;
        self.problems.stale = true;
        // A replay is one execution of one program: any edit leaves it meaningless.
        if self.inputs.replay.is_some() {
            Rc::make_mut(&mut self.inputs).replay = None;
        }
        self.view.finding = None;
        self.view.focus = None;
    }

    /// Puts the launch on `replay` (the manual scheduler following it) and asks for a run.
    fn load_replay(&mut self, replay: Replay) {
        self.invalidate();
        Rc::make_mut(&mut self.inputs).replay = Some(replay);
        self.run.autorun = true;
    }

    /// Whether a shrink's worker is at work.
    pub fn shrinking(&self) -> bool {
        self.shrink.as_ref().is_some_and(|s| !s.task.phase.over())
    }

    /// Whether a comparison's worker is at work.
    pub fn comparing(&self) -> bool {
        self.compare.current.as_ref().is_some_and(|c| !c.task.phase.over())
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

/// The reducer proper, by reference so that tests can call it without `Rc`: each concern's
/// actions go to that concern's reducer.
pub fn reduce(state: &State, action: Action) -> State {
    let mut next = state.clone();
    match action {
        Action::Edit(_)
        | Action::LoadExample(_)
        | Action::OpenFiles(_)
        | Action::RestoreEdits
        | Action::DismissStash
        | Action::OpenLink(_)
        | Action::LinkFailed(_) => launch::reduce(&mut next, action),
        Action::SessionOpened
        | Action::SessionFailed { .. }
        | Action::Advanced { .. }
        | Action::Rewound { .. }
        | Action::RunStarted
        | Action::RunToFinding { .. }
        | Action::RunToStep(_)
        | Action::RunStopped
        | Action::SetSpeed(_)
        | Action::WorkItemsKnown(_)
        | Action::LinkStarted => run::reduce(&mut next, action),
        Action::SetExploreMode(_)
        | Action::SetExploreRuns(_)
        | Action::SetExplorePreemptions(_)
        | Action::ExploreStarted { .. }
        | Action::ExploreEvent { .. }
        | Action::ExploreStop
        | Action::ExploreAbandoned
        | Action::LoadOutcome(_)
        | Action::LoadFinding(_) => exploring::reduce(&mut next, action),
        Action::SetTheme(_)
        | Action::SelectWorkItem(_)
        | Action::SetInspectorTab(_)
        | Action::SetMemory(_)
        | Action::SetConsoleOnlySelected(_)
        | Action::ToggleHelp
        | Action::CloseHelp
        | Action::OpenFinding { .. }
        | Action::ResizePane { .. } => view::reduce(&mut next.view, action),
        Action::ShrinkStarted { .. }
        | Action::ShrinkEvent { .. }
        | Action::ShrinkStop
        | Action::ShrinkFocus(_)
        | Action::SetFocus(_)
        | Action::SetCompareRuns(_)
        | Action::CompareStarted { .. }
        | Action::CompareEvent { .. }
        | Action::CompareStop
        | Action::OpenModel { .. } => tasks::reduce(&mut next, action),
    }
    next
}
