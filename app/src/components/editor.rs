//! The kernel editor: a plain textarea with a line-number gutter that scrolls along with it.
//!
//! Tab inserts four spaces, since kernels are indented code; pressing Escape first lets the
//! next Tab move the focus on, so keyboard users are never trapped in the editor.

use std::rc::Rc;

use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub source: AttrValue,
    pub on_edit: Callback<AttrValue>,
    /// The textarea, shared so that findings can select lines in it.
    pub textarea: NodeRef,
    /// Lines where some work-item currently stands, marked in the gutter.
    #[prop_or_default]
    pub active_lines: Rc<Vec<u32>>,
    /// Whether the text is a litmus test rather than a kernel.
    #[prop_or_default]
    pub litmus: bool,
    /// Shown in the panel's title bar (the example picker).
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn Editor(props: &Props) -> Html {
    let gutter = use_node_ref();
    let tab_leaves = use_mut_ref(|| false);
    let line_count = props.source.split('\n').count();

    let oninput = props.on_edit.reform(|event: InputEvent| {
        let textarea: HtmlTextAreaElement = event.target_unchecked_into();
        AttrValue::from(textarea.value())
    });

    let onkeydown = {
        let on_edit = props.on_edit.clone();
        let tab_leaves = tab_leaves.clone();
        Callback::from(move |event: KeyboardEvent| {
            let leave = std::mem::take(&mut *tab_leaves.borrow_mut());
            match event.key().as_str() {
                "Escape" => *tab_leaves.borrow_mut() = true,
                "Tab" if !leave && !event.shift_key() && !event.ctrl_key() && !event.alt_key() => {
                    event.prevent_default();
                    let textarea: HtmlTextAreaElement = event.target_unchecked_into();
                    let start = textarea.selection_start().ok().flatten().unwrap_or(0);
                    let end = textarea.selection_end().ok().flatten().unwrap_or(start);
                    // setRangeText fires no input event, so the edit is reported by hand.
                    if textarea
                        .set_range_text_with_start_and_end_and_mode("    ", start, end, "end")
                        .is_ok()
                    {
                        on_edit.emit(AttrValue::from(textarea.value()));
                    }
                }
                _ => {}
            }
        })
    };

    let onscroll = {
        let gutter = gutter.clone();
        Callback::from(move |event: Event| {
            let textarea: HtmlTextAreaElement = event.target_unchecked_into();
            if let Some(gutter) = gutter.cast::<HtmlElement>() {
                gutter.set_scroll_top(textarea.scroll_top());
            }
        })
    };

    let (title, language) = if props.litmus {
        ("Litmus test", "Litmus test (OpenCL litmus format)")
    } else {
        ("Kernel", "Kernel source (OpenCL C)")
    };
    html! {
        <section class="editor panel" aria-labelledby="editor-title">
            <div class="panel-head">
                <h2 id="editor-title" class="panel-title">{ title }<span class="file">{ crate::form::file_name(props.litmus) }</span></h2>
                { props.children.clone() }
            </div>
            <div class="code-area">
                <div class="gutter" ref={gutter} aria-hidden="true">
                    { for (1..=line_count as u32).map(|n| {
                        let active = props.active_lines.contains(&n);
                        html! { <div class={classes!("ln", active.then_some("active"))}>{ n }</div> }
                    }) }
                </div>
                <textarea
                    id="source"
                    ref={props.textarea.clone()}
                    value={props.source.clone()}
                    aria-label={language}
                    aria-describedby="editor-hint"
                    spellcheck="false"
                    autocomplete="off"
                    autocapitalize="off"
                    wrap="off"
                    {oninput}
                    {onkeydown}
                    {onscroll}
                />
            </div>
            <p id="editor-hint" class="hint">{ "Tab indents; press Esc, then Tab, to leave the editor." }</p>
        </section>
    }
}
