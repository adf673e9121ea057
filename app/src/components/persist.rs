//! Keeping the user's inputs across reloads and crashes: the page starts from the inputs in
//! `localStorage` when there are some, and writes them there a short moment after each edit
//! (and at once when the page is hidden or closed, so the last keystrokes are not lost).
//!
//! The stored format and its tolerant reading are the pure `crate::inputs`; here are only the
//! browser's storage and timers. A stored value that cannot be read is copied aside under
//! its own key before the page overwrites it, so that not even a damaged value is lost
//! silently, and the page starts from the default example. The panes' sizes are kept the
//! same way under their own key (`state::LAYOUT_KEY`).

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use gloo::storage::{LocalStorage, Storage};
use gloo::timers::callback::Timeout;
use yew::prelude::*;

use crate::inputs::{self, Inputs, STORAGE_KEY};
use crate::state::{Panes, State, Theme, LAYOUT_KEY};

/// How long after an edit the inputs are written: typing a number is one write, not one per
/// digit.
const SAVE_DELAY_MS: u32 = 400;

/// Where an unreadable stored value is kept.
const UNREADABLE_KEY: &str = "interleave.inputs.unreadable";

/// The state the page starts with: the stored inputs, or the default example, and the panes
/// as they were left (or sized for the window).
pub fn initial_state(theme: Theme) -> State {
    let mut state = stored_state(theme);
    state.view.panes = initial_panes();
    state
}

/// The panes' sizes as stored over the defaults for this window.
fn initial_panes() -> Panes {
    let window = gloo::utils::window();
    let size = |v: Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let defaults = Panes::for_window(size(window.inner_width()), size(window.inner_height()));
    match LocalStorage::raw().get_item(LAYOUT_KEY) {
        Ok(Some(text)) => Panes::decode(&text, defaults),
        _ => defaults,
    }
}

fn stored_state(theme: Theme) -> State {
    let Ok(Some(text)) = LocalStorage::raw().get_item(STORAGE_KEY) else {
        return State::new(theme);
    };
    match inputs::decode(&text) {
        Ok(stored) => State::from_stored(theme, &stored),
        Err(why) => {
            let _ = LocalStorage::raw().set_item(UNREADABLE_KEY, &text);
            gloo::console::warn!(format!("Starting from the default example: {why}. The saved value is kept under `{UNREADABLE_KEY}`."));
            State::new(theme)
        }
    }
}

/// Writes `text`, if there is one waiting.
fn flush(pending: &RefCell<Option<String>>) {
    if let Some(text) = pending.borrow_mut().take() {
        if let Err(e) = LocalStorage::raw().set_item(STORAGE_KEY, &text) {
            gloo::console::warn!(format!("The inputs could not be saved: {e:?}"));
        }
    }
}

/// Saves the inputs a moment after they change.
#[hook]
pub fn use_persistence(state: &State) {
    let pending: Rc<RefCell<Option<String>>> = use_mut_ref(|| None);
    {
        let pending = pending.clone();
        let current = state.clone();
        // Inputs change only with the revision, `edited` or the stash; runs and steps leave
        // them alone and write nothing.
        let key = (state.revision, state.edited, state.stash.clone());
        use_effect_with(key, move |_| {
            *pending.borrow_mut() = Some(inputs::encode(Inputs::clone(&current.inputs), current.edited, current.stash.as_deref().cloned()));
            let timeout = Timeout::new(SAVE_DELAY_MS, {
                let pending = pending.clone();
                move || flush(&pending)
            });
            move || drop(timeout)
        });
    }
    // The panes' sizes, a moment after a drag or a key moved a splitter (not at the start:
    // sizes nobody chose are not remembered, so another window gets its own defaults).
    let started = use_mut_ref(|| false);
    use_effect_with(state.view.panes, move |panes| {
        let text = (*started.borrow()).then(|| panes.encode());
        *started.borrow_mut() = true;
        let timeout = text.map(|text| {
            Timeout::new(SAVE_DELAY_MS, move || {
                let _ = LocalStorage::raw().set_item(LAYOUT_KEY, &text);
            })
        });
        move || drop(timeout)
    });
    // A page being hidden may be about to close: the last edit is written at once.
    use_effect_with((), move |_| {
        let window = gloo::utils::window();
        let document = gloo::utils::document();
        let on_hide = {
            let pending = pending.clone();
            EventListener::new(&window, "pagehide", move |_| flush(&pending))
        };
        let on_hidden = EventListener::new(&document, "visibilitychange", move |_| {
            if gloo::utils::document().visibility_state() == web_sys::VisibilityState::Hidden {
                flush(&pending);
            }
        });
        move || drop((on_hide, on_hidden))
    });
}
