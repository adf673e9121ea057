//! The Explore panel: runs the scenario under many schedules in Web Workers and shows the
//! distinct outcomes it ends in, the findings, and whether a litmus test's condition was
//! ever met.
//!
//! Random exploration runs seeds from the launch panel's seed on, under its scheduler;
//! exhaustive exploration enumerates every execution (within a preemption bound, if one is
//! given). Start and Cancel drive the workers; the progress line counts executions against
//! the budget. Loading an outcome (a bar or a row) replays exactly that execution in the
//! lanes above. Results of a scenario that has since been edited stay visible but can no
//! longer be loaded.

use std::rc::Rc;

use interleave_engine::explore::{pct, Exploration};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::histogram::{Bar, Histogram};
use super::outcomes::OutcomeTable;
use crate::explore::{self, describe_outcome, outcome_labels, ExploreMode};
use crate::marks::severity_name;
use crate::state::{ExploreRun, Phase, Theme};
use interleave_engine::limits::thousands;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub mode: ExploreMode,
    pub runs: AttrValue,
    pub preemptions: AttrValue,
    pub exploration: Option<Rc<ExploreRun>>,
    /// Whether the launch panel describes a scenario that can be explored.
    pub can_start: bool,
    /// Whether the scenario changed since the exploration shown (its outcomes no longer load).
    pub stale: bool,
    pub litmus: bool,
    pub theme: Theme,
    pub on_mode: Callback<ExploreMode>,
    pub on_runs: Callback<AttrValue>,
    pub on_preemptions: Callback<AttrValue>,
    /// Starts an exploration: in the panel's mode, or in the one given (the "Explore every
    /// execution" button of a random exploration's offer gives the exhaustive mode).
    pub on_start: Callback<Option<ExploreMode>>,
    pub on_cancel: Callback<()>,
    pub on_load_outcome: Callback<usize>,
    pub on_load_finding: Callback<usize>,
    /// Shrinks the outcome at this index: the smallest schedule that ends in it.
    #[prop_or_default]
    pub on_shrink_outcome: Callback<usize>,
    /// Whether a shrink is under way (another cannot start).
    #[prop_or_default]
    pub shrinking: bool,
}

fn input_value(event: InputEvent) -> AttrValue {
    let input: HtmlInputElement = event.target_unchecked_into();
    AttrValue::from(input.value())
}

/// The bars (and rows) of an exploration's outcomes.
pub fn bars(exploration: &Exploration) -> Vec<Bar> {
    outcome_labels(exploration)
        .into_iter()
        .zip(&exploration.outcomes)
        .map(|(label, outcome)| Bar { label, description: describe_outcome(outcome), count: outcome.count, holds: outcome.exists == Some(true) })
        .collect()
}

/// The progress line: executions against the budget, and what the phase means.
fn progress(run: &ExploreRun) -> Html {
    let (executions, budget) = (run.executions(), run.budget());
    let workers = run.workers;
    let text = match (run.phase, run.mode) {
        (Phase::Running, _) if budget == 0 => "starting the workers…".to_string(),
        (Phase::Running, ExploreMode::Random) => {
            format!("{} / {} runs on {workers} worker{}", thousands(executions), thousands(budget), if workers == 1 { "" } else { "s" })
        }
        (Phase::Running, ExploreMode::Exhaustive) => {
            format!("{} executions explored; at most {} (an upper bound: the search usually ends long before)", thousands(executions), thousands(budget))
        }
        (Phase::Stopping, _) => format!("stopping after {} executions…", thousands(executions)),
        (Phase::Done, _) => format!("done: {} executions", thousands(executions)),
        (Phase::Cancelled, _) => format!("cancelled after {} executions", thousands(executions)),
        (Phase::Failed, _) => format!("failed: {}", run.problem.as_deref().unwrap_or("the exploration stopped")),
    };
    let value = (budget > 0).then(|| (executions.min(budget) as f64 / budget as f64).to_string());
    html! {
        <div id="explore-status" class="explore-status" data-phase={run.phase.as_str()} role="status" aria-live="polite">
            if !run.phase.over() {
                <progress max="1" value={value} aria-label="Exploration progress"></progress>
            }
            <span>{ text }</span>
        </div>
    }
}

