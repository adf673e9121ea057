//! The launch panel: global and local size, seed, scheduler, memory model and the kernel
//! arguments.
//!
//! Every field is text the user may be halfway through typing, so an invalid value is kept,
//! outlined and explained beside the field; it never reaches the engine because the form
//! then has no scenario to run. A litmus test places its own threads, so for one the sizes
//! and arguments give way to a note saying so.

use std::rc::Rc;

use interleave_engine::scenario::{MemoryModel, SchedulerKind};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::icon::{icon, Icon};
use crate::form::Form;
use crate::state::{ArgRow, MEMORY_MODELS, SCHEDULERS};

/// The scheduler select's value while an explored execution is replayed.
const REPLAY: &str = "replay";

#[derive(Properties, PartialEq)]
pub struct Props {
    pub global: AttrValue,
    pub local: AttrValue,
    pub seed: AttrValue,
    pub scheduler: SchedulerKind,
    pub memory_model: MemoryModel,
    /// Whether the scheduler is replaced by the replay of an explored execution.
    #[prop_or_default]
    pub replaying: bool,
    pub args: Rc<Vec<ArgRow>>,
    pub form: Rc<Form>,
    pub on_global: Callback<AttrValue>,
    pub on_local: Callback<AttrValue>,
    pub on_seed: Callback<AttrValue>,
    pub on_scheduler: Callback<SchedulerKind>,
    pub on_memory_model: Callback<MemoryModel>,
    pub on_arg: Callback<(u32, AttrValue)>,
    pub on_add_arg: Callback<()>,
    pub on_remove_arg: Callback<u32>,
}

/// The value of the input an event came from.
fn input_value(event: InputEvent) -> AttrValue {
    let input: HtmlInputElement = event.target_unchecked_into();
    AttrValue::from(input.value())
}

/// A labelled text field with its inline error.
fn field(
    id: &'static str,
    label: &'static str,
    value: &AttrValue,
    error: Option<&str>,
    hint: &'static str,
    oninput: Callback<InputEvent>,
) -> Html {
    let error_id = format!("{id}-error");
    html! {
        <div class={classes!("field", error.is_some().then_some("invalid"))}>
            <label for={id}>{ label }</label>
            <input
                {id}
                type="text"
                inputmode="numeric"
                autocomplete="off"
                spellcheck="false"
                value={value.clone()}
                placeholder={hint}
                aria-invalid={if error.is_some() { "true" } else { "false" }}
                aria-describedby={error.is_some().then(|| AttrValue::from(error_id.clone()))}
                {oninput}
            />
            if let Some(error) = error {
                <p class="field-error" id={error_id}>{ error.to_string() }</p>
            }
        </div>
    }
}

