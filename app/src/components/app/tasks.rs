//! Shrinking and comparing beside the reducer: each runs in a worker of its own (a
//! [`Task`]), whose messages become actions tagged with the task's id. The worker goes when
//! the task is over, when another starts, or with the app. Once a shrunk run has ended, the
//! work-items its failure involves become the timeline's focus and its finding is opened.

use std::cell::RefCell;
use std::rc::Rc;

use interleave_engine::explore::same_finding;
use interleave_engine::scenario::Scenario;
use yew::prelude::*;

use super::session::{lane_of, SessionCell};
use crate::explore::{self, ShrinkPick, ToWorker};
use crate::form::Form;
use crate::state::{Action, Phase, State};
use crate::task::{Task, TaskEvent};

pub(super) type TaskCell = Rc<RefCell<Option<Task>>>;

/// The workers of the shrink and of the comparison, and the serial of their tasks.
#[derive(Clone)]
pub(super) struct Tasks {
    pub shrink: TaskCell,
    pub compare: TaskCell,
    pub serial: Rc<RefCell<u64>>,
}

#[hook]
pub(super) fn use_tasks(state: &State) -> Tasks {
    let tasks = Tasks { shrink: use_mut_ref(|| None), compare: use_mut_ref(|| None), serial: use_mut_ref(|| 0) };
    // A task's worker has terminated itself after its answer; this drops the handle, and ends
    // a worker that failed.
    let shrink_over = state.shrink.as_ref().map(|s| (s.task.id, s.task.phase.over()));
    let compare_over = state.compare.current.as_ref().map(|c| (c.task.id, c.task.phase.over()));
    {
        let cell = tasks.shrink.clone();
        use_effect_with(shrink_over, move |over| drop_when_over(&cell, *over));
    }
    {
        let cell = tasks.compare.clone();
        use_effect_with(compare_over, move |over| drop_when_over(&cell, *over));
    }
    {
        let tasks = tasks.clone();
        use_effect_with((), move |_| {
            move || {
                tasks.shrink.borrow_mut().take();
                tasks.compare.borrow_mut().take();
            }
        });
    }
    tasks
}

fn drop_when_over(cell: &TaskCell, over: Option<(u64, bool)>) {
    if matches!(over, Some((_, true))) {
        cell.borrow_mut().take();
    }
}

impl Tasks {
    fn next_id(&self) -> u64 {
        let mut serial = self.serial.borrow_mut();
        *serial += 1;
        *serial
    }
}

/// Starts `request` in a new worker kept in `cell` (ending the one there); its events go to
/// `on_event`, and a worker that cannot start is reported as crashed.
fn start(cell: &TaskCell, request: &ToWorker, on_event: Callback<TaskEvent>) {
    cell.borrow_mut().take();
    match Task::start(explore::WORKER_URL, request, on_event.clone()) {
        Ok(task) => *cell.borrow_mut() = Some(task),
        Err(message) => on_event.emit(TaskEvent::Crashed(message)),
    }
}

/// The callbacks of shrinking: a finding of the run (by index), an explored outcome (by
/// index), and Stop.
pub(super) struct ShrinkControls {
    pub on_shrink_finding: Callback<usize>,
    pub on_shrink_outcome: Callback<usize>,
    pub on_shrink_stop: Callback<()>,
}

pub(super) fn shrink_controls(tasks: &Tasks, state: &UseReducerHandle<State>, form: &Rc<Form>, session: &SessionCell) -> ShrinkControls {
    let dispatch = state.dispatcher();
    let shrink = {
        let (tasks, dispatch) = (tasks.clone(), dispatch.clone());
        move |scenario: Scenario, pick: ShrinkPick, target: String, finding| {
            let id = tasks.next_id();
            dispatch.dispatch(Action::ShrinkStarted { id, target: target.into(), finding });
            let on_event = dispatch.to_callback().reform(move |event| Action::ShrinkEvent { id, event });
            start(&tasks.shrink, &ToWorker::Shrink { scenario, pick, budget: 0 }, on_event);
        }
    };
    let on_shrink_finding = {
        let (shrink, form, session, state) = (shrink.clone(), form.clone(), session.clone(), state.clone());
        Callback::from(move |index: usize| {
            let (Some(scenario), false) = (form.scenario.as_deref(), state.shrinking()) else {
                return;
            };
            let Some(finding) = session.borrow().as_ref().and_then(|s| s.findings().get(index).cloned()) else {
                return;
            };
            let target = format!("the {} at line {}", finding.kind.as_str(), finding.line);
            shrink(scenario.clone(), ShrinkPick::Finding(index), target, Some(Rc::new(finding)));
        })
    };
    let on_shrink_outcome = {
        let state = state.clone();
        Callback::from(move |index: usize| {
            let Some(run) = state.explore.current.as_ref().filter(|_| !state.shrinking()) else {
                return;
            };
            let Some((outcome, label)) =
                run.result.as_ref().and_then(|r| Some((r.outcomes.get(index)?.clone(), explore::outcome_labels(r).get(index)?.clone())))
            else {
                return;
            };
            let scenario = crate::shrink::outcome_scenario(&run.scenario, &outcome);
            shrink(scenario, ShrinkPick::outcome(&outcome), format!("the outcome {label}"), None);
        })
    };
    let on_shrink_stop = {
        let (tasks, dispatch) = (tasks.clone(), dispatch.clone());
        Callback::from(move |()| {
            if let Some(task) = tasks.shrink.borrow().as_ref() {
                task.stop();
            }
            dispatch.dispatch(Action::ShrinkStop);
        })
    };
    ShrinkControls { on_shrink_finding, on_shrink_outcome, on_shrink_stop }
}

