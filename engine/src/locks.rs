//! Lock recognition: which memory locations a run used as spin locks, who held each one when,
//! and where the protocol was broken.
//!
//! The analysis reads the event log once when the run ends (its findings need the whole run,
//! so they appear then, and the session keeps what it found for the report) and when a
//! report of a run still going is built, and costs the interpreter nothing. It
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
//! Only a lock protocol is called a lock. An atomic event records its operation, the value it
//! found and the value it left, and per location (local memory counts once per work-group):
//!
//! - an *acquire* is a test-and-set that won: a compare-exchange, an exchange or an `or`
//!   (`atomic_cmpxchg(&l, 0, 1)`, `atomicCAS(l, 0, 1)`, `atomic_flag_test_and_set`,
//!   `atomic_xchg(&l, 1)`, `atomicExch(l, 1)`, `atomic_or(&l, 1)`) that turned 0 into
//!   non-zero. A store of a non-zero value, atomic or plain, claims the lock without testing
//!   it: it takes part in a lock (it is how a broken lock lets a second work-item in) but does
//!   not make one, unless it is an atomic store right after the same work-item read the lock
//!   free: a check-then-set lock, which does not exclude but is meant as a lock;
//! - a *release* is a store, an exchange or a compare-exchange that turned non-zero into 0
//!   (`atomic_flag_clear`, `atomic_store(&l, 0)`, `atomic_xchg(&l, 0)`, `atomicExch(l, 0)`,
//!   `atomicCAS(l, 1, 0)`), or a plain store of 0 over a set lock;
//! - an *attempt* is an atomic that found the location non-zero and left it as it was (a
//!   test-and-set that lost, a poll such as `atomic_add(&l, 0)` or `atomic_load`), or a plain
//!   load of a non-zero value: the work-item waits for the lock. Its wait lasts while its
//!   shared-memory events stay on the lock; one that goes elsewhere while the lock is still
//!   held gave up (a try-lock, or a work-item that only looked).
//!
//! Any other write rules a location out: arithmetic (`atomic_inc`, `atomic_add(&l, 1)`,
//! `atomic_xor`, `atomic_and`, min and max), a move from one non-zero value to another (a
//! counter going from 1 to 2, a bitmask gaining a second bit, a compare-exchange loop over a
//! running sum), an async copy into it. So toggles, counters and bitmasks are never locks,
//! whatever values they pass through.
//!
//! A location with an acquire and nothing that rules it out is a lock when the run shows the
//! protocol: a release by an atomic; or a work-item that waited for it through consecutive
//! attempts and then took it; or, when the log ends, a work-item still waiting for it through
//! consecutive attempts (a spinner of a hung run: a lock taken and never released is still a
//! lock, and the hang is explained by it). A claim that the others test once and then move
//! on from ("the first one wins") is not a lock, nor is a flag that announces something
//! once. Locks with more than one locked value (0, 1 and 2 in futex-style mutexes) and ticket
//! locks are not recognised; GPU kernels rarely use them.
//!
//! # Holders
//!
//! A work-item holds a lock from its acquire until it releases it. It also stops holding it
//! when it reads or writes 0 there (the lock was given back, by someone else, and it has seen
//! that) and when it finishes. `max_holders` is the most work-items holding at once; it can
//! exceed 1 only when a work-item acquires while another still holds, which the rules allow
//! only after a release by a non-holder or a claim by a store. Either way mutual exclusion
//! failed, and that is an error finding.
//!
//! # Waiters and contention
//!
//! A work-item that finds the lock held starts to wait, and its wait lasts until it acquires
//! the lock, releases it (it was waiting for a signal), finds it free while holding it (see
//! above), goes on to other memory or finishes. `contended` counts the acquisitions that had
//! to wait, plus the waits still going on when the log ends (the spinners of a hung run). A
//! wait that ends any other way is not counted: it may have been a try-lock giving up or a
//! poll for a signal, and the log cannot tell which. A holder polling its own lock waits for
//! a signal, not for the lock, so its wait is never contention.

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
use crate::exec::{Machine, Status};
use crate::ir::AtomicOp;
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
    /// It set the lock: `tested` by a test-and-set that won, or claimed by a store.
    Acquire {
        tested: bool,
    },
    Release {
        atomic: bool,
    },
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

/// What event `e`, an atomic with operation `op` (`None` when the log does not say), means
/// for a lock whose value before it was set (`was_set`).
fn classify(e: &Event, op: Option<AtomicOp>, was_set: bool) -> Act {
    if is_atomic(e) {
        // A lock polled with a relaxed load that read an older value is still a lock.
        if e.leaves_value(op) {
            return if e.read != 0 { Act::SeeHeld } else { Act::SeeFree };
        }
        return match (e.read != 0, e.written != 0, op) {
            (false, true, Some(AtomicOp::CmpXchg | AtomicOp::CmpXchgWeak | AtomicOp::Xchg | AtomicOp::Or) | None) => Act::Acquire { tested: true },
            (false, true, Some(AtomicOp::Store)) => Act::Acquire { tested: false },
            (true, false, Some(AtomicOp::Store | AtomicOp::Xchg | AtomicOp::CmpXchg | AtomicOp::CmpXchgWeak) | None) => Act::Release { atomic: true },
            _ => Act::Foreign,
        };
    }
    match e.kind {
        EventKind::Store if e.written != 0 => Act::Acquire { tested: false },
        EventKind::Store if was_set => Act::Release { atomic: false },
        EventKind::Store => Act::SeeFree,
        EventKind::Load if e.read != 0 => Act::SeeHeld,
        EventKind::Load => Act::SeeFree,
        EventKind::AsyncCopy => Act::Foreign,
        _ => Act::Nothing,
    }
}

