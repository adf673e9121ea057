//! The table of explored outcomes: the histogram's data for keyboards and screen readers.
//! Each row says how often the outcome came up, what it is, whether it satisfies a litmus
//! test's condition, and how it is reproduced; its button loads that run into the main
//! session.

use std::rc::Rc;

use interleave_engine::explore::Exploration;
use yew::prelude::*;

use super::histogram::Bar;
use interleave_engine::limits::thousands;

/// The most rows drawn; a wide kernel may end in thousands of distinct states.
pub const MAX_ROWS: usize = 500;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub exploration: Rc<Exploration>,
    pub bars: Rc<Vec<Bar>>,
    pub selected: Option<usize>,
    /// Whether the outcomes belong to a litmus test (whose condition gets a column).
    pub litmus: bool,
    /// Whether rows can be loaded (not while the results are stale).
    pub enabled: bool,
    pub on_select: Callback<usize>,
}

#[component]
pub fn OutcomeTable(props: &Props) -> Html {
    let total = props.exploration.runs.max(1) as f64;
    let rows = props.exploration.outcomes.iter().zip(props.bars.iter()).take(MAX_ROWS).enumerate().map(|(index, (outcome, bar))| {
        let share = outcome.count as f64 * 100.0 / total;
        let how = match &outcome.schedule {
            Some(schedule) => format!("schedule of {} steps", schedule.len()),
            None => format!("seed {}", outcome.seed),
        };
        let selected = props.selected == Some(index);
        let holds = outcome.exists;
        html! {
            <tr
                key={index}
                data-index={index.to_string()}
                data-exists={holds.map(|h| h.to_string())}
                class={classes!(holds.is_some_and(|h| h).then_some("holds"), selected.then_some("selected"))}
                aria-current={selected.then_some("true")}
            >
                <td class="num">{ thousands(outcome.count) }</td>
                <td class="num share">{ format!("{share:.1}%") }</td>
                <td class="outcome" title={bar.description.clone()}><code>{ &bar.label }</code></td>
                if props.litmus {
                    <td class="condition">
                        { match holds {
                            Some(true) => html! { <span class="holds">{ "✓ holds" }</span> },
                            Some(false) => html! { <span class="fails">{ "no" }</span> },
                            None => html! {},
                        } }
                    </td>
                }
                <td class="how">{ how }</td>
                <td>
                    <button
                        type="button"
                        class="replay"
                        disabled={!props.enabled}
                        aria-label={format!("Load outcome {} ({}) into the run", index + 1, bar.label)}
                        title="Run exactly this execution in the lanes above"
                        onclick={props.on_select.reform(move |_: MouseEvent| index)}
                    >{ "Load" }</button>
                </td>
            </tr>
        }
    });
    let hidden = props.exploration.outcomes.len().saturating_sub(MAX_ROWS);
    html! {
        <div class="outcomes">
            <table id="explore-outcomes">
                <caption class="visually-hidden">{ "Distinct outcomes, most frequent first" }</caption>
                <thead>
                    <tr>
                        <th scope="col" class="num">{ "Runs" }</th>
                        <th scope="col" class="num">{ "Share" }</th>
                        <th scope="col">{ "Outcome" }</th>
                        if props.litmus { <th scope="col">{ "Condition" }</th> }
                        <th scope="col">{ "Reproduced by" }</th>
                        <th scope="col"><span class="visually-hidden">{ "Load" }</span></th>
                    </tr>
                </thead>
                <tbody>{ for rows }</tbody>
            </table>
            if hidden > 0 {
                <p class="note">{ format!("{} less frequent outcomes are not listed.", thousands(hidden as u64)) }</p>
            }
        </div>
    }
}
