//! The timeline's canvas: it keeps the view (which steps are visible), turns the mouse, the
//! wheel and the keyboard into view changes, seeks and lane selections, and paints the
//! frames that `crate::timeline::scene` composes.
//!
//! Everything here is imperative on purpose: panning and zooming change only the painter's
//! state and ask for one `requestAnimationFrame` (repeated requests before it runs are one
//! frame), so a gesture never re-renders a component. The painter reads the snapshot's
//! shared event store directly; the hover tooltip is made only for the event under the
//! pointer. Colours are the theme's CSS custom properties, read again (and the frame
//! painted again) when the root's `data-theme` changes.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::{EventListener, EventListenerOptions};
use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{
    CanvasRenderingContext2d, HtmlCanvasElement, HtmlElement, KeyboardEvent, MutationObserver, MutationObserverInit, PointerEvent, ResizeObserver, WheelEvent,
};
use yew::prelude::*;

use crate::snapshot::{self, Timeline};
use crate::timeline::{self, cursor_position, Align, Bounds, Layout, Paint, Row, SceneInput, Shape, View, WhyArrows, AXIS_HEIGHT, KINDS};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub timeline: Rc<Timeline>,
    pub layout: Rc<Layout>,
    /// The selected work-item, highlighted.
    pub selected: Option<usize>,
    /// Seeks the session to a step (an event clicked, or chosen with `,` and `.`).
    pub on_seek: Callback<u64>,
    /// Selects a work-item (with the up and down keys).
    pub on_select_lane: Callback<usize>,
    /// `(serial, step)`: brings `step` into view whenever the serial changes.
    pub reveal: Option<(u64, u64)>,
    /// The element that scrolls the rows, the label column's and the canvas's together.
    pub scroller: NodeRef,
    /// The canvas's accessible name.
    pub label: AttrValue,
    /// A finding's explanation, drawn as arrows over the lanes.
    #[prop_or_default]
    pub why: Option<Rc<WhyArrows>>,
}

/// How far a pointer may be from a mark and still hit it, in CSS pixels.
const HIT_SLACK: f64 = 4.0;
/// A press that moves less than this is a click, not a drag.
const DRAG_THRESHOLD: f64 = 4.0;

/// A drag in progress: where it started, and the view and scroll position then.
#[derive(Clone, Copy)]
struct Drag {
    pointer: i32,
    x: f64,
    y: f64,
    view: View,
    scroll: i32,
    moved: bool,
}

/// Everything a frame is painted from, and what the gestures change.
struct Painter {
    timeline: Rc<Timeline>,
    layout: Rc<Layout>,
    selected: Option<u32>,
    why: Option<Rc<WhyArrows>>,
    view: View,
    /// Whether the view fits the whole run (and keeps fitting it as the run grows).
    fitted: bool,
    canvas: NodeRef,
    tooltip: NodeRef,
    scroller: NodeRef,
    on_seek: Callback<u64>,
    on_select_lane: Callback<usize>,
    frame: Option<AnimationFrame>,
    /// The theme the colours were read for, and the colours.
    colours: Option<(String, Vec<(Paint, String)>)>,
    drag: Option<Drag>,
    /// The event the tooltip describes.
    hovered: Option<usize>,
    /// The canvas's width in CSS pixels at the last paint.
    width: f64,
}

type Shared = Rc<RefCell<Painter>>;

/// The CSS custom property of each colour role.
fn variable(paint: Paint) -> String {
    match paint {
        Paint::Kind(kind) => format!("--k-{}", snapshot::kind_name(kind)),
        Paint::GroupRow => "--tl-header".into(),
        Paint::Selected => "--tl-selected".into(),
        Paint::Grid => "--border".into(),
        Paint::Axis => "--muted".into(),
        Paint::BarrierBand => "--tl-barrier".into(),
        Paint::BarrierWait => "--k-barrier-arrive".into(),
        Paint::LockHeld => "--tl-lock".into(),
        Paint::LockWait => "--tl-lock".into(),
        Paint::LockMark => "--tl-lock".into(),
        Paint::Race => "--tl-race".into(),
        Paint::Stale => "--tl-stale".into(),
        Paint::Lockstep => "--tl-lockstep".into(),
        Paint::Inactive => "--muted".into(),
        Paint::Cursor => "--cursor".into(),
        Paint::WhyEdge => "--tl-why".into(),
        Paint::WhyMissing => "--error".into(),
        Paint::LabelBack => "--panel".into(),
    }
}

