//! The lesson pane beside the workbench: with no lesson open, the list of lessons with the
//! learner's progress (`?tutorial`); with one open (`?lesson=ID`), its prose, task and hints
//! (revealed one at a time), Check, Reset to the starting code, and the previous and next
//! lessons.
//!
//! Check explores the editor's scenario as the lesson's check says, in the exploration
//! workers (`crate::pool`), with a progress bar and Cancel; the verdict lists what passed and
//! what failed, each with the seed that shows it. Passing is remembered in `localStorage`.
//! The pane's state is the pure `crate::tutorial`; moving between lessons is the root
//! component's, which keeps the address and the browser's history in step.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::storage::{LocalStorage, Storage};
use interleave_engine::lesson::{self, Lesson};
use interleave_engine::scenario::Scenario;
use yew::prelude::*;

use crate::explore;
use crate::lessons::{self, Progress, PROGRESS_KEY};
use crate::pool::Pool;
use crate::tutorial::{self, Action, CheckState, Tutorial};
use interleave_engine::limits::thousands;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The open lesson's position in [`lessons::all`], `None` for the list.
    pub lesson: Option<usize>,
    /// The editor's scenario, `None` while the launch panel holds an invalid value.
    pub scenario: Option<Rc<Scenario>>,
    /// Opens a lesson (or the list, with `None`).
    pub on_navigate: Callback<Option<usize>>,
    /// Puts the lesson's starting scenario back in the editor and launch panel.
    pub on_reset: Callback<usize>,
    /// Where the workers' script is (the tests point it elsewhere).
    #[prop_or(AttrValue::Static(explore::WORKER_URL))]
    pub worker_url: AttrValue,
}

/// Text with `code` between backticks, as text nodes and `<code>` elements (never markup).
pub fn inline(text: &str) -> Html {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                html! { <code>{ part.to_string() }</code> }
            } else {
                html! { { part.to_string() } }
            }
        })
        .collect()
}

fn hardware_concurrency() -> usize {
    let reported = gloo::utils::window().navigator().hardware_concurrency();
    if reported.is_finite() && reported >= 1.0 {
        reported as usize
    } else {
        0
    }
}

fn stored_progress() -> Progress {
    match LocalStorage::raw().get_item(PROGRESS_KEY) {
        Ok(Some(text)) => Progress::decode(&text),
        _ => Progress::default(),
    }
}

/// A link within the tutorial: a real address (it opens in a new tab, and works without the
/// page's help), followed here without reloading.
fn lesson_link(href: String, label: Html, class: &'static str, go: Callback<()>) -> Html {
    let onclick = Callback::from(move |event: MouseEvent| {
        if event.ctrl_key() || event.meta_key() || event.shift_key() || event.button() != 0 {
            return;
        }
        event.prevent_default();
        go.emit(());
    });
    html! { <a {href} {class} {onclick}>{ label }</a> }
}

fn list(all: &[Rc<Lesson>], progress: &Progress, on_navigate: &Callback<Option<usize>>) -> Html {
    let passed = all.iter().filter(|l| progress.passed.contains(&l.id)).count();
    html! {
        <>
            <h2 id="lesson-title">{ "Tutorial" }</h2>
            <p class="lesson-progress">{ format!("{passed} of {} lessons passed", all.len()) }</p>
            <ol class="lesson-list">
                { for all.iter().enumerate().map(|(i, l)| {
                    let done = progress.passed.contains(&l.id);
                    let go = on_navigate.reform(move |()| Some(i));
                    html! {
                        <li class={classes!(done.then_some("passed"))} data-lesson={l.id.clone()}>
                            { lesson_link(format!("?lesson={}", l.id), html! { { l.title.clone() } }, "lesson-link", go) }
                            if done { <span class="passed-mark" aria-label="passed" title="passed">{ "✓" }</span> }
                            <span class="concept">{ inline(&l.concept) }</span>
                        </li>
                    }
                }) }
            </ol>
        </>
    }
}

fn verdict_view(check: &CheckState, progress: Option<(u64, u64)>) -> Html {
    match check {
        CheckState::Idle => html! {},
        CheckState::Running { stopping, .. } => {
            let (done, total) = progress.unwrap_or((0, 0));
            let value = if total == 0 { 0.0 } else { done as f64 / total as f64 };
            html! {
                <p class="check-running" role="status">
                    <progress max="1" value={value.to_string()} aria-label="Check progress"></progress>
                    { if *stopping { "Cancelling…".to_string() } else { format!("Checking: {} of {} runs", thousands(done), thousands(total)) } }
                </p>
            }
        }
        CheckState::Cancelled => html! { <p class="check-result" role="status">{ "Check cancelled." }</p> },
        CheckState::Failed(message) => html! { <p class="check-result failed" role="status">{ message.clone() }</p> },
        CheckState::Done(verdict) => html! {
            <div class={classes!("check-result", if verdict.passed { "passed" } else { "failed" })} role="status">
                <p class="verdict">{ if verdict.passed { "Passed. Well done!" } else { "Not yet." } }</p>
                <ul>
                    { for verdict.results.iter().map(|r| html! {
                        <li class={if r.passed { "ok" } else { "no" }}>
                            <span aria-hidden="true">{ if r.passed { "✓ " } else { "✗ " } }</span>
                            { inline(&r.message) }
                            // Why that run fails, in the engine's words: the edge it lacks.
                            { for r.why.iter().map(|why| html! {
                                <p class="lesson-why"><strong>{ "Why: " }</strong>{ inline(&why.missing) }</p>
                            }) }
                        </li>
                    }) }
                </ul>
            </div>
        },
    }
}

