//! A shrink's status line under the run bar: what is shrunk and how far the worker has got
//! (with Stop), then the reduction it made (steps and preemptions, before and after), or why
//! it failed.

use std::rc::Rc;

use interleave_engine::limits::thousands;
use yew::prelude::*;

use crate::state::{Phase, Shrinking};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub shrink: Rc<Shrinking>,
    pub on_stop: Callback<()>,
}

#[component]
pub fn ShrinkStatus(props: &Props) -> Html {
    let s = &props.shrink;
    let t = &s.task;
    let (before, after) = match &t.result {
        Some(r) => (r.before.as_ref().map(|b| (b.steps, b.preemptions)), Some((r.after.steps, r.after.preemptions))),
        None => (None, None),
    };
    let text = match (t.phase, &t.result) {
        (Phase::Running, _) => format!("Shrinking {}: {} of at most {} executions…", s.target, thousands(t.executions), thousands(t.budget)),
        (Phase::Stopping, _) => format!("Stopping the shrink of {}…", s.target),
        (_, Some(result)) => match &t.problem {
            Some(problem) => format!("Shrunk {}: {}, but {problem}.", s.target, crate::shrink::reduction(result)),
            None => format!("Shrunk {}: {}.", s.target, crate::shrink::reduction(result)),
        },
        (Phase::Failed, None) => format!("Could not shrink {}: {}", s.target, t.problem.as_deref().unwrap_or("the worker stopped")),
        (_, None) => format!("The shrink of {} stopped before it found a schedule.", s.target),
    };
    html! {
        <p
            id="shrink-status"
            class={classes!("task-status", (t.phase == Phase::Failed).then_some("failed"))}
            data-phase={t.phase.as_str()}
            data-before-steps={before.map(|b| b.0.to_string())}
            data-before-preemptions={before.map(|b| b.1.to_string())}
            data-after-steps={after.map(|a| a.0.to_string())}
            data-after-preemptions={after.map(|a| a.1.to_string())}
            role="status"
            aria-live="polite"
        >
            <span>{ text }</span>
            if !t.phase.over() {
                <button type="button" id="shrink-stop" onclick={props.on_stop.reform(|_: MouseEvent| ())} title="Stop and keep the smallest schedule found so far">{ "Stop" }</button>
            }
        </p>
    }
}
