//! The app in a real browser: mount it, press its buttons, read the DOM.
//!
//! Yew renders asynchronously, so every interaction is followed by a short wait before the
//! DOM is read.

#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use gloo::timers::future::TimeoutFuture;
use interleave_app::components::diagnostics::{Diagnostics, Props as DiagnosticsProps};
use interleave_app::App;
use interleave_engine::diag::{Diagnostic, Span};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    Element, Event, EventInit, EventTarget, HtmlButtonElement, HtmlDocument, HtmlElement, HtmlInputElement, HtmlTextAreaElement, KeyboardEvent,
    KeyboardEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

/// Waits long enough for Yew to render what the last interaction changed.
async fn settle() {
    // Yew renders asynchronously, and a loaded machine renders later than an idle one: wait
    // until the document has stopped changing for a few polls (bounded), rather than for a
    // fixed time that is sometimes too short.
    let body = gloo::utils::body();
    let mut last = body.inner_html();
    let mut quiet = 0;
    for _ in 0..300 {
        TimeoutFuture::new(10).await;
        let now = body.inner_html();
        if now == last {
            quiet += 1;
            if quiet >= 3 {
                return;
            }
        } else {
            quiet = 0;
            last = now;
        }
    }
}

/// A fresh element to mount into, so tests do not see each other's DOM.
fn fresh_root() -> Element {
    let document = gloo::utils::document();
    let root = document.create_element("div").unwrap();
    gloo::utils::body().append_child(&root).unwrap();
    root
}

async fn mount_app() -> Element {
    // Every test starts from the default example, not from what an earlier test left stored.
    <gloo::storage::LocalStorage as gloo::storage::Storage>::clear();
    let root = fresh_root();
    yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    root
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no element matches {selector}"))
}

fn count(root: &Element, selector: &str) -> u32 {
    root.query_selector_all(selector).unwrap().length()
}

async fn click(root: &Element, selector: &str) {
    find(root, selector).unchecked_into::<HtmlElement>().click();
    settle().await;
}

/// Types `value` into an input the way a user would: set the value, then fire a bubbling
/// `input` event (Yew listens for events at the root).
async fn type_into(root: &Element, selector: &str, value: &str) {
    let element = find(root, selector);
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        input.set_value(value);
    } else {
        element.unchecked_ref::<HtmlTextAreaElement>().set_value(value);
    }
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict("input", &init).unwrap();
    element.dispatch_event(&event).unwrap();
    settle().await;
}

/// Presses `key` on `target` (a bubbling, cancelable keydown, like a real key press).
/// Returns whether the page let the key's default action happen (it did not handle it).
async fn press(target: &EventTarget, key: &str) -> bool {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    // The legacy key code too, which CodeMirror reads for Escape and Tab.
    let code = match key {
        "Tab" => 9,
        "Escape" => 27,
        _ => key.chars().next().map_or(0, |c| c.to_ascii_uppercase() as u32),
    };
    init.set_key_code(code);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    let allowed = target.dispatch_event(&event).unwrap();
    settle().await;
    allowed
}

/// The text in the code editor under `root`.
fn editor_text(root: &Element) -> String {
    interleave_app::codemirror::text_of(&find(root, "#editor")).expect("no editor in #editor")
}

/// Types `text` into the code editor the way a user's keyboard does (the browser edits the
/// content and CodeMirror reads the edit back), at the cursor, or over everything when
/// `replace_all` is set.
async fn type_into_editor(root: &Element, text: &str, replace_all: bool) {
    let content = find(root, ".cm-content").unchecked_into::<HtmlElement>();
    content.focus().unwrap();
    settle().await;
    let document = gloo::utils::document().unchecked_into::<HtmlDocument>();
    if replace_all {
        assert!(document.exec_command("selectAll").unwrap());
    }
    assert!(document.exec_command_with_show_ui_and_value("insertText", false, text).unwrap());
    settle().await;
}

