//! A finding's explanation drawn over the timeline: each edge the engine's `why` found (program
//! order, synchronises-with, reads-from, coherence, from-read, barrier) as an arrow from one
//! event to another, and the missing edge that would have ordered the two accesses dashed in
//! the error colour. The edges and their meaning are the engine's; here they only become
//! points on the lanes and then shapes.

use interleave_engine::report::Explanation;

use super::*;

/// One arrow between two events, as (step, work-item).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhyArrow {
    /// The relation's short name (`po`, `sw`, `rf`, ...), or `missing`.
    pub label: &'static str,
    pub from: (u64, u32),
    pub to: (u64, u32),
    /// The edge the run lacks.
    pub missing: bool,
}

/// The arrows of one explanation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WhyArrows {
    pub arrows: Vec<WhyArrow>,
    /// The explanation's words for the missing edge.
    pub missing: String,
}

/// The arrows of `explanation`, with `lane` giving a work-item id's linear index (an edge
/// of a work-item without one is left out). The missing edge goes from the earlier of each
/// pair of accesses to the later.
pub fn why_arrows(explanation: &Explanation, lane: impl Fn([u64; 3]) -> Option<u32>) -> WhyArrows {
    let mut arrows: Vec<WhyArrow> = explanation
        .edges
        .iter()
        .filter_map(|e| {
            let (from, to) = (lane(e.from.work_item)?, lane(e.to.work_item)?);
            Some(WhyArrow { label: e.kind.as_str(), from: (e.from.step, from), to: (e.to.step, to), missing: false })
        })
        .collect();
    for pair in explanation.accesses.chunks(2) {
        if let [a, b] = pair {
            let (first, second) = if (a.step, a.work_item) <= (b.step, b.work_item) { (a, b) } else { (b, a) };
            if let (Some(from), Some(to)) = (lane(first.work_item), lane(second.work_item)) {
                arrows.push(WhyArrow { label: "missing", from: (first.step, from), to: (second.step, to), missing: true });
            }
        }
    }
    WhyArrows { arrows, missing: explanation.missing.clone() }
}

/// The most pixels a step gets when a view frames an explanation.
const FRAMING_SCALE: f64 = 70.0;

/// A view that frames `arrows`: their steps over about two thirds of `bounds`' width, zoomed
/// in from `view` (never out: a view that shows them large enough is kept), within the run.
/// `None` when there is nothing to frame or nothing to change.
pub fn framing(arrows: &WhyArrows, view: View, bounds: Bounds) -> Option<View> {
    let steps = arrows.arrows.iter().flat_map(|a| [a.from.0, a.to.0]);
    let (first, last) = steps.fold(None, |span: Option<(u64, u64)>, s| Some(span.map_or((s, s), |(a, b)| (a.min(s), b.max(s)))))?;
    let span = (last - first + 1) as f64;
    let scale = (bounds.width * 0.66 / span).min(FRAMING_SCALE).max(view.scale);
    let middle = (first as f64 + last as f64 + 1.0) / 2.0;
    let framed = View { start: middle - bounds.width / scale / 2.0, scale }.clamped(bounds);
    let shown = view.shows(first as f64, bounds.width) && view.shows(last as f64 + 1.0, bounds.width);
    (framed.scale > view.scale * 1.05 || !shown).then_some(framed)
}

/// The width of an arrow's label on its backing: 11px of a monospace font, about 0.62em a
/// character, and 3 pixels each side.
pub fn label_width(label: &str) -> f64 {
    6.8 * label.len() as f64 + 6.0
}

/// The height of an arrow label's backing.
pub const LABEL_HEIGHT: f64 = 14.0;

/// The shapes of `arrows` in the frame `input` describes: an arrow for each whose ends are
/// both drawn (in a lane or a collapsed row) and whose box meets the visible area. Arrows
/// within one row bulge upwards, so that they do not hide the row's marks. Each label sits at
/// its curve's middle, moved up or down out of the way of the labels placed before it, so
/// that labels of arrows close together stay readable.
pub fn why_shapes(input: &SceneInput, arrows: &WhyArrows) -> Vec<Shape> {
    let point = |(step, wi): (u64, u32)| {
        let row = input.layout.place(wi)?.row();
        Some((input.view.x(step as f64 + 0.5), input.row_y(row) + ROW_HEIGHT / 2.0))
    };
    let mut shapes = Vec::new();
    let mut placed: Vec<Rect> = Vec::new();
    for arrow in &arrows.arrows {
        let (Some(from), Some(to)) = (point(arrow.from), point(arrow.to)) else {
            continue;
        };
        let (left, right) = (from.0.min(to.0), from.0.max(to.0));
        if right < -20.0 || left > input.width + 20.0 {
            continue;
        }
        let lift = if (from.1 - to.1).abs() < 1.0 { ((to.0 - from.0).abs() / 3.0).clamp(10.0, ROW_HEIGHT * 1.5) } else { 0.0 };
        // Between rows the curve bows sideways a little, so that arrows between the same two
        // rows stay apart; the missing edge bows the other way.
        let bow = if arrow.missing { -12.0 } else { 12.0 };
        let control = ((from.0 + to.0) / 2.0 + if lift == 0.0 { bow } else { 0.0 }, (from.1 + to.1) / 2.0 - lift * 1.6);
        let middle = (0.25 * from.0 + 0.5 * control.0 + 0.25 * to.0, 0.25 * from.1 + 0.5 * control.1 + 0.25 * to.1);
        let label_at = free_place(middle, label_width(arrow.label), &placed);
        let w = label_width(arrow.label);
        placed.push(Rect { x: label_at.0 - w / 2.0, y: label_at.1 - LABEL_HEIGHT / 2.0, w, h: LABEL_HEIGHT });
        let paint = if arrow.missing { Paint::WhyMissing } else { Paint::WhyEdge };
        shapes.push(Shape::Arrow { paint, from, control, to, dashed: arrow.missing, label: arrow.label, label_at });
    }
    shapes
}

/// Where a label `width` wide goes near `at` without covering one of `placed`: `at` itself, or
/// the nearest of a few places above and below it (`at` when none is free).
fn free_place(at: (f64, f64), width: f64, placed: &[Rect]) -> (f64, f64) {
    let overlaps = |(x, y): (f64, f64)| {
        placed.iter().any(|r| x - width / 2.0 < r.x + r.w && r.x < x + width / 2.0 && y - LABEL_HEIGHT / 2.0 < r.y + r.h && r.y < y + LABEL_HEIGHT / 2.0)
    };
    let step = LABEL_HEIGHT + 1.0;
    [0.0, -step, step, -2.0 * step, 2.0 * step, -3.0 * step].into_iter().map(|dy| (at.0, at.1 + dy)).find(|&p| !overlaps(p)).unwrap_or(at)
}
