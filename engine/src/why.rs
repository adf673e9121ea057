//! Why a finding happened: the two accesses of a data race (or the read of an outcome the
//! sequentially consistent model would not allow and the write it missed), the edges between
//! them that exist, and the one that is missing, in words.
//!
//! Edges are drawn as herd and CppMem draw execution graphs: program order (`po`) within a
//! work-item, reads-from (`rf`) from a write to the read that read it, synchronises-with
//! (`sw`) from a release to an acquire that reads it (through fences, and only when their
//! scopes include each other), coherence (`co`) between writes of one location, from-read
//! (`fr`) from a read to a write that overwrote what it read, and `barrier` between two
//! arrivals of one work-group at one barrier.
//!
//! Everything is read from the run's event log after the fact (a pure analysis, never on the
//! interpreter's path): which atomics, fences and barriers each work-item performed between the
//! two accesses, and which write each read read (the latest write before it in the log, or the
//! older one the relaxed model recorded as a stale read). The detector's verdict stays the race
//! detector's; this says which edges the log shows and what the missing one would have been.
//! Scans are bounded (`WINDOW` events, `MAX_SYNC` actions per work-item), so a long run costs
//! little, and a log that lacks an event yields fewer edges, never a panic.

use crate::concurrency::race::{GLOBAL, LOCAL};
use crate::diag::Diagnostic;
use crate::ir::{fence, AtomicOp, Level, Order, Scope};
use crate::report::{Access, Edge, EdgeKind, Explanation, Point, Report};
use crate::session::{Prepared, Session};
use crate::trace::{Event, EventKind, Location, Space};
use std::cell::RefCell;
use std::collections::HashMap;

/// How far back a read's write, or between two accesses a work-item's actions, are looked for.
const WINDOW: usize = 100_000;
/// The most synchronising actions of one work-item looked at between two accesses.
const MAX_SYNC: usize = 8;
/// The most read-modify-writes followed back along a release sequence.
const MAX_HOPS: usize = 64;

/// The report of the session's run so far with the explanations of its data races, scope
/// mismatches and stale reads (the `interleave run --json` object).
pub fn report(s: &Session) -> Report {
    let mut report = s.report();
    annotate(s, &mut report);
    report
}

/// Runs `session` to its end and gives its report with the explanations ([`report`]), the
/// one a session that keeps every event would give. A session of `prepared` started keeping
/// no events but atomics ([`Prepared::keep_events`]) runs until something asks for an event
/// it did not keep ([`crate::trace::EventLog::missed`]): a race, a scope mismatch, a hang, a
/// lock, a stale read or a warp's divergence, whose findings and explanations are read from
/// the log. Then the run starts over from the launch, with the same seed, keeping them.
/// Until that first read nothing differs between the two runs but what the log keeps, so a
/// run with nothing to explain pays for no log, and one with something pays at most for
/// running twice as far as that first read. The lock analysis reads at the run's end, so a
/// run whose atomics show a location that may be a lock ([`crate::locks::Watch`]) starts over
/// then, after at most [`FORGETTING_CHUNK`] more steps.
pub fn finish(session: &mut Session, prepared: &Prepared) -> Result<Report, Vec<Diagnostic>> {
    loop {
        // A lock's analysis reads every event of the run at its end: a run that may have one
        // starts over as soon as its atomics show it, not after running to its end.
        let mut locks = crate::locks::Watch::default();
        let mut must_keep =
            |s: &Session| s.machine().log.missed() || (s.forgets_events() && locks.may_need_events(&s.machine().log, &crate::locks::group_of(s.machine())));
        // A run that takes fewer steps than it may has ended, or cannot go on (a manual
        // schedule that ran out).
        while !must_keep(session) && session.run(FORGETTING_CHUNK) == FORGETTING_CHUNK {}
        if !must_keep(session) {
            let report = report(session);
            if !session.machine().log.missed() {
                return Ok(report);
            }
        }
        let mut keeping = prepared.clone();
        keeping.keep_events = true;
        *session = Session::start(&keeping, session.scenario().seed)?;
    }
}

/// How many steps [`finish`] takes between looks at whether its log missed an event: a run
/// that must start over wastes at most this many steps past the first miss.
const FORGETTING_CHUNK: u64 = 4096;

/// How many of a run's stale reads its report explains: the first ones, in the order they
/// were made; the others are listed without an explanation. A spin under the relaxed model can
/// read an older write at nearly every step, and an explanation reads up to `WINDOW` events
/// of the log, so explaining every one made the report of a long spin cost time quadratic in
/// the run's length (more than an hour for a million steps).
pub const EXPLAINED_STALE_READS: usize = 32;

/// Fills in the explanations of a report's data races, scope mismatches and stale reads.
fn annotate(s: &Session, report: &mut Report) {
    // One graph for all of them, so that what it indexes of the log is indexed once.
    let g = Graph::new(s);
    for (k, f) in report.findings.iter_mut().enumerate() {
        f.explanation = race_finding(&g, k);
    }
    // The report lists the stale reads whose load the log holds (`Session::stale_reads`), so
    // the same ones are paired with them here.
    let log = &s.machine().log;
    let listed = s.machine().weak.stale.iter().filter(|read| log.get(read.event as usize).is_some());
    for (view, read) in report.stale_reads.iter_mut().zip(listed).take(EXPLAINED_STALE_READS) {
        view.explanation = stale_read(&g, read);
    }
}

/// The explanation of the session's finding number `k` (counted from 0 in the order of
/// `Session::findings`), if it is one that has one.
pub fn finding(s: &Session, k: usize) -> Option<Explanation> {
    race_finding(&Graph::new(s), k)
}

fn race_finding(g: &Graph, k: usize) -> Option<Explanation> {
    let record = g.s.machine().races.records.iter().find(|r| r.finding == Some(k))?;
    race(g, record.first as usize, record.second as usize, record.why)
}

/// The explanation of an outcome: that of each read the relaxed model let read an older
/// write, joined (`None` when every read read the latest write).
pub fn outcome(s: &Session) -> Option<Explanation> {
    let mut all: Option<Explanation> = None;
    let weak = &s.machine().weak;
    let g = Graph::new(s);
    let stale = weak.stale.iter().take(4).filter_map(|read| stale_read(&g, read));
    let early = weak.early.iter().take(4).filter_map(|read| early_read(&g, read));
    for e in stale.chain(early) {
        match &mut all {
            None => all = Some(e),
            Some(a) => {
                // A spin re-reads one older write many times: each read says the same, once.
                let same_access = |x: &Access, y: &Access| (x.line, x.column, x.work_item, &x.text) == (y.line, y.column, y.work_item, &y.text);
                let same_point = |x: &Point, y: &Point| (x.line, x.column, x.work_item) == (y.line, y.column, y.work_item);
                let same_edge = |x: &Edge, y: &Edge| x.kind == y.kind && same_point(&x.from, &y.from) && same_point(&x.to, &y.to) && x.text == y.text;
                let accesses: Vec<Access> = e.accesses.into_iter().filter(|x| !a.accesses.iter().any(|y| same_access(x, y))).collect();
                a.accesses.extend(accesses);
                let new: Vec<Edge> = e.edges.into_iter().filter(|x| !a.edges.iter().any(|y| same_edge(x, y))).collect();
                a.edges.extend(new);
                if !a.missing.split("; and ").any(|m| m == e.missing) {
                    a.missing = format!("{}; and {}", a.missing, e.missing);
                }
            }
        }
    }
    all
}