/// The events the timeline shows: the sum of the lanes' `data-marks` (matching `selector`).
fn marks(root: &Element, selector: &str) -> u64 {
    let lanes = root.query_selector_all(selector).unwrap();
    (0..lanes.length())
        .filter_map(|i| lanes.get(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .filter_map(|e| e.get_attribute("data-marks"))
        .map(|m| m.parse::<u64>().expect("data-marks is a number"))
        .sum()
}

fn disabled(root: &Element, selector: &str) -> bool {
    find(root, selector).unchecked_into::<HtmlButtonElement>().disabled()
}

/// Waits (bounded) until a run started with Run has stopped.
async fn wait_while_running(root: &Element) {
    for _ in 0..100 {
        if status(root) != "running" {
            break;
        }
        TimeoutFuture::new(50).await;
    }
}

fn status(root: &Element) -> String {
    find(root, "#status").get_attribute("data-status").unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_editor_starts_with_the_example() {
    let root = mount_app().await;
    assert_eq!(count(&root, "#editor .cm-editor"), 1);
    let source = editor_text(&root);
    assert!(source.contains("__kernel void count"), "{source}");
    assert_eq!(source, include_str!("../../static/examples/count.cl"));
    assert_eq!(count(&root, ".cm-content .cm-line") as usize, source.split('\n').count());
    assert_eq!(find(&root, ".cm-content").get_attribute("aria-label").as_deref(), Some("Kernel source"));
    // The GPU words are highlighted as such.
    assert!(count(&root, ".cm-content .cm-gpu-qualifier") >= 2);
    assert!(count(&root, ".cm-content .cm-gpu-builtin") >= 3);
}

#[wasm_bindgen_test]
async fn lanes_know_the_work_items_before_any_run() {
    let root = mount_app().await;
    assert_eq!(count(&root, "#lanes[data-work-items=\"8\"]"), 1);
    assert_eq!(count(&root, ".lane"), 0);
    assert_eq!(status(&root), "idle");
    type_into(&root, "#global", "16").await;
    assert_eq!(count(&root, "#lanes[data-work-items=\"16\"]"), 1);
}

#[wasm_bindgen_test]
async fn step_back_returns_to_exactly_the_earlier_step() {
    let root = mount_app().await;
    assert!(disabled(&root, "#step-back"), "nothing to go back from yet");
    click(&root, "#step").await;
    click(&root, "#step").await;
    assert_eq!(marks(&root, ".lane"), 2);
    let after_one = {
        click(&root, "#step-back").await;
        find(&root, "#lanes").inner_html()
    };
    assert_eq!(marks(&root, ".lane"), 1);
    // Forward again and back again: the same picture, because time travel is exact.
    click(&root, "#step").await;
    click(&root, "#step-back").await;
    assert_eq!(find(&root, "#lanes").inner_html(), after_one);
    click(&root, "#step-back").await;
    assert_eq!(marks(&root, ".lane"), 0);
    assert!(disabled(&root, "#step-back"));
}

#[wasm_bindgen_test]
async fn a_lane_button_steps_that_work_item() {
    let root = mount_app().await;
    click(&root, "#step").await;
    let before = marks(&root, ".lane[data-work-item=\"6\"]");
    click(&root, ".lane[data-work-item=\"6\"] .lane-step").await;
    assert_eq!(marks(&root, ".lane[data-work-item=\"6\"]"), before + 1);
    assert_eq!(marks(&root, ".lane"), 2);
}

#[wasm_bindgen_test]
async fn one_step_creates_every_lane_and_one_mark() {
    let root = mount_app().await;
    click(&root, "#step").await;
    assert_eq!(count(&root, ".lane"), 8);
    assert_eq!(marks(&root, ".lane"), 1);
    assert_eq!(count(&root, ".group"), 2);
    assert_eq!(status(&root), "running");
    for index in 0..8 {
        assert_eq!(count(&root, &format!(".lane[data-work-item=\"{index}\"]")), 1);
    }
    // The one event is on the canvas, and hovering it shows what it was.
    assert_eq!(canvas_number(&root, "data-events"), 1.0);
    let (x, y) = first_event_point(&root).await.expect("the event is under some point");
    let tooltip = find(&root, ".timeline-tooltip");
    assert!(!tooltip.unchecked_ref::<HtmlElement>().hidden());
    assert!(tooltip.text_content().unwrap_or_default().starts_with("step 1: "), "{:?}", tooltip.text_content());
    pointer(&root, "pointerleave", x, y).await;
    assert!(tooltip.unchecked_ref::<HtmlElement>().hidden());
    click(&root, "#step").await;
    assert_eq!(marks(&root, ".lane"), 2);
}

#[wasm_bindgen_test]
async fn run_goes_to_the_end_and_shows_the_trace_hash() {
    let root = mount_app().await;
    click(&root, "#run").await;
    wait_while_running(&root).await;
    assert_eq!(status(&root), "completed");
    let text = find(&root, "#status").text_content().unwrap_or_default();
    assert!(text.contains("steps") && text.contains("trace"), "{text}");
    assert!(disabled(&root, "#step"));
    assert!(disabled(&root, "#run"));
    // Every work-item finished, and the lost update is a data race the engine reports.
    assert_eq!(count(&root, ".lane[data-status=\"finished\"]"), 8);
    // Fitted, the canvas draws every event of every lane.
    let events = marks(&root, ".lane");
    assert!(events >= 8 * 3, "{events}");
    assert_eq!(canvas_number(&root, "data-events") as u64, events);
    // Reset starts over from step 0.
    click(&root, "#reset").await;
    assert_eq!(status(&root), "running");
    assert_eq!(marks(&root, ".lane"), 0);
    assert!(!disabled(&root, "#step"));
}

#[wasm_bindgen_test]
async fn invalid_sizes_are_flagged_inline_and_block_the_run() {
    let root = mount_app().await;
    assert!(!disabled(&root, "#run"));
    for bad in ["0", "abc"] {
        type_into(&root, "#global", bad).await;
        assert_eq!(count(&root, ".field.invalid #global"), 1, "{bad}");
        assert_eq!(find(&root, "#global").get_attribute("aria-invalid").as_deref(), Some("true"));
        assert!(!find(&root, "#global-error").text_content().unwrap_or_default().is_empty());
        assert!(disabled(&root, "#run"));
        assert!(disabled(&root, "#step"));
    }
    type_into(&root, "#global", "8").await;
    assert_eq!(count(&root, "#global-error"), 0);
    assert!(!disabled(&root, "#run"));
}

#[wasm_bindgen_test]
async fn invalid_arguments_are_flagged_inline() {
    let root = mount_app().await;
    type_into(&root, ".arg-input", "ids=quux[8]").await;
    assert_eq!(count(&root, ".arg.invalid"), 1);
    assert!(disabled(&root, "#run"));
}

#[wasm_bindgen_test]
async fn an_edit_drops_the_session() {
    let root = mount_app().await;
    click(&root, "#step").await;
    assert_eq!(count(&root, ".lane"), 8);
    type_into(&root, "#seed", "2").await;
    assert_eq!(count(&root, ".lane"), 0);
    assert_eq!(status(&root), "idle");
}

#[wasm_bindgen_test]
async fn a_broken_kernel_shows_diagnostics() {
    let root = mount_app().await;
    let broken = "__kernel void k(__global int *p) { p[0] = ; }";
    type_into_editor(&root, broken, true).await;
    assert_eq!(editor_text(&root), broken);
    click(&root, "#step").await;
    assert_eq!(status(&root), "error");
    assert!(count(&root, "#diagnostics .diagnostic") >= 1);
    assert_eq!(count(&root, ".lane"), 0);
    // The same problem is underlined in the editor, at the `;` the parser stopped at.
    let underline = find(&root, "#editor .cm-diagnostic-underline.cm-diagnostic-primary");
    assert_eq!(underline.text_content().as_deref(), Some(";"));
}

#[wasm_bindgen_test]
async fn diagnostics_show_source_as_text() {
    let root = fresh_root();
    let source = "int <b>x</b> = 1;\n";
    let start = source.find("<b>").unwrap() as u32;
    let diagnostic =
        Diagnostic::error("syntax-error", "unexpected `<`").with_span(Span::new(start, start + 3), "here").with_note("a note").with_help("some help");
    let props = DiagnosticsProps { diagnostics: Rc::new(vec![diagnostic]), source: source.into(), file_name: "kernel.cl".into(), stale: false };
    yew::Renderer::<Diagnostics>::with_root_and_props(root.clone(), props).render();
    settle().await;
    assert_eq!(count(&root, "b"), 0, "source text must never become markup");
    let text = find(&root, ".snippet").text_content().unwrap_or_default();
    assert!(text.contains("--> kernel.cl:1:5"), "{text}");
    assert!(text.contains("1 | int <b>x</b> = 1;"), "{text}");
    assert!(text.contains("    ^^^ here"), "{text}");
    assert!(text.contains("= note: a note") && text.contains("= help: some help"), "{text}");
    let head = find(&root, ".diag-head").text_content().unwrap_or_default();
    assert_eq!(head, "error[syntax-error]: unexpected `<`");
}

#[wasm_bindgen_test]
async fn shortcuts_step_but_not_while_typing() {
    let root = mount_app().await;
    let source = find(&root, ".cm-content");
    press(&source, "s").await;
    assert_eq!(count(&root, ".lane"), 0, "a key typed into the editor is text, not a shortcut");
    press(&find(&root, "#lanes"), "s").await;
    assert_eq!(count(&root, ".lane"), 8);
    assert!(marks(&root, ".lane") >= 1);
}

#[wasm_bindgen_test]
async fn tab_indents_in_the_editor() {
    let root = mount_app().await;
    let content = find(&root, ".cm-content").unchecked_into::<HtmlElement>();
    content.focus().unwrap();
    // The cursor starts at the beginning of the text.
    assert!(!press(&content, "Tab").await, "the editor handles Tab");
    assert!(editor_text(&root).starts_with("    // Lost updates"), "{}", editor_text(&root));
    // Escape first lets Tab leave the editor instead: the editor leaves the key to the
    // browser, which moves the focus on.
    press(&content, "Escape").await;
    assert!(press(&content, "Tab").await, "Tab after Escape is not taken");
    assert!(!editor_text(&root).starts_with("        "));
}

/// Chooses `value` in the `<select>` matched by `selector`, as a user would: set the value,
/// then fire a bubbling `change` event.
async fn choose(root: &Element, selector: &str, value: &str) {
    let element = find(root, selector);
    element.unchecked_ref::<web_sys::HtmlSelectElement>().set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict("change", &init).unwrap();
    element.dispatch_event(&event).unwrap();
    settle().await;
}

fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_litmus_example_runs_one_lane_per_thread() {
    let root = mount_app().await;
    choose(&root, "#examples", "litmus/mp.litmus").await;
    let source = editor_text(&root);
    assert!(source.starts_with("OPENCL MP"), "{source}");
    // The test places its threads: no sizes or arguments, a note instead.
    assert_eq!(count(&root, "#litmus-note"), 1);
    assert_eq!(count(&root, "#global"), 0);
    assert_eq!(count(&root, ".arg-input"), 0);
    assert_eq!(count(&root, "#lanes[data-work-items=\"2\"]"), 1);
    choose(&root, "#memory-model", "relaxed").await;
    click(&root, "#run").await;
    wait_while_running(&root).await;
    assert_eq!(status(&root), "completed");
    let labels: Vec<String> = (0..count(&root, ".lane .wi"))
        .map(|i| root.query_selector_all(".lane .wi").unwrap().get(i).and_then(|n| n.text_content()).unwrap_or_default())
        .collect();
    assert_eq!(labels, ["P0 (wg 0)", "P1 (wg 1)"]);
    let registers = text(&root, "#registers");
    assert!(registers.contains("1:r0=") && registers.contains("1:r1="), "{registers}");
    assert!(find(&root, "#registers").get_attribute("data-exists").is_some());
    // Back to the kernel: its launch returns.
    choose(&root, "#examples", "count.cl").await;
    assert_eq!(count(&root, "#litmus-note"), 0);
    assert_eq!(count(&root, "#lanes[data-work-items=\"8\"]"), 1);
}

#[wasm_bindgen_test]
async fn explore_settings_are_checked_inline() {
    let root = mount_app().await;
    assert!(!disabled(&root, "#explore-start"));
    type_into(&root, "#explore-runs", "0").await;
    assert_eq!(count(&root, ".invalid #explore-runs"), 1);
    assert!(disabled(&root, "#explore-start"));
    click(&root, "#explore-mode-exhaustive").await;
    assert_eq!(count(&root, "#explore-runs"), 0);
    assert!(!disabled(&root, "#explore-start"));
    type_into(&root, "#explore-preemptions", "many").await;
    assert!(disabled(&root, "#explore-start"));
    type_into(&root, "#explore-preemptions", "2").await;
    assert!(!disabled(&root, "#explore-start"));
}

#[wasm_bindgen_test]
async fn a_worker_that_cannot_load_fails_the_exploration_cleanly() {
    // The test page has no worker script next to it, so the worker never starts: the panel
    // must say so rather than wait for ever.
    let root = mount_app().await;
    click(&root, "#explore-start").await;
    for _ in 0..200 {
        if find(&root, "#explore-status").get_attribute("data-phase").as_deref() == Some("failed") {
            break;
        }
        TimeoutFuture::new(50).await;
    }
    assert_eq!(find(&root, "#explore-status").get_attribute("data-phase").as_deref(), Some("failed"), "{}", text(&root, "#explore-status"));
    assert!(!disabled(&root, "#explore-start"), "a new exploration can start");
}

mod explore_panel {
    use super::*;
    use interleave_app::components::explore::{ExplorePanel, Props};
    use interleave_app::explore::ExploreMode;
    use interleave_app::state::{ExploreRun, Part, Phase, Theme};
    use interleave_engine::explore::{explore_with, Config};
    use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};
    use std::cell::Cell;
    use web_sys::{MouseEvent, MouseEventInit};
    use yew::Callback;

    fn weak_mp() -> ExploreRun {
        let mut scenario = Scenario::new(include_str!("../../static/examples/litmus/mp.litmus"), "test.litmus", Dialect::Litmus);
        scenario.memory_model = MemoryModel::Relaxed;
        let config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };
        let exploration = Rc::new(explore_with(&scenario, config).unwrap());
        ExploreRun {
            id: 1,
            mode: ExploreMode::Exhaustive,
            scenario: Rc::new(scenario),
            parts: vec![Part { executions: exploration.runs, budget: 1_000_000, result: Some(exploration.clone()), stopped: false }],
            workers: 1,
            phase: Phase::Done,
            result: Some(exploration),
            problem: None,
            selected: None,
        }
    }

    async fn mount(run: ExploreRun, stale: bool, loaded: Rc<Cell<Option<usize>>>) -> Element {
        let root = fresh_root();
        let props = Props {
            mode: ExploreMode::Exhaustive,
            runs: "1000".into(),
            preemptions: "".into(),
            exploration: Some(Rc::new(run)),
            can_start: true,
            stale,
            litmus: true,
            theme: Theme::Light,
            on_mode: Callback::noop(),
            on_runs: Callback::noop(),
            on_preemptions: Callback::noop(),
            on_start: Callback::noop(),
            on_cancel: Callback::noop(),
            on_load_outcome: Callback::from(move |i| loaded.set(Some(i))),
            on_load_finding: Callback::noop(),
            on_shrink_outcome: Callback::noop(),
            shrinking: false,
        };
        yew::Renderer::<ExplorePanel>::with_root_and_props(root.clone(), props).render();
        settle().await;
        root
    }

    #[wasm_bindgen_test]
    async fn outcomes_show_in_the_chart_and_the_table_with_the_weak_one_marked() {
        let loaded = Rc::new(Cell::new(None));
        let root = mount(weak_mp(), false, loaded.clone()).await;
        assert_eq!(find(&root, "#explore-status").get_attribute("data-phase").as_deref(), Some("done"));
        assert_eq!(count(&root, "#explore-outcomes tbody tr"), 4);
        assert_eq!(count(&root, "#explore-outcomes tr[data-exists=\"true\"]"), 1);
        let weak = text(&root, "#explore-outcomes tr[data-exists=\"true\"] .outcome");
        assert_eq!(weak, "1:r0=1 1:r1=0");
        assert_eq!(count(&root, "#explore-summary [data-exists-observed=\"true\"]"), 1);
        assert_eq!(count(&root, "#explore-summary [data-complete=\"true\"]"), 1);
        let canvas = find(&root, "#explore-histogram");
        assert_eq!(canvas.get_attribute("data-bars").as_deref(), Some("4"));
        assert_eq!(canvas.get_attribute("data-highlighted").as_deref(), Some("1"));
        assert!(canvas.get_attribute("aria-label").unwrap_or_default().contains("4 outcomes"));

        let weak_index: usize = find(&root, "#explore-outcomes tr[data-exists=\"true\"]").get_attribute("data-index").and_then(|i| i.parse().ok()).unwrap();
        click(&root, "#explore-outcomes tr[data-exists=\"true\"] button.replay").await;
        assert_eq!(loaded.take(), Some(weak_index));

        // A click in the middle of a bar's row loads that bar: rows are 24 pixels high below
        // a 6-pixel margin, inside the canvas's 1-pixel border.
        let rect = canvas.get_bounding_client_rect();
        for index in 0..4 {
            let init = MouseEventInit::new();
            init.set_bubbles(true);
            init.set_client_x((rect.left() + rect.width() * 0.6) as i32);
            init.set_client_y((rect.top() + 1.0 + 6.0 + 24.0 * (index as f64 + 0.5)) as i32);
            let event = MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
            canvas.dispatch_event(&event).unwrap();
            settle().await;
            assert_eq!(loaded.take(), Some(index), "bar {index}");
        }
    }

    #[wasm_bindgen_test]
    async fn stale_results_cannot_be_loaded() {
        let loaded = Rc::new(Cell::new(None));
        let root = mount(weak_mp(), true, loaded.clone()).await;
        assert_eq!(count(&root, ".stale-note"), 1);
        assert!(disabled(&root, "#explore-outcomes button.replay"));
        assert_eq!(loaded.take(), None);
    }
}

/// The step the status line says the session is at.
fn steps(root: &Element) -> u64 {
    find(root, "#status").get_attribute("data-steps").and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("#status has no data-steps"))
}

