//! The lane timeline without the browser: the event data it draws, its geometry, and what a
//! frame contains.
//!
//! The canvas component only feeds this module (the snapshot's data, the view, the size and
//! the scroll position) and paints the [`Scene`] it returns, so everything that decides what
//! a person sees is plain Rust with native tests:
//!
//! - [`EventStore`]: the event log's columns copied once and only ever extended, with the
//!   events of every work-item, warp and work-group in step order and a mip-map of the event
//!   kinds over them, so the kinds of any run of events are found in logarithmic time. A
//!   snapshot sees the first `limit` events of a store; stepping back only lowers the limit.
//! - [`View`]: which steps are visible (step to pixel and back, zoom about a point, pan,
//!   fit, following the cursor).
//! - [`Layout`]: one row per lane under collapsible work-group (and warp) headers.
//! - [`cells`]: one mark per step when zoomed in, one aggregated mark per pixel column when
//!   zoomed out; [`hit`] finds the event under a pixel.
//! - [`scene`]: the shapes of one frame, for the visible rows and steps only.
//!
//! Barrier episodes, lock bands and lockstep instructions are derived here from what the
//! engine reports (the event log and `Session::locks`); nothing is invented.

use std::collections::BTreeSet;
use std::ops::Range;

use interleave_engine::diag::Span;
use interleave_engine::report::LockAction;
use interleave_engine::trace::{Event, EventKind, Location};

/// Height of one row (a lane or a group header) in CSS pixels; the label column uses the same.
pub const ROW_HEIGHT: f64 = 22.0;
/// Height of the step axis at the top of the canvas.
pub const AXIS_HEIGHT: f64 = 22.0;
/// The closest zoom, in CSS pixels per step.
pub const MAX_SCALE: f64 = 48.0;
/// The fewest steps a fitted view spans, so a short run does not show giant marks.
pub const MIN_SPAN: f64 = 16.0;
/// Below this many pixels per step, marks are aggregated per pixel column.
const STEP_MARKS_FROM: f64 = 2.0;

/// Every event kind, in the engine's order (their `u8` values).
pub const KINDS: [EventKind; 12] = [
    EventKind::Load,
    EventKind::Store,
    EventKind::Atomic,
    EventKind::Fence,
    EventKind::BarrierArrive,
    EventKind::BarrierRelease,
    EventKind::Printf,
    EventKind::Finish,
    EventKind::AsyncCopy,
    EventKind::Wait,
    EventKind::Statement,
    EventKind::Promise,
];

/// Which kind a pixel column shows when it holds several: the rarer and more telling first.
const PRIORITY: [EventKind; 12] = [
    EventKind::Printf,
    EventKind::Atomic,
    EventKind::Promise,
    EventKind::Store,
    EventKind::Fence,
    EventKind::BarrierArrive,
    EventKind::BarrierRelease,
    EventKind::AsyncCopy,
    EventKind::Wait,
    EventKind::Load,
    EventKind::Statement,
    EventKind::Finish,
];

/// The bit of an event kind in a kind mask.
pub fn kind_bit(kind: EventKind) -> u16 {
    1 << (kind as u8)
}

/// The kind a mark of these kinds is drawn as.
pub fn dominant(mask: u16) -> Option<EventKind> {
    PRIORITY.into_iter().find(|&k| mask & kind_bit(k) != 0)
}

/// The events of one work-item, warp or work-group, in step order, with a mip-map of their
/// kinds: level 0 holds each event's kind bit, and entry `j` of level `k` the union of the
/// kinds of entries `j << k .. (j + 1) << k`. Appending updates one entry per level.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    events: Vec<u32>,
    steps: Vec<u64>,
    levels: Vec<Vec<u16>>,
}

impl Series {
    fn push(&mut self, event: u32, step: u64, bit: u16) {
        let i = self.events.len();
        self.events.push(event);
        self.steps.push(step);
        let mut k = 0;
        loop {
            let j = i >> k;
            let value = if k == 0 {
                bit
            } else {
                let below = &self.levels[k - 1];
                below[2 * j] | below.get(2 * j + 1).copied().unwrap_or(0)
            };
            if self.levels.len() == k {
                self.levels.push(Vec::new());
            }
            let level = &mut self.levels[k];
            if j == level.len() {
                level.push(value);
            } else {
                level[j] = value;
            }
            if j == 0 {
                break;
            }
            k += 1;
        }
    }

    /// How many of its entries are among the first `limit` events of the log.
    pub fn count(&self, limit: usize) -> usize {
        self.events.partition_point(|&e| (e as usize) < limit)
    }

    /// The entries (of the first `n`) whose steps lie in `steps`.
    pub fn step_range(&self, steps: Range<u64>, n: usize) -> Range<usize> {
        let steps_seen = &self.steps[..n.min(self.steps.len())];
        let lo = steps_seen.partition_point(|&s| s < steps.start);
        let hi = steps_seen.partition_point(|&s| s < steps.end);
        lo..hi.max(lo)
    }

    /// The union of the kinds of entries `range`.
    pub fn kinds(&self, range: Range<usize>) -> u16 {
        let (mut l, mut r) = (range.start, range.end.min(self.events.len()));
        let mut mask = 0;
        let mut k = 0;
        while l < r {
            let Some(level) = self.levels.get(k) else {
                break;
            };
            if l & 1 == 1 {
                mask |= level.get(l).copied().unwrap_or(0);
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                mask |= level.get(r).copied().unwrap_or(0);
            }
            l >>= 1;
            r >>= 1;
            k += 1;
        }
        mask
    }

    /// The log index of entry `entry`.
    pub fn event(&self, entry: usize) -> Option<usize> {
        self.events.get(entry).map(|&e| e as usize)
    }

    pub fn step(&self, entry: usize) -> Option<u64> {
        self.steps.get(entry).copied()
    }
}

/// Where the work-items sit: each one's work-group and warp (a global warp number), the
/// work-items of each group and warp (consecutive), and whether the run is in lockstep
/// (whose warp instructions the store then recovers).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Topology {
    pub group_of: Vec<u32>,
    pub warp_of: Vec<u32>,
    pub group_items: Vec<Range<u32>>,
    pub warp_items: Vec<Range<u32>>,
    pub lockstep: bool,
}

impl Topology {
    /// Work-items numbered group by group (`group_of`), in warps of `warp_size` within each;
    /// not in lockstep (set `lockstep` on the result for a lockstep run).
    pub fn new(group_of: Vec<u32>, warp_size: u32) -> Topology {
        let warp_size = warp_size.max(1);
        let mut warp_of = Vec::with_capacity(group_of.len());
        let (mut warp, mut local, mut previous) = (0u32, 0u32, None);
        for &g in &group_of {
            if previous != Some(g) {
                if previous.is_some() {
                    warp += 1;
                }
                local = 0;
                previous = Some(g);
            } else if local % warp_size == 0 {
                warp += 1;
            }
            warp_of.push(warp);
            local += 1;
        }
        let ranges = |of: &[u32]| {
            let count = of.iter().max().map_or(0, |&k| k as usize + 1);
            let mut ranges = vec![0..0; count];
            for (wi, &k) in of.iter().enumerate() {
                let range = &mut ranges[k as usize];
                if range.start == range.end {
                    *range = wi as u32..wi as u32 + 1;
                } else {
                    range.end = wi as u32 + 1;
                }
            }
            ranges
        };
        Topology {
            group_items: ranges(&group_of),
            warp_items: ranges(&warp_of),
            group_of,
            warp_of,
            lockstep: false,
        }
    }
}

/// One arrival at a barrier or collective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub work_item: u32,
    pub step: u64,
    pub event: u32,
}

/// The members of one rendezvous from their arrivals to the release, or to now while it is
/// still open. `warp` is set when only one warp met (a warp collective).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Episode {
    pub group: u32,
    pub warp: Option<u32>,
    /// The first arrival's step.
    pub first_step: u64,
    pub arrivals: Vec<Arrival>,
    /// The release's step, `None` while the episode is open.
    pub release: Option<u64>,
    release_event: u32,
}

