//! The status line: how the run stands, for people (the text) and for scripts (the
//! `data-status` attribute, which is the engine's run-status string). Once a litmus test's
//! run has ended, its registers follow, with whether the final condition holds
//! (`data-exists`).

use yew::prelude::*;

use crate::state::Summary;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Whether a session for the current inputs exists.
    pub live: bool,
    pub running: bool,
    pub steps: u64,
    pub summary: Option<Summary>,
    /// Whether the last attempt to create a session failed.
    pub failed: bool,
    /// Why a replay's schedule stopped the run before its end (the engine's words).
    #[prop_or_default]
    pub stopped: Option<AttrValue>,
}

/// The trace hash shortened for the status line; the full hash is in the tooltip.
fn short_hash(hash: &str) -> String {
    let short: String = hash.chars().take(8).collect();
    if short.len() < hash.len() {
        format!("{short}…")
    } else {
        short
    }
}

#[component]
pub fn Status(props: &Props) -> Html {
    let plural = |n: u64| if n == 1 { "step" } else { "steps" };
    let (status, text, title): (&str, String, Option<AttrValue>) = match &props.summary {
        Some(summary) if props.live => (
            summary.status.as_str(),
            format!("{} · {} {} · trace {}", summary.status.as_str(), summary.steps, plural(summary.steps), short_hash(&summary.trace_hash)),
            Some(format!("trace hash {}", summary.trace_hash).into()),
        ),
        _ if props.live => match props.stopped.as_ref().filter(|_| !props.running) {
            // A replay that cannot go on by itself says why, rather than looking merely paused
            // (lanes may still be stepped by hand).
            Some(why) => ("running", format!("running · {} {} · paused: {why}", props.steps, plural(props.steps)), Some(why.clone())),
            None => {
                let what = if props.running { "running…" } else { "paused" };
                ("running", format!("running · {} {} · {what}", props.steps, plural(props.steps)), None)
            }
        },
        _ if props.failed => ("error", "error · see the problems below".into(), None),
        _ => ("idle", "ready · press Step or Run".into(), None),
    };
    let registers = props.summary.as_ref().filter(|_| props.live).and_then(|s| s.registers.clone().map(|r| (r, s.exists)));
    html! {
        <>
            <p id="status" class="status" data-status={status} data-steps={props.steps.to_string()} role="status" aria-live="polite" {title}>
                <span class="dot" aria-hidden="true"></span>
                { text }
            </p>
            if let Some((registers, exists)) = registers {
                <p id="registers" class="registers" data-exists={exists.map(|e| e.to_string())} aria-live="polite">
                    <span class="label">{ "registers" }</span>
                    <code>{ if registers.is_empty() { AttrValue::from("none") } else { registers } }</code>
                    { match exists {
                        Some(true) => html! { <span class="holds">{ "condition holds" }</span> },
                        Some(false) => html! { <span class="fails">{ "condition does not hold" }</span> },
                        None => html! {},
                    } }
                </p>
            }
        </>
    }
}