/// Runs the default example to its end.
async fn run_to_end(root: &Element) {
    click(root, "#run").await;
    for _ in 0..100 {
        if status(root) != "running" {
            break;
        }
        TimeoutFuture::new(50).await;
    }
    assert_eq!(status(root), "completed");
}

/// Sets a range input's value and fires `input`, as dragging its thumb does.
async fn scrub(root: &Element, value: u64) {
    let input = find(root, "#scrubber").unchecked_into::<HtmlInputElement>();
    input.set_value(&value.to_string());
    let init = EventInit::new();
    init.set_bubbles(true);
    input.dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
    settle().await;
}

#[wasm_bindgen_test]
async fn the_scrubber_and_go_to_step_seek_exactly() {
    let root = mount_app().await;
    run_to_end(&root).await;
    let end = steps(&root);
    assert!(end > 10, "the example takes more than ten steps ({end})");
    let at_end = find(&root, "#lanes").inner_html();
    scrub(&root, 5).await;
    assert_eq!(steps(&root), 5);
    assert_eq!(status(&root), "running", "a step before the end reopens the run");
    let at_five = find(&root, "#lanes").inner_html();
    // "Go to step" with Enter, then back to the end with the end button.
    type_into(&root, "#goto-step", "9").await;
    press(&find(&root, "#goto-step"), "Enter").await;
    assert_eq!(steps(&root), 9);
    click(&root, "#go-end").await;
    assert_eq!(steps(&root), end);
    assert_eq!(status(&root), "completed");
    assert_eq!(find(&root, "#lanes").inner_html(), at_end, "the end is exactly the end");
    scrub(&root, 5).await;
    assert_eq!(find(&root, "#lanes").inner_html(), at_five, "step 5 is exactly step 5");
    click(&root, "#go-start").await;
    assert_eq!(steps(&root), 0);
    // A bad step number is flagged next to the field and changes nothing.
    type_into(&root, "#goto-step", "ten").await;
    click(&root, "#goto-go").await;
    assert_eq!(steps(&root), 0);
    assert_eq!(find(&root, "#goto-step").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(!find(&root, "#goto-step-error").text_content().unwrap_or_default().is_empty());
}

#[wasm_bindgen_test]
async fn run_to_the_next_finding_stops_at_it() {
    let root = mount_app().await;
    click(&root, "#run-to-finding").await;
    for _ in 0..100 {
        if count(&root, "#findings .finding") > 0 && count(&root, "#pause") == 0 {
            break;
        }
        TimeoutFuture::new(50).await;
    }
    assert_eq!(count(&root, "#findings .finding"), 1, "it stops at the first finding");
    let at = steps(&root);
    // The finding's own step is where the run stopped.
    let meta = find(&root, "#findings .finding .when").text_content().unwrap_or_default();
    assert_eq!(meta, format!("step {at}"));
    // Its explanation says what the kind means and how it is usually fixed.
    let explain = find(&root, "#findings .finding .explain").text_content().unwrap_or_default();
    assert!(explain.contains("What is data-race?") && explain.contains("Usual fix"), "{explain}");
}

#[wasm_bindgen_test]
async fn opening_a_finding_selects_its_work_item_and_its_source() {
    let root = mount_app().await;
    run_to_end(&root).await;
    click(&root, "#findings .finding .finding-open").await;
    assert_eq!(count(&root, "#findings .finding.current"), 1);
    let work_item = find(&root, "#inspector-work-item").get_attribute("data-work-item").expect("the finding's work-item is selected");
    let who = find(&root, "#findings .finding .who").text_content().unwrap_or_default();
    assert_eq!(who, format!("wi {work_item}"), "the global id and the lane agree here");
    // The editor selects the racing statement, on line 11, and the timeline shows the
    // finding's step with the work-item's lane selected.
    assert_eq!(count(&root, "#editor[data-selection-line=\"11\"]"), 1);
    let selection = gloo::utils::window().get_selection().unwrap().unwrap().to_string();
    assert!(String::from(selection).contains("counters[0]"));
    assert_eq!(count(&root, &format!(".lane.selected[data-work-item=\"{work_item}\"]")), 1);
}

#[wasm_bindgen_test]
async fn the_inspector_shows_memory_locks_barriers_and_the_work_item() {
    let root = mount_app().await;
    run_to_end(&root).await;
    assert!(find(&root, "#inspector-panel").text_content().unwrap_or_default().contains("select a work-item"));
    click(&root, "#inspector-tab-memory").await;
    assert_eq!(find(&root, "#inspector-panel").get_attribute("data-tab").as_deref(), Some("memory"));
    // `ids` holds each work-item's local id, written by that work-item.
    assert_eq!(count(&root, "#inspector-memory .cell"), 8);
    let values: Vec<String> = (0..8).map(|i| find(&root, &format!(".cell[data-index=\"{i}\"] .cell-value")).text_content().unwrap_or_default()).collect();
    assert_eq!(values, ["0", "1", "2", "3", "0", "1", "2", "3"]);
    // The writer of element 5 becomes the selected work-item.
    click(&root, ".cell[data-index=\"5\"] .cell-writer").await;
    click(&root, "#inspector-tab-work-item").await;
    assert_eq!(find(&root, "#inspector-work-item").get_attribute("data-work-item").as_deref(), Some("5"));
    let ids = find(&root, "#inspector-work-item .ids").text_content().unwrap_or_default();
    assert!(ids.contains("(5, 0, 0)") && ids.contains("(1, 0, 0)"), "{ids}");
    assert!(find(&root, ".wi-state").text_content().unwrap_or_default().contains("finished"));
    click(&root, "#inspector-tab-locks").await;
    assert!(find(&root, "#inspector-panel").text_content().unwrap_or_default().contains("No locks"));
    click(&root, "#inspector-tab-barriers").await;
    assert!(find(&root, "#inspector-panel").text_content().unwrap_or_default().contains("No work-item is waiting"));
    // Back to the start: every work-item is about to run its first line.
    click(&root, "#go-start").await;
    click(&root, "#inspector-tab-work-item").await;
    let state = find(&root, ".wi-state").text_content().unwrap_or_default();
    assert!(state.starts_with("running (line"), "{state}");
    assert!(count(&root, "#inspector-work-item .vars") <= 1);
}

#[wasm_bindgen_test]
async fn a_work_item_waiting_at_a_barrier_is_shown_with_who_is_missing() {
    let root = mount_app().await;
    click(&root, "#step").await;
    // Work-item 0 writes ids[0] and then waits at the barrier of group 0.
    for _ in 0..2 {
        click(&root, ".lane[data-work-item=\"0\"] .lane-step").await;
    }
    click(&root, "#inspector-tab-barriers").await;
    let text = find(&root, "#inspector-barriers").text_content().unwrap_or_default();
    assert!(text.contains("group 0:"), "{text}");
    assert!(text.contains("missing"), "{text}");
}

#[wasm_bindgen_test]
async fn the_inspector_tabs_follow_the_arrow_keys() {
    let root = mount_app().await;
    let tab = find(&root, "#inspector-tab-work-item");
    press(&tab, "ArrowRight").await;
    assert_eq!(find(&root, "#inspector-panel").get_attribute("data-tab").as_deref(), Some("memory"));
    press(&find(&root, "#inspector-tab-memory"), "End").await;
    assert_eq!(find(&root, "#inspector-panel").get_attribute("data-tab").as_deref(), Some("barriers"));
    assert_eq!(find(&root, "#inspector-tab-barriers").get_attribute("aria-selected").as_deref(), Some("true"));
}

#[wasm_bindgen_test]
async fn the_help_overlay_lists_the_shortcuts_and_closes_with_escape() {
    let root = mount_app().await;
    assert_eq!(count(&root, "#help"), 0);
    click(&root, "#help-open").await;
    assert_eq!(count(&root, "#help"), 1);
    let rows = count(&root, "#help .shortcuts tr");
    assert_eq!(rows as usize, interleave_app::components::help::SHORTCUTS.len());
    assert_eq!(find(&root, "#help").get_attribute("role").as_deref(), Some("dialog"));
    press(&find(&root, "#help"), "Escape").await;
    assert_eq!(count(&root, "#help"), 0);
}

#[wasm_bindgen_test]
async fn the_keyboard_alone_steps_goes_back_and_seeks() {
    let root = mount_app().await;
    let body = gloo::utils::body();
    // Every mounted app listens on the document, so only this root's numbers are read.
    press(&body, "s").await;
    press(&body, "s").await;
    press(&body, "s").await;
    assert_eq!(steps(&root), 3);
    press(&body, "b").await;
    assert_eq!(steps(&root), 2);
    press(&body, "Home").await;
    assert_eq!(steps(&root), 0);
    press(&body, "End").await;
    assert_eq!(steps(&root), 3, "End goes to the furthest step reached");
}

#[wasm_bindgen_test]
async fn a_splitter_resizes_its_pane_from_the_keyboard() {
    let root = mount_app().await;
    let splitter = find(&root, "#splitter-editor");
    let before: f64 = splitter.get_attribute("aria-valuenow").unwrap().parse().unwrap();
    press(&splitter, "ArrowRight").await;
    let after: f64 = find(&root, "#splitter-editor").get_attribute("aria-valuenow").unwrap().parse().unwrap();
    assert_eq!(after, before + 24.0);
    let style = find(&root, "main.workspace").get_attribute("style").unwrap_or_default();
    assert!(style.contains(&format!("--editor-w:{after:.0}px")), "{style}");
    // The inspector grows when its splitter moves left.
    let inspector = find(&root, "#splitter-inspector");
    let before: f64 = inspector.get_attribute("aria-valuenow").unwrap().parse().unwrap();
    press(&inspector, "ArrowLeft").await;
    let after: f64 = find(&root, "#splitter-inspector").get_attribute("aria-valuenow").unwrap().parse().unwrap();
    assert_eq!(after, before + 24.0);
}

/// A number the timeline canvas records about its last paint (`data-events`, ...).
fn canvas_number(root: &Element, attribute: &str) -> f64 {
    find(root, "#timeline-canvas")
        .get_attribute(attribute)
        .unwrap_or_else(|| panic!("the canvas has no {attribute}"))
        .parse()
        .unwrap_or_else(|_| panic!("{attribute} is not a number"))
}

/// Sends a pointer event of type `kind` at canvas point (`x`, `y`) (CSS pixels from its
/// top left corner).
async fn pointer(root: &Element, kind: &str, x: f64, y: f64) {
    let canvas = find(root, "#timeline-canvas");
    let rect = canvas.get_bounding_client_rect();
    let init = web_sys::PointerEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_client_x((rect.left() + x).round() as i32);
    init.set_client_y((rect.top() + y).round() as i32);
    init.set_button(0);
    init.set_pointer_id(1);
    let event = web_sys::PointerEvent::new_with_event_init_dict(kind, &init).unwrap();
    canvas.dispatch_event(&event).unwrap();
    settle().await;
}

/// The first point (row by row, step by step) where hovering the canvas shows an event's
/// tooltip, found as a user would find it: by moving the pointer over the marks.
async fn first_event_point(root: &Element) -> Option<(f64, f64)> {
    // The row and axis heights of `interleave_app::timeline`.
    let (axis, row) = (interleave_app::timeline::AXIS_HEIGHT, interleave_app::timeline::ROW_HEIGHT);
    let canvas = find(root, "#timeline-canvas");
    let height = canvas.client_height() as f64;
    let start = canvas_number(root, "data-start");
    let scale = canvas_number(root, "data-px-per-step");
    let (first, last) = (canvas_number(root, "data-view-start") as u64, canvas_number(root, "data-view-end") as u64);
    let tooltip = find(root, ".timeline-tooltip");
    let mut y = axis + row / 2.0;
    while y < height {
        for step in first..=last {
            let x = (step as f64 + 0.5 - start) * scale;
            let init = web_sys::PointerEventInit::new();
            let rect = canvas.get_bounding_client_rect();
            init.set_client_x((rect.left() + x).round() as i32);
            init.set_client_y((rect.top() + y).round() as i32);
            init.set_pointer_id(1);
            let event = web_sys::PointerEvent::new_with_event_init_dict("pointermove", &init).unwrap();
            canvas.dispatch_event(&event).unwrap();
            // The tooltip is written in the listener itself, not by a render.
            if !tooltip.unchecked_ref::<HtmlElement>().hidden() {
                settle().await;
                return Some((x, y));
            }
        }
        y += row;
    }
    None
}

/// The app's stylesheet, so that the timeline has its real geometry (sticky canvas, row
/// heights, a scrolling body).
fn use_app_styles() {
    let document = gloo::utils::document();
    if document.get_element_by_id("app-styles").is_none() {
        let style = document.create_element("style").unwrap();
        style.set_id("app-styles");
        style.set_text_content(Some(include_str!("../../static/style.css")));
        gloo::utils::body().append_child(&style).unwrap();
    }
}

mod timeline {
    use super::*;
    use interleave_app::components::lanes::{Lanes, Props as LanesProps};
    use interleave_app::components::timeline_canvas::{paint_frame, theme_colours, Frame};
    use interleave_app::snapshot::{GroupRows, Lane, SharedEvents, Timeline};
    use interleave_app::timeline::{layout, EventStore, Headers, LaneSpec, Topology, View};
    use interleave_engine::diag::Span;
    use interleave_engine::trace::{Event, EventKind, Location, Space};
    use std::collections::BTreeSet;
    use yew::Callback;

    #[wasm_bindgen_test]
    async fn clicking_an_event_on_the_canvas_seeks_to_its_step() {
        use_app_styles();
        let root = mount_app().await;
        run_to_end(&root).await;
        let end = canvas_number(&root, "data-cursor-step");
        let (x, y) = first_event_point(&root).await.expect("some mark is under the pointer");
        let step: u64 = find(&root, ".timeline-tooltip").get_attribute("data-step").expect("the tooltip names its step").parse().unwrap();
        assert!((step as f64) < end, "the first lane's first event is not the last step");
        pointer(&root, "pointerdown", x, y).await;
        pointer(&root, "pointerup", x, y).await;
        assert_eq!(status(&root), "running");
        let text = find(&root, "#status").text_content().unwrap_or_default();
        assert!(text.contains(&format!(" {step} step")), "{text}");
        assert_eq!(canvas_number(&root, "data-cursor-step") as u64, step);
        // The click also selected the event's lane.
        assert_eq!(count(&root, ".lane.selected"), 1);
    }

    #[wasm_bindgen_test]
    async fn the_wheel_zooms_about_the_pointer_and_keys_drive_the_view() {
        use_app_styles();
        let root = mount_app().await;
        run_to_end(&root).await;
        let canvas = find(&root, "#timeline-canvas");
        let view = |root: &Element| (canvas_number(root, "data-view-start"), canvas_number(root, "data-view-end"));
        let fitted = view(&root);
        assert_eq!(fitted.0, 0.0);
        // Zoom in about a point three quarters of the way across.
        let rect = canvas.get_bounding_client_rect();
        let x = rect.width() * 0.75;
        let anchor = canvas_number(&root, "data-start") + x / canvas_number(&root, "data-px-per-step");
        let init = web_sys::WheelEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_delta_y(-400.0);
        init.set_client_x((rect.left() + x) as i32);
        init.set_client_y((rect.top() + 40.0) as i32);
        let wheel = web_sys::WheelEvent::new_with_event_init_dict("wheel", &init).unwrap();
        canvas.dispatch_event(&wheel).unwrap();
        assert!(wheel.default_prevented(), "the page must not scroll");
        settle().await;
        let zoomed = view(&root);
        assert!(zoomed.0 > fitted.0 && zoomed.1 - zoomed.0 < fitted.1 - fitted.0, "{zoomed:?}");
        // The step under the pointer stays under it (within the pixel the event was sent at).
        let scale = canvas_number(&root, "data-px-per-step");
        let kept = canvas_number(&root, "data-start") + x / scale;
        assert!((kept - anchor).abs() * scale < 1.0, "{kept} != {anchor}");
        // Keys on the focused canvas: fit, zoom, pan, home; Home does not reset the run.
        press(&canvas, "f").await;
        assert_eq!(view(&root), fitted);
        press(&canvas, "+").await;
        let plus = view(&root);
        assert!(plus.1 - plus.0 < fitted.1 - fitted.0);
        press(&canvas, "ArrowRight").await;
        assert!(view(&root).0 > plus.0);
        press(&canvas, "Home").await;
        assert_eq!(view(&root).0, 0.0);
        assert_eq!(status(&root), "completed");
        press(&canvas, "End").await;
        assert!(view(&root).1 >= canvas_number(&root, "data-cursor-step"));
        // Up and down choose lanes; comma goes to the lane's previous event.
        press(&canvas, "ArrowDown").await;
        assert_eq!(count(&root, ".lane.selected[data-work-item=\"0\"]"), 1);
        press(&canvas, "ArrowDown").await;
        assert_eq!(count(&root, ".lane.selected[data-work-item=\"1\"]"), 1);
        let before = canvas_number(&root, "data-cursor-step");
        press(&canvas, ",").await;
        let after = canvas_number(&root, "data-cursor-step");
        assert!(after < before, "{after} !< {before}");
        assert_eq!(status(&root), "running");
    }

    #[wasm_bindgen_test]
    async fn a_lane_label_selects_and_a_header_folds() {
        use_app_styles();
        let root = mount_app().await;
        click(&root, "#step").await;
        click(&root, ".lane[data-work-item=\"3\"] .wi").await;
        assert_eq!(count(&root, ".lane.selected"), 1);
        assert_eq!(count(&root, ".lane.selected[data-work-item=\"3\"]"), 1);
        assert_eq!(find(&root, ".lane.selected .wi").get_attribute("aria-pressed").as_deref(), Some("true"));
        let header = ".lane-header.group .fold";
        click(&root, header).await;
        assert_eq!(count(&root, ".lane"), 4);
        assert_eq!(find(&root, header).get_attribute("aria-expanded").as_deref(), Some("false"));
        // The folded group's events are drawn on its header: nothing is lost.
        assert_eq!(canvas_number(&root, "data-events"), 1.0);
        click(&root, header).await;
        assert_eq!(count(&root, ".lane"), 8);
        let canvas = find(&root, "#timeline-canvas");
        assert_eq!(canvas.get_attribute("tabindex").as_deref(), Some("0"));
        assert!(!canvas.get_attribute("aria-label").unwrap_or_default().is_empty());
    }

    /// A timeline of `lanes` work-items in groups of 256 and `events` events, with loads,
    /// stores, atomics and a barrier every 10,000 steps in every group.
    fn synthetic(lanes: u32, events: u64) -> Rc<Timeline> {
        let group_of: Vec<u32> = (0..lanes).map(|wi| wi / 256).collect();
        let mut store = EventStore::new(Topology::new(group_of, 32));
        let mut state = 12345u64;
        let mut step = 0u64;
        while step < events {
            step += 1;
            if step.is_multiple_of(10_000) {
                // Everybody meets at a barrier: one arrival per step, the last releases.
                for wi in 0..lanes {
                    let event = Event {
                        step,
                        work_item: wi,
                        kind: EventKind::BarrierArrive,
                        location: None,
                        read: 0,
                        written: 1,
                        span: Span::new(0, 0),
                        order: None,
                        scope: None,
                    };
                    store.push(&event);
                    if wi % 256 == 255 {
                        store.push(&Event { kind: EventKind::BarrierRelease, read: 256, ..event });
                    }
                    step += 1;
                }
                continue;
            }
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let kind = [EventKind::Load, EventKind::Load, EventKind::Store, EventKind::Atomic][(state >> 60) as usize % 4];
            store.push(&Event {
                step,
                work_item: ((state >> 33) % lanes as u64) as u32,
                kind,
                location: Some(Location { space: Space::Global, alloc: 1, offset: (state >> 40) % 4096 * 4 }),
                read: state & 0xff,
                written: state >> 56,
                span: Span::new(0, 0),
                order: None,
                scope: None,
            });
        }
        let limit = store.len();
        let steps = step;
        let groups = (0..lanes / 256)
            .map(|g| GroupRows {
                group: g as usize,
                lanes: (g * 256..(g + 1) * 256)
                    .map(|wi| Lane {
                        index: wi as usize,
                        label: format!("wi {wi} (g{g}·l{})", wi % 256),
                        status: "ready",
                        line: Some(7),
                        marks: store.lane(wi).map_or(0, |s| s.count(limit)),
                        warp: store.topology().warp_of[wi as usize],
                    })
                    .collect(),
            })
            .collect();
        Rc::new(Timeline { steps, groups, events: SharedEvents::new(store), limit, source: Rc::from("__kernel void k() {}"), ..Timeline::default() })
    }

    fn now() -> f64 {
        gloo::utils::window().performance().expect("performance").now()
    }

    #[wasm_bindgen_test]
    async fn a_thousand_lanes_and_a_hundred_thousand_events_paint_in_a_frame() {
        use_app_styles();
        let timeline = synthetic(1024, 100_000);
        let total = timeline.limit;
        assert!(total >= 100_000, "{total}");
        let root = fresh_root();
        root.set_attribute("style", "display: flex; flex-direction: column; width: 1300px; height: 720px").unwrap();
        let props = |timeline: Rc<Timeline>| LanesProps {
            work_items: 1024,
            timeline: Some(timeline),
            on_step_lane: Callback::noop(),
            litmus: false,
            selected: Some(5),
            on_select_lane: Callback::noop(),
            on_seek: Callback::noop(),
            reveal: None,
            focus: None,
            on_focus: Callback::noop(),
            why: None,
        };
        let started = now();
        let mut handle = yew::Renderer::<Lanes>::with_root_and_props(root.clone(), props(timeline.clone())).render();
        while count(&root, ".lane") == 0 {
            TimeoutFuture::new(0).await;
        }
        let first_render = now() - started;
        settle().await;
        // Only the label rows near the viewport are in the DOM; scrolling brings the others.
        let rendered = count(&root, ".lane");
        assert!((30..=200).contains(&rendered), "{rendered} label rows");
        assert_eq!(count(&root, ".lane.selected[data-work-item=\"5\"]"), 1);
        let body: HtmlElement = find(&root, ".lanes-body").unchecked_into();
        let full = body.scroll_height();
        assert!(full as f64 >= 1028.0 * 22.0, "the column keeps its full height: {full}");
        body.set_scroll_top(full);
        settle().await;
        assert_eq!(count(&root, ".lane[data-work-item=\"1023\"]"), 1);
        assert_eq!(count(&root, ".lane[data-work-item=\"5\"]"), 0);
        assert_eq!(body.scroll_height(), full);
        body.set_scroll_top(0);
        settle().await;
        assert_eq!(count(&root, ".lane[data-work-item=\"0\"]"), 1);
        // The component's own paint: fitted, every visible row's events.
        let drawn = canvas_number(&root, "data-events");
        assert!(drawn > 1000.0, "{drawn}");
        assert!(canvas_number(&root, "data-view-end") >= timeline.steps as f64);
        let canvas: web_sys::HtmlCanvasElement = find(&root, "#timeline-canvas").unchecked_into();
        let context: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
        let pixels = context.get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64).unwrap().data();
        let painted = pixels.chunks(4).filter(|p| p[3] != 0).count();
        assert!(painted > 10_000, "{painted} painted pixels");

        // Paint at several zooms and scroll positions, as a drag or wheel would.
        let specs: Vec<LaneSpec> = timeline
            .groups
            .iter()
            .flat_map(|g| g.lanes.iter().map(move |l| LaneSpec { work_item: l.index as u32, group: g.group as u32, warp: l.warp }))
            .collect();
        let rows = layout(&specs, Headers::Groups, &BTreeSet::new(), None);
        let colours = theme_colours();
        let width = canvas.client_width() as f64;
        let fit = timeline.steps as f64 + 2.0;
        let views = [
            (View { start: 0.0, scale: width / fit }, 0.0),
            (View { start: 20_000.0, scale: width / 10_000.0 }, 4_000.0),
            (View { start: 50_000.0, scale: width / 1_000.0 }, 11_000.0),
            // Lanes 905.. (rows 909..) arrive at the barrier of step 70,000 one step each.
            (View { start: 70_890.0, scale: width / 100.0 }, 20_000.0),
            (View { start: 99_990.0, scale: 40.0 }, 1_000.0),
        ];
        let mut times = Vec::new();
        for (view, scroll_top) in views {
            for _ in 0..4 {
                let frame = Frame {
                    canvas: &canvas,
                    timeline: &timeline,
                    layout: &rows,
                    view,
                    height: 660.0,
                    scroll_top,
                    selected: Some(5),
                    colours: &colours,
                    why: None,
                };
                let started = now();
                let events = paint_frame(&frame).expect("a 2D context");
                times.push(now() - started);
                assert!(events > 0, "{view:?} drew nothing");
                assert_eq!(canvas.get_attribute("data-events"), Some(events.to_string()));
            }
        }
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let worst = times.iter().copied().fold(0.0, f64::max);

        // A new snapshot of the same run (one event fewer seen, as after a step back)
        // re-renders the label column: time it until the DOM shows the change.
        let mut earlier = (*timeline).clone();
        earlier.limit = total - 1;
        let lane = &mut earlier.groups[0].lanes[0];
        lane.marks = lane.marks.saturating_sub(1);
        let expected = lane.marks.to_string();
        let started = now();
        handle.update(props(Rc::new(earlier)));
        let mut rerender = f64::NAN;
        for _ in 0..2000 {
            TimeoutFuture::new(0).await;
            let shown = find(&root, ".lane[data-work-item=\"0\"]").get_attribute("data-marks");
            if shown.as_deref() == Some(expected.as_str()) {
                rerender = now() - started;
                break;
            }
        }
        assert!(rerender.is_finite(), "the new snapshot was never rendered");
        // A revealed step comes into view, once per serial.
        let canvas_rect = canvas.get_bounding_client_rect();
        let init = web_sys::WheelEventInit::new();
        init.set_delta_y(-2000.0);
        init.set_cancelable(true);
        init.set_client_x((canvas_rect.left() + 10.0) as i32);
        init.set_client_y((canvas_rect.top() + 40.0) as i32);
        canvas.dispatch_event(&web_sys::WheelEvent::new_with_event_init_dict("wheel", &init).unwrap()).unwrap();
        settle().await;
        let view = |root: &Element| (canvas_number(root, "data-view-start"), canvas_number(root, "data-view-end"));
        let zoomed = view(&root);
        assert!(zoomed.1 < 90_000.0, "{zoomed:?}");
        let reveal = |serial, step| LanesProps { reveal: Some((serial, step)), ..props(timeline.clone()) };
        handle.update(reveal(1, 90_000));
        settle().await;
        let revealed = view(&root);
        assert!(revealed.0 <= 90_000.0 && 90_000.0 <= revealed.1, "{revealed:?}");
        assert!((revealed.1 - revealed.0 - (zoomed.1 - zoomed.0)).abs() <= 1.0, "the zoom is kept");
        handle.update(reveal(1, 10_000));
        settle().await;
        assert_eq!(view(&root), revealed, "the same serial again changes nothing");
        console_log!(
            "timeline of 1,024 lanes and {total} events: first render {first_render:.1} ms, paint mean {mean:.2} ms, worst {worst:.2} ms over {} paints, re-render {rerender:.1} ms",
            times.len()
        );
        handle.destroy();
    }
}

