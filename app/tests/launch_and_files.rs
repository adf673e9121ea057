//! The launch inputs and files in a real browser: the launch panel's table and settings,
//! opened files, and the inputs kept across reloads.

#![cfg(target_arch = "wasm32")]

mod common;

use gloo::timers::future::TimeoutFuture;
use interleave_app::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, Event, EventInit, HtmlInputElement};

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

mod launch_and_files {
    //! The launch panel's table and settings, opened files, and the inputs kept across
    //! reloads.

    use super::*;
    use gloo::storage::{LocalStorage, Storage};
    use interleave_app::inputs::{self, InputEdit, STORAGE_KEY};
    use interleave_app::state::{Action, State};
    use js_sys::Array;
    use web_sys::{DataTransfer, DragEvent, DragEventInit, File};

    fn value(root: &Element, selector: &str) -> String {
        let element = find(root, selector);
        match element.dyn_ref::<HtmlInputElement>() {
            Some(input) => input.value(),
            None => element.unchecked_ref::<web_sys::HtmlSelectElement>().value(),
        }
    }

    fn param_rows(root: &Element) -> Vec<String> {
        let rows = root.query_selector_all("#args-table tr[data-param]").unwrap();
        (0..rows.length()).filter_map(|i| rows.get(i)).filter_map(|n| n.dyn_into::<Element>().ok()).filter_map(|e| e.get_attribute("data-param")).collect()
    }

    #[wasm_bindgen_test]
    async fn the_table_fills_from_the_kernel_s_signature() {
        let root = mount_app().await;
        assert_eq!(param_rows(&root), ["ids", "counters"]);
        // The example's launch is in the table's fields.
        assert_eq!(value(&root, "#arg-counters-kind"), "buffer");
        assert_eq!(value(&root, "#arg-counters-init"), "fill");
        assert_eq!(value(&root, "#arg-counters-len"), "2");
        type_into_editor(&root, "__kernel void k(__global float *out, __local int *tmp, uint n) { out[0] = n; }", true).await;
        assert_eq!(param_rows(&root), ["out", "tmp", "n"]);
        assert!(text(&root, "tr[data-param=\"out\"] .param-type").contains("__global float*"));
        assert_eq!(value(&root, "#arg-out-kind"), "default");
        // A scalar has no default: Run waits for its value, and says why.
        assert!(disabled(&root, "#run"));
        assert_eq!(count(&root, "tr[data-param=\"n\"].invalid"), 1);
        assert!(text(&root, "#launch-problems").contains("argument `n`"));
        type_into(&root, "#arg-n-value", "5").await;
        assert_eq!(value(&root, "#arg-n-text"), "n=uint:5");
        assert!(!disabled(&root, "#run"));
        // The rows of the old parameters are set aside, not lost.
        assert_eq!(count(&root, "tr.set-aside"), 2);
        // Choosing a buffer for `out` passes one, as the CLI's text.
        choose(&root, "#arg-out-kind", "buffer").await;
        assert_eq!(value(&root, "#arg-out-text"), "out=float[8]");
        choose(&root, "#arg-out-init", "range").await;
        type_into(&root, "#arg-out-step", "0.5").await;
        assert_eq!(value(&root, "#arg-out-text"), "out=float[8]:range=0:0.5");
        click(&root, "#run").await;
        for _ in 0..100 {
            if status(&root) != "running" {
                break;
            }
            TimeoutFuture::new(50).await;
        }
        assert_eq!(status(&root), "completed");
    }

    #[wasm_bindgen_test]
    async fn an_invalid_table_field_is_flagged_and_blocks_the_run() {
        let root = mount_app().await;
        type_into(&root, "#arg-ids-len", "0").await;
        let input = find(&root, "#arg-ids-len");
        assert_eq!(input.get_attribute("aria-invalid").as_deref(), Some("true"));
        assert_eq!(input.get_attribute("aria-describedby").as_deref(), Some("arg-ids-len-error"));
        assert!(text(&root, "#arg-ids-len-error").contains("at least 1"));
        assert!(disabled(&root, "#run") && disabled(&root, "#step"));
        assert!(disabled(&root, "#download-scenario"));
        type_into(&root, "#arg-ids-len", "8").await;
        assert_eq!(count(&root, "#arg-ids-len-error"), 0);
        assert!(!disabled(&root, "#run"));
        // The settings under "More" are checked the same way, and open to show the problem.
        type_into(&root, "#max-steps", "0").await;
        assert_eq!(find(&root, "#max-steps").get_attribute("aria-invalid").as_deref(), Some("true"));
        assert!(find(&root, "#launch-more").has_attribute("open"));
        assert!(disabled(&root, "#run"));
    }

    #[wasm_bindgen_test]
    async fn settings_follow_the_dialect_and_scheduler() {
        let root = mount_app().await;
        assert_eq!(count(&root, "#pct-depth"), 0);
        choose(&root, "#scheduler", "pct").await;
        assert_eq!(value(&root, "#pct-depth"), "3");
        choose(&root, "#scheduler", "lockstep").await;
        assert_eq!(count(&root, "#pct-depth"), 0);
        choose(&root, "#dialect", "cuda").await;
        assert_eq!((value(&root, "#grid"), value(&root, "#block")), ("2".into(), "4".into()));
        assert_eq!(count(&root, "#offset") + count(&root, "#global"), 0);
        choose(&root, "#dialect", "opencl").await;
        assert_eq!(value(&root, "#global"), "8");
        for id in ["#warp-size", "#resident-groups", "#progress", "#granularity", "#max-steps"] {
            assert_eq!(count(&root, id), 1, "{id}");
        }
    }

