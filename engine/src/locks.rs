//! Lock recognition: which memory locations a run used as spin locks, who held each one when,
//! and where the protocol was broken.
//!
//! The analysis reads the event log when a report is built and once when the run ends (its
//! findings need the whole run, so they appear then), and costs the interpreter nothing. It
//! is based on the spin locks of Mellor-Crummey and Scott ("Algorithms
//! for Scalable Synchronization on Shared-Memory Multiprocessors", ACM TOCS 1991: test-and-set
//! and test-and-test-and-set), the CUDA lock of Sanders and Kandrot ("CUDA by Example",
//! appendix A: `atomicCAS(mutex, 0, 1)` to take, `atomicExch(mutex, 0)` to give back), C11's
//! `atomic_flag` (ISO/IEC 9899:2011 7.17.8, which OpenCL C 2.0 adopts), and on the idea of
//! recognising synchronisation from its dynamic behaviour rather than from names (Tian,
//! Nagarajan, Gupta and Xu, "Dynamic Recognition of Synchronization Operations for Improved
//! Data Race Detection", ISSTA 2008).
//!
//! # What a lock looks like in the log
//!
//! An atomic event records the value it found and the value it left, whatever the operation
//! was, so the usual protocols look alike: `atomic_flag_test_and_set`, `atomic_xchg(&l, 1)`,
//! `atomic_cmpxchg(&l, 0, 1)`, `atomicCAS(l, 0, 1)` and `atomic_or(&l, 1)` all turn 0 into
//! non-zero when they win and leave a non-zero value as it was when they lose;
//! `atomic_flag_clear`, `atomic_store(&l, 0)`, `atomic_xchg(&l, 0)` and `atomicExch(l, 0)` all
//! turn non-zero into 0. So, per location (local memory counts once per work-group):
//!
//! - an *acquire* is an atomic event that turned 0 into non-zero, or a plain store of a
//!   non-zero value (which claims the lock without testing it, and is how a broken lock lets a
//!   second work-item in);
//! - a *release* is an atomic event or a plain store that turned non-zero into 0;
//! - an *attempt* is an atomic event that found the location non-zero and left it as it was,
//!   or a plain load of a non-zero value. The log cannot tell a failed acquire from a poll
//!   (`atomic_add(&l, 0)`, `atomic_load`), and both mean the work-item waits for the lock.
//!
//! A location is a lock when it has at least one atomic acquire and at least one atomic
//! release and every atomic write to it is one of these: an atomic that moves one non-zero
//! value to another (a counter going from 1 to 2, a compare-exchange loop over a running sum)
//! rules it out, and so does an async copy into it. A plain counter that only grows never
//! qualifies, and neither does a flag that is set once and never cleared, nor data that a
//! compare-exchange happens to fill once and a plain store clears. Plain stores do not make a
//! lock, but they take part in one: a plain store of 0 initialises a free lock (the only way
//! to initialise one in local memory) or releases a held one. Locks with more than one locked
//! value (0, 1 and 2 in futex-style mutexes) are not recognised; GPU kernels rarely use them.
//! Nor is a lock that is taken and never released anywhere in the run (a forgotten unlock
//! that hangs the others shows as the hang's finding): without a release, a lock cannot be
//! told from a flag that announces something once.
//!
//! # Holders
//!
//! A work-item holds a lock from its acquire until it releases it. It also stops holding it
//! when it reads or writes 0 there (the lock was given back, by someone else, and it has seen
//! that) and when it finishes. `max_holders` is the most work-items holding at once; it can
//! exceed 1 only when a work-item acquires while another still holds, which the rules allow
//! only after a release by a non-holder or a claim by a plain store. Either way mutual
//! exclusion failed, and that is an error finding.
//!
//! # Waiters and contention
//!
//! A work-item that finds the lock held starts to wait, and its wait lasts until it acquires
//! the lock, releases it (it was waiting for a signal), finds it free while holding it (see
//! above) or finishes. `contended` counts the acquisitions that had to wait, plus the waits
//! still going on when the log ends (the spinners of a hung run). A wait that ends when the
//! work-item finishes is not counted: it may have been a try-lock giving up or a poll for a
//! signal, and the log cannot tell which. A holder polling its own lock waits for a signal,
//! not for the lock, so its wait is never contention.
//!
//! # Release by a non-holder, and seed 003
//!
//! In the inter-work-group reduction of seed 003 (`static/examples/interwork_group_reduction.cl`)
//! the first group of a block takes the block's lock with `atomic_or(&l, 1)`, the *last* group
//! of the block releases it with `atomic_xchg(&l, 0)`, and the first group polls the lock with
//! `atomic_add(&l, 0)` until it sees 0. That is the book's protocol, and it uses the lock as a
//! signal ("the block has published"), not as mutual exclusion. Releasing a lock one does not
//! hold is `lock-misuse`, but by itself it lets nobody into a critical section twice: that happens only if another work-item then acquires the lock while the
//! holder has not yet seen it released, and that case is reported separately, as an error,
//! through `max_holders`. So a release by a non-holder is a *warning* that says the lock
//! behaves as a signal; it becomes an error only where mutual exclusion actually failed, and
//! then it is told with that error (as the release that let the second work-item in) rather
//! than again on its own. The first group's poll that reads 0 ends its hold, so the next
//! round's acquire is not an overlap.
//!
//! # Held at the end
//!
//! A lock still set when the run completes was acquired and never released: an error. When the
//! run hung (deadlock or livelock) a held lock is usually why, so it is reported as a warning
//! beside the hang; a run stopped by a limit was cut short, and its held locks say nothing.
//!
//! # Size
//!
//! Each lock's timeline records changes of state only (an acquire, a release, a work-item
//! starting to wait), not every spin, and keeps the first [`MAX_TIMELINE`] of them; the JSON
//! report leaves timelines out. Findings are reported once per kind of problem and source
//! location, like every other finding.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::{Severity, Span};
use crate::exec::Machine;
use crate::report::{Finding, FindingKind, LockAction, LockEvent, LockReport, Related, RunStatus};
use crate::trace::{Event, EventKind, EventLog, Location, Space};