/// Presses Ctrl+`key` on `target`.
async fn press_ctrl(target: &EventTarget, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_key_code(key.chars().next().map_or(0, |c| c.to_ascii_uppercase() as u32));
    init.set_ctrl_key(true);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&event).unwrap();
    settle().await;
}

/// Waits (bounded) until `selector` matches under `root`.
async fn wait_for(root: &Element, selector: &str) -> bool {
    for _ in 0..100 {
        if count(root, selector) > 0 {
            return true;
        }
        TimeoutFuture::new(30).await;
    }
    false
}

#[wasm_bindgen_test]
async fn typing_keeps_the_cursor_and_history_and_an_example_replaces_the_text() {
    let root = mount_app().await;
    let kernel = include_str!("../../static/examples/count.cl");
    // Each edit goes to the app and comes back as its source: the second key must still
    // land after the first.
    type_into_editor(&root, "a", false).await;
    type_into_editor(&root, "b", false).await;
    assert_eq!(editor_text(&root), format!("ab{kernel}"));
    // The edit reached the app: the example picker no longer claims the example.
    assert_ne!(find(&root, "#examples").unchecked_into::<web_sys::HtmlSelectElement>().value(), "count.cl");
    // Undo still knows both keys.
    let content = find(&root, ".cm-content");
    press_ctrl(&content, "z").await;
    assert_eq!(editor_text(&root), kernel);

    choose(&root, "#examples", "litmus/mp.litmus").await;
    assert_eq!(editor_text(&root), include_str!("../../static/examples/litmus/mp.litmus"));
    assert_eq!(find(&root, ".cm-content").get_attribute("aria-label").as_deref(), Some("Litmus test"));
    assert_eq!(count(&root, "#editor[data-selection-line=\"1\"]"), 1);
    // Loading an example is one undoable step, and the app follows the undo.
    press_ctrl(&find(&root, ".cm-content"), "z").await;
    assert_eq!(editor_text(&root), kernel);
    assert_eq!(count(&root, "#lanes[data-work-items=\"8\"]"), 1);
}

