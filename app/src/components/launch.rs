//! The launch panel: dialect and kernel, the NDRange (or CUDA grid and block), scheduler,
//! seed, memory model, the less common settings (warp size, residency, progress model,
//! granularity, step limit), and the table of kernel arguments.
//!
//! Every field is text the user may be halfway through typing, so an invalid value is kept,
//! outlined and explained beside the field (`aria-invalid`, and the message named by
//! `aria-describedby`); it never reaches the engine because the form then has no scenario to
//! run. A litmus test places its own threads, so for one the sizes and arguments give way to
//! a note saying so.
//!
//! The argument table has a row per parameter of the kernel's signature, with controls that
//! fit the parameter (a buffer's element type, length, contents and access; a local array's
//! bytes; a scalar's value) and, under them, the same row as the CLI's `--arg` text, which can
//! be typed into directly.

use std::rc::Rc;

use interleave_engine::limits::thousands;
use interleave_engine::scenario::{Access, Dialect, ElemType, Granularity, MemoryModel, Progress, SchedulerKind};
use web_sys::{HtmlDetailsElement, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::icon::{icon, Icon};
use crate::args::{self, ArgFields, ArgKind, Checked, Field, Init, ParamClass, ACCESSES};
use crate::form::Form;
use crate::inputs::{InputEdit, Inputs, DIALECTS, LIMITS, MEMORY_MODELS, SCHEDULERS};
use interleave_engine::limits::STEPS;
use interleave_engine::scenario::WARP_SIZES;

/// The scheduler select's value while an explored execution is replayed.
const REPLAY: &str = "replay";

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The launch as typed.
    pub inputs: Rc<Inputs>,
    /// The inputs checked, field by field.
    pub form: Rc<Form>,
    /// Every edit of the panel, one per field.
    pub on_edit: Callback<InputEdit>,
}

/// The value of the input an event came from.
fn input_value(event: InputEvent) -> String {
    let input: HtmlInputElement = event.target_unchecked_into();
    input.value()
}

/// The value of the select a change came from.
fn select_value(event: Event) -> String {
    let select: HtmlSelectElement = event.target_unchecked_into();
    select.value()
}

/// The `aria-describedby` of a field: its help, and its error when it has one.
fn described_by(help: Option<&str>, error: Option<&str>) -> Option<AttrValue> {
    let ids: Vec<&str> = [help, error].into_iter().flatten().collect();
    (!ids.is_empty()).then(|| AttrValue::from(ids.join(" ")))
}

/// A labelled text field with its help and inline error.
struct TextField<'a> {
    id: &'a str,
    label: &'a str,
    value: &'a str,
    error: Option<&'a str>,
    placeholder: &'a str,
    /// A line under the field (the default and limits).
    help: Option<String>,
    oninput: Callback<InputEvent>,
}

fn text_field(f: TextField) -> Html {
    let error_id = format!("{}-error", f.id);
    let help_id = format!("{}-help", f.id);
    html! {
        <div class={classes!("field", f.error.is_some().then_some("invalid"))}>
            <label for={f.id.to_string()}>{ f.label.to_string() }</label>
            <input
                id={f.id.to_string()}
                type="text"
                inputmode="numeric"
                autocomplete="off"
                spellcheck="false"
                value={f.value.to_string()}
                placeholder={f.placeholder.to_string()}
                aria-invalid={if f.error.is_some() { "true" } else { "false" }}
                aria-describedby={described_by(f.help.as_ref().map(|_| help_id.as_str()), f.error.map(|_| error_id.as_str()))}
                oninput={f.oninput}
            />
            if let Some(help) = &f.help {
                <p class="hint" id={help_id.clone()}>{ help.clone() }</p>
            }
            if let Some(error) = f.error {
                <p class="field-error" id={error_id}>{ error.to_string() }</p>
            }
        </div>
    }
}

