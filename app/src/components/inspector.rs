//! The inspector: tabs for the selected work-item, memory, locks and barriers.
//!
//! It draws an [`Inspection`] the app read from the session for the open tab only, and asks
//! the app (through callbacks) to change tab, pick a memory or select a work-item; it keeps
//! no state of its own. The tabs follow the WAI-ARIA tabs pattern: arrow keys move between
//! them, and the panel is labelled by its tab.

use std::rc::Rc;

use interleave_engine::inspect::{MemoryRef, MemoryView};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::inspector::{memory_label, work_item_name, BarrierPanel, Contents, Inspection, LockPanel, Tab, WorkItemPanel};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub tab: Tab,
    /// What to show; `None` before any session exists.
    pub inspection: Option<Rc<Inspection>>,
    pub on_tab: Callback<Tab>,
    pub on_memory: Callback<MemoryRef>,
    /// Selects a work-item by its linear index (a writer, holder or waiter was clicked).
    pub on_select_work_item: Callback<usize>,
    /// The global id of each lane, so ids in lock histories can be turned into lanes.
    pub lane_of: Callback<[u64; 3], Option<usize>>,
}

fn tab_id(tab: Tab) -> String {
    format!("inspector-tab-{}", tab.as_str())
}

#[component]
pub fn Inspector(props: &Props) -> Html {
    let tabs = Tab::ALL.iter().map(|&tab| {
        let selected = tab == props.tab;
        let onclick = props.on_tab.reform(move |_: MouseEvent| tab);
        let onkeydown = {
            let on_tab = props.on_tab.clone();
            Callback::from(move |event: KeyboardEvent| {
                let at = Tab::ALL.iter().position(|&t| t == tab).unwrap_or(0);
                let next = match event.key().as_str() {
                    "ArrowRight" => Tab::ALL[(at + 1) % Tab::ALL.len()],
                    "ArrowLeft" => Tab::ALL[(at + Tab::ALL.len() - 1) % Tab::ALL.len()],
                    "Home" => Tab::ALL[0],
                    "End" => Tab::ALL[Tab::ALL.len() - 1],
                    _ => return,
                };
                event.prevent_default();
                on_tab.emit(next);
                // Keep the focus on the tab that is now selected.
                if let Some(element) = gloo::utils::document().get_element_by_id(&tab_id(next)) {
                    if let Ok(element) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(element) {
                        let _ = element.focus();
                    }
                }
            })
        };
        html! {
            <button
                type="button"
                role="tab"
                id={tab_id(tab)}
                class={classes!("tab", selected.then_some("selected"))}
                aria-selected={selected.to_string()}
                aria-controls="inspector-panel"
                tabindex={if selected { "0" } else { "-1" }}
                {onclick}
                {onkeydown}
            >{ tab.title() }</button>
        }
    });
    let body = match props.inspection.as_deref() {
        None => html! { <p class="placeholder">{ "Step or run to inspect work-items, memory, locks and barriers." }</p> },
        Some(inspection) if inspection.tab != props.tab => html! { <p class="placeholder">{ "Reading…" }</p> },
        Some(inspection) => contents(props, &inspection.contents),
    };
    html! {
        <section class="inspector panel" aria-labelledby="inspector-title">
            <div class="panel-head">
                <h2 id="inspector-title" class="panel-title">{ "Inspector" }</h2>
            </div>
            <div class="tabs" role="tablist" aria-label="Inspector views">{ for tabs }</div>
            <div id="inspector-panel" role="tabpanel" aria-labelledby={tab_id(props.tab)} data-tab={props.tab.as_str()} tabindex="0">
                { body }
            </div>
        </section>
    }
}

fn contents(props: &Props, contents: &Contents) -> Html {
    match contents {
        Contents::NoWorkItem => html! {
            <p class="placeholder">{ "Click a lane's label in the timeline to select a work-item." }</p>
        },
        Contents::WorkItem(panel) => work_item(panel),
        Contents::Memory { memories, shown, stale } => memory(props, memories, shown.as_deref(), stale),
        Contents::Locks(locks) => lock_list(props, locks),
        Contents::Barriers(barriers) => barrier_list(props, barriers),
    }
}