    #[wasm_bindgen_test]
    async fn a_stored_scenario_is_restored_on_start() {
        let mut state = State::default();
        for action in [
            Action::Edit(InputEdit::Global("16".into())),
            Action::Edit(InputEdit::ArgText { param: "ids".into(), text: "ids=int[16]".into() }),
            Action::Edit(InputEdit::MaxSteps("500".into())),
        ] {
            state = interleave_app::state::reduce(&state, action);
        }
        LocalStorage::clear();
        LocalStorage::raw().set_item(STORAGE_KEY, &inputs::encode(inputs::Inputs::clone(&state.inputs), true, None)).unwrap();
        let root = fresh_root();
        yew::Renderer::<App>::with_root(root.clone()).render();
        settle().await;
        assert_eq!(value(&root, "#global"), "16");
        assert_eq!(value(&root, "#arg-ids-text"), "ids=int[16]");
        assert_eq!(value(&root, "#max-steps"), "500");
        assert_eq!(count(&root, "#lanes[data-work-items=\"16\"]"), 1);
        // An edit is written back a moment later.
        type_into(&root, "#seed", "77").await;
        TimeoutFuture::new(600).await;
        let stored = inputs::decode(&LocalStorage::raw().get_item(STORAGE_KEY).unwrap().unwrap()).unwrap();
        assert_eq!(stored.current.seed, "77");
        // A damaged value is set aside, and the page starts from the example.
        LocalStorage::raw().set_item(STORAGE_KEY, "{not json").unwrap();
        let root = fresh_root();
        yew::Renderer::<App>::with_root(root.clone()).render();
        settle().await;
        assert_eq!(value(&root, "#global"), "8");
        assert_eq!(LocalStorage::raw().get_item("interleave.inputs.unreadable").unwrap().as_deref(), Some("{not json"));
    }

    #[wasm_bindgen_test]
    async fn loading_over_edits_keeps_them_one_click_away() {
        let root = mount_app().await;
        assert_eq!(count(&root, "#restore-edits"), 0);
        type_into(&root, "#global", "3").await;
        choose(&root, "#examples", "litmus/mp.litmus").await;
        assert!(text(&root, "#restore-edits").contains("your previous edits are kept"));
        click(&root, "#restore-edits-button").await;
        assert_eq!(value(&root, "#global"), "3");
        assert!(text(&root, "#restore-edits").contains("Back to MP"));
        click(&root, "#restore-edits-dismiss").await;
        assert_eq!(count(&root, "#restore-edits"), 0);
    }

    fn file(name: &str, text: &str) -> File {
        let parts = Array::of1(&text.into());
        File::new_with_str_sequence(&parts, name).unwrap()
    }

    fn transfer(files: &[File]) -> DataTransfer {
        let transfer = DataTransfer::new().unwrap();
        for f in files {
            transfer.items().add_with_file(f).unwrap();
        }
        transfer
    }

    /// Waits until the files are read (a reader reports in a later task).
    async fn until(root: &Element, probe: impl Fn(&Element) -> bool) {
        for _ in 0..100 {
            if probe(root) {
                return;
            }
            TimeoutFuture::new(30).await;
        }
    }

    #[wasm_bindgen_test]
    async fn files_open_from_the_picker_and_by_dropping() {
        let root = mount_app().await;
        // The picker: a scenario file with its kernel, chosen together.
        let input = find(&root, "#open-file-input").unchecked_into::<HtmlInputElement>();
        let chosen = transfer(&[
            file("t.toml", "source_file = \"t.cl\"\nseed = 9\n[launch]\nglobal = [6]\nlocal = [3]\n"),
            file("t.cl", "__kernel void t(__global int *p, int n) { p[0] = n; }"),
        ]);
        input.set_files(chosen.files().as_ref());
        let init = EventInit::new();
        init.set_bubbles(true);
        input.dispatch_event(&Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
        until(&root, |root| value(root, "#global") == "6").await;
        assert_eq!(value(&root, "#seed"), "9");
        assert_eq!(param_rows(&root), ["p", "n"]);
        // Dropping a scenario file alone explains that its kernel is needed.
        let dropped = transfer(&[file("u.toml", "source_file = \"u.cl\"\n")]);
        let init = DragEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_data_transfer(Some(&dropped));
        let target = find(&root, "#lanes");
        target.dispatch_event(&DragEvent::new_with_event_init_dict("dragenter", &init).unwrap()).unwrap();
        settle().await;
        assert_eq!(count(&root, "#drop-target"), 1);
        target.dispatch_event(&DragEvent::new_with_event_init_dict("drop", &init).unwrap()).unwrap();
        until(&root, |root| count(root, "#diagnostics .diagnostic") > 0).await;
        assert_eq!(count(&root, "#drop-target"), 0);
        let problem = text(&root, "#diagnostics");
        assert!(problem.contains("`u.cl`") && problem.contains("together"), "{problem}");
        assert_eq!(value(&root, "#global"), "6", "nothing was replaced");
        // A kernel dropped alone replaces the source and keeps the launch.
        let kernel = transfer(&[file("k.cu", "__global__ void k(int *q) { q[threadIdx.x] = 1; }")]);
        init.set_data_transfer(Some(&kernel));
        target.dispatch_event(&DragEvent::new_with_event_init_dict("drop", &init).unwrap()).unwrap();
        until(&root, |root| param_rows(root) == ["q"]).await;
        assert_eq!(value(&root, "#dialect"), "cuda");
        assert_eq!((value(&root, "#grid"), value(&root, "#block")), ("2".into(), "3".into()));
        assert_eq!(count(&root, "#diagnostics .diagnostic"), 0);
    }
}
