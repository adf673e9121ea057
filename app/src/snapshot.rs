//! What the view draws, read out of a session in one go.
//!
//! The session is borrowed only while a snapshot is taken, and the components receive plain,
//! comparable data. Everything in a snapshot comes from the engine: work-item ids, statuses,
//! events, findings, locks and stale reads; the only thing added here is wording (the labels
//! and tooltips).
//!
//! The app takes a snapshot after every step, so the events are not copied anew each time:
//! a [`TimelineCache`] keeps one [`EventStore`] per run, extended with the new events only,
//! and a snapshot sees its first `limit` events. Tooltip text is made on hover
//! ([`describe`]), never for every event.

use std::cell::{Ref, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use interleave_engine::diag::LineIndex;
use interleave_engine::litmus::LitmusTest;
use interleave_engine::report::{Finding, FindingKind, LockAction, RunStatus};
use interleave_engine::scenario::{Dialect, Scenario, SchedulerKind};
use interleave_engine::session::Session;
use interleave_engine::trace::{AtomicOp, Event, EventKind, Space};
use yew::AttrValue;

use crate::timeline::{lock_bands, EventStore, LockBand, LockChange, RaceArc, StaleLink, Topology};

/// At most this many lanes get a row: each has a DOM label (the accessible part), and
/// 4,096 rows of them stay responsive.
pub const MAX_LANES: usize = 4096;

#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub status: RunStatus,
    pub steps: u64,
    pub timeline: Rc<Timeline>,
    pub findings: Rc<Vec<Finding>>,
    /// Why a run that follows a schedule (a replay) stopped before its end, in the engine's
    /// words.
    pub schedule_stop: Option<AttrValue>,
}

impl Snapshot {
    /// The line the work-item `index` is at, unless it has finished.
    pub fn line_of(&self, index: usize) -> Option<u32> {
        self.timeline.groups.iter().flat_map(|g| g.lanes.iter()).find(|lane| lane.index == index && lane.status != "finished").and_then(|lane| lane.line)
    }
}

/// An event store shared by the snapshots of one run. Equal when it is the same store.
#[derive(Clone, Default)]
pub struct SharedEvents(Rc<RefCell<EventStore>>);

impl SharedEvents {
    pub fn new(store: EventStore) -> SharedEvents {
        SharedEvents(Rc::new(RefCell::new(store)))
    }

    /// The store, to read. Only snapshots extend it, never while a view reads it.
    pub fn borrow(&self) -> Ref<'_, EventStore> {
        self.0.borrow()
    }
}

impl PartialEq for SharedEvents {
    fn eq(&self, other: &SharedEvents) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for SharedEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedEvents({} events)", self.0.borrow().len())
    }
}

/// What a timeline draws besides the events: everything read from the session's analyses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlays {
    /// Each lock's name (`lock`, `locks[0]`), in the engine's order.
    pub lock_names: Vec<String>,
    pub lock_bands: Vec<LockBand>,
    /// Acquires and releases, as (step, work-item, action, lock).
    pub lock_marks: Vec<(u64, u32, LockAction, usize)>,
    /// Changes of lock state beyond what the engine's lock timelines keep.
    pub lock_omitted: u64,
    pub races: Vec<RaceArc>,
    pub stale: Vec<StaleLink>,
    /// Names of the memories: (space, allocation) to the kernel's name.
    pub memory_names: Vec<((Space, u32), String)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// The current step: where the cursor goes.
    pub steps: u64,
    pub groups: Vec<GroupRows>,
    /// Work-items of the launch that have no row because of [`MAX_LANES`].
    pub hidden_lanes: usize,
    /// The run's events: the first `limit` of `events`.
    pub events: SharedEvents,
    pub limit: usize,
    /// Whether the lanes are grouped into warps under each group (CUDA, or lockstep).
    pub warps: bool,
    pub dialect: Option<Dialect>,
    pub lockstep: bool,
    pub source: Rc<str>,
    pub overlays: Rc<Overlays>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GroupRows {
    pub group: usize,
    pub lanes: Vec<Lane>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub index: usize,
    pub label: String,
    pub status: &'static str,
    /// The source line the work-item is at, if it has not finished.
    pub line: Option<u32>,
    /// How many events the work-item has had.
    pub marks: usize,
    /// Its warp, numbered across the launch.
    pub warp: u32,
}

