//! The Share button: the link of the current state (scenario, step, selected work-item, open
//! inspector tab) is written into the address bar (`history.replaceState`, so it can be copied
//! from there), copied to the clipboard when the browser allows, and shown in a read-only
//! field beside the button. Opening such a link is the root component's (`app.rs`).

use std::rc::Rc;

use interleave_engine::link;
use interleave_engine::scenario::Scenario;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::inspector::Tab;
use crate::share;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The scenario to share; `None` while the form holds an invalid value.
    pub scenario: Option<Rc<Scenario>>,
    /// The live session's step, if there is a session.
    pub step: Option<u64>,
    pub selected: Option<usize>,
    pub tab: Tab,
}

/// The page's address without its fragment.
pub fn page_base() -> String {
    let href = gloo::utils::window().location().href().unwrap_or_default();
    share::base(&href).to_string()
}

/// Asks the browser to copy `text`; `done` hears whether it did. Browsers without the
/// clipboard API, or that refuse (no permission, no focus), leave the link to be copied by hand.
fn copy(text: &str, done: Callback<bool>) {
    let navigator = gloo::utils::window().navigator();
    let write = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")).ok().filter(|c| !c.is_undefined() && !c.is_null()).and_then(|clipboard| {
        let write = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText")).ok()?;
        let write: js_sys::Function = write.dyn_into().ok()?;
        write.call1(&clipboard, &JsValue::from_str(text)).ok()?.dyn_into::<js_sys::Promise>().ok()
    });
    let Some(promise) = write else {
        done.emit(false);
        return;
    };
    let ok = {
        let done = done.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| done.emit(true))
    };
    let failed = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| done.emit(false));
    let _ = promise.then2(&ok, &failed);
    // Called once, after this returns: kept for the page's life (two small closures a click).
    ok.forget();
    failed.forget();
}

#[component]
pub fn ShareButton(props: &Props) -> Html {
    // The link shown, and whether it was copied.
    let shown = use_state(|| None::<(AttrValue, bool)>);
    let onclick = props.scenario.clone().map(|scenario| {
        let (step, selected, tab, shown) = (props.step, props.selected, props.tab, shown.clone());
        Callback::from(move |_: MouseEvent| {
            let url = link::url(&page_base(), &share::link_of(&scenario, step, selected, tab));
            if let Ok(history) = gloo::utils::window().history() {
                let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
            }
            let url = AttrValue::from(url);
            shown.set(Some((url.clone(), false)));
            let shown = shown.clone();
            copy(&url.clone(), Callback::from(move |copied| shown.set(Some((url.clone(), copied)))));
        })
    });
    let title = if onclick.is_some() {
        "Copy a link to this exact state: the scenario, the step, the selected work-item and the open panel"
    } else {
        "Fix the highlighted launch settings first: a link needs a valid scenario."
    };
    html! {
        <div class="share">
            <button id="share" type="button" aria-label="Copy a link to this exact state" {title} disabled={onclick.is_none()} onclick={onclick.unwrap_or_default()}>
                { "Share" }
            </button>
            if let Some((url, copied)) = &*shown {
                <input id="share-url" type="text" readonly=true value={url.clone()} aria-label="Link to this state" />
                <span class="share-note" role="status">{ if *copied { "Link copied" } else { "Copy this link" } }</span>
            }
        </div>
    }
}
