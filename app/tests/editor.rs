//! The code editor in a real browser: typing keeps the cursor and history, an example
//! replaces the text, diagnostics, work-item lines and findings are marked.

#![cfg(target_arch = "wasm32")]

mod common;

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

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
