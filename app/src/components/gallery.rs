//! The examples gallery page (`?gallery`): a card per entry of `static/examples/gallery.toml`
//! with its title, two-line description, lesson and dialect, and per variant what to look for
//! (the expected findings and outcomes) and a button that opens it in the workbench.

use yew::prelude::*;

use crate::examples::Example;
use crate::gallery::{self, Entry, Variant};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Opens an example in the workbench.
    pub on_load: Callback<&'static Example>,
    /// Goes back to the workbench as it was.
    pub on_close: Callback<()>,
}

/// A description's lines, each its own line on the card.
fn lines(text: &str) -> Html {
    html! { <>{ for text.trim().lines().map(|line| html! { <span class="line">{ line.to_string() }</span> }) }</> }
}

/// What a variant's check reports: its finding kinds, or that it reports none.
fn findings(variant: &Variant) -> Html {
    if variant.manifest.findings.is_empty() {
        return html! { <span class="badge quiet">{ "no finding" }</span> };
    }
    html! { <>{ for variant.manifest.findings.iter().map(|kind| html! { <span class="badge finding-kind">{ kind.as_str() }</span> }) }</> }
}

fn variant_item(variant: &Variant, first: bool, on_load: &Callback<&'static Example>) -> Html {
    let example = variant.example;
    let onclick = on_load.reform(move |_: MouseEvent| example);
    let file = example.id;
    html! {
        <li class="gallery-variant" data-example={example.stem()}>
            if !first {
                <h4>{ variant.scenario.title.clone() }</h4>
                <p class="variant-description">{ lines(&variant.scenario.description) }</p>
            }
            <p class="look-for"><strong>{ "Look for: " }</strong>{ variant.manifest.look_for.clone() }</p>
            <div class="variant-foot">
                <span class="findings-badges">{ findings(variant) }</span>
                <code class="check" title="How the tests check it">{ variant.manifest.command_line() }</code>
                <button
                    type="button"
                    class="primary"
                    id={format!("load-{}", example.stem())}
                    title={format!("Load {file} into the workbench (your edits stay one click away)")}
                    {onclick}
                >
                    { "Open in the workbench" }
                </button>
            </div>
        </li>
    }
}

fn card(index: usize, entry: &Entry, on_load: &Callback<&'static Example>) -> Html {
    let main = entry.main();
    let heading = format!("gallery-{}-title", entry.id);
    html! {
        <li class="gallery-card" id={format!("gallery-{}", entry.id)} aria-labelledby={heading.clone()}>
            <header>
                <span class="number">{ index + 1 }</span>
                <h3 id={heading}>{ main.scenario.title.clone() }</h3>
                <span class="badge dialect">{ gallery::dialect_label(main.scenario.dialect) }</span>
            </header>
            <p class="description">{ lines(&main.scenario.description) }</p>
            <p class="lesson"><strong>{ "Lesson: " }</strong>{ main.scenario.lesson.clone() }</p>
            <ul class="gallery-variants">
                { for entry.variants.iter().enumerate().map(|(i, v)| variant_item(v, i == 0, on_load)) }
            </ul>
        </li>
    }
}

#[component]
pub fn Gallery(props: &Props) -> Html {
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <section id="gallery" class="gallery" aria-labelledby="gallery-title">
            <div class="gallery-head">
                <h2 id="gallery-title">{ "Examples gallery" }</h2>
                <p>
                    { "One pitfall of GPU concurrency per card, in OpenCL C, CUDA or as a litmus test. " }
                    { "Open one in the workbench, run it (or explore it), and look for what the card says." }
                </p>
                <button id="gallery-close" type="button" onclick={on_close}>{ "Back to the workbench" }</button>
            </div>
            <ol class="gallery-cards">
                { for gallery::entries().iter().enumerate().map(|(i, entry)| card(i, entry, &props.on_load)) }
            </ol>
        </section>
    }
}
