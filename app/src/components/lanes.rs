//! The lane timeline: one row per work-item (per thread for a litmus test), grouped under
//! collapsible work-group headers (CUDA: blocks, then warps), with the run's events drawn on
//! a canvas beside the rows.
//!
//! The label column stays DOM because it is the accessible part: each lane's name, status
//! and "step this work-item by hand" button, a button that selects the lane, and a button per
//! header that folds it. The canvas ([`TimelineCanvas`]) draws everything else. Both sit in
//! one scrolling element, so they scroll together vertically; the canvas stays in view and
//! draws the rows the scroll position shows, and the label column renders only the rows
//! near the viewport, between spacers that keep its full height.

use std::collections::BTreeSet;
use std::rc::Rc;

use interleave_engine::scenario::Dialect;
use web_sys::HtmlElement;
use yew::prelude::*;

use super::timeline_canvas::TimelineCanvas;
use crate::snapshot::{Lane, Timeline, MAX_LANES};
use crate::state::Focus;
use crate::timeline::{layout, Fold, Headers, LaneSpec, Layout, Row, WhyArrows, AXIS_HEIGHT, ROW_HEIGHT};

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
    /// The selected work-item (linear index), highlighted in both columns.
    #[prop_or_default]
    pub selected: Option<usize>,
    /// A lane's label was clicked, or a lane chosen with the keyboard.
    #[prop_or_default]
    pub on_select_lane: Callback<usize>,
    /// Seeks the session to this step (an event was clicked).
    #[prop_or_default]
    pub on_seek: Callback<u64>,
    /// `(serial, step)`: when the serial changes, `step` is brought into view.
    #[prop_or_default]
    pub reveal: Option<(u64, u64)>,
    /// The work-items a shrunk failure involves; while it is on, the other lanes are
    /// collapsed.
    #[prop_or_default]
    pub focus: Option<Focus>,
    /// Turns the focus on (`true`) or shows every lane.
    #[prop_or_default]
    pub on_focus: Callback<bool>,
    /// The opened finding's explanation, drawn as arrows between the lanes.
    #[prop_or_default]
    pub why: Option<Rc<WhyArrows>>,
}

/// The event kinds in the order the legend lists them.
const KINDS: [&str; 12] =
    ["load", "store", "atomic", "fence", "barrier-arrive", "barrier-release", "async-copy", "wait", "printf", "promise", "finish", "statement"];

/// Label rows rendered beyond each edge of the viewport.
const OVERSCAN: usize = 40;
/// Label rows rendered before the first scroll.
const INITIAL_ROWS: usize = 100;

/// The rows in a viewport `height` pixels tall scrolled `top` pixels down.
fn rows_in_view(top: f64, height: f64) -> std::ops::Range<usize> {
    let first = ((top - AXIS_HEIGHT).max(0.0) / ROW_HEIGHT) as usize;
    let last = ((top + height) / ROW_HEIGHT).ceil() as usize;
    first..last.max(first)
}

/// How the rows' groups are called in this dialect: (group, warp).
fn group_words(dialect: Option<Dialect>) -> (&'static str, &'static str) {
    match dialect {
        Some(Dialect::Cuda) => ("block", "warp"),
        Some(Dialect::Litmus) => ("wg", "sub-group"),
        _ => ("group", "sub-group"),
    }
}