/// The most changes of state a lock's timeline keeps.
pub const MAX_TIMELINE: usize = 1_000;

/// The most problems kept per lock: findings are reported once per source location, so a
/// loop that breaks the protocol every time needs only the first few.
const MAX_PROBLEMS: usize = 64;

/// One lock the log shows, in the log's terms (event indices and linear work-item indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lock {
    pub location: Location,
    /// The work-group whose local memory holds it (`None` for global memory).
    pub group: Option<u32>,
    pub acquisitions: u64,
    pub contended: u64,
    pub max_holders: u64,
    pub timeline: Vec<Change>,
    /// Changes of state beyond [`MAX_TIMELINE`].
    pub omitted: u64,
    pub problems: Vec<Problem>,
    /// The acquire that set it, when it is still set at the end of the log.
    pub held_at_end: Option<usize>,
    /// How many work-items wait for it at the end of the log.
    pub waiters_at_end: u32,
}

/// One change of a lock's state: the event (an index into the log), what it did, and the state
/// after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub event: usize,
    pub action: LockAction,
    /// The work-item whose acquire set the lock, while it is set.
    pub holder: Option<u32>,
    pub waiters: u32,
}

/// A broken protocol, by event indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// `acquire` took the lock while the work-item of `other` (its acquire) still held it;
    /// `released_by` is the release by a non-holder that let it in, if there was one.
    Overlap { acquire: usize, other: usize, released_by: Option<usize> },
    /// `release` set the lock to 0 although its work-item did not hold it; `set_by` is the
    /// acquire that had set it (`None` when it was set before the run began).
    ForeignRelease { release: usize, set_by: Option<usize> },
}

/// A location, told apart per work-group for local memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    space: u8,
    group: u32,
    alloc: u32,
    offset: u64,
}

