//! The lesson pane's state as plain data, with a pure reducer: which lesson is open, how many
//! hints are revealed, the check under way or its verdict, and the progress.
//!
//! A check is an exploration like the Explore panel's, run by the same workers (`crate::pool`)
//! on the scenario and seeds the engine's `lesson::plan` gives; the parts' results are merged
//! (the engine's `explore::merge`) and the engine's `lesson::evaluate` turns them into a verdict here.

use std::rc::Rc;

use interleave_engine::explore::{Config, Exploration};
use interleave_engine::lesson::{self, Lesson, Verdict};
use yew::Reducible;

use crate::explore::{self, Job, WorkerEvent};
use crate::lessons::Progress;

/// One worker's share of a check.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub executions: u64,
    pub budget: u64,
    pub result: Option<Rc<Exploration>>,
}

/// Where the check is.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum CheckState {
    /// Not run since the lesson was opened.
    #[default]
    Idle,
    Running {
        id: u64,
        lesson: Rc<Lesson>,
        parts: Vec<Part>,
        /// Cancel was pressed: the parts report what they have, which is then dropped.
        stopping: bool,
    },
    /// The verdict of the last check.
    Done(Rc<Verdict>),
    /// The scenario could not be explored, or a worker failed.
    Failed(String),
    Cancelled,
}

/// The lesson pane's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tutorial {
    /// The open lesson's position, `None` for the list.
    pub lesson: Option<usize>,
    /// Hints revealed so far.
    pub hints: usize,
    pub check: CheckState,
    pub progress: Rc<Progress>,
}

/// What happens to the lesson pane.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Opens a lesson (or the list): hints hidden again, no verdict.
    Open(Option<usize>),
    /// Reveals the next hint.
    RevealHint,
    /// The workers of check `id` were started, one part per budget.
    Started { id: u64, lesson: Rc<Lesson>, budgets: Vec<u64> },
    /// A worker of check `id` reported.
    Event { id: u64, part: usize, event: WorkerEvent },
    /// Cancel was pressed.
    Cancel,
    /// The workers could not be started.
    StartFailed(String),
}

impl Tutorial {
    /// The pane with the stored progress.
    pub fn new(progress: Progress) -> Tutorial {
        Tutorial { progress: Rc::new(progress), ..Tutorial::default() }
    }

    /// Whether a check's workers are at work.
    pub fn checking(&self) -> bool {
        matches!(self.check, CheckState::Running { .. })
    }

    /// Executions done and planned so far, for the progress bar.
    pub fn check_progress(&self) -> Option<(u64, u64)> {
        match &self.check {
            CheckState::Running { parts, .. } => Some((parts.iter().map(|p| p.executions).sum(), parts.iter().map(|p| p.budget).sum())),
            _ => None,
        }
    }
}

/// The jobs of a check: random seeds split over `hardware` workers as the Explore panel
/// splits them, an exhaustive search in one.
pub fn jobs(config: Config, hardware: usize) -> Vec<Job> {
    if config.exhaustive {
        return vec![Job { runs: config.runs, first_seed: config.first_seed, exhaustive: true, max_preemptions: config.max_preemptions, offer: false }];
    }
    let workers = explore::worker_count(config.runs, hardware);
    interleave_engine::explore::split_seeds(config.first_seed, config.runs, workers)
        .into_iter()
        .map(|(first_seed, runs)| Job { runs, first_seed, exhaustive: false, max_preemptions: None, offer: false })
        .collect()
}

fn diagnostics_text(diagnostics: &[interleave_engine::diag::Diagnostic]) -> String {
    match diagnostics.first() {
        Some(d) => format!("The code does not run: {}", d.message),
        None => "The code does not run.".to_string(),
    }
}