/// A lane's label row; `selected` is the selected work-item, highlighted if it is this one.
fn lane_row(lane: &Lane, selected: Option<usize>, on_step_lane: &Callback<usize>, on_select_lane: &Callback<usize>) -> Html {
    let index = lane.index;
    let ready = lane.status == "ready";
    let selected = selected == Some(index);
    html! {
        <div
            class={classes!("lane", selected.then_some("selected"))}
            key={format!("l{index}")}
            data-work-item={index.to_string()}
            data-status={lane.status}
            data-marks={lane.marks.to_string()}
        >
            <button
                type="button"
                class="lane-step"
                disabled={!ready}
                aria-label={format!("Step {} by hand", lane.label)}
                title="Step this work-item next (manual scheduling)"
                onclick={on_step_lane.reform(move |_: MouseEvent| index)}
            >{ "▸" }</button>
            <button
                type="button"
                class="wi"
                aria-pressed={selected.to_string()}
                title={format!("{} event{}; select this lane", lane.marks, if lane.marks == 1 { "" } else { "s" })}
                onclick={on_select_lane.reform(move |_: MouseEvent| index)}
            >{ &lane.label }</button>
            <span class={classes!("wi-status", lane.status)}>
                { lane.status }
                if let Some(line) = lane.line.filter(|_| lane.status != "finished") {
                    { format!(" · ln {line}") }
                }
            </span>
        </div>
    }
}

/// The line over the lanes that says which are collapsed, with the button that undoes it
/// (or does it again).
fn focus_bar(focus: &Focus, work_items: u64, on_focus: &Callback<bool>) -> Html {
    let n = focus.lanes.len();
    let lanes = format!("{n} work-item{}", if n == 1 { "" } else { "s" });
    let others = work_items.saturating_sub(n as u64);
    html! {
        <p id="lanes-focus" class="focus-bar" data-focus={focus.on.to_string()} data-lanes={n.to_string()}>
            if focus.on {
                { format!("Showing the {lanes} the failure involves; {others} other lane{} collapsed. ", if others == 1 { "" } else { "s" }) }
                <button type="button" id="focus-off" class="link" onclick={on_focus.reform(|_: MouseEvent| false)}>{ "Show all lanes" }</button>
            } else {
                { "All lanes shown. " }
                <button type="button" id="focus-on" class="link" onclick={on_focus.reform(|_: MouseEvent| true)}>{ format!("Collapse all but the {lanes} involved") }</button>
            }
        </p>
    }
}

/// What a header row shows.
struct Header {
    /// `group` or `warp`.
    class: &'static str,
    key: String,
    text: String,
    /// How many lanes it holds.
    count: usize,
    collapsed: bool,
    onclick: Callback<MouseEvent>,
}

/// A header row: a button that folds or unfolds its lanes.
fn header_row(header: Header) -> Html {
    let Header { class, key, text, count, collapsed, onclick } = header;
    html! {
        <div class={classes!("lane-header", class)} {key}>
            <button type="button" class="fold" aria-expanded={(!collapsed).to_string()} {onclick}>
                <span class="chevron" aria-hidden="true">{ if collapsed { "▸" } else { "▾" } }</span>
                { text }
                <span class="count">{ format!("{count} lane{}", if count == 1 { "" } else { "s" }) }</span>
            </button>
        </div>
    }
}