/// The explanation of a data race between events `first` and `second` of the log, `why` the
/// detector's words for what was missing.
fn race(g: &Graph, first: usize, second: usize, why: &str) -> Option<Explanation> {
    let log = &g.s.machine().log;
    let (a, b) = (log.get(first)?, log.get(second)?);
    let accesses = vec![g.access(&a, &g.verb(&a)), g.access(&b, &g.verb(&b))];
    // An async copy's elements are written by its group's copy engine: what orders them is
    // the copy's start and its wait, not the issuer's own actions.
    let copy = a.kind == EventKind::AsyncCopy || b.kind == EventKind::AsyncCopy;
    let mut chain = if copy { Chain::default() } else { g.chain(first, second) };
    if copy {
        chain.facts.push(g.copy_fact(first, second, &a, &b));
    }
    let missing = if chain.facts.is_empty() { why.to_string() } else { chain.facts.join("; ") };
    Some(Explanation { accesses, edges: chain.edges, missing })
}

/// The explanation of one read that read an older write than the latest.
fn stale_read(g: &Graph, read: &crate::concurrency::weak::StaleRead) -> Option<Explanation> {
    let log = &g.s.machine().log;
    let (ri, li) = (read.event as usize, read.latest as usize);
    let (r, latest) = (log.get(ri)?, log.get(li)?);
    let from = log.get(read.read_from as usize);
    let value = r.read as i64;
    let mut edges = Vec::new();
    let mut accesses = vec![g.access(&latest, &format!("work-item {} writes {}", g.id(&latest)[0], g.name(&latest)))];
    accesses.push(g.access(&r, &format!("work-item {} reads {} = {value}", g.id(&r)[0], g.name(&r))));
    let what = match &from {
        Some(w) => {
            edges.push(g.edge(EdgeKind::Rf, w, &r, format!("it reads the value written at line {}", g.line(w))));
            edges.push(g.edge(EdgeKind::Co, w, &latest, format!("the write at line {} comes later in coherence order", g.line(&latest))));
            format!("the value written at line {}", g.line(w))
        }
        None => "the initial value".to_string(),
    };
    edges.push(g.edge(EdgeKind::Fr, &r, &latest, format!("it reads {what}, which the write at line {} overwrites", g.line(&latest))));
    let mut chain = g.chain(li, ri);
    edges.append(&mut chain.edges);
    let reason = if chain.facts.is_empty() { "nothing orders the write before the read".to_string() } else { chain.facts.join("; ") };
    let missing = format!(
        "the read at line {} may read {what} instead of the write at line {} because no happens-before edge leads from that write to it: {reason}",
        g.line(&r),
        g.line(&latest)
    );
    Some(Explanation { accesses, edges, missing })
}

/// The explanation of one read that read a write its writer had only promised: the write
/// comes after an access of its own work-item in program order, and was seen before it.
fn early_read(g: &Graph, read: &crate::concurrency::weak::EarlyRead) -> Option<Explanation> {
    let log = &g.s.machine().log;
    let (ri, pi) = (read.event as usize, read.promise as usize);
    let (r, promise) = (log.get(ri)?, log.get(pi)?);
    // The write that kept the promise: its work-item's first write after it to the place,
    // with the promised value.
    let (wi, w) = (pi + 1..log.len().min(pi.saturating_add(WINDOW)))
        .filter_map(|i| log.get(i).map(|e| (i, e)))
        .find(|(i, e)| e.work_item == promise.work_item && e.location == promise.location && g.writes(*i, e) && e.written == promise.written)?;
    // The access the write overtook: the last one its work-item made between promising the
    // write and making it, which comes before the write in program order.
    let before = (pi + 1..wi)
        .rev()
        .filter_map(|i| log.get(i).map(|e| (i, e)))
        .find(|(_, e)| e.work_item == w.work_item && e.location.is_some() && matches!(e.kind, EventKind::Load | EventKind::Store | EventKind::Atomic));
    let writer = g.id(&w)[0];
    let value = r.read as i64;
    let accesses = vec![
        g.access(&w, &format!("work-item {writer} writes {}", g.name(&w))),
        g.access(&r, &format!("work-item {} reads {} = {value}", g.id(&r)[0], g.name(&r))),
    ];
    let mut edges = vec![g.edge(EdgeKind::Rf, &w, &r, format!("it reads the value written at line {}, before that write was made", g.line(&w)))];
    let missing = match before {
        Some((bi, b)) => {
            edges.push(g.edge(EdgeKind::Po, &b, &w, format!("work-item {writer} accesses {} at line {} before this write", g.name(&b), g.line(&b))));
            // Only a read can be an acquire.
            let reads = b.kind == EventKind::Load || g.atomic(bi, &b).is_some_and(|op| op != AtomicOp::Store);
            let acquire = if reads { format!("an acquire at line {}, ", g.line(&b)) } else { String::new() };
            format!(
                "the read at line {} saw the write at line {} before work-item {writer}'s access at line {}, which comes first in its program: \
                 a relaxed write to one place may be seen before the work-item's earlier accesses to others, and nothing holds it back \
                 ({acquire}a release at line {}, or a fence between them would)",
                g.line(&r),
                g.line(&w),
                g.line(&b),
                g.line(&w)
            )
        }
        None => format!("the read at line {} saw the write at line {} before it was made: nothing holds a relaxed write back", g.line(&r), g.line(&w)),
    };
    Some(Explanation { accesses, edges, missing })
}

/// The edges found between two accesses, and what is missing, sentence by sentence.
#[derive(Default)]
struct Chain {
    edges: Vec<Edge>,
    facts: Vec<String>,
}

/// A signal sent too early, in words (`Graph::early_signal`).
struct Early {
    read_first: bool,
    text: String,
}

/// An atomic read that let a work-item go on, with the write it read and, when another member
/// of its work-group read it, the barrier they passed.
struct Signal {
    read_index: usize,
    read: Event,
    write_index: usize,
    write: Event,
    hop: Option<Event>,
}