/// The class suffix and tooltip word of an event kind.
pub fn kind_name(kind: EventKind) -> &'static str {
    match kind {
        EventKind::Load => "load",
        EventKind::Store => "store",
        EventKind::Atomic => "atomic",
        EventKind::Fence => "fence",
        EventKind::BarrierArrive => "barrier-arrive",
        EventKind::BarrierRelease => "barrier-release",
        EventKind::Printf => "printf",
        EventKind::Finish => "finish",
        EventKind::AsyncCopy => "async-copy",
        EventKind::Wait => "wait",
        EventKind::Statement => "statement",
        EventKind::Promise => "promise",
    }
}

/// The event store of the run last snapshotted, kept between snapshots so that each one
/// only adds the events since the last.
#[derive(Default)]
pub struct TimelineCache {
    scenario: Option<Scenario>,
    store: Option<SharedEvents>,
    /// The overlays of the last snapshot that read them, with the length of the log they
    /// describe (see [`Overlaying`]); dropped with the store.
    overlays: Option<(Rc<Overlays>, usize)>,
}

/// Whether a snapshot reads its overlays (locks, races, stale reads) from the session anew.
/// Reading them takes time linear in the log (the lock analysis and the stale reads go over
/// all of it), which at hundreds of thousands of events is more than the tenth of a second
/// between two frames of a run at full speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlaying {
    /// Read anew: the view shows the run as it is.
    Fresh,
    /// The last snapshot's overlays may stand in while they describe a prefix of this run's
    /// log (the same store, no step back past them): the caller asks for this while a run
    /// goes, and for [`Overlaying::Fresh`] again often enough, and whenever it stops.
    MayReuse,
}

impl TimelineCache {
    /// The store holding `session`'s events: the cached one, extended, when its events are
    /// a prefix of the session's or the session's are a prefix of it (after a step back);
    /// otherwise a new one.
    fn sync(&mut self, session: &Session, topology: impl FnOnce() -> Topology) -> SharedEvents {
        let log = session.events();
        let same_run = self.scenario.as_ref() == Some(session.scenario());
        let store = self.store.as_ref().filter(|store| same_run && store.borrow().is_prefix_of(log.steps(), log.work_items(), log.kinds()));
        let store = match store {
            Some(store) => store.clone(),
            None => {
                let store = SharedEvents::new(EventStore::new(topology()));
                self.scenario = Some(session.scenario().clone());
                self.store = Some(store.clone());
                // Overlays of another run, or of another path of this one, describe nothing here.
                self.overlays = None;
                store
            }
        };
        {
            let mut events = store.0.borrow_mut();
            for i in events.len()..log.len() {
                let Some(event) = log.get(i) else { break };
                events.push(&event, log.atomic_op(i));
            }
        }
        store
    }
}

/// Reads everything the view needs from `session`; `litmus` is the test the session runs,
/// if it runs one, whose threads then name the lanes.
pub fn take(session: &Session, litmus: Option<&LitmusTest>) -> Snapshot {
    take_with(session, litmus, &mut TimelineCache::default(), Overlaying::Fresh)
}

/// [`take`], reusing the events `cache` holds from the previous snapshot of the same run, and
/// its overlays as `overlaying` allows.
pub fn take_with(session: &Session, litmus: Option<&LitmusTest>, cache: &mut TimelineCache, overlaying: Overlaying) -> Snapshot {
    Snapshot {
        status: session.status(),
        steps: session.steps(),
        timeline: Rc::new(timeline(session, litmus, cache, overlaying)),
        findings: Rc::new(session.findings().to_vec()),
        schedule_stop: session.schedule_stop().map(AttrValue::from),
    }
}

