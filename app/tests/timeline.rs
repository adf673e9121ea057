//! The timeline in a real browser: hover tooltips, seeking by click, zoom, the canvas's keys,
//! lane selection and folding, and the paint of a synthetic run of 1,024 lanes.

#![cfg(target_arch = "wasm32")]

mod common;

use std::rc::Rc;

use gloo::timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use common::*;

wasm_bindgen_test_configure!(run_in_browser);

mod timeline {
    use super::*;
    use interleave_app::components::lanes::{Lanes, Props as LanesProps};
    use interleave_app::components::timeline_canvas::{paint_frame, theme_colours, Frame};
    use interleave_app::snapshot::{GroupRows, Lane, SharedEvents, Timeline};
    use interleave_app::timeline::{layout, EventStore, Headers, LaneSpec, Topology, View};
    use interleave_engine::diag::Span;
    use interleave_engine::trace::{Event, EventKind, Location, Space};
    use std::collections::BTreeSet;
    use yew::Callback;

    #[wasm_bindgen_test]
    async fn clicking_an_event_on_the_canvas_seeks_to_its_step() {
        use_app_styles();
        let root = mount_app().await;
        run_to_end(&root).await;
        let end = canvas_number(&root, "data-cursor-step");
        let (x, y) = first_event_point(&root).await.expect("some mark is under the pointer");
        let step: u64 = find(&root, ".timeline-tooltip").get_attribute("data-step").expect("the tooltip names its step").parse().unwrap();
        assert!((step as f64) < end, "the first lane's first event is not the last step");
        pointer(&root, "pointerdown", x, y).await;
        pointer(&root, "pointerup", x, y).await;
        assert_eq!(status(&root), "running");
        let text = find(&root, "#status").text_content().unwrap_or_default();
        assert!(text.contains(&format!(" {step} step")), "{text}");
        assert_eq!(canvas_number(&root, "data-cursor-step") as u64, step);
        // The click also selected the event's lane.
        assert_eq!(count(&root, ".lane.selected"), 1);
    }

    #[wasm_bindgen_test]
    async fn the_wheel_zooms_about_the_pointer_and_keys_drive_the_view() {
        use_app_styles();
        let root = mount_app().await;
        run_to_end(&root).await;
        let canvas = find(&root, "#timeline-canvas");
        let view = |root: &Element| (canvas_number(root, "data-view-start"), canvas_number(root, "data-view-end"));
        let fitted = view(&root);
        assert_eq!(fitted.0, 0.0);
        // Zoom in about a point three quarters of the way across.
        let rect = canvas.get_bounding_client_rect();
        let x = rect.width() * 0.75;
        let anchor = canvas_number(&root, "data-start") + x / canvas_number(&root, "data-px-per-step");
        let init = web_sys::WheelEventInit::new();
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_delta_y(-400.0);
        init.set_client_x((rect.left() + x) as i32);
        init.set_client_y((rect.top() + 40.0) as i32);
        let wheel = web_sys::WheelEvent::new_with_event_init_dict("wheel", &init).unwrap();
        canvas.dispatch_event(&wheel).unwrap();
        assert!(wheel.default_prevented(), "the page must not scroll");
        settle().await;
        let zoomed = view(&root);
        assert!(zoomed.0 > fitted.0 && zoomed.1 - zoomed.0 < fitted.1 - fitted.0, "{zoomed:?}");
        // The step under the pointer stays under it (within the pixel the event was sent at).
        let scale = canvas_number(&root, "data-px-per-step");
        let kept = canvas_number(&root, "data-start") + x / scale;
        assert!((kept - anchor).abs() * scale < 1.0, "{kept} != {anchor}");
        // Keys on the focused canvas: fit, zoom, pan, home; Home does not reset the run.
        press(&canvas, "f").await;
        assert_eq!(view(&root), fitted);
        press(&canvas, "+").await;
        let plus = view(&root);
        assert!(plus.1 - plus.0 < fitted.1 - fitted.0);
        press(&canvas, "ArrowRight").await;
        assert!(view(&root).0 > plus.0);
        press(&canvas, "Home").await;
        assert_eq!(view(&root).0, 0.0);
        assert_eq!(status(&root), "completed");
        press(&canvas, "End").await;
        assert!(view(&root).1 >= canvas_number(&root, "data-cursor-step"));
        // Up and down choose lanes; comma goes to the lane's previous event.
        press(&canvas, "ArrowDown").await;
        assert_eq!(count(&root, ".lane.selected[data-work-item=\"0\"]"), 1);
        press(&canvas, "ArrowDown").await;
        assert_eq!(count(&root, ".lane.selected[data-work-item=\"1\"]"), 1);
        let before = canvas_number(&root, "data-cursor-step");
        press(&canvas, ",").await;
        let after = canvas_number(&root, "data-cursor-step");
        assert!(after < before, "{after} !< {before}");
        assert_eq!(status(&root), "running");
    }

