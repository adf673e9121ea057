//! The page's answer to a panic: a banner instead of a dead page.
//!
//! The engine never panics on user input by design; should it anyway (a bug), a panic in the
//! WebAssembly module aborts whatever was running, and Yew's scheduler may be left mid-update
//! and unable to render again. So the panic hook ([`install`]) does not go through Yew: it
//! writes a banner straight into the document (`#crash-banner`, `role="alert"`) that says what
//! happened, holds the share link of the scenario that was running (the engine's `link`
//! module, as the Share button makes it) with a "Copy scenario link" button, and a "Reset"
//! button that reloads the page without a link in its address: the inputs (kept in
//! `localStorage`) come back, with a fresh session and a fresh module.
//!
//! The message is set as text, never as markup, so a panic message that quotes a hostile
//! source cannot inject anything. The buttons' handlers use only the browser's APIs and a
//! string, nothing the aborted code could have left half-changed.
//!
//! For tests, [`test_panic`] panics on purpose; [`start`](crate::start) exposes it to the page
//! as `window.interleaveTestPanic()`, the hidden hook the end-to-end test calls. A component
//! test can call [`report`] directly.

use std::cell::RefCell;

use interleave_engine::link::{self, Link};
use interleave_engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The id of the banner element.
pub const BANNER_ID: &str = "crash-banner";
/// The name under which the test-only panic hook is exposed on `window`.
pub const TEST_HOOK: &str = "interleaveTestPanic";

thread_local! {
    /// The scenario last started, for the banner's link.
    static LAST_SCENARIO: RefCell<Option<Scenario>> = const { RefCell::new(None) };
}

/// Remembers the scenario a session is about to run, so that a panic can link to it.
pub fn remember(scenario: &Scenario) {
    LAST_SCENARIO.with(|last| {
        // A borrow that is busy (only possible if a panic interrupted one) is skipped: the
        // banner then links to the scenario before.
        if let Ok(mut last) = last.try_borrow_mut() {
            *last = Some(scenario.clone());
        }
    });
}

/// The share link of the remembered scenario under the page's address, if there is one.
fn scenario_link() -> Option<String> {
    let scenario = LAST_SCENARIO.with(|last| last.try_borrow().ok().and_then(|s| s.clone()))?;
    let href = gloo::utils::window().location().href().unwrap_or_default();
    let base = crate::share::base(&href).to_string();
    Some(link::url(&base, &Link { scenario, view: Default::default() }))
}

/// Installs the panic hook: the message goes to the console and into the banner. Through
/// Yew's `set_custom_panic_hook`, because rendering would otherwise replace any hook set
/// before it with its own (which only logs).
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        let message = info.to_string();
        gloo::console::error!(format!("Interleave panicked: {message}"));
        report(&message);
    }));
}

/// Exposes [`test_panic`] as `window.interleaveTestPanic`.
pub fn expose_test_hook() {
    let hook = Closure::<dyn Fn()>::new(test_panic);
    let _ = js_sys::Reflect::set(&gloo::utils::window(), &JsValue::from_str(TEST_HOOK), hook.as_ref());
    // The page keeps the hook for its whole life.
    hook.forget();
}

/// Panics on purpose, to test the banner. Hidden: no control calls it.
pub fn test_panic() {
    panic!("a test asked for this panic (window.{TEST_HOOK})");
}

/// Shows the banner for a panic with `message` (once: a second panic leaves the first
/// banner).
pub fn report(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id(BANNER_ID).is_some() {
        return;
    }
    let Some(body) = document.body() else {
        return;
    };
    let link = scenario_link();
    let make = |tag: &str| document.create_element(tag).ok();
    let (Some(banner), Some(text), Some(copy), Some(reset)) = (make("div"), make("p"), make("button"), make("button")) else {
        return;
    };
    banner.set_id(BANNER_ID);
    banner.set_class_name("crash-banner");
    let _ = banner.set_attribute("role", "alert");
    text.set_text_content(Some(&format!(
        "Interleave hit an internal error and stopped the run: {message}. Your code and settings are kept. \
         Copy the scenario's link to report it, or reset to continue."
    )));
    let _ = banner.append_child(&text);

    copy.set_id("crash-copy");
    copy.set_text_content(Some("Copy scenario link"));
    let _ = copy.set_attribute("type", "button");
    let field = make("input");
    match (&link, &field) {
        (Some(url), Some(field)) => {
            field.set_id("crash-link");
            let _ = field.set_attribute("readonly", "");
            let _ = field.set_attribute("aria-label", "Scenario link");
            if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
                input.set_value(url);
            }
            let url = url.clone();
            let field = field.clone();
            let on_copy = Closure::<dyn Fn()>::new(move || {
                // The link stays in the field, selected, for browsers that refuse to copy.
                if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
                    input.select();
                }
                copy_text(&url);
            });
            let _ = copy.add_event_listener_with_callback("click", on_copy.as_ref().unchecked_ref());
            on_copy.forget();
        }
        _ => {
            let _ = copy.set_attribute("disabled", "");
            let _ = copy.set_attribute("title", "No scenario was running");
        }
    }
    let _ = banner.append_child(&copy);
    if let (Some(field), Some(_)) = (&field, &link) {
        let _ = banner.append_child(field);
    }

    reset.set_id("crash-reset");
    reset.set_text_content(Some("Reset"));
    let _ = reset.set_attribute("type", "button");
    let on_reset = Closure::<dyn Fn()>::new(reset_page);
    let _ = reset.add_event_listener_with_callback("click", on_reset.as_ref().unchecked_ref());
    on_reset.forget();
    let _ = banner.append_child(&reset);

    let _ = body.insert_before(&banner, body.first_child().as_ref());
}

/// Asks the browser to copy `text` (the clipboard API, when it allows).
fn copy_text(text: &str) {
    let navigator = gloo::utils::window().navigator();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")) else {
        return;
    };
    if clipboard.is_undefined() || clipboard.is_null() {
        return;
    }
    let write = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText")).ok().and_then(|w| w.dyn_into::<js_sys::Function>().ok());
    if let Some(write) = write {
        let _ = write.call1(&clipboard, &JsValue::from_str(text));
    }
}

/// Reloads the page without the link in its address, so that a link that caused the panic is
/// not opened again; the stored inputs come back.
fn reset_page() {
    let window = gloo::utils::window();
    let location = window.location();
    let path = format!("{}{}", location.pathname().unwrap_or_default(), location.search().unwrap_or_default());
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&path));
    }
    let _ = location.reload();
}