/// A litmus thread's lane label: `P1 (wg 1)`, with its device when the test uses several.
pub fn thread_label(test: &LitmusTest, thread: usize) -> Option<String> {
    let t = test.threads.get(thread)?;
    let devices = test.group_device.iter().any(|&d| d != 0);
    Some(if devices { format!("{} (wg {}, dev {})", t.name, t.work_group, t.device) } else { format!("{} (wg {})", t.name, t.work_group) })
}

fn timeline(session: &Session, litmus: Option<&LitmusTest>, cache: &mut TimelineCache, overlaying: Overlaying) -> Timeline {
    let scenario = session.scenario();
    let dims = scenario.launch.global.len();
    let count = session.work_item_count();
    let shown = count.min(MAX_LANES);
    let lockstep = scenario.scheduler == SchedulerKind::Lockstep;
    let warp_size = scenario.warp_size.max(1);
    // The topology covers every work-item (a store outlives the snapshots that make it);
    // it is only needed when a new store is made.
    let topology = || {
        let group_of = (0..count).map(|i| session.work_item(i).group as u32).collect();
        Topology { lockstep, ..Topology::new(group_of, warp_size) }
    };
    let events = cache.sync(session, topology);
    let store = events.borrow();
    let limit = session.events().len();
    let mut groups: Vec<GroupRows> = Vec::new();
    let mut linear: BTreeMap<[u64; 3], u32> = BTreeMap::new();
    for index in 0..shown {
        let view = session.work_item(index);
        linear.insert(view.global_id, index as u32);
        // A litmus test's work-groups are as large as its largest; the work-items that pad
        // the others run no thread and get no lane.
        let label = match litmus {
            Some(test) => match test.work_item_thread.get(index).copied().flatten() {
                Some(thread) => thread_label(test, thread).unwrap_or_default(),
                None => continue,
            },
            None => lane_label(dims, view.global_id, view.group, view.local_id),
        };
        let lane = Lane {
            index,
            label,
            status: view.status.as_str(),
            line: view.line,
            marks: store.lane(index as u32).map_or(0, |s| s.count(limit)),
            warp: store.topology().warp_of.get(index).copied().unwrap_or(0),
        };
        // Work-items come group by group, so a new group starts whenever the number changes.
        match groups.last_mut() {
            Some(rows) if rows.group == view.group => rows.lanes.push(lane),
            _ => groups.push(GroupRows { group: view.group, lanes: vec![lane] }),
        }
    }
    let overlays = match &cache.overlays {
        Some((kept, at)) if overlaying == Overlaying::MayReuse && *at <= limit => kept.clone(),
        _ => {
            let fresh = Rc::new(overlays(session, &store, limit, &linear));
            cache.overlays = Some((fresh.clone(), limit));
            fresh
        }
    };
    drop(store);
    Timeline {
        steps: session.steps(),
        groups,
        hidden_lanes: count - shown,
        events,
        limit,
        warps: scenario.dialect == Dialect::Cuda || lockstep,
        dialect: Some(scenario.dialect),
        lockstep,
        source: Rc::from(scenario.source.as_str()),
        overlays,
    }
}