#[wasm_bindgen_test]
async fn work_items_and_findings_are_marked_in_the_editor() {
    let root = mount_app().await;
    click(&root, "#step").await;
    // No work-item is selected, so every current line is marked faintly.
    assert!(count(&root, "#editor .cm-line.cm-other-wi") >= 1);
    assert_eq!(count(&root, "#editor .cm-line.cm-active-wi"), 0);
    click(&root, "#run").await;
    wait_while_running(&root).await;
    assert_eq!(status(&root), "completed");
    // The lost update on `counters[0]` is a data race, on line 11 of count.cl.
    assert!(wait_for(&root, ".cm-finding-marker[data-line=\"11\"]").await);
    let marker = find(&root, ".cm-finding-marker[data-line=\"11\"]");
    assert!(marker.get_attribute("title").unwrap_or_default().contains("data-race"), "{:?}", marker.get_attribute("title"));
    assert!(marker.get_attribute("aria-label").is_some());
    // A click on the marker brings its finding in the list into focus.
    marker.unchecked_ref::<HtmlElement>().click();
    settle().await;
    let focused = gloo::utils::document().active_element().unwrap();
    assert!(focused.closest("#findings").unwrap().is_some(), "{}", focused.outer_html());
    assert!(focused.text_content().unwrap_or_default().contains("11:"), "{:?}", focused.text_content());
    // Opening a finding selects its place in the editor.
    focused.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(count(&root, "#editor[data-selection-line=\"11\"]"), 1);
    let active = gloo::utils::document().active_element().unwrap();
    assert!(active.class_list().contains("cm-content"), "the editor has the focus");
}

mod editor {
    use super::*;
    use interleave_app::components::editor::{Editor, EditorHandle, Props};
    use interleave_app::state::Theme;
    use interleave_engine::diag::Severity;
    use interleave_engine::report::{Finding, FindingKind};
    use std::cell::Cell;
    use web_sys::{MouseEvent, MouseEventInit};
    use yew::{AttrValue, Callback, Html};

    fn props(source: &str, handle: &EditorHandle) -> Props {
        Props {
            source: source.into(),
            on_edit: Callback::noop(),
            handle: handle.clone(),
            active_lines: Rc::default(),
            selected_line: None,
            diagnostics: Rc::default(),
            diagnostics_source: AttrValue::default(),
            findings: Rc::default(),
            on_gutter_finding: Callback::noop(),
            theme: Theme::Light,
            litmus: false,
            children: Html::default(),
        }
    }

    async fn mount(props: Props) -> Element {
        let root = fresh_root();
        yew::Renderer::<Editor>::with_root_and_props(root.clone(), props).render();
        settle().await;
        root
    }