/// Every colour role, to read them all at once.
fn paints() -> Vec<Paint> {
    let mut all: Vec<Paint> = KINDS.iter().map(|&k| Paint::Kind(k)).collect();
    all.extend([
        Paint::GroupRow,
        Paint::Selected,
        Paint::Grid,
        Paint::Axis,
        Paint::BarrierBand,
        Paint::BarrierWait,
        Paint::LockHeld,
        Paint::LockWait,
        Paint::LockMark,
        Paint::Race,
        Paint::Stale,
        Paint::Lockstep,
        Paint::Inactive,
        Paint::Cursor,
        Paint::WhyEdge,
        Paint::WhyMissing,
        Paint::LabelBack,
    ]);
    all
}

/// The theme's colours, read from the root element's computed style.
pub fn theme_colours() -> Vec<(Paint, String)> {
    let root = gloo::utils::document_element();
    let style = gloo::utils::window().get_computed_style(&root).ok().flatten();
    paints()
        .into_iter()
        .map(|paint| {
            let value = style
                .as_ref()
                .and_then(|s| s.get_property_value(&variable(paint)).ok())
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| "#888".to_string());
            (paint, value)
        })
        .collect()
}

impl Painter {
    fn bounds(&self) -> Bounds {
        Bounds { steps: self.timeline.steps, width: self.width.max(1.0) }
    }

    fn set_view(&mut self, view: View) {
        self.view = view.clamped(self.bounds());
        self.fitted = false;
    }

    fn scroll_top(&self) -> f64 {
        self.scroller.cast::<HtmlElement>().map_or(0.0, |s| s.scroll_top() as f64)
    }

    /// The event under canvas point (`x`, `y`), if any.
    fn event_at(&self, x: f64, y: f64) -> Option<usize> {
        let row = self.layout.row_at(y - AXIS_HEIGHT + self.scroll_top()).filter(|_| y >= AXIS_HEIGHT)?;
        let store = self.timeline.events.borrow();
        let series = self.layout.series(row, &store)?;
        let n = series.count(self.timeline.limit);
        timeline::hit(series, n, &self.view, x, HIT_SLACK)
    }

    /// The work-item of the lane row under canvas height `y`.
    fn lane_at(&self, y: f64) -> Option<u32> {
        let row = self.layout.row_at(y - AXIS_HEIGHT + self.scroll_top())?;
        match self.layout.rows.get(row)? {
            Row::Lane { work_item, .. } => Some(*work_item),
            _ => None,
        }
    }
}

/// Asks for a frame, unless one is already asked for.
fn schedule(shared: &Shared) {
    let mut painter = shared.borrow_mut();
    if painter.frame.is_some() {
        return;
    }
    let again = shared.clone();
    painter.frame = Some(request_animation_frame(move |_| {
        let mut painter = again.borrow_mut();
        painter.frame = None;
        paint(&mut painter);
    }));
}

/// Paints the next frame: sizes the canvas to its box and the visible rows, keeps the view
/// within the run, and paints.
fn paint(p: &mut Painter) -> Option<u64> {
    let canvas = p.canvas.cast::<HtmlCanvasElement>()?;
    let scroller = p.scroller.cast::<HtmlElement>()?;
    let content = AXIS_HEIGHT + p.layout.height();
    let height = (scroller.client_height() as f64).min(content).max(AXIS_HEIGHT);
    let style_height = format!("{height}px");
    if canvas.style().get_property_value("height").ok().as_deref() != Some(style_height.as_str()) {
        let _ = canvas.style().set_property("height", &style_height);
    }
    p.width = (canvas.client_width() as f64).max(1.0);
    let bounds = p.bounds();
    p.view = if p.fitted { View::fit(bounds) } else { p.view.clamped(bounds) };
    let theme = gloo::utils::document_element().get_attribute("data-theme").unwrap_or_default();
    if p.colours.as_ref().is_none_or(|(t, _)| *t != theme) {
        p.colours = Some((theme, theme_colours()));
    }
    let frame = Frame {
        canvas: &canvas,
        timeline: &p.timeline,
        layout: &p.layout,
        view: p.view,
        height,
        scroll_top: scroller.scroll_top() as f64,
        selected: p.selected,
        colours: p.colours.as_ref().map(|(_, c)| c.as_slice()).unwrap_or_default(),
        why: p.why.as_deref(),
    };
    paint_frame(&frame)
}