/// Locks, races, stale reads and memory names, with work-items as linear indices.
fn overlays(session: &Session, store: &EventStore, limit: usize, linear: &BTreeMap<[u64; 3], u32>) -> Overlays {
    let index = |id: Option<[u64; 3]>| id.and_then(|id| linear.get(&id).copied());
    let mut out = Overlays::default();
    let finished_at = |wi: u32| store.finished_at(wi, limit);
    for (k, lock) in session.locks().into_iter().enumerate() {
        let changes: Vec<LockChange> =
            lock.timeline.iter().map(|c| LockChange { step: c.step, work_item: index(Some(c.work_item)), action: c.what, holder: index(c.holder) }).collect();
        out.lock_bands.extend(lock_bands(k, &changes, &finished_at));
        out.lock_marks.extend(changes.iter().filter_map(|c| {
            let wi = c.work_item?;
            (c.action != LockAction::Attempt).then_some((c.step, wi, c.action, k))
        }));
        out.lock_omitted += lock.timeline_omitted;
        out.lock_names.push(lock.location);
    }
    for finding in session.findings() {
        if finding.kind != FindingKind::DataRace {
            continue;
        }
        let Some(related) = finding.related.first() else {
            continue;
        };
        let second = finding.step.zip(index(finding.work_item));
        let first = related.step.zip(index(related.work_item));
        if let (Some(first), Some(second)) = (first, second) {
            out.races.push(RaceArc { first, second });
        }
    }
    for stale in session.stale_reads() {
        let Some(wi) = index(Some(stale.work_item)) else {
            continue;
        };
        let from = stale.written_at.and_then(|step| {
            let event = store.first_at(step, limit)?;
            Some((step, store.event(event)?.work_item))
        });
        out.stale.push(StaleLink { load: (stale.step, wi), from, newer_at: stale.newer_at });
    }
    for (memory, name) in session.memories() {
        let key = (memory.space, memory.alloc);
        // Every group's local memory has the same names; one is enough.
        if !out.memory_names.iter().any(|(k, _)| *k == key) {
            out.memory_names.push((key, name));
        }
    }
    out
}

/// The tooltip of event `event` of `timeline`: its step and work-item, what it did in the
/// source with the values it moved, the memory it touched, and what the engine's analyses
/// say about it (a race, a stale read, a lock).
pub fn describe(timeline: &Timeline, event: usize) -> Option<String> {
    if event >= timeline.limit {
        return None;
    }
    let store = timeline.events.borrow();
    let e = store.event(event)?;
    let label =
        |wi: u32| timeline.groups.iter().flat_map(|g| &g.lanes).find(|l| l.index == wi as usize).map_or_else(|| format!("work-item {wi}"), |l| l.label.clone());
    let source = &*timeline.source;
    let lines = LineIndex::new(source);
    // The location gets a line of its own, with the memory's name.
    let title = mark_title(&Event { location: None, ..e }, store.atomic_op(event), source, &lines);
    let mut text = vec![format!("{title} · {}", label(e.work_item))];
    let overlays = &timeline.overlays;
    if let Some(loc) = e.location {
        let space = format!("{:?}", loc.space).to_lowercase();
        let name = overlays.memory_names.iter().find(|(k, _)| *k == (loc.space, loc.alloc)).map(|(_, n)| n.as_str());
        text.push(match name {
            Some(name) => format!("{space} memory {name}, byte {}", loc.offset),
            None => format!("{space} memory #{}, byte {}", loc.alloc, loc.offset),
        });
    }
    let here = (e.step, e.work_item);
    for race in &overlays.races {
        let other = if race.first == here {
            race.second
        } else if race.second == here {
            race.first
        } else {
            continue;
        };
        text.push(format!("data race with {} at step {}", label(other.1), other.0));
    }
    for stale in overlays.stale.iter().filter(|s| s.load == here) {
        let from = match stale.from {
            Some((step, wi)) => format!("the write of {} at step {step}", label(wi)),
            None => "the initial value".to_string(),
        };
        let newer = stale.newer_at.map(|s| format!(", not the newer one of step {s}")).unwrap_or_default();
        text.push(format!("read an older value: {from}{newer}"));
    }
    for &(step, wi, action, lock) in &overlays.lock_marks {
        if (step, wi) == here {
            let verb = if action == LockAction::Acquire { "acquires" } else { "releases" };
            let name = overlays.lock_names.get(lock).map_or("", String::as_str);
            text.push(format!("{verb} the lock {name}"));
        }
    }
    Some(text.join("\n"))
}