#[component]
pub fn TutorialPane(props: &Props) -> Html {
    let state = use_reducer(|| Tutorial::new(stored_progress()));
    let pool: Rc<RefCell<Option<Pool>>> = use_mut_ref(|| None);
    let checks = use_mut_ref(|| 0u64);
    let all = lessons::all();

    // The pane follows the lesson the address names.
    {
        let dispatch = state.dispatcher();
        use_effect_with(props.lesson, move |lesson| dispatch.dispatch(Action::Open(*lesson)));
    }
    // Progress is written whenever it changes.
    use_effect_with(state.progress.clone(), |progress| {
        if let Err(e) = LocalStorage::raw().set_item(PROGRESS_KEY, &progress.encode()) {
            gloo::console::warn!(format!("The tutorial's progress could not be saved: {e:?}"));
        }
    });
    // The workers go when the check is over, when another lesson opens, and with the pane.
    {
        let pool = pool.clone();
        use_effect_with((state.checking(), state.lesson), move |(checking, _)| {
            if !*checking {
                pool.borrow_mut().take();
            }
        });
    }
    {
        let pool = pool.clone();
        use_effect_with((), move |_| move || drop(pool.borrow_mut().take()));
    }

    let Some(position) = state.lesson.filter(|&i| i < all.len()) else {
        return html! {
            <aside class="lesson-pane" aria-labelledby="lesson-title">
                { list(&all, &state.progress, &props.on_navigate) }
            </aside>
        };
    };
    let lesson = all[position].clone();

    let on_check = {
        let (state, pool, checks, lesson, scenario, url) =
            (state.clone(), pool.clone(), checks.clone(), lesson.clone(), props.scenario.clone(), props.worker_url.clone());
        Callback::from(move |_: MouseEvent| {
            if state.checking() {
                return;
            }
            let Some(scenario) = &scenario else {
                state.dispatch(Action::StartFailed("The launch panel has a value that is not valid: fix it, then check.".into()));
                return;
            };
            let id = {
                let mut serial = checks.borrow_mut();
                *serial += 1;
                *serial
            };
            let (planned, config) = lesson::plan(&lesson, scenario);
            let jobs = tutorial::jobs(config, hardware_concurrency());
            pool.borrow_mut().take();
            state.dispatch(Action::Started { id, lesson: lesson.clone(), budgets: jobs.iter().map(|j| j.runs).collect() });
            let dispatch = state.dispatcher();
            let on_event = Callback::from(move |(part, event)| dispatch.dispatch(Action::Event { id, part, event }));
            // One job per worker: a check is short, so there is no long tail to even out.
            match Pool::start(&url, &planned, &jobs, jobs.len(), on_event) {
                Ok(started) => *pool.borrow_mut() = Some(started),
                Err(message) => state.dispatch(Action::StartFailed(format!("The check could not start: {message}."))),
            }
        })
    };
    let on_cancel = {
        let (state, pool) = (state.clone(), pool.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(pool) = pool.borrow().as_ref() {
                pool.stop();
            }
            state.dispatch(Action::Cancel);
        })
    };
    let on_hint = {
        let dispatch = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatch.dispatch(Action::RevealHint))
    };
    let on_reset = props.on_reset.reform(move |_: MouseEvent| position);
    let hints = lesson.hints.len();
    let shown = state.hints.min(hints);
    let passed = state.progress.passed.contains(&lesson.id);
    let nav = |to: Option<usize>, label: &'static str, class: &'static str| match to {
        Some(i) if i < all.len() => lesson_link(format!("?lesson={}", all[i].id), html! { { label } }, class, props.on_navigate.reform(move |()| Some(i))),
        _ => html! {},
    };

    html! {
        <aside class="lesson-pane" aria-labelledby="lesson-title" data-lesson={lesson.id.clone()}>
            <nav class="lesson-nav" aria-label="Lessons">
                { lesson_link("?tutorial".into(), html! { { "All lessons" } }, "lesson-all", props.on_navigate.reform(|()| None)) }
                <span class="lesson-count">{ format!("Lesson {} of {}", position + 1, all.len()) }</span>
            </nav>
            <h2 id="lesson-title">
                { lesson.title.clone() }
                if passed { <span class="passed-mark" aria-label="passed" title="passed">{ " ✓" }</span> }
            </h2>
            { for lesson.prose.iter().map(|p| html! { <p>{ inline(p) }</p> }) }
            <section class="lesson-task" aria-label="Task">
                <h3>{ "Task" }</h3>
                <p>{ inline(&lesson.task) }</p>
            </section>
            if shown > 0 {
                <ol class="lesson-hints" aria-label="Hints">
                    { for lesson.hints[..shown].iter().map(|h| html! { <li>{ inline(h) }</li> }) }
                </ol>
            }
            <div class="lesson-actions">
                if state.checking() {
                    <button id="lesson-cancel" type="button" onclick={on_cancel}>{ "Cancel" }</button>
                } else {
                    <button id="lesson-check" type="button" class="primary" onclick={on_check}>{ "Check" }</button>
                }
                <button id="lesson-hint" type="button" disabled={shown >= hints} onclick={on_hint}>
                    { if shown >= hints { "No more hints".to_string() } else { format!("Show a hint ({} of {hints})", shown + 1) } }
                </button>
                <button id="lesson-reset" type="button" title="Put the lesson's starting code back (your edits stay one click away)" onclick={on_reset}>{ "Reset" }</button>
            </div>
            { verdict_view(&state.check, state.check_progress()) }
            <nav class="lesson-steps" aria-label="Previous and next lesson">
                { nav(position.checked_sub(1), "← Previous", "lesson-prev") }
                { nav(Some(position + 1), "Next →", "lesson-next") }
            </nav>
        </aside>
    }
}