/// One frame to paint: the canvas (its width is its box's), the data, and the view.
pub struct Frame<'a> {
    pub canvas: &'a HtmlCanvasElement,
    pub timeline: &'a Timeline,
    pub layout: &'a Layout,
    pub view: View,
    /// The canvas's height and the rows' scroll position, in CSS pixels.
    pub height: f64,
    pub scroll_top: f64,
    pub selected: Option<u32>,
    /// The theme's colours ([`theme_colours`]).
    pub colours: &'a [(Paint, String)],
    /// A finding's explanation, drawn as arrows over the lanes.
    pub why: Option<&'a WhyArrows>,
}

/// Paints `frame` at the device's pixel ratio and records what it shows in the canvas's
/// attributes; returns how many events its marks stand for (`None` without a 2D context).
pub fn paint_frame(frame: &Frame) -> Option<u64> {
    let canvas = frame.canvas;
    let width = (canvas.client_width() as f64).max(1.0);
    let height = frame.height.max(1.0);
    let ratio = gloo::utils::window().device_pixel_ratio().max(1.0);
    let (device_w, device_h) = ((width * ratio).round() as u32, (height * ratio).round() as u32);
    if canvas.width() != device_w {
        canvas.set_width(device_w);
    }
    if canvas.height() != device_h {
        canvas.set_height(device_h);
    }
    let context = canvas.get_context("2d").ok().flatten()?.dyn_into::<CanvasRenderingContext2d>().ok()?;
    let colour = |paint: Paint| frame.colours.iter().find(|(p, _)| *p == paint).map_or("#888", |(_, c)| c.as_str());
    let _ = context.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    context.clear_rect(0.0, 0.0, width, height);
    let timeline = frame.timeline;
    let store = timeline.events.borrow();
    let overlays = &timeline.overlays;
    let input = SceneInput {
        store: &store,
        limit: timeline.limit,
        layout: frame.layout,
        view: frame.view,
        width,
        height,
        scroll_top: frame.scroll_top,
        column: 1.0 / ratio,
        cursor: timeline.steps,
        selected: frame.selected,
        lock_bands: &overlays.lock_bands,
        lock_marks: &overlays.lock_marks,
        races: &overlays.races,
        stale: &overlays.stale,
    };
    let scene = timeline::scene(&input);
    draw(&context, &scene.shapes, &colour);
    // The explanation's arrows over everything but the axis, which they leave readable.
    let why = frame.why.map(|why| timeline::why_shapes(&input, why)).unwrap_or_default();
    context.save();
    context.begin_path();
    context.rect(0.0, AXIS_HEIGHT, width, (height - AXIS_HEIGHT).max(0.0));
    context.clip();
    draw(&context, &why, &colour);
    context.restore();
    let set = |name: &str, value: String| {
        let _ = canvas.set_attribute(name, &value);
    };
    set("data-cursor-step", timeline.steps.to_string());
    set("data-view-start", scene.first_step.to_string());
    set("data-view-end", scene.last_step.to_string());
    set("data-events", scene.events.to_string());
    set("data-px-per-step", format!("{:.4}", frame.view.scale));
    set("data-start", format!("{:.4}", frame.view.start));
    // What the explanation draws: its arrows (the missing one among them) and those in view.
    let arrows = frame.why.map_or(&[][..], |w| w.arrows.as_slice());
    set("data-why-arrows", arrows.len().to_string());
    set("data-why-missing", arrows.iter().filter(|a| a.missing).count().to_string());
    set("data-why-kinds", arrows.iter().map(|a| a.label).collect::<Vec<_>>().join(" "));
    set("data-why-drawn", why.len().to_string());
    Some(scene.events)
}