/// A work-item waiting for a lock.
#[derive(Clone, Copy)]
struct Wait {
    /// Whether it held the lock when it began to wait (a holder polling its own lock waits
    /// for a signal, not for the lock, and is not contention).
    holder: bool,
    /// Its attempts so far, each its next shared-memory event after the one before.
    attempts: u32,
}

/// The analysis state of one candidate location.
struct State {
    location: Location,
    group: Option<u32>,
    /// Its value after the events so far, once one has shown it.
    value: Option<u64>,
    /// Who holds it, each with the event of its acquire.
    holders: Vec<(u32, usize)>,
    /// Who waits for it.
    waiting: BTreeMap<u32, Wait>,
    /// Who has just read it free: a store of non-zero right after is a check-then-set claim.
    checked: BTreeSet<u32>,
    /// Claims by an atomic store right after reading the lock free (a lock built as
    /// check-then-set, which does not exclude, but is meant as a lock).
    checked_claims: u64,
    /// The latest acquire, (work-item, event): what set the lock, while it is set.
    set_by: Option<(u32, usize)>,
    /// The latest release by a non-holder.
    foreign_release: Option<usize>,
    tested_acquisitions: u64,
    atomic_releases: u64,
    /// Whether a work-item took it after waiting through consecutive attempts.
    waited_and_took: bool,
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
            checked: BTreeSet::new(),
            checked_claims: 0,
            set_by: None,
            foreign_release: None,
            tested_acquisitions: 0,
            atomic_releases: 0,
            waited_and_took: false,
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

    /// Applies event `index`, an atomic with operation `op` when it is one.
    fn apply(&mut self, index: usize, e: &Event, op: Option<AtomicOp>) {
        let was_set = self.value.is_some_and(|v| v != 0);
        let act = classify(e, op, was_set);
        match e.kind {
            EventKind::Atomic | EventKind::Store if act != Act::Nothing => self.value = Some(e.written),
            EventKind::Load => self.value = Some(e.read),
            EventKind::AsyncCopy => self.value = None,
            _ => {}
        }
        let wi = e.work_item;
        let checked = self.checked.remove(&wi);
        match act {
            Act::Nothing => {}
            Act::Foreign => self.disqualified = true,
            // Storing non-zero into a lock one already holds changes nothing.
            Act::Acquire { tested: false } if was_set && self.holds(wi) => {}
            Act::Acquire { tested } => {
                if let Some(&(_, other)) = self.holders.iter().find(|h| h.0 != wi) {
                    let released_by = self.foreign_release.filter(|&r| r > other);
                    self.problem(Problem::Overlap { acquire: index, other, released_by });
                }
                self.holders.retain(|h| h.0 != wi);
                self.holders.push((wi, index));
                self.max_holders = self.max_holders.max(self.holders.len() as u64);
                self.acquisitions += 1;
                if tested {
                    self.tested_acquisitions += 1;
                } else if checked && is_atomic(e) {
                    self.checked_claims += 1;
                }
                if let Some(wait) = self.waiting.remove(&wi) {
                    if !wait.holder {
                        self.contended += 1;
                    }
                    // A failed attempt, then the test-and-set that won (or the check that found
                    // it free and the claim): it spun for the lock.
                    self.waited_and_took |= (tested || checked) && wait.attempts >= 1;
                }
                self.set_by = Some((wi, index));
                self.change(index, LockAction::Acquire);
            }
            Act::Release { atomic } => {
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
                if atomic {
                    self.atomic_releases += 1;
                }
                self.change(index, LockAction::Release);
            }
            Act::SeeHeld => match self.waiting.get_mut(&wi) {
                Some(wait) => wait.attempts += 1,
                None => {
                    let holder = self.holds(wi);
                    self.waiting.insert(wi, Wait { holder, attempts: 1 });
                    self.change(index, LockAction::Attempt);
                }
            },
            Act::SeeFree => {
                // A read that found it free (writing 0 over 0 checks nothing).
                if e.kind != EventKind::Store && op != Some(AtomicOp::Store) {
                    self.checked.insert(wi);
                }
                // A holder that finds its lock free has seen it given back (or gives it back
                // late, writing 0 over 0): it no longer holds it. A waiter that finds it free
                // goes on trying, so its wait continues until it acquires.
                if self.holds(wi) {
                    self.holders.retain(|h| h.0 != wi);
                    self.waiting.remove(&wi);
                }
            }
        }
    }

    /// Work-item `wi` went on to other shared memory: a wait for this lock ends there (it
    /// gave up, or only looked), without counting as contention.
    fn leave(&mut self, wi: u32) {
        self.waiting.remove(&wi);
        self.checked.remove(&wi);
    }

    /// Work-item `wi` finished: it holds and waits for nothing any more. A wait that ends
    /// this way is not counted as contention: the work-item may have been polling for a signal
    /// as well as giving up on an acquire, and the log cannot tell which.
    fn finish(&mut self, wi: u32) {
        self.holders.retain(|h| h.0 != wi);
        self.waiting.remove(&wi);
        self.checked.remove(&wi);
    }