    fn finding(line: u32, severity: Severity, message: &str) -> Finding {
        Finding {
            kind: FindingKind::DataRace,
            severity,
            message: message.into(),
            line,
            column: 1,
            work_item: None,
            step: None,
            related: Vec::new(),
            race: None,
            memory: None,
            benign: false,
            addresses: None,
            explanation: None,
            span: None,
        }
    }

    #[wasm_bindgen_test]
    async fn the_selected_work_item_line_is_marked_strongly_and_the_others_faintly() {
        let handle = EditorHandle::default();
        let root = mount(Props { selected_line: Some(2), active_lines: Rc::new(vec![2, 4]), ..props("one\ntwo\nthree\nfour\n", &handle) }).await;
        assert_eq!(count(&root, ".cm-line.cm-active-wi"), 1);
        assert_eq!(text(&root, ".cm-line.cm-active-wi"), "two");
        assert_eq!(count(&root, ".cm-line.cm-other-wi"), 1);
        assert_eq!(text(&root, ".cm-line.cm-other-wi"), "four");
    }

    #[wasm_bindgen_test]
    async fn a_diagnostic_is_underlined_with_its_message_on_hover() {
        let source = "__kernel void k() {\n    int x = ;\n}\n";
        let start = source.find(';').unwrap() as u32;
        let diagnostic = interleave_engine::diag::Diagnostic::error("syntax-error", "expected an expression <b>here</b>")
            .with_span(interleave_engine::diag::Span::new(start, start + 1), "here");
        let handle = EditorHandle::default();
        let root = mount(Props { diagnostics: Rc::new(vec![diagnostic]), diagnostics_source: source.into(), ..props(source, &handle) }).await;
        let underline = find(&root, ".cm-diagnostic-underline.cm-diagnostic-error");
        assert_eq!(underline.text_content().as_deref(), Some(";"));

        // The page holds every earlier test's app above this editor: bring it into the
        // viewport, where the editor can map the pointer's coordinates to text.
        underline.scroll_into_view();
        settle().await;
        let rect = underline.get_bounding_client_rect();
        let init = MouseEventInit::new();
        init.set_bubbles(true);
        init.set_client_x((rect.left() + rect.width() / 2.0) as i32);
        init.set_client_y((rect.top() + rect.height() / 2.0) as i32);
        let event = MouseEvent::new_with_mouse_event_init_dict("mousemove", &init).unwrap();
        underline.dispatch_event(&event).unwrap();
        assert!(wait_for(&root, ".cm-diagnostic-tooltip").await, "no tooltip on hover");
        assert_eq!(text(&root, ".cm-diagnostic-tooltip"), "error[syntax-error]: expected an expression <b>here</b>");
        assert_eq!(count(&root, ".cm-diagnostic-tooltip b"), 0, "messages are text");
    }

    #[wasm_bindgen_test]
    async fn diagnostics_of_another_text_are_not_shown() {
        let handle = EditorHandle::default();
        let diagnostic = interleave_engine::diag::Diagnostic::error("syntax-error", "bad").with_span(interleave_engine::diag::Span::new(0, 3), "here");
        let root = mount(Props { diagnostics: Rc::new(vec![diagnostic]), diagnostics_source: "something else".into(), ..props("int x;\n", &handle) }).await;
        assert_eq!(count(&root, ".cm-diagnostic-underline"), 0);
    }

    #[wasm_bindgen_test]
    async fn findings_sit_in_the_gutter_and_answer_clicks() {
        let clicked = Rc::new(Cell::new(None));
        let on_gutter_finding = {
            let clicked = clicked.clone();
            Callback::from(move |line| clicked.set(Some(line)))
        };
        let handle = EditorHandle::default();
        let root = mount(Props {
            findings: Rc::new(vec![
                finding(3, Severity::Warning, "a benign race"),
                finding(3, Severity::Error, "a race on x"),
                finding(0, Severity::Error, "no place"),
            ]),
            on_gutter_finding,
            ..props("a\nb\nc\nd\n", &handle)
        })
        .await;
        assert_eq!(count(&root, ".cm-finding-marker[data-line]"), 1);
        let marker = find(&root, ".cm-finding-marker[data-line=\"3\"]");
        assert!(marker.class_list().contains("cm-finding-error"));
        assert_eq!(marker.get_attribute("title").as_deref(), Some("data-race: a benign race\ndata-race: a race on x"));
        marker.unchecked_ref::<HtmlElement>().click();
        settle().await;
        assert_eq!(clicked.get(), Some(3));
    }

    #[wasm_bindgen_test]
    async fn select_moves_the_selection_into_view() {
        // Multi-byte characters before the target check the byte to UTF-16 conversion.
        let mut source = String::new();
        for i in 1..=200 {
            source.push_str(&format!("// é𝑥 line {i}\n"));
        }
        source.push_str("int target;\n");
        let handle = EditorHandle::default();
        let root = mount(props(&source, &handle)).await;
        find(&root, "#editor").set_attribute("style", "height: 150px; display: flex").unwrap();
        settle().await;
        let start = source.find("target").unwrap();
        handle.select(start, start + "target".len());
        handle.focus();
        settle().await;
        assert_eq!(count(&root, "#editor[data-selection-line=\"201\"]"), 1);
        let selection = gloo::utils::window().get_selection().unwrap().unwrap();
        assert_eq!(String::from(selection.to_string()), "target");
        // The line is on screen inside the scrolled editor.
        let scroller = find(&root, ".cm-scroller").get_bounding_client_rect();
        let lines = root.query_selector_all(".cm-line").unwrap();
        let line = (0..lines.length())
            .filter_map(|i| lines.get(i))
            .map(|n| n.unchecked_into::<Element>())
            .find(|l| l.text_content().as_deref() == Some("int target;"))
            .expect("the target line is drawn");
        let rect = line.get_bounding_client_rect();
        assert!(
            rect.top() >= scroller.top() && rect.bottom() <= scroller.bottom(),
            "line at {}..{}, editor at {}..{}",
            rect.top(),
            rect.bottom(),
            scroller.top(),
            scroller.bottom()
        );
        assert_eq!(handle.text().as_deref(), Some(source.as_str()));
    }

    #[wasm_bindgen_test]
    async fn a_litmus_test_is_highlighted_with_its_own_words() {
        let handle = EditorHandle::default();
        let root = mount(Props { litmus: true, theme: Theme::Dark, ..props(include_str!("../../static/examples/litmus/mp.litmus"), &handle) }).await;
        assert_eq!(find(&root, ".cm-content").get_attribute("aria-label").as_deref(), Some("Litmus test"));
        // `global`, `atomic_int`, `atomic_store_explicit` and `memory_order_relaxed`.
        assert!(count(&root, ".cm-gpu-qualifier") >= 4);
        assert!(count(&root, ".cm-gpu-type") >= 4);
        assert!(count(&root, ".cm-gpu-builtin") >= 4);
        assert!(count(&root, ".cm-gpu-constant") >= 4);
    }
}

mod launch_and_files {
    //! The launch panel's table and settings, opened files, and the inputs kept across
    //! reloads.

    use super::*;
    use gloo::storage::{LocalStorage, Storage};
    use interleave_app::inputs::{self, InputEdit, STORAGE_KEY};
    use interleave_app::state::{Action, State};
    use js_sys::Array;
    use web_sys::{DataTransfer, DragEvent, DragEventInit, File};

    fn value(root: &Element, selector: &str) -> String {
        let element = find(root, selector);
        match element.dyn_ref::<HtmlInputElement>() {
            Some(input) => input.value(),
            None => element.unchecked_ref::<web_sys::HtmlSelectElement>().value(),
        }
    }

    fn param_rows(root: &Element) -> Vec<String> {
        let rows = root.query_selector_all("#args-table tr[data-param]").unwrap();
        (0..rows.length()).filter_map(|i| rows.get(i)).filter_map(|n| n.dyn_into::<Element>().ok()).filter_map(|e| e.get_attribute("data-param")).collect()
    }

    #[wasm_bindgen_test]
    async fn the_table_fills_from_the_kernel_s_signature() {
        let root = mount_app().await;
        assert_eq!(param_rows(&root), ["ids", "counters"]);
        // The example's launch is in the table's fields.
        assert_eq!(value(&root, "#arg-counters-kind"), "buffer");
        assert_eq!(value(&root, "#arg-counters-init"), "fill");
        assert_eq!(value(&root, "#arg-counters-len"), "2");
        type_into_editor(&root, "__kernel void k(__global float *out, __local int *tmp, uint n) { out[0] = n; }", true).await;
        assert_eq!(param_rows(&root), ["out", "tmp", "n"]);
        assert!(text(&root, "tr[data-param=\"out\"] .param-type").contains("__global float*"));
        assert_eq!(value(&root, "#arg-out-kind"), "default");
        // A scalar has no default: Run waits for its value, and says why.
        assert!(disabled(&root, "#run"));
        assert_eq!(count(&root, "tr[data-param=\"n\"].invalid"), 1);
        assert!(text(&root, "#launch-problems").contains("argument `n`"));
        type_into(&root, "#arg-n-value", "5").await;
        assert_eq!(value(&root, "#arg-n-text"), "n=uint:5");
        assert!(!disabled(&root, "#run"));
        // The rows of the old parameters are set aside, not lost.
        assert_eq!(count(&root, "tr.set-aside"), 2);
        // Choosing a buffer for `out` passes one, as the CLI's text.
        choose(&root, "#arg-out-kind", "buffer").await;
        assert_eq!(value(&root, "#arg-out-text"), "out=float[8]");
        choose(&root, "#arg-out-init", "range").await;
        type_into(&root, "#arg-out-step", "0.5").await;
        assert_eq!(value(&root, "#arg-out-text"), "out=float[8]:range=0:0.5");
        click(&root, "#run").await;
        for _ in 0..100 {
            if status(&root) != "running" {
                break;
            }
            TimeoutFuture::new(50).await;
        }
        assert_eq!(status(&root), "completed");
    }

    #[wasm_bindgen_test]
    async fn an_invalid_table_field_is_flagged_and_blocks_the_run() {
        let root = mount_app().await;
        type_into(&root, "#arg-ids-len", "0").await;
        let input = find(&root, "#arg-ids-len");
        assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
        assert_eq!(input.get_attribute("aria-describedby").as_deref(), Some("arg-ids-len-error"));
        assert!(text(&root, "#arg-ids-len-error").contains("at least 1"));
        assert!(disabled(&root, "#run") && disabled(&root, "#step"));
        assert!(disabled(&root, "#download-scenario"));
        type_into(&root, "#arg-ids-len", "8").await;
        assert_eq!(count(&root, "#arg-ids-len-error"), 0);
        assert!(!disabled(&root, "#run"));
        // The settings under "More" are checked the same way, and open to show the problem.
        type_into(&root, "#max-steps", "0").await;
        assert_eq!(find(&root, "#max-steps").get_attribute("aria-invalid").as_deref(), Some("true"));
        assert!(find(&root, "#launch-more").has_attribute("open"));
        assert!(disabled(&root, "#run"));
    }

