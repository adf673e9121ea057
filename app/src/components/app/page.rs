//! The page around the components: the theme the system asks for and the attribute that
//! applies it, and bringing a place of the page (a finding, the lanes, a source range) into view.

use interleave_engine::report::Finding;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, ScrollIntoViewOptions, ScrollLogicalPosition};
use yew::prelude::*;

use super::super::findings::SourcePlace;
use crate::state::Theme;

/// The theme the operating system asks for.
pub(super) fn preferred_theme() -> Theme {
    let dark = gloo::utils::window().match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|query| query.matches());
    if dark {
        Theme::Dark
    } else {
        Theme::Light
    }
}

/// The byte range a finding points at: its span, or the rest of its line from its column.
pub(super) fn place_range(source: &str, place: SourcePlace) -> Option<(usize, usize)> {
    if let Some(span) = place.span {
        return Some((span.start as usize, span.end as usize));
    }
    let line_start = source.split_inclusive('\n').take(place.line.checked_sub(1)? as usize).map(str::len).sum::<usize>();
    let line = source[line_start..].split('\n').next().unwrap_or_default();
    let column = line.char_indices().nth(place.column.saturating_sub(1) as usize).map_or(line.len(), |(i, _)| i);
    Some((line_start + column, line_start + line.len()))
}

/// Moves the focus to the first finding on `line` in the findings list (which scrolls it into
/// view), for a click on the editor's findings gutter.
pub(super) fn reveal_finding(findings: &[Finding], line: u32) {
    let Some(index) = findings.iter().position(|f| f.line == line) else {
        return;
    };
    let selector = format!("#findings > li:nth-child({}) > button", index + 1);
    if let Ok(Some(button)) = gloo::utils::document().query_selector(&selector) {
        if let Some(button) = button.dyn_ref::<HtmlElement>() {
            let _ = button.focus();
        }
    }
}

/// Scrolls the element with `id` into view, as little as needed.
pub(super) fn scroll_into_view(id: &str) {
    if let Some(element) = gloo::utils::document().get_element_by_id(id) {
        let options = ScrollIntoViewOptions::new();
        options.set_block(ScrollLogicalPosition::Nearest);
        element.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

/// Brings the lanes into view, for a run started from the results further down the page.
pub(super) fn reveal_lanes() {
    scroll_into_view("lanes");
}

/// The theme is an attribute on the root element so the whole stylesheet can follow it.
#[hook]
pub(super) fn use_theme_attribute(theme: Theme) {
    use_effect_with(theme, |theme| {
        let root = gloo::utils::document_element();
        let _ = root.set_attribute("data-theme", theme.as_str());
    });
}
