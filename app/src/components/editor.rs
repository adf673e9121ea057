//! The kernel editor: CodeMirror 6 ([`crate::codemirror`]) with OpenCL C / CUDA and litmus
//! highlighting, line numbers, undo, bracket matching, the work-items' current lines, the
//! diagnostics underlined and the findings in a gutter.
//!
//! The app owns the text: every edit is reported through `on_edit`, and a `source` that
//! differs from the document (an example was loaded) replaces it. The editor's own edits
//! coming back as `source` change nothing, so the cursor and the undo history survive them.
//! What the app asks of the editor directly (select a range, focus) goes through an
//! [`EditorHandle`] it creates and passes in.
//!
//! Tab indents; Escape, then Tab, leaves the editor, so keyboard users are never trapped.

use std::cell::RefCell;
use std::rc::Rc;

use interleave_engine::diag::Diagnostic;
use interleave_engine::report::Finding;
use web_sys::HtmlElement;
use yew::prelude::*;

use crate::codemirror::{Config, View};
use crate::marks;
use crate::state::Theme;

/// The app's way to act on the editor: select a range and scroll to it, focus it. Clones
/// share one editor; two handles are equal when they are clones of each other.
#[derive(Clone, Default)]
pub struct EditorHandle(Rc<RefCell<Slot>>);

#[derive(Default)]
struct Slot {
    view: Option<View>,
    /// The text the app last gave the editor, which byte offsets refer to.
    source: AttrValue,
}

impl PartialEq for EditorHandle {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl EditorHandle {
    /// Selects bytes `start..end` of the source and scrolls them into view (no focus: see
    /// [`EditorHandle::focus`]). Does nothing before the editor exists.
    pub fn select(&self, start: usize, end: usize) {
        let slot = self.0.borrow();
        if let Some(view) = &slot.view {
            let from = marks::doc_position(&slot.source, start);
            let to = marks::doc_position(&slot.source, end);
            view.select(from, to);
        }
    }

    pub fn focus(&self) {
        if let Some(view) = &self.0.borrow().view {
            view.focus();
        }
    }

    /// The editor's text, once it exists.
    pub fn text(&self) -> Option<String> {
        self.0.borrow().view.as_ref().map(View::text)
    }

    fn with_view(&self, act: impl FnOnce(&View)) {
        if let Some(view) = &self.0.borrow().view {
            act(view);
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub source: AttrValue,
    pub on_edit: Callback<AttrValue>,
    /// Selection, scrolling and focus, for the app.
    pub handle: EditorHandle,
    /// Lines where some work-item currently stands, marked faintly.
    #[prop_or_default]
    pub active_lines: Rc<Vec<u32>>,
    /// The line where the selected work-item stands, marked strongly.
    #[prop_or_default]
    pub selected_line: Option<u32>,
    /// Diagnostics to underline, with their messages on hover.
    #[prop_or_default]
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// The source the diagnostics were made for: they are shown only if it is the current
    /// one when they arrive, and then follow the user's edits.
    #[prop_or_default]
    pub diagnostics_source: AttrValue,
    /// The run's findings, one gutter marker per line.
    #[prop_or_default]
    pub findings: Rc<Vec<Finding>>,
    /// A gutter marker was clicked: its 1-based line.
    #[prop_or_default]
    pub on_gutter_finding: Callback<u32>,
    #[prop_or(Theme::Light)]
    pub theme: Theme,
    /// Whether the text is a litmus test rather than a kernel.
    #[prop_or_default]
    pub litmus: bool,
    /// Shown in the panel's title bar (the example picker).
    #[prop_or_default]
    pub children: Html,
}

#[component]
pub fn Editor(props: &Props) -> Html {
    let host = use_node_ref();
    // The editor's closures outlive a render, so they read the latest callbacks from here.
    let on_edit = use_mut_ref(|| props.on_edit.clone());
    *on_edit.borrow_mut() = props.on_edit.clone();
    let on_gutter = use_mut_ref(|| props.on_gutter_finding.clone());
    *on_gutter.borrow_mut() = props.on_gutter_finding.clone();
    props.handle.0.borrow_mut().source = props.source.clone();

    {
        let host = host.clone();
        let config = (props.source.clone(), props.litmus, props.theme);
        use_effect_with(props.handle.clone(), move |handle| {
            let (text, litmus, theme) = config;
            if let Some(element) = host.cast::<HtmlElement>() {
                let view = View::new(
                    &element,
                    Config {
                        text: text.to_string(),
                        litmus,
                        dark: theme == Theme::Dark,
                        on_change: Box::new(move |text| {
                            let callback = on_edit.borrow().clone();
                            callback.emit(AttrValue::from(text));
                        }),
                        on_finding: Box::new(move |line| {
                            let callback = on_gutter.borrow().clone();
                            callback.emit(line);
                        }),
                    },
                );
                handle.0.borrow_mut().view = Some(view);
            }
            let handle = handle.clone();
            // Dropping the view destroys the editor.
            move || drop(handle.0.borrow_mut().view.take())
        });
    }
    {
        let handle = props.handle.clone();
        use_effect_with(props.source.clone(), move |source| {
            handle.with_view(|view| view.set_text(source));
        });
    }
    {
        let handle = props.handle.clone();
        use_effect_with(props.litmus, move |&litmus| {
            handle.with_view(|view| view.set_litmus(litmus));
        });
    }
    {
        let handle = props.handle.clone();
        use_effect_with(props.theme, move |&theme| {
            handle.with_view(|view| view.set_dark(theme == Theme::Dark));
        });
    }
    {
        let handle = props.handle.clone();
        use_effect_with((props.selected_line, props.active_lines.clone()), move |(selected, lines)| {
            let others: Vec<u32> = lines.iter().copied().filter(|&line| Some(line) != *selected).collect();
            handle.with_view(|view| view.set_markers(*selected, &others));
        });
    }
    {
        let handle = props.handle.clone();
        let source = props.source.clone();
        use_effect_with((props.diagnostics.clone(), props.diagnostics_source.clone()), move |(diagnostics, made_for)| {
            let current = if *made_for == source { marks::underlines(made_for, diagnostics) } else { Vec::new() };
            let json = serde_json::to_string(&current).unwrap_or_else(|_| "[]".into());
            handle.with_view(|view| view.set_diagnostics(&json));
        });
    }
    {
        let handle = props.handle.clone();
        use_effect_with(props.findings.clone(), move |findings| {
            let lines = marks::line_findings(findings);
            let json = serde_json::to_string(&lines).unwrap_or_else(|_| "[]".into());
            handle.with_view(|view| view.set_findings(&json));
        });
    }

    let title = if props.litmus { "Litmus test" } else { "Kernel" };
    html! {
        <section class="editor panel" aria-labelledby="editor-title">
            <div class="panel-head">
                <h2 id="editor-title" class="panel-title">{ title }<span class="file">{ crate::form::file_name(props.litmus) }</span></h2>
                { props.children.clone() }
            </div>
            // CodeMirror builds its own DOM inside; Yew never renders children here.
            <div id="editor" class="code-area" ref={host}></div>
            <p id="editor-hint" class="hint">{ "Tab indents; press Esc, then Tab, to leave the editor." }</p>
        </section>
    }
}
