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

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use gloo::events::{EventListener, EventListenerOptions};
use interleave_engine::report::{Finding, RunStatus};
use interleave_engine::scenario::Scenario;
use interleave_engine::session::Session;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent, ScrollIntoViewOptions, ScrollLogicalPosition};
use yew::prelude::*;

use super::console::Console;
use super::controls::Controls;
use super::diagnostics::Diagnostics;
use super::editor::{Editor, EditorHandle};
use super::examples::ExamplePicker;
use super::explore::ExplorePanel;
use super::files::FileBar;
use super::findings::{self as findings_view, Findings, Opened, SourcePlace};
use super::gallery::Gallery;
use super::header::Header;
use super::help::Help;
use super::inspector::Inspector;
use super::lanes::Lanes;
use super::launch::LaunchPanel;
use super::persist;
use super::restore::RestoreBanner;
use super::share::{self as share_view, ShareButton};
use super::splitter::Splitter;
use super::status::Status;
use super::tutorial::TutorialPane;
use crate::examples::Example;
use crate::explore::{self, ExploreMode, Job, WorkerEvent};
use crate::gallery;
use crate::form::{self, Form};
use crate::inputs::InputEdit;
use crate::inspector::{self, Inspection};
use crate::pool::Pool;
use crate::share;
use crate::{lessons, route};
use crate::snapshot::{self, Snapshot};
use crate::state::{Action, Pane, Phase, RunTarget, Speed, State, Summary, Theme};

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

/// Whether the run has reached where it should stop by itself.
fn reached(session: &Session, target: RunTarget) -> bool {
    match target {
        RunTarget::End => false,
        RunTarget::NextFinding { after } => session.findings().len() > after,
        RunTarget::Step(step) => session.steps() >= step,
    }
}

/// How a run goes at `speed`: the pause before each chunk in milliseconds, and the most
/// steps a chunk takes (`None`: as many as fit in [`CHUNK_MS`]).
fn pace(speed: Speed) -> (u32, Option<u64>) {
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
fn run_chunk(session: &mut Session, target: RunTarget, limit: Option<u64>) -> (bool, bool) {
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
        if limit.is_none()
            && taken % u64::from(CLOCK_EVERY) == 0
            && js_sys::Date::now() - started >= CHUNK_MS
        {
            return (moved, reached(session, target));
        }
    }
}