/// Paints `shapes` with the theme's colours.
fn draw<'a>(context: &CanvasRenderingContext2d, shapes: &[Shape], colour: &dyn Fn(Paint) -> &'a str) {
    for shape in shapes {
        match shape {
            Shape::Fill { paint, rects, alpha } => {
                if rects.is_empty() {
                    continue;
                }
                context.set_global_alpha(*alpha);
                context.set_fill_style_str(colour(*paint));
                context.begin_path();
                for r in rects {
                    context.rect(r.x, r.y, r.w, r.h);
                }
                context.fill();
                context.set_global_alpha(1.0);
            }
            Shape::Hatch { paint, rect } => {
                context.save();
                context.begin_path();
                context.rect(rect.x, rect.y, rect.w, rect.h);
                context.clip();
                context.set_stroke_style_str(colour(*paint));
                context.set_line_width(1.0);
                context.set_global_alpha(0.8);
                context.begin_path();
                let mut x = rect.x - rect.h;
                while x < rect.x + rect.w {
                    context.move_to(x, rect.y + rect.h);
                    context.line_to(x + rect.h, rect.y);
                    x += 5.0;
                }
                context.stroke();
                context.restore();
            }
            Shape::Lines { paint, width, lines, dashed } => {
                if lines.is_empty() {
                    continue;
                }
                context.set_stroke_style_str(colour(*paint));
                context.set_line_width(*width);
                if *dashed {
                    let dash = js_sys::Array::of2(&4.0.into(), &3.0.into());
                    let _ = context.set_line_dash(&dash);
                }
                context.begin_path();
                for &(x0, y0, x1, y1) in lines {
                    context.move_to(x0, y0);
                    context.line_to(x1, y1);
                }
                context.stroke();
                if *dashed {
                    let _ = context.set_line_dash(&js_sys::Array::new());
                }
            }
            Shape::Arc { paint, from, to, lift } => {
                context.set_stroke_style_str(colour(*paint));
                context.set_fill_style_str(colour(*paint));
                context.set_line_width(2.0);
                context.begin_path();
                context.move_to(from.0, from.1);
                let control = ((from.0 + to.0) / 2.0, from.1.min(to.1) - lift);
                context.quadratic_curve_to(control.0, control.1, to.0, to.1);
                context.stroke();
                for end in [from, to] {
                    context.begin_path();
                    let _ = context.arc(end.0, end.1, 3.0, 0.0, std::f64::consts::TAU);
                    context.fill();
                }
            }
            Shape::Outline { paint, rects } => {
                if rects.is_empty() {
                    continue;
                }
                context.set_stroke_style_str(colour(*paint));
                context.set_line_width(1.5);
                context.begin_path();
                for r in rects {
                    context.rect(r.x + 0.75, r.y + 0.75, (r.w - 1.5).max(0.5), (r.h - 1.5).max(0.5));
                }
                context.stroke();
            }
            Shape::Arrow { paint, from, control, to, dashed, label, label_at } => {
                draw_arrow(context, colour, *paint, (*from, *control, *to), *dashed, label, *label_at)
            }
            Shape::Text { paint, x, y, text, align } => {
                context.set_fill_style_str(colour(*paint));
                context.set_font("11px ui-monospace, Menlo, Consolas, monospace");
                context.set_text_baseline("middle");
                context.set_text_align(match align {
                    Align::Start => "start",
                    Align::Center => "center",
                });
                let _ = context.fill_text(text, *x, *y);
            }
        }
    }
}