/// A synchronising action of a work-item, as the chain needs it.
#[derive(Clone, Copy)]
struct Action {
    index: usize,
    event: Event,
}

/// A read that may have carried the first work-item's write to the second: the read, its
/// work-item's actions, and for a member of the second's work-group the hop through the
/// barrier (the member's arrival there and the second work-item's).
type Reader = (Action, Vec<Action>, Option<(Event, Event)>);

/// A location of the log as `why` keys it: the place, and the work-group whose copy it is
/// for local memory (0 otherwise).
type Key = (Location, u32);

/// Reads the session's log and machine.
struct Graph<'a> {
    s: &'a Session,
    /// For each location (with the work-group whose copy it is, for local memory) asked
    /// about, the writes that set its value in the part of the log looked at so far
    /// (`read_from`), so that no part of the log is looked at twice for one location.
    writes: RefCell<HashMap<Key, ValueWrites>>,
}

/// The writes that set a location's value at log indices `from..to`, every one of them, in
/// order. The range grows as questions need: a read's latest write is usually near it, so
/// the range reaches back by doubling stretches until one is found (or the window ends).
struct ValueWrites {
    from: usize,
    to: usize,
    at: Vec<u32>,
}

/// The first stretch `ValueWrites` reaches back by.
const FIRST_STRETCH: usize = 1024;

impl<'a> Graph<'a> {
    fn new(s: &'a Session) -> Graph<'a> {
        Graph { s, writes: RefCell::default() }
    }
}

impl Graph<'_> {
    fn id(&self, e: &Event) -> [u64; 3] {
        let m = self.s.machine();
        let Some(item) = m.items.get(e.work_item as usize) else { return [e.work_item as u64, 0, 0] };
        let first = m.groups.get(item.group as usize).map_or(0, |g| g.first);
        m.geometry.global_id(item.group, e.work_item.saturating_sub(first))
    }

    /// Whether the kernel has a barrier of any kind (work-group, named or a collective that
    /// synchronises), wherever it is.
    fn kernel_has_barrier(&self) -> bool {
        use crate::ir::{CollectiveOp, Instr};
        self.s.machine().program.functions.iter().flat_map(|f| &f.code).any(|i| {
            matches!(
                i,
                Instr::Barrier { .. }
                    | Instr::NamedBarrier { .. }
                    | Instr::Collective { op: CollectiveOp::Sync | CollectiveOp::Count | CollectiveOp::All | CollectiveOp::Any, .. }
            )
        })
    }

    fn group(&self, wi: u32) -> Option<u32> {
        self.s.machine().items.get(wi as usize).map(|i| i.group)
    }

    fn device(&self, wi: u32) -> u32 {
        self.s.machine().races.agent_device.get(wi as usize).copied().unwrap_or(0)
    }

    fn line(&self, e: &Event) -> u32 {
        self.s.line_col(e.span).0
    }

    fn point(&self, e: &Event) -> Point {
        let (line, column) = self.s.line_col(e.span);
        Point { line, column, work_item: self.id(e), step: e.step }
    }

    fn access(&self, e: &Event, text: &str) -> Access {
        let p = self.point(e);
        Access { line: p.line, column: p.column, work_item: p.work_item, step: p.step, text: text.to_string() }
    }

    fn edge(&self, kind: EdgeKind, from: &Event, to: &Event, text: String) -> Edge {
        Edge { kind, from: self.point(from), to: self.point(to), text }
    }

    /// The location an event touched, as the kernel names it.
    fn name(&self, e: &Event) -> String {
        match e.location {
            Some(loc) => {
                let group = (loc.space == Space::Local).then(|| self.group(e.work_item)).flatten();
                format!("`{}`", crate::locks::name_location(self.s.machine(), loc, group))
            }
            None => "memory".to_string(),
        }
    }

    fn verb(&self, e: &Event) -> String {
        let who = self.id(e)[0];
        let name = self.name(e);
        match e.kind {
            EventKind::Load => format!("work-item {who} reads {name}"),
            EventKind::Atomic => format!("work-item {who} accesses {name} atomically{}", self.order_text(e)),
            EventKind::AsyncCopy => format!("the async copy started by work-item {who} writes {name}"),
            _ => format!("work-item {who} writes {name}"),
        }
    }

    fn order_text(&self, e: &Event) -> String {
        let Some(order) = e.order else { return String::new() };
        format!(" ({}, {})", order.name(), scope_name(e.scope.map_or(Level::System, Scope::level)))
    }

    /// The location key of an event: local memory is one copy per work-group.
    fn key(&self, e: &Event) -> Option<Key> {
        let loc = e.location?;
        let owner = if loc.space == Space::Local { self.group(e.work_item).unwrap_or(0) } else { 0 };
        Some((loc, owner))
    }

    /// Whether event `index` (`e`) is an atomic of the program (not the heap's).
    fn atomic(&self, index: usize, e: &Event) -> Option<AtomicOp> {
        (e.kind == EventKind::Atomic).then(|| self.s.machine().log.atomic_op(index)).flatten()
    }

    fn writes(&self, index: usize, e: &Event) -> bool {
        match e.kind {
            EventKind::Store | EventKind::AsyncCopy => e.location.is_some(),
            EventKind::Atomic => self.atomic(index, e).is_some_and(|op| op != AtomicOp::Load),
            _ => false,
        }
    }

    fn reads(&self, index: usize, e: &Event) -> bool {
        match e.kind {
            EventKind::Load => true,
            EventKind::Atomic => self.atomic(index, e).is_some_and(|op| op != AtomicOp::Store),
            _ => false,
        }
    }

    /// The write read at event `index`: the older write the relaxed model recorded, or else
    /// the latest write of the location before it (`None`: the initial value, or too far back).
    fn read_from(&self, index: usize, e: &Event) -> Option<(usize, Event)> {
        let m = self.s.machine();
        // The stale reads are in the order of their loads' events (`Weak::stale`).
        let stale = &m.weak.stale;
        let at = stale.partition_point(|st| (st.event as usize) < index);
        if let Some(st) = stale.get(at).filter(|st| st.event as usize == index) {
            return m.log.get(st.read_from as usize).map(|w| (st.read_from as usize, w));
        }
        let key = self.key(e)?;
        let i = self.last_value_write(key, index)?;
        m.log.get(i).map(|w| (i, w))
    }