/// The lanes of one warp that stepped one instruction together in lockstep mode: their
/// active mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpStep {
    pub warp: u32,
    pub first_step: u64,
    pub last_step: u64,
    /// The lanes (work-items) that stepped, each with its event.
    pub lanes: Vec<(u32, u32)>,
    span: Span,
}

/// The event log's columns, copied once and only extended, indexed per work-item, warp and
/// work-group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EventStore {
    steps: Vec<u64>,
    work_items: Vec<u32>,
    kinds: Vec<EventKind>,
    locations: Vec<Option<Location>>,
    reads: Vec<u64>,
    writes: Vec<u64>,
    spans: Vec<Span>,
    topology: Topology,
    lanes: Vec<Series>,
    warps: Vec<Series>,
    groups: Vec<Series>,
    /// Each work-item's finish event, `u32::MAX` until it finishes.
    finished: Vec<u32>,
    episodes: Vec<Episode>,
    /// Arrivals not yet released, per work-group.
    pending: Vec<Vec<Arrival>>,
    warp_steps: Vec<WarpStep>,
}

impl EventStore {
    pub fn new(topology: Topology) -> EventStore {
        let (items, groups, warps) = (
            topology.group_of.len(),
            topology.group_items.len(),
            topology.warp_items.len(),
        );
        EventStore {
            lanes: vec![Series::default(); items],
            warps: vec![Series::default(); warps],
            groups: vec![Series::default(); groups],
            finished: vec![u32::MAX; items],
            pending: vec![Vec::new(); groups],
            topology,
            ..EventStore::default()
        }
    }

    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    pub fn len(&self) -> usize {
        self.steps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Whether the first `self.len()` events of these columns are exactly the ones stored.
    /// Equal scenarios give equal traces, so the same steps, work-items and kinds mean the
    /// same events.
    pub fn is_prefix_of(&self, steps: &[u32], work_items: &[u32], kinds: &[EventKind]) -> bool {
        let n = self.len().min(steps.len());
        self.steps[..n].iter().zip(&steps[..n]).all(|(&mine, &theirs)| mine == theirs as u64)
            && self.work_items[..n] == work_items[..n.min(work_items.len())]
            && self.kinds[..n] == kinds[..n.min(kinds.len())]
    }

    /// Appends the next event of the log.
    pub fn push(&mut self, event: &Event) {
        let index = self.steps.len() as u32;
        let wi = event.work_item;
        let bit = kind_bit(event.kind);
        let previous_step = self.steps.last().copied();
        self.steps.push(event.step);
        self.work_items.push(wi);
        self.kinds.push(event.kind);
        self.locations.push(event.location);
        self.reads.push(event.read);
        self.writes.push(event.written);
        self.spans.push(event.span);
        let Some(&group) = self.topology.group_of.get(wi as usize) else {
            return;
        };
        let warp = self.topology.warp_of[wi as usize];
        self.lanes[wi as usize].push(index, event.step, bit);
        self.warps[warp as usize].push(index, event.step, bit);
        self.groups[group as usize].push(index, event.step, bit);
        match event.kind {
            EventKind::Finish => self.finished[wi as usize] = index,
            EventKind::BarrierArrive => self.pending[group as usize].push(Arrival {
                work_item: wi,
                step: event.step,
                event: index,
            }),
            EventKind::BarrierRelease => self.release(group, warp, event, index),
            _ => {}
        }
        // A step's first event is its agent's; a second one in the same step (a release, a
        // finish) is not another lane stepping.
        if self.topology.lockstep && previous_step != Some(event.step) {
            self.lockstep(event, index);
        }
    }

    /// Closes the rendezvous that `event` (a release by the last arrival) ends. The release
    /// says how many waited: when that is the whole group's pending arrivals, the group
    /// met; otherwise the releasing lane's warp did (a warp collective).
    fn release(&mut self, group: u32, warp: u32, event: &Event, index: u32) {
        let pending = &mut self.pending[group as usize];
        let count = event.read as usize;
        let warp_of = &self.topology.warp_of;
        let in_warp = |a: &Arrival| warp_of.get(a.work_item as usize) == Some(&warp);
        let (arrivals, scope) = if pending.len() <= count {
            (std::mem::take(pending), None)
        } else if pending.iter().filter(|a| in_warp(a)).count() == count {
            let (met, rest): (Vec<Arrival>, Vec<Arrival>) =
                pending.iter().partition(|a| in_warp(a));
            *pending = rest;
            (met, Some(warp))
        } else {
            let at = pending.len() - count;
            (pending.split_off(at), None)
        };
        // A warp that is the whole group met as the group did.
        let scope = scope.filter(|&w| {
            self.topology.warp_items.get(w as usize)
                != self.topology.group_items.get(group as usize)
        });
        self.episodes.push(Episode {
            group,
            warp: scope,
            first_step: arrivals.iter().map(|a| a.step).min().unwrap_or(event.step),
            arrivals,
            release: Some(event.step),
            release_event: index,
        });
    }

    /// Extends or starts the current warp instruction with this step's lane.
    fn lockstep(&mut self, event: &Event, index: u32) {
        let wi = event.work_item;
        // An element moved by a copy engine is not a lane's step.
        let lane_step = !(event.kind == EventKind::AsyncCopy && event.location.is_some());
        let warp = self.topology.warp_of[wi as usize];
        if let Some(last) = self.warp_steps.last_mut() {
            let continues = lane_step
                && last.warp == warp
                && last.span == event.span
                && last.last_step + 1 == event.step
                && last.lanes.last().is_some_and(|&(w, _)| w < wi);
            if continues {
                last.lanes.push((wi, index));
                last.last_step = event.step;
                return;
            }
        }
        if lane_step {
            self.warp_steps.push(WarpStep {
                warp,
                first_step: event.step,
                last_step: event.step,
                lanes: vec![(wi, index)],
                span: event.span,
            });
        }
    }

    /// The event at log index `index`.
    pub fn event(&self, index: usize) -> Option<Event> {
        Some(Event {
            step: *self.steps.get(index)?,
            work_item: self.work_items[index],
            kind: self.kinds[index],
            location: self.locations[index],
            read: self.reads[index],
            written: self.writes[index],
            span: self.spans[index],
            order: None,
            scope: None,
        })
    }

    pub fn lane(&self, work_item: u32) -> Option<&Series> {
        self.lanes.get(work_item as usize)
    }

    pub fn warp(&self, warp: u32) -> Option<&Series> {
        self.warps.get(warp as usize)
    }

    pub fn group(&self, group: u32) -> Option<&Series> {
        self.groups.get(group as usize)
    }

    /// The step at which `work_item` finished, among the first `limit` events.
    pub fn finished_at(&self, work_item: u32, limit: usize) -> Option<u64> {
        let event = *self.finished.get(work_item as usize)?;
        ((event as usize) < limit).then(|| self.steps[event as usize])
    }

    /// The first event at `step`, among the first `limit` events.
    pub fn first_at(&self, step: u64, limit: usize) -> Option<usize> {
        let steps = &self.steps[..limit.min(self.steps.len())];
        let i = steps.partition_point(|&s| s < step);
        (steps.get(i) == Some(&step)).then_some(i)
    }

    /// The first event of `work_item` at `step`, among the first `limit` events.
    pub fn event_at(&self, work_item: u32, step: u64, limit: usize) -> Option<usize> {
        let series = self.lane(work_item)?;
        let n = series.count(limit);
        let range = series.step_range(step..step + 1, n);
        series.event(range.start).filter(|_| !range.is_empty())
    }

    /// The rendezvous as they stood after the first `limit` events that meet `steps`:
    /// released ones, and per work-group the arrivals still waiting (whose episode is open).
    pub fn episodes(&self, limit: usize, steps: Range<u64>) -> Vec<Episode> {
        let mut out = Vec::new();
        let mut open: Vec<Vec<Arrival>> = vec![Vec::new(); self.pending.len()];
        // Episodes are in release order, so those released before the steps are skipped.
        let from = self
            .episodes
            .partition_point(|e| e.release.is_some_and(|r| r < steps.start));
        for episode in &self.episodes[from..] {
            if (episode.release_event as usize) < limit {
                if episode.first_step < steps.end {
                    out.push(episode.clone());
                }
            } else {
                open[episode.group as usize].extend(
                    episode
                        .arrivals
                        .iter()
                        .filter(|a| (a.event as usize) < limit),
                );
            }
        }
        for (group, pending) in self.pending.iter().enumerate() {
            open[group].extend(pending.iter().filter(|a| (a.event as usize) < limit));
        }
        for (group, mut arrivals) in open.into_iter().enumerate() {
            if !arrivals.is_empty() {
                arrivals.sort_by_key(|a| a.event);
                out.push(Episode {
                    group: group as u32,
                    warp: None,
                    first_step: arrivals[0].step,
                    arrivals,
                    release: None,
                    release_event: u32::MAX,
                });
            }
        }
        out
    }

    /// The lockstep instructions among the first `limit` events whose steps meet `steps`.
    pub fn warp_steps(
        &self,
        limit: usize,
        steps: Range<u64>,
    ) -> impl Iterator<Item = WarpStep> + '_ {
        let first = self
            .warp_steps
            .partition_point(|w| w.last_step < steps.start);
        self.warp_steps[first..]
            .iter()
            .take_while(move |w| w.first_step < steps.end)
            .filter_map(move |w| {
                let lanes: Vec<(u32, u32)> = w
                    .lanes
                    .iter()
                    .copied()
                    .filter(|&(_, e)| (e as usize) < limit)
                    .collect();
                (!lanes.is_empty()).then(|| WarpStep { lanes, ..w.clone() })
            })
    }
}

