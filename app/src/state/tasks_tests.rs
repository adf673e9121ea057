//! The shrink's and the comparison's reducers: a worker's answer loads the run it found.

use std::collections::BTreeSet;
use std::rc::Rc;

use interleave_engine::compare::{self, Comparison};
use interleave_engine::scenario::{ArgBinding, Dialect, MemoryModel, Scenario, SchedulerKind};
use interleave_engine::shrink::{self, Pick};

use super::*;
use crate::explore::FromWorker;
use crate::task::TaskEvent;

fn racy() -> Scenario {
    let mut s = Scenario::new("__kernel void k(__global int *c) { c[0] = c[0] + 1; }", "k.cl", Dialect::OpenCl);
    s.launch.global = vec![4];
    s.args = vec![ArgBinding::parse("c=int[1]:fill=0").unwrap()];
    s
}

fn answer(message: FromWorker) -> TaskEvent {
    TaskEvent::Over(Rc::new(message))
}

#[test]
fn a_shrunk_schedule_is_loaded_and_run_and_its_focus_set_once_it_has_ended() {
    let shrunk = shrink::shrink(&racy(), Pick::FirstError, shrink::Config { budget: 100 }).unwrap();
    let started = reduce(&State::default(), Action::ShrinkStarted { id: 1, target: "the race".into(), finding: None });
    assert!(started.shrinking());
    let progress = reduce(&started, Action::ShrinkEvent { id: 1, event: TaskEvent::Progress { executions: 5, budget: 100 } });
    assert_eq!(progress.shrink.as_ref().unwrap().task.executions, 5);
    // A message of an earlier shrink changes nothing.
    assert_eq!(reduce(&progress, Action::ShrinkEvent { id: 0, event: answer(FromWorker::Shrunk { shrunk: shrunk.clone() }) }), progress);
    let done = reduce(&progress, Action::ShrinkEvent { id: 1, event: answer(FromWorker::Shrunk { shrunk: shrunk.clone() }) });
    let shrinking = done.shrink.as_ref().unwrap();
    assert_eq!(shrinking.task.phase, Phase::Done);
    assert!(shrinking.focus_pending && done.run.autorun && !done.shrinking());
    let replay = done.inputs.replay.as_ref().expect("the shrunk schedule is the run");
    assert_eq!(replay.schedule, shrunk.after.schedule);
    assert_eq!(replay.choices, shrunk.after.choices);
    // The form's scenario is then that replay: a share link carries it.
    let scenario = crate::form::validate(&done.inputs).scenario.expect("a valid scenario");
    assert_eq!((scenario.scheduler, &scenario.schedule), (SchedulerKind::Manual, &shrunk.after.schedule));

    let focused = reduce(&done, Action::ShrinkFocus(BTreeSet::from([0, 2])));
    assert!(!focused.shrink.as_ref().unwrap().focus_pending);
    assert_eq!(focused.view.focus, Some(Focus { lanes: Rc::new(BTreeSet::from([0, 2])), on: true }));
    let all = reduce(&focused, Action::SetFocus(false));
    assert!(!all.view.focus.as_ref().unwrap().on);
    assert!(reduce(&all, Action::SetFocus(true)).view.focus.as_ref().unwrap().on);
    // An edit of the scenario forgets the focus (its lanes may no longer exist).
    let edited = reduce(&focused, Action::Edit(InputEdit::Seed("9".into())));
    assert_eq!(edited.view.focus, None);
}

#[test]
fn a_shrink_of_inputs_edited_since_is_not_loaded() {
    let shrunk = shrink::shrink(&racy(), Pick::FirstError, shrink::Config { budget: 100 }).unwrap();
    let started = reduce(&State::default(), Action::ShrinkStarted { id: 2, target: "the race".into(), finding: None });
    let edited = reduce(&started, Action::Edit(InputEdit::Seed("5".into())));
    let done = reduce(&edited, Action::ShrinkEvent { id: 2, event: answer(FromWorker::Shrunk { shrunk }) });
    let shrinking = done.shrink.as_ref().unwrap();
    assert_eq!(shrinking.task.phase, Phase::Done);
    assert!(shrinking.task.result.is_some() && shrinking.task.problem.is_some() && !shrinking.focus_pending);
    assert!(done.inputs.replay.is_none() && !done.run.autorun);
    assert_eq!(done.inputs.seed, "5");
}

#[test]
fn a_refused_shrink_fails_with_the_engines_reason() {
    let started = reduce(&State::default(), Action::ShrinkStarted { id: 3, target: "the race".into(), finding: None });
    let diagnostics =
        vec![interleave_engine::diag::Diagnostic::error("invalid-option", "no schedule found within 2,000 executions shows a data-race at line 3")];
    let failed = reduce(&started, Action::ShrinkEvent { id: 3, event: answer(FromWorker::Failed { diagnostics }) });
    let task = &failed.shrink.as_ref().unwrap().task;
    assert_eq!(task.phase, Phase::Failed);
    assert_eq!(task.problem.as_deref(), Some("no schedule found within 2,000 executions shows a data-race at line 3"));
    assert!(failed.inputs.replay.is_none() && !failed.run.autorun);
}

#[test]
fn a_comparison_cell_sets_its_model_and_seed_and_runs() {
    let comparison: Comparison = compare::compare(&racy(), 5).unwrap();
    let started = reduce(&State::default(), Action::CompareStarted { id: 7, scenario: Rc::new(racy()) });
    assert!(started.comparing());
    let done = reduce(&started, Action::CompareEvent { id: 7, event: answer(FromWorker::Compared { comparison: comparison.clone() }) });
    assert_eq!(done.compare.current.as_ref().unwrap().task.phase, Phase::Done);
    let relaxed = comparison.models.iter().position(|m| m.memory_model == MemoryModel::Relaxed).unwrap();
    let opened = reduce(&done, Action::OpenModel { model: relaxed, row: 0, seed: 42 });
    assert_eq!(opened.inputs.memory_model, MemoryModel::Relaxed);
    assert_eq!(opened.inputs.seed, "42");
    assert!(opened.run.autorun);
    assert_eq!(opened.compare.current.as_ref().unwrap().opened, Some((relaxed, 0)));
    // A skipped model (residency with one group) opens nothing.
    let skipped = comparison.models.iter().position(|m| m.skipped.is_some()).unwrap();
    let refused = reduce(&done, Action::OpenModel { model: skipped, row: 0, seed: 1 });
    assert_eq!(refused, done);
}
