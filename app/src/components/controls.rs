//! The run controls: Run/Pause with a speed, Step, Back, run to the next finding, Reset, and
//! the time line below them (go to start, a scrubber over the steps reached so far, "go to
//! step", go to end).
//!
//! Run goes on in chunks so the page stays responsive, which is why a run in progress can be
//! paused; Step and Run are disabled once the run has ended, and all of them while the launch
//! panel holds an invalid value. Every seek lands on exactly the state first reached at that
//! step (the session replays from its snapshots).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::icon::{icon, Icon};
use crate::state::Speed;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Whether the form describes a scenario that can be handed to the engine.
    pub can_start: bool,
    pub running: bool,
    pub ended: bool,
    /// Whether a session exists.
    pub live: bool,
    /// The step the session is at.
    pub steps: u64,
    /// The furthest step this session has reached: the scrubber's end.
    pub furthest: u64,
    pub speed: Speed,
    pub on_run: Callback<()>,
    pub on_pause: Callback<()>,
    pub on_step: Callback<()>,
    pub on_step_back: Callback<()>,
    pub on_run_to_finding: Callback<()>,
    pub on_reset: Callback<()>,
    pub on_seek: Callback<u64>,
    pub on_speed: Callback<Speed>,
}

#[component]
pub fn Controls(props: &Props) -> Html {
    let idle = props.can_start && !props.running && !props.ended;
    let invalid_hint = (!props.can_start).then_some("Fix the highlighted launch settings first.");
    let seekable = props.live && !props.running;
    // The text of "go to step" while it is being typed; it is only applied on Enter or Go.
    let target = use_state(String::new);
    let target_error = use_state(|| None::<String>);

    let go = {
        let (target, target_error, on_seek, furthest) = (target.clone(), target_error.clone(), props.on_seek.clone(), props.furthest);
        move || match target.trim().replace([',', '_'], "").parse::<u64>() {
            Ok(step) => {
                target_error.set(None);
                on_seek.emit(step);
            }
            Err(_) if target.trim().is_empty() => target_error.set(None),
            Err(_) => target_error.set(Some(format!("a step number from 0; this run has reached step {furthest}"))),
        }
    };
    let on_target_input = {
        let target = target.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            target.set(input.value());
        })
    };
    let on_target_key = {
        let go = go.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() == "Enter" {
                event.prevent_default();
                go();
            }
        })
    };
    let on_go = Callback::from(move |_: MouseEvent| go());
    let on_scrub = {
        let on_seek = props.on_seek.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Ok(step) = input.value().parse::<f64>() {
                on_seek.emit(step.max(0.0) as u64);
            }
        })
    };
    let on_speed = {
        let on_speed = props.on_speed.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Some((speed, _)) = Speed::CHOICES.iter().find(|(_, label)| *label == select.value()) {
                on_speed.emit(*speed);
            }
        })
    };
    let furthest = props.furthest.max(props.steps);
    let on_start = props.on_seek.reform(|_: MouseEvent| 0);
    let on_end = props.on_seek.reform(move |_: MouseEvent| furthest);

    html! {
        <div class="control-block">
            <div class="controls" role="toolbar" aria-label="Run controls">
                if props.running {
                    <button id="pause" type="button" class="primary" aria-keyshortcuts="r Space" onclick={props.on_pause.reform(|_: MouseEvent| ())}>
                        { icon(Icon::Pause) }{ "Pause" }
                    </button>
                } else {
                    <button id="run" type="button" class="primary" disabled={!idle} title={invalid_hint.unwrap_or("Run to the end (r or Space)")} aria-keyshortcuts="r Space" onclick={props.on_run.reform(|_: MouseEvent| ())}>
                        { icon(Icon::Run) }{ "Run" }
                    </button>
                }
                <select id="speed" class="speed" aria-label="Run speed" title="Run speed" onchange={on_speed}>
                    { for Speed::CHOICES.iter().map(|(speed, label)| html! {
                        <option value={*label} selected={*speed == props.speed}>{ *label }</option>
                    }) }
                </select>
                <button id="step-back" type="button" disabled={props.running || !props.live || props.steps == 0} title="Back one step, to exactly the state first reached there (b or ←)" aria-keyshortcuts="b ArrowLeft" onclick={props.on_step_back.reform(|_: MouseEvent| ())}>
                    { icon(Icon::Back) }{ "Back" }
                </button>
                <button id="step" type="button" disabled={!idle} title={invalid_hint.unwrap_or("One scheduler step (s or →)")} aria-keyshortcuts="s ArrowRight" onclick={props.on_step.reform(|_: MouseEvent| ())}>
                    { icon(Icon::Step) }{ "Step" }
                </button>
                <button id="run-to-finding" type="button" disabled={!idle} title={invalid_hint.unwrap_or("Run until the next finding (f)")} aria-keyshortcuts="f" onclick={props.on_run_to_finding.reform(|_: MouseEvent| ())}>
                    { icon(Icon::Flag) }{ "Next finding" }
                </button>
                <button id="reset" type="button" disabled={!props.can_start} title={invalid_hint.unwrap_or("A fresh session from the current settings (0)")} aria-keyshortcuts="0" onclick={props.on_reset.reform(|_: MouseEvent| ())}>
                    { icon(Icon::Reset) }{ "Reset" }
                </button>
            </div>
            <div class="seekbar" role="group" aria-label="Time travel">
                <button id="go-start" type="button" class="icon-text" disabled={!seekable || props.steps == 0} title="Go to step 0 (Home)" aria-keyshortcuts="Home" aria-label="Go to the start" onclick={on_start}>{ icon(Icon::ToStart) }</button>
                <input
                    id="scrubber"
                    type="range"
                    min="0"
                    max={furthest.to_string()}
                    value={props.steps.to_string()}
                    disabled={!seekable || furthest == 0}
                    aria-label="Step"
                    aria-valuetext={format!("step {} of {}", props.steps, furthest)}
                    oninput={on_scrub}
                />
                <button id="go-end" type="button" class="icon-text" disabled={!seekable || props.steps >= furthest} title="Go to the furthest step reached (End)" aria-keyshortcuts="End" aria-label="Go to the furthest step reached" onclick={on_end}>{ icon(Icon::ToEnd) }</button>
                <label class="goto">
                    <span>{ "step" }</span>
                    <input
                        id="goto-step"
                        type="text"
                        inputmode="numeric"
                        size="7"
                        placeholder={props.steps.to_string()}
                        value={(*target).clone()}
                        disabled={!seekable}
                        aria-label="Go to step"
                        aria-invalid={target_error.is_some().to_string()}
                        aria-describedby="goto-step-error"
                        oninput={on_target_input}
                        onkeydown={on_target_key}
                        title="Type a step and press Enter (g focuses this field)"
                        aria-keyshortcuts="g"
                    />
                </label>
                <button id="goto-go" type="button" disabled={!seekable} onclick={on_go}>{ "Go" }</button>
                <span id="goto-step-error" class="field-error" aria-live="polite">{ (*target_error).clone().unwrap_or_default() }</span>
            </div>
        </div>
    }
}
