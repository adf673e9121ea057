//! What a random exploration covered, as the Explore panel shows it: runs distinct up to
//! reordering independent steps, PCT's bound, and the offer of the exhaustive search (made
//! by the worker's job, shown as a button that starts it).

use interleave_app::explore::{distinct_schedules_text, FromWorker, Job, ToWorker};
use interleave_engine::explore::{merge, Explorer};
use interleave_engine::scenario::{ArgBinding, Dialect, Scenario, SchedulerKind};

fn lost_update() -> Scenario {
    let mut s = Scenario::new("__kernel void f(__global int *c) { int v = c[0]; c[0] = v + 1; }", "f.cl", Dialect::OpenCl);
    s.launch.global = vec![2];
    s.args = vec![ArgBinding::parse("c=int[1]").unwrap()];
    s
}

/// Runs one worker job to its end, a few executions at a time, as the worker does.
fn run_job(scenario: &Scenario, job: Job) -> interleave_engine::explore::Exploration {
    let mut explorer = Explorer::new(scenario, job.config()).unwrap();
    if job.offer {
        explorer.offer_exhaustive();
    }
    while !explorer.advance(7).unwrap() {}
    explorer.result()
}

/// A random exploration split over two jobs, the first of which asks for the offer: the
/// merged result counts its distinct schedules once across the parts and carries the offer.
#[test]
fn split_jobs_merge_their_coverage_and_offer() {
    let s = lost_update();
    let first = Job { runs: 30, first_seed: 0, exhaustive: false, max_preemptions: None, offer: true };
    let second = Job { runs: 30, first_seed: 30, exhaustive: false, max_preemptions: None, offer: false };
    // The job travels to the worker and its result back as JSON.
    let sent = ToWorker::Explore { scenario: s.clone(), job: first };
    assert_eq!(ToWorker::decode(&sent.encode()), Ok(sent));
    let parts = [run_job(&s, first), run_job(&s, second)];
    // (Findings lose their byte spans on the way, which are not serialised.)
    let done = FromWorker::Done { exploration: parts[0].clone(), stopped: false };
    let Ok(FromWorker::Done { exploration: back, .. }) = FromWorker::decode(&done.encode()) else { panic!("the result decodes") };
    assert_eq!(
        (back.distinct_schedules, &back.schedule_hashes, back.exhaustive_offer),
        (parts[0].distinct_schedules, &parts[0].schedule_hashes, parts[0].exhaustive_offer)
    );
    let merged = merge(&parts);
    let whole = run_job(&s, Job { runs: 60, first_seed: 0, exhaustive: false, max_preemptions: None, offer: true });
    assert_eq!(merged.distinct_schedules, whole.distinct_schedules);
    // Two work-items, each a load then a store of one word: four orders of dependent steps.
    assert_eq!(merged.distinct_schedules, 4);
    assert_eq!(merged.exhaustive_offer, Some(4));
    assert_eq!(parts[1].exhaustive_offer, None);
    assert_eq!(distinct_schedules_text(&merged).as_deref(), Some("4 of 60 runs"));
}

/// An exhaustive result says nothing about distinct schedules (one execution per class), nor
/// does one that did not count them.
#[test]
fn distinct_schedules_are_shown_only_for_random_explorations() {
    let s = lost_update();
    let every = run_job(&s, Job { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None, offer: false });
    assert!(every.complete);
    assert_eq!(distinct_schedules_text(&every), None);
    let old = interleave_engine::explore::Exploration {
        distinct_schedules: 0,
        ..run_job(&s, Job { runs: 5, first_seed: 0, exhaustive: false, max_preemptions: None, offer: false })
    };
    assert_eq!(distinct_schedules_text(&old), None);
    let capped = interleave_engine::explore::Exploration { distinct_schedules_capped: true, ..old.clone() };
    let capped = interleave_engine::explore::Exploration { distinct_schedules: 3, ..capped };
    assert_eq!(distinct_schedules_text(&capped).as_deref(), Some("at least 3 of 5 runs"));
}

