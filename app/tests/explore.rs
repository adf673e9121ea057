//! Litmus tests and the Explore panel in a real browser: a litmus example's lanes, the
//! exploration's settings checked inline, a worker that cannot load, and the panel's table
//! and canvas.

#![cfg(target_arch = "wasm32")]

mod common;

use std::rc::Rc;

use gloo::timers::future::TimeoutFuture;
use wasm_bindgen_test::*;
use web_sys::Element;

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_litmus_example_runs_one_lane_per_thread() {
    let root = mount_app().await;
    choose(&root, "#examples", "litmus/mp.litmus").await;
    let source = editor_text(&root);
    assert!(source.starts_with("OPENCL MP"), "{source}");
    // The test places its threads: no sizes or arguments, a note instead.
    assert_eq!(count(&root, "#litmus-note"), 1);
    assert_eq!(count(&root, "#global"), 0);
    assert_eq!(count(&root, ".arg-input"), 0);
    assert_eq!(count(&root, "#lanes[data-work-items=\"2\"]"), 1);
    choose(&root, "#memory-model", "relaxed").await;
    click(&root, "#run").await;
    wait_while_running(&root).await;
    assert_eq!(status(&root), "completed");
    let labels: Vec<String> = (0..count(&root, ".lane .wi"))
        .map(|i| root.query_selector_all(".lane .wi").unwrap().get(i).and_then(|n| n.text_content()).unwrap_or_default())
        .collect();
    assert_eq!(labels, ["P0 (wg 0)", "P1 (wg 1)"]);
    let registers = text(&root, "#registers");
    assert!(registers.contains("1:r0=") && registers.contains("1:r1="), "{registers}");
    assert!(find(&root, "#registers").get_attribute("data-exists").is_some());
    // Back to the kernel: its launch returns.
    choose(&root, "#examples", "count.cl").await;
    assert_eq!(count(&root, "#litmus-note"), 0);
    assert_eq!(count(&root, "#lanes[data-work-items=\"8\"]"), 1);
}

#[wasm_bindgen_test]
async fn explore_settings_are_checked_inline() {
    let root = mount_app().await;
    assert!(!disabled(&root, "#explore-start"));
    type_into(&root, "#explore-runs", "0").await;
    assert_eq!(count(&root, ".invalid #explore-runs"), 1);
    assert!(disabled(&root, "#explore-start"));
    click(&root, "#explore-mode-exhaustive").await;
    assert_eq!(count(&root, "#explore-runs"), 0);
    assert!(!disabled(&root, "#explore-start"));
    type_into(&root, "#explore-preemptions", "many").await;
    assert!(disabled(&root, "#explore-start"));
    type_into(&root, "#explore-preemptions", "2").await;
    assert!(!disabled(&root, "#explore-start"));
}

#[wasm_bindgen_test]
async fn a_worker_that_cannot_load_fails_the_exploration_cleanly() {
    // The test page has no worker script next to it, so the worker never starts: the panel
    // must say so rather than wait for ever.
    let root = mount_app().await;
    click(&root, "#explore-start").await;
    for _ in 0..200 {
        if find(&root, "#explore-status").get_attribute("data-phase").as_deref() == Some("failed") {
            break;
        }
        TimeoutFuture::new(50).await;
    }
    assert_eq!(find(&root, "#explore-status").get_attribute("data-phase").as_deref(), Some("failed"), "{}", text(&root, "#explore-status"));
    assert!(!disabled(&root, "#explore-start"), "a new exploration can start");
}

