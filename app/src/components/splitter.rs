//! A splitter between two panes: drag it with a pointer, or focus it and use the arrow keys.
//!
//! It follows the WAI-ARIA window splitter pattern (`role="separator"`, focusable, with its
//! value) and reports the new size of the pane it resizes; the reducer clamps it.

use web_sys::{Element, PointerEvent};
use yew::prelude::*;

use crate::state::Pane;

/// How far one arrow key moves a splitter, in CSS pixels.
const KEY_STEP: f64 = 24.0;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub pane: Pane,
    /// The pane's current size in CSS pixels.
    pub size: f64,
    /// `true` for a splitter between columns (it moves left and right).
    pub vertical: bool,
    /// `true` when moving the splitter right (or down) makes the pane larger; `false` for a
    /// pane on the far side of it.
    pub grows_forward: bool,
    pub label: AttrValue,
    pub on_resize: Callback<(Pane, f64)>,
}

#[component]
pub fn Splitter(props: &Props) -> Html {
    // Where the drag started: the pointer's coordinate and the pane's size then.
    let origin = use_mut_ref(|| None::<(f64, f64)>);
    let sign = if props.grows_forward { 1.0 } else { -1.0 };
    let coordinate = {
        let vertical = props.vertical;
        move |event: &PointerEvent| {
            if vertical {
                f64::from(event.client_x())
            } else {
                f64::from(event.client_y())
            }
        }
    };
    let onpointerdown = {
        let (origin, size) = (origin.clone(), props.size);
        Callback::from(move |event: PointerEvent| {
            if event.button() != 0 {
                return;
            }
            event.prevent_default();
            *origin.borrow_mut() = Some((coordinate(&event), size));
            if let Some(target) = event.target_dyn_into::<Element>() {
                let _ = target.set_pointer_capture(event.pointer_id());
            }
        })
    };
    let onpointermove = {
        let (origin, on_resize, pane) = (origin.clone(), props.on_resize.clone(), props.pane);
        Callback::from(move |event: PointerEvent| {
            if let Some((start, size)) = *origin.borrow() {
                on_resize.emit((pane, size + sign * (coordinate(&event) - start)));
            }
        })
    };
    let end = {
        let origin = origin.clone();
        Callback::from(move |_: PointerEvent| *origin.borrow_mut() = None)
    };
    let onkeydown = {
        let (on_resize, pane, size, vertical) = (props.on_resize.clone(), props.pane, props.size, props.vertical);
        Callback::from(move |event: KeyboardEvent| {
            let delta = match (event.key().as_str(), vertical) {
                ("ArrowRight", true) | ("ArrowDown", false) => KEY_STEP,
                ("ArrowLeft", true) | ("ArrowUp", false) => -KEY_STEP,
                _ => return,
            };
            event.prevent_default();
            on_resize.emit((pane, size + sign * delta));
        })
    };
    let name = match props.pane {
        Pane::Editor => "splitter-editor",
        Pane::Inspector => "splitter-inspector",
        Pane::Workspace => "splitter-workspace",
        Pane::Launch => "splitter-launch",
    };
    html! {
        <div
            id={name}
            class={classes!("splitter", name, if props.vertical { "vertical" } else { "horizontal" })}
            role="separator"
            tabindex="0"
            aria-label={props.label.clone()}
            aria-orientation={if props.vertical { "vertical" } else { "horizontal" }}
            aria-valuenow={format!("{:.0}", props.size)}
            aria-valuemin={format!("{:.0}", props.pane.bounds().0)}
            aria-valuemax={format!("{:.0}", props.pane.bounds().1)}
            {onpointerdown}
            {onpointermove}
            onpointerup={end.clone()}
            onpointercancel={end}
            {onkeydown}
        ></div>
    }
}