fn work_item(panel: &WorkItemPanel) -> Html {
    html! {
        <div id="inspector-work-item" data-work-item={panel.view.index.to_string()} data-status={panel.view.status.as_str()}>
            <p class={classes!("wi-state", panel.view.status.as_str())}>{ &panel.status }</p>
            <dl class="ids">
                { for panel.ids.iter().map(|(name, value)| html! {
                    <><dt>{ *name }</dt><dd>{ value }</dd></>
                }) }
            </dl>
            <h3 class="sub-title">{ "Call stack" }</h3>
            if panel.frames.is_empty() {
                <p class="placeholder">{ "No frames: the work-item has finished." }</p>
            }
            <ol class="frames">
                { for panel.frames.iter().map(|frame| html! {
                    <li class="frame">
                        <div class="frame-name">{ &frame.function }</div>
                        if frame.variables.is_empty() {
                            <p class="placeholder">{ "No variables in scope." }</p>
                        } else {
                            <table class="vars">
                                <thead><tr><th scope="col">{ "name" }</th><th scope="col">{ "type" }</th><th scope="col">{ "value" }</th></tr></thead>
                                <tbody>
                                    { for frame.variables.iter().map(|v| html! {
                                        <tr data-var={v.name.clone()}>
                                            <td class="var-name">{ &v.name }</td>
                                            <td class="var-type">{ &v.type_name }</td>
                                            <td class="var-value">{ &v.value }</td>
                                        </tr>
                                    }) }
                                </tbody>
                            </table>
                        }
                    </li>
                }) }
            </ol>
        </div>
    }
}

fn memory(props: &Props, memories: &[(MemoryRef, String)], shown: Option<&MemoryView>, stale: &std::collections::BTreeMap<u64, String>) -> Html {
    if memories.is_empty() {
        return html! { <p class="placeholder">{ "This kernel has no buffers or local memory." }</p> };
    }
    let onchange = {
        let (on_memory, memories) = (props.on_memory.clone(), memories.to_vec());
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Some((memory, _)) = select.value().parse::<usize>().ok().and_then(|i| memories.get(i)) {
                on_memory.emit(*memory);
            }
        })
    };
    let chosen = shown.and_then(|view| memories.iter().position(|(m, _)| *m == view.memory));
    // The most recent write of the view marks the element the last step changed.
    let latest = shown.and_then(|view| view.elements.iter().enumerate().filter_map(|(i, e)| e.last_writer.map(|(_, step)| (step, i))).max().map(|(_, i)| i));
    html! {
        <div id="inspector-memory">
            <label class="field inline">
                <span>{ "Memory" }</span>
                <select id="memory-choice" {onchange}>
                    { for memories.iter().enumerate().map(|(i, (memory, name))| html! {
                        <option value={i.to_string()} selected={chosen == Some(i)}>{ memory_label(memory, name) }</option>
                    }) }
                </select>
            </label>
            if let Some(view) = shown {
                <p class="note">{ format!("{} elements of {}", view.elements.len() as u64 + view.more, view.elem) }
                    if view.more > 0 { { format!(" (the first {} shown)", view.elements.len()) } }
                </p>
                <ol class="memory-grid" aria-label={format!("Contents of {}", view.name)}>
                    { for view.elements.iter().enumerate().map(|(i, element)| {
                        let stale_text = stale.get(&(i as u64));
                        let writer = element.last_writer;
                        let title = match (&element.value, writer) {
                            (None, _) => format!("[{i}] uninitialised"),
                            (Some(v), Some((wi, step))) => format!("[{i}] = {v}, last written by lane {wi} at step {step}"),
                            (Some(v), None) => format!("[{i}] = {v}, initial contents"),
                        };
                        let title = match stale_text {
                            Some(text) => format!("{title}. {text}"),
                            None => title,
                        };
                        let onclick = writer.map(|(wi, _)| props.on_select_work_item.reform(move |_: MouseEvent| wi as usize));
                        html! {
                            <li
                                class={classes!(
                                    "cell",
                                    element.value.is_none().then_some("uninit"),
                                    (latest == Some(i)).then_some("latest"),
                                    stale_text.is_some().then_some("stale"),
                                )}
                                data-index={i.to_string()}
                                title={title.clone()}
                                aria-label={title}
                            >
                                <span class="cell-index">{ i }</span>
                                <span class="cell-value">{ element.value.clone().unwrap_or_else(|| "?".into()) }</span>
                                if let (Some((wi, _)), Some(onclick)) = (writer, onclick) {
                                    <button type="button" class="cell-writer" {onclick} aria-label={format!("Select lane {wi}, the last writer")}>{ format!("wi{wi}") }</button>
                                }
                            </li>
                        }
                    }) }
                </ol>
            }
        </div>
    }
}

