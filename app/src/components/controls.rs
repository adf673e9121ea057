//! The run controls: Run, Pause, Step and Reset.
//!
//! Run goes on in chunks so the page stays responsive, which is why a run in progress can be
//! paused; Step and Run are disabled once the run has ended, and all of them while the launch
//! panel holds an invalid value.

use yew::prelude::*;

use super::icon::{icon, Icon};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Whether the form describes a scenario that can be handed to the engine.
    pub can_start: bool,
    pub running: bool,
    pub ended: bool,
    pub on_run: Callback<()>,
    pub on_pause: Callback<()>,
    pub on_step: Callback<()>,
    /// Whether there is a step to go back from.
    pub can_step_back: bool,
    pub on_step_back: Callback<()>,
    pub on_reset: Callback<()>,
}

#[component]
pub fn Controls(props: &Props) -> Html {
    let idle = props.can_start && !props.running && !props.ended;
    let invalid_hint = (!props.can_start).then_some("Fix the highlighted launch settings first.");
    html! {
        <div class="controls" role="toolbar" aria-label="Run controls">
            if props.running {
                <button id="pause" type="button" class="primary" aria-keyshortcuts="r" onclick={props.on_pause.reform(|_: MouseEvent| ())}>
                    { icon(Icon::Pause) }{ "Pause" }
                </button>
            } else {
                <button id="run" type="button" class="primary" disabled={!idle} title={invalid_hint.unwrap_or("Run to the end (r)")} aria-keyshortcuts="r" onclick={props.on_run.reform(|_: MouseEvent| ())}>
                    { icon(Icon::Run) }{ "Run" }
                </button>
            }
            <button id="step-back" type="button" disabled={props.running || !props.can_step_back} title="Back one step, to exactly the state first reached there" onclick={props.on_step_back.reform(|_: MouseEvent| ())}>
                { "◀ Back" }
            </button>
            <button id="step" type="button" disabled={!idle} title={invalid_hint.unwrap_or("One scheduler step (s)")} aria-keyshortcuts="s" onclick={props.on_step.reform(|_: MouseEvent| ())}>
                { icon(Icon::Step) }{ "Step" }
            </button>
            <button id="reset" type="button" disabled={!props.can_start} title={invalid_hint.unwrap_or("A fresh session from the current settings (0 or Home)")} aria-keyshortcuts="0 Home" onclick={props.on_reset.reform(|_: MouseEvent| ())}>
                { icon(Icon::Reset) }{ "Reset" }
            </button>
        </div>
    }
}
