//! A finding's explanation drawn over the timeline: each edge the engine's `why` found (program
//! order, synchronises-with, reads-from, coherence, from-read, barrier) as an arrow from one
//! event to another, and the missing edge that would have ordered the two accesses dashed in
//! the error colour. The edges and their meaning are the engine's; here they only become
//! points on the lanes and then shapes.

use interleave_engine::why::Explanation;

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

/// The shapes of `arrows` in the frame `input` describes: an arrow for each whose ends are
/// both drawn (in a lane or a collapsed row) and whose box meets the visible area. Arrows
/// within one row bulge upwards, so that they do not hide the row's marks.
pub fn why_shapes(input: &SceneInput, arrows: &WhyArrows) -> Vec<Shape> {
    let point = |(step, wi): (u64, u32)| {
        let row = input.layout.place(wi)?.row();
        Some((input.view.x(step as f64 + 0.5), input.row_y(row) + ROW_HEIGHT / 2.0))
    };
    let mut shapes = Vec::new();
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
        let paint = if arrow.missing { Paint::WhyMissing } else { Paint::WhyEdge };
        shapes.push(Shape::Arrow { paint, from, control, to, dashed: arrow.missing, label: arrow.label });
    }
    shapes
}
