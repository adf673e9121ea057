//! What one frame of the timeline contains: the shapes (marks, bands, arcs, links, the axis
//! and the cursor) for the visible rows and steps only, from the store, the layout and the view.

use super::*;

/// The two accesses of a data race, as (step, work-item).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceArc {
    pub first: (u64, u32),
    pub second: (u64, u32),
}

/// A load that read an older write (relaxed model): the load, and the write it read, as
/// (step, work-item); `from` is `None` when it read the initial contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaleLink {
    pub load: (u64, u32),
    pub from: Option<(u64, u32)>,
    /// The step of the latest write it could not see.
    pub newer_at: Option<u64>,
}

/// A colour role; the canvas looks each one up in the theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Paint {
    Kind(EventKind),
    GroupRow,
    Selected,
    Grid,
    Axis,
    BarrierBand,
    BarrierWait,
    LockHeld,
    LockWait,
    LockMark,
    Race,
    Stale,
    Lockstep,
    Inactive,
    Cursor,
    /// An edge of a finding's explanation that the run has.
    WhyEdge,
    /// The edge that would have ordered the two accesses, and is missing.
    WhyMissing,
    /// Behind an arrow's label.
    LabelBack,
}

/// How text is anchored at its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Start,
    Center,
}

/// A rectangle in CSS pixels on the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// One thing to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Filled rectangles of one colour.
    Fill {
        paint: Paint,
        rects: Vec<Rect>,
        alpha: f64,
    },
    /// A rectangle filled with diagonal lines.
    Hatch {
        paint: Paint,
        rect: Rect,
    },
    /// Straight lines of one colour: (x0, y0, x1, y1) each.
    Lines {
        paint: Paint,
        width: f64,
        lines: Vec<(f64, f64, f64, f64)>,
        dashed: bool,
    },
    /// A curve from one point to another, bulging `lift` pixels upwards.
    Arc {
        paint: Paint,
        from: (f64, f64),
        to: (f64, f64),
        lift: f64,
    },
    /// Rectangle outlines.
    Outline {
        paint: Paint,
        rects: Vec<Rect>,
    },
    Text {
        paint: Paint,
        x: f64,
        y: f64,
        text: String,
        align: Align,
    },
    /// An arrow along a curve from one point to another through `control` (a quadratic
    /// curve), its head at `to`, with a label on a backing centred at `label_at`.
    Arrow {
        paint: Paint,
        from: (f64, f64),
        control: (f64, f64),
        to: (f64, f64),
        dashed: bool,
        label: &'static str,
        label_at: (f64, f64),
    },
}

fn fill(paint: Paint, rects: Vec<Rect>, alpha: f64) -> Shape {
    Shape::Fill { paint, rects, alpha }
}

/// Everything a frame depends on.
pub struct SceneInput<'a> {
    pub store: &'a EventStore,
    /// The events of the snapshot: the first `limit` of the store.
    pub limit: usize,
    pub layout: &'a Layout,
    pub view: View,
    /// CSS pixels of the canvas.
    pub width: f64,
    pub height: f64,
    /// How far the rows are scrolled (CSS pixels).
    pub scroll_top: f64,
    /// The width of one aggregation column (one device pixel).
    pub column: f64,
    pub cursor: u64,
    pub selected: Option<u32>,
    pub lock_bands: &'a [LockBand],
    /// Lock acquires and releases as (step, work-item, action, lock), for their marks.
    pub lock_marks: &'a [(u64, u32, LockAction, usize)],
    pub races: &'a [RaceArc],
    pub stale: &'a [StaleLink],
}

/// A frame: its shapes in painting order, and what it shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub shapes: Vec<Shape>,
    /// How many events the marks stand for.
    pub events: u64,
    /// The first and last step visible.
    pub first_step: u64,
    pub last_step: u64,
}