    /// The latest write that set `key`'s value at a log index before `index`, within the
    /// window.
    fn last_value_write(&self, key: Key, index: usize) -> Option<usize> {
        let start = index.saturating_sub(WINDOW);
        let mut all = self.writes.borrow_mut();
        let found = all.entry(key).or_insert(ValueWrites { from: index, to: index, at: Vec::new() });
        // Make the range reach `index`, keeping it one stretch of the log.
        if index > found.to {
            found.at.extend(self.value_writes(key, found.to, index));
            found.to = index;
        }
        if index < found.from {
            found.at.splice(0..0, self.value_writes(key, index, found.from));
            found.from = index;
        }
        let mut stretch = FIRST_STRETCH;
        loop {
            // Every write of the range is known, so the last one before `index` is the latest.
            if let Some(&i) = found.at[..found.at.partition_point(|&i| (i as usize) < index)].last() {
                return (i as usize >= start).then_some(i as usize);
            }
            if found.from <= start {
                return None;
            }
            let from = found.from.saturating_sub(stretch).max(start);
            found.at.splice(0..0, self.value_writes(key, from, found.from));
            found.from = from;
            stretch *= 2;
        }
    }

    /// The log indices from `from` up to `to`, in order, of the writes to `key` that set its
    /// value: a read-modify-write that left the value as it was (a poll such as
    /// atomic_add(p, 0)) passes on what it read, and the write that matters is the one that
    /// made the value.
    fn value_writes(&self, key: Key, from: usize, to: usize) -> Vec<u32> {
        let log = &self.s.machine().log;
        let kinds = log.kinds();
        (from..to.min(kinds.len()))
            // The columns first: only these kinds write, and only to this location.
            .filter(|&i| matches!(kinds[i], EventKind::Store | EventKind::AsyncCopy | EventKind::Atomic) && log.location_of(i) == Some(key.0))
            .filter(|&i| {
                log.get(i).is_some_and(|w| {
                    let passes = w.kind == EventKind::Atomic && w.read == w.written;
                    self.writes(i, &w) && !passes && self.key(&w) == Some(key)
                })
            })
            // Indices fit 32 bits: the history limit's maximum is far below.
            .map(|i| i as u32)
            .collect()
    }

    /// The write a read (event `index`, `e`) takes its value from, followed back through the
    /// read-modify-writes of other work-items to a write of work-item `p` when there is one:
    /// in OpenCL 2.0, as in C11, those continue the release sequence of the write they read,
    /// so reading them is reading `p`'s write. Only a write of `p` after log index `after`
    /// counts; otherwise the write read itself.
    fn sequence_head(&self, index: usize, e: &Event, p: u32, after: usize) -> Option<(usize, Event)> {
        let read = self.read_from(index, e)?;
        let (mut i, mut w) = read;
        for _ in 0..MAX_HOPS {
            if w.work_item == p {
                return Some(if i > after { (i, w) } else { read });
            }
            let rmw = w.kind == EventKind::Atomic && self.reads(i, &w) && self.writes(i, &w);
            let Some(before) = rmw.then(|| self.read_from(i, &w)).flatten() else { break };
            (i, w) = before;
        }
        Some(read)
    }

    /// The latest event of work-item `wi` of kind `kind` at a log index from `from` up to (not
    /// including) `to`, with its index. The columns are looked at before an event is assembled.
    fn last_of(&self, wi: u32, kind: EventKind, from: usize, to: usize) -> Option<(usize, Event)> {
        let log = &self.s.machine().log;
        let (kinds, work_items) = (log.kinds(), log.work_items());
        (from..to).rev().filter(|&i| kinds.get(i) == Some(&kind) && work_items.get(i) == Some(&wi)).find_map(|i| log.get(i).map(|e| (i, e)))
    }

    /// Actions of work-item `wi` strictly between log indices `from` and `to` that may
    /// synchronise: atomics, fences and barrier arrivals (the first `MAX_SYNC`, or the last
    /// ones when `last`).
    fn actions(&self, wi: u32, from: usize, to: usize, last: bool) -> Vec<Action> {
        let log = &self.s.machine().log;
        let to = to.min(log.len());
        let lo = from.saturating_add(1).max(to.saturating_sub(WINDOW));
        let (kinds, work_items) = (log.kinds(), log.work_items());
        let pick = |i: usize| {
            // The columns first: most events are another work-item's, or plain accesses.
            if work_items.get(i) != Some(&wi) || !matches!(kinds.get(i)?, EventKind::Fence | EventKind::BarrierArrive | EventKind::Atomic) {
                return None;
            }
            let e = log.get(i)?;
            let syncs = matches!(e.kind, EventKind::Fence | EventKind::BarrierArrive) || self.atomic(i, &e).is_some();
            (e.work_item == wi && syncs).then_some(Action { index: i, event: e })
        };
        if last {
            let mut v: Vec<Action> = (lo..to).rev().filter_map(pick).take(MAX_SYNC).collect();
            v.reverse();
            v
        } else {
            (lo..to).filter_map(pick).take(MAX_SYNC).collect()
        }
    }

