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
    Element, Event, EventInit, EventTarget, HtmlButtonElement, HtmlDocument, HtmlElement,
    HtmlInputElement, HtmlTextAreaElement, KeyboardEvent, KeyboardEventInit,
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
    let root = fresh_root();
    yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    root
}

fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
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
        element
            .unchecked_ref::<HtmlTextAreaElement>()
            .set_value(value);
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
        _ => key
            .chars()
            .next()
            .map_or(0, |c| c.to_ascii_uppercase() as u32),
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
    assert!(document
        .exec_command_with_show_ui_and_value("insertText", false, text)
        .unwrap());
    settle().await;
}

fn disabled(root: &Element, selector: &str) -> bool {
    find(root, selector)
        .unchecked_into::<HtmlButtonElement>()
        .disabled()
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
    find(root, "#status")
        .get_attribute("data-status")
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_editor_starts_with_the_example() {
    let root = mount_app().await;
    assert_eq!(count(&root, "#editor .cm-editor"), 1);
    let source = editor_text(&root);
    assert!(source.contains("__kernel void count"), "{source}");
    assert_eq!(source, include_str!("../../static/examples/count.cl"));
    assert_eq!(
        count(&root, ".cm-content .cm-line") as usize,
        source.split('\n').count()
    );
    assert_eq!(
        find(&root, ".cm-content")
            .get_attribute("aria-label")
            .as_deref(),
        Some("Kernel source")
    );
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
    assert_eq!(count(&root, ".mark"), 2);
    let after_one = {
        click(&root, "#step-back").await;
        find(&root, "#lanes").inner_html()
    };
    assert_eq!(count(&root, ".mark"), 1);
    // Forward again and back again: the same picture, because time travel is exact.
    click(&root, "#step").await;
    click(&root, "#step-back").await;
    assert_eq!(find(&root, "#lanes").inner_html(), after_one);
    click(&root, "#step-back").await;
    assert_eq!(count(&root, ".mark"), 0);
    assert!(disabled(&root, "#step-back"));
}

#[wasm_bindgen_test]
async fn a_lane_button_steps_that_work_item() {
    let root = mount_app().await;
    click(&root, "#step").await;
    let before = count(&root, ".lane[data-work-item=\"6\"] .mark");
    click(&root, ".lane[data-work-item=\"6\"] .lane-step").await;
    assert_eq!(
        count(&root, ".lane[data-work-item=\"6\"] .mark"),
        before + 1
    );
    assert_eq!(count(&root, ".mark"), 2);
}

#[wasm_bindgen_test]
async fn one_step_creates_every_lane_and_one_mark() {
    let root = mount_app().await;
    click(&root, "#step").await;
    assert_eq!(count(&root, ".lane"), 8);
    assert_eq!(count(&root, ".mark"), 1);
    assert_eq!(count(&root, ".group"), 2);
    assert_eq!(status(&root), "running");
    for index in 0..8 {
        assert_eq!(
            count(&root, &format!(".lane[data-work-item=\"{index}\"]")),
            1
        );
    }
    let mark = find(&root, ".mark");
    assert!(mark
        .get_attribute("title")
        .unwrap_or_default()
        .starts_with("step "));
    click(&root, "#step").await;
    assert_eq!(count(&root, ".mark"), 2);
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
    assert_eq!(count(&root, ".lane .mark-finish"), 8);
    // Reset starts over from step 0.
    click(&root, "#reset").await;
    assert_eq!(status(&root), "running");
    assert_eq!(count(&root, ".mark"), 0);
    assert!(!disabled(&root, "#step"));
}

#[wasm_bindgen_test]
async fn invalid_sizes_are_flagged_inline_and_block_the_run() {
    let root = mount_app().await;
    assert!(!disabled(&root, "#run"));
    for bad in ["0", "abc"] {
        type_into(&root, "#global", bad).await;
        assert_eq!(count(&root, ".field.invalid #global"), 1, "{bad}");
        assert_eq!(
            find(&root, "#global")
                .get_attribute("aria-invalid")
                .as_deref(),
            Some("true")
        );
        assert!(!find(&root, "#global-error")
            .text_content()
            .unwrap_or_default()
            .is_empty());
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
    let underline = find(
        &root,
        "#editor .cm-diagnostic-underline.cm-diagnostic-primary",
    );
    assert_eq!(underline.text_content().as_deref(), Some(";"));
}

#[wasm_bindgen_test]
async fn diagnostics_show_source_as_text() {
    let root = fresh_root();
    let source = "int <b>x</b> = 1;\n";
    let start = source.find("<b>").unwrap() as u32;
    let diagnostic = Diagnostic::error("syntax-error", "unexpected `<`")
        .with_span(Span::new(start, start + 3), "here")
        .with_note("a note")
        .with_help("some help");
    let props = DiagnosticsProps {
        diagnostics: Rc::new(vec![diagnostic]),
        source: source.into(),
        file_name: "kernel.cl".into(),
        stale: false,
    };
    yew::Renderer::<Diagnostics>::with_root_and_props(root.clone(), props).render();
    settle().await;
    assert_eq!(count(&root, "b"), 0, "source text must never become markup");
    let text = find(&root, ".snippet").text_content().unwrap_or_default();
    assert!(text.contains("--> kernel.cl:1:5"), "{text}");
    assert!(text.contains("1 | int <b>x</b> = 1;"), "{text}");
    assert!(text.contains("    ^^^ here"), "{text}");
    assert!(
        text.contains("= note: a note") && text.contains("= help: some help"),
        "{text}"
    );
    let head = find(&root, ".diag-head").text_content().unwrap_or_default();
    assert_eq!(head, "error[syntax-error]: unexpected `<`");
}

#[wasm_bindgen_test]
async fn shortcuts_step_but_not_while_typing() {
    let root = mount_app().await;
    let source = find(&root, ".cm-content");
    press(&source, "s").await;
    assert_eq!(
        count(&root, ".lane"),
        0,
        "a key typed into the editor is text, not a shortcut"
    );
    press(&find(&root, "#lanes"), "s").await;
    assert_eq!(count(&root, ".lane"), 8);
    assert!(count(&root, ".mark") >= 1);
}

#[wasm_bindgen_test]
async fn tab_indents_in_the_editor() {
    let root = mount_app().await;
    let content = find(&root, ".cm-content").unchecked_into::<HtmlElement>();
    content.focus().unwrap();
    // The cursor starts at the beginning of the text.
    assert!(!press(&content, "Tab").await, "the editor handles Tab");
    assert!(
        editor_text(&root).starts_with("    // Lost updates"),
        "{}",
        editor_text(&root)
    );
    // Escape first lets Tab leave the editor instead: the editor leaves the key to the
    // browser, which moves the focus on.
    press(&content, "Escape").await;
    assert!(
        press(&content, "Tab").await,
        "Tab after Escape is not taken"
    );
    assert!(!editor_text(&root).starts_with("        "));
}

/// Chooses `value` in the `<select>` matched by `selector`, as a user would: set the value,
/// then fire a bubbling `change` event.
async fn choose(root: &Element, selector: &str, value: &str) {
    let element = find(root, selector);
    element
        .unchecked_ref::<web_sys::HtmlSelectElement>()
        .set_value(value);
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
        .map(|i| {
            root.query_selector_all(".lane .wi")
                .unwrap()
                .get(i)
                .and_then(|n| n.text_content())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(labels, ["P0 (wg 0)", "P1 (wg 1)"]);
    let registers = text(&root, "#registers");
    assert!(
        registers.contains("1:r0=") && registers.contains("1:r1="),
        "{registers}"
    );
    assert!(find(&root, "#registers")
        .get_attribute("data-exists")
        .is_some());
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
        if find(&root, "#explore-status")
            .get_attribute("data-phase")
            .as_deref()
            == Some("failed")
        {
            break;
        }
        TimeoutFuture::new(50).await;
    }
    assert_eq!(
        find(&root, "#explore-status")
            .get_attribute("data-phase")
            .as_deref(),
        Some("failed"),
        "{}",
        text(&root, "#explore-status")
    );
    assert!(
        !disabled(&root, "#explore-start"),
        "a new exploration can start"
    );
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
        let mut scenario = Scenario::new(
            include_str!("../../static/examples/litmus/mp.litmus"),
            "test.litmus",
            Dialect::Litmus,
        );
        scenario.memory_model = MemoryModel::Relaxed;
        let config = Config {
            runs: 0,
            first_seed: 0,
            exhaustive: true,
            max_preemptions: None,
        };
        let exploration = Rc::new(explore_with(&scenario, config).unwrap());
        ExploreRun {
            id: 1,
            mode: ExploreMode::Exhaustive,
            scenario: Rc::new(scenario),
            parts: vec![Part {
                executions: exploration.runs,
                budget: 1_000_000,
                result: Some(exploration.clone()),
                stopped: false,
            }],
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
        };
        yew::Renderer::<ExplorePanel>::with_root_and_props(root.clone(), props).render();
        settle().await;
        root
    }

    #[wasm_bindgen_test]
    async fn outcomes_show_in_the_chart_and_the_table_with_the_weak_one_marked() {
        let loaded = Rc::new(Cell::new(None));
        let root = mount(weak_mp(), false, loaded.clone()).await;
        assert_eq!(
            find(&root, "#explore-status")
                .get_attribute("data-phase")
                .as_deref(),
            Some("done")
        );
        assert_eq!(count(&root, "#explore-outcomes tbody tr"), 4);
        assert_eq!(
            count(&root, "#explore-outcomes tr[data-exists=\"true\"]"),
            1
        );
        let weak = text(&root, "#explore-outcomes tr[data-exists=\"true\"] .outcome");
        assert_eq!(weak, "1:r0=1 1:r1=0");
        assert_eq!(
            count(&root, "#explore-summary [data-exists-observed=\"true\"]"),
            1
        );
        assert_eq!(count(&root, "#explore-summary [data-complete=\"true\"]"), 1);
        let canvas = find(&root, "#explore-histogram");
        assert_eq!(canvas.get_attribute("data-bars").as_deref(), Some("4"));
        assert_eq!(
            canvas.get_attribute("data-highlighted").as_deref(),
            Some("1")
        );
        assert!(canvas
            .get_attribute("aria-label")
            .unwrap_or_default()
            .contains("4 outcomes"));

        let weak_index: usize = find(&root, "#explore-outcomes tr[data-exists=\"true\"]")
            .get_attribute("data-index")
            .and_then(|i| i.parse().ok())
            .unwrap();
        click(
            &root,
            "#explore-outcomes tr[data-exists=\"true\"] button.replay",
        )
        .await;
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

/// Presses Ctrl+`key` on `target`.
async fn press_ctrl(target: &EventTarget, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_key_code(
        key.chars()
            .next()
            .map_or(0, |c| c.to_ascii_uppercase() as u32),
    );
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
    assert_ne!(
        find(&root, "#examples")
            .unchecked_into::<web_sys::HtmlSelectElement>()
            .value(),
        "count.cl"
    );
    // Undo still knows both keys.
    let content = find(&root, ".cm-content");
    press_ctrl(&content, "z").await;
    assert_eq!(editor_text(&root), kernel);

    choose(&root, "#examples", "litmus/mp.litmus").await;
    assert_eq!(
        editor_text(&root),
        include_str!("../../static/examples/litmus/mp.litmus")
    );
    assert_eq!(
        find(&root, ".cm-content")
            .get_attribute("aria-label")
            .as_deref(),
        Some("Litmus test")
    );
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
    assert!(
        marker
            .get_attribute("title")
            .unwrap_or_default()
            .contains("data-race"),
        "{:?}",
        marker.get_attribute("title")
    );
    assert!(marker.get_attribute("aria-label").is_some());
    // A click on the marker brings its finding in the list into focus.
    marker.unchecked_ref::<HtmlElement>().click();
    settle().await;
    let focused = gloo::utils::document().active_element().unwrap();
    assert!(
        focused.closest("#findings").unwrap().is_some(),
        "{}",
        focused.outer_html()
    );
    assert!(
        focused.text_content().unwrap_or_default().contains("11:"),
        "{:?}",
        focused.text_content()
    );
    // Opening a finding selects its place in the editor.
    focused.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(count(&root, "#editor[data-selection-line=\"11\"]"), 1);
    let active = gloo::utils::document().active_element().unwrap();
    assert!(
        active.class_list().contains("cm-content"),
        "the editor has the focus"
    );
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
            span: None,
        }
    }

    #[wasm_bindgen_test]
    async fn the_selected_work_item_line_is_marked_strongly_and_the_others_faintly() {
        let handle = EditorHandle::default();
        let root = mount(Props {
            selected_line: Some(2),
            active_lines: Rc::new(vec![2, 4]),
            ..props("one\ntwo\nthree\nfour\n", &handle)
        })
        .await;
        assert_eq!(count(&root, ".cm-line.cm-active-wi"), 1);
        assert_eq!(text(&root, ".cm-line.cm-active-wi"), "two");
        assert_eq!(count(&root, ".cm-line.cm-other-wi"), 1);
        assert_eq!(text(&root, ".cm-line.cm-other-wi"), "four");
    }

    #[wasm_bindgen_test]
    async fn a_diagnostic_is_underlined_with_its_message_on_hover() {
        let source = "__kernel void k() {\n    int x = ;\n}\n";
        let start = source.find(';').unwrap() as u32;
        let diagnostic = interleave_engine::diag::Diagnostic::error(
            "syntax-error",
            "expected an expression <b>here</b>",
        )
        .with_span(interleave_engine::diag::Span::new(start, start + 1), "here");
        let handle = EditorHandle::default();
        let root = mount(Props {
            diagnostics: Rc::new(vec![diagnostic]),
            diagnostics_source: source.into(),
            ..props(source, &handle)
        })
        .await;
        let underline = find(&root, ".cm-diagnostic-underline.cm-diagnostic-error");
        assert_eq!(underline.text_content().as_deref(), Some(";"));

        let rect = underline.get_bounding_client_rect();
        let init = MouseEventInit::new();
        init.set_bubbles(true);
        init.set_client_x((rect.left() + rect.width() / 2.0) as i32);
        init.set_client_y((rect.top() + rect.height() / 2.0) as i32);
        let event = MouseEvent::new_with_mouse_event_init_dict("mousemove", &init).unwrap();
        underline.dispatch_event(&event).unwrap();
        assert!(
            wait_for(&root, ".cm-diagnostic-tooltip").await,
            "no tooltip on hover"
        );
        assert_eq!(
            text(&root, ".cm-diagnostic-tooltip"),
            "error[syntax-error]: expected an expression <b>here</b>"
        );
        assert_eq!(
            count(&root, ".cm-diagnostic-tooltip b"),
            0,
            "messages are text"
        );
    }

    #[wasm_bindgen_test]
    async fn diagnostics_of_another_text_are_not_shown() {
        let handle = EditorHandle::default();
        let diagnostic = interleave_engine::diag::Diagnostic::error("syntax-error", "bad")
            .with_span(interleave_engine::diag::Span::new(0, 3), "here");
        let root = mount(Props {
            diagnostics: Rc::new(vec![diagnostic]),
            diagnostics_source: "something else".into(),
            ..props("int x;\n", &handle)
        })
        .await;
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
        assert_eq!(
            marker.get_attribute("title").as_deref(),
            Some("data-race: a benign race\ndata-race: a race on x")
        );
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
        find(&root, "#editor")
            .set_attribute("style", "height: 150px; display: flex")
            .unwrap();
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
        let root = mount(Props {
            litmus: true,
            theme: Theme::Dark,
            ..props(
                include_str!("../../static/examples/litmus/mp.litmus"),
                &handle,
            )
        })
        .await;
        assert_eq!(
            find(&root, ".cm-content")
                .get_attribute("aria-label")
                .as_deref(),
            Some("Litmus test")
        );
        // `global`, `atomic_int`, `atomic_store_explicit` and `memory_order_relaxed`.
        assert!(count(&root, ".cm-gpu-qualifier") >= 4);
        assert!(count(&root, ".cm-gpu-type") >= 4);
        assert!(count(&root, ".cm-gpu-builtin") >= 4);
        assert!(count(&root, ".cm-gpu-constant") >= 4);
    }
}