fn key(e: &Event, group_of: &dyn Fn(u32) -> Option<u32>) -> Option<Key> {
    let loc = e.location?;
    let group = match loc.space {
        Space::Global => u32::MAX,
        Space::Local => group_of(e.work_item)?,
        // Constant memory cannot be written and private memory is not shared.
        Space::Constant | Space::Private => return None,
    };
    Some(Key { space: loc.space as u8, group, alloc: loc.alloc, offset: loc.offset })
}

/// What one event means for a lock.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Act {
    Acquire { atomic: bool },
    Release,
    /// It found the lock held.
    SeeHeld,
    /// It found the lock free, or wrote 0 over 0.
    SeeFree,
    /// A write that no lock protocol makes.
    Foreign,
    Nothing,
}

/// An atomic read-modify-write, load or store; malloc and free share the kind but have no
/// memory order.
fn is_atomic(e: &Event) -> bool {
    e.kind == EventKind::Atomic && e.order.is_some()
}

/// The analysis state of one candidate location.
struct State {
    location: Location,
    group: Option<u32>,
    /// Its value after the events so far, once one has shown it.
    value: Option<u64>,
    /// Who holds it, each with the event of its acquire.
    holders: Vec<(u32, usize)>,
    /// Who waits for it, each with whether it held the lock when it began to wait (a holder
    /// polling its own lock waits for a signal, not for the lock, and is not contention).
    waiting: BTreeMap<u32, bool>,
    /// The latest acquire, (work-item, event): what set the lock, while it is set.
    set_by: Option<(u32, usize)>,
    /// The latest release by a non-holder.
    foreign_release: Option<usize>,
    atomic_acquisitions: u64,
    releases: u64,
    acquisitions: u64,
    contended: u64,
    max_holders: u64,
    timeline: Vec<Change>,
    omitted: u64,
    problems: Vec<Problem>,
    disqualified: bool,
}

impl State {
    fn new(location: Location, group: Option<u32>) -> State {
        State {
            location,
            group,
            value: None,
            holders: Vec::new(),
            waiting: BTreeMap::new(),
            set_by: None,
            foreign_release: None,
            atomic_acquisitions: 0,
            releases: 0,
            acquisitions: 0,
            contended: 0,
            max_holders: 0,
            timeline: Vec::new(),
            omitted: 0,
            problems: Vec::new(),
            disqualified: false,
        }
    }

    fn holds(&self, wi: u32) -> bool {
        self.holders.iter().any(|h| h.0 == wi)
    }

    fn change(&mut self, event: usize, action: LockAction) {
        if self.timeline.len() >= MAX_TIMELINE {
            self.omitted += 1;
            return;
        }
        let holder = self.set_by.filter(|_| self.value.is_some_and(|v| v != 0)).map(|s| s.0);
        self.timeline.push(Change { event, action, holder, waiters: self.waiting.len() as u32 });
    }