    /// The lock, if the log shows this location used as one (see the module's notes).
    /// [`candidates`] leaves out the locations that nothing claimed; a rule here that made a
    /// lock without a claim would have to change it too (a property test compares the two).
    fn into_lock(mut self) -> Option<Lock> {
        let spinning = self.waiting.values().any(|w| w.attempts >= 2);
        let claimed = self.tested_acquisitions > 0 || self.checked_claims > 0;
        if self.disqualified || !claimed || !(self.atomic_releases > 0 || self.waited_and_took || spinning) {
            return None;
        }
        let waiters_at_end = self.waiting.len() as u32;
        // Waits still going on when the log ends (spinners of a hung run) were contended
        // attempts too.
        self.contended += self.waiting.values().filter(|w| !w.holder).count() as u64;
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

/// What one atomic shows of its location, before the events are followed in order. The
/// order (by variant, then work-item) is the order `candidates` sorts them in.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Sign {
    /// It wrote the location outside any lock protocol.
    Foreign,
    /// It set it (0 to non-zero) by a test-and-set.
    Tested,
    /// This work-item's atomic store set it.
    Claim(u32),
    /// This work-item's atomic read it free.
    FreeRead(u32),
}

/// The sign atomic `e` (with operation `op`, as the log gives it) shows of its location, if any.
fn sign(e: &Event, op: Option<AtomicOp>) -> Option<Sign> {
    if !is_atomic(e) {
        return None;
    }
    if e.leaves_value(op) {
        // A read that found it free, the check of a check-then-set claim (writing 0 over 0
        // checks nothing).
        return (e.read == 0 && op != Some(AtomicOp::Store)).then_some(Sign::FreeRead(e.work_item));
    }
    match classify(e, op, e.read != 0) {
        Act::Acquire { tested: true } => Some(Sign::Tested),
        // An atomic store that set it: a claim, which makes a lock only right after the same
        // work-item read it free.
        Act::Acquire { tested: false } => Some(Sign::Claim(e.work_item)),
        Act::Foreign => Some(Sign::Foreign),
        _ => None,
    }
}

/// What the signs of one location add up to, as far as telling whether it may be a lock.
#[derive(Clone, Copy, Default)]
struct Seen {
    claimed: bool,
    foreign: bool,
}

impl Seen {
    fn and(self, sign: Sign) -> Seen {
        Seen { claimed: self.claimed || matches!(sign, Sign::Tested | Sign::Claim(_)), foreign: self.foreign || sign == Sign::Foreign }
    }