/// Which steps the canvas shows: `start` is the step at the left edge (fractional), `scale`
/// the CSS pixels per step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub start: f64,
    pub scale: f64,
}

/// What a view is kept within: the steps of the run and the canvas width.
///
/// Steps are numbered from 1 (the engine's first event is at step 1), and the mark of step
/// `s` spans `s .. s + 1`, so the cursor (the state after step `steps`) sits at `steps + 1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The steps taken so far.
    pub steps: u64,
    /// CSS pixels.
    pub width: f64,
}

/// Where the cursor is drawn after `steps` steps: at the right edge of the last step's mark.
pub fn cursor_position(steps: u64) -> f64 {
    steps as f64 + 1.0
}

impl Bounds {
    /// The steps a fitted view spans: every step and the cursor, with room to its right.
    fn span(self) -> f64 {
        (self.steps as f64 + 2.0).max(MIN_SPAN)
    }

    fn min_scale(self) -> f64 {
        self.width.max(1.0) / self.span()
    }

    fn max_scale(self) -> f64 {
        MAX_SCALE.max(self.min_scale())
    }
}

impl View {
    pub fn x(&self, step: f64) -> f64 {
        (step - self.start) * self.scale
    }

    pub fn step_at(&self, x: f64) -> f64 {
        self.start + x / self.scale
    }

    /// The step at the right edge.
    pub fn end(&self, width: f64) -> f64 {
        self.step_at(width)
    }

    /// Every step and the cursor, filling the width.
    pub fn fit(bounds: Bounds) -> View {
        View {
            start: 0.0,
            scale: bounds.min_scale(),
        }
    }

    /// Kept within the run: no further out than fitting it, no closer than [`MAX_SCALE`],
    /// nothing before step 0, and at most three quarters of the width after the cursor.
    pub fn clamped(self, bounds: Bounds) -> View {
        let scale = if self.scale.is_finite() {
            self.scale.clamp(bounds.min_scale(), bounds.max_scale())
        } else {
            bounds.min_scale()
        };
        let visible = bounds.width.max(1.0) / scale;
        let last_start = (bounds.span() - visible)
            .max(cursor_position(bounds.steps) - 0.25 * visible)
            .max(0.0);
        let start = if self.start.is_finite() {
            self.start.clamp(0.0, last_start)
        } else {
            0.0
        };
        View { start, scale }
    }

    /// Zoomed by `factor` (above 1 zooms in) keeping the step under `x` where it is.
    pub fn zoom_about(self, x: f64, factor: f64, bounds: Bounds) -> View {
        let anchor = self.step_at(x);
        let scale = (self.scale * factor).clamp(bounds.min_scale(), bounds.max_scale());
        View {
            start: anchor - x / scale,
            scale,
        }
        .clamped(bounds)
    }

    /// Moved by `dx` CSS pixels (positive shows later steps).
    pub fn pan(self, dx: f64, bounds: Bounds) -> View {
        View {
            start: self.start + dx / self.scale,
            ..self
        }
        .clamped(bounds)
    }

    /// Moved so `step` sits at `fraction` of the width.
    pub fn placing(self, step: f64, fraction: f64, bounds: Bounds) -> View {
        View {
            start: step - fraction * bounds.width / self.scale,
            ..self
        }
        .clamped(bounds)
    }

    /// Whether `step` is on screen.
    pub fn shows(&self, step: f64, width: f64) -> bool {
        step >= self.start && step <= self.end(width)
    }

    /// The first and last whole steps at least partly visible.
    pub fn visible_steps(&self, width: f64) -> (u64, u64) {
        let first = self.start.floor().max(0.0);
        let last = (self.end(width).ceil() - 1.0).max(first);
        (first as u64, last as u64)
    }

    /// After the run moved from `before` to `bounds.steps`: a fitted view fits again;
    /// otherwise a cursor that was on screen and has left it is brought back three quarters
    /// of the way across, leaving room for the steps to come.
    pub fn follow(self, before: u64, bounds: Bounds, fitted: bool) -> View {
        if fitted {
            return View::fit(bounds);
        }
        let cursor = cursor_position(bounds.steps);
        if self.shows(cursor_position(before), bounds.width) && !self.shows(cursor, bounds.width) {
            self.placing(cursor, 0.75, bounds)
        } else {
            self.clamped(bounds)
        }
    }
}

/// A header row that can be collapsed: a work-group, or a warp within one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fold {
    Group(u32),
    Warp(u32),
}

/// One row of the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    /// A work-group's header; `lanes` are the positions of its lanes in the lane list.
    Group {
        group: u32,
        lanes: Range<usize>,
        collapsed: bool,
    },
    /// A warp's header, within its group (only when a group has several warps).
    Warp {
        group: u32,
        warp: u32,
        lanes: Range<usize>,
        collapsed: bool,
    },
    Lane {
        position: usize,
        work_item: u32,
    },
}

/// A lane as the layout needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneSpec {
    pub work_item: u32,
    pub group: u32,
    pub warp: u32,
}

/// The rows, and where each work-item is drawn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layout {
    pub rows: Vec<Row>,
    /// Per work-item: its row, or the collapsed header that stands for it.
    place: Vec<Option<Place>>,
}

/// Where a work-item is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Lane(usize),
    Folded(usize),
}

impl Place {
    pub fn row(self) -> usize {
        match self {
            Place::Lane(row) | Place::Folded(row) => row,
        }
    }
}

/// Which headers the rows are grouped under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Headers {
    /// Work-groups only.
    Groups,
    /// Work-groups, and warps within those that have more than one (CUDA).
    GroupsAndWarps,
}

