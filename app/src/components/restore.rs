//! The banner that keeps set-aside edits one click away: after an example or a file was
//! loaded over edited inputs ("Loaded X — your previous edits are kept: Restore them"), and
//! after they were restored (with the way back to what was loaded).

use std::rc::Rc;

use yew::prelude::*;

use super::icon::{icon, Icon};
use crate::inputs::Stash;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub stash: Option<Rc<Stash>>,
    /// Swaps the set-aside inputs with the current ones.
    pub on_restore: Callback<()>,
    /// Forgets the set-aside inputs.
    pub on_dismiss: Callback<()>,
}

#[component]
pub fn RestoreBanner(props: &Props) -> Html {
    let Some(stash) = &props.stash else {
        return html! {};
    };
    let (message, action) = if stash.restored {
        ("Your edits are restored.".to_string(), format!("Back to {}", stash.label))
    } else {
        (format!("Loaded {} — your previous edits are kept:", stash.label), "Restore them".to_string())
    };
    html! {
        <div id="restore-edits" class="banner" role="status" data-restored={stash.restored.to_string()}>
            <p>{ message }</p>
            <button id="restore-edits-button" type="button" onclick={props.on_restore.reform(|_: MouseEvent| ())}>{ action }</button>
            <button id="restore-edits-dismiss" type="button" class="icon" aria-label="Dismiss: forget the set-aside inputs" title="Dismiss (forgets them)" onclick={props.on_dismiss.reform(|_: MouseEvent| ())}>
                { icon(Icon::Close) }
            </button>
        </div>
    }
}