    #[wasm_bindgen_test]
    async fn a_lane_label_selects_and_a_header_folds() {
        use_app_styles();
        let root = mount_app().await;
        click(&root, "#step").await;
        click(&root, ".lane[data-work-item=\"3\"] .wi").await;
        assert_eq!(count(&root, ".lane.selected"), 1);
        assert_eq!(count(&root, ".lane.selected[data-work-item=\"3\"]"), 1);
        assert_eq!(find(&root, ".lane.selected .wi").get_attribute("aria-pressed").as_deref(), Some("true"));
        let header = ".lane-header.group .fold";
        click(&root, header).await;
        assert_eq!(count(&root, ".lane"), 4);
        assert_eq!(find(&root, header).get_attribute("aria-expanded").as_deref(), Some("false"));
        // The folded group's events are drawn on its header: nothing is lost.
        assert_eq!(canvas_number(&root, "data-events"), 1.0);
        click(&root, header).await;
        assert_eq!(count(&root, ".lane"), 8);
        let canvas = find(&root, "#timeline-canvas");
        assert_eq!(canvas.get_attribute("tabindex").as_deref(), Some("0"));
        assert!(!canvas.get_attribute("aria-label").unwrap_or_default().is_empty());
    }

    /// A timeline of `lanes` work-items in groups of 256 and `events` events, with loads,
    /// stores, atomics and a barrier every 10,000 steps in every group.
    fn synthetic(lanes: u32, events: u64) -> Rc<Timeline> {
        let group_of: Vec<u32> = (0..lanes).map(|wi| wi / 256).collect();
        let mut store = EventStore::new(Topology::new(group_of, 32));
        let mut state = 12345u64;
        let mut step = 0u64;
        while step < events {
            step += 1;
            if step.is_multiple_of(10_000) {
                // Everybody meets at a barrier: one arrival per step, the last releases.
                for wi in 0..lanes {
                    let event = Event {
                        step,
                        work_item: wi,
                        kind: EventKind::BarrierArrive,
                        location: None,
                        read: 0,
                        written: 1,
                        span: Span::new(0, 0),
                        order: None,
                        scope: None,
                    };
                    store.push(&event, None);
                    if wi % 256 == 255 {
                        store.push(&Event { kind: EventKind::BarrierRelease, read: 256, ..event }, None);
                    }
                    step += 1;
                }
                continue;
            }
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let kind = [EventKind::Load, EventKind::Load, EventKind::Store, EventKind::Atomic][(state >> 60) as usize % 4];
            let event = Event {
                step,
                work_item: ((state >> 33) % lanes as u64) as u32,
                kind,
                location: Some(Location { space: Space::Global, alloc: 1, offset: (state >> 40) % 4096 * 4 }),
                read: state & 0xff,
                written: state >> 56,
                span: Span::new(0, 0),
                order: None,
                scope: None,
            };
            store.push(&event, None);
        }
        let limit = store.len();
        let steps = step;
        let groups = (0..lanes / 256)
            .map(|g| GroupRows {
                group: g as usize,
                lanes: (g * 256..(g + 1) * 256)
                    .map(|wi| Lane {
                        index: wi as usize,
                        label: format!("wi {wi} (g{g}·l{})", wi % 256),
                        status: "ready",
                        line: Some(7),
                        marks: store.lane(wi).map_or(0, |s| s.count(limit)),
                        warp: store.topology().warp_of[wi as usize],
                    })
                    .collect(),
            })
            .collect();
        Rc::new(Timeline { steps, groups, events: SharedEvents::new(store), limit, source: Rc::from("__kernel void k() {}"), ..Timeline::default() })
    }