/// The lane of the work-item with global id `id`, if there is one.
fn lane_of(session: &Session, id: [u64; 3]) -> Option<usize> {
    (0..session.work_item_count()).find(|&i| session.work_item(i).global_id == id)
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

/// Moves the focus to the first finding on `line` in the findings list (which scrolls it into
/// view), for a click on the editor's findings gutter.
fn reveal_finding(findings: &[Finding], line: u32) {
    let Some(index) = findings.iter().position(|f| f.line == line) else {
        return;
    };
    let selector = format!("#findings > li:nth-child({}) > button", index + 1);
    if let Ok(Some(button)) = gloo::utils::document().query_selector(&selector) {
        if let Some(button) = button.dyn_ref::<HtmlElement>() {
            let _ = button.focus();
        }
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
    let mode = state.explore.mode;
    let (jobs, workers): (Vec<Job>, usize) = match mode {
        ExploreMode::Random => {
            let Ok(runs) = explore::parse_runs(&state.explore.runs) else {
                return;
            };
            let workers = explore::worker_count(runs, hardware_concurrency());
            let jobs = explore::split_seeds(scenario.seed, runs, explore::job_count(runs, workers))
                .into_iter()
                .map(|(first_seed, runs)| Job {
                    runs,
                    first_seed,
                    exhaustive: false,
                    max_preemptions: None,
                })
                .collect();
            (jobs, workers)
        }
        ExploreMode::Exhaustive => {
            let Ok(max_preemptions) = explore::parse_preemptions(&state.explore.preemptions) else {
                return;
            };
            // No run count: the engine's own budget bounds the search.
            let job = Job {
                runs: 0,
                first_seed: scenario.seed,
                exhaustive: true,
                max_preemptions,
            };
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
        budgets: jobs
            .iter()
            .map(|j| if j.exhaustive { 0 } else { j.runs })
            .collect(),
    });
    let on_event = dispatch
        .to_callback()
        .reform(move |(part, event)| Action::ExploreEvent { id, part, event });
    match Pool::start(explore::WORKER_URL, &scenario, &jobs, workers, on_event) {
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

/// A callback that starts a run, opening a session first when there is none, unless a run
/// is going on or has ended; `action` says where the run stops, given the session.
fn run_starter(
    session: &SessionCell,
    dispatch: &UseReducerDispatcher<State>,
    form: &Rc<Form>,
    state: &UseReducerHandle<State>,
    has_session: bool,
    action: fn(&Session) -> Action,
) -> Callback<()> {
    let (session, dispatch, form, state) = (
        session.clone(),
        dispatch.clone(),
        form.clone(),
        state.clone(),
    );
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

/// Focuses the element with `id`, if the page has it.
fn focus(id: &str) {
    if let Some(element) = gloo::utils::document()
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    {
        let _ = element.focus();
    }
}

/// Whether the focused element uses arrows or Space itself.
fn control_focused(event: &KeyboardEvent) -> bool {
    event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|target| {
            matches!(target.tag_name().as_str(), "BUTTON" | "CANVAS" | "A" | "SUMMARY")
                || target.get_attribute("role").is_some()
                || target.get_attribute("tabindex").is_some()
        })
}

/// What the page's keyboard shortcuts call; compared so the listener is rebound only when
/// one of them changed.
#[derive(Clone, PartialEq)]
struct Shortcuts {
    on_step: Callback<()>,
    on_step_back: Callback<()>,
    on_run: Callback<()>,
    on_pause: Callback<()>,
    on_reset: Callback<()>,
    on_run_to_finding: Callback<()>,
    on_next_finding: Callback<bool>,
    on_seek: Callback<u64>,
    on_help: Callback<()>,
    running: bool,
    furthest: u64,
    /// The gallery page is shown: the workbench under it takes no keys.
    gallery_open: bool,
}

impl Shortcuts {
    /// Acts on `event`; returns whether it was a shortcut.
    fn handle(&self, event: &KeyboardEvent) -> bool {
        if event.ctrl_key() || event.meta_key() || event.alt_key() || typing_into(event) || self.gallery_open {
            return false;
        }
        let key = event.key();
        if matches!(key.as_str(), "ArrowLeft" | "ArrowRight" | " ") && control_focused(event) {
            return false;
        }
        match key.as_str() {
            "s" | "ArrowRight" => self.on_step.emit(()),
            "b" | "ArrowLeft" => self.on_step_back.emit(()),
            "r" | " " if self.running => self.on_pause.emit(()),
            "r" | " " => self.on_run.emit(()),
            "f" => self.on_run_to_finding.emit(()),
            "n" => self.on_next_finding.emit(true),
            "p" => self.on_next_finding.emit(false),
            "Home" => self.on_seek.emit(0),
            "End" => self.on_seek.emit(self.furthest),
            "g" => focus("goto-step"),
            "0" => self.on_reset.emit(()),
            "e" => focus_editor(),
            "t" => focus_timeline(),
            "?" => self.on_help.emit(()),
            _ => return false,
        }
        true
    }
}

/// Puts the keyboard in the editor (CodeMirror's editable content).
fn focus_editor() {
    if let Some(content) = gloo::utils::document()
        .query_selector("#editor .cm-content")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    {
        let _ = content.focus();
    }
}

/// Puts the keyboard on the timeline.
fn focus_timeline() {
    let document = gloo::utils::document();
    let target = document
        .get_element_by_id("timeline-canvas")
        .or_else(|| document.query_selector("#lanes .scroller").ok().flatten());
    if let Some(element) = target.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        let _ = element.focus();
    }
}

/// The page address's query (what `route::parse` reads), empty when it has none.
fn location_search() -> String {
    gloo::utils::window().location().search().unwrap_or_default()
}

/// The page address's path, without query or fragment.
fn location_path() -> String {
    gloo::utils::window().location().pathname().unwrap_or_else(|_| "/".into())
}

/// Makes `url` a new place in the browser's history (without loading anything).
fn push_address(url: &str) {
    if let Ok(history) = gloo::utils::window().history() {
        let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Shows the top of the page, where a page switch starts.
fn scroll_to_top() {
    gloo::utils::window().scroll_to_with_x_and_y(0.0, 0.0);
}

/// A lesson's starting scenario as a link without a view, which loads like any opened link
/// (edits set aside, a session opened at step 0).
fn lesson_link(position: usize) -> interleave_engine::link::Link {
    let all = lessons::all();
    interleave_engine::link::Link {
        scenario: all[position].scenario.clone(),
        view: interleave_engine::link::LinkView { step: None, selected: None, panel: None },
    }
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(|| persist::initial_state(preferred_theme()));
    persist::use_persistence(&state);
    let session: SessionCell = use_mut_ref(|| None);
    let pool: PoolCell = use_mut_ref(|| None);
    let explorations = use_mut_ref(|| 0u64);
    let editor = (*use_state(EditorHandle::default)).clone();
    let dispatch = state.dispatcher();
    let actions: Callback<Action> = dispatch.to_callback();

    let form = {
        let state = state.clone();
        use_memo(state.revision, move |_| form::validate(&state.inputs))
    };
    // The timeline's events are kept between snapshots, so each one only adds the new ones.
    let timeline_cache = use_mut_ref(snapshot::TimelineCache::default);
    let snapshot: Rc<Option<Snapshot>> = {
        let (session, form) = (session.clone(), form.clone());
        use_memo((state.run.generation, state.run.live), move |&(_, live)| {
            session.borrow().as_ref().filter(|_| live).map(|s| {
                snapshot::take_with(s, form.litmus.as_deref(), &mut timeline_cache.borrow_mut())
            })
        })
    };
    let active_lines: Rc<Vec<u32>> = {
        let snapshot = snapshot.clone();
        use_memo(state.run.generation, move |_| {
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

    // The furthest step of the recorded path: the scrubber's end.
    let furthest: u64 = {
        let session = session.clone();
        *use_memo((state.run.generation, state.run.live), move |&(_, live)| {
            session
                .borrow()
                .as_ref()
                .filter(|_| live)
                .map_or(0, Session::recorded_steps)
        })
    };
    // The inspector reads only its open tab, and only when the session or the choice moved.
    let inspection: Option<Rc<Inspection>> = {
        let session = session.clone();
        let deps = (
            state.run.generation,
            state.run.live,
            state.view.selected,
            state.view.inspector_tab,
            state.view.memory,
        );
        Option::clone(&use_memo(deps, move |&(_, live, selected, tab, memory)| {
            session
                .borrow()
                .as_ref()
                .filter(|_| live)
                .map(|s| Rc::new(inspector::inspect(s, tab, selected, memory)))
        }))
    };
    let console_lines: Rc<Vec<(String, String)>> = {
        let session = session.clone();
        let deps = (
            state.run.generation,
            state.run.live,
            state.view.selected,
            state.view.console_only_selected,
        );
        use_memo(deps, move |&(_, live, selected, only)| {
            let guard = session.borrow();
            let Some(s) = guard.as_ref().filter(|_| live) else {
                return Vec::new();
            };
            let who = selected
                .filter(|&i| only && i < s.work_item_count())
                .map(|i| s.work_item(i).global_id);
            inspector::console(s.printf(), who)
        })
    };

    // The theme is an attribute on the root element so the whole stylesheet can follow it.
    use_effect_with(state.view.theme, |theme| {
        let root = gloo::utils::document_element();
        let _ = root.set_attribute("data-theme", theme.as_str());
    });

    // A run goes on in chunks while `running` holds. At full speed the page is drawn again
    // only every [`RENDER_EVERY_MS`]: between two renders the chunks follow each other through
    // zero-delay timeouts, so that clicks and keys get in after every ~8 ms chunk instead of
    // waiting behind a render of the whole page per chunk. A paced run (a set number of steps
    // per second) draws every chunk. Each render bumps the generation, which re-runs this
    // effect for the next stretch; Pause, Reset or an edit clear `running`, and the cleanup
    // stops a stretch that is under way. A chunk stops early when the run reaches its target
    // (the next finding, or a step far ahead).
    {
        let session = session.clone();
        let dispatch = dispatch.clone();
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
                            if moved || ended.is_some() {
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

    // An explored outcome was loaded into the inputs: run it, and show the lanes.
    {
        let (session, dispatch, form) = (session.clone(), dispatch.clone(), form.clone());
        use_effect_with((state.run.autorun, state.revision), move |&(autorun, _)| {
            if autorun && open_session(&session, &dispatch, &form) {
                dispatch.dispatch(Action::RunStarted);
                reveal_lanes();
            }
        });
    }

    // The examples gallery is a page of its own (`?gallery`) over the workbench, which stays
    // mounted underneath (`?example=ID` is loaded where the address's sources compose, below).
    // Back and Forward move between them, as the address says.
    let gallery_open = use_state(|| route::parse(&location_search()).gallery);
    {
        let gallery_open = gallery_open.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "popstate", move |_| {
                gallery_open.set(route::parse(&location_search()).gallery);
            });
            move || drop(listener)
        });
    }

    // A share link in the address: at start, and whenever the fragment changes to another
    // one. A link that cannot be read is explained in the Problems list, and the page stays
    // on the inputs it has.
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            let open = move || {
                let hash = gloo::utils::window().location().hash().unwrap_or_default();
                match share::from_hash(&hash) {
                    None => {}
                    Some(Ok(link)) => dispatch.dispatch(Action::OpenLink(Rc::new(link))),
                    Some(Err(diagnostic)) => dispatch.dispatch(Action::LinkFailed(diagnostic)),
                }
            };
            open();
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| open());
            move || drop(listener)
        });
    }
    // An opened link's scenario is in the inputs: start its session and run to its step (in
    // chunks, like any run to a step not reached yet).
    {
        let (session, dispatch, form) = (session.clone(), dispatch.clone(), form.clone());
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

    // What the address asks for (`crate::route`): the lesson pane, a lesson, embedding. It
    // follows the browser's Back and Forward; moving between lessons pushes an entry.
    let route = use_state(|| route::parse(&location_search()));
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "popstate", move |_| {
                route.set(route::parse(&location_search()));
            });
            move || drop(listener)
        });
    }
    // Where the scenario comes from: at start, as `route::source` composes the address (a
    // share link, which the effect above opens, wins over a lesson, a lesson over an
    // example); later, a lesson's starting scenario whenever another lesson opens (from the
    // pane, or by Back and Forward).
    {
        let (dispatch, first, route) = (dispatch.clone(), use_mut_ref(|| true), (*route).clone());
        use_effect_with(route.lesson.clone(), move |lesson| {
            let source = if first.replace(false) {
                route::source(&route, &gloo::utils::window().location().hash().unwrap_or_default())
            } else {
                lesson.clone().map_or(route::Source::Stored, route::Source::Lesson)
            };
            match source {
                route::Source::Lesson(id) => {
                    if let Some(position) = lessons::position(&id) {
                        dispatch.dispatch(Action::OpenLink(Rc::new(lesson_link(position))));
                    }
                }
                route::Source::Example(id) => {
                    if let Some(example) = gallery::example_for(&id) {
                        dispatch.dispatch(Action::LoadExample(example));
                    }
                }
                route::Source::Link | route::Source::Stored => {}
            }
        });
    }
    let on_lesson_navigate = {
        let route = route.clone();
        Callback::from(move |lesson: Option<usize>| {
            let all = lessons::all();
            let next = route::Route {
                tutorial: true,
                lesson: lesson.and_then(|i| all.get(i)).map(|l| l.id.clone()),
                ..(*route).clone()
            };
            push_address(&format!("{}{}", location_path(), route::search(&next)));
            route.set(next);
        })
    };
    let on_lesson_reset = {
        let dispatch = dispatch.clone();
        Callback::from(move |position: usize| dispatch.dispatch(Action::OpenLink(Rc::new(lesson_link(position)))))
    };

    // The workers go as soon as the exploration is over (each has terminated itself after its
    // last message; this also ends the others after a failure), and with the app.
    {
        let pool = pool.clone();
        let over = state
            .explore
            .current
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

    let has_session = state.run.live && session.borrow().is_some();
    let on_step = {
        let (session, dispatch, form, state) = (
            session.clone(),
            dispatch.clone(),
            form.clone(),
            state.clone(),
        );
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
    let on_select_lane = actions.reform(Action::SelectWorkItem);
    let on_run = run_starter(&session, &dispatch, &form, &state, has_session, |_| {
        Action::RunStarted
    });
    let on_pause = actions.reform(|()| Action::RunStopped);
    let on_reset = {
        let (session, dispatch, form) = (session.clone(), dispatch.clone(), form.clone());
        Callback::from(move |()| {
            open_session(&session, &dispatch, &form);
        })
    };

    let on_select = {
        let (editor, source) = (editor.clone(), state.inputs.source.clone());
        Callback::from(move |place: SourcePlace| {
            let Some((start, end)) = place_range(&source, place) else {
                return;
            };
            editor.select(start, end);
            editor.focus();
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
    let on_run_to_finding = run_starter(&session, &dispatch, &form, &state, has_session, |s| {
        Action::RunToFinding {
            after: s.findings().len(),
        }
    });
    let on_open_finding = {
        let (session, dispatch, on_select) = (session.clone(), dispatch.clone(), on_select.clone());
        Callback::from(move |opened: Opened| {
            on_select.emit(opened.place);
            let work_item = opened
                .work_item
                .and_then(|id| session.borrow().as_ref().and_then(|s| lane_of(s, id)));
            dispatch.dispatch(Action::OpenFinding {
                index: opened.index,
                step: opened.step,
                work_item,
            });
            // Keep the opened finding in view in the list too.
            if let Some(item) =
                gloo::utils::document().get_element_by_id(&format!("finding-{}", opened.index))
            {
                let options = ScrollIntoViewOptions::new();
                options.set_block(ScrollLogicalPosition::Nearest);
                item.scroll_into_view_with_scroll_into_view_options(&options);
            }
        })
    };
    let findings_now = Option::as_ref(&snapshot)
        .map(|s| s.findings.clone())
        .unwrap_or_default();
    // Next and previous finding, cycling through the list.
    let on_next_finding = {
        let (findings, on_open, current) = (findings_now.clone(), on_open_finding.clone(), state.view.finding);
        Callback::from(move |forward: bool| {
            let count = findings.len();
            if count == 0 {
                return;
            }
            let index = match (current, forward) {
                (None, true) => 0,
                (None, false) => count - 1,
                (Some(i), true) => (i + 1) % count,
                (Some(i), false) => (i + count - 1) % count,
            };
            on_open.emit(findings_view::primary(index, &findings[index]));
        })
    };
    let on_toggle_help = actions.reform(|()| Action::ToggleHelp);

    // The page's shortcuts (listed in the help overlay, `?`). Keys typed into a field or the
    // editor are left alone, and so are arrows and Space while a control that uses them
    // (a button, a slider, a tab, a splitter, the timeline) has the focus.
    {
        let handlers = Shortcuts {
            on_step: on_step.clone(),
            on_step_back: on_step_back.clone(),
            on_run: on_run.clone(),
            on_pause: on_pause.clone(),
            on_reset: on_reset.clone(),
            on_run_to_finding: on_run_to_finding.clone(),
            on_next_finding: on_next_finding.clone(),
            on_seek: on_seek.clone(),
            on_help: on_toggle_help.clone(),
            running: state.run.running,
            furthest,
            gallery_open: *gallery_open,
        };
        use_effect_with(handlers, move |handlers| {
            let handlers = handlers.clone();
            // Not passive: a handled shortcut prevents the key's default action (Home
            // scrolling, Space pressing a button).
            let options = EventListenerOptions::enable_prevent_default();
            let document = gloo::utils::document();
            let listener =
                EventListener::new_with_options(&document, "keydown", options, move |event| {
                    if let Some(event) = event.dyn_ref::<KeyboardEvent>() {
                        if handlers.handle(event) {
                            event.prevent_default();
                        }
                    }
                });
            move || drop(listener)
        });
    }

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
            move |()| match state.explore.current.as_ref().map(|run| run.phase) {
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
    let explore_stale = state.explore.current.as_ref().is_some_and(|run| {
        form.scenario
            .as_ref()
            .is_none_or(|scenario| !explore::same_program(scenario, &run.scenario))
    });

    let on_edit = actions.reform(|text: AttrValue| Action::Edit(InputEdit::Source(text.to_string())));
    // Loading an example is a new place in the history (Back returns to a link opened before);
    // stepping and editing are not.
    let on_example = {
        let actions = actions.clone();
        Callback::from(move |example| {
            push_address(&share_view::page_base());
            actions.emit(Action::LoadExample(example));
        })
    };
    // The gallery's button and cards are places in the history too: the gallery is
    // `?gallery`, an example loaded from it `?example=ID`, so Back returns to the gallery.
    let on_gallery = {
        let gallery_open = gallery_open.clone();
        Callback::from(move |()| {
            push_address(&format!("{}?gallery", location_path()));
            gallery_open.set(true);
            scroll_to_top();
        })
    };
    let on_gallery_load = {
        let (actions, gallery_open) = (actions.clone(), gallery_open.clone());
        Callback::from(move |example: &'static Example| {
            push_address(&gallery::example_url(&location_path(), example));
            actions.emit(Action::LoadExample(example));
            gallery_open.set(false);
            scroll_to_top();
        })
    };
    let on_gallery_close = {
        let gallery_open = gallery_open.clone();
        Callback::from(move |()| {
            push_address(&location_path());
            gallery_open.set(false);
        })
    };
    let on_explore_mode = actions.reform(Action::SetExploreMode);
    let on_explore_runs = actions.reform(Action::SetExploreRuns);
    let on_explore_preemptions = actions.reform(Action::SetExplorePreemptions);
    let on_load_outcome = actions.reform(Action::LoadOutcome);
    let on_load_finding = actions.reform(Action::LoadFinding);
    let on_theme = actions.reform(Action::SetTheme);
    let on_input_edit = actions.reform(Action::Edit);
    let on_open_files = actions.reform(Action::OpenFiles);
    let on_restore = actions.reform(|()| Action::RestoreEdits);
    let on_dismiss_stash = actions.reform(|()| Action::DismissStash);

    let on_select_work_item = actions.reform(Action::SelectWorkItem);
    let on_tab = actions.reform(Action::SetInspectorTab);
    let on_memory = actions.reform(Action::SetMemory);
    let on_only_selected = actions.reform(Action::SetConsoleOnlySelected);
    let on_speed = actions.reform(Action::SetSpeed);
    let on_close_help = actions.reform(|()| Action::CloseHelp);
    let on_resize = actions.reform(|(pane, size)| Action::ResizePane { pane, size });
    let lane_of_id = {
        let session = session.clone();
        Callback::from(move |id: [u64; 3]| session.borrow().as_ref().and_then(|s| lane_of(s, id)))
    };

    let snapshot = Option::as_ref(&snapshot);
    let steps = snapshot.map_or(0, |s| s.steps);
    let can_start = form.scenario.is_some();
    let seed = form.scenario.as_ref().map(|s| s.seed).filter(|_| state.run.live);
    let panes = state.view.panes;
    let layout = format!(
        "--editor-w:{:.0}px;--inspector-w:{:.0}px;--workspace-h:{:.0}px",
        panes.editor, panes.inspector, panes.workspace
    );
    // A gutter marker opens the first finding on its line and moves the focus to it in the
    // findings list, where its explanation is.
    let on_gutter_finding = {
        let (findings, on_open) = (findings_now.clone(), on_open_finding.clone());
        Callback::from(move |line: u32| {
            if let Some((index, finding)) = findings.iter().enumerate().find(|(_, f)| f.line == line) {
                on_open.emit(findings_view::primary(index, finding));
                reveal_finding(&findings, line);
            }
        })
    };
    // The selected work-item's current line, marked strongly in the editor.
    let selected_line = state.view.selected.and_then(|selected| {
        snapshot?
            .timeline
            .groups
            .iter()
            .flat_map(|g| g.lanes.iter())
            .find(|lane| lane.index == selected && lane.status != "finished")
            .and_then(|lane| lane.line)
    });

    let editor_view = html! {
        <Editor
            source={AttrValue::from(state.inputs.source.clone())}
            {on_edit}
            handle={editor.clone()}
            {active_lines}
            {selected_line}
            litmus={form.is_litmus}
            diagnostics={state.problems.diagnostics.clone()}
            diagnostics_source={state.problems.source.clone()}
            findings={findings_now.clone()}
            {on_gutter_finding}
            theme={state.view.theme}
        >
            if !route.embed {
                <ExamplePicker current={state.example()} on_load={on_example} />
                <FileBar scenario={form.scenario.clone()} file_name={state.inputs.file_name.clone().map(AttrValue::from).or_else(|| state.example().map(AttrValue::from))} on_open={on_open_files} />
                <ShareButton scenario={form.scenario.clone()} step={has_session.then_some(steps)} selected={state.view.selected} tab={state.view.inspector_tab} />
            }
        </Editor>
    };
    let run_view = html! {
        <>
            <div class="runbar">
                <Controls
                    {can_start}
                    running={state.run.running}
                    ended={state.ended()}
                    live={has_session}
                    {steps}
                    {furthest}
                    speed={state.run.speed}
                    {on_run}
                    {on_pause}
                    {on_step}
                    {on_step_back}
                    {on_run_to_finding}
                    {on_reset}
                    on_seek={on_seek.clone()}
                    {on_speed}
                />
                <Status
                    live={state.run.live}
                    running={state.run.running}
                    {steps}
                    summary={state.run.summary.clone()}
                    failed={!state.run.live && !state.problems.stale && !state.problems.diagnostics.is_empty() && state.problems.file.is_none()}
                />
            </div>
            <Lanes work_items={form.work_items} timeline={snapshot.map(|s| s.timeline.clone())} {on_step_lane} litmus={form.is_litmus} selected={state.view.selected} {on_select_lane} on_seek={on_seek.clone()} reveal={state.view.reveal} />
        </>
    };
    let embed_link = {
        let (scenario, route) = (form.scenario.clone(), (*route).clone());
        use_memo(state.revision, move |_| {
            let path = gloo::utils::window().location().pathname().unwrap_or_default();
            let fragment = scenario
                .as_deref()
                .map(|s| interleave_engine::link::encode(&share::link_of(s, None, None, crate::inspector::Tab::WorkItem)))
                .unwrap_or_default();
            route::full_app(&path, &route, &fragment)
        })
    };
    if route.embed {
        // Embedded in another page: the editor, the controls and the timeline, and a way out
        // to the whole app with the same scenario.
        return html! {
            <div class="embed">
                <main class="workspace embed-workspace">
                    <div class="column scenario-column">
                        { editor_view }
                    </div>
                    <div class="column run-column">
                        { run_view }
                        <p class="embed-open"><a id="open-full" href={(*embed_link).clone()} target="_blank" rel="noopener">{ "Open in Interleave ↗" }</a></p>
                    </div>
                </main>
            </div>
        };
    }
    let workbench = html! {
        <>
            <main class="workspace" style={layout}>
                <div class="column scenario-column">
                    { editor_view.clone() }
                    <LaunchPanel inputs={state.inputs.clone()} form={form.clone()} on_edit={on_input_edit} />
                </div>
                <Splitter pane={Pane::Editor} size={panes.editor} vertical={true} grows_forward={true} label="Resize the editor" on_resize={on_resize.clone()} />
                <div class="column run-column">
                    { run_view.clone() }
                </div>
                <Splitter pane={Pane::Inspector} size={panes.inspector} vertical={true} grows_forward={false} label="Resize the inspector" on_resize={on_resize.clone()} />
                <div class="column inspector-column">
                    <Inspector
                        tab={state.view.inspector_tab}
                        {inspection}
                        {on_tab}
                        {on_memory}
                        on_select_work_item={on_select_work_item.clone()}
                        lane_of={lane_of_id}
                    />
                </div>
            </main>
            <Splitter pane={Pane::Workspace} size={panes.workspace} vertical={false} grows_forward={true} label="Resize the workspace" {on_resize} />
            <footer class="results">
                <div class="results-row">
                    <Findings findings={findings_now} live={state.run.live} {seed} current={state.view.finding} on_open={on_open_finding} />
                    <Console
                        lines={console_lines}
                        only_selected={state.view.console_only_selected}
                        has_selection={state.view.selected.is_some()}
                        {on_only_selected}
                        live={state.run.live}
                    />
                </div>
                <Diagnostics
                    diagnostics={state.problems.diagnostics.clone()}
                    source={state.problems.source.clone()}
                    file_name={state.problems.file.clone().unwrap_or_else(|| form::file_name(form::is_litmus(&state.problems.source)).into())}
                    stale={state.problems.stale}
                />
                <ExplorePanel
                    mode={state.explore.mode}
                    runs={state.explore.runs.clone()}
                    preemptions={state.explore.preemptions.clone()}
                    exploration={state.explore.current.clone()}
                    {can_start}
                    stale={explore_stale}
                    litmus={form.is_litmus}
                    theme={state.view.theme}
                    on_mode={on_explore_mode}
                    on_runs={on_explore_runs}
                    on_preemptions={on_explore_preemptions}
                    on_start={on_explore_start}
                    on_cancel={on_explore_cancel}
                    {on_load_outcome}
                    {on_load_finding}
                />
            </footer>
        </>
    };
    let lesson_position = route.lesson.as_deref().and_then(lessons::position);
    let lesson_pane = route.tutorial || route.lesson.is_some();

    html! {
        <>
            <Header theme={state.view.theme} {on_theme} on_help={on_toggle_help.clone()} {on_gallery} />
            <RestoreBanner stash={state.stash.clone()} {on_restore} on_dismiss={on_dismiss_stash} />
            if *gallery_open {
                <Gallery on_load={on_gallery_load} on_close={on_gallery_close} />
            }
            <div class="workbench" hidden={*gallery_open}>
                if lesson_pane {
                    <div class="with-lesson">
                        <TutorialPane lesson={lesson_position} scenario={form.scenario.clone()} on_navigate={on_lesson_navigate} on_reset={on_lesson_reset} />
                        <div class="lesson-workbench">{ workbench }</div>
                    </div>
                } else {
                    { workbench }
                }
            </div>
            if state.view.help_open {
                <Help on_close={on_close_help} />
            }
        </>
    }
}
