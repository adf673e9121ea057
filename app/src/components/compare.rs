//! The Compare models panel: the scenario explored under each execution model the engine
//! has (its `compare` module: independent work-items under sequential consistency and the
//! relaxed model, lockstep warps, fewer resident groups under either progress model), in a
//! worker, and the matrix of which findings and outcomes appear under which model. Each cell
//! opens that run: the launch takes the column's model and the cell's first seed, and runs.

use std::rc::Rc;

use interleave_engine::compare::Comparison;
use interleave_engine::explore::{Exploration, Outcome};
use interleave_engine::limits::thousands;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::explore::{self, outcome_labels};
use crate::state::{CompareRun, Phase};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub runs: AttrValue,
    pub run: Option<Rc<CompareRun>>,
    /// Whether the launch panel describes a scenario that can be run.
    pub can_start: bool,
    /// Whether the scenario changed since the comparison shown (its cells no longer open).
    pub stale: bool,
    pub on_runs: Callback<AttrValue>,
    pub on_start: Callback<()>,
    pub on_stop: Callback<()>,
    /// Opens a cell: (model, row, seed).
    pub on_open: Callback<(usize, usize, u64)>,
}

/// One row of the matrix: its label, per model the runs that showed it and the first seed,
/// and whether it is a finding.
struct Row {
    label: String,
    title: String,
    counts: Vec<Option<u64>>,
    seeds: Vec<Option<u64>>,
    finding: bool,
}

/// The rows: the findings, then the outcomes (labelled as the Explore panel labels them).
fn rows(c: &Comparison) -> Vec<Row> {
    let mut out: Vec<Row> = c
        .findings
        .iter()
        .map(|r| Row {
            label: format!("{} {}:{}", r.finding.kind.as_str(), r.finding.line, r.finding.column),
            title: r.finding.message.clone(),
            counts: r.counts.clone(),
            seeds: r.seeds.clone(),
            finding: true,
        })
        .collect();
    let outcomes: Vec<Outcome> = c
        .outcomes
        .iter()
        .map(|o| Outcome {
            values: o.values.clone(),
            registers: o.registers.clone(),
            exists: o.exists,
            ended: None,
            count: 0,
            seed: 0,
            schedule: None,
            choices: None,
            explanation: None,
        })
        .collect();
    let described: Vec<String> = outcomes.iter().map(explore::describe_outcome).collect();
    let exploration = Exploration {
        runs: 0,
        discarded: 0,
        complete: false,
        findings: Vec::new(),
        outcomes,
        exists_observed: None,
        distinct_schedules: 0,
        distinct_schedules_capped: false,
        schedule_hashes: Vec::new(),
        pct: None,
        exhaustive_offer: None,
    };
    for ((row, label), title) in c.outcomes.iter().zip(outcome_labels(&exploration)).zip(described) {
        out.push(Row { label, title, counts: row.counts.clone(), seeds: row.seeds.clone(), finding: false });
    }
    out
}

fn matrix(run: &CompareRun, c: &Comparison, enabled: bool, on_open: &Callback<(usize, usize, u64)>) -> Html {
    let rows = rows(c);
    html! {
        <div class="compare-table-wrap">
            <table id="compare-matrix" data-models={c.models.len().to_string()} data-rows={rows.len().to_string()}>
                <caption class="visually-hidden">{ "Runs showing each finding and outcome, by execution model" }</caption>
                <thead>
                    <tr>
                        <th scope="col">{ format!("{} seeds from {}", thousands(c.runs), c.first_seed) }</th>
                        { for c.models.iter().map(|m| html! {
                            <th scope="col" title={m.skipped.clone().unwrap_or_default()}>{ &m.name }</th>
                        }) }
                    </tr>
                </thead>
                <tbody>
                    { for rows.iter().enumerate().map(|(r, row)| html! {
                        <tr class={if row.finding { "finding-row" } else { "outcome-row" }}>
                            <th scope="row" class="row-label" title={row.title.clone()}>{ &row.label }</th>
                            { for c.models.iter().enumerate().map(|(m, model)| {
                                if let Some(why) = &model.skipped {
                                    return html! { <td class="skipped" title={why.clone()}>{ "—" }</td> };
                                }
                                let count = row.counts.get(m).copied().flatten();
                                let seed = row.seeds.get(m).copied().flatten().unwrap_or(c.first_seed);
                                let Some(count) = count else {
                                    return html! { <td class="pending">{ "…" }</td> };
                                };
                                let opened = run.opened == Some((m, r));
                                let label = format!("Run {} under {}, seed {seed}", row.label, model.name);
                                html! {
                                    <td class={classes!("model-cell", (count > 0).then_some("seen"), opened.then_some("opened"))} data-model={m.to_string()} data-row={r.to_string()}>
                                        <button type="button" disabled={!enabled} title={label.clone()} aria-label={label}
                                            onclick={on_open.reform(move |_: MouseEvent| (m, r, seed))}>{ thousands(count) }</button>
                                    </td>
                                }
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

#[component]
pub fn ComparePanel(props: &Props) -> Html {
    let running = props.run.as_ref().is_some_and(|r| !r.task.phase.over());
    let runs_error = explore::parse_runs(&props.runs).err();
    let can_start = props.can_start && !running && runs_error.is_none();
    let status = props.run.as_ref().map(|run| {
        let t = &run.task;
        let text = match t.phase {
            Phase::Running if t.budget == 0 => "starting the worker…".to_string(),
            Phase::Running => format!("{} / {} runs", thousands(t.executions), thousands(t.budget)),
            Phase::Stopping => "stopping…".to_string(),
            Phase::Done => "done".to_string(),
            Phase::Cancelled => "stopped: the models not run yet show no counts".to_string(),
            Phase::Failed => format!("failed: {}", t.problem.as_deref().unwrap_or("the comparison stopped")),
        };
        html! { <p id="compare-status" class="explore-status" data-phase={t.phase.as_str()} role="status" aria-live="polite">{ text }</p> }
    });
    let oninput = props.on_runs.reform(|event: InputEvent| AttrValue::from(event.target_unchecked_into::<HtmlInputElement>().value()));
    html! {
        <section class="compare panel" aria-labelledby="compare-title">
            <div class="panel-head">
                <h2 id="compare-title" class="panel-title">{ "Compare models" }</h2>
                <p class="hint">{ "Which execution model a finding or outcome needs: the scenario under each, the same seeds. A cell runs that model and seed." }</p>
            </div>
            <div class="explore-settings">
                <div class={classes!("field", runs_error.is_some().then_some("invalid"))}>
                    <label for="compare-runs">{ "Seeds per model" }</label>
                    <input id="compare-runs" type="text" inputmode="numeric" autocomplete="off" spellcheck="false" value={props.runs.clone()} disabled={running} {oninput} />
                    if let Some(error) = &runs_error { <p class="field-error">{ error.clone() }</p> }
                </div>
                <div class="explore-actions">
                    if running {
                        <button id="compare-stop" type="button" onclick={props.on_stop.reform(|_: MouseEvent| ())}>{ "Stop" }</button>
                    } else {
                        <button id="compare-start" type="button" class="primary" disabled={!can_start} onclick={props.on_start.reform(|_: MouseEvent| ())}>{ "Compare" }</button>
                    }
                </div>
            </div>
            { for status }
            if let Some(run) = &props.run {
                if let Some(result) = &run.task.result {
                    if props.stale {
                        <p class="note stale-note">{ "This comparison is of the scenario before your last edit; compare again to open its cells." }</p>
                    }
                    { matrix(run, result, !props.stale && !running, &props.on_open) }
                }
            }
        </section>
    }
}
