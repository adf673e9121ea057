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
    Element, Event, EventInit, EventTarget, HtmlButtonElement, HtmlElement, HtmlInputElement,
    HtmlTextAreaElement, KeyboardEvent, KeyboardEventInit,
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
async fn press(target: &EventTarget, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&event).unwrap();
    settle().await;
}

fn disabled(root: &Element, selector: &str) -> bool {
    find(root, selector)
        .unchecked_into::<HtmlButtonElement>()
        .disabled()
}

fn status(root: &Element) -> String {
    find(root, "#status")
        .get_attribute("data-status")
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_editor_starts_with_the_example() {
    let root = mount_app().await;
    let source = find(&root, "textarea#source")
        .unchecked_into::<HtmlTextAreaElement>()
        .value();
    assert!(source.contains("__kernel void count"), "{source}");
    assert_eq!(source, include_str!("../../static/examples/count.cl"));
    assert_eq!(
        count(&root, ".gutter .ln") as usize,
        source.split('\n').count()
    );
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
    for _ in 0..100 {
        if status(&root) != "running" {
            break;
        }
        TimeoutFuture::new(50).await;
    }
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
    type_into(
        &root,
        "#source",
        "__kernel void k(__global int *p) { p[0] = ; }",
    )
    .await;
    click(&root, "#step").await;
    assert_eq!(status(&root), "error");
    assert!(count(&root, "#diagnostics .diagnostic") >= 1);
    assert_eq!(count(&root, ".lane"), 0);
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
    let source = find(&root, "#source");
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
    let textarea = find(&root, "#source").unchecked_into::<HtmlTextAreaElement>();
    textarea.set_selection_range(0, 0).unwrap();
    press(&textarea, "Tab").await;
    assert!(
        textarea.value().starts_with("    // Lost updates"),
        "{}",
        textarea.value()
    );
    // Escape first lets Tab leave the editor instead.
    press(&textarea, "Escape").await;
    press(&textarea, "Tab").await;
    assert!(!textarea.value().starts_with("        "));
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
    let source = find(&root, "#source")
        .unchecked_into::<HtmlTextAreaElement>()
        .value();
    assert!(source.starts_with("OPENCL MP"), "{source}");
    // The test places its threads: no sizes or arguments, a note instead.
    assert_eq!(count(&root, "#litmus-note"), 1);
    assert_eq!(count(&root, "#global"), 0);
    assert_eq!(count(&root, ".arg-input"), 0);
    assert_eq!(count(&root, "#lanes[data-work-items=\"2\"]"), 1);
    choose(&root, "#memory-model", "relaxed").await;
    click(&root, "#run").await;
    for _ in 0..100 {
        if status(&root) != "running" {
            break;
        }
        TimeoutFuture::new(50).await;
    }
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

mod launch_and_files {
    //! The launch panel's table and settings, opened files, and the inputs kept across
    //! reloads.

    use super::*;
    use gloo::storage::{LocalStorage, Storage};
    use interleave_app::inputs::{self, STORAGE_KEY};
    use interleave_app::state::{Action, State};
    use js_sys::Array;
    use web_sys::{DataTransfer, DragEvent, DragEventInit, File};

    fn value(root: &Element, selector: &str) -> String {
        let element = find(root, selector);
        match element.dyn_ref::<HtmlInputElement>() {
            Some(input) => input.value(),
            None => element
                .unchecked_ref::<web_sys::HtmlSelectElement>()
                .value(),
        }
    }

    fn param_rows(root: &Element) -> Vec<String> {
        let rows = root
            .query_selector_all("#args-table tr[data-param]")
            .unwrap();
        (0..rows.length())
            .filter_map(|i| rows.get(i))
            .filter_map(|n| n.dyn_into::<Element>().ok())
            .filter_map(|e| e.get_attribute("data-param"))
            .collect()
    }

    #[wasm_bindgen_test]
    async fn the_table_fills_from_the_kernel_s_signature() {
        let root = mount_app().await;
        assert_eq!(param_rows(&root), ["ids", "counters"]);
        // The example's launch is in the table's fields.
        assert_eq!(value(&root, "#arg-counters-kind"), "buffer");
        assert_eq!(value(&root, "#arg-counters-init"), "fill");
        assert_eq!(value(&root, "#arg-counters-len"), "2");
        type_into(
            &root,
            "#source",
            "__kernel void k(__global float *out, __local int *tmp, uint n) { out[0] = n; }",
        )
        .await;
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
        assert_eq!(
            input.get_attribute("aria-describedby").as_deref(),
            Some("arg-ids-len-error")
        );
        assert!(text(&root, "#arg-ids-len-error").contains("at least 1"));
        assert!(disabled(&root, "#run") && disabled(&root, "#step"));
        assert!(disabled(&root, "#download-scenario"));
        type_into(&root, "#arg-ids-len", "8").await;
        assert_eq!(count(&root, "#arg-ids-len-error"), 0);
        assert!(!disabled(&root, "#run"));
        // The settings under "More" are checked the same way, and open to show the problem.
        type_into(&root, "#max-steps", "0").await;
        assert_eq!(
            find(&root, "#max-steps")
                .get_attribute("aria-invalid")
                .as_deref(),
            Some("true")
        );
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
        assert_eq!(
            (value(&root, "#grid"), value(&root, "#block")),
            ("2".into(), "4".into())
        );
        assert_eq!(count(&root, "#offset") + count(&root, "#global"), 0);
        choose(&root, "#dialect", "opencl").await;
        assert_eq!(value(&root, "#global"), "8");
        for id in [
            "#warp-size",
            "#resident-groups",
            "#progress",
            "#granularity",
            "#max-steps",
        ] {
            assert_eq!(count(&root, id), 1, "{id}");
        }
    }

    #[wasm_bindgen_test]
    async fn a_stored_scenario_is_restored_on_start() {
        let mut state = State::default();
        for action in [
            Action::SetGlobal("16".into()),
            Action::SetArgText {
                param: "ids".into(),
                text: "ids=int[16]".into(),
            },
            Action::SetMaxSteps("500".into()),
        ] {
            state = interleave_app::state::reduce(&state, action);
        }
        LocalStorage::clear();
        LocalStorage::raw()
            .set_item(STORAGE_KEY, &inputs::encode(state.inputs(), true, None))
            .unwrap();
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
        let stored =
            inputs::decode(&LocalStorage::raw().get_item(STORAGE_KEY).unwrap().unwrap()).unwrap();
        assert_eq!(stored.current.seed, "77");
        // A damaged value is set aside, and the page starts from the example.
        LocalStorage::raw()
            .set_item(STORAGE_KEY, "{not json")
            .unwrap();
        let root = fresh_root();
        yew::Renderer::<App>::with_root(root.clone()).render();
        settle().await;
        assert_eq!(value(&root, "#global"), "8");
        assert_eq!(
            LocalStorage::raw()
                .get_item("interleave.inputs.unreadable")
                .unwrap()
                .as_deref(),
            Some("{not json")
        );
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
            file(
                "t.toml",
                "source_file = \"t.cl\"\nseed = 9\n[launch]\nglobal = [6]\nlocal = [3]\n",
            ),
            file(
                "t.cl",
                "__kernel void t(__global int *p, int n) { p[0] = n; }",
            ),
        ]);
        input.set_files(chosen.files().as_ref());
        let init = EventInit::new();
        init.set_bubbles(true);
        input
            .dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap())
            .unwrap();
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
        target
            .dispatch_event(&DragEvent::new_with_event_init_dict("dragenter", &init).unwrap())
            .unwrap();
        settle().await;
        assert_eq!(count(&root, "#drop-target"), 1);
        target
            .dispatch_event(&DragEvent::new_with_event_init_dict("drop", &init).unwrap())
            .unwrap();
        until(&root, |root| count(root, "#diagnostics .diagnostic") > 0).await;
        assert_eq!(count(&root, "#drop-target"), 0);
        let problem = text(&root, "#diagnostics");
        assert!(
            problem.contains("`u.cl`") && problem.contains("together"),
            "{problem}"
        );
        assert_eq!(value(&root, "#global"), "6", "nothing was replaced");
        // A kernel dropped alone replaces the source and keeps the launch.
        let kernel = transfer(&[file(
            "k.cu",
            "__global__ void k(int *q) { q[threadIdx.x] = 1; }",
        )]);
        init.set_data_transfer(Some(&kernel));
        target
            .dispatch_event(&DragEvent::new_with_event_init_dict("drop", &init).unwrap())
            .unwrap();
        until(&root, |root| param_rows(root) == ["q"]).await;
        assert_eq!(value(&root, "#dialect"), "cuda");
        assert_eq!(
            (value(&root, "#grid"), value(&root, "#block")),
            ("2".into(), "3".into())
        );
        assert_eq!(count(&root, "#diagnostics .diagnostic"), 0);
    }
}