    fn problem(&mut self, p: Problem) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(p);
        }
    }

    /// Applies event `index`; returns whether its work-item now holds or waits for the lock.
    fn apply(&mut self, index: usize, e: &Event) -> bool {
        let was_set = self.value.is_some_and(|v| v != 0);
        let act = if is_atomic(e) {
            match (e.read != 0, e.written != 0) {
                (false, true) => Act::Acquire { atomic: true },
                (true, false) => Act::Release,
                (true, true) if e.read == e.written => Act::SeeHeld,
                (true, true) => Act::Foreign,
                (false, false) => Act::SeeFree,
            }
        } else {
            match e.kind {
                EventKind::Store if e.written != 0 => Act::Acquire { atomic: false },
                EventKind::Store if was_set => Act::Release,
                EventKind::Store => Act::SeeFree,
                EventKind::Load if e.read != 0 => Act::SeeHeld,
                EventKind::Load => Act::SeeFree,
                EventKind::AsyncCopy => Act::Foreign,
                _ => Act::Nothing,
            }
        };
        match e.kind {
            EventKind::Atomic | EventKind::Store if act != Act::Nothing => self.value = Some(e.written),
            EventKind::Load => self.value = Some(e.read),
            EventKind::AsyncCopy => self.value = None,
            _ => {}
        }
        let wi = e.work_item;
        match act {
            Act::Nothing => false,
            Act::Foreign => {
                self.disqualified = true;
                false
            }
            // Storing non-zero into a lock one already holds changes nothing.
            Act::Acquire { atomic: false } if was_set && self.holds(wi) => true,
            Act::Acquire { atomic } => {
                if let Some(&(_, other)) = self.holders.iter().find(|h| h.0 != wi) {
                    let released_by = self.foreign_release.filter(|&r| r > other);
                    self.problem(Problem::Overlap { acquire: index, other, released_by });
                }
                self.holders.retain(|h| h.0 != wi);
                self.holders.push((wi, index));
                self.max_holders = self.max_holders.max(self.holders.len() as u64);
                self.acquisitions += 1;
                if atomic {
                    self.atomic_acquisitions += 1;
                }
                if self.waiting.remove(&wi) == Some(false) {
                    self.contended += 1;
                }
                self.set_by = Some((wi, index));
                self.change(index, LockAction::Acquire);
                true
            }
            Act::Release => {
                match self.holders.iter().position(|h| h.0 == wi) {
                    Some(k) => {
                        self.holders.remove(k);
                    }
                    None => {
                        self.problem(Problem::ForeignRelease { release: index, set_by: self.set_by.map(|s| s.1) });
                        self.foreign_release = Some(index);
                    }
                }
                // A work-item that waited for the lock to be set and then clears it was
                // waiting for a signal, not trying to acquire: its wait is not contention.
                self.waiting.remove(&wi);
                self.releases += 1;
                self.change(index, LockAction::Release);
                false
            }
            Act::SeeHeld => {
                if !self.waiting.contains_key(&wi) {
                    let holder = self.holds(wi);
                    self.waiting.insert(wi, holder);
                    self.change(index, LockAction::Attempt);
                }
                true
            }
            Act::SeeFree => {
                // A holder that finds its lock free has seen it given back (or gives it back
                // late, writing 0 over 0): it no longer holds it. A waiter that finds it free
                // goes on trying, so its wait continues until it acquires.
                if self.holds(wi) {
                    self.holders.retain(|h| h.0 != wi);
                    self.waiting.remove(&wi);
                }
                false
            }
        }
    }

    /// Work-item `wi` finished: it holds and waits for nothing any more. A wait that ends
    /// this way is not counted as contention: the work-item may have been polling for a signal
    /// as well as giving up on an acquire, and the log cannot tell which.
    fn finish(&mut self, wi: u32) {
        self.holders.retain(|h| h.0 != wi);
        self.waiting.remove(&wi);
    }

    fn into_lock(mut self) -> Option<Lock> {
        if self.disqualified || self.atomic_acquisitions == 0 || self.releases == 0 {
            return None;
        }
        let waiters_at_end = self.waiting.len() as u32;
        // Waits still going on when the log ends (spinners of a hung run) were contended
        // attempts too.
        self.contended += self.waiting.values().filter(|&&holder| !holder).count() as u64;
        let held_at_end = self.set_by.filter(|_| self.value.is_some_and(|v| v != 0)).map(|s| s.1);
        Some(Lock {
            location: self.location,
            group: self.group,
            acquisitions: self.acquisitions,
            contended: self.contended,
            max_holders: self.max_holders,
            timeline: self.timeline,
            omitted: self.omitted,
            problems: self.problems,
            held_at_end,
            waiters_at_end,
        })
    }
}

/// Flags of the first pass over the atomics.
const ACQUIRE: u8 = 1;
const RELEASE: u8 = 2;
const OTHER_WRITE: u8 = 4;

