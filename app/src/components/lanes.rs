//! The lane timeline: one row per work-item, grouped by work-group, with one mark per event
//! placed at its step.
//!
//! Positions are CSS (`--step` times `--step-w`), so zooming is a matter of one custom
//! property. This DOM rendering is the simple first version; it keeps to the same data a
//! canvas timeline will draw.

use std::rc::Rc;

use web_sys::HtmlElement;
use yew::prelude::*;

use crate::snapshot::{Lane, Timeline, MAX_LANES, MAX_MARKS};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The number of work-items the launch describes, known before any session exists.
    pub work_items: u64,
    /// The live session's timeline, if there is a session.
    pub timeline: Option<Rc<Timeline>>,
    /// Steps one work-item by hand (manual scheduling), by its index.
    pub on_step_lane: Callback<usize>,
    /// Whether the source is a litmus test, whose threads are the lanes.
    #[prop_or_default]
    pub litmus: bool,
}

/// The event kinds in the order the legend lists them.
const KINDS: [&str; 10] = [
    "load",
    "store",
    "atomic",
    "fence",
    "barrier-arrive",
    "barrier-release",
    "async-copy",
    "wait",
    "printf",
    "finish",
];

fn lane_row(lane: &Lane, on_step_lane: &Callback<usize>) -> Html {
    let index = lane.index;
    let ready = lane.status == "ready";
    html! {
        <div class="lane" key={lane.index} data-work-item={lane.index.to_string()} data-status={lane.status}>
            <div class="lane-label">
                <button
                    type="button"
                    class="lane-step"
                    disabled={!ready}
                    aria-label={format!("Step {} by hand", lane.label)}
                    title="Step this work-item next (manual scheduling)"
                    onclick={on_step_lane.reform(move |_: MouseEvent| index)}
                >{ "▸" }</button>
                <span class="wi">{ &lane.label }</span>
                <span class={classes!("wi-status", lane.status)}>
                    { lane.status }
                    if let Some(line) = lane.line.filter(|_| lane.status != "finished") {
                        { format!(" · ln {line}") }
                    }
                </span>
            </div>
            <div class="track">
                { for lane.marks.iter().map(|mark| html! {
                    <span
                        class={classes!("mark", format!("mark-{}", mark.kind))}
                        style={format!("--step:{}", mark.step)}
                        title={mark.title.clone()}
                    ></span>
                }) }
            </div>
        </div>
    }
}

#[component]
pub fn Lanes(props: &Props) -> Html {
    let scroller = use_node_ref();
    let cursor = use_node_ref();
    // Follow the cursor: when a step moves it out of view, scroll so it sits three quarters
    // of the way across, leaving room for the steps still to come.
    {
        let (scroller, cursor) = (scroller.clone(), cursor.clone());
        let steps = props.timeline.as_ref().map(|t| t.steps);
        use_effect_with(steps, move |_| {
            if let (Some(scroller), Some(cursor)) =
                (scroller.cast::<HtmlElement>(), cursor.cast::<HtmlElement>())
            {
                let x = cursor.offset_left();
                let (left, width) = (scroller.scroll_left(), scroller.client_width());
                if x > left + width - 24 || x < left {
                    scroller.set_scroll_left((x - width * 3 / 4).max(0));
                }
            }
        });
    }
    let body = match &props.timeline {
        None if props.work_items == 0 && props.litmus => html! {
            <p class="placeholder">{ "Press Step or Run to see what is wrong with the litmus test." }</p>
        },
        None if props.work_items == 0 => html! {
            <p class="placeholder">{ "Fix the global size to see the work-items." }</p>
        },
        None if props.litmus => html! {
            <p class="placeholder">{ format!("{} threads, one lane each. Press Step or Run to start a session.", props.work_items) }</p>
        },
        None => html! {
            <p class="placeholder">{ format!("{} work-items. Press Step or Run to start a session.", props.work_items) }</p>
        },
        Some(timeline) => html! {
            <div class="scroller" ref={scroller} tabindex="0" aria-label={if props.litmus { "Timeline, one row per thread" } else { "Timeline, one row per work-item" }}>
                <div class="tracks" style={format!("--steps:{}", timeline.steps + 1)}>
                    <div class="cursor" ref={cursor} style={format!("--step:{}", timeline.steps)} aria-hidden="true"></div>
                    { for timeline.groups.iter().map(|rows| html! {
                        <div class="group" key={rows.group} data-group={rows.group.to_string()}>
                            <div class="group-label">{ format!("group {}", rows.group) }</div>
                            { for rows.lanes.iter().map(|lane| lane_row(lane, &props.on_step_lane)) }
                        </div>
                    }) }
                </div>
            </div>
        },
    };
    let notes = props.timeline.as_ref().map(|timeline| {
        let mut notes = Vec::new();
        if timeline.hidden_lanes > 0 {
            notes.push(format!(
                "Showing the first {MAX_LANES} work-items; {} more are not drawn.",
                timeline.hidden_lanes
            ));
        }
        if timeline.hidden_events > 0 {
            notes.push(format!(
                "Showing the last {MAX_MARKS} events; {} earlier ones are not drawn.",
                timeline.hidden_events
            ));
        }
        notes
    });
    html! {
        <section class="timeline panel" aria-labelledby="lanes-title">
            <div class="panel-head">
                <h2 id="lanes-title" class="panel-title">{ "Lanes" }</h2>
                <ul class="legend" aria-label="Event kinds">
                    { for KINDS.iter().map(|kind| html! {
                        <li><span class={classes!("swatch", format!("mark-{kind}"))} aria-hidden="true"></span>{ *kind }</li>
                    }) }
                </ul>
            </div>
            <div id="lanes" data-work-items={props.work_items.to_string()}>
                { body }
            </div>
            { for notes.into_iter().flatten().map(|note| html! { <p class="note">{ note }</p> }) }
        </section>
    }
}