/// One arrow of an explanation: the curve (from, control point, to), its head at `to`, and
/// its label on a backing of the panel's colour at `label_at`, so that it reads over the marks.
fn draw_arrow<'a>(
    context: &CanvasRenderingContext2d,
    colour: &dyn Fn(Paint) -> &'a str,
    paint: Paint,
    (from, control, to): ((f64, f64), (f64, f64), (f64, f64)),
    dashed: bool,
    label: &str,
    label_at: (f64, f64),
) {
    context.set_stroke_style_str(colour(paint));
    context.set_fill_style_str(colour(paint));
    context.set_line_width(2.0);
    if dashed {
        let _ = context.set_line_dash(&js_sys::Array::of2(&6.0.into(), &4.0.into()));
    }
    context.begin_path();
    context.move_to(from.0, from.1);
    context.quadratic_curve_to(control.0, control.1, to.0, to.1);
    context.stroke();
    if dashed {
        let _ = context.set_line_dash(&js_sys::Array::new());
    }
    // The head points along the curve's tangent at its end (from the control point).
    let angle = (to.1 - control.1).atan2(to.0 - control.0);
    let (size, spread) = (8.0, 0.45);
    context.begin_path();
    context.move_to(to.0, to.1);
    context.line_to(to.0 - size * (angle - spread).cos(), to.1 - size * (angle - spread).sin());
    context.line_to(to.0 - size * (angle + spread).cos(), to.1 - size * (angle + spread).sin());
    context.close_path();
    context.fill();
    let width = timeline::label_width(label);
    context.set_fill_style_str(colour(Paint::LabelBack));
    context.set_global_alpha(0.9);
    context.fill_rect(label_at.0 - width / 2.0, label_at.1 - timeline::LABEL_HEIGHT / 2.0, width, timeline::LABEL_HEIGHT);
    context.set_global_alpha(1.0);
    context.set_stroke_style_str(colour(paint));
    context.set_line_width(1.0);
    context.stroke_rect(label_at.0 - width / 2.0, label_at.1 - timeline::LABEL_HEIGHT / 2.0, width, timeline::LABEL_HEIGHT);
    context.set_font("600 11px ui-monospace, Menlo, Consolas, monospace");
    context.set_fill_style_str(colour(paint));
    context.set_text_baseline("middle");
    context.set_text_align("center");
    let _ = context.fill_text(label, label_at.0, label_at.1);
}

/// The pointer's position on the canvas, in CSS pixels.
fn local(canvas: &HtmlCanvasElement, client_x: i32, client_y: i32) -> (f64, f64) {
    let rect = canvas.get_bounding_client_rect();
    (client_x as f64 - rect.left(), client_y as f64 - rect.top())
}

/// Shows the tooltip of event `event` near canvas point (`x`, `y`), or hides it.
fn show_tooltip(p: &mut Painter, event: Option<usize>, x: f64, y: f64) {
    let Some(tooltip) = p.tooltip.cast::<HtmlElement>() else {
        return;
    };
    if event != p.hovered {
        p.hovered = event;
        match event.and_then(|e| snapshot::describe(&p.timeline, e)) {
            Some(text) => {
                tooltip.set_text_content(Some(&text));
                let step = p.timeline.events.borrow().event(event.unwrap_or(0)).map(|e| e.step);
                let _ = tooltip.set_attribute("data-step", &step.unwrap_or(0).to_string());
                tooltip.set_hidden(false);
            }
            None => {
                p.hovered = None;
                tooltip.set_hidden(true);
                let _ = tooltip.remove_attribute("data-step");
            }
        }
    }
    if p.hovered.is_some() {
        // Beside the pointer, flipped to its left near the right edge.
        let left = if x > p.width - 260.0 { (x - 250.0).max(0.0) } else { x + 14.0 };
        let style = tooltip.style();
        let _ = style.set_property("left", &format!("{left}px"));
        let _ = style.set_property("top", &format!("{}px", y + 16.0));
    }
}