fn who(props: &Props, id: [u64; 3]) -> Html {
    let name = work_item_name(id);
    match props.lane_of.emit(id) {
        Some(lane) => {
            let onclick = props.on_select_work_item.reform(move |_: MouseEvent| lane);
            html! { <button type="button" class="link" {onclick} aria-label={format!("Select {name}")}>{ name.clone() }</button> }
        }
        None => html! { <span>{ name }</span> },
    }
}

fn lock_list(props: &Props, locks: &[LockPanel]) -> Html {
    if locks.is_empty() {
        return html! { <p class="placeholder">{ "No locks recognised so far: a lock shows up once a work-item takes and releases it with atomics." }</p> };
    }
    html! {
        <ul id="inspector-locks" class="locks">
            { for locks.iter().map(|lock| html! {
                <li class="lock" data-location={lock.report.location.clone()} data-held={lock.holder.is_some().to_string()}>
                    <div class="lock-head">
                        <code>{ &lock.report.location }</code>
                        <span class="lock-state">
                            { match lock.holder {
                                Some(holder) => html! { <>{ "held by " }{ who(props, holder) }</> },
                                None => html! { { "free" } },
                            } }
                        </span>
                    </div>
                    <p class="note">
                        { format!("{} acquisitions, {} contended", lock.report.acquisitions, lock.report.contended) }
                        if lock.report.max_holders > 1 {
                            <strong class="error-text">{ format!(", held by {} at once", lock.report.max_holders) }</strong>
                        }
                    </p>
                    if !lock.waiters.is_empty() {
                        <p class="waiters">{ "waiting: " }{ for lock.waiters.iter().map(|&w| html! { <>{ who(props, w) }{ " " }</> }) }</p>
                    }
                    <details class="history">
                        <summary>{ format!("History ({} changes{})", lock.report.timeline.len(),
                            if lock.report.timeline_omitted > 0 { format!(", {} more not kept", lock.report.timeline_omitted) } else { String::new() }) }</summary>
                        <ol>
                            { for lock.report.timeline.iter().rev().take(200).map(|event| html! {
                                <li>{ format!("step {}: ", event.step) }{ who(props, event.work_item) }{ format!(" {}", match event.what {
                                    interleave_engine::report::LockAction::Acquire => "acquired it",
                                    interleave_engine::report::LockAction::Release => "released it",
                                    interleave_engine::report::LockAction::Attempt => "found it held",
                                }) }</li>
                            }) }
                        </ol>
                    </details>
                </li>
            }) }
        </ul>
    }
}

fn barrier_list(props: &Props, barriers: &[BarrierPanel]) -> Html {
    let waiting: Vec<&BarrierPanel> = barriers.iter().filter(|b| !b.view.arrived.is_empty()).collect();
    if waiting.is_empty() {
        return html! { <p class="placeholder">{ "No work-item is waiting at a barrier." }</p> };
    }
    let lane = |i: u32| {
        let onclick = props.on_select_work_item.reform(move |_: MouseEvent| i as usize);
        html! { <button type="button" class="link" {onclick} aria-label={format!("Select lane {i}")}>{ format!("lane {i}") }</button> }
    };
    html! {
        <ul id="inspector-barriers" class="barriers">
            { for waiting.into_iter().map(|b| html! {
                <li class="barrier" data-group={b.view.group.to_string()}>
                    <div class="barrier-head">
                        { format!("group {}: {} of {} arrived", b.view.group, b.view.arrived.len(), b.view.expected) }
                    </div>
                    <p class="note">{ "arrived: " }{ for b.view.arrived.iter().map(|&i| html! { <>{ lane(i) }{ " " }</> }) }</p>
                    if !b.missing.is_empty() {
                        <p class="note missing">{ "missing: " }{ for b.missing.iter().map(|&i| html! { <>{ lane(i) }{ " " }</> }) }</p>
                    }
                </li>
            }) }
        </ul>
    }
}