/// Finds the locks in `log`, in the order of their first event. `group_of` gives a work-item's
/// work-group (local memory is one location per group).
pub fn analyse(log: &EventLog, group_of: &dyn Fn(u32) -> Option<u32>) -> Vec<Lock> {
    // First the candidates, from the atomics alone: an acquire, a release and no atomic write
    // outside the protocol. The kind column is scanned first so that events of no interest
    // are never assembled.
    let of_kind = |kinds: &'static [EventKind]| {
        log.kinds().iter().enumerate().filter(move |(_, k)| kinds.contains(k)).filter_map(|(i, _)| Some((i, log.get(i)?)))
    };
    // A lock needs a release: without any atomic that turns non-zero into 0 there is none,
    // which settles most runs (an exploration's, at the end of each) without building the
    // map below.
    if !of_kind(&[EventKind::Atomic]).any(|(_, e)| is_atomic(&e) && e.read != 0 && e.written == 0) {
        return Vec::new();
    }
    let mut flags: BTreeMap<Key, u8> = BTreeMap::new();
    for (_, e) in of_kind(&[EventKind::Atomic]).filter(|(_, e)| is_atomic(e)) {
        let flag = match (e.read != 0, e.written != 0) {
            (false, true) => ACQUIRE,
            (true, false) => RELEASE,
            (true, true) if e.read != e.written => OTHER_WRITE,
            _ => continue,
        };
        if let Some(k) = key(&e, group_of) {
            *flags.entry(k).or_default() |= flag;
        }
    }
    let mut states: BTreeMap<Key, (usize, State)> = BTreeMap::new();
    for (k, f) in flags {
        if f == ACQUIRE | RELEASE {
            let group = (k.group != u32::MAX).then_some(k.group);
            let space = if group.is_some() { Space::Local } else { Space::Global };
            let location = Location { space, alloc: k.alloc, offset: k.offset };
            states.insert(k, (usize::MAX, State::new(location, group)));
        }
    }
    if states.is_empty() {
        return Vec::new();
    }
    // Then every event on a candidate, in order; a work-item's finish ends its holds and waits.
    let mut involved: BTreeMap<u32, BTreeSet<Key>> = BTreeMap::new();
    let relevant = &[EventKind::Atomic, EventKind::Store, EventKind::Load, EventKind::AsyncCopy, EventKind::Finish];
    for (index, e) in of_kind(relevant) {
        if e.kind == EventKind::Finish {
            for k in involved.remove(&e.work_item).unwrap_or_default() {
                if let Some((_, state)) = states.get_mut(&k) {
                    state.finish(e.work_item);
                }
            }
            continue;
        }
        let Some(k) = key(&e, group_of) else { continue };
        let Some((first, state)) = states.get_mut(&k) else { continue };
        *first = (*first).min(index);
        if state.apply(index, &e) {
            involved.entry(e.work_item).or_default().insert(k);
        }
    }
    let mut locks: Vec<(usize, Lock)> = states.into_values().filter_map(|(first, s)| Some((first, s.into_lock()?))).collect();
    locks.sort_by_key(|(first, _)| *first);
    locks.into_iter().map(|(_, l)| l).collect()
}

/// A work-item's work-group, from the machine.
pub(crate) fn group_of(machine: &Machine) -> impl Fn(u32) -> Option<u32> + '_ {
    |wi| machine.items.get(wi as usize).map(|item| item.group)
}

/// The global id of work-item `wi` (zeros if there is no such work-item).
fn global_id(machine: &Machine, wi: u32) -> [u64; 3] {
    let Some(item) = machine.items.get(wi as usize) else { return [0; 3] };
    let first = machine.groups.get(item.group as usize).map_or(wi, |g| g.first);
    machine.geometry.global_id(item.group, wi.saturating_sub(first))
}

/// "3" for a one-dimensional id, "(3, 1, 0)" otherwise.
fn describe(id: [u64; 3]) -> String {
    if id[1] == 0 && id[2] == 0 { id[0].to_string() } else { format!("({}, {}, {})", id[0], id[1], id[2]) }
}

/// What the kernel calls a lock's location: `lock` for a variable, `locks[2]` for an element
/// of a buffer or array, `name (byte 8)` inside a variable whose element type is unknown, with
/// the work-group for local memory.
fn location_name(machine: &Machine, lock: &Lock) -> String {
    name_location(machine, lock.location, lock.group)
}