mod explore_panel {
    use super::*;
    use interleave_app::components::explore::{ExplorePanel, Props};
    use interleave_app::explore::ExploreMode;
    use interleave_app::state::{ExploreRun, Part, Phase, Theme};
    use interleave_engine::explore::{explore_with, Config};
    use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};
    use std::cell::Cell;
    use web_sys::{MouseEvent, MouseEventInit};
    use yew::Callback;

    fn weak_mp() -> ExploreRun {
        let mut scenario = Scenario::new(include_str!("../../static/examples/litmus/mp.litmus"), "test.litmus", Dialect::Litmus);
        scenario.memory_model = MemoryModel::Relaxed;
        let config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };
        let exploration = Rc::new(explore_with(&scenario, config).unwrap());
        ExploreRun {
            id: 1,
            mode: ExploreMode::Exhaustive,
            scenario: Rc::new(scenario),
            parts: vec![Part { executions: exploration.runs, budget: 1_000_000, result: Some(exploration.clone()), stopped: false }],
            workers: 1,
            phase: Phase::Done,
            result: Some(exploration),
            problem: None,
            selected: None,
        }
    }

    async fn mount(run: ExploreRun, stale: bool, loaded: Rc<Cell<Option<usize>>>) -> Element {
        let root = fresh_root();
        let props = Props {
            mode: ExploreMode::Exhaustive,
            runs: "1000".into(),
            preemptions: "".into(),
            exploration: Some(Rc::new(run)),
            can_start: true,
            stale,
            litmus: true,
            theme: Theme::Light,
            on_mode: Callback::noop(),
            on_runs: Callback::noop(),
            on_preemptions: Callback::noop(),
            on_start: Callback::noop(),
            on_cancel: Callback::noop(),
            on_load_outcome: Callback::from(move |i| loaded.set(Some(i))),
            on_load_finding: Callback::noop(),
            on_shrink_outcome: Callback::noop(),
            shrinking: false,
        };
        yew::Renderer::<ExplorePanel>::with_root_and_props(root.clone(), props).render();
        settle().await;
        root
    }

    #[wasm_bindgen_test]
    async fn outcomes_show_in_the_chart_and_the_table_with_the_weak_one_marked() {
        let loaded = Rc::new(Cell::new(None));
        let root = mount(weak_mp(), false, loaded.clone()).await;
        assert_eq!(find(&root, "#explore-status").get_attribute("data-phase").as_deref(), Some("done"));
        assert_eq!(count(&root, "#explore-outcomes tbody tr"), 4);
        assert_eq!(count(&root, "#explore-outcomes tr[data-exists=\"true\"]"), 1);
        let weak = text(&root, "#explore-outcomes tr[data-exists=\"true\"] .outcome");
        assert_eq!(weak, "1:r0=1 1:r1=0");
        assert_eq!(count(&root, "#explore-summary [data-exists-observed=\"true\"]"), 1);
        assert_eq!(count(&root, "#explore-summary [data-complete=\"true\"]"), 1);
        let canvas = find(&root, "#explore-histogram");
        assert_eq!(canvas.get_attribute("data-bars").as_deref(), Some("4"));
        assert_eq!(canvas.get_attribute("data-highlighted").as_deref(), Some("1"));
        assert!(canvas.get_attribute("aria-label").unwrap_or_default().contains("4 outcomes"));

        let weak_index: usize = find(&root, "#explore-outcomes tr[data-exists=\"true\"]").get_attribute("data-index").and_then(|i| i.parse().ok()).unwrap();
        click(&root, "#explore-outcomes tr[data-exists=\"true\"] button.replay").await;
        assert_eq!(loaded.take(), Some(weak_index));

        // A click in the middle of a bar's row loads that bar: rows are 24 pixels high below
        // a 6-pixel margin, inside the canvas's 1-pixel border.
        let rect = canvas.get_bounding_client_rect();
        for index in 0..4 {
            let init = MouseEventInit::new();
            init.set_bubbles(true);
            init.set_client_x((rect.left() + rect.width() * 0.6) as i32);
            init.set_client_y((rect.top() + 1.0 + 6.0 + 24.0 * (index as f64 + 0.5)) as i32);
            let event = MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
            canvas.dispatch_event(&event).unwrap();
            settle().await;
            assert_eq!(loaded.take(), Some(index), "bar {index}");
        }
    }

    #[wasm_bindgen_test]
    async fn stale_results_cannot_be_loaded() {
        let loaded = Rc::new(Cell::new(None));
        let root = mount(weak_mp(), true, loaded.clone()).await;
        assert_eq!(count(&root, ".stale-note"), 1);
        assert!(disabled(&root, "#explore-outcomes button.replay"));
        assert_eq!(loaded.take(), None);
    }
}