/// `wi 5 (g1·l1)` for one dimension, `wi (1,2) (g0·l(1,2))` for more.
pub fn lane_label(dims: usize, global_id: [u64; 3], group: usize, local_id: [u64; 3]) -> String {
    let ids = |id: [u64; 3]| match dims {
        0 | 1 => id[0].to_string(),
        2 => format!("({},{})", id[0], id[1]),
        _ => format!("({},{},{})", id[0], id[1], id[2]),
    };
    format!("wi {} (g{}·l{})", ids(global_id), group, ids(local_id))
}

/// `step 12: store ids[gid] = 1 (line 9)`: the event (an atomic with its operation `op`), the
/// source text it came from and the values it moved (raw bits, shown as integers).
pub fn mark_title(event: &Event, op: Option<AtomicOp>, source: &str, lines: &LineIndex) -> String {
    let kind = kind_name(event.kind);
    let text = span_text(source, event.span.start as usize, event.span.end as usize);
    let what = match (event.kind, op) {
        (EventKind::Load, _) => format!("{kind} {text} → {}", event.read as i64),
        (EventKind::Store, _) => format!("{kind} {text} = {}", event.written as i64),
        // A load shows what it read alone: under the relaxed model that may be older than
        // what memory holds, which its event's written value is.
        (EventKind::Atomic, Some(AtomicOp::Load)) => format!("{kind} {text} → {}", event.read as i64),
        (EventKind::Atomic, Some(AtomicOp::Store)) => format!("{kind} {text} = {}", event.written as i64),
        (EventKind::Atomic, _) => format!("{kind} {text}: {} → {}", event.read as i64, event.written as i64),
        _ if text.is_empty() => kind.to_string(),
        _ => format!("{kind} {text}"),
    };
    let location = event.location.map(|loc| format!(" [{:?} #{} +{}]", loc.space, loc.alloc, loc.offset).to_lowercase()).unwrap_or_default();
    if event.span.end > event.span.start {
        let (line, _) = lines.line_col(source, event.span.start);
        format!("step {}: {what}{location} (line {line})", event.step)
    } else {
        format!("step {}: {what}{location}", event.step)
    }
}