/// What a key does on the focused canvas; `true` when it was one of the canvas's keys.
fn key(shared: &Shared, event: &KeyboardEvent) -> bool {
    let mut p = shared.borrow_mut();
    let bounds = p.bounds();
    let width = bounds.width;
    let view = p.view;
    let step = if event.shift_key() { 0.5 } else { 0.1 };
    match event.key().as_str() {
        "ArrowLeft" => p.set_view(view.pan(-width * step, bounds)),
        "ArrowRight" => p.set_view(view.pan(width * step, bounds)),
        "+" | "=" => p.set_view(view.zoom_about(width / 2.0, 1.5, bounds)),
        "-" | "_" => p.set_view(view.zoom_about(width / 2.0, 1.0 / 1.5, bounds)),
        "Home" => p.set_view(view.placing(0.0, 0.0, bounds)),
        "End" => p.set_view(view.placing(cursor_position(bounds.steps), 0.9, bounds)),
        "f" | "F" => {
            p.fitted = true;
            p.view = View::fit(bounds);
        }
        "ArrowUp" | "ArrowDown" => {
            let down = event.key() == "ArrowDown";
            let lanes: Vec<u32> = p
                .layout
                .rows
                .iter()
                .filter_map(|r| match r {
                    Row::Lane { work_item, .. } => Some(*work_item),
                    _ => None,
                })
                .collect();
            let at = p.selected.and_then(|s| lanes.iter().position(|&l| l == s));
            let next = match (at, down) {
                (None, _) => lanes.first(),
                (Some(i), true) => lanes.get(i + 1).or(lanes.get(i)),
                (Some(i), false) => lanes.get(i.saturating_sub(1)),
            };
            if let Some(&wi) = next {
                let callback = p.on_select_lane.clone();
                drop(p);
                callback.emit(wi as usize);
            }
            return true;
        }
        "," | "." => {
            // The selected lane's previous or next event from the cursor: a seek.
            let forward = event.key() == ".";
            let Some(wi) = p.selected else {
                return true;
            };
            let target = {
                let store = p.timeline.events.borrow();
                let series = store.lane(wi);
                series.and_then(|series| {
                    let n = series.count(p.timeline.limit.max(store.len()));
                    let cursor = p.timeline.steps;
                    let all = series.step_range(0..u64::MAX, n);
                    let entry = if forward { series.step_range(0..cursor + 1, n).end } else { series.step_range(0..cursor, n).end.checked_sub(1)? };
                    (entry < all.end).then(|| series.step(entry)).flatten()
                })
            };
            if let Some(step) = target {
                if !p.view.shows(step as f64, width) {
                    let v = p.view.placing(step as f64, 0.5, bounds);
                    p.set_view(v);
                }
                let callback = p.on_seek.clone();
                drop(p);
                callback.emit(step);
                schedule(shared);
            }
            return true;
        }
        _ => return false,
    }
    drop(p);
    schedule(shared);
    true
}

