//! The session beside the reducer: opening it from the form's scenario, advancing it (a
//! step, a step back, a lane's step, a seek, a run in chunks towards its target) and telling
//! the reducer what it did. The session is mutable and not `Clone`, so it lives in a shared
//! cell; every change to it is followed by an action that bumps the state's generation.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use interleave_engine::report::RunStatus;
use interleave_engine::scenario::Scenario;
use interleave_engine::session::Session;
use yew::prelude::*;

use super::page::reveal_lanes;
use crate::explore;
use crate::form::Form;
use crate::state::{Action, RunTarget, Speed, State, Summary};

/// How long one chunk of a run at full speed may take before the page gets to repaint and
/// react to Pause: about half a frame.
const CHUNK_MS: f64 = 8.0;
/// How often a run at full speed draws the page: the step count, the lanes and the
/// inspector follow the run ten times a second, and the chunks in between answer input
/// quickly because no render of the whole page follows each one.
const RENDER_EVERY_MS: f64 = 100.0;
/// Steps between two looks at the clock within a chunk: reading it costs far more than a
/// step, and 256 steps take well under a millisecond.
const CLOCK_EVERY: u32 = 256;
/// The shortest pause between two chunks of a slow run; faster speeds take several steps a
/// chunk instead.
const SLOW_TICK_MS: f64 = 16.0;

pub(super) type SessionCell = Rc<RefCell<Option<Session>>>;

/// Creates a session from the form's scenario and reports the outcome to the reducer.
/// Returns whether a session now exists.
pub(super) fn open_session(cell: &SessionCell, dispatch: &UseReducerDispatcher<State>, form: &Form) -> bool {
    let Some(scenario) = &form.scenario else {
        return false;
    };
    crate::crash::remember(scenario);
    match Session::new(Scenario::clone(scenario)) {
        Ok(session) => {
            let work_items = session.work_item_count();
            *cell.borrow_mut() = Some(session);
            dispatch.dispatch(Action::SessionOpened);
            dispatch.dispatch(Action::WorkItemsKnown(work_items));
            true
        }
        Err(diagnostics) => {
            *cell.borrow_mut() = None;
            let source = AttrValue::from(scenario.source.clone());
            dispatch.dispatch(Action::SessionFailed { diagnostics: Rc::new(diagnostics), source });
            false
        }
    }
}

/// What advancing the session did: whether it moved, and the summary if the run has ended.
/// The report is taken here, once, when the run ends.
pub(super) fn advance(cell: &SessionCell, step: impl FnOnce(&mut Session) -> bool) -> (bool, Option<Summary>) {
    let mut guard = cell.borrow_mut();
    let Some(session) = guard.as_mut() else {
        return (false, None);
    };
    let moved = step(session);
    let ended = (session.status() != RunStatus::Running).then(|| {
        let report = session.report();
        Summary {
            status: report.status,
            steps: report.steps,
            trace_hash: report.trace_hash.into(),
            registers: report.registers.as_ref().map(|r| AttrValue::from(explore::registers_text(r))),
            exists: report.exists,
        }
    });
    (moved, ended)
}

/// Whether the run has reached where it should stop by itself.
pub(super) fn reached(session: &Session, target: RunTarget) -> bool {
    match target {
        RunTarget::End => false,
        RunTarget::NextFinding { after } => session.findings().len() > after,
        RunTarget::Step(step) => session.steps() >= step,
    }
}

/// How a run goes at `speed`: the pause before each chunk in milliseconds, and the most
/// steps a chunk takes (`None`: as many as fit in [`CHUNK_MS`]).
pub(super) fn pace(speed: Speed) -> (u32, Option<u64>) {
    match speed {
        Speed::Max => (0, None),
        Speed::PerSecond(per_second) => {
            let per_second = f64::from(per_second.max(1));
            let tick = (1000.0 / per_second).max(SLOW_TICK_MS);
            let steps = (per_second * tick / 1000.0).round().max(1.0);
            (tick as u32, Some(steps as u64))
        }
    }
}

/// One chunk of a run: steps until the target is reached, the run ends, `limit` steps were
/// taken or the chunk's time is up. Returns whether it moved and whether it reached the
/// target.
pub(super) fn run_chunk(session: &mut Session, target: RunTarget, limit: Option<u64>) -> (bool, bool) {
    let started = js_sys::Date::now();
    let mut moved = false;
    let mut taken: u64 = 0;
    loop {
        if reached(session, target) {
            return (moved, true);
        }
        if limit.is_some_and(|limit| taken >= limit) || !session.step() {
            return (moved, false);
        }
        moved = true;
        taken += 1;
        if limit.is_none() && taken.is_multiple_of(u64::from(CLOCK_EVERY)) && js_sys::Date::now() - started >= CHUNK_MS {
            return (moved, reached(session, target));
        }
    }
}

