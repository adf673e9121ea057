//! The exploration's workers beside the reducer: starting them with the Explore panel's
//! settings, stopping them, and dropping the pool (terminating its workers) once the
//! exploration is over, when a new one starts, or when the app goes away. Their messages
//! become actions tagged with the exploration's id.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::explore::{self, ExploreMode, Job, WorkerEvent};
use crate::form::Form;
use crate::pool::Pool;
use crate::state::{Action, Phase, State};

pub(super) type PoolCell = Rc<RefCell<Option<Pool>>>;

/// The browser's logical processors (0 when it does not say).
pub(super) fn hardware_concurrency() -> usize {
    let reported = gloo::utils::window().navigator().hardware_concurrency();
    if reported.is_finite() && reported >= 1.0 {
        reported as usize
    } else {
        0
    }
}

/// Starts the workers of a new exploration of the form's scenario with the Explore panel's
/// settings, abandoning one still going.
pub(super) fn start_exploration(pool: &PoolCell, id: u64, mode: ExploreMode, state: &State, form: &Form, dispatch: &UseReducerDispatcher<State>) {
    let Some(scenario) = &form.scenario else {
        return;
    };
    let (jobs, workers): (Vec<Job>, usize) = match mode {
        ExploreMode::Random => {
            let Ok(runs) = explore::parse_runs(&state.explore.runs) else {
                return;
            };
            let workers = explore::worker_count(runs, hardware_concurrency());
            let jobs = interleave_engine::explore::split_seeds(scenario.seed, runs, explore::job_count(runs, workers))
                .into_iter()
                .enumerate()
                // The first job also tries the exhaustive search, to offer it when it is small.
                .map(|(i, (first_seed, runs))| Job { runs, first_seed, exhaustive: false, max_preemptions: None, offer: i == 0 })
                .collect();
            (jobs, workers)
        }
        ExploreMode::Exhaustive => {
            let Ok(max_preemptions) = explore::parse_preemptions(&state.explore.preemptions) else {
                return;
            };
            // No run count: the engine's own budget bounds the search.
            let job = Job { runs: 0, first_seed: scenario.seed, exhaustive: true, max_preemptions, offer: false };
            (vec![job], 1)
        }
    };
    let scenario = Rc::new(explore::exploration_scenario(scenario));
    pool.borrow_mut().take();
    dispatch.dispatch(Action::ExploreStarted {
        id,
        mode,
        scenario: scenario.clone(),
        workers,
        // An exhaustive search learns its budget when it starts.
        budgets: jobs.iter().map(|j| if j.exhaustive { 0 } else { j.runs }).collect(),
    });
    let on_event = dispatch.to_callback().reform(move |(part, event)| Action::ExploreEvent { id, part, event });
    match Pool::start(explore::WORKER_URL, &scenario, &jobs, workers, on_event) {
        Ok(started) => *pool.borrow_mut() = Some(started),
        Err(message) => dispatch.dispatch(Action::ExploreEvent { id, part: 0, event: WorkerEvent::Crashed { message } }),
    }
}

/// The workers go as soon as the exploration is over (each has terminated itself after its
/// last message; this also ends the others after a failure), and with the app.
#[hook]
pub(super) fn use_pool_lifetime(pool: &PoolCell, state: &State) {
    {
        let pool = pool.clone();
        let over = state.explore.current.as_ref().map(|run| (run.id, run.phase.over()));
        use_effect_with(over, move |over| {
            if matches!(over, Some((_, true))) {
                pool.borrow_mut().take();
            }
        });
    }
    {
        let pool = pool.clone();
        use_effect_with((), move |_| move || drop(pool.borrow_mut().take()));
    }
}

/// The Explore panel's Start, Cancel, and "Explore every execution" (the exhaustive search a
/// random exploration offered: the panel switches to it and starts).
pub(super) fn explore_controls(
    pool: &PoolCell,
    explorations: &Rc<RefCell<u64>>,
    state: &UseReducerHandle<State>,
    form: &Rc<Form>,
) -> (Callback<Option<ExploreMode>>, Callback<()>) {
    let dispatch = state.dispatcher();
    let on_explore_start = {
        let (pool, explorations, dispatch, form, state) = (pool.clone(), explorations.clone(), dispatch.clone(), form.clone(), state.clone());
        Callback::from(move |mode: Option<ExploreMode>| {
            if state.exploring() {
                return;
            }
            let id = {
                let mut serial = explorations.borrow_mut();
                *serial += 1;
                *serial
            };
            let mode = match mode {
                Some(mode) => {
                    dispatch.dispatch(Action::SetExploreMode(mode));
                    mode
                }
                None => state.explore.mode,
            };
            start_exploration(&pool, id, mode, &state, &form, &dispatch);
        })
    };
    let on_explore_cancel = {
        let (pool, dispatch, state) = (pool.clone(), dispatch.clone(), state.clone());
        Callback::from(move |()| match state.explore.current.as_ref().map(|run| run.phase) {
            Some(Phase::Running) => {
                if let Some(pool) = pool.borrow().as_ref() {
                    pool.stop();
                }
                dispatch.dispatch(Action::ExploreStop);
            }
            // A second press does not wait for the chunks to end.
            Some(Phase::Stopping) => {
                pool.borrow_mut().take();
                dispatch.dispatch(Action::ExploreAbandoned);
            }
            _ => {}
        })
    };
    (on_explore_start, on_explore_cancel)
}
