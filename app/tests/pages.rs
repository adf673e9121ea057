//! Addresses and pages in a real browser: share links, the tutorial's lesson pane and
//! `?lesson=`/`?embed=1`, example addresses and the gallery.

#![cfg(target_arch = "wasm32")]

mod common;

use std::rc::Rc;

use gloo::timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlInputElement};

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn share_writes_the_link_of_this_state_and_a_page_opened_on_it_restores_it() {
    let original = gloo::utils::window().location().href().unwrap();
    let root = mount_app().await;
    for _ in 0..3 {
        click(&root, "#step").await;
    }
    assert_eq!(steps(&root), 3);
    click(&root, ".lane[data-work-item=\"1\"] button.wi").await;
    click(&root, "#share").await;
    let url = find(&root, "#share-url").unchecked_into::<HtmlInputElement>().value();
    let address = gloo::utils::window().location().href().unwrap();
    // Restored before any assertion, so a failure here does not leave a link to later tests.
    set_address(&original);
    assert_eq!(address, url, "the link is in the address bar");
    let link = interleave_engine::link::decode(&url).expect("a link the engine reads");
    assert_eq!(link.view.step, Some(3));
    assert_eq!(link.view.selected, Some(1));
    assert_eq!(link.view.panel.as_deref(), Some("work-item"));
    assert!(link.scenario.source.contains("__kernel"));

    // A page that starts on the link runs to its step and selects its work-item.
    set_address(&url);
    let opened = mount_app().await;
    set_address(&original);
    for _ in 0..100 {
        if steps(&opened) == 3 && status(&opened) == "running" {
            break;
        }
        TimeoutFuture::new(50).await;
    }
    settle().await;
    assert_eq!(steps(&opened), 3);
    assert_eq!(count(&opened, ".lane.selected[data-work-item=\"1\"]"), 1);
}

#[wasm_bindgen_test]
async fn a_broken_link_is_a_problem_shown_as_text_and_the_page_stays_usable() {
    let original = gloo::utils::window().location().href().unwrap();
    let base = original.split('#').next().unwrap().to_string();
    set_address(&format!("{base}#v1.PGI-bm90PC9iPg"));
    let root = mount_app().await;
    set_address(&original);
    let problems = find(&root, "#diagnostics").text_content().unwrap_or_default();
    assert!(problems.contains("invalid-link"), "{problems}");
    assert_eq!(count(&root, "#diagnostics b"), 0);
    assert!(editor_text(&root).contains("__kernel"), "the default example stays");
    click(&root, "#step").await;
    assert_eq!(steps(&root), 1);
}

/// The tutorial's lesson pane on its own, and the app under `?lesson=` and `?embed=1`.
mod tutorial_pane {
    use std::cell::RefCell;

    use super::*;
    use interleave_app::components::tutorial::{Props, TutorialPane};
    use interleave_app::lessons::{self, Progress, PROGRESS_KEY};

    struct Heard {
        navigated: Rc<RefCell<Vec<Option<usize>>>>,
        reset: Rc<RefCell<Vec<usize>>>,
    }

    async fn mount_pane(lesson: Option<usize>, scenario: Option<Rc<interleave_engine::scenario::Scenario>>) -> (Element, Heard) {
        let heard = Heard { navigated: Rc::default(), reset: Rc::default() };
        let (navigated, reset) = (heard.navigated.clone(), heard.reset.clone());
        let props = Props {
            lesson,
            scenario,
            on_navigate: yew::Callback::from(move |to| navigated.borrow_mut().push(to)),
            on_reset: yew::Callback::from(move |at| reset.borrow_mut().push(at)),
            // Nothing is served there: a check must fail cleanly, not hang.
            worker_url: "./no-such-worker.js".into(),
        };
        let root = fresh_root();
        yew::Renderer::<TutorialPane>::with_root_and_props(root.clone(), props).render();
        settle().await;
        (root, heard)
    }

    /// Opens the app at `search` (the address's query), and puts the address back after.
    struct AtAddress(String);

    impl AtAddress {
        fn new(search: &str) -> AtAddress {
            let window = gloo::utils::window();
            let before = window.location().href().unwrap();
            let path = window.location().pathname().unwrap();
            window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{search}"))).unwrap();
            AtAddress(before)
        }
    }

