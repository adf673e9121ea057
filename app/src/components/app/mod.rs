//! The root component: it owns the reducer, the session and the exploration's workers, and
//! composes the panels. What it does lives beside it: `session` (opening and advancing the
//! session, the run in chunks), `views` (what the view reads out of the session),
//! `exploring` (the workers), `address` (share links, the gallery page, lessons and the
//! history), `keys` (the shortcuts) and `page` (theme, scrolling into view).
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

use yew::prelude::*;

use super::compare::ComparePanel;
use super::console::Console;
use super::controls::Controls;
use super::diagnostics::Diagnostics;
use super::editor::{Editor, EditorHandle};
use super::examples::ExamplePicker;
use super::explore::ExplorePanel;
use super::files::FileBar;
use super::findings::Findings;
use super::gallery::Gallery;
use super::header::Header;
use super::help::Help;
use super::inspector::Inspector;
use super::lanes::Lanes;
use super::launch::LaunchPanel;
use super::persist;
use super::restore::RestoreBanner;
use super::share::ShareButton;
use super::shrink_status::ShrinkStatus;
use super::splitter::Splitter;
use super::status::Status;
use super::tutorial::TutorialPane;
use crate::form;
use crate::inputs::InputEdit;
use crate::state::{Action, Pane};
use crate::{lessons, route, share};

mod address;
mod exploring;
mod findings;
mod keys;
mod page;
mod session;
mod tasks;
mod views;

use address::{lesson_controls, page_controls, use_gallery_open, use_route, use_share_links, PageControls};
use exploring::{explore_controls, use_pool_lifetime, PoolCell};
use findings::{finding_controls, FindingControls};
use keys::{use_shortcuts, Shortcuts};
use page::{preferred_theme, use_theme_attribute};
use session::{lane_of, session_controls, use_autorun, use_link_step, use_run_loop, SessionCell, SessionControls};
use tasks::{compare_controls, shrink_controls, use_shrink_focus, use_tasks, CompareControls, ShrinkControls};
use views::{use_views, Views};

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
    let Views { snapshot, active_lines, furthest, inspection, console_lines, why } = use_views(&session, &state, &form);
    use_theme_attribute(state.view.theme);
    use_run_loop(&session, &state);
    use_autorun(&session, &state, &form);
    let gallery_open = use_gallery_open();
    use_share_links(&dispatch);
    use_link_step(&session, &state, &form);
    let route = use_route(&dispatch);
    let (on_lesson_navigate, on_lesson_reset) = lesson_controls(&route, &dispatch);
    use_pool_lifetime(&pool, &state);
    let tasks = use_tasks(&state);
    use_shrink_focus(&session, &state);
    let ShrinkControls { on_shrink_finding, on_shrink_outcome, on_shrink_stop } = shrink_controls(&tasks, &state, &form, &session);
    let CompareControls { on_compare_start, on_compare_stop, on_open_model } = compare_controls(&tasks, &state, &form);

    let has_session = state.run.live && session.borrow().is_some();
    let SessionControls { on_step, on_step_back, on_step_lane, on_run, on_pause, on_reset, on_seek, on_run_to_finding } =
        session_controls(&session, &state, &form, has_session, furthest);
    let on_select_lane = actions.reform(Action::SelectWorkItem);

    let findings_now = Option::as_ref(&snapshot).map(|s| s.findings.clone()).unwrap_or_default();
    let FindingControls { on_open_finding, on_next_finding, on_gutter_finding } = finding_controls(&session, &state, &editor, &findings_now);
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
        use_shortcuts(handlers);
    }

    let (on_explore_start, on_explore_cancel) = explore_controls(&pool, &explorations, &state, &form);
    let explore_stale = state.exploration_stale(form.scenario.as_deref());
    let compare_stale = state.comparison_stale(form.scenario.as_deref());

    let on_edit = actions.reform(|text: AttrValue| Action::Edit(InputEdit::Source(text.to_string())));
    let PageControls { on_example, on_gallery, on_gallery_load, on_gallery_close } = page_controls(&actions, &gallery_open);
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
    let layout = panes.style();
    // The selected work-item's current line, marked strongly in the editor.
    let selected_line = state.view.selected.and_then(|selected| snapshot?.line_of(selected));

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
                <FileBar scenario={form.scenario.clone()} file_name={state.file_label()} on_open={on_open_files} />
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
                    failed={state.session_failed()}
                    stopped={snapshot.and_then(|s| s.schedule_stop.clone())}
                />
            </div>
            if let Some(shrink) = &state.shrink {
                <ShrinkStatus shrink={shrink.clone()} on_stop={on_shrink_stop} />
            }
            <Lanes
                work_items={form.work_items}
                timeline={snapshot.map(|s| s.timeline.clone())}
                {on_step_lane}
                litmus={form.is_litmus}
                selected={state.view.selected}
                {on_select_lane}
                on_seek={on_seek.clone()}
                reveal={state.view.reveal}
                focus={state.view.focus.clone()}
                on_focus={actions.reform(Action::SetFocus)}
                why={why.as_ref().map(|w| w.arrows.clone())}
            />
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
                    <Splitter pane={Pane::Launch} size={panes.launch} vertical={false} grows_forward={false} label="Resize the launch panel" on_resize={on_resize.clone()} />
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
                    <Findings
                        findings={findings_now}
                        live={state.run.live}
                        {seed}
                        current={state.view.finding}
                        on_open={on_open_finding}
                        why={why.as_ref().and_then(|w| Some((w.finding?, w.explanation.clone())))}
                        outcome_why={why.as_ref().filter(|w| w.finding.is_none()).map(|w| w.explanation.clone())}
                        on_shrink={on_shrink_finding}
                        shrinking={state.shrinking()}
                    />
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
                    {on_shrink_outcome}
                    shrinking={state.shrinking()}
                />
                <ComparePanel
                    runs={state.compare.runs.clone()}
                    run={state.compare.current.clone()}
                    {can_start}
                    stale={compare_stale}
                    on_runs={actions.reform(Action::SetCompareRuns)}
                    on_start={on_compare_start}
                    on_stop={on_compare_stop}
                    on_open={on_open_model}
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