    #[wasm_bindgen_test]
    async fn settings_follow_the_dialect_and_scheduler() {
        let root = mount_app().await;
        assert_eq!(count(&root, "#pct-depth"), 0);
        choose(&root, "#scheduler", "pct").await;
        assert_eq!(value(&root, "#pct-depth"), "3");
        choose(&root, "#scheduler", "lockstep").await;
        assert_eq!(count(&root, "#pct-depth"), 0);
        choose(&root, "#dialect", "cuda").await;
        assert_eq!((value(&root, "#grid"), value(&root, "#block")), ("2".into(), "4".into()));
        assert_eq!(count(&root, "#offset") + count(&root, "#global"), 0);
        choose(&root, "#dialect", "opencl").await;
        assert_eq!(value(&root, "#global"), "8");
        for id in ["#warp-size", "#resident-groups", "#progress", "#granularity", "#max-steps"] {
            assert_eq!(count(&root, id), 1, "{id}");
        }
    }

    #[wasm_bindgen_test]
    async fn a_stored_scenario_is_restored_on_start() {
        let mut state = State::default();
        for action in [
            Action::Edit(InputEdit::Global("16".into())),
            Action::Edit(InputEdit::ArgText { param: "ids".into(), text: "ids=int[16]".into() }),
            Action::Edit(InputEdit::MaxSteps("500".into())),
        ] {
            state = interleave_app::state::reduce(&state, action);
        }
        LocalStorage::clear();
        LocalStorage::raw().set_item(STORAGE_KEY, &inputs::encode(inputs::Inputs::clone(&state.inputs), true, None)).unwrap();
        let root = fresh_root();
        yew::Renderer::<App>::with_root(root.clone()).render();
        settle().await;
        assert_eq!(value(&root, "#global"), "16");
        assert_eq!(value(&root, "#arg-ids-text"), "ids=int[16]");
        assert_eq!(value(&root, "#max-steps"), "500");
        assert_eq!(count(&root, "#lanes[data-work-items=\"16\"]"), 1);
        // An edit is written back a moment later.
        type_into(&root, "#seed", "77").await;
        TimeoutFuture::new(600).await;
        let stored = inputs::decode(&LocalStorage::raw().get_item(STORAGE_KEY).unwrap().unwrap()).unwrap();
        assert_eq!(stored.current.seed, "77");
        // A damaged value is set aside, and the page starts from the example.
        LocalStorage::raw().set_item(STORAGE_KEY, "{not json").unwrap();
        let root = fresh_root();
        yew::Renderer::<App>::with_root(root.clone()).render();
        settle().await;
        assert_eq!(value(&root, "#global"), "8");
        assert_eq!(LocalStorage::raw().get_item("interleave.inputs.unreadable").unwrap().as_deref(), Some("{not json"));
    }

    #[wasm_bindgen_test]
    async fn loading_over_edits_keeps_them_one_click_away() {
        let root = mount_app().await;
        assert_eq!(count(&root, "#restore-edits"), 0);
        type_into(&root, "#global", "3").await;
        choose(&root, "#examples", "litmus/mp.litmus").await;
        assert!(text(&root, "#restore-edits").contains("your previous edits are kept"));
        click(&root, "#restore-edits-button").await;
        assert_eq!(value(&root, "#global"), "3");
        assert!(text(&root, "#restore-edits").contains("Back to MP"));
        click(&root, "#restore-edits-dismiss").await;
        assert_eq!(count(&root, "#restore-edits"), 0);
    }

    fn file(name: &str, text: &str) -> File {
        let parts = Array::of1(&text.into());
        File::new_with_str_sequence(&parts, name).unwrap()
    }

    fn transfer(files: &[File]) -> DataTransfer {
        let transfer = DataTransfer::new().unwrap();
        for f in files {
            transfer.items().add_with_file(f).unwrap();
        }
        transfer
    }

    /// Waits until the files are read (a reader reports in a later task).
    async fn until(root: &Element, probe: impl Fn(&Element) -> bool) {
        for _ in 0..100 {
            if probe(root) {
                return;
            }
            TimeoutFuture::new(30).await;
        }
    }

    #[wasm_bindgen_test]
    async fn files_open_from_the_picker_and_by_dropping() {
        let root = mount_app().await;
        // The picker: a scenario file with its kernel, chosen together.
        let input = find(&root, "#open-file-input").unchecked_into::<HtmlInputElement>();
        let chosen = transfer(&[
            file("t.toml", "source_file = \"t.cl\"\nseed = 9\n[launch]\nglobal = [6]\nlocal = [3]\n"),
            file("t.cl", "__kernel void t(__global int *p, int n) { p[0] = n; }"),
        ]);
        input.set_files(chosen.files().as_ref());
        let init = EventInit::new();
        init.set_bubbles(true);
        input.dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
        until(&root, |root| value(root, "#global") == "6").await;
        assert_eq!(value(&root, "#seed"), "9");
        assert_eq!(param_rows(&root), ["p", "n"]);
        // Dropping a scenario file alone explains that its kernel is needed.
        let dropped = transfer(&[file("u.toml", "source_file = \"u.cl\"\n")]);
        let init = DragEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_data_transfer(Some(&dropped));
        let target = find(&root, "#lanes");
        target.dispatch_event(&DragEvent::new_with_event_init_dict("dragenter", &init).unwrap()).unwrap();
        settle().await;
        assert_eq!(count(&root, "#drop-target"), 1);
        target.dispatch_event(&DragEvent::new_with_event_init_dict("drop", &init).unwrap()).unwrap();
        until(&root, |root| count(root, "#diagnostics .diagnostic") > 0).await;
        assert_eq!(count(&root, "#drop-target"), 0);
        let problem = text(&root, "#diagnostics");
        assert!(problem.contains("`u.cl`") && problem.contains("together"), "{problem}");
        assert_eq!(value(&root, "#global"), "6", "nothing was replaced");
        // A kernel dropped alone replaces the source and keeps the launch.
        let kernel = transfer(&[file("k.cu", "__global__ void k(int *q) { q[threadIdx.x] = 1; }")]);
        init.set_data_transfer(Some(&kernel));
        target.dispatch_event(&DragEvent::new_with_event_init_dict("drop", &init).unwrap()).unwrap();
        until(&root, |root| param_rows(root) == ["q"]).await;
        assert_eq!(value(&root, "#dialect"), "cuda");
        assert_eq!((value(&root, "#grid"), value(&root, "#block")), ("2".into(), "3".into()));
        assert_eq!(count(&root, "#diagnostics .diagnostic"), 0);
    }
}

/// Puts `href` in the address bar without navigating (and without a `hashchange`).
fn set_address(href: &str) {
    let history = gloo::utils::window().history().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href)).unwrap();
}

#[wasm_bindgen_test]
async fn share_writes_the_link_of_this_state_and_a_page_opened_on_it_restores_it() {
    let original = gloo::utils::window().location().href().unwrap();
    let root = mount_app().await;
    for _ in 0..3 {
        click(&root, "#step").await;
    }
    assert_eq!(steps(&root), 3);
    click(&root, ".lane[data-work-item=\"1\"] button.wi").await;
    click(&root, "#share").await;
    let url = find(&root, "#share-url").unchecked_into::<HtmlInputElement>().value();
    let address = gloo::utils::window().location().href().unwrap();
    // Restored before any assertion, so a failure here does not leave a link to later tests.
    set_address(&original);
    assert_eq!(address, url, "the link is in the address bar");
    let link = interleave_engine::link::decode(&url).expect("a link the engine reads");
    assert_eq!(link.view.step, Some(3));
    assert_eq!(link.view.selected, Some(1));
    assert_eq!(link.view.panel.as_deref(), Some("work-item"));
    assert!(link.scenario.source.contains("__kernel"));

    // A page that starts on the link runs to its step and selects its work-item.
    set_address(&url);
    let opened = mount_app().await;
    set_address(&original);
    for _ in 0..100 {
        if steps(&opened) == 3 && status(&opened) == "running" {
            break;
        }
        TimeoutFuture::new(50).await;
    }
    settle().await;
    assert_eq!(steps(&opened), 3);
    assert_eq!(count(&opened, ".lane.selected[data-work-item=\"1\"]"), 1);
}

#[wasm_bindgen_test]
async fn a_broken_link_is_a_problem_shown_as_text_and_the_page_stays_usable() {
    let original = gloo::utils::window().location().href().unwrap();
    let base = original.split('#').next().unwrap().to_string();
    set_address(&format!("{base}#v1.PGI-bm90PC9iPg"));
    let root = mount_app().await;
    set_address(&original);
    let problems = find(&root, "#diagnostics").text_content().unwrap_or_default();
    assert!(problems.contains("invalid-link"), "{problems}");
    assert_eq!(count(&root, "#diagnostics b"), 0);
    assert!(editor_text(&root).contains("__kernel"), "the default example stays");
    click(&root, "#step").await;
    assert_eq!(steps(&root), 1);
}

/// The tutorial's lesson pane on its own, and the app under `?lesson=` and `?embed=1`.
mod tutorial_pane {
    use std::cell::RefCell;

    use super::*;
    use interleave_app::components::tutorial::{Props, TutorialPane};
    use interleave_app::lessons::{self, Progress, PROGRESS_KEY};

    struct Heard {
        navigated: Rc<RefCell<Vec<Option<usize>>>>,
        reset: Rc<RefCell<Vec<usize>>>,
    }

    async fn mount_pane(lesson: Option<usize>, scenario: Option<Rc<interleave_engine::scenario::Scenario>>) -> (Element, Heard) {
        let heard = Heard { navigated: Rc::default(), reset: Rc::default() };
        let (navigated, reset) = (heard.navigated.clone(), heard.reset.clone());
        let props = Props {
            lesson,
            scenario,
            on_navigate: yew::Callback::from(move |to| navigated.borrow_mut().push(to)),
            on_reset: yew::Callback::from(move |at| reset.borrow_mut().push(at)),
            // Nothing is served there: a check must fail cleanly, not hang.
            worker_url: "./no-such-worker.js".into(),
        };
        let root = fresh_root();
        yew::Renderer::<TutorialPane>::with_root_and_props(root.clone(), props).render();
        settle().await;
        (root, heard)
    }

    /// Opens the app at `search` (the address's query), and puts the address back after.
    struct AtAddress(String);

    impl AtAddress {
        fn new(search: &str) -> AtAddress {
            let window = gloo::utils::window();
            let before = window.location().href().unwrap();
            let path = window.location().pathname().unwrap();
            window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{search}"))).unwrap();
            AtAddress(before)
        }
    }