    fn now() -> f64 {
        gloo::utils::window().performance().expect("performance").now()
    }

    #[wasm_bindgen_test]
    async fn a_thousand_lanes_and_a_hundred_thousand_events_paint_in_a_frame() {
        use_app_styles();
        let timeline = synthetic(1024, 100_000);
        let total = timeline.limit;
        assert!(total >= 100_000, "{total}");
        let root = fresh_root();
        root.set_attribute("style", "display: flex; flex-direction: column; width: 1300px; height: 720px").unwrap();
        let props = |timeline: Rc<Timeline>| LanesProps {
            work_items: 1024,
            timeline: Some(timeline),
            on_step_lane: Callback::noop(),
            litmus: false,
            selected: Some(5),
            on_select_lane: Callback::noop(),
            on_seek: Callback::noop(),
            reveal: None,
            focus: None,
            on_focus: Callback::noop(),
            why: None,
        };
        let started = now();
        let mut handle = yew::Renderer::<Lanes>::with_root_and_props(root.clone(), props(timeline.clone())).render();
        while count(&root, ".lane") == 0 {
            TimeoutFuture::new(0).await;
        }
        let first_render = now() - started;
        settle().await;
        // Only the label rows near the viewport are in the DOM; scrolling brings the others.
        let rendered = count(&root, ".lane");
        assert!((30..=200).contains(&rendered), "{rendered} label rows");
        assert_eq!(count(&root, ".lane.selected[data-work-item=\"5\"]"), 1);
        let body: HtmlElement = find(&root, ".lanes-body").unchecked_into();
        let full = body.scroll_height();
        assert!(full as f64 >= 1028.0 * 22.0, "the column keeps its full height: {full}");
        body.set_scroll_top(full);
        settle().await;
        assert_eq!(count(&root, ".lane[data-work-item=\"1023\"]"), 1);
        assert_eq!(count(&root, ".lane[data-work-item=\"5\"]"), 0);
        assert_eq!(body.scroll_height(), full);
        body.set_scroll_top(0);
        settle().await;
        assert_eq!(count(&root, ".lane[data-work-item=\"0\"]"), 1);
        // The component's own paint: fitted, every visible row's events.
        let drawn = canvas_number(&root, "data-events");
        assert!(drawn > 1000.0, "{drawn}");
        assert!(canvas_number(&root, "data-view-end") >= timeline.steps as f64);
        let canvas: web_sys::HtmlCanvasElement = find(&root, "#timeline-canvas").unchecked_into();
        let context: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
        let pixels = context.get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64).unwrap().data();
        let painted = pixels.chunks(4).filter(|p| p[3] != 0).count();
        assert!(painted > 10_000, "{painted} painted pixels");