/// Attaches the canvas's listeners; dropping the result detaches them.
fn listen(shared: &Shared, canvas: &HtmlCanvasElement, scroller: &HtmlElement) -> Vec<EventListener> {
    let active = EventListenerOptions::enable_prevent_default();
    let mut listeners = Vec::new();

    let (s, c) = (shared.clone(), canvas.clone());
    listeners.push(EventListener::new_with_options(canvas, "wheel", active, move |event| {
        let Some(event) = event.dyn_ref::<WheelEvent>() else {
            return;
        };
        event.prevent_default();
        let (x, _) = local(&c, event.client_x(), event.client_y());
        // Lines and pages are turned into pixels, as browsers scroll them.
        let unit = match event.delta_mode() {
            WheelEvent::DOM_DELTA_LINE => 16.0,
            WheelEvent::DOM_DELTA_PAGE => 400.0,
            _ => 1.0,
        };
        let (dx, dy) = (event.delta_x() * unit, event.delta_y() * unit);
        {
            let mut p = s.borrow_mut();
            let bounds = p.bounds();
            let view = p.view;
            if event.shift_key() || dx.abs() > dy.abs() {
                let along = if dx.abs() > dy.abs() { dx } else { dy };
                p.set_view(view.pan(along, bounds));
            } else {
                // A pinch (ctrl + wheel) comes in small steps; it zooms faster.
                let rate = if event.ctrl_key() { 0.01 } else { 0.002 };
                p.set_view(view.zoom_about(x, (-dy * rate).exp(), bounds));
            }
        }
        schedule(&s);
    }));

    let (s, c) = (shared.clone(), canvas.clone());
    listeners.push(EventListener::new(canvas, "pointerdown", move |event| {
        let Some(event) = event.dyn_ref::<PointerEvent>() else {
            return;
        };
        if event.button() != 0 {
            return;
        }
        let _ = c.focus();
        let _ = c.set_pointer_capture(event.pointer_id());
        let (x, y) = local(&c, event.client_x(), event.client_y());
        let mut p = s.borrow_mut();
        let scroll = p.scroller.cast::<HtmlElement>().map_or(0, |e| e.scroll_top());
        p.drag = Some(Drag { pointer: event.pointer_id(), x, y, view: p.view, scroll, moved: false });
    }));

    let (s, c) = (shared.clone(), canvas.clone());
    listeners.push(EventListener::new(canvas, "pointermove", move |event| {
        let Some(event) = event.dyn_ref::<PointerEvent>() else {
            return;
        };
        let (x, y) = local(&c, event.client_x(), event.client_y());
        let mut p = s.borrow_mut();
        match p.drag {
            Some(mut drag) if drag.pointer == event.pointer_id() => {
                let (dx, dy) = (x - drag.x, y - drag.y);
                if !drag.moved && dx.abs() + dy.abs() < DRAG_THRESHOLD {
                    return;
                }
                drag.moved = true;
                p.drag = Some(drag);
                let bounds = p.bounds();
                p.set_view(drag.view.pan(-dx, bounds));
                if let Some(scroller) = p.scroller.cast::<HtmlElement>() {
                    scroller.set_scroll_top(drag.scroll - dy as i32);
                }
                show_tooltip(&mut p, None, x, y);
                drop(p);
                schedule(&s);
            }
            _ => {
                let hit = p.event_at(x, y);
                show_tooltip(&mut p, hit, x, y);
            }
        }
    }));

    let (s, c) = (shared.clone(), canvas.clone());
    listeners.push(EventListener::new(canvas, "pointerup", move |event| {
        let Some(event) = event.dyn_ref::<PointerEvent>() else {
            return;
        };
        let mut p = s.borrow_mut();
        let Some(drag) = p.drag.take() else {
            return;
        };
        if drag.moved || drag.pointer != event.pointer_id() {
            return;
        }
        // A click: select the lane, and seek to the event if there is one.
        let (x, y) = local(&c, event.client_x(), event.client_y());
        let lane = p.lane_at(y).filter(|_| y >= AXIS_HEIGHT);
        let step = p.event_at(x, y).and_then(|e| p.timeline.events.borrow().event(e)).map(|e| e.step);
        let (on_seek, on_select) = (p.on_seek.clone(), p.on_select_lane.clone());
        drop(p);
        if let Some(wi) = lane {
            on_select.emit(wi as usize);
        }
        if let Some(step) = step {
            on_seek.emit(step);
        }
    }));

    for name in ["pointercancel", "pointerleave"] {
        let s = shared.clone();
        listeners.push(EventListener::new(canvas, name, move |_| {
            let mut p = s.borrow_mut();
            if name == "pointercancel" {
                p.drag = None;
            }
            show_tooltip(&mut p, None, 0.0, 0.0);
        }));
    }

    let s = shared.clone();
    listeners.push(EventListener::new_with_options(canvas, "keydown", active, move |event| {
        let Some(event) = event.dyn_ref::<KeyboardEvent>() else {
            return;
        };
        if event.ctrl_key() || event.meta_key() || event.alt_key() {
            return;
        }
        if key(&s, event) {
            // The page's own shortcuts (Home resets the run) must not see the canvas's keys.
            event.prevent_default();
            event.stop_propagation();
        }
    }));

    let s = shared.clone();
    listeners.push(EventListener::new(scroller, "scroll", move |_| schedule(&s)));
    listeners
}