impl SceneInput<'_> {
    /// The top of row `row` on the canvas.
    pub(super) fn row_y(&self, row: usize) -> f64 {
        AXIS_HEIGHT + row as f64 * ROW_HEIGHT - self.scroll_top
    }

    /// The vertical middle of where `work_item` is drawn, if it is drawn in a visible row.
    fn middle(&self, work_item: u32, rows: &Range<usize>) -> Option<f64> {
        let row = self.layout.place(work_item)?.row();
        rows.contains(&row).then(|| self.row_y(row) + ROW_HEIGHT / 2.0)
    }

    /// The vertical extent (top, bottom) of the rows of consecutive `work_items`, where
    /// drawn (rows follow work-item order, and work-items without a lane are skipped).
    fn extent(&self, work_items: Range<u32>) -> Option<(f64, f64)> {
        let top = work_items.clone().find_map(|wi| self.layout.place(wi))?.row();
        let bottom = work_items.rev().find_map(|wi| self.layout.place(wi))?.row();
        Some((self.row_y(top), self.row_y(bottom) + ROW_HEIGHT))
    }

    /// A horizontal span of steps on the canvas, cut to the visible width.
    fn span_x(&self, from: f64, to: f64) -> Option<(f64, f64)> {
        let (x0, x1) = (self.view.x(from).max(-2.0), self.view.x(to).min(self.width + 2.0));
        (x1 > x0).then_some((x0, x1))
    }
}