#[component]
pub fn LaunchPanel(props: &Props) -> Html {
    let form = &props.form;
    let on_seed_roll = {
        let on_seed = props.on_seed.clone();
        Callback::from(move |_: MouseEvent| {
            // Only a new seed value is drawn here; the run itself stays a pure function of it.
            let seed = (js_sys::Math::random() * 4_294_967_296.0) as u64;
            on_seed.emit(AttrValue::from(seed.to_string()));
        })
    };
    let onchange_scheduler = props.on_scheduler.reform(|event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        SchedulerKind::parse(&select.value()).unwrap_or(SchedulerKind::Random)
    });
    let onchange_model = props.on_memory_model.reform(|event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        let value = select.value();
        MEMORY_MODELS
            .iter()
            .find(|(_, name, _)| *name == value)
            .map_or(MemoryModel::Sc, |&(model, _, _)| model)
    });
    let seed_error = form.seed_error.as_deref();
    let litmus = form.is_litmus;

    html! {
        <section class="launch panel" aria-labelledby="launch-title">
            <h2 id="launch-title" class="panel-title">{ "Launch" }</h2>
            <div class="launch-grid">
                if !litmus {
                    { field("global", "Global size", &props.global, form.global_error.as_deref(), "8 or 8,2", props.on_global.reform(input_value)) }
                    { field("local", "Local size", &props.local, form.local_error.as_deref(), "auto", props.on_local.reform(input_value)) }
                }
                <div class={classes!("field", seed_error.is_some().then_some("invalid"))}>
                    <label for="seed">{ "Seed" }</label>
                    <div class="with-button">
                        <input
                            id="seed"
                            type="text"
                            inputmode="numeric"
                            autocomplete="off"
                            spellcheck="false"
                            value={props.seed.clone()}
                            aria-invalid={if seed_error.is_some() { "true" } else { "false" }}
                            aria-describedby={seed_error.map(|_| AttrValue::from("seed-error"))}
                            oninput={props.on_seed.reform(input_value)}
                        />
                        <button id="new-seed" type="button" class="icon" aria-label="New seed" title="New seed" onclick={on_seed_roll}>
                            { icon(Icon::Dice) }
                        </button>
                    </div>
                    if let Some(error) = seed_error {
                        <p class="field-error" id="seed-error">{ error.to_string() }</p>
                    }
                </div>
                <div class="field">
                    <label for="scheduler">{ "Scheduler" }</label>
                    <select id="scheduler" onchange={onchange_scheduler} title={props.replaying.then_some("Replaying an explored execution step by step; choose a scheduler to leave the replay")}>
                        if props.replaying {
                            <option value={REPLAY} selected=true>{ "manual (replay)" }</option>
                        }
                        { for SCHEDULERS.iter().map(|&kind| html! {
                            <option value={kind.name()} selected={!props.replaying && kind == props.scheduler}>{ kind.name() }</option>
                        }) }
                    </select>
                </div>
                <div class="field model">
                    <label for="memory-model">{ "Memory model" }</label>
                    <select id="memory-model" onchange={onchange_model}>
                        { for MEMORY_MODELS.iter().map(|&(model, name, words)| html! {
                            <option value={name} selected={model == props.memory_model}>{ words }</option>
                        }) }
                    </select>
                </div>
            </div>
            if litmus {
                <p id="litmus-note" class="note">
                    { "This is a litmus test: it places its threads itself, one work-item per thread in the work-groups and devices its header names, with one buffer per location, so it needs no sizes or arguments." }
                </p>
            } else {
            <fieldset class="args">
                <legend>{ "Arguments" }</legend>
                <ul>
                    { for props.args.iter().enumerate().map(|(position, row)| {
                        let id = row.id;
                        let error = form.arg_error(id);
                        let error_id = format!("arg-{id}-error");
                        let oninput = props.on_arg.reform(move |event: InputEvent| (id, input_value(event)));
                        let onremove = props.on_remove_arg.reform(move |_: MouseEvent| id);
                        html! {
                            <li key={id} class={classes!("arg", error.is_some().then_some("invalid"))}>
                                <div class="with-button">
                                    <input
                                        type="text"
                                        class="arg-input"
                                        autocomplete="off"
                                        spellcheck="false"
                                        placeholder="name=int[8]:fill=0"
                                        aria-label={format!("Argument {}", position + 1)}
                                        aria-invalid={if error.is_some() { "true" } else { "false" }}
                                        aria-describedby={error.map(|_| AttrValue::from(error_id.clone()))}
                                        value={row.text.clone()}
                                        {oninput}
                                    />
                                    <button type="button" class="icon" aria-label={format!("Remove argument {}", position + 1)} title="Remove" onclick={onremove}>
                                        { icon(Icon::Close) }
                                    </button>
                                </div>
                                if let Some(error) = error {
                                    <p class="field-error" id={error_id}>{ error.to_string() }</p>
                                }
                            </li>
                        }
                    }) }
                </ul>
                <button type="button" class="add-arg" onclick={props.on_add_arg.reform(|_: MouseEvent| ())}>{ "+ Add argument" }</button>
            </fieldset>
            }
        </section>
    }
}