#[component]
pub fn Lanes(props: &Props) -> Html {
    let scroller = use_node_ref();
    let folded = use_state(|| Rc::new(BTreeSet::<Fold>::new()));

    let lanes: Vec<&Lane> = props.timeline.iter().flat_map(|t| t.groups.iter()).flat_map(|g| g.lanes.iter()).collect();
    let specs: Vec<LaneSpec> = props
        .timeline
        .iter()
        .flat_map(|t| t.groups.iter())
        .flat_map(|g| g.lanes.iter().map(|l| LaneSpec { work_item: l.index as u32, group: g.group as u32, warp: l.warp }))
        .collect();
    let headers = if props.timeline.as_ref().is_some_and(|t| t.warps) { Headers::GroupsAndWarps } else { Headers::Groups };
    // Each group's first warp, so that warps are numbered from 0 within their group.
    let mut first_warps = std::collections::BTreeMap::new();
    for spec in &specs {
        first_warps.entry(spec.group).or_insert(spec.warp);
    }
    let focused: Option<BTreeSet<u32>> = props.focus.as_ref().filter(|f| f.on).map(|f| f.lanes.iter().map(|&l| l as u32).collect());
    let rows: Rc<Layout> = {
        let folded = (*folded).clone();
        use_memo((specs, headers, folded, focused), |(specs, headers, folded, focused)| layout(specs, *headers, folded, focused.as_ref()))
    };

    // Only the label rows near the viewport are in the DOM: re-rendering a thousand rows on
    // every step takes tens of milliseconds, a hundred takes next to nothing. The window
    // moves when scrolling brings its edge within half the overscan.
    let window = use_state(|| 0..INITIAL_ROWS);
    {
        let (scroller, window) = (scroller.clone(), window.clone());
        let present = props.timeline.is_some();
        use_effect_with(present, move |_| {
            let listener = scroller.cast::<HtmlElement>().map(|element| {
                let target = element.clone();
                gloo::events::EventListener::new(&target, "scroll", move |_| {
                    let visible = rows_in_view(element.scroll_top() as f64, element.client_height() as f64);
                    // Moved when the visible rows come within half the overscan of an edge
                    // (the first row is an edge only when rows are hidden before it).
                    let margin = OVERSCAN / 2;
                    let current = (*window).clone();
                    let low = if current.start == 0 { 0 } else { current.start + margin };
                    if visible.start < low || visible.end + margin > current.end {
                        window.set(visible.start.saturating_sub(OVERSCAN)..visible.end + OVERSCAN);
                    }
                })
            });
            move || drop(listener)
        });
    }

    // Keep the selected lane in view when the keyboard moves the selection.
    {
        let (scroller, rows) = (scroller.clone(), rows.clone());
        use_effect_with(props.selected, move |selected| {
            let row = selected.and_then(|s| rows.rows.iter().position(|r| matches!(r, Row::Lane { work_item, .. } if *work_item as usize == s)));
            if let (Some(row), Some(scroller)) = (row, scroller.cast::<HtmlElement>()) {
                let top = AXIS_HEIGHT + row as f64 * ROW_HEIGHT;
                let (scroll, height) = (scroller.scroll_top() as f64, scroller.client_height() as f64);
                if top - AXIS_HEIGHT < scroll {
                    scroller.set_scroll_top((top - AXIS_HEIGHT) as i32);
                } else if top + ROW_HEIGHT > scroll + height {
                    scroller.set_scroll_top((top + ROW_HEIGHT - height) as i32);
                }
            }
        });
    }

    let toggle = |fold: Fold| {
        let folded = folded.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (**folded).clone();
            if !next.remove(&fold) {
                next.insert(fold);
            }
            folded.set(Rc::new(next));
        })
    };

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
        Some(timeline) => {
            let (group_word, warp_word) = group_words(timeline.dialect);
            // The window, kept within the rows (folding may have removed some).
            let shown = {
                let end = window.end.min(rows.rows.len());
                window.start.min(end)..end
            };
            let first_warp = |group: u32| first_warps.get(&group).copied().unwrap_or(0);
            let label = if props.litmus { "Timeline of events, one row per thread" } else { "Timeline of events, one row per work-item" };
            html! {
                <>
                    <div class="lanes-body" ref={scroller.clone()} style={format!("--row-h:{ROW_HEIGHT}px;--axis-h:{AXIS_HEIGHT}px")}>
                        <div class="lane-labels">
                            <div class="lanes-corner" aria-hidden="true">{ "step →" }</div>
                            <div class="lane-spacer" style={format!("height:{}px", shown.start as f64 * ROW_HEIGHT)}></div>
                            { for rows.rows[shown.clone()].iter().zip(shown.clone()).map(|(row, at)| match row {
                                Row::Group { group, lanes: members, collapsed } => header_row(Header {
                                    class: "group",
                                    key: format!("g{group}"),
                                    text: format!("{group_word} {group}"),
                                    count: members.len(),
                                    collapsed: *collapsed,
                                    onclick: toggle(Fold::Group(*group)),
                                }),
                                Row::Warp { group, warp, lanes: members, collapsed } => header_row(Header {
                                    class: "warp",
                                    key: format!("w{warp}"),
                                    text: format!("{warp_word} {}", warp - first_warp(*group)),
                                    count: members.len(),
                                    collapsed: *collapsed,
                                    onclick: toggle(Fold::Warp(*warp)),
                                }),
                                Row::Others { group, count } => html! {
                                    <div class="lane-header others" key={format!("o{group}-{at}")}>
                                        <button type="button" class="fold" aria-expanded="false" title="Show every lane" onclick={props.on_focus.reform(|_: MouseEvent| false)}>
                                            <span class="chevron" aria-hidden="true">{ "▸" }</span>
                                            { format!("{count} other lane{}", if *count == 1 { "" } else { "s" }) }
                                        </button>
                                    </div>
                                },
                                Row::Lane { position, .. } => match lanes.get(*position) {
                                    Some(lane) => lane_row(lane, props.selected, &props.on_step_lane, &props.on_select_lane),
                                    None => html! {},
                                },
                            }) }
                            <div class="lane-spacer" style={format!("height:{}px", (rows.rows.len() - shown.end) as f64 * ROW_HEIGHT)}></div>
                        </div>
                        <TimelineCanvas
                            timeline={timeline.clone()}
                            layout={rows.clone()}
                            selected={props.selected}
                            on_seek={props.on_seek.clone()}
                            on_select_lane={props.on_select_lane.clone()}
                            reveal={props.reveal}
                            why={props.why.clone()}
                            scroller={scroller.clone()}
                            label={AttrValue::from(label)}
                        />
                    </div>
                    <p class="hint" id="timeline-keys">
                        { "Wheel zooms, shift+wheel or drag pans, a click on an event goes to its step. Keys on the timeline: ← → pan, + − zoom, Home End, f fits, ↑ ↓ choose a lane, , . its previous or next event." }
                    </p>
                </>
            }
        }
    };
    let notes = props.timeline.as_ref().map(|timeline| {
        let mut notes = Vec::new();
        if timeline.hidden_lanes > 0 {
            notes.push(format!("Showing the first {MAX_LANES} work-items; {} more are not drawn.", timeline.hidden_lanes));
        }
        if timeline.overlays.lock_omitted > 0 {
            notes.push(format!(
                "Lock bands cover the first changes of each lock's state the engine keeps; {} later ones are not drawn.",
                timeline.overlays.lock_omitted
            ));
        }
        notes
    });
    let overlays = props.timeline.as_ref().map(|t| t.overlays.clone());
    let legend_extra = [
        ("tl-barrier", "barrier", true),
        ("tl-lock", "lock held", overlays.as_ref().is_some_and(|o| !o.lock_names.is_empty())),
        ("tl-lock-wait", "lock wait", overlays.as_ref().is_some_and(|o| !o.lock_names.is_empty())),
        ("tl-race", "data race", overlays.as_ref().is_some_and(|o| !o.races.is_empty())),
        ("tl-stale", "stale read", overlays.as_ref().is_some_and(|o| !o.stale.is_empty())),
        ("tl-lockstep", "lockstep lanes", props.timeline.as_ref().is_some_and(|t| t.lockstep)),
    ];
    html! {
        <section class="timeline panel" aria-labelledby="lanes-title">
            <div class="panel-head">
                <h2 id="lanes-title" class="panel-title">{ "Lanes" }</h2>
                <ul class="legend" aria-label="Event kinds">
                    { for KINDS.iter().map(|kind| html! {
                        <li><span class={classes!("swatch", format!("mark-{kind}"))} aria-hidden="true"></span>{ *kind }</li>
                    }) }
                    { for legend_extra.iter().filter(|e| e.2).map(|(class, text, _)| html! {
                        <li><span class={classes!("swatch", *class)} aria-hidden="true"></span>{ *text }</li>
                    }) }
                </ul>
            </div>
            if let Some(focus) = &props.focus {
                { focus_bar(focus, props.work_items, &props.on_focus) }
            }
            <div id="lanes" data-work-items={props.work_items.to_string()}>
                { body }
            </div>
            { for notes.into_iter().flatten().map(|note| html! { <p class="note">{ note }</p> }) }
        </section>
    }
}
