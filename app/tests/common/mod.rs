//! Helpers shared by the app's browser tests: mounting, waiting for Yew to render, finding
//! and counting elements, and interacting as a user does (clicks, typing, keys, pointer).

// Each test file compiles this module on its own and uses only some of the helpers.
#![allow(dead_code)]

use gloo::timers::future::TimeoutFuture;
use interleave_app::App;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, Event, EventInit, EventTarget, HtmlButtonElement, HtmlDocument, HtmlElement, HtmlInputElement, HtmlTextAreaElement, KeyboardEvent,
    KeyboardEventInit,
};

/// Waits long enough for Yew to render what the last interaction changed.
pub async fn settle() {
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
pub fn fresh_root() -> Element {
    let document = gloo::utils::document();
    let root = document.create_element("div").unwrap();
    gloo::utils::body().append_child(&root).unwrap();
    root
}

pub async fn mount_app() -> Element {
    // Every test starts from the default example, not from what an earlier test left stored.
    <gloo::storage::LocalStorage as gloo::storage::Storage>::clear();
    let root = fresh_root();
    yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    root
}

pub fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no element matches {selector}"))
}

pub fn count(root: &Element, selector: &str) -> u32 {
    root.query_selector_all(selector).unwrap().length()
}

pub async fn click(root: &Element, selector: &str) {
    find(root, selector).unchecked_into::<HtmlElement>().click();
    settle().await;
}

/// Types `value` into an input the way a user would: set the value, then fire a bubbling
/// `input` event (Yew listens for events at the root).
pub async fn type_into(root: &Element, selector: &str, value: &str) {
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
pub async fn press(target: &EventTarget, key: &str) -> bool {
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
pub fn editor_text(root: &Element) -> String {
    interleave_app::codemirror::text_of(&find(root, "#editor")).expect("no editor in #editor")
}

/// Types `text` into the code editor the way a user's keyboard does (the browser edits the
/// content and CodeMirror reads the edit back), at the cursor, or over everything when
/// `replace_all` is set.
pub async fn type_into_editor(root: &Element, text: &str, replace_all: bool) {
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
pub fn marks(root: &Element, selector: &str) -> u64 {
    let lanes = root.query_selector_all(selector).unwrap();
    (0..lanes.length())
        .filter_map(|i| lanes.get(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .filter_map(|e| e.get_attribute("data-marks"))
        .map(|m| m.parse::<u64>().expect("data-marks is a number"))
        .sum()
}

pub fn disabled(root: &Element, selector: &str) -> bool {
    find(root, selector).unchecked_into::<HtmlButtonElement>().disabled()
}

/// Waits (bounded) until a run started with Run has stopped.
pub async fn wait_while_running(root: &Element) {
    for _ in 0..100 {
        if status(root) != "running" {
            break;
        }
        TimeoutFuture::new(50).await;
    }
}

pub fn status(root: &Element) -> String {
    find(root, "#status").get_attribute("data-status").unwrap_or_default()
}

/// Chooses `value` in the `<select>` matched by `selector`, as a user would: set the value,
/// then fire a bubbling `change` event.
pub async fn choose(root: &Element, selector: &str, value: &str) {
    let element = find(root, selector);
    element.unchecked_ref::<web_sys::HtmlSelectElement>().set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = Event::new_with_event_init_dict("change", &init).unwrap();
    element.dispatch_event(&event).unwrap();
    settle().await;
}

pub fn text(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

/// The step the status line says the session is at.
pub fn steps(root: &Element) -> u64 {
    find(root, "#status").get_attribute("data-steps").and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("#status has no data-steps"))
}

/// Runs the default example to its end.
pub async fn run_to_end(root: &Element) {
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
pub async fn scrub(root: &Element, value: u64) {
    let input = find(root, "#scrubber").unchecked_into::<HtmlInputElement>();
    input.set_value(&value.to_string());
    let init = EventInit::new();
    init.set_bubbles(true);
    input.dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
    settle().await;
}

/// A number the timeline canvas records about its last paint (`data-events`, ...).
pub fn canvas_number(root: &Element, attribute: &str) -> f64 {
    find(root, "#timeline-canvas")
        .get_attribute(attribute)
        .unwrap_or_else(|| panic!("the canvas has no {attribute}"))
        .parse()
        .unwrap_or_else(|_| panic!("{attribute} is not a number"))
}

/// Sends a pointer event of type `kind` at canvas point (`x`, `y`) (CSS pixels from its
/// top left corner).
pub async fn pointer(root: &Element, kind: &str, x: f64, y: f64) {
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
pub async fn first_event_point(root: &Element) -> Option<(f64, f64)> {
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
pub fn use_app_styles() {
    let document = gloo::utils::document();
    if document.get_element_by_id("app-styles").is_none() {
        let style = document.create_element("style").unwrap();
        style.set_id("app-styles");
        style.set_text_content(Some(include_str!("../../../static/style.css")));
        gloo::utils::body().append_child(&style).unwrap();
    }
}

/// Presses Ctrl+`key` on `target`.
pub async fn press_ctrl(target: &EventTarget, key: &str) {
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
pub async fn wait_for(root: &Element, selector: &str) -> bool {
    for _ in 0..100 {
        if count(root, selector) > 0 {
            return true;
        }
        TimeoutFuture::new(30).await;
    }
    false
}

/// Puts `href` in the address bar without navigating (and without a `hashchange`).
pub fn set_address(href: &str) {
    let history = gloo::utils::window().history().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href)).unwrap();
}

/// The value of an input or select.
pub fn input_value(root: &Element, selector: &str) -> String {
    let element = find(root, selector);
    match element.dyn_ref::<HtmlInputElement>() {
        Some(input) => input.value(),
        None => element.unchecked_ref::<web_sys::HtmlSelectElement>().value(),
    }
}

/// The address without its query or fragment.
pub fn page_path(href: &str) -> String {
    href.split(['?', '#']).next().unwrap_or_default().to_string()
}