        // Paint at several zooms and scroll positions, as a drag or wheel would.
        let specs: Vec<LaneSpec> = timeline
            .groups
            .iter()
            .flat_map(|g| g.lanes.iter().map(move |l| LaneSpec { work_item: l.index as u32, group: g.group as u32, warp: l.warp }))
            .collect();
        let rows = layout(&specs, Headers::Groups, &BTreeSet::new(), None);
        let colours = theme_colours();
        let width = canvas.client_width() as f64;
        let fit = timeline.steps as f64 + 2.0;
        let views = [
            (View { start: 0.0, scale: width / fit }, 0.0),
            (View { start: 20_000.0, scale: width / 10_000.0 }, 4_000.0),
            (View { start: 50_000.0, scale: width / 1_000.0 }, 11_000.0),
            // Lanes 905.. (rows 909..) arrive at the barrier of step 70,000 one step each.
            (View { start: 70_890.0, scale: width / 100.0 }, 20_000.0),
            (View { start: 99_990.0, scale: 40.0 }, 1_000.0),
        ];
        let mut times = Vec::new();
        for (view, scroll_top) in views {
            for _ in 0..4 {
                let frame = Frame {
                    canvas: &canvas,
                    timeline: &timeline,
                    layout: &rows,
                    view,
                    height: 660.0,
                    scroll_top,
                    selected: Some(5),
                    colours: &colours,
                    why: None,
                };
                let started = now();
                let events = paint_frame(&frame).expect("a 2D context");
                times.push(now() - started);
                assert!(events > 0, "{view:?} drew nothing");
                assert_eq!(canvas.get_attribute("data-events"), Some(events.to_string()));
            }
        }
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        let worst = times.iter().copied().fold(0.0, f64::max);

        // A new snapshot of the same run (one event fewer seen, as after a step back)
        // re-renders the label column: time it until the DOM shows the change.
        let mut earlier = (*timeline).clone();
        earlier.limit = total - 1;
        let lane = &mut earlier.groups[0].lanes[0];
        lane.marks = lane.marks.saturating_sub(1);
        let expected = lane.marks.to_string();
        let started = now();
        handle.update(props(Rc::new(earlier)));
        let mut rerender = f64::NAN;
        for _ in 0..2000 {
            TimeoutFuture::new(0).await;
            let shown = find(&root, ".lane[data-work-item=\"0\"]").get_attribute("data-marks");
            if shown.as_deref() == Some(expected.as_str()) {
                rerender = now() - started;
                break;
            }
        }
        assert!(rerender.is_finite(), "the new snapshot was never rendered");
        // A revealed step comes into view, once per serial.
        let canvas_rect = canvas.get_bounding_client_rect();
        let init = web_sys::WheelEventInit::new();
        init.set_delta_y(-2000.0);
        init.set_cancelable(true);
        init.set_client_x((canvas_rect.left() + 10.0) as i32);
        init.set_client_y((canvas_rect.top() + 40.0) as i32);
        canvas.dispatch_event(&web_sys::WheelEvent::new_with_event_init_dict("wheel", &init).unwrap()).unwrap();
        settle().await;
        let view = |root: &Element| (canvas_number(root, "data-view-start"), canvas_number(root, "data-view-end"));
        let zoomed = view(&root);
        assert!(zoomed.1 < 90_000.0, "{zoomed:?}");
        let reveal = |serial, step| LanesProps { reveal: Some((serial, step)), ..props(timeline.clone()) };
        handle.update(reveal(1, 90_000));
        settle().await;
        let revealed = view(&root);
        assert!(revealed.0 <= 90_000.0 && 90_000.0 <= revealed.1, "{revealed:?}");
        assert!((revealed.1 - revealed.0 - (zoomed.1 - zoomed.0)).abs() <= 1.0, "the zoom is kept");
        handle.update(reveal(1, 10_000));
        settle().await;
        assert_eq!(view(&root), revealed, "the same serial again changes nothing");
        console_log!(
            "timeline of 1,024 lanes and {total} events: first render {first_render:.1} ms, paint mean {mean:.2} ms, worst {worst:.2} ms over {} paints, re-render {rerender:.1} ms",
            times.len()
        );
        handle.destroy();
    }
}
