//! The app's state: one reducer over everything the page shows.
//!
//! The reducer is pure. It holds the user's inputs as typed text (so that an invalid value
//! stays on screen while it is being fixed) and what is known about the current session, but
//! not the session itself: a `Session` is large, mutable and not `Clone`, so the app keeps it
//! beside the reducer and bumps [`State::generation`] whenever it changes. Nothing here
//! touches web APIs, so the reducer is tested natively.

use std::rc::Rc;

use interleave_engine::diag::Diagnostic;
use interleave_engine::report::RunStatus;
use interleave_engine::scenario::SchedulerKind;
use yew::{AttrValue, Reducible};

/// The example the editor starts with.
pub const DEFAULT_SOURCE: &str = include_str!("../../static/examples/count.cl");

/// The arguments that fit the default example.
pub const DEFAULT_ARGS: [&str; 2] = ["ids=int[8]", "counters=int[2]:fill=0"];

/// The schedulers the launch panel offers, in the order it lists them.
pub const SCHEDULERS: [SchedulerKind; 4] = [
    SchedulerKind::Random,
    SchedulerKind::RoundRobin,
    SchedulerKind::RunToBlock,
    SchedulerKind::Pct,
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
    pub text: AttrValue,
}

/// What the status line shows once a run has ended; taken from the engine's report once,
/// not on every frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub status: RunStatus,
    pub steps: u64,
    pub trace_hash: AttrValue,
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub source: AttrValue,
    pub global: AttrValue,
    pub local: AttrValue,
    pub seed: AttrValue,
    pub scheduler: SchedulerKind,
    pub args: Rc<Vec<ArgRow>>,
    next_arg_id: u32,
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
}

impl State {
    pub fn new(theme: Theme) -> State {
        let args: Vec<ArgRow> = DEFAULT_ARGS
            .iter()
            .enumerate()
            .map(|(i, text)| ArgRow {
                id: i as u32,
                text: AttrValue::from(*text),
            })
            .collect();
        State {
            source: AttrValue::from(DEFAULT_SOURCE),
            global: AttrValue::from("8"),
            local: AttrValue::from("4"),
            seed: AttrValue::from("1"),
            scheduler: SchedulerKind::Random,
            next_arg_id: args.len() as u32,
            args: Rc::new(args),
            theme,
            revision: 0,
            generation: 0,
            live: false,
            running: false,
            summary: None,
            diagnostics: Rc::default(),
            diagnostics_source: AttrValue::default(),
            diagnostics_stale: false,
        }
    }

    /// Whether the live session's run has ended.
    pub fn ended(&self) -> bool {
        self.live && self.summary.is_some()
    }

    /// Any edit of the scenario makes the session describe a different program or launch, so
    /// it is dropped and the next Run or Step starts a new one.
    fn invalidate(&mut self) {
        self.revision += 1;
        self.generation += 1;
        self.live = false;
        self.running = false;
        self.summary = None;
        self.diagnostics_stale = true;
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
                row.text = text;
            }
            next.args = Rc::new(args);
            next.invalidate();
        }
        Action::AddArg => {
            let mut args = (*state.args).clone();
            args.push(ArgRow {
                id: state.next_arg_id,
                text: AttrValue::default(),
            });
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
            next.generation += 1;
            next.live = true;
            next.running = false;
            next.summary = None;
            next.diagnostics = Rc::default();
            next.diagnostics_stale = false;
        }
        Action::SessionFailed {
            diagnostics,
            source,
        } => {
            next.generation += 1;
            next.diagnostics_source = source;
            next.live = false;
            next.running = false;
            next.summary = None;
            next.diagnostics = diagnostics;
            next.diagnostics_stale = false;
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
        Action::RunStarted => next.running = state.live && state.summary.is_none(),
        Action::RunStopped => next.running = false,
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepping_back_from_the_end_reopens_the_run() {
        let ended = reduce(&opened(), Action::Advanced { ended: Some(summary(RunStatus::Completed)) });
        assert!(ended.ended());
        let back = reduce(&ended, Action::Rewound { ended: None });
        assert!(!back.ended() && back.live && !back.running);
        assert!(back.generation > ended.generation);
    }

    fn opened() -> State {
        reduce(&State::default(), Action::SessionOpened)
    }

    fn summary(status: RunStatus) -> Summary {
        Summary {
            status,
            steps: 42,
            trace_hash: "3fa2".into(),
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
}