impl Reducible for Tutorial {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Tutorial::clone(&self);
        match action {
            Action::Open(lesson) => {
                next.lesson = lesson;
                next.hints = 0;
                next.check = CheckState::Idle;
            }
            Action::RevealHint => next.hints += 1,
            Action::Started { id, lesson, budgets } => {
                let parts = budgets.into_iter().map(|budget| Part { executions: 0, budget, result: None }).collect();
                next.check = CheckState::Running { id, lesson, parts, stopping: false };
            }
            Action::StartFailed(message) => next.check = CheckState::Failed(message),
            Action::Cancel => {
                if let CheckState::Running { stopping, .. } = &mut next.check {
                    *stopping = true;
                }
            }
            Action::Event { id, part, event } => {
                let CheckState::Running { id: running, lesson, parts, stopping } = &mut next.check else {
                    return self;
                };
                if *running != id || part >= parts.len() {
                    return self;
                }
                match event {
                    WorkerEvent::Progress { executions, budget } => {
                        parts[part].executions = executions;
                        parts[part].budget = budget;
                    }
                    WorkerEvent::Done { exploration, .. } => {
                        parts[part].executions = exploration.runs + exploration.discarded;
                        parts[part].result = Some(exploration);
                        if parts.iter().all(|p| p.result.is_some()) {
                            if *stopping {
                                next.check = CheckState::Cancelled;
                            } else {
                                let results: Vec<Exploration> = parts.iter().filter_map(|p| p.result.as_deref().cloned()).collect();
                                let verdict = lesson::evaluate(&lesson.check, &interleave_engine::explore::merge(&results));
                                if verdict.passed {
                                    let mut progress = Progress::clone(&next.progress);
                                    progress.passed.insert(lesson.id.clone());
                                    next.progress = Rc::new(progress);
                                }
                                next.check = CheckState::Done(Rc::new(verdict));
                            }
                        }
                    }
                    WorkerEvent::Failed { diagnostics } => next.check = CheckState::Failed(diagnostics_text(&diagnostics)),
                    WorkerEvent::Crashed { message } => next.check = CheckState::Failed(format!("The check could not run: {message}.")),
                }
            }
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lessons;

    fn reduce(state: Tutorial, action: Action) -> Tutorial {
        Tutorial::clone(&Rc::new(state).reduce(action))
    }

    fn explored(lesson: &Lesson, scenario: &interleave_engine::scenario::Scenario, jobs: &[Job]) -> Vec<Exploration> {
        let (scenario, _) = lesson::plan(lesson, scenario);
        jobs.iter().map(|job| interleave_engine::explore::explore_with(&scenario, job.config()).unwrap()).collect()
    }

    /// Runs a check as the page does (split into parts, events in any order) and returns
    /// the state after it.
    fn run_check(state: Tutorial, lesson: &Rc<Lesson>, scenario: &interleave_engine::scenario::Scenario) -> Tutorial {
        let (_, config) = lesson::plan(lesson, scenario);
        let jobs = jobs(config, 4);
        let budgets = jobs.iter().map(|j| j.runs).collect();
        let mut state = reduce(state, Action::Started { id: 7, lesson: lesson.clone(), budgets });
        let parts = explored(lesson, scenario, &jobs);
        for (part, exploration) in parts.into_iter().enumerate().rev() {
            state = reduce(state, Action::Event { id: 6, part, event: WorkerEvent::Progress { executions: 1, budget: 1 } });
            state = reduce(state, Action::Event { id: 7, part, event: WorkerEvent::Done { exploration: Rc::new(exploration), stopped: false } });
        }
        state
    }

    #[test]
    fn a_check_split_over_workers_fails_then_passes_and_records_progress() {
        let all = lessons::all();
        let at = lessons::position("atomics-cas-loop").unwrap();
        let lesson = all[at].clone();
        let state = reduce(reduce(Tutorial::default(), Action::Open(Some(at))), Action::RevealHint);
        assert_eq!((state.lesson, state.hints), (Some(at), 1));
        assert_eq!(jobs(lesson::plan(&lesson, &lesson.scenario).1, 4).len(), 4);

        let failed = run_check(state, &lesson, &lesson.scenario);
        let CheckState::Done(verdict) = &failed.check else { panic!("{:?}", failed.check) };
        // Split over workers, the verdict is the one-worker verdict of the engine.
        assert_eq!(**verdict, lesson::check(&lesson, &lesson.scenario).unwrap());
        assert!(!verdict.passed && failed.progress.passed.is_empty());

        let passed = run_check(failed, &lesson, &lesson::solved(&lesson));
        assert!(matches!(&passed.check, CheckState::Done(v) if v.passed));
        assert!(passed.progress.passed.contains("atomics-cas-loop"));
        // Opening another lesson hides the hints and the verdict, and keeps the progress.
        let other = reduce(passed, Action::Open(Some(0)));
        assert_eq!((other.hints, &other.check), (0, &CheckState::Idle));
        assert_eq!(other.progress.passed.len(), 1);
    }

    #[test]
    fn a_cancelled_or_broken_check_gives_no_verdict() {
        let all = lessons::all();
        let lesson = all[0].clone();
        let started = reduce(Tutorial::default(), Action::Started { id: 1, lesson: lesson.clone(), budgets: vec![1] });
        assert!(started.checking());
        assert_eq!(started.check_progress(), Some((0, 1)));
        let stopping = reduce(started.clone(), Action::Cancel);
        let exploration = explored(&lesson, &lesson::solved(&lesson), &jobs(lesson::plan(&lesson, &lesson::solved(&lesson)).1, 1)).remove(0);
        let cancelled = reduce(stopping, Action::Event { id: 1, part: 0, event: WorkerEvent::Done { exploration: Rc::new(exploration), stopped: true } });
        assert_eq!(cancelled.check, CheckState::Cancelled);
        assert!(cancelled.progress.passed.is_empty());
        let crashed = reduce(started.clone(), Action::Event { id: 1, part: 0, event: WorkerEvent::Crashed { message: "gone".into() } });
        assert_eq!(crashed.check, CheckState::Failed("The check could not run: gone.".into()));
        let mut broken = lesson.scenario.clone();
        broken.source = "__kernel void f( {".into();
        let diagnostics = interleave_engine::explore::explore(&lesson::plan(&lesson, &broken).0, 0, 1).unwrap_err();
        let failed = reduce(started, Action::Event { id: 1, part: 0, event: WorkerEvent::Failed { diagnostics } });
        assert!(matches!(&failed.check, CheckState::Failed(m) if m.starts_with("The code does not run: ")), "{:?}", failed.check);
    }
}