    /// What the log shows between access `first` (earlier) and access `second` of another
    /// work-item: the synchronisation that happened, and why it does not order them.
    fn chain(&self, first: usize, second: usize) -> Chain {
        let mut chain = Chain::default();
        let log = &self.s.machine().log;
        let (Some(a), Some(b)) = (log.get(first), log.get(second)) else { return chain };
        let (first, second, a, b) = if first <= second { (first, second, a, b) } else { (second, first, b, a) };
        let (p, q) = (a.work_item, b.work_item);
        if p == q {
            return chain;
        }
        let (pa, qb) = (self.actions(p, first, second, false), self.actions(q, first, second, true));
        let (gp, gq) = (self.group(p), self.group(q));
        let who = |e: &Event| format!("work-item {}", self.id(e)[0]);
        // Two atomics race only when their scopes do not cover each other: that is the reason,
        // whatever else happened between them.
        if self.atomic(first, &a).is_some() && self.atomic(second, &b).is_some() && !self.inclusive(level(&a), p, level(&b), q) {
            let rule = if self.s.machine().races.ptx {
                "two atomics are atomic with respect to each other only when each one's scope includes the other's thread"
            } else {
                "two atomics are atomic with respect to each other only when both name the same scope and it includes both work-items"
            };
            chain.facts.push(format!(
                "the atomic at line {} has {} scope and the one at line {} {} scope, and {} ({}) and {} ({}) are not both within it: {rule}",
                self.line(&a),
                scope_name(level(&a)),
                self.line(&b),
                scope_name(level(&b)),
                who(&a),
                place(gp),
                who(&b),
                place(gq),
            ));
            return chain;
        }
        // Barriers: one of the same work-group orders (if its flags fence this memory); one of
        // another group orders nothing here.
        for x in pa.iter().filter(|x| x.event.kind == EventKind::BarrierArrive) {
            if gp != gq {
                chain.facts.push(format!(
                    "the barrier at line {} orders only the work-group of {} ({}), not {} ({}): work-items of different work-groups synchronise only through atomics and fences at device scope",
                    self.line(&x.event),
                    who(&a),
                    gp.unwrap_or(0),
                    who(&b),
                    gq.unwrap_or(0)
                ));
                break;
            }
            if let Some(y) = qb.iter().find(|y| y.event.kind == EventKind::BarrierArrive && y.index > x.index) {
                if self.named_barriers() {
                    // A PTX barrier: no fence flags (it orders all memory for those who meet),
                    // but one with a thread count opens once that many have arrived, and a
                    // later arrival meets only as many of the earlier ones as the count asks.
                    let opened = (x.index + 1..y.index).filter_map(|i| log.get(i)).any(|e| e.kind == EventKind::BarrierRelease);
                    if opened {
                        chain.facts.push(format!(
                            "the barrier at line {} opened after {} arrived, when its thread count was reached; {} arrived later at line {} and met only as many of the earlier arrivals as the count asks, not {}",
                            self.line(&x.event),
                            who(&a),
                            who(&b),
                            self.line(&y.event),
                            who(&a)
                        ));
                        break;
                    }
                    chain.edges.push(self.edge(
                        EdgeKind::Po,
                        &a,
                        &x.event,
                        format!("{} reaches the barrier at line {} after its access", who(&a), self.line(&x.event)),
                    ));
                    chain.edges.push(self.edge(EdgeKind::Barrier, &x.event, &y.event, "both meet at the barrier".to_string()));
                    chain.edges.push(self.edge(EdgeKind::Po, &y.event, &b, format!("{} accesses after the barrier", who(&b))));
                    break;
                }
                chain.edges.push(self.edge(
                    EdgeKind::Po,
                    &a,
                    &x.event,
                    format!("{} reaches the barrier at line {} after its access", who(&a), self.line(&x.event)),
                ));
                chain.edges.push(self.edge(EdgeKind::Barrier, &x.event, &y.event, format!("both pass the barrier ({})", flags_text(x.event.written))));
                chain.edges.push(self.edge(EdgeKind::Po, &y.event, &b, format!("{} accesses after the barrier", who(&b))));
                let space = a.location.map_or(Space::Global, |l| l.space);
                let bit = if space == Space::Local { fence::LOCAL } else { fence::GLOBAL };
                if x.event.written & bit == 0 {
                    let needs = if space == Space::Local { "CLK_LOCAL_MEM_FENCE" } else { "CLK_GLOBAL_MEM_FENCE" };
                    chain.facts.push(format!(
                        "the barrier at line {} was given {} by {}, so it does not order {} memory ({needs} would)",
                        self.line(&x.event),
                        flags_text(x.event.written),
                        who(&a),
                        if space == Space::Local { "local" } else { "global" }
                    ));
                }
                break;
            }
        }
        // Reads of the second work-item that read what the first one wrote after its access.
        // So do the reads of its work-group's members before a barrier it passed after them
        // (one hop: the member's read, the barrier, the second access).
        let mut readers: Vec<Reader> = qb.iter().filter(|y| self.reads(y.index, &y.event)).map(|y| (*y, qb.clone(), None)).collect();
        // (The second work-item may have arrived there before the first access, and the
        // barrier ended after it.)
        let arrival = self.last_of(q, EventKind::BarrierArrive, second.saturating_sub(WINDOW), second);
        if let Some((at, xq)) = arrival {
            for (jm, m) in self.mates(at, q, gq).into_iter().filter(|&(jm, _)| jm > first) {
                let acts = self.actions(m.work_item, first, jm, true);
                for y in acts.iter().filter(|y| self.reads(y.index, &y.event)) {
                    readers.push((*y, acts.clone(), Some((m, xq))));
                }
            }
        }
        let mut read_any = false;
        let mut others: Option<(Action, Event)> = None;
        for (y, acts, hop) in &readers {
            let Some((direct, _)) = self.read_from(y.index, &y.event) else { continue };
            // A read of another work-item's read-modify-write that carried on the first
            // work-item's write reads that write's release sequence.
            let Some((wi, w)) = self.sequence_head(y.index, &y.event, p, first) else { continue };
            if w.work_item != p || wi <= first {
                if others.is_none() && wi > first && w.work_item != y.event.work_item && y.event.kind == EventKind::Atomic {
                    others = Some((*y, w));
                }
                continue;
            }
            read_any = true;
            let rq = y.event.work_item;
            let memory = self.memory(&a);
            let (release, near_release) = split(self.release_end(&pa, wi, &w, memory));
            let (acquire, near_acquire) = split(self.acquire_end(acts, y.index, &y.event, memory));
            // Where the reader's program order leads: the second access, or its arrival at the
            // barrier that the second access's work-item passed after it.
            let end = hop.map_or(b, |(m, _)| m);
            // Program order through the fences that make the write a release and the read an
            // acquire, when there are such fences.
            match release.filter(|r| r.kind == EventKind::Fence) {
                Some(f) => {
                    chain.edges.push(self.edge(EdgeKind::Po, &a, &f, format!("{} fences after its access", who(&a))));
                    chain.edges.push(self.edge(EdgeKind::Po, &f, &w, format!("and then writes {}", self.name(&w))));
                }
                None => chain.edges.push(self.edge(EdgeKind::Po, &a, &w, format!("{} writes {} after its access", who(&a), self.name(&w)))),
            }
            let rf = if direct == wi {
                format!("{} reads the value written at line {}", who(&y.event), self.line(&w))
            } else {
                format!("{} reads a value that read-modify-writes carried on from the write at line {}", who(&y.event), self.line(&w))
            };
            chain.edges.push(self.edge(EdgeKind::Rf, &w, &y.event, rf));
            match acquire.filter(|r| r.kind == EventKind::Fence) {
                Some(f) => {
                    chain.edges.push(self.edge(EdgeKind::Po, &y.event, &f, format!("{} fences after that read", who(&y.event))));
                    chain.edges.push(self.edge(EdgeKind::Po, &f, &end, "and then goes on".to_string()));
                }
                None => chain.edges.push(self.edge(EdgeKind::Po, &y.event, &end, format!("{} goes on after that read", who(&y.event)))),
            }
            if let Some((m, xq)) = hop {
                chain.edges.push(self.edge(
                    EdgeKind::Barrier,
                    m,
                    xq,
                    if self.named_barriers() {
                        format!("{} and {} meet at the barrier at line {}", who(m), who(&b), self.line(xq))
                    } else {
                        format!("{} and {} pass the barrier at line {} ({})", who(m), who(&b), self.line(xq), flags_text(m.written))
                    },
                ));
                chain.edges.push(self.edge(EdgeKind::Po, xq, &b, format!("{} makes its access after the barrier", who(&b))));
                let bit = if a.location.is_some_and(|l| l.space == Space::Local) { fence::LOCAL } else { fence::GLOBAL };
                if m.written & bit == 0 && !self.named_barriers() {
                    chain.facts.push(format!("the barrier at line {} ({}) does not order that memory", self.line(xq), flags_text(m.written)));
                }
            }
            match (release, acquire) {
                (Some(rel), Some(acq)) => {
                    let (lr, la) = (level(&rel), level(&acq));
                    if self.inclusive(lr, p, la, rq) {
                        chain.edges.push(self.edge(
                            EdgeKind::Sw,
                            &rel,
                            &acq,
                            format!(
                                "the {} at line {} ({}) synchronises with the {} at line {} ({})",
                                role(&rel, "release"),
                                self.line(&rel),
                                scope_name(lr),
                                role(&acq, "acquire"),
                                self.line(&acq),
                                scope_name(la)
                            ),
                        ));
                    } else if !self.s.machine().races.ptx && lr != la && self.within(lr, p, rq) && self.within(la, rq, p) {
                        // Both scopes reach both work-items, but OpenCL's inclusive scopes
                        // are the same scope on both sides.
                        chain.facts.push(format!(
                            "the {} at line {} has {} scope and the {} at line {} has {} scope: OpenCL 2.0 synchronises a release and an acquire only when both name the same scope",
                            role(&rel, "release"),
                            self.line(&rel),
                            scope_name(lr),
                            role(&acq, "acquire"),
                            self.line(&acq),
                            scope_name(la)
                        ));
                    } else {
                        chain.facts.push(format!(
                            "the {} at line {} has {} scope and the {} at line {} has {} scope, which do not both include {} and {}{}",
                            role(&rel, "release"),
                            self.line(&rel),
                            scope_name(lr),
                            role(&acq, "acquire"),
                            self.line(&acq),
                            scope_name(la),
                            who(&a),
                            who(&y.event),
                            if gp != gq { " (they are in different work-groups)" } else { "" }
                        ));
                    }
                }
                (rel, acq) => {
                    let memory_name = |m: usize| if m == LOCAL { "local" } else { "global" };
                    let (via, memory) = (memory_name(self.memory(&w)), memory_name(memory));
                    let atomics = |e: &Option<Event>| e.is_some_and(|e| e.kind != EventKind::Fence);
                    if rel.is_none() && acq.is_none() && atomics(&near_release) && atomics(&near_acquire) {
                        // A release and an acquire atomic that synchronise, but through an
                        // object of the other memory.
                        chain.facts.push(format!(
                            "the release at line {} and the acquire at line {} are atomics on a {via} object, which order {via} memory only; {memory} memory needs release and acquire fences naming both memories (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE) beside them, or a flag in {memory} memory",
                            self.line(&w),
                            self.line(&y.event)
                        ));
                    } else {
                        if let (None, Some(near)) = (rel, near_release) {
                            chain.facts.push(across_fact(&near, self.line(&near), self.line(&w), "release", via, memory));
                        } else if rel.is_none() {
                            chain.facts.push(format!(
                                "the write at line {} is not a release: it is {} and no release fence comes between the access at line {} and it",
                                self.line(&w),
                                if w.kind == EventKind::Atomic { "a relaxed atomic" } else { "a plain store" },
                                self.line(&a)
                            ));
                        }
                        if let (None, Some(near)) = (acq, near_acquire) {
                            chain.facts.push(across_fact(&near, self.line(&near), self.line(&y.event), "acquire", via, memory));
                        } else if acq.is_none() {
                            chain.facts.push(format!(
                                "the read at line {} is not an acquire: it is {} and no acquire fence follows it before line {}",
                                self.line(&y.event),
                                if y.event.kind == EventKind::Atomic { "a relaxed atomic" } else { "a plain load" },
                                self.line(&end)
                            ));
                        }
                    }
                }
            }
            break;
        }
        if !read_any && (gp != gq || !pa.iter().any(|x| x.event.kind == EventKind::BarrierArrive)) {
            let scoped: Vec<&Action> = pa
                .iter()
                .filter(|x| x.event.kind == EventKind::Fence || self.atomic(x.index, &x.event).is_some())
                .filter(|x| !self.within(level(&x.event), p, q))
                .collect();
            if gp != gq && chain.facts.is_empty() {
                // The barrier clause answers "but there is a barrier": where the kernel has
                // none, it would only make the reader look for one.
                chain.facts.push(format!(
                    "{} (work-group {}) and {} (work-group {}) are in different work-groups{}",
                    who(&a),
                    gp.unwrap_or(0),
                    who(&b),
                    gq.unwrap_or(0),
                    if self.kernel_has_barrier() { ", and a barrier orders only its own work-group" } else { "" }
                ));
            }
            let releases: Vec<&Action> = pa.iter().filter(|x| x.event.kind != EventKind::BarrierArrive).collect();
            let mut fact = if releases.is_empty() {
                format!(
                    "{} performs no release, fence or barrier between its access at line {} and the access of {} at line {}",
                    who(&a),
                    self.line(&a),
                    who(&b),
                    self.line(&b)
                )
            } else {
                format!(
                    "no release at {} scope by {} after line {} is read by an acquire of {} before line {}",
                    if gp != gq { "device" } else { "work-group or device" },
                    who(&a),
                    self.line(&a),
                    who(&b),
                    self.line(&b)
                )
            };
            // A signal that let the reading work-item go on but was written before the other
            // work-item's access (an unlock or flag set too early) is the usual culprit: say so.
            let early = self.early_signal(first, second, &a, &b, gp != gq);
            if let Some(Early { read_first: true, text }) = &early {
                // The fact below then says why the write is not ordered after the read either.
                fact = format!("{text}: {fact}");
            }
            if let Some((y, w)) = others {
                fact.push_str(&format!(
                    "; {} read {} at line {} from the write of work-item {} at line {}, not from a write of {}",
                    who(&y.event),
                    self.name(&y.event),
                    self.line(&y.event),
                    self.id(&w)[0],
                    self.line(&w),
                    who(&a)
                ));
            }
            if let Some(x) = scoped.first() {
                let what = if x.event.kind == EventKind::Fence { "fence" } else { "atomic" };
                fact.push_str(&format!("; the {what} at line {} has {} scope", self.line(&x.event), scope_name(level(&x.event))));
            }
            if let (None, Some(Early { read_first: false, text })) = (&others, &early) {
                fact.push_str(&format!("; {text}"));
            }
            chain.facts.push(fact);
        }
        chain
    }

