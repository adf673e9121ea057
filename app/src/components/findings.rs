//! The findings of the run: what the engine's detectors reported, in the order it reported
//! them, each with its message, its source locations (the primary one and the related ones,
//! such as the other access of a race), the step, the work-items and the seed, and an
//! "explain" text saying what the kind means and how such bugs are usually fixed.
//!
//! Opening a place (a click, or `n`/`p` from the keyboard) asks the app to select it in the
//! editor, bring its step into view on the timeline and select its work-item.

use std::rc::Rc;

use interleave_engine::diag::Span;
use interleave_engine::report::{Explanation, Finding, FindingKind};
use yew::prelude::*;

use crate::explain::explain;
use crate::inspector::work_item_name;
use crate::marks::severity_name;

/// Where a finding points in the source: its span if it has one, else its line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourcePlace {
    pub span: Option<Span>,
    pub line: u32,
    pub column: u32,
}

/// One place of a finding that the user opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opened {
    /// The finding's index in the list.
    pub index: usize,
    pub place: SourcePlace,
    pub step: Option<u64>,
    pub work_item: Option<[u64; 3]>,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub findings: Rc<Vec<Finding>>,
    /// Whether there is a session at all (an empty list then means "nothing found so far").
    pub live: bool,
    /// The seed of the run, shown with each finding so that it can be reproduced.
    #[prop_or_default]
    pub seed: Option<u64>,
    /// The finding last opened, highlighted.
    #[prop_or_default]
    pub current: Option<usize>,
    pub on_open: Callback<Opened>,
    /// The explanation of a finding (by index): the edges the run has and the one it lacks.
    #[prop_or_default]
    pub why: Option<(usize, Rc<Explanation>)>,
    /// The explanation of the run's outcome, when the relaxed model made it one no
    /// interleaving gives (a read of an older write, or of a write only promised) and no
    /// finding is opened: shown under the findings, in the same words as a finding's.
    #[prop_or_default]
    pub outcome_why: Option<Rc<Explanation>>,
    /// Shrinks the finding at this index (a worker finds a smaller schedule that shows it).
    #[prop_or_default]
    pub on_shrink: Callback<usize>,
    /// Whether a shrink is under way (another cannot start).
    #[prop_or_default]
    pub shrinking: bool,
}

/// The explanation of a finding or of a weak outcome in words: what is missing (the
/// engine's words) first, then each edge the run has.
fn why_view(explanation: &Explanation) -> Html {
    html! {
        <div class="why" data-edges={explanation.edges.len().to_string()}>
            <p class="why-missing"><strong>{ "Why: " }</strong>{ &explanation.missing }</p>
            if !explanation.edges.is_empty() {
                <ul class="why-edges">
                    { for explanation.edges.iter().map(|edge| html! {
                        <li data-kind={edge.kind.as_str()}>
                            <span class="edge-kind">{ edge.kind.as_str() }</span>
                            { format!(" {}:{} → {}:{} ", edge.from.line, edge.from.column, edge.to.line, edge.to.column) }
                            { &edge.text }
                        </li>
                    }) }
                </ul>
            }
            <p class="note">
                { if explanation.edges.is_empty() {
                    "The timeline draws the missing edge dashed in red, from the earlier access to the later."
                } else {
                    "The timeline draws these edges as arrows, and the missing one dashed in red."
                } }
            </p>
        </div>
    }
}

/// The place the finding itself points at.
pub fn primary(index: usize, finding: &Finding) -> Opened {
    Opened { index, place: SourcePlace { span: finding.span, line: finding.line, column: finding.column }, step: finding.step, work_item: finding.work_item }
}

#[component]
pub fn Findings(props: &Props) -> Html {
    let items = props.findings.iter().enumerate().map(|(i, finding)| {
        let opened = primary(i, finding);
        let onclick = props.on_open.reform(move |_: MouseEvent| opened);
        let severity = severity_name(finding.severity);
        let at = (finding.line > 0).then(|| format!("{}:{}", finding.line, finding.column));
        let text = explain(finding.kind);
        let current = props.current == Some(i);
        html! {
            <li
                key={i}
                id={format!("finding-{i}")}
                class={classes!("finding", severity, current.then_some("current"))}
                data-kind={finding.kind.as_str()}
                aria-current={current.then_some("true")}
            >
                <button type="button" class="finding-open" {onclick} title="Show it in the editor and on the timeline">
                    <span class="sev">{ severity }</span>
                    <span class="kind">{ finding.kind.as_str() }</span>
                    if finding.benign { <span class="tag">{ "benign" }</span> }
                    <span class="msg">{ &finding.message }</span>
                    <span class="meta">
                        if let Some(at) = at { <span class="at">{ at }</span> }
                        if let Some(id) = finding.work_item { <span class="who">{ work_item_name(id) }</span> }
                        if let Some(step) = finding.step { <span class="when">{ format!("step {step}") }</span> }
                        if let Some(seed) = props.seed { <span class="seed">{ format!("seed {seed}") }</span> }
                    </span>
                </button>
                if finding.kind != FindingKind::StepLimit {
                    <button
                        type="button"
                        id={format!("shrink-finding-{i}")}
                        class="shrink"
                        disabled={props.shrinking}
                        title="Find the smallest schedule that still shows this finding, and run it"
                        onclick={props.on_shrink.reform(move |_: MouseEvent| i)}
                    >{ "Shrink" }</button>
                }
                if let Some((_, explanation)) = props.why.as_ref().filter(|(k, _)| *k == i) {
                    { why_view(explanation) }
                }
                if !finding.related.is_empty() {
                    <ul class="related">
                        { for finding.related.iter().map(|related| {
                            let opened = Opened {
                                index: i,
                                place: SourcePlace { span: related.span, line: related.line, column: related.column },
                                step: related.step,
                                work_item: related.work_item,
                            };
                            let onclick = props.on_open.reform(move |_: MouseEvent| opened);
                            html! {
                                <li>
                                    <button type="button" class="link related-open" {onclick} disabled={related.line == 0 && related.span.is_none()}>
                                        { &related.message }
                                        { format!(" ({}:{}", related.line, related.column) }
                                        if let Some(id) = related.work_item { { format!(", {}", work_item_name(id)) } }
                                        if let Some(step) = related.step { { format!(", step {step}") } }
                                        { ")" }
                                    </button>
                                </li>
                            }
                        }) }
                    </ul>
                }
                <details class="explain">
                    <summary>{ format!("What is {}?", finding.kind.as_str()) }</summary>
                    <p>{ text.meaning }</p>
                    <p><strong>{ "Usual fix: " }</strong>{ text.fix }</p>
                </details>
            </li>
        }
    });
    let empty = if props.live { "No findings so far." } else { "Findings appear here once a run starts." };
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
            if let Some(explanation) = &props.outcome_why {
                <div id="outcome-why" class="outcome-why">
                    <h3>{ "Why this outcome" }</h3>
                    { why_view(explanation) }
                </div>
            }
        </section>
    }
}
