//! Diagnostics from creating a session, laid out the way the CLI prints them: severity, code
//! and message, then `file:line:col`, the source line, an underline under the span with its
//! label, the secondary labels, notes and help.
//!
//! Everything, source text included, goes into text nodes, which Yew escapes; no part of a
//! diagnostic is ever parsed as HTML.

use std::rc::Rc;

use interleave_engine::diag::{Diagnostic, LineIndex, Span};
use yew::prelude::*;

use crate::marks::severity_name;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// The source the diagnostics were produced for.
    pub source: AttrValue,
    pub file_name: AttrValue,
    /// Whether the inputs changed since (the diagnostics may no longer apply).
    #[prop_or_default]
    pub stale: bool,
}

/// The display width of text in the snippet: tabs are shown as four spaces.
fn width(text: &str) -> usize {
    text.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

/// One annotated source line: the gutter number, the line, and the underline with its label.
struct Snippet {
    line: u32,
    text: String,
    pad: usize,
    len: usize,
    label: String,
    primary: bool,
}

fn snippet(source: &str, index: &LineIndex, span: Span, label: &str, primary: bool) -> Snippet {
    let (line, column) = index.line_col(source, span.start);
    let (end_line, end_column) = index.line_col(source, span.end);
    let text = index.line_text(source, line);
    let before: String = text.chars().take(column as usize - 1).collect();
    let covered: String = if end_line == line {
        text.chars().skip(column as usize - 1).take(end_column.saturating_sub(column) as usize).collect()
    } else {
        text.chars().skip(column as usize - 1).collect()
    };
    Snippet { line, text: text.replace('\t', "    "), pad: width(&before), len: width(&covered).max(1), label: label.to_string(), primary }
}

fn render_snippet(s: &Snippet, gutter: usize) -> Html {
    let mark = if s.primary { "^" } else { "-" };
    let blank = " ".repeat(gutter);
    html! {
        <>
            <span class="gutter">{ format!("{:>gutter$} | ", s.line) }</span>{ &s.text }{ "\n" }
            <span class="gutter">{ format!("{blank} | ") }</span>
            <span class={if s.primary { "underline primary" } else { "underline secondary" }}>
                { format!("{}{} {}", " ".repeat(s.pad), mark.repeat(s.len), s.label) }
            </span>{ "\n" }
        </>
    }
}

fn render_one(diagnostic: &Diagnostic, source: &str, index: &LineIndex, file_name: &str) -> Html {
    let severity = severity_name(diagnostic.severity);
    let mut snippets = Vec::new();
    if let Some(span) = diagnostic.span {
        snippets.push(snippet(source, index, span, &diagnostic.span_label, true));
    }
    for label in &diagnostic.labels {
        snippets.push(snippet(source, index, label.span, &label.message, false));
    }
    let gutter = snippets.iter().map(|s| s.line.to_string().len()).max().unwrap_or(1);
    let blank = " ".repeat(gutter);
    let location = diagnostic.span.map(|span| {
        let (line, column) = index.line_col(source, span.start);
        format!("{file_name}:{line}:{column}")
    });
    html! {
        <li class={classes!("diagnostic", severity)} data-code={diagnostic.code.clone()}>
            <p class="diag-head">
                <span class="sev">{ severity }</span>
                <span class="code">{ format!("[{}]", diagnostic.code) }</span>
                { ": " }
                <span class="msg">{ &diagnostic.message }</span>
            </p>
            if location.is_some() || !diagnostic.notes.is_empty() || diagnostic.help.is_some() {
                <pre class="snippet">
                    if let Some(location) = location {
                        <span class="gutter">{ format!("{blank}--> ") }</span>
                        <span class="loc">{ location }</span>{ "\n" }
                        <span class="gutter">{ format!("{blank} |") }</span>{ "\n" }
                    }
                    { for snippets.iter().map(|s| render_snippet(s, gutter)) }
                    { for diagnostic.notes.iter().map(|note| html! {
                        <><span class="gutter">{ format!("{blank} = ") }</span><span class="note">{ "note" }</span>{ format!(": {note}\n") }</>
                    }) }
                    if let Some(help) = &diagnostic.help {
                        <span class="gutter">{ format!("{blank} = ") }</span><span class="help">{ "help" }</span>{ format!(": {help}\n") }
                    }
                </pre>
            }
        </li>
    }
}

#[component]
pub fn Diagnostics(props: &Props) -> Html {
    if props.diagnostics.is_empty() {
        return html! {};
    }
    let index = LineIndex::new(&props.source);
    html! {
        <section class={classes!("diagnostics", "panel", props.stale.then_some("stale"))} aria-labelledby="diagnostics-title">
            <h2 id="diagnostics-title" class="panel-title">
                { "Problems" }
                if props.stale { <span class="hint">{ " (from before your last edit)" }</span> }
            </h2>
            <ol id="diagnostics">
                { for props.diagnostics.iter().map(|d| render_one(d, &props.source, &index, &props.file_name)) }
            </ol>
        </section>
    }
}
