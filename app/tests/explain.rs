//! Explaining a bug in a real browser: the findings list's Shrink button and explanation, the
//! explanation's arrows over the timeline, the focus on a shrunk failure's lanes, and the
//! Compare models matrix with cells that open their run.

#![cfg(target_arch = "wasm32")]

use std::cell::Cell;
use std::collections::BTreeSet;
use std::rc::Rc;

use gloo::timers::future::TimeoutFuture;
use interleave_app::components::compare::{ComparePanel, Props as CompareProps};
use interleave_app::components::findings::{Findings, Props as FindingsProps};
use interleave_app::components::lanes::{Lanes, Props as LanesProps};
use interleave_app::snapshot;
use interleave_app::state::{Action, CompareRun, Focus, State};
use interleave_app::task::TaskEvent;
use interleave_app::timeline::why_arrows;
use interleave_engine::compare;
use interleave_engine::scenario::{ArgBinding, Dialect, Scenario};
use interleave_engine::session::Session;
use interleave_engine::why;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;
use yew::Callback;

wasm_bindgen_test_configure!(run_in_browser);

mod common;
use common::{count, find, fresh_root, settle};

/// Eight work-items, of which 2 and 5 race on one counter.
fn racy() -> Scenario {
    let source = "__kernel void k(__global int *c) { int i = get_global_id(0); if (i == 2 || i == 5) { c[0] = c[0] + 1; } }";
    let mut s = Scenario::new(source, "k.cl", Dialect::OpenCl);
    s.launch.global = vec![8];
    s.launch.local = Some(vec![4]);
    s.args = vec![ArgBinding::parse("c=int[1]:fill=0").unwrap()];
    s
}

fn ended() -> Session {
    let mut session = Session::new(racy()).unwrap();
    session.run(u64::MAX);
    session
}

#[wasm_bindgen_test]
async fn a_finding_has_a_shrink_button_and_its_explanation_in_words() {
    let session = ended();
    let index = session.findings().iter().position(|f| f.kind.as_str() == "data-race").expect("a race");
    let explanation = why::finding(&session, index).expect("a race is explained");
    let shrunk = Rc::new(Cell::new(None));
    let root = fresh_root();
    let props = FindingsProps {
        findings: Rc::new(session.findings().to_vec()),
        live: true,
        seed: Some(0),
        current: Some(index),
        on_open: Callback::noop(),
        why: Some((index, Rc::new(explanation.clone()))),
        outcome_why: None,
        on_shrink: {
            let shrunk = shrunk.clone();
            Callback::from(move |i| shrunk.set(Some(i)))
        },
        shrinking: false,
    };
    yew::Renderer::<Findings>::with_root_and_props(root.clone(), props).render();
    settle().await;
    let why = find(&root, &format!("#finding-{index} .why"));
    assert!(why.text_content().unwrap_or_default().contains(&explanation.missing), "{:?}", why.text_content());
    assert_eq!(count(&root, &format!("#finding-{index} .why-edges li")), explanation.edges.len() as u32);
    find(&root, &format!("#shrink-finding-{index}")).unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(shrunk.get(), Some(index));
}

/// Message passing with relaxed atomics, replayed to the outcome where the flag is seen and
/// the data is not: an outcome no interleaving gives, which the panel explains in words.
#[wasm_bindgen_test]
async fn a_weak_outcome_is_explained_in_words() {
    let mut scenario = Scenario::new(include_str!("../../static/examples/litmus/mp.litmus"), "mp.litmus", Dialect::Litmus);
    scenario.memory_model = interleave_engine::scenario::MemoryModel::Relaxed;
    scenario.scheduler = interleave_engine::scenario::SchedulerKind::Manual;
    scenario.schedule = vec![0, 0, 1, 1];
    scenario.choices = vec![0, 1];
    let mut session = Session::new(scenario).unwrap();
    session.run(u64::MAX);
    let explanation = why::outcome(&session).expect("the stale read is explained");
    let root = fresh_root();
    let props = FindingsProps {
        findings: Rc::new(session.findings().to_vec()),
        live: true,
        seed: None,
        current: None,
        on_open: Callback::noop(),
        why: None,
        outcome_why: Some(Rc::new(explanation.clone())),
        on_shrink: Callback::noop(),
        shrinking: false,
    };
    yew::Renderer::<Findings>::with_root_and_props(root.clone(), props).render();
    settle().await;
    let why = find(&root, "#outcome-why .why");
    assert!(why.text_content().unwrap_or_default().contains(&explanation.missing), "{:?}", why.text_content());
    assert_eq!(count(&root, "#outcome-why .why-edges li"), explanation.edges.len() as u32);
}

