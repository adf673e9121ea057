//! The session's life as the state knows it: opened or failed, stepped, rewound, running
//! towards a target or paused. The session itself is the app's; these actions say what it did.

use std::rc::Rc;

use super::{Action, RunTarget, State};

pub(super) fn reduce(next: &mut State, action: Action) {
    let run = &mut next.run;
    match action {
        Action::SessionOpened => {
            next.view.finding = None;
            run.autorun = false;
            run.generation += 1;
            run.live = true;
            run.running = false;
            run.summary = None;
            next.problems.diagnostics = Rc::default();
            next.problems.stale = false;
            next.problems.file = None;
        }
        Action::SessionFailed { diagnostics, source } => {
            run.autorun = false;
            run.generation += 1;
            run.live = false;
            run.running = false;
            run.summary = None;
            next.problems.source = source;
            next.problems.diagnostics = diagnostics;
            next.problems.stale = false;
            next.problems.file = None;
        }
        Action::Advanced { ended } => {
            // Steps of a session that an edit has already dropped change nothing on screen.
            if !run.live {
                return;
            }
            run.generation += 1;
            if ended.is_some() {
                run.summary = ended;
                run.running = false;
            }
        }
        Action::Rewound { ended } => {
            if !run.live {
                return;
            }
            run.generation += 1;
            run.summary = ended;
            run.running = false;
        }
        Action::RunStarted => start(next, RunTarget::End),
        Action::RunToFinding { after } => start(next, RunTarget::NextFinding { after }),
        Action::RunToStep(target) => start(next, RunTarget::Step(target)),
        Action::RunStopped => run.running = false,
        Action::SetSpeed(speed) => run.speed = speed,
        Action::WorkItemsKnown(count) => next.view.selected = next.view.selected.filter(|&s| s < count),
        Action::LinkStarted => run.link_step = None,
        _ => {}
    }
}

/// Runs towards `target`, if there is a live run that has not ended.
fn start(next: &mut State, target: RunTarget) {
    next.run.running = next.run.live && next.run.summary.is_none();
    next.run.target = target;
}