    /// When one access of a race reads and the other writes, and the reading work-item went on
    /// after reading another work-item's write that came before the writing access (a lock
    /// released, a flag raised or a count completed too early), that signal in words: it
    /// cannot announce a write made after it. `read_first`: the read even came before the
    /// write, so it read the value from before it.
    fn early_signal(&self, first: usize, second: usize, a: &Event, b: &Event, groups_differ: bool) -> Option<Early> {
        let read_only = |i: usize, e: &Event| self.reads(i, e) && !self.writes(i, e);
        let (ri, r, wi, w, read_first) = if read_only(second, b) && self.writes(first, a) {
            (second, b, first, a, false)
        } else if read_only(first, a) && self.writes(second, b) {
            (first, a, second, b, true)
        } else {
            return None;
        };
        let signal = self.last_signal(r.work_item, ri)?;
        if signal.write_index >= wi {
            return None;
        }
        let who = |e: &Event| format!("work-item {}", self.id(e)[0]);
        let (y, s) = (&signal.read, &signal.write);
        let via = match &signal.hop {
            None => format!("reading {} at line {}", self.name(y), self.line(y)),
            Some(arrival) => {
                format!("the barrier at line {}, which {} passed after reading {} at line {}", self.line(arrival), who(y), self.name(y), self.line(y))
            }
        };
        let text = if read_first {
            format!(
                "{} read {} at line {} (step {}) before {} wrote it at line {} (step {}): it went on after {via}, written by {} at line {} (step {}), earlier than that write, so what it read cannot announce the write (a release at {} scope by {} after its write, read by an acquire of {} before line {}, would); nor is the write ordered after the read",
                who(r),
                self.name(r),
                self.line(r),
                r.step,
                who(w),
                self.line(w),
                w.step,
                who(s),
                self.line(s),
                s.step,
                if groups_differ { "device" } else { "work-group or device" },
                who(w),
                who(r),
                self.line(r)
            )
        } else {
            format!(
                "{} went on after {via}, written by {} at line {} (step {}), earlier than the access of {} at line {} (step {}), so what it read cannot announce that access",
                who(r),
                who(s),
                self.line(s),
                s.step,
                who(w),
                self.line(w),
                w.step
            )
        };
        Some(Early { read_first, text })
    }