    /// Whether the location may be a lock: something claimed it and nothing wrote it outside
    /// the protocol. Only such a location makes the analysis read more of the log than its
    /// atomics.
    fn may_be_lock(self) -> bool {
        self.claimed && !self.foreign
    }
}

/// Looks at a run's atomics as it goes, for a location that may be a lock
/// ([`Watch::may_need_events`]).
#[derive(Default)]
pub struct Watch {
    /// Where the log's atomics were read up to.
    read: usize,
    seen: BTreeMap<Key, Seen>,
    /// How many locations of `seen` may be locks.
    may_be_locks: usize,
}

impl Watch {
    /// Whether, by the atomics pushed to `log` so far, the lock analysis at the run's end may
    /// read more of the log than its atomics: a location that something claimed as a lock
    /// and nothing wrote outside the protocol yet. A log that keeps only atomics would then
    /// miss the events it reads ([`EventLog::forget_events`]), so a run that sees one starts
    /// over keeping them at once (`why::finish`) rather than at its end, where the analysis
    /// runs. A later write outside the protocol can still rule the location out; the run then
    /// kept what it did not need, which costs time and changes no finding. Each call reads
    /// only the atomics pushed since the one before.
    pub fn may_need_events(&mut self, log: &EventLog, group_of: &dyn Fn(u32) -> Option<u32>) -> bool {
        for (_, e, op) in log.atomics_from(self.read) {
            if let (Some(k), Some(sign)) = (key(&e, group_of), sign(&e, op)) {
                let seen = self.seen.entry(k).or_default();
                let before = seen.may_be_lock();
                *seen = seen.and(sign);
                match (before, seen.may_be_lock()) {
                    (false, true) => self.may_be_locks += 1,
                    (true, false) => self.may_be_locks -= 1,
                    _ => {}
                }
            }
        }
        self.read = log.atomics_end();
        self.may_be_locks > 0
    }
}

/// Finds the locks in `log`, in the order of their first event. `group_of` gives a work-item's
/// work-group (local memory is one location per group).
pub fn analyse(log: &EventLog, group_of: &dyn Fn(u32) -> Option<u32>) -> Vec<Lock> {
    follow(log, group_of, candidates(log, group_of))
}

/// The events of `kinds`, with their indices. The log's kind column is looked at first, so
/// that events of no interest are never assembled.
fn of_kind<'a>(log: &'a EventLog, kinds: &'static [EventKind]) -> impl Iterator<Item = (usize, Event)> + 'a {
    log.kinds().iter().enumerate().filter(move |(_, k)| kinds.contains(k)).filter_map(|(i, _)| Some((i, log.get(i)?)))
}

/// The locations that may be locks, in order: those an atomic set and nothing wrote outside
/// the protocol, less those that no event could have claimed as a lock needs.
fn candidates(log: &EventLog, group_of: &dyn Fn(u32) -> Option<u32>) -> Vec<Key> {
    // First what the atomics alone show, one sign per atomic, sorted by location (a run has
    // few atomics, and an exploration analyses each run's: one vector beats a map of them).
    // Read through `atomics`, which a log that forgets other events keeps (most runs stop
    // at this loop).
    let mut signs: Vec<(Key, Sign)> = log.atomics().filter_map(|(_, e, op)| Some((key(&e, group_of)?, sign(&e, op)?))).collect();
    signs.sort_unstable();
    // A location is a lock only if something claimed it by testing it (`State::into_lock`):
    // a test-and-set that won, or an atomic store by a work-item that read it free (with an
    // atomic or, looked for only when needed, a plain load). Most runs (an exploration's, at
    // the end of each) have no such location and stop here: message passing's flags are
    // stored by one work-item and read by another. Each location's signs come together,
    // `Foreign` and `Tested` first.
    let mut candidates: Vec<Key> = Vec::new();
    // (location, work-item) of the claims no atomic checked, sorted.
    let mut unsure: Vec<(Key, u32)> = Vec::new();
    for run in signs.chunk_by(|a, b| a.0 == b.0) {
        let k = run[0].0;
        let claimers = || run.iter().filter_map(|&(_, s)| if let Sign::Claim(w) = s { Some(w) } else { None });
        let tested = run.iter().any(|&(_, s)| s == Sign::Tested);
        if !run.iter().fold(Seen::default(), |seen, &(_, s)| seen.and(s)).may_be_lock() {
            continue;
        }
        if tested || claimers().any(|w| run.binary_search(&(k, Sign::FreeRead(w))).is_ok()) {
            candidates.push(k);
        } else {
            unsure.extend(claimers().map(|w| (k, w)));
        }
    }
    if !unsure.is_empty() {
        for (_, e) in of_kind(log, &[EventKind::Load]).filter(|(_, e)| e.read == 0) {
            if let Some(k) = key(&e, group_of).filter(|k| unsure.binary_search(&(*k, e.work_item)).is_ok()) {
                candidates.push(k);
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
    }
    candidates
}

/// Follows every event on the `candidates` in order, and keeps those that the log shows used
/// as locks.
fn follow(log: &EventLog, group_of: &dyn Fn(u32) -> Option<u32>, candidates: Vec<Key>) -> Vec<Lock> {
    let mut states: Vec<(usize, State)> = Vec::new();
    let mut index: BTreeMap<Key, usize> = BTreeMap::new();
    for k in candidates {
        let group = (k.group != u32::MAX).then_some(k.group);
        let space = if group.is_some() { Space::Local } else { Space::Global };
        let location = Location { space, alloc: k.alloc, offset: k.offset };
        index.insert(k, states.len());
        states.push((usize::MAX, State::new(location, group)));
    }
    if states.is_empty() {
        return Vec::new();
    }
    // Then every event on a candidate, in order; a work-item's finish ends its holds and waits,
    // and so does its going on to other memory end its wait. `last` is each work-item's
    // latest candidate plus one (0 for other memory).
    let mut involved: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
    let mut last: Vec<u32> = Vec::new();
    let relevant = &[EventKind::Atomic, EventKind::Store, EventKind::Load, EventKind::AsyncCopy, EventKind::Finish];
    for (i, e) in of_kind(log, relevant) {
        let wi = e.work_item;
        if e.kind == EventKind::Finish {
            for k in involved.remove(&wi).unwrap_or_default() {
                states[k].1.finish(wi);
            }
            continue;
        }
        let candidate = key(&e, group_of).and_then(|k| index.get(&k).copied());
        // An async copy's elements are its issuer's events, but the issuer is not there.
        if e.kind != EventKind::AsyncCopy && e.location.is_some() && (wi as usize) < (1 << 24) {
            if last.len() <= wi as usize {
                last.resize(wi as usize + 1, 0);
            }
            let now = candidate.map_or(0, |k| k as u32 + 1);
            let before = std::mem::replace(&mut last[wi as usize], now);
            if before != 0 && before != now {
                states[before as usize - 1].1.leave(wi);
            }
        }
        let Some(k) = candidate else { continue };
        let (first, state) = &mut states[k];
        *first = (*first).min(i);
        state.apply(i, &e, log.atomic_op(i));
        involved.entry(wi).or_default().insert(k);
    }
    let mut locks: Vec<(usize, Lock)> = states.into_iter().filter_map(|(first, s)| Some((first, s.into_lock()?))).collect();
    locks.sort_by_key(|(first, _)| *first);
    locks.into_iter().map(|(_, l)| l).collect()
}

/// What the hang finding needs from the session to tell where a work-item is.
pub(crate) struct HangContext<'a> {
    /// The 1-based line of a span.
    pub line_of: &'a dyn Fn(Span) -> u32,
    /// Whether the scheduler holds a ready work-item back (lockstep).
    pub held_back: &'a dyn Fn(u32) -> bool,
}

/// The lock at `loc` as work-item `wi` sees it (local memory is per work-group).
pub(crate) fn lock_at<'a>(machine: &Machine, locks: &'a [Lock], loc: Location, wi: u32) -> Option<&'a Lock> {
    let group = match loc.space {
        Space::Local => Some(machine.items.get(wi as usize)?.group),
        _ => None,
    };
    locks.iter().find(|l| l.location == loc && l.group == group)
}

/// The location work-item `wi` read last (a load or an atomic), looking back a bounded
/// number of events.
pub(crate) fn last_read(log: &EventLog, wi: u32) -> Option<Location> {
    let from = log.len().saturating_sub(100_000);
    let (kinds, items) = (log.kinds(), log.work_items());
    (from..log.len()).rev().filter(|&i| items[i] == wi && matches!(kinds[i], EventKind::Load | EventKind::Atomic)).find_map(|i| log.get(i)?.location)
}