/// Under PCT the result carries what the bound needs; under other schedulers it does not.
#[test]
fn pct_explorations_carry_their_bound() {
    let mut s = lost_update();
    let random = run_job(&s, Job { runs: 10, first_seed: 0, exhaustive: false, max_preemptions: None, offer: false });
    assert_eq!(random.pct, None);
    s.scheduler = SchedulerKind::Pct;
    s.pct_depth = 2;
    let pct = run_job(&s, Job { runs: 10, first_seed: 0, exhaustive: false, max_preemptions: None, offer: false }).pct.expect("a PCT exploration");
    assert_eq!(pct.depth, 2);
    let line = interleave_engine::explore::pct::describe(&interleave_engine::explore::pct::bound(&pct, 10), 10);
    assert!(line.starts_with("PCT (depth 2): each run finds a given bug of depth 2 with probability at least"), "{line}");
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::cell::Cell;
    use std::rc::Rc;

    use gloo::timers::future::TimeoutFuture;
    use interleave_app::components::explore::{ExplorePanel, Props};
    use interleave_app::explore::ExploreMode;
    use interleave_app::state::{ExploreRun, Part, Phase, Theme};
    use wasm_bindgen::JsCast;
    use wasm_bindgen_test::*;
    use web_sys::HtmlElement;
    use yew::{AttrValue, Callback};

    wasm_bindgen_test_configure!(run_in_browser);

    /// The panel shows the distinct schedules and the offer, and the button starts the
    /// exhaustive search.
    #[wasm_bindgen_test]
    async fn the_offer_is_a_button_that_starts_the_exhaustive_search() {
        let s = super::lost_update();
        let result = Rc::new(super::run_job(&s, super::Job { runs: 20, first_seed: 0, exhaustive: false, max_preemptions: None, offer: true }));
        let part = Part { executions: 20, budget: 20, result: Some(result.clone()), stopped: false };
        let run = ExploreRun {
            id: 1,
            mode: ExploreMode::Random,
            scenario: Rc::new(s),
            parts: vec![part],
            workers: 1,
            phase: Phase::Done,
            result: Some(result),
            problem: None,
            selected: None,
        };
        let clicked = Rc::new(Cell::new(0));
        let seen = clicked.clone();
        let props = Props {
            mode: ExploreMode::Random,
            runs: AttrValue::from("20"),
            preemptions: AttrValue::from(""),
            exploration: Some(Rc::new(run)),
            can_start: true,
            stale: false,
            litmus: false,
            theme: Theme::Light,
            on_mode: Callback::noop(),
            on_runs: Callback::noop(),
            on_preemptions: Callback::noop(),
            on_start: Callback::from(move |mode: Option<ExploreMode>| {
                assert_eq!(mode, Some(ExploreMode::Exhaustive));
                seen.set(seen.get() + 1)
            }),
            on_cancel: Callback::noop(),
            on_load_outcome: Callback::noop(),
            on_load_finding: Callback::noop(),
            on_shrink_outcome: Callback::noop(),
            shrinking: false,
        };
        let root = gloo::utils::document().create_element("div").unwrap();
        gloo::utils::body().append_child(&root).unwrap();
        yew::Renderer::<ExplorePanel>::with_root_and_props(root.clone(), props).render();
        TimeoutFuture::new(50).await;
        let distinct = root.query_selector("#explore-distinct dd").unwrap().expect("the distinct schedules are shown");
        assert_eq!(distinct.text_content().unwrap(), "4 of 20 runs");
        let offer = root.query_selector("#explore-offer").unwrap().expect("the offer is shown");
        assert!(offer.text_content().unwrap().starts_with("Every execution takes only 4 runs."));
        let button: HtmlElement = root.query_selector("#explore-every").unwrap().unwrap().dyn_into().unwrap();
        button.click();
        TimeoutFuture::new(10).await;
        assert_eq!(clicked.get(), 1);
    }
}