    /// The latest atomic read before log index `at`, by work-item `wi` or by a member of its
    /// work-group at the barrier it last passed, that read another work-item's write: what
    /// let `wi` go on.
    fn last_signal(&self, wi: u32, at: usize) -> Option<Signal> {
        let lo = at.saturating_sub(WINDOW);
        let latest = |who: u32, to: usize| {
            self.actions(who, lo, to, true)
                .into_iter()
                .rev()
                .filter(|x| x.event.kind == EventKind::Atomic && self.reads(x.index, &x.event))
                .find_map(|x| self.read_from(x.index, &x.event).filter(|(_, w)| w.work_item != who).map(|(i, w)| (x, i, w)))
        };
        let mut best: Option<Signal> = latest(wi, at).map(|(x, i, w)| Signal { read_index: x.index, read: x.event, write_index: i, write: w, hop: None });
        let arrival = self.last_of(wi, EventKind::BarrierArrive, lo, at);
        if let Some((ai, xq)) = arrival {
            for (jm, m) in self.mates(ai, wi, self.group(wi)) {
                if let Some((x, i, w)) = latest(m.work_item, jm) {
                    if best.as_ref().is_none_or(|b| x.index > b.read_index) {
                        best = Some(Signal { read_index: x.index, read: x.event, write_index: i, write: w, hop: Some(xq) });
                    }
                }
            }
        }
        best
    }

    /// Whether the run's barriers are PTX's named barriers (a PTX litmus test's `bar`), whose
    /// events carry a barrier name and resource rather than OpenCL's fence flags.
    fn named_barriers(&self) -> bool {
        self.s.machine().named_barriers.is_some()
    }

    /// The arrivals of the other members of group `g` at the barrier `q` arrived at (log
    /// index `at`), with their log indices: those since the group's previous release and
    /// until the one that ends this barrier.
    fn mates(&self, at: usize, q: u32, g: Option<u32>) -> Vec<(usize, Event)> {
        let log = &self.s.machine().log;
        let mut found = Vec::new();
        for i in (at.saturating_sub(WINDOW)..at).rev() {
            let Some(e) = log.get(i) else { break };
            if self.group(e.work_item) != g {
                continue;
            }
            match e.kind {
                EventKind::BarrierRelease => break,
                EventKind::BarrierArrive if e.work_item != q => found.push((i, e)),
                _ => {}
            }
            if found.len() >= MAX_SYNC {
                break;
            }
        }
        // And those that arrived after it, up to the release that let them all go.
        for i in at + 1..log.len().min(at.saturating_add(WINDOW)) {
            let Some(e) = log.get(i) else { break };
            if self.group(e.work_item) != g || found.len() >= 2 * MAX_SYNC {
                continue;
            }
            match e.kind {
                EventKind::BarrierRelease => break,
                EventKind::BarrierArrive if e.work_item != q => found.push((i, e)),
                _ => {}
            }
        }
        found
    }

    /// The memory whose happens-before an access of `e` takes part in: local memory for a
    /// local object (a litmus test's `local` locations included), global memory otherwise.
    fn memory(&self, e: &Event) -> usize {
        e.location.map_or(GLOBAL, |l| self.s.machine().races.sync_space(l.space, l.alloc))
    }

    /// Whether an endpoint of a synchronisation through an atomic on an object of memory `via`
    /// orders memory `memory`: an atomic only its own object's memory (under OpenCL; PTX has
    /// one order for all memory), a fence what its flags name, and through an atomic of the
    /// other memory only if they name that memory too (Dat3M's `opencl.cat`).
    fn orders(&self, end: &Event, via: usize, memory: usize) -> bool {
        let ptx = self.s.machine().races.ptx;
        if end.kind != EventKind::Fence {
            return ptx || via == memory;
        }
        let named = |m: usize| end.written & if m == LOCAL { fence::LOCAL } else { fence::GLOBAL } != 0;
        ptx || (named(via) && named(memory))
    }

    /// The release end of a write `w` (at `wi`) of the chain's first work-item for memory
    /// `memory`: the write itself when it releases, or a release fence among `pa` before it,
    /// each only if it orders that memory through `w`. Else, for explanations, the release it
    /// would have been had it named `w`'s memory too, as `Err`.
    fn release_end(&self, pa: &[Action], wi: usize, w: &Event, memory: usize) -> Result<Event, Option<Event>> {
        if w.kind != EventKind::Atomic {
            return Err(None);
        }
        let fences = pa.iter().rev().filter(|x| x.index < wi && x.event.kind == EventKind::Fence).map(|x| x.event);
        let ends =
            std::iter::once(*w).filter(|w| w.order.is_some_and(Order::releases)).chain(fences.filter(|f| fence::order_and_level(f.written).0.releases()));
        self.first_ordering(ends, self.memory(w), memory)
    }