#[wasm_bindgen_test]
async fn the_explanation_is_drawn_over_the_focused_lanes() {
    let session = ended();
    let index = session.findings().iter().position(|f| f.kind.as_str() == "data-race").unwrap();
    let explanation = why::finding(&session, index).unwrap();
    let lane = |id: [u64; 3]| (0..session.work_item_count()).find(|&i| session.work_item(i).global_id == id).map(|i| i as u32);
    let arrows = Rc::new(why_arrows(&explanation, lane));
    assert_eq!(arrows.arrows.iter().filter(|a| a.missing).count(), 1);
    let timeline = snapshot::take(&session, None).timeline;
    let root = fresh_root();
    root.set_attribute("style", "display: flex; flex-direction: column; width: 1000px; height: 500px").unwrap();
    let on = Rc::new(Cell::new(None));
    let props = LanesProps {
        work_items: 8,
        timeline: Some(timeline),
        on_step_lane: Callback::noop(),
        litmus: false,
        selected: None,
        on_select_lane: Callback::noop(),
        on_seek: Callback::noop(),
        reveal: None,
        focus: Some(Focus { lanes: Rc::new(BTreeSet::from([2, 5])), on: true }),
        on_focus: {
            let on = on.clone();
            Callback::from(move |value| on.set(Some(value)))
        },
        why: Some(arrows.clone()),
    };
    yew::Renderer::<Lanes>::with_root_and_props(root.clone(), props).render();
    settle().await;
    // Two lanes and one collapsed row per group.
    assert_eq!(count(&root, ".lane"), 2);
    assert_eq!(count(&root, ".lane-header.others"), 2);
    assert_eq!(find(&root, "#lanes-focus").get_attribute("data-focus").as_deref(), Some("true"));
    // The canvas paints on the next animation frame.
    for _ in 0..100 {
        if find(&root, "#timeline-canvas").get_attribute("data-why-arrows").is_some() {
            break;
        }
        TimeoutFuture::new(20).await;
    }
    let canvas = find(&root, "#timeline-canvas");
    assert_eq!(canvas.get_attribute("data-why-arrows"), Some(arrows.arrows.len().to_string()));
    assert_eq!(canvas.get_attribute("data-why-missing").as_deref(), Some("1"));
    assert!(canvas.get_attribute("data-why-kinds").unwrap_or_default().contains("missing"));
    let drawn: usize = canvas.get_attribute("data-why-drawn").unwrap_or_default().parse().unwrap_or(0);
    assert!(drawn >= 1, "no arrow drawn");
    find(&root, "#focus-off").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(on.get(), Some(false));
}

#[wasm_bindgen_test]
async fn the_comparison_matrix_opens_a_cell() {
    let comparison = compare::compare(&racy(), 5).unwrap();
    let state = interleave_app::state::reduce(&State::default(), Action::CompareStarted { id: 1, scenario: Rc::new(racy()) });
    let answer = TaskEvent::Over(Rc::new(interleave_app::explore::FromWorker::Compared { comparison: comparison.clone() }));
    let state = interleave_app::state::reduce(&state, Action::CompareEvent { id: 1, event: answer });
    let run: Rc<CompareRun> = state.compare.current.clone().unwrap();
    let opened = Rc::new(Cell::new(None));
    let root = fresh_root();
    let props = CompareProps {
        runs: "5".into(),
        run: Some(run),
        can_start: true,
        stale: false,
        on_runs: Callback::noop(),
        on_start: Callback::noop(),
        on_stop: Callback::noop(),
        on_open: {
            let opened = opened.clone();
            Callback::from(move |cell| opened.set(Some(cell)))
        },
    };
    yew::Renderer::<ComparePanel>::with_root_and_props(root.clone(), props).render();
    settle().await;
    let matrix = find(&root, "#compare-matrix");
    assert_eq!(matrix.get_attribute("data-models"), Some(comparison.models.len().to_string()));
    let rows = comparison.findings.len() + comparison.outcomes.len();
    assert_eq!(count(&root, "#compare-matrix tbody tr"), rows as u32);
    let run_models = comparison.models.iter().filter(|m| m.skipped.is_none()).count();
    assert_eq!(count(&root, "#compare-matrix td.model-cell"), (rows * run_models) as u32);
    assert_eq!(find(&root, "#compare-status").get_attribute("data-phase").as_deref(), Some("done"));
    let race = comparison.findings.iter().position(|f| f.finding.kind.as_str() == "data-race").unwrap();
    find(&root, &format!("#compare-matrix td.model-cell[data-model=\"0\"][data-row=\"{race}\"] button")).unchecked_into::<HtmlElement>().click();
    settle().await;
    let seed = comparison.findings[race].seeds[0].unwrap();
    assert_eq!(opened.get(), Some((0, race, seed)));
}