    impl Drop for AtAddress {
        fn drop(&mut self) {
            let _ = gloo::utils::window().history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&self.0));
        }
    }

    #[wasm_bindgen_test]
    async fn a_lesson_shows_prose_task_and_hints_one_at_a_time() {
        <gloo::storage::LocalStorage as gloo::storage::Storage>::clear();
        let all = lessons::all();
        let at = lessons::position("spin-lock").unwrap();
        let lesson = &all[at];
        let (root, heard) = mount_pane(Some(at), None).await;
        assert_eq!(find(&root, ".lesson-pane").get_attribute("data-lesson").as_deref(), Some("spin-lock"));
        assert_eq!(text(&root, "#lesson-title"), lesson.title);
        assert_eq!(count(&root, ".lesson-pane > p"), lesson.prose.len() as u32);
        // Backticks become code elements; the text stays text.
        assert!(count(&root, ".lesson-pane > p code") > 0);
        assert!(text(&root, ".lesson-count").contains(&format!("Lesson {} of {}", at + 1, all.len())));
        assert_eq!(count(&root, ".lesson-hints li"), 0);
        for shown in 1..=lesson.hints.len() {
            click(&root, "#lesson-hint").await;
            assert_eq!(count(&root, ".lesson-hints li"), shown as u32);
        }
        assert!(disabled(&root, "#lesson-hint"), "no hint is left");
        click(&root, "#lesson-reset").await;
        assert_eq!(*heard.reset.borrow(), vec![at]);
        click(&root, ".lesson-next").await;
        click(&root, ".lesson-prev").await;
        click(&root, ".lesson-all").await;
        assert_eq!(*heard.navigated.borrow(), vec![Some(at + 1), Some(at - 1), None]);
        // Without a valid scenario, Check says what to fix instead of starting.
        click(&root, "#lesson-check").await;
        assert!(text(&root, ".check-result.failed").contains("launch panel"), "{}", text(&root, ".lesson-pane"));
    }

    #[wasm_bindgen_test]
    async fn a_check_whose_worker_cannot_load_fails_cleanly() {
        <gloo::storage::LocalStorage as gloo::storage::Storage>::clear();
        let all = lessons::all();
        let scenario = Rc::new(all[0].scenario.clone());
        let (root, _) = mount_pane(Some(0), Some(scenario)).await;
        click(&root, "#lesson-check").await;
        for _ in 0..200 {
            if count(&root, ".check-result.failed") == 1 {
                break;
            }
            TimeoutFuture::new(50).await;
        }
        assert!(text(&root, ".check-result.failed").contains("could not"), "{}", text(&root, ".lesson-pane"));
        assert_eq!(count(&root, "#lesson-check"), 1, "a new check can start");
    }

    #[wasm_bindgen_test]
    async fn the_list_shows_every_lesson_and_the_stored_progress() {
        <gloo::storage::LocalStorage as gloo::storage::Storage>::clear();
        let mut progress = Progress::default();
        progress.passed.insert("lost-updates".into());
        progress.passed.insert("threadfence".into());
        <gloo::storage::LocalStorage as gloo::storage::Storage>::raw().set_item(PROGRESS_KEY, &progress.encode()).unwrap();
        let (root, heard) = mount_pane(None, None).await;
        let all = lessons::all();
        assert_eq!(count(&root, ".lesson-list li"), all.len() as u32);
        assert_eq!(count(&root, ".lesson-list li.passed"), 2);
        assert_eq!(count(&root, ".lesson-list li.passed[data-lesson=\"threadfence\"]"), 1);
        assert_eq!(text(&root, ".lesson-progress"), format!("2 of {} lessons passed", all.len()));
        click(&root, ".lesson-list li[data-lesson=\"cuda-votes\"] a").await;
        assert_eq!(*heard.navigated.borrow(), vec![lessons::position("cuda-votes")]);
    }

    #[wasm_bindgen_test]
    async fn a_lesson_address_opens_its_pane_and_code_and_next_moves_on() {
        let _address = AtAddress::new("?lesson=atomic-wrap");
        let root = mount_app().await;
        assert_eq!(find(&root, ".lesson-pane").get_attribute("data-lesson").as_deref(), Some("atomic-wrap"));
        assert!(editor_text(&root).contains("atomicAdd(&head[0], 1u)"), "{}", editor_text(&root));
        assert_eq!(count(&root, ".masthead"), 1);
        click(&root, ".lesson-next").await;
        assert_eq!(find(&root, ".lesson-pane").get_attribute("data-lesson").as_deref(), Some("device-malloc"));
        assert!(editor_text(&root).contains("malloc("), "{}", editor_text(&root));
        assert!(gloo::utils::window().location().search().unwrap().contains("lesson=device-malloc"));
    }

    #[wasm_bindgen_test]
    async fn embedding_shows_only_the_editor_the_controls_and_the_timeline() {
        let _address = AtAddress::new("?lesson=spin-lock&embed=1");
        let root = mount_app().await;
        for chrome in [".masthead", ".inspector-column", ".results", ".launch", "#examples", "#share", ".lesson-pane", "#explore-start"] {
            assert_eq!(count(&root, chrome), 0, "{chrome} is shown");
        }
        assert!(editor_text(&root).contains("atomic_int lock"), "{}", editor_text(&root));
        assert_eq!(count(&root, "#lanes"), 1);
        click(&root, "button#step").await;
        assert_eq!(find(&root, "#status").get_attribute("data-steps").as_deref(), Some("1"));
        let full = find(&root, "#open-full").get_attribute("href").unwrap();
        assert!(full.contains("?lesson=spin-lock#v1.") && !full.contains("embed"), "{full}");
    }
}

#[wasm_bindgen_test]
async fn an_example_address_embeds_that_example() {
    let window = gloo::utils::window();
    let before = window.location().href().unwrap();
    let path = window.location().pathname().unwrap();
    window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}?example=litmus/mp.litmus&embed=1"))).unwrap();
    let root = mount_app().await;
    window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&before)).unwrap();
    assert!(editor_text(&root).starts_with("OPENCL MP"), "{}", editor_text(&root));
    assert_eq!(count(&root, ".masthead"), 0);
    let full = find(&root, "#open-full").get_attribute("href").unwrap();
    assert!(full.contains("?example=litmus/mp.litmus#v1."), "{full}");
}

/// The value of an input or select.
fn input_value(root: &Element, selector: &str) -> String {
    let element = find(root, selector);
    match element.dyn_ref::<HtmlInputElement>() {
        Some(input) => input.value(),
        None => element.unchecked_ref::<web_sys::HtmlSelectElement>().value(),
    }
}

/// The address without its query or fragment.
fn page_path(href: &str) -> String {
    href.split(['?', '#']).next().unwrap_or_default().to_string()
}

#[wasm_bindgen_test]
async fn the_gallery_shows_a_card_per_entry_and_loads_an_example_into_the_workbench() {
    let original = gloo::utils::window().location().href().unwrap();
    let root = mount_app().await;
    assert_eq!(count(&root, "#gallery"), 0, "the workbench comes first");
    // Edits first, so that loading an example keeps them one click away.
    type_into_editor(&root, "// mine\n", false).await;
    click(&root, "#gallery-open").await;
    let address = gloo::utils::window().location().href().unwrap();
    assert!(address.ends_with("?gallery"), "{address}");
    assert_eq!(count(&root, "#gallery .gallery-card"), 15);
    assert!(find(&root, ".workbench").has_attribute("hidden"), "the workbench is hidden under the gallery");
    let card = text(&root, "#gallery-barrier-in-if");
    assert!(card.contains("A barrier inside if (get_local_id(0) < 16)"), "{card}");
    assert!(card.contains("Lesson: "), "{card}");
    assert!(card.contains("OpenCL C"), "{card}");
    assert!(card.contains("barrier-divergence"), "the expected finding is on the card: {card}");
    assert!(text(&root, "#gallery-votes").contains("CUDA"));
    assert!(text(&root, "#gallery-message-passing").contains("litmus"));
    assert_eq!(count(&root, "#gallery-cas-product .gallery-variant"), 3);
    assert_eq!(count(&root, "#gallery-cas-product .description .line"), 2, "two lines of description");

    click(&root, "#load-barrier_in_if").await;
    let address = gloo::utils::window().location().href().unwrap();
    set_address(&original);
    assert!(address.ends_with("?example=barrier_in_if"), "{address}");
    assert_eq!(count(&root, "#gallery"), 0);
    assert!(!find(&root, ".workbench").has_attribute("hidden"));
    assert!(editor_text(&root).contains("if (l < 16) {"), "the example's kernel is in the editor");
    assert_eq!((input_value(&root, "#global"), input_value(&root, "#local")), ("64".into(), "32".into()));
    assert!(text(&root, "#restore-edits").contains("your previous edits are kept"));
    // The picker shows the example it loaded, among the kernels.
    let select = find(&root, "#examples").unchecked_into::<web_sys::HtmlSelectElement>();
    assert_eq!(select.value(), "barrier_in_if.toml");
    let kernels = find(&root, "#examples optgroup[label=\"Kernels\"]").text_content().unwrap_or_default();
    assert!(kernels.contains("barrier_in_if.toml") && kernels.contains("warp_votes.toml"), "{kernels}");
    let litmus = find(&root, "#examples optgroup[label=\"Litmus tests\"]").text_content().unwrap_or_default();
    assert!(litmus.contains("mp_relaxed.toml"), "{litmus}");

    // It runs to its finding.
    click(&root, "#run").await;
    wait_while_running(&root).await;
    let findings = text(&root, "#findings");
    assert!(findings.contains("barrier divergence"), "{findings}");
}

#[wasm_bindgen_test]
async fn an_example_address_loads_it_and_back_returns_to_the_gallery() {
    let original = gloo::utils::window().location().href().unwrap();
    let path = page_path(&original);
    set_address(&format!("{path}?example=interwork-reduction"));
    let root = mount_app().await;
    assert!(editor_text(&root).contains("atomic_xchg"), "the entry's first variant is loaded");
    assert_eq!(input_value(&root, "#seed"), "3");
    assert_eq!(count(&root, "#gallery"), 0);
    // A page opened on `?gallery` shows it, and the browser's Back (a popstate) follows the
    // address.
    set_address(&format!("{path}?gallery"));
    let gallery = mount_app().await;
    assert_eq!(count(&gallery, "#gallery .gallery-card"), 15);
    click(&gallery, "#load-ring_buffer").await;
    assert_eq!(count(&gallery, "#gallery"), 0);
    assert!(editor_text(&gallery).contains("atomicInc"));
    gloo::utils::window().history().unwrap().back().unwrap();
    for _ in 0..100 {
        if count(&gallery, "#gallery") == 1 {
            break;
        }
        TimeoutFuture::new(20).await;
    }
    settle().await;
    let address = gloo::utils::window().location().href().unwrap();
    set_address(&original);
    assert!(address.ends_with("?gallery"), "{address}");
    assert_eq!(count(&gallery, "#gallery"), 1, "Back returns to the gallery");
    // Closing it goes back to the workbench, with the example still loaded.
    click(&gallery, "#gallery-close").await;
    set_address(&original);
    assert_eq!(count(&gallery, "#gallery"), 0);
    assert!(editor_text(&gallery).contains("atomicInc"));
}