/// A labelled select: `(value, words, selected)` per option.
fn select_field(id: &str, label: &str, options: Vec<(String, String, bool)>, onchange: Callback<Event>) -> Html {
    html! {
        <div class="field">
            <label for={id.to_string()}>{ label.to_string() }</label>
            <select id={id.to_string()} {onchange}>
                { for options.into_iter().map(|(value, words, selected)| html! {
                    <option {value} {selected}>{ words }</option>
                }) }
            </select>
        </div>
    }
}

#[component]
pub fn LaunchPanel(props: &Props) -> Html {
    let form = &props.form;
    let inputs = &props.inputs;
    let edit = &props.on_edit;
    let replaying = inputs.replay.is_some();
    let more_open = use_state(|| false);
    let on_seed_roll = edit.reform(|_: MouseEvent| {
        // Only a new seed value is drawn here; the run itself stays a pure function of it.
        let seed = (js_sys::Math::random() * 4_294_967_296.0) as u64;
        InputEdit::Seed(seed.to_string())
    });
    let onchange_scheduler = edit.reform(|event: Event| InputEdit::Scheduler(SchedulerKind::parse(&select_value(event)).unwrap_or(SchedulerKind::Random)));
    let onchange_model = edit.reform(|event: Event| {
        let value = select_value(event);
        InputEdit::MemoryModel(MEMORY_MODELS.iter().find(|(_, name, _)| *name == value).map_or(MemoryModel::Sc, |&(model, _, _)| model))
    });
    let seed_error = form.seed_error.as_deref();
    let litmus = form.is_litmus;
    let cuda = !litmus && inputs.dialect == Dialect::Cuda;
    let default_steps = interleave_engine::scenario::Scenario::default().max_steps;

    let dialect_field = if litmus {
        html! {
            <div class="field">
                <label for="dialect">{ "Dialect" }</label>
                <select id="dialect" disabled=true title="Recognised from the text: it starts with OPENCL">
                    <option selected=true>{ "litmus test" }</option>
                </select>
            </div>
        }
    } else {
        select_field(
            "dialect",
            "Dialect",
            DIALECTS.iter().map(|&(dialect, name, words)| (name.to_string(), words.to_string(), dialect == inputs.dialect)).collect(),
            edit.reform(|event: Event| {
                let value = select_value(event);
                let dialect = DIALECTS.iter().find(|(_, name, _)| *name == value).map_or(Dialect::OpenCl, |&(dialect, _, _)| dialect);
                InputEdit::Dialect(dialect)
            }),
        )
    };
    let kernel_field = form.kernels.as_ref().filter(|kernels| !litmus && kernels.len() > 1).map(|kernels| {
        select_field(
            "kernel",
            "Kernel",
            kernels
                .iter()
                .map(|k| {
                    let selected = form.kernel.as_deref() == Some(k.name.as_str());
                    (k.name.clone(), k.name.clone(), selected)
                })
                .collect(),
            edit.reform(|event: Event| InputEdit::Kernel(select_value(event))),
        )
    });
    let (global_label, local_label, global_id, local_id) =
        if cuda { ("Grid (blocks)", "Block (threads)", "grid", "block") } else { ("Global size", "Local size", "global", "local") };
    let sizes = (!litmus).then(|| {
        html! {
            <>
                { text_field(TextField { id: global_id, label: global_label, value: &inputs.global, error: form.global_error.as_deref(), placeholder: "8 or 8,2", help: None, oninput: edit.reform(|e| InputEdit::Global(input_value(e))) }) }
                { text_field(TextField { id: local_id, label: local_label, value: &inputs.local, error: form.local_error.as_deref(), placeholder: if cuda { "32 or 16,16" } else { "auto" }, help: None, oninput: edit.reform(|e| InputEdit::Local(input_value(e))) }) }
                if !cuda {
                    { text_field(TextField { id: "offset", label: "Offset", value: &inputs.offset, error: form.offset_error.as_deref(), placeholder: "0", help: None, oninput: edit.reform(|e| InputEdit::Offset(input_value(e))) }) }
                }
            </>
        }
    });
    let scheduler_field = html! {
        <div class="field">
            <label for="scheduler">{ "Scheduler" }</label>
            <select id="scheduler" onchange={onchange_scheduler} title={replaying.then_some("Replaying an explored execution step by step; choose a scheduler to leave the replay")}>
                if replaying {
                    // A lockstep run replays under lockstep, every other one under the manual
                    // scheduler.
                    <option value={REPLAY} selected=true>{ format!("{} (replay)", inputs.scheduler.replayed_by().name()) }</option>
                }
                { for SCHEDULERS.iter().map(|&kind| html! {
                    <option value={kind.name()} selected={!replaying && kind == inputs.scheduler}>{ kind.name() }</option>
                }) }
            </select>
        </div>
    };
    let pct_field = (inputs.scheduler == SchedulerKind::Pct && !replaying).then(|| {
        text_field(TextField {
            id: "pct-depth",
            label: "PCT depth",
            value: &inputs.pct_depth,
            error: form.pct_depth_error.as_deref(),
            placeholder: "3",
            help: None,
            oninput: edit.reform(|e| InputEdit::PctDepth(input_value(e))),
        })
    });
    let seed_field = html! {
        <div class={classes!("field", seed_error.is_some().then_some("invalid"))}>
            <label for="seed">{ "Seed" }</label>
            <div class="with-button">
                <input
                    id="seed"
                    type="text"
                    inputmode="numeric"
                    autocomplete="off"
                    spellcheck="false"
                    value={inputs.seed.clone()}
                    aria-invalid={if seed_error.is_some() { "true" } else { "false" }}
                    aria-describedby={seed_error.map(|_| AttrValue::from("seed-error"))}
                    oninput={edit.reform(|e| InputEdit::Seed(input_value(e)))}
                />
                <button id="new-seed" type="button" class="icon" aria-label="New seed" title="New seed" onclick={on_seed_roll}>
                    { icon(Icon::Dice) }
                </button>
            </div>
            if let Some(error) = seed_error {
                <p class="field-error" id="seed-error">{ error.to_string() }</p>
            }
        </div>
    };
    let model_field = html! {
        <div class="field model">
            <label for="memory-model">{ "Memory model" }</label>
            <select id="memory-model" onchange={onchange_model}>
                { for MEMORY_MODELS.iter().map(|&(model, name, words)| html! {
                    <option value={name} selected={model == inputs.memory_model}>{ words }</option>
                }) }
            </select>
        </div>
    };

    // The settings under "More": open by themselves when one of them is invalid.
    let more_invalid = form.max_steps_error.is_some()
        || form.limit_errors.iter().any(Option::is_some)
        || (!litmus && (form.warp_size_error.is_some() || form.resident_groups_error.is_some()));
    let summary = {
        let mut parts = Vec::new();
        if !litmus {
            parts.push(format!("warp {}", inputs.warp_size));
            parts.push(if inputs.resident_groups.trim().is_empty() {
                "all groups resident".to_string()
            } else {
                format!("{} resident", inputs.resident_groups)
            });
            parts.push(inputs.progress.name().to_string());
        }
        parts.push(inputs.granularity.label().to_string());
        let steps = inputs.max_steps.trim().parse::<u64>().map_or_else(|_| inputs.max_steps.to_string(), thousands);
        parts.push(format!("{steps} steps at most"));
        parts.join(" · ")
    };
    let ontoggle = {
        let more_open = more_open.clone();
        Callback::from(move |event: Event| {
            let details: HtmlDetailsElement = event.target_unchecked_into();
            more_open.set(details.open());
        })
    };
    let more = html! {
        <details id="launch-more" class="more" open={*more_open || more_invalid} {ontoggle}>
            <summary>{ "More settings" }<span class="summary-values">{ summary }</span></summary>
            <div class="launch-grid">
                if !litmus {
                    { text_field(TextField { id: "warp-size", label: if cuda { "Warp size" } else { "Sub-group size" }, value: &inputs.warp_size, error: form.warp_size_error.as_deref(), placeholder: "32", help: Some(format!("{} to {}", WARP_SIZES.start(), WARP_SIZES.end())), oninput: edit.reform(|e| InputEdit::WarpSize(input_value(e))) }) }
                    { text_field(TextField { id: "resident-groups", label: "Resident groups", value: &inputs.resident_groups, error: form.resident_groups_error.as_deref(), placeholder: "all", help: Some("empty: all at once".into()), oninput: edit.reform(|e| InputEdit::ResidentGroups(input_value(e))) }) }
                    { select_field("progress", "Progress", Progress::ALL.iter().map(|&(name, p)| (name.to_string(), name.to_string(), p == inputs.progress)).collect(), edit.reform(|e| InputEdit::Progress(Progress::parse(&select_value(e)).unwrap_or_default()))) }
                }
                { select_field("granularity", "Step", Granularity::ALL.iter().map(|&(name, g)| (name.to_string(), g.label().to_string(), g == inputs.granularity)).collect(), edit.reform(|e| InputEdit::Granularity(Granularity::parse(&select_value(e)).unwrap_or_default()))) }
                { text_field(TextField { id: "max-steps", label: "Max steps", value: &inputs.max_steps, error: form.max_steps_error.as_deref(), placeholder: "1000000", help: Some(format!("default {}, at most {}", thousands(default_steps), thousands(STEPS.max))), oninput: edit.reform(|e| InputEdit::MaxSteps(input_value(e))) }) }
                { for LIMITS.iter().enumerate().map(|(k, limit)| {
                    let id = format!("limit-{}", limit.field.trim_start_matches("max_").replace('_', "-"));
                    let default = limit.default.to_string();
                    text_field(TextField {
                        id: &id,
                        label: limit.label,
                        value: &inputs.limit(k),
                        error: form.limit_errors[k].as_deref(),
                        placeholder: &default,
                        help: Some(format!("default {}, at most {}", thousands(limit.default), thousands(limit.max))),
                        oninput: edit.reform(move |e| InputEdit::Limit(k, input_value(e))),
                    })
                }) }
            </div>
        </details>
    };

    let problems = form.invalid_settings();

    html! {
        <section class="launch panel" aria-labelledby="launch-title">
            <h2 id="launch-title" class="panel-title">{ "Launch" }</h2>
            <div class="launch-grid">
                { dialect_field }
                if let Some(kernel_field) = kernel_field { { kernel_field } }
                { sizes.unwrap_or_default() }
                { scheduler_field }
                if let Some(pct_field) = pct_field { { pct_field } }
                { seed_field }
                { model_field }
            </div>
            { more }
            if litmus {
                <p id="litmus-note" class="note">
                    { "This is a litmus test: it places its threads itself, one work-item per thread in the work-groups and devices its header names, with one buffer per location, so it needs no sizes or arguments." }
                </p>
            } else {
                <ArgsTable
                    form={props.form.clone()}
                    on_edit={props.on_edit.clone()}
                />
            }
            if !problems.is_empty() {
                <p id="launch-problems" class="field-error" role="status">
                    { format!("Run and Step wait for valid settings: {}.", problems.join(", ")) }
                </p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct TableProps {
    form: Rc<Form>,
    on_edit: Callback<InputEdit>,
}

/// The argument table: a row per parameter, then the rows set aside.
#[component]
fn ArgsTable(props: &TableProps) -> Html {
    let form = &props.form;
    let table = &form.table;
    let caption = match &form.kernel {
        Some(kernel) => format!("Arguments of `{kernel}`"),
        None => "Arguments".to_string(),
    };
    html! {
        <div class="args">
            <h3 class="args-title" id="args-title">{ caption }</h3>
            if let Some(problem) = &form.signature_problem {
                <p id="args-note" class="note" role="status">
                    { format!("The kernel's parameters cannot be read until it compiles ({problem}). The rows below are kept as they were.") }
                </p>
            }
            <table id="args-table" aria-labelledby="args-title">
                <thead>
                    <tr><th scope="col">{ "Parameter" }</th><th scope="col">{ "Value" }</th></tr>
                </thead>
                <tbody>
                    if table.rows.is_empty() {
                        <tr class="empty"><td colspan="2">{ "The kernel takes no parameters." }</td></tr>
                    }
                    { for table.rows.iter().map(|row| arg_row(row, props)) }
                    { for table.set_aside.iter().map(|row| set_aside_row(row, props)) }
                </tbody>
            </table>
            if form.signature_problem.is_some() {
                <button type="button" class="add-arg" onclick={props.on_edit.reform(|_: MouseEvent| InputEdit::AddArg)}>{ "+ Add a row as text" }</button>
            }
        </div>
    }
}

/// The DOM id of a row's field.
fn field_id(name: &str, field: &str) -> String {
    format!("arg-{name}-{field}")
}

/// A labelled control inside a row, with its inline error.
fn row_input(row: &Checked, field: Field, label: &str, value: &str, placeholder: &str, on_edit: &Callback<InputEdit>, set: fn(&mut ArgFields, String)) -> Html {
    let id = field_id(&row.name, field.slug());
    let error = row.error(field);
    let error_id = format!("{id}-error");
    let fields = row.fields.clone();
    let oninput = on_edit.reform(move |event: InputEvent| {
        let mut fields = fields.clone();
        set(&mut fields, input_value(event).to_string());
        InputEdit::ArgFields(fields)
    });
    html! {
        <span class={classes!("cell-field", field.slug(), error.is_some().then_some("invalid"))}>
            <input
                {id}
                type="text"
                autocomplete="off"
                spellcheck="false"
                value={value.to_string()}
                placeholder={placeholder.to_string()}
                title={label.to_string()}
                aria-label={format!("{}: {label}", row.name)}
                aria-invalid={if error.is_some() { "true" } else { "false" }}
                aria-describedby={error.map(|_| AttrValue::from(error_id.clone()))}
                {oninput}
            />
            if let Some(error) = error {
                <span class="field-error" id={error_id}>{ error.to_string() }</span>
            }
        </span>
    }
}

/// A select inside a row: `(value, words)` per option.
fn row_select(
    row: &Checked,
    slug: &str,
    label: &str,
    options: &[(String, String)],
    current: &str,
    on_edit: &Callback<InputEdit>,
    set: fn(&mut ArgFields, &str),
) -> Html {
    let fields = row.fields.clone();
    let onchange = on_edit.reform(move |event: Event| {
        let mut fields = fields.clone();
        set(&mut fields, &select_value(event));
        InputEdit::ArgFields(fields)
    });
    html! {
        <select id={field_id(&row.name, slug)} class={slug.to_string()} title={label.to_string()} aria-label={format!("{}: {label}", row.name)} {onchange}>
            { for options.iter().map(|(value, words)| html! {
                <option value={value.clone()} selected={value == current}>{ words.clone() }</option>
            }) }
        </select>
    }
}

/// What a row of this class may pass, with the words the select shows.
fn kind_options(class: Option<ParamClass>) -> Vec<(ArgKind, &'static str)> {
    match class {
        Some(ParamClass::Buffer { .. }) => vec![(ArgKind::Default, "default (random)"), (ArgKind::Buffer, "buffer"), (ArgKind::Null, "NULL")],
        Some(ParamClass::Local { .. }) => vec![(ArgKind::Default, "default size"), (ArgKind::Local, "bytes")],
        Some(ParamClass::Scalar(_)) => vec![(ArgKind::Scalar, "value")],
        Some(ParamClass::Aggregate) => vec![(ArgKind::Default, "default (random)"), (ArgKind::Buffer, "bytes")],
        None => vec![
            (ArgKind::Default, "nothing"),
            (ArgKind::Buffer, "buffer"),
            (ArgKind::Local, "local bytes"),
            (ArgKind::Scalar, "value"),
            (ArgKind::Null, "NULL"),
        ],
    }
}

fn kind_name(kind: ArgKind) -> &'static str {
    match kind {
        ArgKind::Default => "default",
        ArgKind::Buffer => "buffer",
        ArgKind::Local => "local",
        ArgKind::Scalar => "scalar",
        ArgKind::Null => "null",
    }
}

/// The controls for a row's structured fields, followed by `tail` (the row's text).
fn controls(row: &Checked, class: Option<ParamClass>, on_edit: &Callback<InputEdit>, tail: Html) -> Html {
    let fields = &row.fields;
    let kinds = kind_options(class);
    let kind_select = (kinds.len() > 1).then(|| {
        let options: Vec<(String, String)> = kinds.iter().map(|(kind, words)| (kind_name(*kind).to_string(), words.to_string())).collect();
        row_select(row, "kind", "passes", &options, kind_name(fields.kind), on_edit, |f, value| {
            f.kind = [ArgKind::Default, ArgKind::Buffer, ArgKind::Local, ArgKind::Scalar, ArgKind::Null]
                .into_iter()
                .find(|kind| kind_name(*kind) == value)
                .unwrap_or(ArgKind::Default);
        })
    });
    let elem_options: Vec<(String, String)> = ElemType::ALL.iter().map(|t| (t.name().to_string(), t.name().to_string())).collect();
    let set_elem: fn(&mut ArgFields, &str) = |f, value| {
        f.elem = ElemType::parse(value).unwrap_or(f.elem);
    };
    let body = match fields.kind {
        ArgKind::Default | ArgKind::Null => html! {},
        ArgKind::Local => row_input(row, Field::Bytes, "bytes per work-group", &fields.bytes, "bytes", on_edit, |f, v| f.bytes = v),
        ArgKind::Scalar => html! {
            <>
                if class.is_none() {
                    { row_select(row, "elem", "type", &elem_options, fields.elem.name(), on_edit, set_elem) }
                }
                { row_input(row, Field::Value, "value", &fields.value, "value", on_edit, |f, v| f.value = v) }
            </>
        },
        ArgKind::Buffer => {
            let init_options: Vec<(String, String)> = Init::ALL.iter().map(|(_, name, words)| (name.to_string(), words.to_string())).collect();
            let access_options: Vec<(String, String)> = ACCESSES.iter().map(|(_, name, words)| (name.to_string(), words.to_string())).collect();
            let access_name = ACCESSES.iter().find(|(a, _, _)| *a == fields.access).map_or("read-write", |(_, name, _)| name);
            let details = match fields.init {
                Init::Fill => row_input(row, Field::Fill, "fill value", &fields.fill, "0", on_edit, |f, v| f.fill = v),
                Init::Range => html! {
                    <>
                        { row_input(row, Field::Start, "range start", &fields.start, "start", on_edit, |f, v| f.start = v) }
                        { row_input(row, Field::Step, "range step", &fields.step, "step", on_edit, |f, v| f.step = v) }
                    </>
                },
                Init::Values => row_input(row, Field::Values, "values, comma-separated", &fields.values, "1, 2, 3", on_edit, |f, v| f.values = v),
                Init::Zeros | Init::Random | Init::Uninit => html! {},
            };
            html! {
                <>
                    { row_select(row, "elem", "element type", &elem_options, fields.elem.name(), on_edit, set_elem) }
                    { row_input(row, Field::Len, "length (elements)", &fields.len, "length", on_edit, |f, v| f.len = v) }
                    { row_select(row, "init", "initial contents", &init_options, fields.init.name(), on_edit, |f, v| f.init = Init::parse(v).unwrap_or(f.init)) }
                    { details }
                    if !matches!(class, Some(ParamClass::Aggregate)) {
                        { row_select(row, "access", "access", &access_options, access_name, on_edit, |f, v| {
                            f.access = ACCESSES.iter().find(|(_, name, _)| *name == v).map_or(Access::ReadWrite, |(a, _, _)| *a);
                        }) }
                    }
                </>
            }
        }
    };
    html! {
        <div class="arg-controls">
            { kind_select.unwrap_or_default() }
            { body }
            { tail }
        </div>
    }
}

/// The row's `--arg` text field, with the error of the text itself.
fn text_cell(row: &Checked, oninput: Callback<InputEvent>, placeholder: String) -> Html {
    let id = field_id(&row.name, "text");
    let error = row.error(Field::Text);
    let error_id = format!("{id}-error");
    html! {
        <div class={classes!("arg-text", error.is_some().then_some("invalid"))}>
            <input
                {id}
                type="text"
                class="arg-input"
                autocomplete="off"
                spellcheck="false"
                value={row.text.clone()}
                {placeholder}
                title="The same argument as the command line's --arg text; type here to edit it as text"
                aria-label={format!("{} as --arg text", if row.name.is_empty() { "argument" } else { &row.name })}
                aria-invalid={if error.is_some() { "true" } else { "false" }}
                aria-describedby={error.map(|_| AttrValue::from(error_id.clone()))}
                {oninput}
            />
            if let Some(error) = error {
                <span class="field-error" id={error_id}>{ error.to_string() }</span>
            }
        </div>
    }
}

fn arg_row(row: &Checked, props: &TableProps) -> Html {
    let class = row.param.as_ref().map(args::classify);
    let type_name = row.param.as_ref().map(|p| match p.address_space.as_str() {
        "private" => p.ty.clone(),
        space => format!("__{space} {}", p.ty),
    });
    let param = row.name.clone();
    let on_text = props.on_edit.reform(move |event: InputEvent| InputEdit::ArgText { param: param.clone(), text: input_value(event) });
    let placeholder = match row.fields.kind {
        ArgKind::Default => format!("{}: engine default", row.name),
        _ => format!("{}=…", row.name),
    };
    html! {
        <tr key={row.name.clone()} class={classes!("arg", (!row.errors.is_empty()).then_some("invalid"))} data-param={row.name.clone()}>
            <th scope="row">
                <code class="param-name">{ row.name.clone() }</code>
                <span class="param-type">{ type_name.unwrap_or_else(|| "type unknown".into()) }</span>
            </th>
            <td>
                { controls(row, class, &props.on_edit, html! {
                    <div class="arg-line">
                        { text_cell(row, on_text, placeholder) }
                        if let Some(id) = row.id {
                            <button type="button" class="icon reset-arg" aria-label={format!("Reset {} to its default", row.name)} title="Back to the default" onclick={props.on_edit.reform(move |_: MouseEvent| InputEdit::RemoveArg(id))}>
                                { icon(Icon::Reset) }
                            </button>
                        }
                    </div>
                }) }
            </td>
        </tr>
    }
}

fn set_aside_row(row: &Checked, props: &TableProps) -> Html {
    let Some(id) = row.id else {
        return html! {};
    };
    let on_text = props.on_edit.reform(move |event: InputEvent| InputEdit::Arg { id, text: input_value(event) });
    let why = if row.name.is_empty() { "Not passed: type NAME=SPEC".to_string() } else { format!("Not passed: the kernel has no parameter `{}`", row.name) };
    html! {
        <tr key={format!("aside-{id}")} class="arg set-aside" data-row={id.to_string()}>
            <th scope="row"><code class="param-name">{ if row.name.is_empty() { "?".to_string() } else { row.name.clone() } }</code></th>
            <td>
                <p class="note">{ why }</p>
                <div class="arg-line">
                    { text_cell(row, on_text, "name=int[8]".into()) }
                    <button type="button" class="icon" aria-label={format!("Remove the row {}", row.text)} title="Remove" onclick={props.on_edit.reform(move |_: MouseEvent| InputEdit::RemoveArg(id))}>
                        { icon(Icon::Close) }
                    </button>
                </div>
            </td>
        </tr>
    }
}
