//! The root component: it owns the reducer and the session, and wires the panels together.
//!
//! The session lives beside the reducer in a shared cell because it is mutable and not
//! `Clone`; every change to it is followed by an action that bumps the state's generation,
//! and the view reads a fresh [`Snapshot`] only when the generation changes. Side effects (the
//! chunked run, the theme attribute, keyboard shortcuts, loading an explored outcome) live in
//! `use_effect_with`.
//!
//! The workers of an exploration live beside the session in the same way ([`Pool`]): their
//! messages become actions tagged with the exploration's id, and the pool is dropped (its
//! workers terminated) once the exploration is over, when a new one starts, or when the app
//! goes away.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::timers::callback::Timeout;
use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{Scenario, SchedulerKind};
use interleave_engine::session::Session;
use wasm_bindgen::JsCast;
use web_sys::{
    HtmlElement, HtmlTextAreaElement, KeyboardEvent, ScrollIntoViewOptions, ScrollLogicalPosition,
};
use yew::prelude::*;

use super::controls::Controls;
use super::diagnostics::Diagnostics;
use super::editor::Editor;
use super::examples::ExamplePicker;
use super::explore::ExplorePanel;
use super::files::FileBar;
use super::findings::{Findings, SourcePlace};
use super::header::Header;
use super::lanes::Lanes;
use super::launch::LaunchPanel;
use super::persist;
use super::restore::RestoreBanner;
use super::status::Status;
use crate::explore::{self, ExploreMode, Job, WorkerEvent};
use crate::form::{self, Form};
use crate::pool::Pool;
use crate::snapshot::{self, Snapshot};
use crate::state::{Action, Phase, State, Summary, Theme};

/// Steps per chunk of a run: large enough that runs finish quickly, small enough that the
/// page repaints and reacts to Pause between chunks.
const CHUNK: u64 = 20_000;

type SessionCell = Rc<RefCell<Option<Session>>>;
type PoolCell = Rc<RefCell<Option<Pool>>>;

/// The theme the operating system asks for.
fn preferred_theme() -> Theme {
    let dark = gloo::utils::window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|query| query.matches());
    if dark {
        Theme::Dark
    } else {
        Theme::Light
    }
}

/// Creates a session from the form's scenario and reports the outcome to the reducer.
/// Returns whether a session now exists.
fn open_session(cell: &SessionCell, dispatch: &UseReducerDispatcher<State>, form: &Form) -> bool {
    let Some(scenario) = &form.scenario else {
        return false;
    };
    match Session::new(Scenario::clone(scenario)) {
        Ok(session) => {
            *cell.borrow_mut() = Some(session);
            dispatch.dispatch(Action::SessionOpened);
            true
        }
        Err(diagnostics) => {
            *cell.borrow_mut() = None;
            let source = AttrValue::from(scenario.source.clone());
            dispatch.dispatch(Action::SessionFailed {
                diagnostics: Rc::new(diagnostics),
                source,
            });
            false
        }
    }
}

/// What advancing the session did: whether it moved, and the summary if the run has ended.
/// The report is taken here, once, when the run ends.
fn advance(cell: &SessionCell, step: impl FnOnce(&mut Session) -> bool) -> (bool, Option<Summary>) {
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
            registers: report
                .registers
                .as_ref()
                .map(|r| AttrValue::from(explore::registers_text(r))),
            exists: report.exists,
        }
    });
    (moved, ended)
}

/// Converts a byte offset into `text` to the UTF-16 offset the DOM's selection APIs use.
fn utf16_offset(text: &str, byte: usize) -> u32 {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    text[..byte].encode_utf16().count() as u32
}