    impl Drop for AtAddress {
        fn drop(&mut self) {
            let _ = gloo::utils::window().history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&self.0));
        }
    }

    #[wasm_bindgen_test]
    async fn a_lesson_shows_prose_task_and_hints_one_at_a_time() {
        <gloo::storage::LocalStorage as gloo::storage::Storage>::clear();
        let all = lessons::all();
        let at = lessons::position("spin-lock").unwrap();
        let lesson = &all[at];
        let (root, heard) = mount_pane(Some(at), None).await;
        assert_eq!(find(&root, ".lesson-pane").get_attribute("data-lesson").as_deref(), Some("spin-lock"));
        assert_eq!(text(&root, "#lesson-title"), lesson.title);
        assert_eq!(count(&root, ".lesson-pane > p"), lesson.prose.len() as u32);
        // Backticks become code elements; the text stays text.
        assert!(count(&root, ".lesson-pane > p code") > 0);
        assert!(text(&root, ".lesson-count").contains(&format!("Lesson {} of {}", at + 1, all.len())));
        assert_eq!(count(&root, ".lesson-hints li"), 0);
        for shown in 1..=lesson.hints.len() {
            click(&root, "#lesson-hint").await;
            assert_eq!(count(&root, ".lesson-hints li"), shown as u32);
        }
        assert!(disabled(&root, "#lesson-hint"), "no hint is left");
        click(&root, "#lesson-reset").await;
        assert_eq!(*heard.reset.borrow(), vec![at]);
        click(&root, ".lesson-next").await;
        click(&root, ".lesson-prev").await;
        click(&root, ".lesson-all").await;
        assert_eq!(*heard.navigated.borrow(), vec![Some(at + 1), Some(at - 1), None]);
        // Without a valid scenario, Check says what to fix instead of starting.
        click(&root, "#lesson-check").await;
        assert!(text(&root, ".check-result.failed").contains("launch panel"), "{}", text(&root, ".lesson-pane"));
    }

    #[wasm_bindgen_test]
    async fn a_check_whose_worker_cannot_load_fails_cleanly() {
        <gloo::storage::LocalStorage as gloo::storage::Storage>::clear();
        let all = lessons::all();
        let scenario = Rc::new(all[0].scenario.clone());
        let (root, _) = mount_pane(Some(0), Some(scenario)).await;
        click(&root, "#lesson-check").await;
        for _ in 0..200 {
            if count(&root, ".check-result.failed") == 1 {
                break;
            }
            TimeoutFuture::new(50).await;
        }
        assert!(text(&root, ".check-result.failed").contains("could not"), "{}", text(&root, ".lesson-pane"));
        assert_eq!(count(&root, "#lesson-check"), 1, "a new check can start");
    }

    #[wasm_bindgen_test]
    async fn the_list_shows_every_lesson_and_the_stored_progress() {
        <gloo::storage::LocalStorage as gloo::storage::Storage>::clear();
        let mut progress = Progress::default();
        progress.passed.insert("lost-updates".into());
        progress.passed.insert("threadfence".into());
        <gloo::storage::LocalStorage as gloo::storage::Storage>::raw().set_item(PROGRESS_KEY, &progress.encode()).unwrap();
        let (root, heard) = mount_pane(None, None).await;
        let all = lessons::all();
        assert_eq!(count(&root, ".lesson-list li"), all.len() as u32);
        assert_eq!(count(&root, ".lesson-list li.passed"), 2);
        assert_eq!(count(&root, ".lesson-list li.passed[data-lesson=\"threadfence\"]"), 1);
        assert_eq!(text(&root, ".lesson-progress"), format!("2 of {} lessons passed", all.len()));
        click(&root, ".lesson-list li[data-lesson=\"cuda-votes\"] a").await;
        assert_eq!(*heard.navigated.borrow(), vec![lessons::position("cuda-votes")]);
    }

    #[wasm_bindgen_test]
    async fn a_lesson_address_opens_its_pane_and_code_and_next_moves_on() {
        let _address = AtAddress::new("?lesson=atomic-wrap");
        let root = mount_app().await;
        assert_eq!(find(&root, ".lesson-pane").get_attribute("data-lesson").as_deref(), Some("atomic-wrap"));
        assert!(editor_text(&root).contains("atomicAdd(&head[0], 1u)"), "{}", editor_text(&root));
        assert_eq!(count(&root, ".masthead"), 1);
        click(&root, ".lesson-next").await;
        assert_eq!(find(&root, ".lesson-pane").get_attribute("data-lesson").as_deref(), Some("device-malloc"));
        assert!(editor_text(&root).contains("malloc("), "{}", editor_text(&root));
        assert!(gloo::utils::window().location().search().unwrap().contains("lesson=device-malloc"));
    }

    #[wasm_bindgen_test]
    async fn embedding_shows_only_the_editor_the_controls_and_the_timeline() {
        let _address = AtAddress::new("?lesson=spin-lock&embed=1");
        let root = mount_app().await;
        for chrome in [".masthead", ".inspector-column", ".results", ".launch", "#examples", "#share", ".lesson-pane", "#explore-start"] {
            assert_eq!(count(&root, chrome), 0, "{chrome} is shown");
        }
        assert!(editor_text(&root).contains("atomic_int lock"), "{}", editor_text(&root));
        assert_eq!(count(&root, "#lanes"), 1);
        click(&root, "button#step").await;
        assert_eq!(find(&root, "#status").get_attribute("data-steps").as_deref(), Some("1"));
        let full = find(&root, "#open-full").get_attribute("href").unwrap();
        assert!(full.contains("?lesson=spin-lock#v1.") && !full.contains("embed"), "{full}");
    }
}

