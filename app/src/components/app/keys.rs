//! The page's keyboard shortcuts (listed in the help overlay, `?`). Keys typed into a field
//! or the editor are left alone, and so are arrows and Space while a control that uses them
//! (a button, a slider, a tab, a splitter, the timeline) has the focus.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// Whether a key press belongs to a text field rather than to the page's shortcuts.
pub(super) fn typing_into(event: &KeyboardEvent) -> bool {
    let Some(target) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return false;
    };
    matches!(target.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT") || target.dyn_ref::<HtmlElement>().is_some_and(|e| e.is_content_editable())
}

/// Focuses the element with `id`, if the page has it.
pub(super) fn focus(id: &str) {
    if let Some(element) = gloo::utils::document().get_element_by_id(id).and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        let _ = element.focus();
    }
}

/// Whether the focused element uses arrows or Space itself.
pub(super) fn control_focused(event: &KeyboardEvent) -> bool {
    event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).is_some_and(|target| {
        matches!(target.tag_name().as_str(), "BUTTON" | "CANVAS" | "A" | "SUMMARY")
            || target.get_attribute("role").is_some()
            || target.get_attribute("tabindex").is_some()
    })
}

/// What the page's keyboard shortcuts call; compared so the listener is rebound only when
/// one of them changed.
#[derive(Clone, PartialEq)]
pub(super) struct Shortcuts {
    pub on_step: Callback<()>,
    pub on_step_back: Callback<()>,
    pub on_run: Callback<()>,
    pub on_pause: Callback<()>,
    pub on_reset: Callback<()>,
    pub on_run_to_finding: Callback<()>,
    pub on_next_finding: Callback<bool>,
    pub on_seek: Callback<u64>,
    pub on_help: Callback<()>,
    pub running: bool,
    pub furthest: u64,
    /// The gallery page is shown: the workbench under it takes no keys.
    pub gallery_open: bool,
}

impl Shortcuts {
    /// Acts on `event`; returns whether it was a shortcut.
    pub(super) fn handle(&self, event: &KeyboardEvent) -> bool {
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
pub(super) fn focus_editor() {
    if let Some(content) = gloo::utils::document().query_selector("#editor .cm-content").ok().flatten().and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        let _ = content.focus();
    }
}

/// Puts the keyboard on the timeline.
pub(super) fn focus_timeline() {
    let document = gloo::utils::document();
    let target = document.get_element_by_id("timeline-canvas").or_else(|| document.query_selector("#lanes .scroller").ok().flatten());
    if let Some(element) = target.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        let _ = element.focus();
    }
}

/// Listens to the page's keys while `handlers` hold (rebound when one of them changes).
#[hook]
pub(super) fn use_shortcuts(handlers: Shortcuts) {
    use_effect_with(handlers, move |handlers| {
        let handlers = handlers.clone();
        // Not passive: a handled shortcut prevents the key's default action (Home
        // scrolling, Space pressing a button).
        let options = EventListenerOptions::enable_prevent_default();
        let document = gloo::utils::document();
        let listener = EventListener::new_with_options(&document, "keydown", options, move |event| {
            if let Some(event) = event.dyn_ref::<KeyboardEvent>() {
                if handlers.handle(event) {
                    event.prevent_default();
                }
            }
        });
        move || drop(listener)
    });
}
