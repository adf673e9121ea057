//! The workbench in a real browser: mount the app, press its buttons, read the DOM: the editor
//! and its diagnostics, stepping, running and seeking, findings, the inspector, the keyboard.
//!
//! Yew renders asynchronously, so every interaction is followed by a short wait before the
//! DOM is read.

#![cfg(target_arch = "wasm32")]

mod common;

use std::rc::Rc;

use gloo::timers::future::TimeoutFuture;
use interleave_app::components::diagnostics::{Diagnostics, Props as DiagnosticsProps};
use interleave_engine::diag::{Diagnostic, Span};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

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

#[wasm_bindgen_test]
async fn a_replay_that_cannot_go_on_says_why_in_the_status_line() {
    use interleave_app::components::status::{Props as StatusProps, Status};
    let root = fresh_root();
    let why = "step 3 of the schedule names work-item 0, which cannot step there: it waits at a barrier (line 8) for the rest of its group";
    let props = StatusProps { live: true, running: false, steps: 2, summary: None, failed: false, stopped: Some(why.into()) };
    yew::Renderer::<Status>::with_root_and_props(root.clone(), props).render();
    settle().await;
    let status = find(&root, "#status");
    assert_eq!(status.text_content().unwrap_or_default(), format!("running · 2 steps · paused: {why}"));
    assert_eq!(status.get_attribute("data-status").as_deref(), Some("running"));
    assert_eq!(status.get_attribute("title").as_deref(), Some(why));
}