/// What the kernel calls `loc` (in the local memory of `group` for local locations), for
/// every message that names a place in memory.
pub(crate) fn name_location(machine: &Machine, loc: crate::trace::Location, group: Option<u32>) -> String {
    let alloc = match (loc.space, group) {
        (Space::Local, Some(g)) => machine.groups.get(g as usize).and_then(|g| g.local.get(loc.alloc as usize)),
        (Space::Global, _) => machine.global.get(loc.alloc as usize),
        _ => None,
    };
    let name = match alloc {
        None => format!("allocation {} (byte {})", loc.alloc, loc.offset),
        Some(a) => {
            let size = a.elem.map(|t| t.size().max(1));
            // Buffers are pointers, so their elements are always indexed; a variable that
            // holds one element is named alone.
            match size {
                Some(size) if loc.space == Space::Global || a.bytes.len() as u64 > size => {
                    let index = format!("{}[{}]", a.name, loc.offset / size);
                    if loc.offset.is_multiple_of(size) { index } else { format!("{index} (byte {})", loc.offset) }
                }
                _ if loc.offset == 0 => a.name.clone(),
                _ => format!("{} (byte {})", a.name, loc.offset),
            }
        }
    };
    match group {
        Some(g) => format!("{name} of work-group {}", describe(machine.geometry.group_id(g))),
        None => name,
    }
}

/// The locks of the machine's run so far, for the report and the app.
pub(crate) fn reports(machine: &Machine) -> Vec<LockReport> {
    let log = &machine.log;
    analyse(log, &group_of(machine))
        .into_iter()
        .map(|lock| {
            let timeline = lock
                .timeline
                .iter()
                .filter_map(|c| {
                    let e = log.get(c.event)?;
                    Some(LockEvent {
                        step: e.step,
                        work_item: global_id(machine, e.work_item),
                        what: c.action,
                        holder: c.holder.map(|wi| global_id(machine, wi)),
                        waiters: c.waiters,
                        span: Some(e.span),
                    })
                })
                .collect();
            LockReport {
                location: location_name(machine, &lock),
                acquisitions: lock.acquisitions,
                contended: lock.contended,
                max_holders: lock.max_holders,
                address: Some(lock.location),
                group: lock.group,
                timeline,
                timeline_omitted: lock.omitted,
            }
        })
        .collect()
}