/// Lays out `lanes` (in order, group by group) under `headers`. Collapsed headers hide
/// their lanes.
pub fn layout(lanes: &[LaneSpec], headers: Headers, folded: &BTreeSet<Fold>) -> Layout {
    let split_warps = headers == Headers::GroupsAndWarps;
    let mut rows = Vec::new();
    let size = lanes
        .iter()
        .map(|l| l.work_item as usize + 1)
        .max()
        .unwrap_or(0);
    let mut place = vec![None; size];
    let mut start = 0;
    while start < lanes.len() {
        let group = lanes[start].group;
        let end = start
            + lanes[start..]
                .iter()
                .take_while(|l| l.group == group)
                .count();
        let collapsed = folded.contains(&Fold::Group(group));
        let header = rows.len();
        rows.push(Row::Group {
            group,
            lanes: start..end,
            collapsed,
        });
        let members = &lanes[start..end];
        if collapsed {
            for lane in members {
                place[lane.work_item as usize] = Some(Place::Folded(header));
            }
        } else {
            let warps = split_warps && members.iter().any(|l| l.warp != members[0].warp);
            let mut at = start;
            while at < end {
                let warp = lanes[at].warp;
                let stop = if warps {
                    at + lanes[at..end].iter().take_while(|l| l.warp == warp).count()
                } else {
                    end
                };
                let warp_collapsed = warps && folded.contains(&Fold::Warp(warp));
                let warp_header = rows.len();
                if warps {
                    rows.push(Row::Warp {
                        group,
                        warp,
                        lanes: at..stop,
                        collapsed: warp_collapsed,
                    });
                }
                for (position, lane) in lanes.iter().enumerate().take(stop).skip(at) {
                    if warp_collapsed {
                        place[lane.work_item as usize] = Some(Place::Folded(warp_header));
                    } else {
                        place[lane.work_item as usize] = Some(Place::Lane(rows.len()));
                        rows.push(Row::Lane {
                            position,
                            work_item: lane.work_item,
                        });
                    }
                }
                at = stop;
            }
        }
        start = end;
    }
    Layout { rows, place }
}

impl Layout {
    pub fn place(&self, work_item: u32) -> Option<Place> {
        self.place.get(work_item as usize).copied().flatten()
    }

    /// The content height of the rows.
    pub fn height(&self) -> f64 {
        self.rows.len() as f64 * ROW_HEIGHT
    }

    /// The row at content offset `y` (0 is the top of the first row).
    pub fn row_at(&self, y: f64) -> Option<usize> {
        if y < 0.0 {
            return None;
        }
        let row = (y / ROW_HEIGHT) as usize;
        (row < self.rows.len()).then_some(row)
    }

    /// The rows at least partly inside `height` pixels from content offset `top`.
    pub fn visible_rows(&self, top: f64, height: f64) -> Range<usize> {
        let first = (top.max(0.0) / ROW_HEIGHT).floor() as usize;
        let last = ((top.max(0.0) + height.max(0.0)) / ROW_HEIGHT).ceil() as usize;
        first.min(self.rows.len())..last.min(self.rows.len())
    }

    /// The events a row shows: a lane's own, a collapsed header's members', none for an
    /// open header.
    pub fn series<'a>(&self, row: usize, store: &'a EventStore) -> Option<&'a Series> {
        match self.rows.get(row)? {
            Row::Lane { work_item, .. } => store.lane(*work_item),
            Row::Group {
                group,
                collapsed: true,
                ..
            } => store.group(*group),
            Row::Warp {
                warp,
                collapsed: true,
                ..
            } => store.warp(*warp),
            _ => None,
        }
    }
}

/// One mark: a step's events when zoomed in, a pixel column's when zoomed out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    /// CSS pixels from the canvas's left edge.
    pub x: f64,
    pub width: f64,
    pub kinds: u16,
    pub count: u32,
    /// Its first entry in the series.
    pub first: usize,
}

/// The marks of the first `n` entries of `series` across `width` CSS pixels, appended to
/// `out`. Zoomed in, one per step; zoomed out, one per `column` pixels, found by binary
/// search and the kind mip-map when the row holds far more events than columns, so the
/// cost is bounded by the width whatever the number of events.
pub fn cells(series: &Series, n: usize, view: &View, width: f64, column: f64, out: &mut Vec<Cell>) {
    let (first, last) = view.visible_steps(width);
    let range = series.step_range(first..last.saturating_add(1), n);
    if range.is_empty() {
        return;
    }
    if view.scale >= STEP_MARKS_FROM {
        let mut entry = range.start;
        while entry < range.end {
            let step = series.steps[entry];
            let stop = entry + series.steps[entry..range.end].partition_point(|&s| s == step);
            out.push(Cell {
                x: view.x(step as f64),
                width: view.scale,
                kinds: series.kinds(entry..stop),
                count: (stop - entry) as u32,
                first: entry,
            });
            entry = stop;
        }
        return;
    }
    let column = column.max(0.25);
    let columns = (width / column).ceil().max(1.0);
    let column_of = |step: u64| (view.x(step as f64) / column).floor();
    if (range.len() as f64) <= 4.0 * columns {
        for entry in range {
            let c = column_of(series.steps[entry]);
            let bit = series.kinds(entry..entry + 1);
            match out.last_mut() {
                Some(cell) if cell.x == c * column => {
                    cell.kinds |= bit;
                    cell.count += 1;
                }
                _ => out.push(Cell {
                    x: c * column,
                    width: column,
                    kinds: bit,
                    count: 1,
                    first: entry,
                }),
            }
        }
        return;
    }
    let mut entry = range.start;
    let mut c = column_of(series.steps[entry]);
    while entry < range.end {
        // The first step of the next column.
        let next = view.step_at((c + 1.0) * column).ceil().max(0.0) as u64;
        let stop = entry + series.steps[entry..range.end].partition_point(|&s| s < next);
        if stop > entry {
            out.push(Cell {
                x: c * column,
                width: column,
                kinds: series.kinds(entry..stop),
                count: (stop - entry) as u32,
                first: entry,
            });
        }
        entry = stop.max(entry);
        if entry < range.end {
            c = column_of(series.steps[entry]).max(c + 1.0);
        }
    }
}

/// The event of the first `n` entries of `series` nearest to `x`, within `slack` CSS pixels
/// of its mark.
pub fn hit(series: &Series, n: usize, view: &View, x: f64, slack: f64) -> Option<usize> {
    let step = view.step_at(x);
    let reach = slack / view.scale;
    let from = (step - 1.0 - reach).floor().max(0.0) as u64;
    let to = (step + reach).ceil().max(0.0) as u64 + 1;
    let range = series.step_range(from..to, n);
    let distance = |entry: usize| {
        let s = series.steps[entry] as f64;
        // Inside the mark is distance 0; outside, to its nearer edge.
        if step >= s && step < s + 1.0 {
            0.0
        } else {
            (step - s).abs().min((step - s - 1.0).abs()) * view.scale
        }
    };
    range
        .map(|entry| (entry, distance(entry)))
        .filter(|&(_, d)| d <= slack)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .and_then(|(entry, _)| series.event(entry))
}

/// One change of a lock's state, with the work-items as linear indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockChange {
    pub step: u64,
    pub work_item: Option<u32>,
    pub action: LockAction,
    /// Who holds the lock after this step.
    pub holder: Option<u32>,
}

/// A lock held by, or waited for by, one work-item over steps `from..to` (`to` is `None`
/// while it lasts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockBand {
    pub lock: usize,
    pub work_item: u32,
    pub from: u64,
    pub to: Option<u64>,
    pub held: bool,
}