/// The lane of the work-item with global id `id`, if there is one.
pub(super) fn lane_of(session: &Session, id: [u64; 3]) -> Option<usize> {
    (0..session.work_item_count()).find(|&i| session.work_item(i).global_id == id)
}

/// A callback that starts a run, opening a session first when there is none, unless a run
/// is going on or has ended; `action` says where the run stops, given the session.
pub(super) fn run_starter(
    session: &SessionCell,
    dispatch: &UseReducerDispatcher<State>,
    form: &Rc<Form>,
    state: &UseReducerHandle<State>,
    has_session: bool,
    action: fn(&Session) -> Action,
) -> Callback<()> {
    let (session, dispatch, form, state) = (session.clone(), dispatch.clone(), form.clone(), state.clone());
    Callback::from(move |()| {
        if state.run.running || (has_session && state.ended()) {
            return;
        }
        if has_session || open_session(&session, &dispatch, &form) {
            let started = session.borrow().as_ref().map(action);
            if let Some(started) = started {
                dispatch.dispatch(started);
            }
        }
    })
}

/// The run's controls, as callbacks on the session.
pub(super) struct SessionControls {
    pub on_step: Callback<()>,
    pub on_step_back: Callback<()>,
    pub on_step_lane: Callback<usize>,
    pub on_run: Callback<()>,
    pub on_pause: Callback<()>,
    pub on_reset: Callback<()>,
    pub on_seek: Callback<u64>,
    pub on_run_to_finding: Callback<()>,
}

/// The callbacks of the run's controls. `has_session`: a session of the current inputs is
/// open; `furthest`: the furthest step recorded, beyond which a seek has to run.
pub(super) fn session_controls(session: &SessionCell, state: &UseReducerHandle<State>, form: &Rc<Form>, has_session: bool, furthest: u64) -> SessionControls {
    let dispatch = state.dispatcher();
    let actions: Callback<Action> = dispatch.to_callback();
    let on_step = {
        let (session, dispatch, form, state) = (session.clone(), dispatch.clone(), form.clone(), state.clone());
        Callback::from(move |()| {
            if state.run.running || (has_session && state.ended()) {
                return;
            }
            if !has_session && !open_session(&session, &dispatch, &form) {
                return;
            }
            let (_, ended) = advance(&session, Session::step);
            dispatch.dispatch(Action::Advanced { ended });
        })
    };
    let on_step_back = {
        let (session, dispatch) = (session.clone(), dispatch.clone());
        Callback::from(move |()| {
            let (moved, ended) = advance(&session, |s| {
                let at = s.steps();
                at > 0 && s.seek(at - 1) < at
            });
            if moved {
                dispatch.dispatch(Action::Rewound { ended });
            }
        })
    };
    let on_step_lane = {
        let (session, dispatch, state) = (session.clone(), dispatch.clone(), state.clone());
        Callback::from(move |index: usize| {
            if state.run.running || !has_session {
                return;
            }
            let (moved, ended) = advance(&session, |s| s.step_work_item(index));
            if moved {
                dispatch.dispatch(Action::Advanced { ended });
            }
        })
    };
    let on_run = run_starter(session, &dispatch, form, state, has_session, |_| Action::RunStarted);
    let on_pause = actions.reform(|()| Action::RunStopped);
    let on_reset = {
        let (session, dispatch, form) = (session.clone(), dispatch.clone(), form.clone());
        Callback::from(move |()| {
            open_session(&session, &dispatch, &form);
        })
    };
    let on_seek = {
        let (session, dispatch, state) = (session.clone(), dispatch.clone(), state.clone());
        Callback::from(move |target: u64| {
            if state.run.running || !has_session {
                return;
            }
            // Steps never reached yet have to be run, which may take long: in chunks.
            if target > furthest && !state.ended() {
                dispatch.dispatch(Action::RunToStep(target));
                return;
            }
            let mut back = false;
            let (moved, ended) = advance(&session, |s| {
                let at = s.steps();
                back = target < at;
                s.seek(target) != at
            });
            match (moved, back) {
                (true, true) => dispatch.dispatch(Action::Rewound { ended }),
                (true, false) => dispatch.dispatch(Action::Advanced { ended }),
                (false, _) => {}
            }
        })
    };
    let on_run_to_finding = run_starter(session, &dispatch, form, state, has_session, |s| Action::RunToFinding { after: s.findings().len() });
    SessionControls { on_step, on_step_back, on_step_lane, on_run, on_pause, on_reset, on_seek, on_run_to_finding }
}