/// `complete`, runs, `discarded` and `exists_observed`, each as a labelled value.
fn summary(run: &ExploreRun, result: &Exploration) -> Html {
    let complete = if result.complete {
        "yes: every execution was explored"
    } else if run.mode == ExploreMode::Random {
        "no: random seeds sample the executions"
    } else if run.phase == Phase::Cancelled {
        "no: cancelled before the end"
    } else {
        "no: the execution budget ran out first"
    };
    html! {
        <dl id="explore-summary" class="explore-summary">
            <div data-complete={result.complete.to_string()}><dt>{ "complete" }</dt><dd>{ complete }</dd></div>
            <div><dt>{ "runs" }</dt><dd>{ thousands(result.runs) }</dd></div>
            if let Some(distinct) = explore::distinct_schedules_text(result) {
                <div id="explore-distinct" title="Runs that differ only in the order of independent steps count once">
                    <dt>{ "distinct schedules" }</dt><dd>{ distinct }</dd>
                </div>
            }
            <div><dt>{ "outcomes" }</dt><dd>{ thousands(result.outcomes.len() as u64) }</dd></div>
            if let Some(pct) = &result.pct {
                <div id="explore-pct"><dt>{ "PCT bound" }</dt><dd>{ pct::describe(&pct::bound(pct, result.runs), result.runs) }</dd></div>
            }
            <div title="Executions the relaxed model does not allow (a promise never kept), not counted as runs">
                <dt>{ "discarded" }</dt><dd>{ thousands(result.discarded) }</dd>
            </div>
            if let Some(observed) = result.exists_observed {
                <div class={classes!("observed", observed.then_some("yes"))} data-exists-observed={observed.to_string()}>
                    <dt>{ "exists observed" }</dt>
                    <dd>{ if observed { "yes: some run satisfies the condition" } else { "no: no run satisfies the condition" } }</dd>
                </div>
            }
        </dl>
    }
}

/// The findings of the exploration, each with the seed or the replay that reproduces it.
fn findings(run: &ExploreRun, result: &Exploration, enabled: bool, on_load: &Callback<usize>) -> Html {
    if result.findings.is_empty() {
        return html! { <p class="placeholder">{ "No findings in any run." }</p> };
    }
    let seeded = run.mode == ExploreMode::Random;
    html! {
        <ol id="explore-findings" class="explore-findings">
            { for result.findings.iter().enumerate().map(|(index, found)| {
                let f = &found.finding;
                let severity = severity_name(f.severity);
                // An exhaustive search's finding replays from its schedule; a random one from
                // its seed.
                let replayable = found.schedule.is_some();
                let (shown, label) = if replayable {
                    ("a recorded schedule".to_string(), format!("Replay the execution that shows this {}", f.kind.as_str()))
                } else {
                    (format!("seed {}", found.seed), format!("Run seed {} to see this {}", found.seed, f.kind.as_str()))
                };
                html! {
                    <li key={index} class={classes!("finding", severity)} data-kind={f.kind.as_str()}>
                        <span class="sev">{ severity }</span>
                        <span class="kind">{ f.kind.as_str() }</span>
                        <span class="msg">{ &f.message }</span>
                        <span class="meta">
                            if f.line > 0 { <span class="at">{ format!("{}:{}", f.line, f.column) }</span> }
                            <span class="seed">{ shown }</span>
                            <span class="runs">{ format!("in {} of {} runs", thousands(found.runs), thousands(result.runs)) }</span>
                        </span>
                        if seeded || replayable {
                            <button
                                type="button"
                                class="replay"
                                disabled={!enabled}
                                aria-label={label}
                                onclick={on_load.reform(move |_: MouseEvent| index)}
                            >{ if replayable { "Replay".to_string() } else { format!("Run seed {}", found.seed) } }</button>
                        }
                    </li>
                }
            }) }
        </ol>
    }
}

