//! The console: the kernel's printf output, line by line with the work-item that printed it,
//! optionally only the selected work-item's lines.

use std::rc::Rc;

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// `(work-item name, text)` per printed line, in order.
    pub lines: Rc<Vec<(String, String)>>,
    /// Whether only the selected work-item's lines are shown.
    pub only_selected: bool,
    /// Whether a work-item is selected (the filter needs one).
    pub has_selection: bool,
    pub on_only_selected: Callback<bool>,
    /// Whether there is a session at all.
    pub live: bool,
}

#[component]
pub fn Console(props: &Props) -> Html {
    let onchange = {
        let on = props.on_only_selected.clone();
        Callback::from(move |event: Event| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            on.emit(input.checked());
        })
    };
    html! {
        <section class="console panel" aria-labelledby="console-title">
            <div class="panel-head">
                <h2 id="console-title" class="panel-title">
                    { "Console" }
                    if !props.lines.is_empty() { <span class="count">{ props.lines.len() }</span> }
                </h2>
                <label class="check">
                    <input id="console-only-selected" type="checkbox" checked={props.only_selected} disabled={!props.has_selection} {onchange} />
                    { "only the selected work-item" }
                </label>
            </div>
            if props.lines.is_empty() {
                <p class="placeholder">{ if props.live { "No printf output so far." } else { "printf output appears here once a run starts." } }</p>
            } else {
                <ol id="console" class="console-lines" aria-live="polite">
                    { for props.lines.iter().map(|(who, text)| html! {
                        <li><span class="who">{ who }</span><span class="text">{ text.trim_end_matches('\n') }</span></li>
                    }) }
                </ol>
            }
        </section>
    }
}