/// The `lock-misuse` findings of a run that ended with `status`, in the order of the events
/// they point at, once per kind of problem and source location.
pub(crate) fn findings(machine: &Machine, status: RunStatus, line_col: &dyn Fn(Span) -> (u32, u32)) -> Vec<Finding> {
    let log = &machine.log;
    let at = |index: usize| log.get(index);
    let mut found: Vec<(usize, u8, Finding)> = Vec::new();
    let related = |e: &Event, message: String| {
        let (line, column) = line_col(e.span);
        Related { line, column, work_item: Some(global_id(machine, e.work_item)), step: Some(e.step), message, span: Some(e.span) }
    };
    let finding = |e: &Event, severity: Severity, message: String, related: Vec<Related>| {
        let (line, column) = line_col(e.span);
        Finding {
            kind: FindingKind::LockMisuse,
            severity,
            message,
            line,
            column,
            work_item: Some(global_id(machine, e.work_item)),
            step: Some(e.step),
            related,
            race: None,
            memory: None,
            benign: false,
            addresses: None,
            span: Some(e.span),
        }
    };
    let who = |e: &Event| describe(global_id(machine, e.work_item));
    for lock in analyse(log, &group_of(machine)) {
        let name = location_name(machine, &lock);
        // A release by a non-holder that let a second work-item in is told with the error it
        // caused, not again as a warning of its own.
        let caused_overlap: BTreeSet<usize> = lock
            .problems
            .iter()
            .filter_map(|p| match *p {
                Problem::Overlap { released_by, .. } => released_by,
                Problem::ForeignRelease { .. } => None,
            })
            .collect();
        for p in &lock.problems {
            match *p {
                Problem::Overlap { acquire, other, released_by } => {
                    let (Some(b), Some(a)) = (at(acquire), at(other)) else { continue };
                    let how = if b.kind == EventKind::Store { ", with a plain store that does not check whether the lock is free," } else { "" };
                    let message = format!(
                        "mutual exclusion failed: work-items {} and {} held `{name}` at once; work-item {} acquired it at step {}{how} while work-item {}, which acquired it at step {}, had not released it",
                        who(&a),
                        who(&b),
                        who(&b),
                        b.step,
                        who(&a),
                        a.step
                    );
                    let mut rel = vec![related(&a, format!("work-item {} acquired `{name}` here at step {}", who(&a), a.step))];
                    if let Some(r) = released_by.and_then(at) {
                        rel.push(related(&r, format!("work-item {} released it here at step {} without holding it", who(&r), r.step)));
                    }
                    found.push((acquire, 0, finding(&b, Severity::Error, message, rel)));
                }
                Problem::ForeignRelease { release, set_by } => {
                    let Some(r) = at(release).filter(|_| !caused_overlap.contains(&release)) else { continue };
                    let (by, rel) = match set_by.and_then(at) {
                        Some(a) => (
                            format!("work-item {} acquired it at step {}", who(&a), a.step),
                            vec![related(&a, format!("work-item {} acquired `{name}` here at step {}", who(&a), a.step))],
                        ),
                        None => ("it was already set when the run began".to_string(), Vec::new()),
                    };
                    let message = format!(
                        "`{name}` released by work-item {}, which does not hold it ({by}): the lock works as a signal between work-items, not as mutual exclusion; a lock that guards a critical section must be released by its holder",
                        who(&r)
                    );
                    found.push((release, 1, finding(&r, Severity::Warning, message, rel)));
                }
            }
        }
        let Some((index, a)) = lock.held_at_end.and_then(|index| Some((index, at(index)?))) else { continue };
        let waiters = match lock.waiters_at_end {
            0 => String::new(),
            1 => "; 1 work-item waits for it".to_string(),
            n => format!("; {n} work-items wait for it"),
        };
        let (severity, when) = match status {
            RunStatus::Completed => (Severity::Error, "at the end of the run".to_string()),
            RunStatus::Deadlock | RunStatus::Livelock => (Severity::Warning, format!("when the run stopped ({})", status.as_str())),
            _ => continue,
        };
        let message = format!("`{name}` is still held {when}: work-item {} acquired it at step {} and nobody released it{waiters}", who(&a), a.step);
        found.push((index, 2, finding(&a, severity, message, Vec::new())));
    }
    found.sort_by_key(|(index, _, _)| *index);
    let mut seen = BTreeSet::new();
    found
        .into_iter()
        .filter(|(_, class, f)| seen.insert((*class, f.span.map_or((0, 0), |s| (s.start, s.end)))))
        .map(|(_, _, f)| f)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A log over one global location: each entry is (work-item, kind, read, written).
    fn log(events: &[(u32, EventKind, u64, u64)]) -> EventLog {
        let mut log = EventLog::default();
        for (step, &(work_item, kind, read, written)) in events.iter().enumerate() {
            let location = (kind != EventKind::Finish).then_some(Location { space: Space::Global, alloc: 1, offset: 0 });
            let order = (kind == EventKind::Atomic).then_some(0);
            log.push(Event { step: step as u64 + 1, work_item, kind, location, read, written, span: Span::default(), order, scope: order });
        }
        log
    }

    fn locks(events: &[(u32, EventKind, u64, u64)]) -> Vec<Lock> {
        analyse(&log(events), &|_| Some(0))
    }

    use EventKind::{Atomic, Finish, Load, Store};

    #[test]
    fn a_spin_lock_is_recognised_with_its_contention() {
        // 0 takes it, 1 fails twice and polls, 0 gives it back, 1 takes and gives it back.
        let l = locks(&[(0, Atomic, 0, 1), (1, Atomic, 1, 1), (1, Atomic, 1, 1), (1, Load, 1, 0), (0, Atomic, 1, 0), (1, Atomic, 0, 1), (1, Store, 0, 0)]);
        assert_eq!(l.len(), 1);
        let l = &l[0];
        assert_eq!((l.acquisitions, l.contended, l.max_holders), (2, 1, 1));
        assert!(l.problems.is_empty() && l.held_at_end.is_none());
        let actions: Vec<_> = l.timeline.iter().map(|c| (c.action, c.holder, c.waiters)).collect();
        assert_eq!(
            actions,
            [
                (LockAction::Acquire, Some(0), 0),
                (LockAction::Attempt, Some(0), 1),
                (LockAction::Release, None, 1),
                (LockAction::Acquire, Some(1), 0),
                (LockAction::Release, None, 0),
            ]
        );
    }

    #[test]
    fn counters_and_flags_that_are_never_cleared_are_not_locks() {
        assert!(locks(&[(0, Atomic, 0, 1), (1, Atomic, 1, 2), (2, Atomic, 2, 0)]).is_empty());
        assert!(locks(&[(0, Atomic, 0, 1), (1, Atomic, 1, 1)]).is_empty());
        // A plain store of 0 over 0 initialises; it is not a release.
        assert!(locks(&[(0, Store, 0, 0), (0, Atomic, 0, 1)]).is_empty());
        // Data that a plain store clears and a compare-exchange fills is no lock: a lock needs
        // an atomic release.
        assert!(locks(&[(1, Atomic, 7, 7), (0, Store, 0, 0), (0, Atomic, 0, 42)]).is_empty());
    }

    #[test]
    fn a_release_by_a_non_holder_then_a_second_acquire_is_an_overlap() {
        let l = locks(&[(0, Atomic, 0, 1), (1, Atomic, 1, 0), (2, Atomic, 0, 1), (0, Atomic, 1, 0), (2, Atomic, 0, 0)]);
        let l = &l[0];
        assert_eq!(l.max_holders, 2);
        assert_eq!(l.problems, [Problem::ForeignRelease { release: 1, set_by: Some(0) }, Problem::Overlap { acquire: 2, other: 0, released_by: Some(1) }]);
    }

    #[test]
    fn a_holder_that_sees_its_lock_released_hands_it_over() {
        // The seed 003 protocol: 0 sets, 0 polls, 1 clears, 0 sees 0, then 0 sets again and 1
        // clears again: releases by a non-holder, but never two holders.
        let l = locks(&[(0, Atomic, 0, 1), (0, Atomic, 1, 1), (1, Atomic, 1, 0), (0, Atomic, 0, 0), (0, Atomic, 0, 1), (1, Atomic, 1, 0)]);
        let l = &l[0];
        assert_eq!((l.acquisitions, l.contended, l.max_holders), (2, 0, 1));
        assert!(l.problems.iter().all(|p| matches!(p, Problem::ForeignRelease { .. })));
        assert_eq!(l.held_at_end, None);
    }

    #[test]
    fn a_plain_store_claims_the_lock_without_testing_it() {
        // 1 reads the lock free, 0 takes it, and 1 stores 1 over it believing it free.
        let l = locks(&[(1, Load, 0, 0), (0, Atomic, 0, 1), (1, Store, 0, 1), (0, Atomic, 1, 0), (1, Store, 0, 0)]);
        assert_eq!(l[0].max_holders, 2);
        assert_eq!(l[0].problems, [Problem::Overlap { acquire: 2, other: 1, released_by: None }]);
    }

    #[test]
    fn a_lock_taken_and_never_released_is_held_at_the_end_and_finishing_ends_a_hold() {
        let l = locks(&[(0, Atomic, 0, 1), (0, Atomic, 1, 0), (1, Atomic, 0, 1), (1, Finish, 0, 0), (2, Atomic, 1, 1)]);
        let l = &l[0];
        assert_eq!(l.held_at_end, Some(2));
        assert_eq!((l.waiters_at_end, l.contended), (1, 1));
        // A finished holder no longer holds, so a later acquire is no overlap.
        let l = locks(&[(0, Atomic, 0, 1), (0, Finish, 0, 0), (1, Atomic, 1, 0), (2, Atomic, 0, 1), (2, Atomic, 1, 0)]);
        assert_eq!(l[0].max_holders, 1);
    }
}
