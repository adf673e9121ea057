//! The page header: the product name, the examples gallery button, the link to the tutorial,
//! the keyboard shortcuts button and the theme toggle.

use yew::prelude::*;

use super::icon::{icon, Icon};
use crate::state::Theme;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub theme: Theme,
    pub on_theme: Callback<Theme>,
    /// Opens the keyboard shortcuts overlay.
    pub on_help: Callback<()>,
    /// Opens the examples gallery page.
    pub on_gallery: Callback<()>,
}

#[component]
pub fn Header(props: &Props) -> Html {
    let other = props.theme.other();
    let onclick = props.on_theme.reform(move |_: MouseEvent| other);
    let label = format!("Switch to the {} theme", other.as_str());
    let glyph = match props.theme {
        Theme::Light => Icon::Moon,
        Theme::Dark => Icon::Sun,
    };
    html! {
        <header class="masthead">
            <h1 class="brand">
                <img src="favicon.svg" alt="" width="24" height="24" />
                { "Interleave" }
            </h1>
            <p class="tagline">{ "every work-item, step by step" }</p>
            <button id="gallery-open" type="button" title="The examples gallery: one pitfall per card" onclick={props.on_gallery.reform(|_: MouseEvent| ())}>
                { "Gallery" }
            </button>
            <a class="nav-link" href="?tutorial">{ "Tutorial" }</a>
            <button id="help-open" type="button" class="icon" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" aria-keyshortcuts="?" onclick={props.on_help.reform(|_: MouseEvent| ())}>
                { "?" }
            </button>
            <button id="theme" type="button" class="icon" aria-label={label.clone()} title={label} {onclick}>
                { icon(glyph) }
            </button>
        </header>
    }
}