/// For the hang finding, a spinner's wait for `lock` (still held): who holds it since when,
/// and what that work-item is doing: ` waiting for the lock `l`, held by work-item 1 since
/// step 3, which waits at the barrier at line 5 (1 of 4 arrived)`.
pub(crate) fn spinning_for(machine: &Machine, locks: &[Lock], lock: &Lock, spinner: u32, context: &HangContext) -> Option<String> {
    let acquire = machine.log.get(lock.held_at_end?)?;
    let name = location_name(machine, lock);
    let holder = acquire.work_item;
    if holder == spinner {
        let nobody = if machine.pending_groups() > 0 { "no resident work-item does" } else { "none does" };
        return Some(format!(" waiting for `{name}`, which it set itself at step {}: it waits for another work-item to clear it, and {nobody}", acquire.step));
    }
    let id = describe(global_id(machine, holder));
    let doing = holder_doing(machine, locks, holder, spinner, context);
    Some(format!(" waiting for the lock `{name}`, held by work-item {id} since step {}, which {doing}", acquire.step))
}

/// What the holder of a lock is doing while others spin for it.
fn holder_doing(machine: &Machine, locks: &[Lock], holder: u32, spinner: u32, context: &HangContext) -> String {
    let Some(item) = machine.items.get(holder as usize) else { return "cannot go on".to_string() };
    let line = machine.program.functions[item.func as usize].spans.get(item.position() as usize).map_or(0, |&s| (context.line_of)(s));
    match item.status {
        Status::Finished => "finished without releasing it".to_string(),
        Status::Faulted => format!("stopped at an error at line {line} without releasing it"),
        Status::Waiting => format!("waits for async copies at line {line}"),
        Status::NotStarted => "has not started".to_string(),
        Status::AtBarrier => match machine.warp_meeting_of(holder) {
            Some((arrived, named, missing)) => {
                let who: Vec<String> = missing.iter().map(|&m| describe(global_id(machine, m))).collect();
                format!(
                    "waits at the warp collective at line {line} for work-item{} {} ({arrived} of the {named} lanes it names have arrived)",
                    if who.len() == 1 { "" } else { "s" },
                    who.join(", ")
                )
            }
            None => {
                let r = &machine.groups[item.group as usize].rendezvous;
                let them = if machine.items.get(spinner as usize).is_some_and(|s| s.group == item.group) { " for them" } else { "" };
                format!("waits{them} at the barrier at line {line} ({} of {} arrived)", r.waiting.len(), r.unfinished)
            }
        },
        Status::Ready if machine.is_spinning(holder) => match last_read(&machine.log, holder) {
            Some(loc) => match lock_at(machine, locks, loc, holder).filter(|l| l.held_at_end.is_some()) {
                Some(other) => {
                    let by = other.held_at_end.and_then(|e| machine.log.get(e)).map(|e| e.work_item);
                    let whom = match by {
                        Some(h) if h == spinner => format!(", which work-item {} holds: each waits for the other's lock", describe(global_id(machine, h))),
                        Some(h) if h == holder => ", which it set itself".to_string(),
                        Some(h) => format!(", held by work-item {}", describe(global_id(machine, h))),
                        None => String::new(),
                    };
                    format!("spins at line {line} waiting for the lock `{}`{whom}", location_name(machine, other))
                }
                None => {
                    let name = name_location(machine, loc, (loc.space == Space::Local).then_some(item.group));
                    match machine.pending_groups() {
                        0 => format!("spins at line {line} re-reading `{name}`, which nobody changes"),
                        n => format!(
                            "spins at line {line} re-reading `{name}`, which no resident work-item changes ({n} work-group{} not started)",
                            if n == 1 { " has" } else { "s have" }
                        ),
                    }
                }
            },
            None => format!("spins at line {line}"),
        },
        Status::Ready if (context.held_back)(holder) => {
            format!("lockstep holds back at line {line} until the lanes of its warp behind it, which spin for the lock, catch up")
        }
        Status::Ready => format!("is at line {line}"),
    }
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
    if id[1] == 0 && id[2] == 0 {
        id[0].to_string()
    } else {
        format!("({}, {}, {})", id[0], id[1], id[2])
    }
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
                    if loc.offset.is_multiple_of(size) {
                        index
                    } else {
                        format!("{index} (byte {})", loc.offset)
                    }
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
pub(crate) fn reports(machine: &Machine, locks: &[Lock]) -> Vec<LockReport> {
    let log = &machine.log;
    locks
        .iter()
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
                location: location_name(machine, lock),
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

/// The `lock-misuse` findings of a run that ended with `status` and whose log shows `locks`
/// ([`analyse`]), in the order of the events they point at, once per kind of problem and
/// source location.
pub(crate) fn findings(machine: &Machine, locks: &[Lock], status: RunStatus, line_col: &dyn Fn(Span) -> (u32, u32)) -> Vec<Finding> {
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
            explanation: None,
            span: Some(e.span),
        }
    };
    let who = |e: &Event| describe(global_id(machine, e.work_item));
    for lock in locks {
        let name = location_name(machine, lock);
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
    found.into_iter().filter(|(_, class, f)| seen.insert((*class, f.span.map_or((0, 0), |s| (s.start, s.end))))).map(|(_, _, f)| f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An event of a log over one global location (or, for `Other`, another location).
    #[derive(Clone, Copy)]
    enum Ev {
        Rmw(AtomicOp),
        Load,
        Store,
        Finish,
        /// A load of some other location.
        Other,
    }

    use AtomicOp::{Add, CmpXchg, Or, Store as AtomicStore, Xchg, Xor};
    use Ev::{Finish, Load, Other, Rmw, Store};

    /// A log: each entry is (work-item, event, read, written).
    fn log(events: &[(u32, Ev, u64, u64)]) -> EventLog {
        let mut log = EventLog::default();
        for (step, &(work_item, ev, read, written)) in events.iter().enumerate() {
            let (kind, op) = match ev {
                Rmw(op) => (EventKind::Atomic, Some(op)),
                Load | Other => (EventKind::Load, None),
                Store => (EventKind::Store, None),
                Finish => (EventKind::Finish, None),
            };
            let offset = if matches!(ev, Other) { 64 } else { 0 };
            let location = (kind != EventKind::Finish).then_some(Location { space: Space::Global, alloc: 1, offset });
            push(&mut log, step, (work_item, kind, op), location, read, written);
        }
        log
    }

    /// Appends the `step`th event (from 0): `who` is (work-item, kind, atomic operation), and
    /// an atomic is relaxed.
    fn push(log: &mut EventLog, step: usize, who: (u32, EventKind, Option<AtomicOp>), location: Option<Location>, read: u64, written: u64) {
        let (work_item, kind, op) = who;
        let (order, scope) = (op.map(|_| crate::ir::Order::Relaxed), op.map(|_| crate::ir::Scope::WorkItem));
        let event = Event { step: step as u64 + 1, work_item, kind, location, read, written, span: Span::default(), order, scope };
        match op {
            Some(op) => log.push_atomic(event, op),
            None => log.push(event),
        }
    }

    fn locks(events: &[(u32, Ev, u64, u64)]) -> Vec<Lock> {
        analyse(&log(events), &|_| Some(0))
    }

    #[test]
    fn a_spin_lock_is_recognised_with_its_contention() {
        // 0 takes it, 1 fails twice and polls, 0 gives it back, 1 takes and gives it back.
        let l = locks(&[
            (0, Rmw(CmpXchg), 0, 1),
            (1, Rmw(CmpXchg), 1, 1),
            (1, Rmw(CmpXchg), 1, 1),
            (1, Load, 1, 0),
            (0, Rmw(Xchg), 1, 0),
            (1, Rmw(CmpXchg), 0, 1),
            (1, Store, 0, 0),
        ]);
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
    fn counters_toggles_bitmasks_and_flags_that_are_never_cleared_are_not_locks() {
        assert!(locks(&[(0, Rmw(CmpXchg), 0, 1), (1, Rmw(CmpXchg), 1, 2), (2, Rmw(Xchg), 2, 0)]).is_empty());
        assert!(locks(&[(0, Rmw(CmpXchg), 0, 1), (1, Rmw(CmpXchg), 1, 1)]).is_empty());
        // A toggle goes 0, 1, 0, 1 with xor, a counter with add: neither is a lock protocol.
        assert!(locks(&[(0, Rmw(Xor), 0, 1), (1, Rmw(Xor), 1, 0), (2, Rmw(Xor), 0, 1), (3, Rmw(Xor), 1, 0)]).is_empty());
        assert!(locks(&[(0, Rmw(Add), 0, 1), (0, Rmw(Add), 1, 0), (1, Rmw(Xchg), 0, 1), (1, Rmw(Xchg), 1, 0)]).is_empty());
        // Bits set one by one with or: the second moves one non-zero value to another.
        assert!(locks(&[(0, Rmw(Or), 0, 1), (1, Rmw(Or), 1, 3), (2, Rmw(Xchg), 3, 0)]).is_empty());
        // A flag set with atomic stores is not tested before it is set.
        assert!(locks(&[(0, Rmw(AtomicStore), 0, 1), (1, Load, 1, 0), (1, Load, 1, 0), (0, Rmw(AtomicStore), 1, 0)]).is_empty());
        // A plain store of 0 over 0 initialises; it is not a release.
        assert!(locks(&[(0, Store, 0, 0), (0, Rmw(CmpXchg), 0, 1)]).is_empty());
        // Data that a plain store clears and a compare-exchange fills is no lock: a lock needs
        // an atomic release, or a work-item that spins for it.
        assert!(locks(&[(1, Rmw(CmpXchg), 7, 7), (0, Store, 0, 0), (0, Rmw(CmpXchg), 0, 42)]).is_empty());
    }

    #[test]
    fn a_claim_that_the_others_test_and_leave_is_not_a_lock() {
        // The first one wins; the others try once, or a few times in a row, and go on.
        assert!(locks(&[(0, Rmw(Xchg), 0, 1), (1, Rmw(Xchg), 1, 1), (1, Other, 0, 0), (2, Rmw(Xchg), 1, 1), (2, Finish, 0, 0)]).is_empty());
        assert!(locks(&[(0, Rmw(Or), 0, 1), (1, Rmw(Or), 1, 1), (1, Rmw(Or), 1, 1), (1, Other, 0, 0), (1, Rmw(Or), 1, 1), (1, Finish, 0, 0)]).is_empty());
    }

    #[test]
    fn a_lock_never_released_is_a_lock_while_others_spin_for_it() {
        // 0 takes it and never gives it back; 1 and 2 spin on it when the log ends.
        let l = locks(&[(0, Rmw(CmpXchg), 0, 1), (1, Rmw(CmpXchg), 1, 1), (2, Rmw(CmpXchg), 1, 1), (1, Rmw(CmpXchg), 1, 1), (2, Load, 1, 0)]);
        assert_eq!(l.len(), 1);
        assert_eq!((l[0].held_at_end, l[0].waiters_at_end, l[0].contended), (Some(0), 2, 2));
        // A test-and-set flag and its spinners.
        let l = locks(&[(0, Rmw(Xchg), 0, 1), (1, Rmw(Xchg), 1, 1), (1, Rmw(Xchg), 1, 1)]);
        assert_eq!(l.len(), 1);
        // A lock released by a plain store is one when a work-item spun for it and took it.
        let l = locks(&[(0, Rmw(CmpXchg), 0, 1), (1, Rmw(CmpXchg), 1, 1), (0, Store, 1, 0), (1, Rmw(CmpXchg), 0, 1), (1, Store, 1, 0)]);
        assert_eq!((l.len(), l[0].acquisitions, l[0].contended), (1, 2, 1));
    }

    #[test]
    fn a_release_by_a_non_holder_then_a_second_acquire_is_an_overlap() {
        let l = locks(&[(0, Rmw(CmpXchg), 0, 1), (1, Rmw(Xchg), 1, 0), (2, Rmw(CmpXchg), 0, 1), (0, Rmw(Xchg), 1, 0), (2, Rmw(Xchg), 0, 0)]);
        let l = &l[0];
        assert_eq!(l.max_holders, 2);
        assert_eq!(l.problems, [Problem::ForeignRelease { release: 1, set_by: Some(0) }, Problem::Overlap { acquire: 2, other: 0, released_by: Some(1) }]);
    }

    #[test]
    fn a_holder_that_sees_its_lock_released_hands_it_over() {
        // The seed 003 protocol: 0 sets, 0 polls, 1 clears, 0 sees 0, then 0 sets again and 1
        // clears again: releases by a non-holder, but never two holders.
        let l = locks(&[(0, Rmw(Or), 0, 1), (0, Rmw(Add), 1, 1), (1, Rmw(Xchg), 1, 0), (0, Rmw(Add), 0, 0), (0, Rmw(Or), 0, 1), (1, Rmw(Xchg), 1, 0)]);
        let l = &l[0];
        assert_eq!((l.acquisitions, l.contended, l.max_holders), (2, 0, 1));
        assert!(l.problems.iter().all(|p| matches!(p, Problem::ForeignRelease { .. })));
        assert_eq!(l.held_at_end, None);
    }

    #[test]
    fn a_plain_store_claims_the_lock_without_testing_it() {
        // 1 reads the lock free, 0 takes it, and 1 stores 1 over it believing it free.
        let l = locks(&[(1, Load, 0, 0), (0, Rmw(CmpXchg), 0, 1), (1, Store, 0, 1), (0, Rmw(Xchg), 1, 0), (1, Store, 0, 0)]);
        assert_eq!(l[0].max_holders, 2);
        assert_eq!(l[0].problems, [Problem::Overlap { acquire: 2, other: 1, released_by: None }]);
    }

    #[test]
    fn a_lock_taken_and_never_released_is_held_at_the_end_and_finishing_ends_a_hold() {
        let l = locks(&[(0, Rmw(CmpXchg), 0, 1), (0, Rmw(Xchg), 1, 0), (1, Rmw(CmpXchg), 0, 1), (1, Finish, 0, 0), (2, Rmw(CmpXchg), 1, 1)]);
        let l = &l[0];
        assert_eq!(l.held_at_end, Some(2));
        assert_eq!((l.waiters_at_end, l.contended), (1, 1));
        // A finished holder no longer holds, so a later acquire is no overlap.
        let l = locks(&[(0, Rmw(CmpXchg), 0, 1), (0, Finish, 0, 0), (1, Rmw(Xchg), 1, 0), (2, Rmw(CmpXchg), 0, 1), (2, Rmw(Xchg), 1, 0)]);
        assert_eq!(l[0].max_holders, 1);
    }

    /// Property tests, natively only: proptest is not built for wasm.
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// One event: work-item, kind (with the atomic's operation), which of three locations
        /// (two global words and a local one), the value read and the value written.
        type Raw = (u32, (EventKind, Option<AtomicOp>), u8, u64, u64);

        fn raw() -> impl Strategy<Value = Raw> {
            // Mostly the operations locks are made of, so that the logs often show one.
            let op = prop_oneof![
                4 => proptest::sample::select(vec![AtomicOp::Load, AtomicOp::Store, AtomicOp::CmpXchg, AtomicOp::Xchg]),
                1 => proptest::sample::select(AtomicOp::ALL.to_vec()),
            ];
            let kind = prop_oneof![
                6 => op.prop_map(|op| (EventKind::Atomic, Some(op))),
                2 => Just((EventKind::Load, None)),
                2 => Just((EventKind::Store, None)),
                1 => Just((EventKind::Finish, None)),
                1 => Just((EventKind::AsyncCopy, None)),
            ];
            (0u32..3, kind, 0u8..3, 0u64..2, 0u64..2)
        }

        fn log_of(raws: &[Raw]) -> EventLog {
            let mut log = EventLog::default();
            for (step, &(work_item, (kind, op), at, mut read, mut written)) in raws.iter().enumerate() {
                // An atomic load leaves what it read under the SC model; under the relaxed
                // model it may read an older value than the one it leaves, so half of them
                // (those of odd work-items) are left as generated.
                if op == Some(AtomicOp::Load) && work_item % 2 == 0 {
                    written = read;
                }
                if kind == EventKind::Store {
                    read = 0;
                }
                let space = if at == 2 { Space::Local } else { Space::Global };
                let location = (kind != EventKind::Finish).then_some(Location { space, alloc: 1, offset: u64::from(at % 2) * 4 });
                super::push(&mut log, step, (work_item, kind, op), location, read, written);
            }
            log
        }

        /// The candidates before pruning, by their definition: every location an atomic set
        /// (0 to non-zero) where no atomic wrote outside the protocol.
        fn unpruned(log: &EventLog, group_of: &dyn Fn(u32) -> Option<u32>) -> Vec<Key> {
            let mut flags: BTreeMap<Key, (bool, bool)> = BTreeMap::new();
            for i in 0..log.len() {
                let Some(e) = log.get(i) else { continue };
                if !is_atomic(&e) || e.leaves_value(log.atomic_op(i)) {
                    continue;
                }
                let Some(k) = key(&e, group_of) else { continue };
                let f = flags.entry(k).or_default();
                match classify(&e, log.atomic_op(i), e.read != 0) {
                    Act::Acquire { .. } => f.0 = true,
                    Act::Foreign => f.1 = true,
                    _ => {}
                }
            }
            flags.into_iter().filter(|(_, (acquire, foreign))| *acquire && !*foreign).map(|(k, _)| k).collect()
        }

        proptest::proptest! {
            #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
            /// Leaving out the locations that nothing claimed as a lock needs changes no lock
            /// found: following every location an atomic set finds the same locks.
            #[test]
            fn pruning_the_candidates_finds_the_same_locks(raws in proptest::collection::vec(raw(), 0..24)) {
                let log = log_of(&raws);
                let group_of = |wi: u32| Some(wi / 2);
                let pruned = analyse(&log, &group_of);
                let every = unpruned(&log, &group_of);
                // The pruned candidates are some of those, in order and each once.
                let kept = candidates(&log, &group_of);
                prop_assert!(kept.windows(2).all(|w| w[0] < w[1]));
                prop_assert!(kept.iter().all(|k| every.contains(k)));
                let all = follow(&log, &group_of, every);
                prop_assert_eq!(pruned, all);
            }
        }
    }

    /// A forgetting session of `source` (OpenCL C, one `int` buffer `m` of four elements) over
    /// `work_items` work-items in one group.
    fn forgetting(source: &str, work_items: u64) -> crate::session::Session {
        let mut s = crate::scenario::Scenario::new(source, "k.cl", crate::scenario::Dialect::OpenCl);
        s.launch.global = vec![work_items];
        s.launch.local = Some(vec![work_items]);
        s.args = vec![crate::scenario::ArgBinding::parse("m=int[4]").expect("a valid argument")];
        let mut prepared = crate::session::Prepared::new(s).expect("the kernel compiles");
        prepared.history = false;
        prepared.keep_events = false;
        crate::session::Session::start(&prepared, 7).expect("it launches")
    }

    /// Steps `session` one step at a time until its lock watch says a lock may be used, or the
    /// run ends; returns the step it said so at, if it did.
    fn watched(session: &mut crate::session::Session) -> Option<u64> {
        let mut watch = Watch::default();
        loop {
            let machine = session.machine();
            if watch.may_need_events(&machine.log, &group_of(machine)) {
                return Some(session.steps());
            }
            if session.run(1) == 0 {
                return None;
            }
        }
    }

    /// The lock analysis reads every event at the run's end, so a forgetting run with a lock
    /// would find that it needs its events only after running to its end, and run twice. The
    /// atomics show the lock as soon as it is taken: the watch says so then, long before the
    /// end, and before the log missed anything.
    #[test]
    fn a_lock_is_seen_from_the_atomics_as_soon_as_it_is_taken() {
        let lock = "__kernel void k(__global int *m) {
            while (atomic_xchg(&m[0], 1) == 1) ;
            m[1] = m[1] + 1;
            atomic_xchg(&m[0], 0);
        }";
        let mut session = forgetting(lock, 32);
        let at = watched(&mut session).expect("the lock is seen");
        assert!(!session.machine().log.missed(), "nothing read an event yet");
        session.run(u64::MAX);
        assert!(at * 20 < session.steps(), "seen at step {at} of {}", session.steps());
        // The run's end reads events the log did not keep: the watch was right.
        let _ = crate::why::report(&session);
        assert!(session.machine().log.missed());
    }

    /// Locations that are no locks keep a run forgetting to its end: a counter, and a location
    /// taken with a compare-exchange as a lock would be and then counted up (ruled out by its
    /// second write, though the watch took it for a lock in between).
    #[test]
    fn counters_are_not_taken_for_locks() {
        let counter = "__kernel void k(__global int *m) { atomic_add(&m[0], 1); }";
        assert_eq!(watched(&mut forgetting(counter, 32)), None);
        let cas_counter = "__kernel void k(__global int *m) {
            int old = atomic_cmpxchg(&m[2], 0, 1);
            while (old != 0 && atomic_cmpxchg(&m[2], old, old + 1) != old) old = m[2];
        }";
        let mut session = forgetting(cas_counter, 8);
        assert!(watched(&mut session).is_some(), "the first compare-exchange takes it as a lock would");
        let mut watch = Watch::default();
        session.run(u64::MAX);
        let machine = session.machine();
        assert!(!watch.may_need_events(&machine.log, &group_of(machine)), "the counting rules it out");
    }
}