#[component]
pub fn ExplorePanel(props: &Props) -> Html {
    let running = props.exploration.as_ref().is_some_and(|run| !run.phase.over());
    let runs_error = (props.mode == ExploreMode::Random).then(|| explore::parse_runs(&props.runs).err()).flatten();
    let preemptions_error = (props.mode == ExploreMode::Exhaustive).then(|| explore::parse_preemptions(&props.preemptions).err()).flatten();
    let can_start = props.can_start && !running && runs_error.is_none() && preemptions_error.is_none();
    let result = props.exploration.as_ref().and_then(|run| run.result.clone());
    let bars: Rc<Vec<Bar>> = {
        let result = result.clone();
        use_memo(result, |result| result.as_deref().map(bars).unwrap_or_default())
    };
    let enabled = !props.stale && !running;

    let mode = |value: ExploreMode, id: &'static str, words: &'static str| {
        let onchange = props.on_mode.reform(move |_: Event| value);
        html! {
            <label class="choice">
                <input type="radio" name="explore-mode" {id} value={value.as_str()} checked={props.mode == value} disabled={running} {onchange} />
                { words }
            </label>
        }
    };
    let setting = match props.mode {
        ExploreMode::Random => html! {
            <div class={classes!("field", runs_error.is_some().then_some("invalid"))}>
                <label for="explore-runs">{ "Runs" }</label>
                <input id="explore-runs" type="text" inputmode="numeric" autocomplete="off" spellcheck="false"
                    value={props.runs.clone()} disabled={running}
                    aria-invalid={if runs_error.is_some() { "true" } else { "false" }}
                    aria-describedby={if runs_error.is_some() { "explore-runs-error" } else { "explore-runs-hint" }}
                    oninput={props.on_runs.reform(input_value)} />
                if let Some(error) = &runs_error {
                    <p class="field-error" id="explore-runs-error">{ error.clone() }</p>
                } else {
                    <p class="hint" id="explore-runs-hint">{ "seeds from the launch seed on, under its scheduler" }</p>
                }
            </div>
        },
        ExploreMode::Exhaustive => html! {
            <div class={classes!("field", preemptions_error.is_some().then_some("invalid"))}>
                <label for="explore-preemptions">{ "Max preemptions" }</label>
                <input id="explore-preemptions" type="text" inputmode="numeric" autocomplete="off" spellcheck="false"
                    placeholder="no bound" value={props.preemptions.clone()} disabled={running}
                    aria-invalid={if preemptions_error.is_some() { "true" } else { "false" }}
                    aria-describedby={if preemptions_error.is_some() { "explore-preemptions-error" } else { "explore-preemptions-hint" }}
                    oninput={props.on_preemptions.reform(input_value)} />
                if let Some(error) = &preemptions_error {
                    <p class="field-error" id="explore-preemptions-error">{ error.clone() }</p>
                } else {
                    <p class="hint" id="explore-preemptions-hint">{ "empty: every execution, with partial-order reduction" }</p>
                }
            </div>
        },
    };
    let start_hint = if !props.can_start { "Fix the highlighted launch settings first." } else { "Explore in background workers; the page stays responsive" };

    html! {
        <section class="explore panel" aria-labelledby="explore-title">
            <div class="panel-head">
                <h2 id="explore-title" class="panel-title">{ "Explore" }</h2>
                <p class="hint">{ "Run the scenario under many schedules and collect the distinct outcomes." }</p>
            </div>
            <div class="explore-settings">
                <fieldset class="explore-mode">
                    <legend>{ "Schedules" }</legend>
                    { mode(ExploreMode::Random, "explore-mode-random", "Random seeds") }
                    { mode(ExploreMode::Exhaustive, "explore-mode-exhaustive", "Exhaustive") }
                </fieldset>
                { setting }
                <div class="explore-actions">
                    if running {
                        <button id="explore-cancel" type="button" onclick={props.on_cancel.reform(|_: MouseEvent| ())}
                            title="Stop the workers and show what they found so far">
                            { if props.exploration.as_ref().is_some_and(|r| r.phase == Phase::Stopping) { "Stop now" } else { "Cancel" } }
                        </button>
                    } else {
                        <button id="explore-start" type="button" class="primary" disabled={!can_start} title={start_hint}
                            onclick={props.on_start.reform(|_: MouseEvent| None)}>
                            { "Start" }
                        </button>
                    }
                </div>
            </div>
            if let Some(run) = &props.exploration {
                { progress(run) }
                if let Some(result) = &result {
                    if props.stale {
                        <p class="note stale-note">{ "These results are for the scenario as it was before your last edit; explore again to load its outcomes." }</p>
                    }
                    { summary(run, result) }
                    if let Some(executions) = result.exhaustive_offer.filter(|_| run.mode == ExploreMode::Random && !result.complete) {
                        <p class="note" id="explore-offer">
                            { format!("Every execution takes only {} run{}. ", thousands(executions), if executions == 1 { "" } else { "s" }) }
                            <button type="button" id="explore-every" disabled={!can_start || props.stale}
                                title="Explore every execution exhaustively, in a worker"
                                onclick={props.on_start.reform(|_: MouseEvent| Some(ExploreMode::Exhaustive))}>{ "Explore every execution" }</button>
                        </p>
                    }
                    if result.outcomes.is_empty() {
                        <p class="placeholder">{ "No execution finished, so there are no outcomes." }</p>
                    } else {
                        <div class="explore-results">
                            <Histogram bars={bars.clone()} selected={run.selected} theme={props.theme} {enabled} on_select={props.on_load_outcome.clone()} />
                            <OutcomeTable exploration={result.clone()} bars={bars.clone()} selected={run.selected} litmus={props.litmus || result.exists_observed.is_some()} {enabled} on_select={props.on_load_outcome.clone()} />
                        </div>
                        if let Some((index, bar)) = run.selected.and_then(|i| Some((i, bars.get(i)?))) {
                            <p class="picked" id="outcome-picked" data-outcome={index.to_string()}>
                                { format!("Picked: {} ({} runs). ", bar.label, thousands(bar.count)) }
                                <button type="button" id="shrink-outcome" class="shrink" disabled={!enabled || props.shrinking}
                                    title="Find the smallest schedule that ends in this outcome, and run it"
                                    onclick={props.on_shrink_outcome.reform(move |_: MouseEvent| index)}>{ "Shrink" }</button>
                            </p>
                        }
                    }
                    <h3 class="subtitle">{ "Findings in the explored runs" }</h3>
                    { findings(run, result, enabled, &props.on_load_finding) }
                }
            }
        </section>
    }
}