#[wasm_bindgen_test]
async fn an_example_address_embeds_that_example() {
    let window = gloo::utils::window();
    let before = window.location().href().unwrap();
    let path = window.location().pathname().unwrap();
    window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}?example=litmus/mp.litmus&embed=1"))).unwrap();
    let root = mount_app().await;
    window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&before)).unwrap();
    assert!(editor_text(&root).starts_with("OPENCL MP"), "{}", editor_text(&root));
    assert_eq!(count(&root, ".masthead"), 0);
    let full = find(&root, "#open-full").get_attribute("href").unwrap();
    assert!(full.contains("?example=litmus/mp.litmus#v1."), "{full}");
}

#[wasm_bindgen_test]
async fn the_gallery_shows_a_card_per_entry_and_loads_an_example_into_the_workbench() {
    let original = gloo::utils::window().location().href().unwrap();
    let root = mount_app().await;
    assert_eq!(count(&root, "#gallery"), 0, "the workbench comes first");
    // Edits first, so that loading an example keeps them one click away.
    type_into_editor(&root, "// mine\n", false).await;
    click(&root, "#gallery-open").await;
    let address = gloo::utils::window().location().href().unwrap();
    assert!(address.ends_with("?gallery"), "{address}");
    assert_eq!(count(&root, "#gallery .gallery-card"), 15);
    assert!(find(&root, ".workbench").has_attribute("hidden"), "the workbench is hidden under the gallery");
    let card = text(&root, "#gallery-barrier-in-if");
    assert!(card.contains("A barrier inside if (get_local_id(0) < 16)"), "{card}");
    assert!(card.contains("Lesson: "), "{card}");
    assert!(card.contains("OpenCL C"), "{card}");
    assert!(card.contains("barrier-divergence"), "the expected finding is on the card: {card}");
    assert!(text(&root, "#gallery-votes").contains("CUDA"));
    assert!(text(&root, "#gallery-message-passing").contains("litmus"));
    assert_eq!(count(&root, "#gallery-cas-product .gallery-variant"), 3);
    assert_eq!(count(&root, "#gallery-cas-product .description .line"), 2, "two lines of description");

    click(&root, "#load-barrier_in_if").await;
    let address = gloo::utils::window().location().href().unwrap();
    set_address(&original);
    assert!(address.ends_with("?example=barrier_in_if"), "{address}");
    assert_eq!(count(&root, "#gallery"), 0);
    assert!(!find(&root, ".workbench").has_attribute("hidden"));
    assert!(editor_text(&root).contains("if (l < 16) {"), "the example's kernel is in the editor");
    assert_eq!((input_value(&root, "#global"), input_value(&root, "#local")), ("64".into(), "32".into()));
    assert!(text(&root, "#restore-edits").contains("your previous edits are kept"));
    // The picker shows the example it loaded, among the kernels.
    let select = find(&root, "#examples").unchecked_into::<web_sys::HtmlSelectElement>();
    assert_eq!(select.value(), "barrier_in_if.toml");
    let kernels = find(&root, "#examples optgroup[label=\"Kernels\"]").text_content().unwrap_or_default();
    assert!(kernels.contains("barrier_in_if.toml") && kernels.contains("warp_votes.toml"), "{kernels}");
    let litmus = find(&root, "#examples optgroup[label=\"Litmus tests\"]").text_content().unwrap_or_default();
    assert!(litmus.contains("mp_relaxed.toml"), "{litmus}");

    // It runs to its finding.
    click(&root, "#run").await;
    wait_while_running(&root).await;
    let findings = text(&root, "#findings");
    assert!(findings.contains("barrier divergence"), "{findings}");
}

#[wasm_bindgen_test]
async fn an_example_address_loads_it_and_back_returns_to_the_gallery() {
    let original = gloo::utils::window().location().href().unwrap();
    let path = page_path(&original);
    set_address(&format!("{path}?example=interwork-reduction"));
    let root = mount_app().await;
    assert!(editor_text(&root).contains("atomic_xchg"), "the entry's first variant is loaded");
    assert_eq!(input_value(&root, "#seed"), "3");
    assert_eq!(count(&root, "#gallery"), 0);
    // A page opened on `?gallery` shows it, and the browser's Back (a popstate) follows the
    // address.
    set_address(&format!("{path}?gallery"));
    let gallery = mount_app().await;
    assert_eq!(count(&gallery, "#gallery .gallery-card"), 15);
    click(&gallery, "#load-ring_buffer").await;
    assert_eq!(count(&gallery, "#gallery"), 0);
    assert!(editor_text(&gallery).contains("atomicInc"));
    gloo::utils::window().history().unwrap().back().unwrap();
    for _ in 0..100 {
        if count(&gallery, "#gallery") == 1 {
            break;
        }
        TimeoutFuture::new(20).await;
    }
    settle().await;
    let address = gloo::utils::window().location().href().unwrap();
    set_address(&original);
    assert!(address.ends_with("?gallery"), "{address}");
    assert_eq!(count(&gallery, "#gallery"), 1, "Back returns to the gallery");
    // Closing it goes back to the workbench, with the example still loaded.
    click(&gallery, "#gallery-close").await;
    set_address(&original);
    assert_eq!(count(&gallery, "#gallery"), 0);
    assert!(editor_text(&gallery).contains("atomicInc"));
}