    /// The acquire end of a read `r` (at `ri`) of the chain's second work-item for memory
    /// `memory`: the read itself when it acquires, or an acquire fence among `qb` after it,
    /// each only if it orders that memory through `r`. Else, for explanations, the acquire it
    /// would have been had it named `r`'s memory too, as `Err`.
    fn acquire_end(&self, qb: &[Action], ri: usize, r: &Event, memory: usize) -> Result<Event, Option<Event>> {
        if r.kind != EventKind::Atomic {
            return Err(None);
        }
        let fences = qb.iter().filter(|x| x.index > ri && x.event.kind == EventKind::Fence).map(|x| x.event);
        let ends =
            std::iter::once(*r).filter(|r| r.order.is_some_and(Order::acquires)).chain(fences.filter(|f| fence::order_and_level(f.written).0.acquires()));
        self.first_ordering(ends, self.memory(r), memory)
    }

    /// The first of the release or acquire `ends`, nearest first, that orders memory `memory`
    /// through an atomic on an object of memory `via`; else the nearest that does not, as
    /// `Err` (none: `Err(None)`).
    fn first_ordering(&self, ends: impl Iterator<Item = Event>, via: usize, memory: usize) -> Result<Event, Option<Event>> {
        let mut near = None;
        for end in ends {
            if self.orders(&end, via, memory) {
                return Ok(end);
            }
            near = near.or(Some(end));
        }
        Err(near)
    }

    /// Whether `other` is within scope `level` of `wi`.
    fn within(&self, level: Level, wi: u32, other: u32) -> bool {
        match level {
            Level::Group => self.group(wi) == self.group(other),
            Level::Device => self.device(wi) == self.device(other),
            Level::System => true,
        }
    }

    /// Whether a release at `lr` by `p` and an acquire at `la` by `q` synchronise: OpenCL 2.0
    /// asks for the same scope including both, PTX for each including the other.
    fn inclusive(&self, lr: Level, p: u32, la: Level, q: u32) -> bool {
        let mutual = self.within(lr, p, q) && self.within(la, q, p);
        mutual && (self.s.machine().races.ptx || lr == la)
    }

    /// What an async copy's element needs to be ordered with another work-item's access: a
    /// barrier before the copy starts when the access comes first, a wait and a barrier
    /// after it when the copy comes first.
    fn copy_fact(&self, first: usize, second: usize, a: &Event, b: &Event) -> String {
        let log = &self.s.machine().log;
        if b.kind == EventKind::AsyncCopy && a.kind != EventKind::AsyncCopy {
            // The element came second: the copy was started after the access without a
            // barrier between, so the copy engine did not know of the access.
            let start =
                (first..second).rev().filter_map(|i| log.get(i)).find(|e| e.work_item == b.work_item && e.kind == EventKind::AsyncCopy && e.location.is_none());
            let started = start.map_or(String::new(), |e| format!(" (started at line {})", self.line(&e)));
            return format!(
                "work-item {} accesses {} at line {}, and the async copy{started} by work-item {} then overwrites it: no barrier of the work-group comes between the access and the copy's start, so the copy is not ordered after it",
                self.id(a)[0],
                self.name(a),
                self.line(a),
                self.id(b)[0]
            );
        }
        let (copy, other) = if a.kind == EventKind::AsyncCopy { (a, b) } else { (b, a) };
        let barrier = (first..second).filter_map(|i| log.get(i)).any(|e| e.work_item == other.work_item && e.kind == EventKind::BarrierArrive);
        let wait = (first..second).filter_map(|i| log.get(i)).find(|e| e.work_item == copy.work_item && e.kind == EventKind::Wait);
        let wait_text = wait.map_or(", before it waits for the copy".to_string(), |w| format!(" (it waits for the copy at line {})", self.line(&w)));
        format!(
            "the async copy of work-item {} writes {} at line {}{wait_text}, and work-item {}'s access at line {} is ordered after it only by that wait_group_events followed by a barrier of the work-group{}",
            self.id(copy)[0],
            self.name(copy),
            self.line(copy),
            self.id(other)[0],
            self.line(other),
            if barrier { "" } else { ", and none comes between them" }
        )
    }
}

/// The scope level of an atomic or fence event.
/// Where a work-item is, for a sentence: its work-group.
fn place(group: Option<u32>) -> String {
    format!("work-group {}", group.unwrap_or(0))
}

fn level(e: &Event) -> Level {
    if e.kind == EventKind::Fence {
        return fence::order_and_level(e.written).1;
    }
    e.scope.map_or(Level::System, Scope::level)
}

fn scope_name(level: Level) -> &'static str {
    match level {
        Level::Group => "work-group",
        Level::Device => "device",
        Level::System => "system",
    }
}

/// A barrier's fence flags in OpenCL's words.
fn flags_text(flags: u64) -> String {
    match flags & (fence::LOCAL | fence::GLOBAL) {
        0 => "no fence flags".to_string(),
        fence::LOCAL => "CLK_LOCAL_MEM_FENCE only".to_string(),
        fence::GLOBAL => "CLK_GLOBAL_MEM_FENCE only".to_string(),
        _ => "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE".to_string(),
    }
}

/// An endpoint found (`Ok`) or not, with the one that missed only a memory (`Err`).
fn split(end: Result<Event, Option<Event>>) -> (Option<Event>, Option<Event>) {
    match end {
        Ok(e) => (Some(e), None),
        Err(near) => (None, near),
    }
}

/// Why `near`, a release or acquire (`what`) through the atomic at `atomic_line` on an
/// object of `via` memory, does not order `memory` memory.
fn across_fact(near: &Event, near_line: u32, atomic_line: u32, what: &str, via: &str, memory: &str) -> String {
    if near.kind == EventKind::Fence {
        format!(
            "the {what} fence at line {near_line} ({}) does not name {via} memory, that of the atomic at line {atomic_line}: a fence orders {memory} memory through an atomic on a {via} object only if its flags name both memories",
            flags_text(near.written)
        )
    } else {
        format!(
            "the {what} at line {atomic_line} is an atomic on a {via} object, which orders {via} memory only; {memory} memory needs {} {what} fence naming both memories (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE) beside it, or an atomic on a {memory} object",
            if what.starts_with('a') { "an" } else { "a" }
        )
    }
}

/// How an explanation names a release or acquire endpoint: the atomic itself, or a fence.
fn role(e: &Event, what: &str) -> String {
    if e.kind == EventKind::Fence {
        format!("{what} fence")
    } else {
        what.to_string()
    }
}