/// The bands of lock `lock` from its changes of state: ownership follows the engine's
/// holder after each change; a wait starts with a work-item's attempt and ends when that
/// work-item acquires or releases the lock, or finishes (`finished_at`).
pub fn lock_bands(
    lock: usize,
    changes: &[LockChange],
    finished_at: &dyn Fn(u32) -> Option<u64>,
) -> Vec<LockBand> {
    let mut bands = Vec::new();
    let mut holding: Option<(u32, u64)> = None;
    let mut waiting: Vec<(u32, u64)> = Vec::new();
    for change in changes {
        if holding.map(|(h, _)| h) != change.holder {
            if let Some((h, from)) = holding.take() {
                bands.push(LockBand {
                    lock,
                    work_item: h,
                    from,
                    to: Some(change.step),
                    held: true,
                });
            }
            holding = change.holder.map(|h| (h, change.step));
        }
        let Some(wi) = change.work_item else {
            continue;
        };
        match change.action {
            LockAction::Attempt => {
                if !waiting.iter().any(|&(w, _)| w == wi) {
                    waiting.push((wi, change.step));
                }
            }
            LockAction::Acquire | LockAction::Release => {
                if let Some(k) = waiting.iter().position(|&(w, _)| w == wi) {
                    let (_, from) = waiting.remove(k);
                    bands.push(LockBand {
                        lock,
                        work_item: wi,
                        from,
                        to: Some(change.step),
                        held: false,
                    });
                }
            }
        }
    }
    let open = |wi: u32, from: u64| finished_at(wi).filter(|&f| f >= from);
    if let Some((h, from)) = holding {
        bands.push(LockBand {
            lock,
            work_item: h,
            from,
            to: open(h, from),
            held: true,
        });
    }
    for (wi, from) in waiting {
        bands.push(LockBand {
            lock,
            work_item: wi,
            from,
            to: open(wi, from),
            held: false,
        });
    }
    bands
}

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
    Hatch { paint: Paint, rect: Rect },
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
    Outline { paint: Paint, rects: Vec<Rect> },
    Text {
        paint: Paint,
        x: f64,
        y: f64,
        text: String,
        align: Align,
    },
}

fn fill(paint: Paint, rects: Vec<Rect>, alpha: f64) -> Shape {
    Shape::Fill {
        paint,
        rects,
        alpha,
    }
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
    fn row_y(&self, row: usize) -> f64 {
        AXIS_HEIGHT + row as f64 * ROW_HEIGHT - self.scroll_top
    }

    /// The vertical middle of where `work_item` is drawn, if it is drawn in a visible row.
    fn middle(&self, work_item: u32, rows: &Range<usize>) -> Option<f64> {
        let row = self.layout.place(work_item)?.row();
        rows.contains(&row)
            .then(|| self.row_y(row) + ROW_HEIGHT / 2.0)
    }

    /// The vertical extent (top, bottom) of the rows of consecutive `work_items`, where
    /// drawn (rows follow work-item order, and work-items without a lane are skipped).
    fn extent(&self, work_items: Range<u32>) -> Option<(f64, f64)> {
        let top = work_items
            .clone()
            .find_map(|wi| self.layout.place(wi))?
            .row();
        let bottom = work_items.rev().find_map(|wi| self.layout.place(wi))?.row();
        Some((self.row_y(top), self.row_y(bottom) + ROW_HEIGHT))
    }

    /// A horizontal span of steps on the canvas, cut to the visible width.
    fn span_x(&self, from: f64, to: f64) -> Option<(f64, f64)> {
        let (x0, x1) = (
            self.view.x(from).max(-2.0),
            self.view.x(to).min(self.width + 2.0),
        );
        (x1 > x0).then_some((x0, x1))
    }
}