/// Once the shrunk run has stopped (at its end, or where its schedule runs out), focuses the
/// timeline on the work-items its failure involves and opens its finding (whose explanation
/// the timeline then draws).
#[hook]
pub(super) fn use_shrink_focus(session: &SessionCell, state: &UseReducerHandle<State>) {
    let pending = state.shrink.as_ref().is_some_and(|s| s.focus_pending);
    let stopped = state.run.live && !state.run.running && !state.run.autorun;
    let (session, handle) = (session.clone(), state.clone());
    use_effect_with((pending, stopped, state.run.generation), move |&(pending, stopped, _)| {
        if pending && stopped {
            for action in focus_actions(&session, &handle) {
                handle.dispatch(action);
            }
        }
    });
}

/// The comparison's Start and Stop, and opening one of its cells.
pub(super) struct CompareControls {
    pub on_compare_start: Callback<()>,
    pub on_compare_stop: Callback<()>,
    pub on_open_model: Callback<(usize, usize, u64)>,
}

pub(super) fn compare_controls(tasks: &Tasks, state: &UseReducerHandle<State>, form: &Rc<Form>) -> CompareControls {
    let dispatch = state.dispatcher();
    let on_compare_start = {
        let (tasks, dispatch, form, state) = (tasks.clone(), dispatch.clone(), form.clone(), state.clone());
        Callback::from(move |()| {
            let (Some(scenario), false) = (form.scenario.as_deref(), state.comparing()) else {
                return;
            };
            let Ok(runs) = explore::parse_runs(&state.compare.runs) else {
                return;
            };
            let scenario = Rc::new(explore::exploration_scenario(scenario));
            let id = tasks.next_id();
            dispatch.dispatch(Action::CompareStarted { id, scenario: scenario.clone() });
            let on_event = dispatch.to_callback().reform(move |event| Action::CompareEvent { id, event });
            start(&tasks.compare, &ToWorker::Compare { scenario: Scenario::clone(&scenario), runs }, on_event);
        })
    };
    let on_compare_stop = {
        let (tasks, dispatch, state) = (tasks.clone(), dispatch.clone(), state.clone());
        Callback::from(move |()| {
            if state.compare.current.as_ref().is_some_and(|c| c.task.phase == Phase::Running) {
                if let Some(task) = tasks.compare.borrow().as_ref() {
                    task.stop();
                }
                dispatch.dispatch(Action::CompareStop);
            }
        })
    };
    let on_open_model = dispatch.to_callback().reform(|(model, row, seed)| Action::OpenModel { model, row, seed });
    CompareControls { on_compare_start, on_compare_stop, on_open_model }
}

/// The work-items and finding of the shrunk run, once it has run.
fn focus_actions(session: &SessionCell, state: &State) -> Vec<Action> {
    let Some(shrinking) = state.shrink.as_ref().filter(|s| s.focus_pending) else {
        return Vec::new();
    };
    let guard = session.borrow();
    // A session that has not stepped yet is the replay about to run, not its end.
    let Some(s) = guard.as_ref().filter(|s| s.steps() > 0) else {
        return Vec::new();
    };
    let mut actions = vec![Action::ShrinkFocus(crate::shrink::involved(s, shrinking.finding.as_deref()))];
    let found = shrinking.finding.as_ref().and_then(|target| s.findings().iter().enumerate().find(|(_, f)| same_finding(f, target)));
    if let Some((index, finding)) = found {
        let work_item = finding.work_item.and_then(|id| lane_of(s, id));
        actions.push(Action::OpenFinding { index, step: finding.step, work_item });
    }
    actions
}