// A run goes on in chunks while `running` holds. At full speed the page is drawn again
// only every [`RENDER_EVERY_MS`]: between two renders the chunks follow each other through
// zero-delay timeouts, so that clicks and keys get in after every ~8 ms chunk instead of
// waiting behind a render of the whole page per chunk. A paced run (a set number of steps
// per second) draws every chunk. Each render bumps the generation, which re-runs this
// effect for the next stretch; Pause, Reset or an edit clear `running`, and the cleanup
// stops a stretch that is under way. A chunk stops early when the run reaches its target
// (the next finding, or a step far ahead).

// A run goes on in chunks while `running` holds. At full speed the page is drawn again only
// every [`RENDER_EVERY_MS`]: between two renders the chunks follow each other through
// zero-delay timeouts, so that clicks and keys get in after every ~8 ms chunk instead of
// waiting behind a render of the whole page per chunk. A paced run (a set number of steps per
// second) draws every chunk. Each render bumps the generation, which re-runs this effect for
// the next stretch; Pause, Reset or an edit clear `running`, and the cleanup stops a stretch
// that is under way. A chunk stops early when the run reaches its target (the next finding,
// or a step far ahead).
#[hook]
pub(super) fn use_run_loop(session: &SessionCell, state: &UseReducerHandle<State>) {
    let session = session.clone();
    let dispatch = state.dispatcher();
    let deps = (state.run.running, state.run.generation, state.run.target, state.run.speed);
    use_effect_with(deps, move |&(running, _, target, speed)| {
        let (pause_ms, limit) = pace(speed);
        let cancelled = Rc::new(Cell::new(false));
        if running {
            let cancelled = cancelled.clone();
            yew::platform::spawn_local(async move {
                yew::platform::time::sleep(Duration::from_millis(u64::from(pause_ms))).await;
                let started = js_sys::Date::now();
                let mut undrawn = false;
                loop {
                    if cancelled.get() {
                        // Paused (or interrupted): draw the steps taken since the last
                        // render, so the page shows where the session is.
                        if undrawn {
                            dispatch.dispatch(Action::Advanced { ended: None });
                        }
                        return;
                    }
                    let mut arrived = false;
                    let (moved, ended) = advance(&session, |s| {
                        let (moved, reached) = run_chunk(s, target, limit);
                        arrived = reached;
                        moved
                    });
                    let stops = arrived || !moved || ended.is_some();
                    if stops || limit.is_some() || js_sys::Date::now() - started >= RENDER_EVERY_MS {
                        // Steps of an earlier chunk not drawn yet are drawn now too (a replay
                        // whose schedule runs out stops without moving in its last chunk).
                        if moved || undrawn || ended.is_some() {
                            dispatch.dispatch(Action::Advanced { ended });
                        }
                        // A session that neither moves nor ends would spin here for ever.
                        if arrived || !moved {
                            dispatch.dispatch(Action::RunStopped);
                        }
                        return;
                    }
                    undrawn = true;
                    yew::platform::time::sleep(Duration::ZERO).await;
                }
            });
        }
        move || cancelled.set(true)
    });
}

/// An explored outcome was loaded into the inputs: run it, and show the lanes.
#[hook]
pub(super) fn use_autorun(session: &SessionCell, state: &UseReducerHandle<State>, form: &Rc<Form>) {
    let (session, dispatch, form) = (session.clone(), state.dispatcher(), form.clone());
    use_effect_with((state.run.autorun, state.revision), move |&(autorun, _)| {
        if autorun && open_session(&session, &dispatch, &form) {
            dispatch.dispatch(Action::RunStarted);
            reveal_lanes();
        }
    });
}

/// An opened link's scenario is in the inputs: start its session and run to its step (in
/// chunks, like any run to a step not reached yet).
#[hook]
pub(super) fn use_link_step(session: &SessionCell, state: &UseReducerHandle<State>, form: &Rc<Form>) {
    let (session, dispatch, form) = (session.clone(), state.dispatcher(), form.clone());
    use_effect_with((state.run.link_step, state.revision), move |&(step, _)| {
        if let Some(step) = step {
            if open_session(&session, &dispatch, &form) {
                if step > 0 {
                    dispatch.dispatch(Action::RunToStep(step));
                }
                reveal_lanes();
            }
            dispatch.dispatch(Action::LinkStarted);
        }
    });
}
