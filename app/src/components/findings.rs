//! The findings of the run: what the engine's detectors reported, in the order it reported
//! them. Choosing one selects its place in the editor.

use std::rc::Rc;

use interleave_engine::diag::{Severity, Span};
use interleave_engine::report::Finding;
use yew::prelude::*;

/// Where a finding points in the source: its span if it has one, else its line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourcePlace {
    pub span: Option<Span>,
    pub line: u32,
    pub column: u32,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub findings: Rc<Vec<Finding>>,
    /// Whether there is a session at all (an empty list then means "nothing found so far").
    pub live: bool,
    pub on_select: Callback<SourcePlace>,
}

pub fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// `wi 5` or `wi (1,2,0)`.
fn work_item_name(id: [u64; 3]) -> String {
    if id[1] == 0 && id[2] == 0 {
        format!("wi {}", id[0])
    } else {
        format!("wi ({},{},{})", id[0], id[1], id[2])
    }
}

#[component]
pub fn Findings(props: &Props) -> Html {
    let items = props.findings.iter().enumerate().map(|(i, finding)| {
        let place = SourcePlace { span: finding.span, line: finding.line, column: finding.column };
        let onclick = props.on_select.reform(move |_: MouseEvent| place);
        let severity = severity_name(finding.severity);
        let at = (finding.line > 0).then(|| format!("{}:{}", finding.line, finding.column));
        html! {
            <li key={i} class={classes!("finding", severity)} data-kind={finding.kind.as_str()}>
                <button type="button" {onclick} disabled={finding.line == 0 && finding.span.is_none()}>
                    <span class="sev">{ severity }</span>
                    <span class="kind">{ finding.kind.as_str() }</span>
                    <span class="msg">{ &finding.message }</span>
                    <span class="meta">
                        if let Some(at) = at { <span class="at">{ at }</span> }
                        if let Some(id) = finding.work_item { <span class="who">{ work_item_name(id) }</span> }
                        if let Some(step) = finding.step { <span class="when">{ format!("step {step}") }</span> }
                    </span>
                </button>
                if !finding.related.is_empty() {
                    <ul class="related">
                        { for finding.related.iter().map(|related| html! {
                            <li>
                                { &related.message }
                                { format!(" ({}:{}", related.line, related.column) }
                                if let Some(id) = related.work_item { { format!(", {}", work_item_name(id)) } }
                                if let Some(step) = related.step { { format!(", step {step}") } }
                                { ")" }
                            </li>
                        }) }
                    </ul>
                }
            </li>
        }
    });
    let empty = if props.live {
        "No findings so far."
    } else {
        "Findings appear here once a run starts."
    };
    html! {
        <section class="findings panel" aria-labelledby="findings-title">
            <h2 id="findings-title" class="panel-title">
                { "Findings" }
                if !props.findings.is_empty() { <span class="count">{ props.findings.len() }</span> }
            </h2>
            if props.findings.is_empty() {
                <p class="placeholder">{ empty }</p>
            } else {
                <ol id="findings">{ for items }</ol>
            }
        </section>
    }
}
