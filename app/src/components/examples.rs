//! The example picker: loads one of the bundled examples into the editor. It shows the
//! example the editor holds until the text is edited, and then a prompt.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::examples::{self, Example, EXAMPLES};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The id of the example the editor holds, if it holds one unedited.
    pub current: Option<&'static str>,
    pub on_load: Callback<&'static Example>,
}

#[component]
pub fn ExamplePicker(props: &Props) -> Html {
    let on_load = props.on_load.clone();
    let onchange = Callback::from(move |event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        if let Some(example) = examples::find(&select.value()) {
            on_load.emit(example);
        }
    });
    let option = |example: &'static Example| {
        let selected = props.current == Some(example.id);
        let file = example.id.rsplit('/').next().unwrap_or(example.id);
        html! {
            <option value={example.id} {selected}>{ format!("{} ({file})", example.title) }</option>
        }
    };
    html! {
        <div class="examples">
            <label for="examples" class="visually-hidden">{ "Load an example" }</label>
            <select id="examples" {onchange} title="Load an example into the editor (replaces its text)">
                <option value="" selected={props.current.is_none()} disabled=true>{ "Examples…" }</option>
                <optgroup label="Kernels">
                    { for EXAMPLES.iter().filter(|e| !e.is_litmus()).map(option) }
                </optgroup>
                <optgroup label="Litmus tests">
                    { for EXAMPLES.iter().filter(|e| e.is_litmus()).map(option) }
                </optgroup>
            </select>
        </div>
    }
}