/// The shapes of one frame: row backgrounds, barrier and lock bands, lockstep masks, event
/// marks, race arcs, stale-read links, the cursor and the step axis. Only the visible rows
/// and steps are considered.
pub fn scene(input: &SceneInput) -> Scene {
    let rows = input.layout.visible_rows(input.scroll_top, (input.height - AXIS_HEIGHT).max(0.0));
    let (first_step, last_step) = input.view.visible_steps(input.width);
    let steps_shown = first_step..last_step.saturating_add(1);
    let mut shapes = Vec::new();
    let cursor = cursor_position(input.cursor);

    // Row backgrounds: headers, and the selected lane.
    let mut headers = Vec::new();
    let mut selected = Vec::new();
    for row in rows.clone() {
        let y = input.row_y(row);
        match &input.layout.rows[row] {
            Row::Group { .. } | Row::Warp { .. } | Row::Others { .. } => headers.push(Rect { x: 0.0, y, w: input.width, h: ROW_HEIGHT }),
            Row::Lane { work_item, .. } if Some(*work_item) == input.selected => selected.push(Rect { x: 0.0, y, w: input.width, h: ROW_HEIGHT }),
            Row::Lane { .. } => {}
        }
    }
    shapes.push(fill(Paint::GroupRow, headers, 1.0));
    shapes.push(fill(Paint::Selected, selected, 1.0));

    // Barrier episodes: a band across the rows that met, and each member's wait.
    let mut bands = Vec::new();
    let mut waits = Vec::new();
    let topology = &input.store.topology;
    for episode in input.store.episodes(input.limit, steps_shown.clone()) {
        let end = episode.release.map_or(cursor, |r| r as f64 + 1.0);
        let Some((x0, x1)) = input.span_x(episode.first_step as f64, end) else {
            continue;
        };
        let members = match episode.warp {
            Some(warp) => topology.warp_items.get(warp as usize),
            None => topology.group_items.get(episode.group as usize),
        };
        if let Some((top, bottom)) = members.and_then(|m| input.extent(m.clone())) {
            bands.push(Rect { x: x0, y: top, w: x1 - x0, h: bottom - top });
        }
        for arrival in &episode.arrivals {
            let Some(middle) = input.middle(arrival.work_item, &rows) else {
                continue;
            };
            if let Some((x0, x1)) = input.span_x(arrival.step as f64, end) {
                waits.push(Rect { x: x0, y: middle - 2.0, w: x1 - x0, h: 4.0 });
            }
        }
    }
    shapes.push(fill(Paint::BarrierBand, bands, 0.16));
    shapes.push(fill(Paint::BarrierWait, waits, 0.45));

    // Locks: the holder's row gets a band, each waiter's a hatched one.
    let mut held = Vec::new();
    for band in input.lock_bands {
        let Some(middle) = input.middle(band.work_item, &rows) else {
            continue;
        };
        let end = band.to.map_or(cursor, |t| t as f64);
        let Some((x0, x1)) = input.span_x(band.from as f64, end.max(band.from as f64)) else {
            continue;
        };
        let rect = Rect { x: x0, y: middle - ROW_HEIGHT / 2.0 + 2.0, w: (x1 - x0).max(1.0), h: ROW_HEIGHT - 4.0 };
        if band.held {
            held.push(rect);
        } else {
            shapes.push(Shape::Hatch { paint: Paint::LockWait, rect });
        }
    }
    shapes.push(fill(Paint::LockHeld, held, 0.28));

    // Lockstep: the lanes of a warp that stepped one instruction together are joined by a
    // line; the warp's other unfinished lanes get a hollow mark (masked off).
    let mut joins = Vec::new();
    let mut masked = Vec::new();
    if input.store.topology.lockstep {
        for step in input.store.warp_steps(input.limit, steps_shown.clone()) {
            let x = input.view.x(step.first_step as f64 + 0.5);
            let active: Vec<u32> = step.lanes.iter().map(|&(wi, _)| wi).collect();
            let ys: Vec<f64> = active.iter().filter_map(|&wi| input.middle(wi, &rows)).collect();
            if let (Some(top), Some(bottom)) = (ys.iter().copied().reduce(f64::min), ys.iter().copied().reduce(f64::max)) {
                if bottom > top {
                    joins.push((x, top, x, bottom));
                }
            }
            let members = topology.warp_items.get(step.warp as usize).cloned().unwrap_or(0..0);
            for wi in members.filter(|wi| !active.contains(wi)) {
                let done = input.store.finished_at(wi, input.limit).is_some_and(|f| f < step.first_step);
                if let (false, Some(middle)) = (done, input.middle(wi, &rows)) {
                    let w = (input.view.scale - 2.0).clamp(3.0, 10.0);
                    masked.push(Rect { x: x - w / 2.0, y: middle - 3.0, w, h: 6.0 });
                }
            }
        }
    }
    shapes.push(Shape::Lines { paint: Paint::Lockstep, width: 1.0, lines: joins, dashed: false });
    shapes.push(Shape::Outline { paint: Paint::Inactive, rects: masked });

    // Event marks, batched by colour.
    let mut cells_of_row = Vec::new();
    let mut by_kind: Vec<Vec<Rect>> = vec![Vec::new(); KINDS.len()];
    let mut hollow = Vec::new();
    let mut releases = Vec::new();
    let mut finishes = Vec::new();
    let mut events = 0u64;
    for row in rows.clone() {
        let Some(series) = input.layout.series(row, input.store) else {
            continue;
        };
        let n = series.count(input.limit);
        cells_of_row.clear();
        cells(series, n, &input.view, input.width, input.column, &mut cells_of_row);
        let y = input.row_y(row);
        for cell in &cells_of_row {
            events += cell.count as u64;
            let gap = if cell.width >= 6.0 { 1.0 } else { 0.0 };
            let w = (cell.width - gap).max(1.0);
            let rest = cell.kinds & !kind_bit(EventKind::BarrierRelease) & !kind_bit(EventKind::Finish);
            let body = Rect { x: cell.x, y: y + 5.0, w, h: ROW_HEIGHT - 10.0 };
            match dominant(rest) {
                Some(EventKind::Promise) if cell.kinds.count_ones() == 1 => hollow.push(body),
                Some(kind) => by_kind[kind as usize].push(body),
                None => {}
            }
            if cell.kinds & kind_bit(EventKind::BarrierRelease) != 0 {
                releases.push(Rect { x: cell.x, y: y + ROW_HEIGHT - 5.0, w, h: 4.0 });
            }
            if cell.kinds & kind_bit(EventKind::Finish) != 0 {
                // The finish is at the right edge of its step, so it never hides the event.
                let fw = w.min(3.0);
                finishes.push(Rect { x: cell.x + w - fw, y: y + 3.0, w: fw, h: ROW_HEIGHT - 6.0 });
            }
        }
    }
    for (kind, rects) in KINDS.iter().zip(by_kind) {
        if !rects.is_empty() {
            shapes.push(Shape::Fill { paint: Paint::Kind(*kind), rects, alpha: 1.0 });
        }
    }
    if !hollow.is_empty() {
        shapes.push(Shape::Outline { paint: Paint::Kind(EventKind::Store), rects: hollow });
    }
    shapes.push(fill(Paint::Kind(EventKind::BarrierRelease), releases, 1.0));
    shapes.push(fill(Paint::Kind(EventKind::Finish), finishes, 1.0));

    // Lock acquires and releases: a tick above the event.
    let lock_ticks: Vec<Rect> = input
        .lock_marks
        .iter()
        .filter(|(step, ..)| steps_shown.contains(step))
        .filter_map(|&(step, wi, ..)| {
            let middle = input.middle(wi, &rows)?;
            Some(Rect { x: input.view.x(step as f64), y: middle - ROW_HEIGHT / 2.0 + 1.0, w: input.view.scale.clamp(2.0, 10.0), h: 3.0 })
        })
        .collect();
    shapes.push(fill(Paint::LockMark, lock_ticks, 1.0));

    // Races: an arc between the two accesses; either end may be off screen.
    let point = |(step, wi): (u64, u32)| {
        let row = input.layout.place(wi)?.row();
        Some((input.view.x(step as f64 + 0.5), input.row_y(row) + ROW_HEIGHT / 2.0))
    };
    let on_screen = |a: (f64, f64), b: (f64, f64)| {
        let (left, right) = (a.0.min(b.0), a.0.max(b.0));
        let (top, bottom) = (a.1.min(b.1), a.1.max(b.1));
        right >= 0.0 && left <= input.width && bottom >= AXIS_HEIGHT && top <= input.height
    };
    for race in input.races {
        if let (Some(from), Some(to)) = (point(race.first), point(race.second)) {
            if on_screen(from, to) {
                let lift = ((to.0 - from.0).abs() / 4.0).clamp(8.0, 60.0);
                shapes.push(Shape::Arc { paint: Paint::Race, from, to, lift });
            }
        }
    }

    // Stale reads: the load ringed, a dashed line to the write it read.
    let mut rings = Vec::new();
    let mut links = Vec::new();
    for link in input.stale {
        let Some(load) = point(link.load) else {
            continue;
        };
        if let Some(from) = link.from.and_then(point) {
            if on_screen(from, load) {
                links.push((from.0, from.1, load.0, load.1));
            }
        }
        if load.0 >= -10.0 && load.0 <= input.width + 10.0 {
            let w = input.view.scale.clamp(6.0, 14.0) + 2.0;
            rings.push(Rect { x: load.0 - w / 2.0, y: load.1 - ROW_HEIGHT / 2.0 + 2.0, w, h: ROW_HEIGHT - 4.0 });
        }
    }
    shapes.push(Shape::Lines { paint: Paint::Stale, width: 1.5, lines: links, dashed: true });
    shapes.push(Shape::Outline { paint: Paint::Stale, rects: rings });

    // The cursor: where the next step goes.
    let x = input.view.x(cursor);
    if x >= -2.0 && x <= input.width + 2.0 {
        shapes.push(Shape::Fill { paint: Paint::Cursor, rects: vec![Rect { x: x - 1.0, y: 0.0, w: 2.0, h: input.height }], alpha: 1.0 });
    }

    // The step axis, drawn last so rows scroll under it.
    shapes.push(Shape::Fill { paint: Paint::GroupRow, rects: vec![Rect { x: 0.0, y: 0.0, w: input.width, h: AXIS_HEIGHT }], alpha: 1.0 });
    let every = tick_every(input.view.scale);
    let mut ticks = Vec::new();
    let mut tick = (first_step / every) * every;
    while tick <= last_step.saturating_add(1) {
        let x = input.view.x(tick as f64);
        if x >= 0.0 && x <= input.width {
            ticks.push((x, AXIS_HEIGHT - 6.0, x, AXIS_HEIGHT));
            shapes.push(Shape::Text { paint: Paint::Axis, x: x + 3.0, y: AXIS_HEIGHT / 2.0, text: tick.to_string(), align: Align::Start });
        }
        tick += every;
    }
    ticks.push((0.0, AXIS_HEIGHT - 0.5, input.width, AXIS_HEIGHT - 0.5));
    shapes.push(Shape::Lines { paint: Paint::Grid, width: 1.0, lines: ticks, dashed: false });

    Scene { shapes, events, first_step, last_step }
}

/// Steps between labelled ticks: a round number at least 70 pixels apart.
pub fn tick_every(scale: f64) -> u64 {
    let min = (70.0 / scale.max(1e-9)).max(1.0);
    let mut every = 1u64;
    loop {
        for m in [1, 2, 5] {
            if (every * m) as f64 >= min {
                return every * m;
            }
        }
        match every.checked_mul(10) {
            Some(e) => every = e,
            None => return u64::MAX,
        }
    }
}
