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
use interleave_engine::trace::{AtomicOp, Event, EventKind, Location};

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
        Topology { group_items: ranges(&group_of), warp_items: ranges(&warp_of), group_of, warp_of, lockstep: false }
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
    /// Each atomic's operation (`None` for other events): a tooltip tells an atomic load,
    /// whose event may show an older value read than the one memory holds, from a write.
    ops: Vec<Option<AtomicOp>>,
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
        let (items, groups, warps) = (topology.group_of.len(), topology.group_items.len(), topology.warp_items.len());
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

    /// Appends the next event of the log, with its operation if it is an atomic.
    pub fn push(&mut self, event: &Event, op: Option<AtomicOp>) {
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
        self.ops.push(op);
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
            EventKind::BarrierArrive => self.pending[group as usize].push(Arrival { work_item: wi, step: event.step, event: index }),
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
            let (met, rest): (Vec<Arrival>, Vec<Arrival>) = pending.iter().partition(|a| in_warp(a));
            *pending = rest;
            (met, Some(warp))
        } else {
            let at = pending.len() - count;
            (pending.split_off(at), None)
        };
        // A warp that is the whole group met as the group did.
        let scope = scope.filter(|&w| self.topology.warp_items.get(w as usize) != self.topology.group_items.get(group as usize));
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
            self.warp_steps.push(WarpStep { warp, first_step: event.step, last_step: event.step, lanes: vec![(wi, index)], span: event.span });
        }
    }

    /// The operation of the atomic at log index `index` (`None` for other events).
    pub fn atomic_op(&self, index: usize) -> Option<AtomicOp> {
        self.ops.get(index).copied().flatten()
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
        let from = self.episodes.partition_point(|e| e.release.is_some_and(|r| r < steps.start));
        for episode in &self.episodes[from..] {
            if (episode.release_event as usize) < limit {
                if episode.first_step < steps.end {
                    out.push(episode.clone());
                }
            } else {
                open[episode.group as usize].extend(episode.arrivals.iter().filter(|a| (a.event as usize) < limit));
            }
        }
        for (group, pending) in self.pending.iter().enumerate() {
            open[group].extend(pending.iter().filter(|a| (a.event as usize) < limit));
        }
        for (group, mut arrivals) in open.into_iter().enumerate() {
            if !arrivals.is_empty() {
                arrivals.sort_by_key(|a| a.event);
                out.push(Episode { group: group as u32, warp: None, first_step: arrivals[0].step, arrivals, release: None, release_event: u32::MAX });
            }
        }
        out
    }

    /// The lockstep instructions among the first `limit` events whose steps meet `steps`.
    pub fn warp_steps(&self, limit: usize, steps: Range<u64>) -> impl Iterator<Item = WarpStep> + '_ {
        let first = self.warp_steps.partition_point(|w| w.last_step < steps.start);
        self.warp_steps[first..].iter().take_while(move |w| w.first_step < steps.end).filter_map(move |w| {
            let lanes: Vec<(u32, u32)> = w.lanes.iter().copied().filter(|&(_, e)| (e as usize) < limit).collect();
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
        View { start: 0.0, scale: bounds.min_scale() }
    }

    /// Kept within the run: no further out than fitting it, no closer than [`MAX_SCALE`],
    /// nothing before step 0, and at most three quarters of the width after the cursor.
    pub fn clamped(self, bounds: Bounds) -> View {
        let scale = if self.scale.is_finite() { self.scale.clamp(bounds.min_scale(), bounds.max_scale()) } else { bounds.min_scale() };
        let visible = bounds.width.max(1.0) / scale;
        let last_start = (bounds.span() - visible).max(cursor_position(bounds.steps) - 0.25 * visible).max(0.0);
        let start = if self.start.is_finite() { self.start.clamp(0.0, last_start) } else { 0.0 };
        View { start, scale }
    }

    /// Zoomed by `factor` (above 1 zooms in) keeping the step under `x` where it is.
    pub fn zoom_about(self, x: f64, factor: f64, bounds: Bounds) -> View {
        let anchor = self.step_at(x);
        let scale = (self.scale * factor).clamp(bounds.min_scale(), bounds.max_scale());
        View { start: anchor - x / scale, scale }.clamped(bounds)
    }

    /// Moved by `dx` CSS pixels (positive shows later steps).
    pub fn pan(self, dx: f64, bounds: Bounds) -> View {
        View { start: self.start + dx / self.scale, ..self }.clamped(bounds)
    }

    /// Moved so `step` sits at `fraction` of the width.
    pub fn placing(self, step: f64, fraction: f64, bounds: Bounds) -> View {
        View { start: step - fraction * bounds.width / self.scale, ..self }.clamped(bounds)
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
    /// The lanes of a group (or warp) left out of the focus, collapsed into one row.
    Others {
        group: u32,
        count: usize,
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
/// their lanes; with a `focus`, the lanes outside it are collapsed into one row per group
/// (or warp) after its focused lanes.
pub fn layout(lanes: &[LaneSpec], headers: Headers, folded: &BTreeSet<Fold>, focus: Option<&BTreeSet<u32>>) -> Layout {
    let split_warps = headers == Headers::GroupsAndWarps;
    let mut rows = Vec::new();
    let size = lanes.iter().map(|l| l.work_item as usize + 1).max().unwrap_or(0);
    let mut place = vec![None; size];
    let mut start = 0;
    while start < lanes.len() {
        let group = lanes[start].group;
        let end = start + lanes[start..].iter().take_while(|l| l.group == group).count();
        let collapsed = folded.contains(&Fold::Group(group));
        let header = rows.len();
        rows.push(Row::Group { group, lanes: start..end, collapsed });
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
                let stop = if warps { at + lanes[at..end].iter().take_while(|l| l.warp == warp).count() } else { end };
                let warp_collapsed = warps && folded.contains(&Fold::Warp(warp));
                let warp_header = rows.len();
                if warps {
                    rows.push(Row::Warp { group, warp, lanes: at..stop, collapsed: warp_collapsed });
                }
                let mut others = Vec::new();
                for (position, lane) in lanes.iter().enumerate().take(stop).skip(at) {
                    if warp_collapsed {
                        place[lane.work_item as usize] = Some(Place::Folded(warp_header));
                    } else if focus.is_some_and(|f| !f.contains(&lane.work_item)) {
                        others.push(lane.work_item);
                    } else {
                        place[lane.work_item as usize] = Some(Place::Lane(rows.len()));
                        rows.push(Row::Lane { position, work_item: lane.work_item });
                    }
                }
                if !others.is_empty() {
                    for wi in &others {
                        place[*wi as usize] = Some(Place::Folded(rows.len()));
                    }
                    rows.push(Row::Others { group, count: others.len() });
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
            Row::Group { group, collapsed: true, .. } => store.group(*group),
            Row::Warp { warp, collapsed: true, .. } => store.warp(*warp),
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
            out.push(Cell { x: view.x(step as f64), width: view.scale, kinds: series.kinds(entry..stop), count: (stop - entry) as u32, first: entry });
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
                _ => out.push(Cell { x: c * column, width: column, kinds: bit, count: 1, first: entry }),
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
            out.push(Cell { x: c * column, width: column, kinds: series.kinds(entry..stop), count: (stop - entry) as u32, first: entry });
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
    range.map(|entry| (entry, distance(entry))).filter(|&(_, d)| d <= slack).min_by(|a, b| a.1.total_cmp(&b.1)).and_then(|(entry, _)| series.event(entry))
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
pub fn lock_bands(lock: usize, changes: &[LockChange], finished_at: &dyn Fn(u32) -> Option<u64>) -> Vec<LockBand> {
    let mut bands = Vec::new();
    let mut holding: Option<(u32, u64)> = None;
    let mut waiting: Vec<(u32, u64)> = Vec::new();
    for change in changes {
        if holding.map(|(h, _)| h) != change.holder {
            if let Some((h, from)) = holding.take() {
                bands.push(LockBand { lock, work_item: h, from, to: Some(change.step), held: true });
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
                    bands.push(LockBand { lock, work_item: wi, from, to: Some(change.step), held: false });
                }
            }
        }
    }
    let open = |wi: u32, from: u64| finished_at(wi).filter(|&f| f >= from);
    if let Some((h, from)) = holding {
        bands.push(LockBand { lock, work_item: h, from, to: open(h, from), held: true });
    }
    for (wi, from) in waiting {
        bands.push(LockBand { lock, work_item: wi, from, to: open(wi, from), held: false });
    }
    bands
}

mod scene;
pub use scene::*;
mod why;
pub use why::*;

#[cfg(test)]
mod tests;
