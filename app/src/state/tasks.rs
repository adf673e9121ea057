//! Shrinking a failure and comparing execution models: each runs in a worker of its own
//! (`crate::task`); here is what the page knows of it, and what its answer does to the
//! launch. A shrink's answer loads the shrunk schedule as the run (a replay) and, once that
//! run has ended, focuses the timeline on the work-items involved; a comparison's cell loads
//! its model and first seed and runs it.

use std::collections::BTreeSet;
use std::rc::Rc;

use interleave_engine::compare::Comparison;
use interleave_engine::report::Finding;
use interleave_engine::scenario::Scenario;
use interleave_engine::shrink::Shrunk;
use yew::AttrValue;

use super::{Action, Phase, State};
use crate::explore::FromWorker;
use crate::inputs::{InputEdit, Replay};
use crate::task::TaskEvent;

/// How far a worker's task has got, and its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskRun<T> {
    /// Tells this task's messages from those of an earlier one.
    pub id: u64,
    pub phase: Phase,
    pub executions: u64,
    pub budget: u64,
    pub result: Option<Rc<T>>,
    /// Why it failed, when it did.
    pub problem: Option<AttrValue>,
}

impl<T> TaskRun<T> {
    fn new(id: u64) -> TaskRun<T> {
        TaskRun { id, phase: Phase::Running, executions: 0, budget: 0, result: None, problem: None }
    }
}

/// A shrink under way or over.
#[derive(Clone, Debug, PartialEq)]
pub struct Shrinking {
    pub task: TaskRun<Shrunk>,
    /// What is shrunk, in words.
    pub target: AttrValue,
    /// The finding shrunk (`None` for an outcome): the shrunk run's finding like it gives the
    /// work-items to focus on.
    pub finding: Option<Rc<Finding>>,
    /// The shrunk run is loaded and the focus is to be set once it has ended.
    pub focus_pending: bool,
    /// The inputs' revision when the shrink started: an answer for inputs edited since is
    /// not loaded (its schedule is of another program or launch).
    pub revision: u64,
}

/// The Compare models panel: its setting, and the comparison under way or last finished.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparing {
    pub runs: AttrValue,
    pub current: Option<Rc<CompareRun>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CompareRun {
    pub task: TaskRun<Comparison>,
    /// The scenario compared: its models and seeds are relative to it.
    pub scenario: Rc<Scenario>,
    /// The cell last opened, as (model, row).
    pub opened: Option<(usize, usize)>,
}

/// The timeline's focus: the work-items a shrunk failure involves, the other lanes collapsed
/// while `on`.
#[derive(Clone, Debug, PartialEq)]
pub struct Focus {
    pub lanes: Rc<BTreeSet<usize>>,
    pub on: bool,
}

/// Applies a worker's report to a task; returns its answer once it is over.
fn task_event<T>(task: &mut TaskRun<T>, event: TaskEvent) -> Option<Rc<FromWorker>> {
    match event {
        TaskEvent::Progress { executions, budget } => {
            task.executions = executions;
            task.budget = budget;
            None
        }
        TaskEvent::Crashed(message) => {
            task.phase = Phase::Failed;
            task.problem = Some(message.into());
            None
        }
        TaskEvent::Over(answer) => {
            task.phase = if task.phase == Phase::Stopping { Phase::Cancelled } else { Phase::Done };
            if let FromWorker::Failed { diagnostics } = &*answer {
                task.phase = Phase::Failed;
                let why = diagnostics.first().map_or_else(|| "the engine refused it".to_string(), |d| d.message.clone());
                task.problem = Some(why.into());
            }
            Some(answer)
        }
    }
}

pub(super) fn reduce(next: &mut State, action: Action) {
    match action {
        Action::ShrinkStarted { id, target, finding } => {
            next.shrink = Some(Rc::new(Shrinking { task: TaskRun::new(id), target, finding, focus_pending: false, revision: next.revision }));
        }
        Action::ShrinkEvent { id, event } => {
            let Some(mut shrinking) = next.shrink.as_deref().cloned().filter(|s| s.task.id == id && !s.task.phase.over()) else {
                return;
            };
            if let Some(answer) = task_event(&mut shrinking.task, event) {
                if let FromWorker::Shrunk { shrunk } = &*answer {
                    shrinking.task.result = Some(Rc::new(shrunk.clone()));
                    if next.revision == shrinking.revision {
                        let replay = Replay { schedule: shrunk.after.schedule.clone(), choices: shrunk.after.choices.clone() };
                        shrinking.focus_pending = true;
                        next.load_replay(replay);
                        next.view.focus = None;
                    } else {
                        shrinking.task.problem = Some("the scenario was edited while it was shrunk, so its schedule is not loaded; shrink again".into());
                    }
                }
            }
            next.shrink = Some(Rc::new(shrinking));
        }
        Action::ShrinkStop => {
            if let Some(shrinking) = &mut next.shrink {
                let shrinking = Rc::make_mut(shrinking);
                if shrinking.task.phase == Phase::Running {
                    shrinking.task.phase = Phase::Stopping;
                }
            }
        }
        Action::ShrinkFocus(lanes) => {
            if let Some(shrinking) = &mut next.shrink {
                Rc::make_mut(shrinking).focus_pending = false;
            }
            next.view.focus = (!lanes.is_empty()).then(|| Focus { lanes: Rc::new(lanes), on: true });
        }
        Action::SetFocus(on) => {
            if let Some(focus) = &mut next.view.focus {
                focus.on = on;
            }
        }
        Action::SetCompareRuns(text) => next.compare.runs = text,
        Action::CompareStarted { id, scenario } => {
            next.compare.current = Some(Rc::new(CompareRun { task: TaskRun::new(id), scenario, opened: None }));
        }
        Action::CompareEvent { id, event } => {
            let Some(mut run) = next.compare.current.as_deref().cloned().filter(|r| r.task.id == id && !r.task.phase.over()) else {
                return;
            };
            if let Some(answer) = task_event(&mut run.task, event) {
                if let FromWorker::Compared { comparison } = &*answer {
                    run.task.result = Some(Rc::new(comparison.clone()));
                }
            }
            next.compare.current = Some(Rc::new(run));
        }
        Action::CompareStop => {
            if let Some(run) = &mut next.compare.current {
                let run = Rc::make_mut(run);
                if run.task.phase == Phase::Running {
                    run.task.phase = Phase::Stopping;
                }
            }
        }
        Action::OpenModel { model, row, seed } => {
            let Some(run) = next.compare.current.clone() else {
                return;
            };
            let Some(m) = run.task.result.as_ref().and_then(|c| c.models.get(model)).filter(|m| m.skipped.is_none()) else {
                return;
            };
            let edits = [
                InputEdit::Scheduler(m.scheduler),
                InputEdit::WarpSize(m.warp_size.to_string()),
                InputEdit::MemoryModel(m.memory_model),
                InputEdit::ResidentGroups(m.resident_groups.map(|r| r.to_string()).unwrap_or_default()),
                InputEdit::Progress(m.progress),
                InputEdit::Seed(seed.to_string()),
            ];
            next.invalidate();
            let inputs = Rc::make_mut(&mut next.inputs);
            for edit in edits {
                inputs.edit(edit);
            }
            next.run.autorun = true;
            if let Some(run) = &mut next.compare.current {
                Rc::make_mut(run).opened = Some((model, row));
            }
        }
        _ => {}
    }
}
