//! The keyboard shortcuts overlay, opened with `?`.
//!
//! It is a modal dialog: focus moves into it when it opens and back where it was when it
//! closes, Escape or the close button closes it, and a click on the backdrop too. The list is
//! [`SHORTCUTS`], which the page's key handler also follows, so the two cannot drift apart
//! without a test noticing (see `app/tests/workbench.rs`).

use web_sys::HtmlElement;
use yew::prelude::*;

/// Every page shortcut: the keys, and what they do.
pub const SHORTCUTS: [(&str, &str); 14] = [
    ("s  or  →", "step: the scheduler's next step"),
    ("b  or  ←", "step back, to exactly the state first reached there"),
    ("r  or  Space", "run, or pause a run"),
    ("f", "run to the next finding"),
    ("n", "open the next finding"),
    ("p", "open the previous finding"),
    ("Home", "go to step 0"),
    ("End", "go to the furthest step reached"),
    ("g", "go to a step: focus the step field"),
    ("0", "reset: a fresh session from the current settings"),
    ("e", "focus the editor"),
    ("t", "focus the timeline"),
    ("?", "show or hide this list"),
    ("Esc", "close this list; in the editor, leave it before Tab"),
];

#[derive(Properties, PartialEq)]
pub struct Props {
    pub on_close: Callback<()>,
}

#[component]
pub fn Help(props: &Props) -> Html {
    let dialog = use_node_ref();
    // Focus the dialog when it opens and give focus back to what had it when it closes.
    {
        let dialog = dialog.clone();
        use_effect_with((), move |_| {
            let previous = gloo::utils::document().active_element().and_then(|e| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(e).ok());
            if let Some(dialog) = dialog.cast::<HtmlElement>() {
                let _ = dialog.focus();
            }
            move || {
                if let Some(previous) = previous {
                    let _ = previous.focus();
                }
            }
        });
    }
    let on_key = {
        let on_close = props.on_close.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() == "Escape" || event.key() == "?" {
                event.prevent_default();
                event.stop_propagation();
                on_close.emit(());
            }
        })
    };
    let on_backdrop = {
        let on_close = props.on_close.clone();
        Callback::from(move |event: MouseEvent| {
            // Only a click on the backdrop itself, not one inside the dialog.
            if event.target() == event.current_target() {
                on_close.emit(());
            }
        })
    };
    html! {
        <div class="overlay" onclick={on_backdrop}>
            <div
                id="help"
                class="dialog panel"
                role="dialog"
                aria-modal="true"
                aria-labelledby="help-title"
                tabindex="-1"
                ref={dialog}
                onkeydown={on_key}
            >
                <div class="panel-head">
                    <h2 id="help-title" class="panel-title">{ "Keyboard shortcuts" }</h2>
                    <button id="help-close" type="button" class="icon" aria-label="Close the shortcuts list" onclick={props.on_close.reform(|_: MouseEvent| ())}>{ "✕" }</button>
                </div>
                <p class="note">{ "They work anywhere on the page except while typing in a field or the editor." }</p>
                <table class="shortcuts">
                    <tbody>
                        { for SHORTCUTS.iter().map(|(keys, what)| html! {
                            <tr><th scope="row"><kbd>{ *keys }</kbd></th><td>{ *what }</td></tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </div>
    }
}