/// The shapes of one frame: row backgrounds, barrier and lock bands, lockstep masks, event
/// marks, race arcs, stale-read links, the cursor and the step axis. Only the visible rows
/// and steps are considered.
pub fn scene(input: &SceneInput) -> Scene {
    let rows = input
        .layout
        .visible_rows(input.scroll_top, (input.height - AXIS_HEIGHT).max(0.0));
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
            Row::Group { .. } | Row::Warp { .. } => headers.push(Rect {
                x: 0.0,
                y,
                w: input.width,
                h: ROW_HEIGHT,
            }),
            Row::Lane { work_item, .. } if Some(*work_item) == input.selected => {
                selected.push(Rect {
                    x: 0.0,
                    y,
                    w: input.width,
                    h: ROW_HEIGHT,
                })
            }
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
            bands.push(Rect {
                x: x0,
                y: top,
                w: x1 - x0,
                h: bottom - top,
            });
        }
        for arrival in &episode.arrivals {
            let Some(middle) = input.middle(arrival.work_item, &rows) else {
                continue;
            };
            if let Some((x0, x1)) = input.span_x(arrival.step as f64, end) {
                waits.push(Rect {
                    x: x0,
                    y: middle - 2.0,
                    w: x1 - x0,
                    h: 4.0,
                });
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
        let rect = Rect {
            x: x0,
            y: middle - ROW_HEIGHT / 2.0 + 2.0,
            w: (x1 - x0).max(1.0),
            h: ROW_HEIGHT - 4.0,
        };
        if band.held {
            held.push(rect);
        } else {
            shapes.push(Shape::Hatch {
                paint: Paint::LockWait,
                rect,
            });
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
            let ys: Vec<f64> = active
                .iter()
                .filter_map(|&wi| input.middle(wi, &rows))
                .collect();
            if let (Some(top), Some(bottom)) = (
                ys.iter().copied().reduce(f64::min),
                ys.iter().copied().reduce(f64::max),
            ) {
                if bottom > top {
                    joins.push((x, top, x, bottom));
                }
            }
            let members = topology
                .warp_items
                .get(step.warp as usize)
                .cloned()
                .unwrap_or(0..0);
            for wi in members.filter(|wi| !active.contains(wi)) {
                let done = input
                    .store
                    .finished_at(wi, input.limit)
                    .is_some_and(|f| f < step.first_step);
                if let (false, Some(middle)) = (done, input.middle(wi, &rows)) {
                    let w = (input.view.scale - 2.0).clamp(3.0, 10.0);
                    masked.push(Rect {
                        x: x - w / 2.0,
                        y: middle - 3.0,
                        w,
                        h: 6.0,
                    });
                }
            }
        }
    }
    shapes.push(Shape::Lines {
        paint: Paint::Lockstep,
        width: 1.0,
        lines: joins,
        dashed: false,
    });
    shapes.push(Shape::Outline {
        paint: Paint::Inactive,
        rects: masked,
    });

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
        cells(
            series,
            n,
            &input.view,
            input.width,
            input.column,
            &mut cells_of_row,
        );
        let y = input.row_y(row);
        for cell in &cells_of_row {
            events += cell.count as u64;
            let gap = if cell.width >= 6.0 { 1.0 } else { 0.0 };
            let w = (cell.width - gap).max(1.0);
            let rest =
                cell.kinds & !kind_bit(EventKind::BarrierRelease) & !kind_bit(EventKind::Finish);
            let body = Rect {
                x: cell.x,
                y: y + 5.0,
                w,
                h: ROW_HEIGHT - 10.0,
            };
            match dominant(rest) {
                Some(EventKind::Promise) if cell.kinds.count_ones() == 1 => hollow.push(body),
                Some(kind) => by_kind[kind as usize].push(body),
                None => {}
            }
            if cell.kinds & kind_bit(EventKind::BarrierRelease) != 0 {
                releases.push(Rect {
                    x: cell.x,
                    y: y + ROW_HEIGHT - 5.0,
                    w,
                    h: 4.0,
                });
            }
            if cell.kinds & kind_bit(EventKind::Finish) != 0 {
                // The finish is at the right edge of its step, so it never hides the event.
                let fw = w.min(3.0);
                finishes.push(Rect {
                    x: cell.x + w - fw,
                    y: y + 3.0,
                    w: fw,
                    h: ROW_HEIGHT - 6.0,
                });
            }
        }
    }
    for (kind, rects) in KINDS.iter().zip(by_kind) {
        if !rects.is_empty() {
            shapes.push(Shape::Fill {
                paint: Paint::Kind(*kind),
                rects,
                alpha: 1.0,
            });
        }
    }
    if !hollow.is_empty() {
        shapes.push(Shape::Outline {
            paint: Paint::Kind(EventKind::Store),
            rects: hollow,
        });
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
            Some(Rect {
                x: input.view.x(step as f64),
                y: middle - ROW_HEIGHT / 2.0 + 1.0,
                w: input.view.scale.clamp(2.0, 10.0),
                h: 3.0,
            })
        })
        .collect();
    shapes.push(fill(Paint::LockMark, lock_ticks, 1.0));

    // Races: an arc between the two accesses; either end may be off screen.
    let point = |(step, wi): (u64, u32)| {
        let row = input.layout.place(wi)?.row();
        Some((
            input.view.x(step as f64 + 0.5),
            input.row_y(row) + ROW_HEIGHT / 2.0,
        ))
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
                shapes.push(Shape::Arc {
                    paint: Paint::Race,
                    from,
                    to,
                    lift,
                });
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
            rings.push(Rect {
                x: load.0 - w / 2.0,
                y: load.1 - ROW_HEIGHT / 2.0 + 2.0,
                w,
                h: ROW_HEIGHT - 4.0,
            });
        }
    }
    shapes.push(Shape::Lines {
        paint: Paint::Stale,
        width: 1.5,
        lines: links,
        dashed: true,
    });
    shapes.push(Shape::Outline {
        paint: Paint::Stale,
        rects: rings,
    });

    // The cursor: where the next step goes.
    let x = input.view.x(cursor);
    if x >= -2.0 && x <= input.width + 2.0 {
        shapes.push(Shape::Fill {
            paint: Paint::Cursor,
            rects: vec![Rect {
                x: x - 1.0,
                y: 0.0,
                w: 2.0,
                h: input.height,
            }],
            alpha: 1.0,
        });
    }

    // The step axis, drawn last so rows scroll under it.
    shapes.push(Shape::Fill {
        paint: Paint::GroupRow,
        rects: vec![Rect {
            x: 0.0,
            y: 0.0,
            w: input.width,
            h: AXIS_HEIGHT,
        }],
        alpha: 1.0,
    });
    let every = tick_every(input.view.scale);
    let mut ticks = Vec::new();
    let mut tick = (first_step / every) * every;
    while tick <= last_step.saturating_add(1) {
        let x = input.view.x(tick as f64);
        if x >= 0.0 && x <= input.width {
            ticks.push((x, AXIS_HEIGHT - 6.0, x, AXIS_HEIGHT));
            shapes.push(Shape::Text {
                paint: Paint::Axis,
                x: x + 3.0,
                y: AXIS_HEIGHT / 2.0,
                text: tick.to_string(),
                align: Align::Start,
            });
        }
        tick += every;
    }
    ticks.push((0.0, AXIS_HEIGHT - 0.5, input.width, AXIS_HEIGHT - 0.5));
    shapes.push(Shape::Lines {
        paint: Paint::Grid,
        width: 1.0,
        lines: ticks,
        dashed: false,
    });

    Scene {
        shapes,
        events,
        first_step,
        last_step,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn event(step: u64, work_item: u32, kind: EventKind) -> Event {
        Event {
            step,
            work_item,
            kind,
            location: None,
            read: 0,
            written: 0,
            span: Span::new(0, 0),
            order: None,
            scope: None,
        }
    }

    /// A store of `items` work-items in groups of `group`, warps of `warp`.
    fn store(items: u32, group: u32, warp: u32, lockstep: bool) -> EventStore {
        let group_of = (0..items).map(|wi| wi / group).collect();
        EventStore::new(Topology {
            lockstep,
            ..Topology::new(group_of, warp)
        })
    }

    #[test]
    fn warps_are_numbered_across_groups() {
        let topology = Topology::new(vec![0, 0, 0, 1, 1, 1], 2);
        assert_eq!(topology.warp_of, [0, 0, 1, 2, 2, 3]);
        assert_eq!(topology.warp_items, [0..2, 2..3, 3..5, 5..6]);
        assert_eq!(topology.group_items, [0..3, 3..6]);
    }

    #[test]
    fn the_kind_mip_map_answers_every_range() {
        // Data-driven against the obvious scan, for every range of a series with an odd
        // length (partial blocks at every level).
        let mut series = Series::default();
        let kinds: Vec<EventKind> = (0..37)
            .map(|i| KINDS[(i * 7 + i / 3) % KINDS.len()])
            .collect();
        for (i, &k) in kinds.iter().enumerate() {
            series.push(i as u32, i as u64 * 2, kind_bit(k));
        }
        for lo in 0..=kinds.len() {
            for hi in lo..=kinds.len() {
                let expected = kinds[lo..hi].iter().fold(0, |m, &k| m | kind_bit(k));
                assert_eq!(series.kinds(lo..hi), expected, "{lo}..{hi}");
            }
        }
    }

    #[test]
    fn series_ranges_follow_steps_and_the_limit() {
        let mut series = Series::default();
        for (event, step) in [(0, 0), (3, 3), (4, 3), (9, 9)] {
            series.push(event, step, 1);
        }
        assert_eq!(series.count(4), 2);
        assert_eq!(series.count(100), 4);
        assert_eq!(series.step_range(3..4, 4), 1..3);
        assert_eq!(series.step_range(4..9, 4), 3..3);
        assert_eq!(series.step_range(0..100, 2), 0..2);
    }

    #[test]
    fn views_zoom_about_the_pointer_and_stay_within_the_run() {
        let bounds = Bounds {
            steps: 1000,
            width: 500.0,
        };
        let fit = View::fit(bounds);
        assert_eq!(fit.start, 0.0);
        assert!((fit.end(500.0) - 1002.0).abs() < 1e-9);
        // Zooming in about x = 100 keeps the step under x = 100.
        let before = fit.step_at(100.0);
        let zoomed = fit.zoom_about(100.0, 4.0, bounds);
        assert!((zoomed.step_at(100.0) - before).abs() < 1e-9);
        assert!((zoomed.scale - fit.scale * 4.0).abs() < 1e-9);
        // No further out than fitting, no closer than the limit.
        assert_eq!(fit.zoom_about(0.0, 0.1, bounds), fit);
        assert_eq!(fit.zoom_about(0.0, 1e9, bounds).scale, MAX_SCALE);
        // Panning stops at either end.
        assert_eq!(zoomed.pan(-1e9, bounds).start, 0.0);
        // The cursor (at 1001) may go no further left than a quarter of the width.
        let far = zoomed.pan(1e9, bounds);
        assert!((far.step_at(125.0) - 1001.0).abs() < 1e-6);
        assert_eq!(
            zoomed.pan(40.0, bounds).start,
            zoomed.start + 40.0 / zoomed.scale
        );
        // A short run is not blown up beyond the limit: it spans at least MIN_SPAN steps.
        let short = View::fit(Bounds {
            steps: 3,
            width: 160.0,
        });
        assert_eq!(short.scale, 10.0);
        // Nonsense never escapes.
        let bad = View {
            start: f64::NAN,
            scale: f64::INFINITY,
        };
        assert_eq!(bad.clamped(bounds), fit);
    }

    #[test]
    fn the_view_follows_the_cursor_only_when_it_was_watching_it() {
        let bounds = Bounds {
            steps: 100,
            width: 100.0,
        };
        let view = View {
            start: 0.0,
            scale: 10.0,
        };
        // The cursor was after step 9 (visible) and is now after step 100: brought back.
        let followed = view.follow(9, bounds, false);
        assert!((followed.step_at(75.0) - 101.0).abs() < 1e-9);
        // It was not visible before: the user is looking elsewhere.
        let elsewhere = view.follow(50, bounds, false);
        assert_eq!(elsewhere, view);
        // A fitted view fits again.
        assert_eq!(view.follow(9, bounds, true), View::fit(bounds));
        assert_eq!(
            View {
                start: 3.2,
                scale: 10.0
            }
            .visible_steps(100.0),
            (3, 13)
        );
    }

    fn lanes(groups: &[(u32, u32)], warp: u32) -> Vec<LaneSpec> {
        // (group, count) per group, work-items numbered in order.
        let mut out = Vec::new();
        let mut wi = 0;
        for &(group, count) in groups {
            for local in 0..count {
                out.push(LaneSpec {
                    work_item: wi,
                    group,
                    warp: group * 100 + local / warp,
                });
                wi += 1;
            }
        }
        out
    }

    #[test]
    fn layout_groups_lanes_and_collapses_headers() {
        let specs = lanes(&[(0, 4), (1, 4)], 2);
        let open = layout(&specs, Headers::Groups, &BTreeSet::new());
        assert_eq!(open.rows.len(), 10);
        assert_eq!(open.place(5), Some(Place::Lane(7)));
        let folded = layout(&specs, Headers::Groups, &BTreeSet::from([Fold::Group(0)]));
        assert_eq!(folded.rows.len(), 6);
        assert_eq!(folded.place(2), Some(Place::Folded(0)));
        assert_eq!(folded.place(4), Some(Place::Lane(2)));
        // CUDA: warps within blocks, each collapsible.
        let warps = layout(
            &specs,
            Headers::GroupsAndWarps,
            &BTreeSet::from([Fold::Warp(101)]),
        );
        let kinds: Vec<&str> = warps
            .rows
            .iter()
            .map(|r| match r {
                Row::Group { .. } => "g",
                Row::Warp { .. } => "w",
                Row::Lane { .. } => "l",
            })
            .collect();
        assert_eq!(kinds.concat(), "gwllwllgwllw");
        assert_eq!(warps.place(7), Some(Place::Folded(11)));
        // A group of one warp gets no warp header.
        let one = layout(
            &lanes(&[(0, 2)], 32),
            Headers::GroupsAndWarps,
            &BTreeSet::new(),
        );
        assert_eq!(one.rows.len(), 3);
        assert_eq!(one.visible_rows(30.0, 10.0), 1..2);
        assert_eq!(one.row_at(45.0), Some(2));
        assert_eq!(one.row_at(70.0), None);
    }

    #[test]
    fn zoomed_in_there_is_one_cell_per_step_and_zoomed_out_one_per_column() {
        let mut series = Series::default();
        // Steps 0..1000, a store every tenth step, a barrier arrival and release at step 500.
        let mut event = 0;
        for step in 0..1000u64 {
            let kind = if step % 10 == 0 {
                EventKind::Store
            } else {
                EventKind::Load
            };
            series.push(event, step, kind_bit(kind));
            event += 1;
            if step == 500 {
                series.push(event, step, kind_bit(EventKind::BarrierRelease));
                event += 1;
            }
        }
        let n = series.count(usize::MAX);
        let mut out = Vec::new();
        let close = View {
            start: 495.0,
            scale: 10.0,
        };
        cells(&series, n, &close, 100.0, 1.0, &mut out);
        assert_eq!(out.len(), 10);
        assert_eq!(out[5].count, 2);
        assert_eq!(
            out[5].kinds,
            kind_bit(EventKind::Store) | kind_bit(EventKind::BarrierRelease)
        );
        assert_eq!(out[0].x, 0.0);
        // 1001 events over 100 columns: one cell per column, every event counted once.
        out.clear();
        let far = View::fit(Bounds {
            steps: 1000,
            width: 100.0,
        });
        cells(&series, n, &far, 100.0, 1.0, &mut out);
        assert!(out.len() <= 100, "{}", out.len());
        assert_eq!(out.iter().map(|c| c.count as usize).sum::<usize>(), 1001);
        assert!(out.iter().all(|c| c.kinds & kind_bit(EventKind::Load) != 0));
        assert!(out.windows(2).all(|w| w[0].x < w[1].x));
        // The sparse path gives the same cells as the dense one.
        let mut sparse = Vec::new();
        cells(&series, n, &far, 100.0, 0.25, &mut sparse);
        assert_eq!(sparse.iter().map(|c| c.count as usize).sum::<usize>(), 1001);
        // A limit hides later events.
        out.clear();
        cells(&series, series.count(10), &far, 100.0, 1.0, &mut out);
        assert_eq!(out.iter().map(|c| c.count).sum::<u32>(), 10);
    }

    #[test]
    fn a_pixel_hits_the_nearest_event_within_reach() {
        let mut series = Series::default();
        for (event, step) in [(0u32, 2u64), (1, 8)] {
            series.push(event, step, kind_bit(EventKind::Load));
        }
        let view = View {
            start: 0.0,
            scale: 10.0,
        };
        assert_eq!(hit(&series, 2, &view, 25.0, 3.0), Some(0));
        assert_eq!(hit(&series, 2, &view, 32.0, 3.0), Some(0));
        assert_eq!(hit(&series, 2, &view, 50.0, 3.0), None);
        assert_eq!(hit(&series, 2, &view, 79.0, 3.0), Some(1));
        assert_eq!(hit(&series, 1, &view, 85.0, 3.0), None, "beyond the limit");
    }

    #[test]
    fn barrier_episodes_close_at_the_release_and_stay_open_before_it() {
        let mut s = store(4, 4, 32, false);
        for (step, wi) in [(0, 2), (1, 0), (2, 1), (3, 3)] {
            s.push(&event(step, wi, EventKind::BarrierArrive));
        }
        let mut release = event(3, 3, EventKind::BarrierRelease);
        release.read = 4;
        s.push(&release);
        let closed = s.episodes(usize::MAX, 0..100);
        assert_eq!(closed.len(), 1);
        assert_eq!(closed[0].release, Some(3));
        assert_eq!(closed[0].arrivals.len(), 4);
        assert_eq!(closed[0].warp, None);
        // Seen from before the release: open, with the arrivals so far.
        let open = s.episodes(2, 0..100);
        assert_eq!(open.len(), 1);
        assert_eq!(open[0].release, None);
        assert_eq!(open[0].arrivals.len(), 2);
    }

    #[test]
    fn a_warp_collective_releases_only_its_warp() {
        let mut s = store(4, 4, 2, false);
        // Lanes 2 and 3 (warp 1) meet at a warp collective while lane 0 waits at the group's
        // barrier.
        s.push(&event(0, 0, EventKind::BarrierArrive));
        s.push(&event(1, 2, EventKind::BarrierArrive));
        s.push(&event(2, 3, EventKind::BarrierArrive));
        let mut release = event(2, 3, EventKind::BarrierRelease);
        release.read = 2;
        s.push(&release);
        let episodes = s.episodes(usize::MAX, 0..100);
        let warp = episodes.iter().find(|e| e.release.is_some()).unwrap();
        assert_eq!(warp.warp, Some(1));
        let members: Vec<u32> = warp.arrivals.iter().map(|a| a.work_item).collect();
        assert_eq!(members, [2, 3]);
        let open = episodes.iter().find(|e| e.release.is_none()).unwrap();
        assert_eq!(open.arrivals[0].work_item, 0);
    }

    #[test]
    fn lockstep_instructions_are_runs_of_one_warps_lanes_in_lane_order() {
        let mut s = store(4, 4, 4, true);
        let at = |step, wi, span: u32| Event {
            span: Span::new(span, span + 1),
            ..event(step, wi, EventKind::Load)
        };
        // Lanes 0, 1, 3 at one instruction; then 2 alone (it diverged); then 0..3 together.
        for (step, wi, span) in [
            (0, 0, 10),
            (1, 1, 10),
            (2, 3, 10),
            (3, 2, 20),
            (4, 0, 30),
            (5, 1, 30),
            (6, 2, 30),
            (7, 3, 30),
        ] {
            s.push(&at(step, wi, span));
        }
        let steps: Vec<Vec<u32>> = s
            .warp_steps(usize::MAX, 0..100)
            .map(|w| w.lanes.iter().map(|&(wi, _)| wi).collect())
            .collect();
        assert_eq!(steps, [vec![0, 1, 3], vec![2], vec![0, 1, 2, 3]]);
        // Seen from step 5: the last instruction so far has two lanes.
        let partial: Vec<usize> = s.warp_steps(6, 0..100).map(|w| w.lanes.len()).collect();
        assert_eq!(partial, [3, 1, 2]);
    }

    #[test]
    fn lock_bands_follow_holders_and_waiters() {
        use LockAction::*;
        let change = |step, wi, action, holder| LockChange {
            step,
            work_item: Some(wi),
            action,
            holder,
        };
        // 0 takes it, 1 waits, 0 releases, 1 takes it and still holds it; 2 waits and
        // finishes at step 9.
        let changes = [
            change(1, 0, Acquire, Some(0)),
            change(2, 1, Attempt, Some(0)),
            change(3, 2, Attempt, Some(0)),
            change(5, 0, Release, None),
            change(6, 1, Acquire, Some(1)),
        ];
        let finished = |wi: u32| (wi == 2).then_some(9);
        let bands = lock_bands(0, &changes, &finished);
        let expect = |work_item, from, to, held| LockBand {
            lock: 0,
            work_item,
            from,
            to,
            held,
        };
        assert_eq!(
            bands,
            [
                expect(0, 1, Some(5), true),
                expect(1, 2, Some(6), false),
                expect(1, 6, None, true),
                expect(2, 3, Some(9), false),
            ]
        );
    }

    #[test]
    fn ticks_are_round_and_apart() {
        assert_eq!(tick_every(100.0), 1);
        assert_eq!(tick_every(10.0), 10);
        assert_eq!(tick_every(1.0), 100);
        assert_eq!(tick_every(0.03), 5000);
    }

    /// A store with two groups of four: group 0 meets at a barrier, lane 5 races with lane 1.
    fn scene_fixture() -> (EventStore, Layout) {
        let mut s = store(8, 4, 32, false);
        for wi in 0..4 {
            s.push(&event(wi as u64, wi, EventKind::BarrierArrive));
        }
        let mut release = event(3, 3, EventKind::BarrierRelease);
        release.read = 4;
        s.push(&release);
        for (step, wi) in [(4, 5), (5, 1), (6, 6)] {
            s.push(&event(step, wi, EventKind::Store));
        }
        let specs: Vec<LaneSpec> = (0..8)
            .map(|wi| LaneSpec {
                work_item: wi,
                group: wi / 4,
                warp: wi / 4,
            })
            .collect();
        (s, layout(&specs, Headers::Groups, &BTreeSet::new()))
    }

    fn input<'a>(s: &'a EventStore, layout: &'a Layout, races: &'a [RaceArc]) -> SceneInput<'a> {
        SceneInput {
            store: s,
            limit: s.len(),
            layout,
            view: View::fit(Bounds {
                steps: 7,
                width: 320.0,
            }),
            width: 320.0,
            height: AXIS_HEIGHT + 10.0 * ROW_HEIGHT,
            scroll_top: 0.0,
            column: 1.0,
            cursor: 7,
            selected: Some(5),
            lock_bands: &[],
            lock_marks: &[],
            races,
            stale: &[],
        }
    }

    fn fills(scene: &Scene, paint: Paint) -> Vec<Rect> {
        scene
            .shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Fill {
                    paint: p, rects, ..
                } if *p == paint => Some(rects.clone()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    #[test]
    fn a_scene_has_marks_bands_arcs_and_the_cursor() {
        let (s, layout) = scene_fixture();
        let races = [RaceArc {
            first: (5, 1),
            second: (4, 5),
        }];
        let scene = scene(&input(&s, &layout, &races));
        assert_eq!(scene.events, 8);
        assert_eq!((scene.first_step, scene.last_step), (0, 15));
        // The barrier band covers group 0's four lane rows (rows 1..5), steps 0..4.
        let bands = fills(&scene, Paint::BarrierBand);
        assert_eq!(bands.len(), 1);
        assert_eq!(bands[0].y, AXIS_HEIGHT + ROW_HEIGHT);
        assert_eq!(bands[0].h, 4.0 * ROW_HEIGHT);
        assert_eq!(bands[0].w, 4.0 * 20.0);
        assert_eq!(fills(&scene, Paint::BarrierWait).len(), 4);
        assert_eq!(fills(&scene, Paint::Kind(EventKind::Store)).len(), 3);
        assert_eq!(
            fills(&scene, Paint::Kind(EventKind::BarrierRelease)).len(),
            1
        );
        // Lane 5 is row 7; the selected row is highlighted there.
        assert_eq!(
            fills(&scene, Paint::Selected)[0].y,
            AXIS_HEIGHT + 7.0 * ROW_HEIGHT
        );
        let arcs = scene
            .shapes
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    Shape::Arc {
                        paint: Paint::Race,
                        ..
                    }
                )
            })
            .count();
        assert_eq!(arcs, 1);
        let cursor = fills(&scene, Paint::Cursor);
        assert_eq!(cursor[0].x, 8.0 * 20.0 - 1.0);
    }

    #[test]
    fn a_collapsed_group_draws_its_events_on_its_header_and_hidden_rows_draw_nothing() {
        let (s, _) = scene_fixture();
        let specs: Vec<LaneSpec> = (0..8)
            .map(|wi| LaneSpec {
                work_item: wi,
                group: wi / 4,
                warp: wi / 4,
            })
            .collect();
        let folded = layout(&specs, Headers::Groups, &BTreeSet::from([Fold::Group(0)]));
        let mut scene_input = input(&s, &folded, &[]);
        let whole = scene(&scene_input);
        assert_eq!(whole.events, 8);
        // Group 0's barrier band shrinks to its header row.
        let bands = fills(&whole, Paint::BarrierBand);
        assert_eq!((bands[0].y, bands[0].h), (AXIS_HEIGHT, ROW_HEIGHT));
        // Scrolled so that only the last rows show: group 0's events are not drawn.
        scene_input.scroll_top = 3.0 * ROW_HEIGHT;
        scene_input.height = AXIS_HEIGHT + 2.0 * ROW_HEIGHT;
        assert_eq!(scene(&scene_input).events, 2);
    }

    #[test]
    fn lockstep_scenes_join_the_active_lanes_and_mark_the_masked_ones() {
        // One warp of four: lanes 0, 1 and 3 step an instruction together; lane 2 is masked
        // off, and once it has finished it is no longer marked.
        let mut s = store(4, 4, 4, true);
        for (step, wi) in [(1, 0), (2, 1), (3, 3)] {
            s.push(&event(step, wi, EventKind::Load));
        }
        let specs: Vec<LaneSpec> = (0..4)
            .map(|wi| LaneSpec {
                work_item: wi,
                group: 0,
                warp: 0,
            })
            .collect();
        let rows = layout(&specs, Headers::GroupsAndWarps, &BTreeSet::new());
        let scene_of = |s: &EventStore| {
            let mut scene_input = input(s, &rows, &[]);
            scene_input.limit = s.len();
            scene(&scene_input)
        };
        let joins = |scene: &Scene| -> Vec<(f64, f64, f64, f64)> {
            scene
                .shapes
                .iter()
                .filter_map(|shape| match shape {
                    Shape::Lines {
                        paint: Paint::Lockstep,
                        lines,
                        ..
                    } => Some(lines.clone()),
                    _ => None,
                })
                .flatten()
                .collect()
        };
        let masked = |scene: &Scene| -> usize {
            scene
                .shapes
                .iter()
                .map(|shape| match shape {
                    Shape::Outline {
                        paint: Paint::Inactive,
                        rects,
                    } => rects.len(),
                    _ => 0,
                })
                .sum()
        };
        let first = scene_of(&s);
        // One line from lane 0's row (1) to lane 3's (4), one masked lane.
        let lines = joins(&first);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].1, AXIS_HEIGHT + 1.5 * ROW_HEIGHT);
        assert_eq!(lines[0].3, AXIS_HEIGHT + 4.5 * ROW_HEIGHT);
        assert_eq!(masked(&first), 1);
        // Lane 2 finishes alone; the next instruction of the others does not mark it.
        s.push(&event(4, 2, EventKind::Finish));
        for (step, wi) in [(5, 0), (6, 1), (7, 3)] {
            s.push(&event(step, wi, EventKind::Store));
        }
        assert_eq!(
            masked(&scene_of(&s)),
            1 + 3,
            "lane 2's own step masks the other three"
        );
    }
}