/// The source text of a span on one line, shortened for a tooltip.
fn span_text(source: &str, start: usize, end: usize) -> String {
    let Some(text) = source.get(start.min(end)..end.min(source.len())) else {
        return String::new();
    };
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(39).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::diag::Span;
    use interleave_engine::trace::{Location, Space};

    #[test]
    fn labels_name_the_global_group_and_local_ids() {
        assert_eq!(lane_label(1, [5, 0, 0], 1, [1, 0, 0]), "wi 5 (g1·l1)");
        assert_eq!(lane_label(2, [1, 2, 0], 0, [1, 2, 0]), "wi (1,2) (g0·l(1,2))");
    }

    #[test]
    fn titles_show_the_step_the_source_and_the_line() {
        let source = "int x;\n    ids[gid] = lid;\n";
        let start = source.find("ids").unwrap() as u32;
        let event = Event {
            step: 12,
            work_item: 5,
            kind: EventKind::Store,
            location: Some(Location { space: Space::Global, alloc: 0, offset: 20 }),
            read: 0,
            written: 1,
            span: Span::new(start, start + 8),
            order: None,
            scope: None,
        };
        let title = mark_title(&event, None, source, &LineIndex::new(source));
        assert_eq!(title, "step 12: store ids[gid] = 1 [global #0 +20] (line 2)");
    }

    /// An atomic's title shows the values its operation moved: a load only what it read,
    /// which under the relaxed model may be older than what memory holds (the event's written
    /// value), a store what it wrote, a read-modify-write both.
    #[test]
    fn atomic_titles_show_what_their_operation_moved() {
        let source = "f(x);\n";
        let event =
            Event { step: 3, work_item: 1, kind: EventKind::Atomic, location: None, read: 3, written: 4, span: Span::new(0, 4), order: None, scope: None };
        let lines = LineIndex::new(source);
        assert_eq!(mark_title(&event, Some(AtomicOp::Load), source, &lines), "step 3: atomic f(x) → 3 (line 1)");
        assert_eq!(mark_title(&event, Some(AtomicOp::Store), source, &lines), "step 3: atomic f(x) = 4 (line 1)");
        assert_eq!(mark_title(&event, Some(AtomicOp::Add), source, &lines), "step 3: atomic f(x): 3 → 4 (line 1)");
    }

    #[test]
    fn a_fresh_session_has_every_lane_grouped_and_one_step_one_mark() {
        let form = crate::form::validate(&crate::inputs::Inputs::default());
        let scenario = form.scenario.expect("the default form is valid");
        let mut session = Session::new((*scenario).clone()).expect("the example compiles");
        let fresh = take(&session, None);
        assert_eq!(fresh.status, RunStatus::Running);
        let lanes: Vec<usize> = fresh.timeline.groups.iter().map(|g| g.lanes.len()).collect();
        assert_eq!(lanes, [4, 4]);
        assert_eq!(fresh.timeline.groups[1].lanes[1].label, "wi 5 (g1·l1)");
        assert!(session.step());
        let stepped = take(&session, None);
        assert_eq!(total_marks(&stepped.timeline), 1);
        assert_eq!(stepped.steps, 1);
        assert_eq!(stepped.timeline.limit, 1);
    }

    /// Every lane's events, added up.
    fn total_marks(timeline: &Timeline) -> usize {
        timeline.groups.iter().flat_map(|g| &g.lanes).map(|l| l.marks).sum()
    }

    fn default_session() -> Session {
        let form = crate::form::validate(&crate::inputs::Inputs::default());
        let scenario = form.scenario.expect("the default form is valid");
        Session::new((*scenario).clone()).expect("the example compiles")
    }

    #[test]
    fn snapshots_of_one_run_share_one_store_and_only_extend_it() {
        let mut session = default_session();
        let mut cache = TimelineCache::default();
        session.run(5);
        let first = take_with(&session, None, &mut cache, Overlaying::Fresh);
        session.run(5);
        let second = take_with(&session, None, &mut cache, Overlaying::Fresh);
        assert_eq!(first.timeline.events, second.timeline.events, "one store");
        assert!(first.timeline.limit < second.timeline.limit);
        // Stepping back only lowers the limit; the store is the same.
        session.seek(3);
        let back = take_with(&session, None, &mut cache, Overlaying::Fresh);
        assert_eq!(back.timeline.events, second.timeline.events);
        assert_eq!(back.timeline.limit, session.events().len());
        // The snapshot's marks are those of its own steps.
        assert_eq!(total_marks(&back.timeline), session.events().len());
        // A different path from there (a work-item stepped by hand) is a new store, and so is
        // another run.
        let other = (0..8)
            .find(|&wi| {
                let next = session.events().len();
                let expected = second.timeline.events.borrow().event(next).map(|e| e.work_item);
                expected != Some(wi) && session.work_item(wi as usize).status == interleave_engine::session::WorkItemStatus::Ready
            })
            .expect("some other work-item is ready");
        assert!(session.step_work_item(other as usize));
        let diverged = take_with(&session, None, &mut cache, Overlaying::Fresh);
        assert_ne!(diverged.timeline.events, second.timeline.events);
        let store = diverged.timeline.events.borrow();
        let log = session.events();
        assert_eq!(store.len(), log.len());
        assert!((0..log.len()).all(|i| store.event(i).map(|e| (e.step, e.work_item, e.kind)) == log.get(i).map(|e| (e.step, e.work_item, e.kind))));
    }

    #[test]
    fn overlays_stand_in_only_for_a_prefix_of_the_same_path() {
        let mut session = default_session();
        session.run(u64::MAX);
        let end = session.steps();
        session.seek(end / 2);
        let mut cache = TimelineCache::default();
        let half = take_with(&session, None, &mut cache, Overlaying::Fresh);
        session.seek(end);
        // Kept while the run goes on along the same path: they describe a prefix of its log.
        let kept = take_with(&session, None, &mut cache, Overlaying::MayReuse);
        assert!(Rc::ptr_eq(&kept.timeline.overlays, &half.timeline.overlays));
        // Read anew when asked, and then they are the ones a fresh snapshot reads.
        let fresh = take_with(&session, None, &mut cache, Overlaying::Fresh);
        assert!(!Rc::ptr_eq(&fresh.timeline.overlays, &half.timeline.overlays));
        assert_eq!(*fresh.timeline.overlays, *take(&session, None).timeline.overlays);
        assert!(!fresh.timeline.overlays.races.is_empty(), "the full run's race is among them");
        // Not past a step back: what they describe may no longer have happened.
        session.seek(end / 2);
        let back = take_with(&session, None, &mut cache, Overlaying::MayReuse);
        assert!(!Rc::ptr_eq(&back.timeline.overlays, &fresh.timeline.overlays));
        assert_eq!(*back.timeline.overlays, *half.timeline.overlays);
        // Nor for another run.
        let mut other = default_session();
        other.run(3);
        let elsewhere = take_with(&other, None, &mut cache, Overlaying::MayReuse);
        assert_eq!(*elsewhere.timeline.overlays, *take(&other, None).timeline.overlays);
    }

    #[test]
    fn the_lost_update_race_is_an_arc_and_tooltips_name_it() {
        let mut session = default_session();
        session.run(u64::MAX);
        let snapshot = take(&session, None);
        let timeline = &snapshot.timeline;
        assert!(!timeline.overlays.races.is_empty(), "count.cl races");
        let race = timeline.overlays.races[0];
        let store = timeline.events.borrow();
        let event = store.event_at(race.second.1, race.second.0, timeline.limit).expect("the race's access is an event");
        drop(store);
        let text = describe(timeline, event).expect("a tooltip");
        assert!(text.starts_with(&format!("step {}:", race.second.0)), "{text}");
        assert!(text.contains("data race with wi "), "{text}");
        assert!(text.contains("global memory "), "{text}");
        assert!(describe(timeline, timeline.limit).is_none(), "beyond the snapshot");
        // count.cl meets at a barrier in each group: the store has released episodes.
        let store = timeline.events.borrow();
        let released = store.episodes(timeline.limit, 0..u64::MAX).into_iter().filter(|e| e.release.is_some()).count();
        assert!(released >= 2, "{released}");
    }

    #[test]
    fn lock_holders_and_waiters_become_bands() {
        let text = include_str!("../../static/examples/flag_mutex_product.toml");
        let scenario = interleave_engine::scenario::from_toml(text, |_| {
            Ok((include_str!("../../static/examples/flag_mutex_product.cl").to_string(), "flag_mutex_product.cl".to_string()))
        })
        .expect("the example's scenario reads");
        let mut session = Session::new(scenario).expect("the example compiles");
        session.run(u64::MAX);
        let snapshot = take(&session, None);
        let overlays = &snapshot.timeline.overlays;
        assert_eq!(overlays.lock_names, ["lock"]);
        let held = overlays.lock_bands.iter().filter(|b| b.held).count();
        let acquires = overlays.lock_marks.iter().filter(|m| m.2 == LockAction::Acquire).count();
        // One group leader per group takes the lock once, and each hold is a band that ends.
        assert_eq!(acquires, 4);
        assert_eq!(held, 4);
        assert!(overlays.lock_bands.iter().all(|b| b.to.is_some()));
        for band in &overlays.lock_bands {
            assert_eq!(band.work_item % 4, 0, "only group leaders take the lock");
        }
    }

    #[test]
    fn a_stale_read_links_to_the_write_it_read() {
        // Message passing under the relaxed model: some seed reads the flag set and the data
        // old; its stale read is linked to the initial value or to the write it read.
        let source = include_str!("../../static/examples/litmus/mp.litmus");
        let test = interleave_engine::litmus::parse(source).expect("parses");
        let found = (0..400).find_map(|seed| {
            let mut scenario = interleave_engine::scenario::Scenario::new(source, "mp.litmus", interleave_engine::scenario::Dialect::Litmus);
            scenario.memory_model = interleave_engine::scenario::MemoryModel::Relaxed;
            scenario.seed = seed;
            let mut session = Session::new(scenario).ok()?;
            session.run(u64::MAX);
            let snapshot = take(&session, Some(&test));
            (!snapshot.timeline.overlays.stale.is_empty()).then_some(snapshot)
        });
        let snapshot = found.expect("some seed reads a stale value");
        let link = snapshot.timeline.overlays.stale[0];
        let store = snapshot.timeline.events.borrow();
        let load = store.event_at(link.load.1, link.load.0, snapshot.timeline.limit).and_then(|e| store.event(e)).expect("the load is an event");
        // The test's loads are atomic loads.
        assert!(matches!(load.kind, EventKind::Load | EventKind::Atomic), "{load:?}");
        if let Some((step, wi)) = link.from {
            let write = store.event_at(wi, step, snapshot.timeline.limit).and_then(|e| store.event(e));
            assert!(write.is_some_and(|w| w.location == load.location), "{write:?}");
        }
        let index = store.event_at(link.load.1, link.load.0, snapshot.timeline.limit).unwrap();
        drop(store);
        let text = describe(&snapshot.timeline, index).unwrap();
        assert!(text.contains("read an older value"), "{text}");
    }

    #[test]
    fn a_litmus_test_has_one_lane_per_thread() {
        // IRIW's four threads share one work-group; 2+2W's two sit in groups of their own,
        // and a test with a group of two and a group of one pads the second.
        let source = "OPENCL padded\n{ [x]=0; }\n\
            P0@wg 0, dev 0 (global atomic_int* x) { atomic_store_explicit(x, 1, memory_order_relaxed); }\n\
            P1@wg 0, dev 0 (global atomic_int* x) { int r0 = atomic_load_explicit(x, memory_order_relaxed); }\n\
            P2@wg 1, dev 0 (global atomic_int* x) { int r1 = atomic_load_explicit(x, memory_order_relaxed); }\n\
            exists (1:r0=1)\n";
        let test = interleave_engine::litmus::parse(source).expect("parses");
        let scenario = interleave_engine::scenario::Scenario::new(source, "t.litmus", interleave_engine::scenario::Dialect::Litmus);
        let mut session = Session::new(scenario).expect("runs");
        assert_eq!(session.work_item_count(), 4);
        session.run(u64::MAX);
        let snapshot = take(&session, Some(&test));
        let labels: Vec<Vec<&str>> = snapshot.timeline.groups.iter().map(|g| g.lanes.iter().map(|l| l.label.as_str()).collect()).collect();
        assert_eq!(labels, [vec!["P0 (wg 0)", "P1 (wg 0)"], vec!["P2 (wg 1)"]]);
        let lanes = snapshot.timeline.groups.iter().flat_map(|g| &g.lanes);
        assert!(lanes.clone().all(|lane| lane.marks > 0));
    }

    #[test]
    fn long_spans_are_shortened() {
        let long = "a ".repeat(60);
        assert!(span_text(&long, 0, long.len()).ends_with('…'));
        assert_eq!(span_text("abc", 5, 9), "");
    }
}