/// The byte range a finding points at: its span, or the rest of its line from its column.
fn place_range(source: &str, place: SourcePlace) -> Option<(usize, usize)> {
    if let Some(span) = place.span {
        return Some((span.start as usize, span.end as usize));
    }
    let line_start = source
        .split_inclusive('\n')
        .take(place.line.checked_sub(1)? as usize)
        .map(str::len)
        .sum::<usize>();
    let line = source[line_start..].split('\n').next().unwrap_or_default();
    let column = line
        .char_indices()
        .nth(place.column.saturating_sub(1) as usize)
        .map_or(line.len(), |(i, _)| i);
    Some((line_start + column, line_start + line.len()))
}

/// The browser's logical processors (0 when it does not say).
fn hardware_concurrency() -> usize {
    let reported = gloo::utils::window().navigator().hardware_concurrency();
    if reported.is_finite() && reported >= 1.0 {
        reported as usize
    } else {
        0
    }
}

/// Brings the lanes into view, for a run started from the results further down the page.
fn reveal_lanes() {
    if let Some(lanes) = gloo::utils::document().get_element_by_id("lanes") {
        let options = ScrollIntoViewOptions::new();
        options.set_block(ScrollLogicalPosition::Nearest);
        lanes.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

/// Starts the workers of a new exploration of the form's scenario with the Explore panel's
/// settings, abandoning one still going.
fn start_exploration(
    pool: &PoolCell,
    id: u64,
    state: &State,
    form: &Form,
    dispatch: &UseReducerDispatcher<State>,
) {
    let Some(scenario) = &form.scenario else {
        return;
    };
    let mode = state.explore_mode;
    let jobs: Vec<Job> = match mode {
        ExploreMode::Random => {
            let Ok(runs) = explore::parse_runs(&state.explore_runs) else {
                return;
            };
            let workers = explore::worker_count(runs, hardware_concurrency());
            explore::split_seeds(scenario.seed, runs, workers)
                .into_iter()
                .map(|(first_seed, runs)| Job {
                    runs,
                    first_seed,
                    exhaustive: false,
                    max_preemptions: None,
                })
                .collect()
        }
        ExploreMode::Exhaustive => {
            let Ok(max_preemptions) = explore::parse_preemptions(&state.explore_preemptions) else {
                return;
            };
            // No run count: the engine's own budget bounds the search.
            vec![Job {
                runs: 0,
                first_seed: scenario.seed,
                exhaustive: true,
                max_preemptions,
            }]
        }
    };
    let scenario = Rc::new(explore::exploration_scenario(scenario));
    pool.borrow_mut().take();
    dispatch.dispatch(Action::ExploreStarted {
        id,
        mode,
        scenario: scenario.clone(),
        // An exhaustive search learns its budget when it starts.
        budgets: jobs
            .iter()
            .map(|j| if j.exhaustive { 0 } else { j.runs })
            .collect(),
    });
    let on_event = dispatch
        .to_callback()
        .reform(move |(part, event)| Action::ExploreEvent { id, part, event });
    match Pool::start(explore::WORKER_URL, &scenario, &jobs, on_event) {
        Ok(started) => *pool.borrow_mut() = Some(started),
        Err(message) => dispatch.dispatch(Action::ExploreEvent {
            id,
            part: 0,
            event: WorkerEvent::Crashed { message },
        }),
    }
}

/// Whether a key press belongs to a text field rather than to the page's shortcuts.
fn typing_into(event: &KeyboardEvent) -> bool {
    let Some(target) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    matches!(target.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
        || target
            .dyn_ref::<HtmlElement>()
            .is_some_and(|e| e.is_content_editable())
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(|| persist::initial_state(preferred_theme()));
    persist::use_persistence(&state);
    let session: SessionCell = use_mut_ref(|| None);
    let pool: PoolCell = use_mut_ref(|| None);
    let explorations = use_mut_ref(|| 0u64);
    let textarea = use_node_ref();
    let dispatch = state.dispatcher();
    let actions: Callback<Action> = dispatch.to_callback();

    let form = {
        let state = state.clone();
        use_memo(state.revision, move |_| form::validate(&state))
    };
    let snapshot: Rc<Option<Snapshot>> = {
        let (session, form) = (session.clone(), form.clone());
        use_memo((state.generation, state.live), move |&(_, live)| {
            session
                .borrow()
                .as_ref()
                .filter(|_| live)
                .map(|s| snapshot::take(s, form.litmus.as_deref()))
        })
    };
    let active_lines: Rc<Vec<u32>> = {
        let snapshot = snapshot.clone();
        use_memo(state.generation, move |_| {
            let mut lines: Vec<u32> = Option::as_ref(&snapshot)
                .iter()
                .flat_map(|s| s.timeline.groups.iter().flat_map(|g| g.lanes.iter()))
                .filter(|lane| lane.status != "finished")
                .filter_map(|lane| lane.line)
                .collect();
            lines.sort_unstable();
            lines.dedup();
            lines
        })
    };

    // The theme is an attribute on the root element so the whole stylesheet can follow it.
    use_effect_with(state.theme, |theme| {
        let root = gloo::utils::document_element();
        let _ = root.set_attribute("data-theme", theme.as_str());
    });

    // A run goes on one chunk per timeout while `running` holds. Each chunk bumps the
    // generation, which re-runs this effect for the next chunk; Pause, Reset or an edit
    // clear `running`, and dropping the pending timeout cancels it.
    {
        let session = session.clone();
        let dispatch = dispatch.clone();
        use_effect_with((state.running, state.generation), move |&(running, _)| {
            let timeout = running.then(|| {
                Timeout::new(0, move || {
                    let (moved, ended) = advance(&session, |s| s.run(CHUNK) > 0);
                    if moved || ended.is_some() {
                        dispatch.dispatch(Action::Advanced { ended });
                    } else {
                        // A session that neither moves nor ends would spin here for ever.
                        dispatch.dispatch(Action::RunStopped);
                    }
                })
            });
            move || drop(timeout)
        });
    }

    // An explored outcome was loaded into the inputs: run it, and show the lanes.
    {
        let (session, dispatch, form) = (session.clone(), dispatch.clone(), form.clone());
        use_effect_with((state.autorun, state.revision), move |&(autorun, _)| {
            if autorun && open_session(&session, &dispatch, &form) {
                dispatch.dispatch(Action::RunStarted);
                reveal_lanes();
            }
        });
    }

    // The workers go as soon as the exploration is over (each has terminated itself after its
    // last message; this also ends the others after a failure), and with the app.
    {
        let pool = pool.clone();
        let over = state
            .exploration
            .as_ref()
            .map(|run| (run.id, run.phase.over()));
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

    let has_session = state.live && session.borrow().is_some();
    let on_step = {
        let (session, dispatch, form, state) = (
            session.clone(),
            dispatch.clone(),
            form.clone(),
            state.clone(),
        );
        Callback::from(move |()| {
            if state.running || (has_session && state.ended()) {
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
            if state.running || !has_session {
                return;
            }
            let (moved, ended) = advance(&session, |s| s.step_work_item(index));
            if moved {
                dispatch.dispatch(Action::Advanced { ended });
            }
        })
    };
    let on_run = {
        let (session, dispatch, form, state) = (
            session.clone(),
            dispatch.clone(),
            form.clone(),
            state.clone(),
        );
        Callback::from(move |()| {
            if state.running || (has_session && state.ended()) {
                return;
            }
            if has_session || open_session(&session, &dispatch, &form) {
                dispatch.dispatch(Action::RunStarted);
            }
        })
    };
    let on_pause = actions.reform(|()| Action::RunStopped);
    let on_reset = {
        let (session, dispatch, form) = (session.clone(), dispatch.clone(), form.clone());
        Callback::from(move |()| {
            open_session(&session, &dispatch, &form);
        })
    };

    // Shortcuts: s steps, r runs (or pauses a run), 0 or Home resets. Keys typed into a
    // field are left alone. The listener is rebound when the callbacks change.
    {
        let running = state.running;
        use_effect_with(
            (
                on_step.clone(),
                on_run.clone(),
                on_pause.clone(),
                on_reset.clone(),
                running,
            ),
            move |(on_step, on_run, on_pause, on_reset, running)| {
                let (on_step, on_run, on_pause, on_reset, running) = (
                    on_step.clone(),
                    on_run.clone(),
                    on_pause.clone(),
                    on_reset.clone(),
                    *running,
                );
                // Not passive: a handled shortcut prevents the key's default action (Home scrolling).
                let options = EventListenerOptions::enable_prevent_default();
                let document = gloo::utils::document();
                let listener =
                    EventListener::new_with_options(&document, "keydown", options, move |event| {
                        let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
                            return;
                        };
                        if event.ctrl_key()
                            || event.meta_key()
                            || event.alt_key()
                            || typing_into(event)
                        {
                            return;
                        }
                        match event.key().as_str() {
                            "s" => on_step.emit(()),
                            "r" if running => on_pause.emit(()),
                            "r" => on_run.emit(()),
                            "0" | "Home" => on_reset.emit(()),
                            _ => return,
                        }
                        event.prevent_default();
                    });
                move || drop(listener)
            },
        );
    }

    let on_select = {
        let (textarea, source) = (textarea.clone(), state.source.clone());
        Callback::from(move |place: SourcePlace| {
            let Some(element) = textarea.cast::<HtmlTextAreaElement>() else {
                return;
            };
            let Some((start, end)) = place_range(&source, place) else {
                return;
            };
            let _ = element.focus();
            let _ = element
                .set_selection_range(utf16_offset(&source, start), utf16_offset(&source, end));
            // Bring the line into view: lines are evenly spaced, so its height follows from
            // the scroll height and the number of lines.
            let line = source[..start.min(source.len())].matches('\n').count() as i32;
            let lines = source.split('\n').count().max(1) as i32;
            let line_height = element.scroll_height() / lines;
            element.set_scroll_top((line * line_height - element.client_height() / 3).max(0));
        })
    };

    let on_explore_start = {
        let (pool, explorations, dispatch, form, state) = (
            pool.clone(),
            explorations.clone(),
            dispatch.clone(),
            form.clone(),
            state.clone(),
        );
        Callback::from(move |()| {
            if state.exploring() {
                return;
            }
            let id = {
                let mut serial = explorations.borrow_mut();
                *serial += 1;
                *serial
            };
            start_exploration(&pool, id, &state, &form, &dispatch);
        })
    };
    let on_explore_cancel = {
        let (pool, dispatch, state) = (pool.clone(), dispatch.clone(), state.clone());
        Callback::from(
            move |()| match state.exploration.as_ref().map(|run| run.phase) {
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
            },
        )
    };
    let explore_stale = state.exploration.as_ref().is_some_and(|run| {
        form.scenario
            .as_ref()
            .is_none_or(|scenario| !explore::same_program(scenario, &run.scenario))
    });

    let on_edit = actions.reform(Action::EditSource);
    let on_example = actions.reform(Action::LoadExample);
    let on_memory_model = actions.reform(Action::SetMemoryModel);
    let on_explore_mode = actions.reform(Action::SetExploreMode);
    let on_explore_runs = actions.reform(Action::SetExploreRuns);
    let on_explore_preemptions = actions.reform(Action::SetExplorePreemptions);
    let on_load_outcome = actions.reform(Action::LoadOutcome);
    let on_load_finding = actions.reform(Action::LoadFinding);
    let on_theme = actions.reform(Action::SetTheme);
    let on_global = actions.reform(Action::SetGlobal);
    let on_local = actions.reform(Action::SetLocal);
    let on_seed = actions.reform(Action::SetSeed);
    let on_scheduler = actions.reform(|kind: SchedulerKind| Action::SetScheduler(kind));
    let on_arg = actions.reform(|(id, text)| Action::SetArg { id, text });
    let on_add_arg = actions.reform(|()| Action::AddArg);
    let on_remove_arg = actions.reform(Action::RemoveArg);
    let on_open_files = actions.reform(Action::OpenFiles);
    let on_restore = actions.reform(|()| Action::RestoreEdits);
    let on_dismiss_stash = actions.reform(|()| Action::DismissStash);

    let snapshot = Option::as_ref(&snapshot);
    let findings = snapshot.map(|s| s.findings.clone()).unwrap_or_default();
    let steps = snapshot.map_or(0, |s| s.steps);
    let can_start = form.scenario.is_some();

    html! {
        <>
            <Header theme={state.theme} {on_theme} />
            <RestoreBanner stash={state.stash.clone()} {on_restore} on_dismiss={on_dismiss_stash} />
            <main class="workspace">
                <Editor source={state.source.clone()} {on_edit} textarea={textarea.clone()} {active_lines} litmus={form.is_litmus}>
                    <ExamplePicker current={state.example} on_load={on_example} />
                    <FileBar scenario={form.scenario.clone()} file_name={state.file_name.clone().or_else(|| state.example.map(AttrValue::from))} on_open={on_open_files} />
                </Editor>
                <div class="run-column">
                    <LaunchPanel
                        global={state.global.clone()}
                        local={state.local.clone()}
                        seed={state.seed.clone()}
                        scheduler={state.scheduler}
                        memory_model={state.memory_model}
                        replaying={state.replay.is_some()}
                        args={state.args.clone()}
                        form={form.clone()}
                        {on_global}
                        {on_local}
                        {on_seed}
                        {on_scheduler}
                        {on_memory_model}
                        {on_arg}
                        {on_add_arg}
                        {on_remove_arg}
                        dialect={state.dialect}
                        offset={state.offset.clone()}
                        warp_size={state.warp_size.clone()}
                        pct_depth={state.pct_depth.clone()}
                        resident_groups={state.resident_groups.clone()}
                        progress={state.progress}
                        granularity={state.granularity}
                        max_steps={state.max_steps.clone()}
                        on_edit={actions.clone()}
                    />
                    <div class="runbar">
                        <Controls
                            {can_start}
                            running={state.running}
                            ended={state.ended()}
                            {on_run}
                            {on_pause}
                            {on_step}
                            can_step_back={has_session && steps > 0}
                            {on_step_back}
                            {on_reset}
                        />
                        <Status
                            live={state.live}
                            running={state.running}
                            {steps}
                            summary={state.summary.clone()}
                            failed={!state.live && !state.diagnostics_stale && !state.diagnostics.is_empty() && state.diagnostics_file.is_none()}
                        />
                    </div>
                    <Lanes work_items={form.work_items} timeline={snapshot.map(|s| s.timeline.clone())} {on_step_lane} litmus={form.is_litmus} />
                </div>
            </main>
            <footer class="results">
                <Diagnostics
                    diagnostics={state.diagnostics.clone()}
                    source={state.diagnostics_source.clone()}
                    file_name={state.diagnostics_file.clone().unwrap_or_else(|| form::file_name(form::is_litmus(&state.diagnostics_source)).into())}
                    stale={state.diagnostics_stale}
                />
                <ExplorePanel
                    mode={state.explore_mode}
                    runs={state.explore_runs.clone()}
                    preemptions={state.explore_preemptions.clone()}
                    exploration={state.exploration.clone()}
                    {can_start}
                    stale={explore_stale}
                    litmus={form.is_litmus}
                    theme={state.theme}
                    on_mode={on_explore_mode}
                    on_runs={on_explore_runs}
                    on_preemptions={on_explore_preemptions}
                    on_start={on_explore_start}
                    on_cancel={on_explore_cancel}
                    {on_load_outcome}
                    {on_load_finding}
                />
                <Findings {findings} live={state.live} {on_select} />
            </footer>
        </>
    }
}
