//! The Explore panel's actions: its settings, an exploration's start, its workers' reports
//! (merged by the engine once every part has reported), stopping, and loading an explored
//! outcome or finding into the launch to run it.

use std::rc::Rc;

use interleave_engine::explore::{self, Exploration};
use interleave_engine::scenario::SchedulerKind;
use yew::AttrValue;

use super::{Action, ExploreRun, Part, Phase, State};
use crate::explore::{ExploreMode, WorkerEvent};
use crate::inputs::{Inputs, Replay};

pub(super) fn reduce(next: &mut State, action: Action) {
    match action {
        Action::SetExploreMode(mode) => next.explore.mode = mode,
        Action::SetExploreRuns(text) => next.explore.runs = text,
        Action::SetExplorePreemptions(text) => next.explore.preemptions = text,
        Action::ExploreStarted { id, mode, scenario, workers, budgets } => {
            let parts = budgets.into_iter().map(|budget| Part { executions: 0, budget, result: None, stopped: false }).collect();
            next.explore.current =
                Some(Rc::new(ExploreRun { id, mode, scenario, parts, workers, phase: Phase::Running, result: None, problem: None, selected: None }));
        }
        Action::ExploreEvent { id, part, event } => {
            let Some(run) = next.explore.current.clone() else {
                return;
            };
            if run.id != id || run.phase.over() || part >= run.parts.len() {
                return;
            }
            if let WorkerEvent::Failed { diagnostics } = &event {
                next.problems.file = None;
                next.problems.diagnostics = Rc::new(diagnostics.clone());
                next.problems.source = AttrValue::from(run.scenario.source.clone());
                next.problems.stale = false;
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
            let Some(run) = next.explore.current.clone() else {
                return;
            };
            let Some(outcome) = run.result.as_ref().and_then(|r| r.outcomes.get(index)) else {
                return;
            };
            let replay = outcome.schedule.as_ref().map(|schedule| Replay { schedule: schedule.clone(), choices: outcome.choices.clone().unwrap_or_default() });
            next.load(outcome.seed, replay, run.scenario.scheduler);
            next.update_exploration(|run| run.selected = Some(index));
        }
        Action::LoadFinding(index) => {
            let Some(run) = next.explore.current.clone() else {
                return;
            };
            let Some(found) = run.result.as_ref().and_then(|r| r.findings.get(index)) else {
                return;
            };
            // A finding of the exhaustive search replays from its schedule and decisions; one
            // of random exploration from its seed, whose run is the one that showed it. (The
            // finding that stopped an exhaustive search has neither.)
            let replay = found.schedule.as_ref().map(|schedule| Replay { schedule: schedule.clone(), choices: found.choices.clone().unwrap_or_default() });
            if replay.is_none() && run.mode != ExploreMode::Random {
                return;
            }
            next.load(found.seed, replay, run.scenario.scheduler);
            next.update_exploration(|run| run.selected = None);
        }
        _ => {}
    }
}

impl State {
    /// Sets `f` on a copy of the exploration, if there is one.
    fn update_exploration(&mut self, f: impl FnOnce(&mut ExploreRun)) {
        if let Some(run) = &self.explore.current {
            let mut run = ExploreRun::clone(run);
            f(&mut run);
            self.explore.current = Some(Rc::new(run));
        }
    }

    /// Puts the launch panel on an explored execution: its seed, and its replay when the
    /// seed alone does not reproduce it; then asks for a run.
    fn load(&mut self, seed: u64, replay: Option<Replay>, scheduler: SchedulerKind) {
        self.invalidate();
        let inputs: &mut Inputs = Rc::make_mut(&mut self.inputs);
        inputs.seed = seed.to_string();
        match replay {
            Some(replay) => inputs.replay = Some(replay),
            None => inputs.scheduler = scheduler,
        }
        self.run.autorun = true;
    }
}

/// Applies one worker's report to its exploration.
fn explore_event(run: &mut ExploreRun, part: usize, event: WorkerEvent) {
    match event {
        WorkerEvent::Progress { executions, budget } => {
            run.parts[part].executions = executions;
            run.parts[part].budget = budget;
        }
        WorkerEvent::Done { exploration, stopped } => {
            let slot = &mut run.parts[part];
            slot.executions = exploration.runs + exploration.discarded;
            slot.stopped = stopped;
            slot.result = Some(exploration);
            if run.parts.iter().all(|p| p.result.is_some()) {
                let stopped = run.phase == Phase::Stopping || run.parts.iter().any(|p| p.stopped);
                run.phase = if stopped { Phase::Cancelled } else { Phase::Done };
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

/// The results of the parts that have reported, merged by the engine; with `all`, only once
/// every part has. A lone part is its own result.
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