#[component]
pub fn TimelineCanvas(props: &Props) -> Html {
    let canvas = use_node_ref();
    let tooltip = use_node_ref();
    let shared: Shared = {
        let (canvas, tooltip, scroller) = (canvas.clone(), tooltip.clone(), props.scroller.clone());
        let (timeline, layout) = (props.timeline.clone(), props.layout.clone());
        let (on_seek, on_select_lane) = (props.on_seek.clone(), props.on_select_lane.clone());
        use_mut_ref(move || Painter {
            timeline,
            layout,
            selected: None,
            why: None,
            view: View { start: 0.0, scale: 1.0 },
            fitted: true,
            canvas,
            tooltip,
            scroller,
            on_seek,
            on_select_lane,
            frame: None,
            colours: None,
            drag: None,
            hovered: None,
            width: 1.0,
        })
    };
    {
        // The callbacks may change on every render; the listeners read the latest.
        let mut p = shared.borrow_mut();
        p.on_seek = props.on_seek.clone();
        p.on_select_lane = props.on_select_lane.clone();
    }

    // Listeners and the resize observer live as long as the canvas.
    {
        let (shared, canvas, scroller) = (shared.clone(), canvas.clone(), props.scroller.clone());
        use_effect_with((), move |_| {
            let elements = canvas.cast::<HtmlCanvasElement>().zip(scroller.cast::<HtmlElement>());
            let listeners = elements.as_ref().map(|(c, s)| listen(&shared, c, s)).unwrap_or_default();
            let resized = {
                let shared = shared.clone();
                Closure::<dyn FnMut()>::new(move || schedule(&shared))
            };
            let observer = ResizeObserver::new(resized.as_ref().unchecked_ref()).ok();
            if let (Some(observer), Some((c, s))) = (&observer, &elements) {
                observer.observe(c);
                observer.observe(s);
            }
            // A theme change is a change of the root's `data-theme`: paint in its colours.
            let themed = {
                let shared = shared.clone();
                Closure::<dyn FnMut()>::new(move || schedule(&shared))
            };
            let theme = MutationObserver::new(themed.as_ref().unchecked_ref()).ok();
            if let Some(theme) = &theme {
                let options = MutationObserverInit::new();
                options.set_attributes(true);
                options.set_attribute_filter(&js_sys::Array::of1(&"data-theme".into()));
                let _ = theme.observe_with_options(&gloo::utils::document_element(), &options);
            }
            schedule(&shared);
            move || {
                if let Some(observer) = observer {
                    observer.disconnect();
                }
                if let Some(theme) = theme {
                    theme.disconnect();
                }
                drop(themed);
                drop(resized);
                drop(listeners);
                shared.borrow_mut().frame = None;
            }
        });
    }

    // A new snapshot, layout or selection: follow the cursor and paint.
    {
        let shared = shared.clone();
        let selected = props.selected.map(|s| s as u32);
        use_effect_with((props.timeline.clone(), props.layout.clone(), selected), move |(timeline, layout, selected)| {
            {
                let mut p = shared.borrow_mut();
                let before = p.timeline.steps;
                let same_run = p.timeline.events == timeline.events;
                p.timeline = timeline.clone();
                p.layout = layout.clone();
                p.selected = *selected;
                let bounds = p.bounds();
                // A new run starts fitted; the same run follows its cursor.
                if !same_run && timeline.steps == 0 {
                    p.fitted = true;
                }
                let fitted = p.fitted;
                p.view = p.view.follow(before, bounds, fitted);
                // The tooltip described the previous snapshot; the pointer shows the
                // next one when it moves.
                show_tooltip(&mut p, None, 0.0, 0.0);
            }
            schedule(&shared);
        });
    }

    // A new explanation: paint its arrows.
    {
        let shared = shared.clone();
        use_effect_with(props.why.clone(), move |why| {
            {
                let mut p = shared.borrow_mut();
                p.why = why.clone();
                // Zoom in on the arrows when they are too small to read (once the canvas has
                // been painted, so that its width is known).
                let bounds = p.bounds();
                if let Some(view) = why.as_deref().filter(|_| p.width > 1.0).and_then(|w| timeline::framing(w, p.view, bounds)) {
                    p.set_view(view);
                }
            }
            schedule(&shared);
        });
    }

    // Bring a step into view when asked to (a finding opened), keeping the zoom.
    {
        let shared = shared.clone();
        let serial = props.reveal.map(|(serial, _)| serial);
        let step = props.reveal.map(|(_, step)| step);
        use_effect_with(serial, move |serial| {
            if let (Some(_), Some(step)) = (serial, step) {
                {
                    let mut p = shared.borrow_mut();
                    if !p.view.shows(step as f64, p.width) || p.fitted {
                        let bounds = p.bounds();
                        let view = p.view.placing(step as f64, 0.5, bounds);
                        p.set_view(view);
                    }
                }
                schedule(&shared);
            }
        });
    }

    html! {
        <div class="timeline-canvas">
            <canvas
                id="timeline-canvas"
                ref={canvas}
                tabindex="0"
                role="application"
                aria-roledescription="timeline"
                aria-label={props.label.clone()}
                aria-describedby="timeline-keys"
            ></canvas>
            <div class="timeline-tooltip" ref={tooltip} role="tooltip" hidden=true></div>
        </div>
    }
}
