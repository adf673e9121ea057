//! The relaxed memory model: which write a load may read.
//!
//! Under `--memory-model relaxed` a load does not have to read the latest write of its
//! location. This module keeps what decides which writes it may read, as an operational
//! model after the view-based semantics of Kang, Hur, Lahav, Vafeiadis and Dreyer, "A
//! Promising Semantics for Relaxed-Memory Concurrency" (POPL 2017):
//!
//! - every location has a *history*: its writes in modification order, each a message with
//!   a timestamp, the value, and the *views* a release published with it;
//! - every work-item has a *view*: for each location, the oldest write it may still read.
//!   Reading or writing a location moves the view forward (coherence); an acquire that reads
//!   a release's message joins the message's view (happens-before);
//! - a load reads any write of the location at or after its view; which one is a decision
//!   (see [`Weak::decide`]), drawn from the run's seeded generator, scripted by a scenario's
//!   `choices` or forced by the exhaustive explorer, so it replays exactly;
//! - an atomic store that is neither sequentially consistent nor a read-modify-write may be
//!   placed before later writes it has not seen (timestamps leave room between writes), a
//!   decision too;
//! - a read-modify-write (an update) reads, like a load, any write at or after its view, and
//!   places its own write immediately after the one it read: atomicity, the one axiom both
//!   GPU models have for updates (`rmw & (fr; co)` empty in PTX, `rmw & (fre; coe)` in
//!   Dat3M's OpenCL model). A write another update already follows cannot be read by an
//!   update (a compare-exchange may still read it and fail), so no update is ever lost; a
//!   sequentially consistent one reads the latest write (see `rmw.rs`);
//! - a work-item may *promise* a relaxed (or release) store or update it will make: the
//!   message joins the history early, for the others to read, which gives load buffering and
//!   every other shape whose reads-from edges run against program order (MP, SB, LB, S, R,
//!   2+2W, WRC, IRIW built from updates need one). A promise is certified when it is made:
//!   running its work-item alone from there, reading the latest writes, makes that write
//!   before any sequentially consistent write or barrier. A promised update follows the
//!   latest write when it is promised and takes the place after it, as Lee et al.'s
//!   "Promising 2.0" (PLDI 2020) ties an update's promise to the message it will read: the
//!   update must later read exactly that write and write the promised value. An execution in
//!   which a promise is never kept, or is kept otherwise, or a sequentially consistent write
//!   or a release of the same location passes it, or somebody within its scope acquires a
//!   promised release, is not one the model allows: the explorer discards it. A relaxed or
//!   acquire update, or a release of another location, may pass a promise: what it publishes
//!   does not include the promised write, which comes later in its program. A release fence
//!   (or a CUDA barrier) makes later relaxed writes publish the fence's view within its scope,
//!   and a barrier orders what came before it for its group, which a promise made before it
//!   does not yet. It may pass a promise all the same: the write, when kept, publishes the
//!   fence's view, and a reader within the scope that read the promise before may not learn
//!   what the write published by an acquire fence from then on (it has not, so it must not
//!   have: an update or acquire that read it, or an acquire fence of the reader since, makes
//!   the execution invalid). Under PTX a reader that did not observe the write (a `.weak`
//!   read, see below) learns nothing by its fences either, so the promiser's release fences
//!   leave it be; only a `fence.sc` of the promiser after an SC fence the reader passed since
//!   its read invalidates the execution (the fence-SC order would put the read in the write's
//!   causal past). Beyond the fence's scope
//!   nothing changes, which is what a fence of too narrow a scope (`__threadfence_block`
//!   across blocks, a work-group fence across groups) means in both models. Because every
//!   promised value comes out of a
//!   certifying run, no value appears out of thin air (seed 001's `x == y == 42` cannot),
//!   and control-dependent cycles (`if (x) y = 1 || if (y) x = 1`) are never certified, as
//!   PTX's `acyclic(rf | dep)` requires; Dat3M's OpenCL model has no such axiom and allows
//!   them, a deliberate difference from it.
//!   Promises are made by the explorer only, never in a single run.
//!
//! Under PTX (a CUDA kernel or a PTX litmus test) only an *observation* orders: a read
//! morally strong with the write it reads (both strong, that is not `.weak`, and each one's
//! scope including the other's thread; [`morally_strong`]). Any other read (a `.weak` load,
//! a strong load of a `.weak` write, or of a write whose scope leaves it out or whose own
//! scope leaves out the writer) does not move the reader's view, so the next load may read an
//! older write, and it acquires nothing (PTX's SC-per-location, Causality and
//! synchronisation all go through observation). A `.weak` write publishes nothing either:
//! PTX's release pattern is a release write or a fence followed by a *strong* write. What
//! such reads read is still part of what the reader's releases publish (`Agent::observed`),
//! which keeps promises within the Causality axiom and orders an acquirer's later accesses
//! after those writes, a little more than the model does.
//!
//! What it cannot reach (besides thin air): a work-item has one promise at a time and an
//! execution two; PTX writes of different threads that are not morally strong and that no
//! causality orders are still in one order per location; an acquirer's accesses after what
//! a releaser's non-observing reads read (above); an update never reads another
//! work-item's unkept promise of a release (the release sequence it would continue has no
//! view yet); and the SC order below.
//!
//! Scopes follow the OpenCL 2.0 model (section 3.3.6; Batty, Donaldson and Wickerson,
//! "Overhauling SC Atomics in C11 and OpenCL", POPL 2016): a release at work-group scope
//! publishes its view only to its own group, at device scope only to its device; an acquire
//! at work-group scope learns only from its own group's releases. A release and an acquire
//! synchronise only when their scopes are *inclusive*, which OpenCL reads as naming the same
//! scope (so a device-scope release and a work-group-scope acquire of one group do not) and
//! PTX as each including the other's thread (`Inclusion`, as the race detector decides it).
//! A message therefore keeps three views ([`Published`]), and a work-item keeps what relaxed
//! reads saw, in the same three slots, until an acquire fence that learns that slot. A
//! release atomic publishes only the memory of its own address
//! space (an atomic in local memory orders local memory); fences and barriers publish what
//! their flags name, and a fence through an atomic of another memory only when its flags name
//! that memory too (so a work-item keeps its fenced views, and what its reads saw, by the
//! memory of the atomic). An acquire atomic learns what its release published of its own
//! object's memory; the rest waits for an acquire fence naming both memories.
//!
//! Sequentially consistent operations are in SC orders, one per scope instance under OpenCL
//! (the SC axiom of Dat3M's `opencl.cat` relates two SC operations only when their scopes
//! are inclusive, which names one instance: a work-group at work-group scope, a device at
//! device scope, all devices), one in all under PTX ([`Weak::sc_instance`]). Each order is
//! the order its operations run in, and a location keeps a mark per order ([`ScMarks`]): an
//! SC load reads the last SC write of its order, and every write an SC fence of its order
//! followed in its writer's program, or a later one; an SC write goes after those, and may go
//! before other writes it has not seen. An SC fence learns the SC writes of its own order.
//! SC fences also learn from each other, per scope instance, what the earlier ones passed on:
//! under OpenCL their work-items' own writes before them, which is all the OpenCL SC order
//! relates a fence to; under PTX, whose morally strong `fence.sc`s synchronise, all they knew.
//! A fence takes part in the fence order of its own narrower instances too, so that fences
//! whose scopes include each other's work-items are ordered (PTX's morally strong
//! `fence.sc`). Running order and that sharing make the model stronger than OpenCL requires,
//! never weaker: it shows a subset of what OpenCL allows.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::concurrency::race::release::Inclusion;
use crate::concurrency::race::{GLOBAL, LOCAL, SPACES};
use crate::ir::{Level, Order};
use crate::reuse::clone_fields;

mod promise;
mod rmw;

pub use promise::{Candidate, Certify, Promise};
pub use rmw::Update;

const LEVELS: usize = Level::COUNT;

/// Timestamps of writes appended to a history are this far apart, so that a later write can
/// still be placed between two (a store need not come after writes it has not seen).
const TS_GAP: u32 = 16;

/// The most writes a location's history keeps: older ones can no longer be read (a loss of
/// weak behaviours, never a gain), so a long-running kernel's memory stays bounded.
const MAX_HISTORY: usize = 32;

/// For each location (by dense id), the oldest timestamp that may still be read.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct View(Vec<(u32, u32)>);

impl Clone for View {
    fn clone(&self) -> View {
        View(self.0.clone())
    }

    /// Copies into this view's own vector, so that restoring a machine does not allocate.
    /// Most views of a launched machine are empty, and an empty one is copied inline.
    fn clone_from(&mut self, source: &View) {
        if source.0.is_empty() {
            self.0.clear();
        } else {
            self.0.clone_from(&source.0);
        }
    }
}

impl View {
    pub fn get(&self, loc: u32) -> u32 {
        match self.0.binary_search_by_key(&loc, |&(l, _)| l) {
            Ok(i) => self.0[i].1,
            Err(_) => 0,
        }
    }

    pub fn raise(&mut self, loc: u32, ts: u32) {
        match self.0.binary_search_by_key(&loc, |&(l, _)| l) {
            Ok(i) => self.0[i].1 = self.0[i].1.max(ts),
            Err(i) => self.0.insert(i, (loc, ts)),
        }
    }

    /// Joins `other` into `self`: the larger timestamp per location.
    pub fn join(&mut self, other: &View) {
        if other.0.is_empty() || self == other {
            return;
        }
        self.join_where(other, |_| true);
    }

    /// Joins the locations of `other` that `keep` accepts into `self`, as joining
    /// `other.filtered(keep)` does, without making that view. Where `self` already has
    /// every such location (the members of a group, once they have met at a barrier, know
    /// the same locations) the timestamps are raised in place and nothing is allocated: a
    /// barrier joins every member's view into one and that one into every member's, and a
    /// new vector for each join made the relaxed model's barriers most of a reduction's run.
    pub fn join_where(&mut self, other: &View, keep: impl Fn(u32) -> bool) {
        let (a, b) = (&mut self.0, &other.0);
        // In place while every kept location of `other` is found here; from the first that
        // is not, the rest is merged into a new vector (the prefix raised in place is part
        // of the join already).
        let mut i = 0;
        let mut j = 0;
        while j < b.len() {
            let (loc, ts) = b[j];
            if keep(loc) {
                while i < a.len() && a[i].0 < loc {
                    i += 1;
                }
                if i == a.len() || a[i].0 != loc {
                    break;
                }
                a[i].1 = a[i].1.max(ts);
            }
            j += 1;
        }
        if j == b.len() {
            return;
        }
        let mut merged = Vec::with_capacity(a.len() + b.len() - j);
        merged.extend_from_slice(&a[..i]);
        for &(loc, ts) in b[j..].iter().filter(|&&(loc, _)| keep(loc)) {
            while i < a.len() && a[i].0 < loc {
                merged.push(a[i]);
                i += 1;
            }
            if i < a.len() && a[i].0 == loc {
                merged.push((loc, a[i].1.max(ts)));
                i += 1;
            } else {
                merged.push((loc, ts));
            }
        }
        merged.extend_from_slice(&a[i..]);
        *a = merged;
    }

    /// Keeps only the locations `keep` accepts (a barrier that fences one kind of memory).
    fn filtered(&self, keep: impl Fn(u32) -> bool) -> View {
        View(self.0.iter().copied().filter(|&(l, _)| keep(l)).collect())
    }
}

/// The memory of location `loc`: [`LOCAL`] or [`GLOBAL`].
fn memory_of(spaces: &[u8], loc: u32) -> usize {
    if spaces.get(loc as usize).copied().unwrap_or(0) == crate::trace::Space::Local as u8 {
        LOCAL
    } else {
        GLOBAL
    }
}

/// The `cl_mem_fence_flags` bit that names memory `memory` ([`LOCAL`] or [`GLOBAL`]).
fn fence_bit(memory: usize) -> u64 {
    if memory == LOCAL {
        crate::ir::fence::LOCAL
    } else {
        crate::ir::fence::GLOBAL
    }
}

/// Whether fence flags `flags` cover location `loc` (local or global memory).
fn covers(spaces: &[u8], flags: u64, loc: u32) -> bool {
    flags & fence_bit(memory_of(spaces, loc)) != 0
}

/// What a write published, in three entries, which the two dialects index differently, as the
/// race detector's contributions do ([`Inclusion`]):
/// - under PTX (each scope includes the other's thread) entry `d` is what a reader at
///   *distance* `d` from the writer learns (0: in its group, 1: on its device, 2: anywhere),
///   filled by every release whose scope reaches that far;
/// - under OpenCL (inclusive scopes name the same scope) entry `l` is what releases of scope
///   level exactly `l` published, which only an acquire of that same scope within its reach
///   learns: a device-scope release and a work-group-scope acquire do not synchronise even in
///   one work-group.
#[derive(Clone, Debug, Default)]
pub struct Published {
    pub views: [View; LEVELS],
}

impl Published {
    /// What a write publishes: what its writer's release fences before it published for the
    /// memory of the written object (`released`), and, if it is itself a release, `direct`
    /// (what it releases, at its scope level) in the entries that scope fills.
    fn of_write(released: &[View; LEVELS], direct: Option<(&View, Level)>, rule: Inclusion) -> Published {
        let mut published = Published::default();
        for (l, view) in published.views.iter_mut().enumerate() {
            view.clone_from(&released[l]);
            if let Some((direct, _)) = direct.filter(|&(_, level)| rule.fills(level, l)) {
                view.join(direct);
            }
        }
        published
    }

    /// Joins what `other` published into this, entry by entry (a release sequence).
    fn join(&mut self, other: &Published) {
        for (view, prev) in self.views.iter_mut().zip(other.views.iter()) {
            view.join(prev);
        }
    }

    fn is_empty(&self) -> bool {
        self.views.iter().all(|v| v.0.is_empty())
    }
}

/// One write in a location's history.
#[derive(Clone, Debug)]
pub struct Message {
    pub ts: u32,
    /// The value written, in register form (the access's size).
    pub value: u64,
    /// The writing agent and the log index and step of its event (`u32::MAX` for the initial
    /// contents).
    pub agent: u32,
    pub event: u32,
    pub step: u64,
    /// Where the writer was, to decide which of its views a reader may learn.
    pub group: u32,
    pub device: u32,
    pub published: Option<Rc<Published>>,
    /// The race detector's release at this write, so that an acquire reading this write
    /// (rather than the latest) synchronises with what this write released.
    pub race_release: Option<Box<crate::concurrency::race::shadow::Release>>,
    /// A promise of this agent not yet kept: others may read it, the promiser may not.
    pub promised_by: Option<u32>,
    /// Written by a read-modify-write, which follows the write it read immediately: no
    /// later write may be placed between them.
    pub rmw: bool,
    /// The scope of an atomic write (a strong one, in PTX's words); `None` for a plain or
    /// `.weak` write and for the initial contents. Under PTX a read is morally strong with the
    /// write it reads only when both are strong and each one's scope includes the other's
    /// thread, and only such a read bounds its reader's later reads (`Weak::finish_load`).
    pub strong: Option<Level>,
    /// While only promised: the agents that read it. A release fence of the promiser within
    /// their scope changes what the write will publish after they read it (see
    /// [`Weak::release_point`]).
    pub readers: Vec<PromiseReader>,
}

/// An agent that read a write while it was only promised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PromiseReader {
    pub agent: u32,
    /// Its scope distance from the promiser.
    pub level: Level,
    /// Its read took what the write publishes at once: an update (whose write continues the
    /// release sequence) or an acquire.
    pub binding: bool,
    /// How many acquire fences it had passed when it read it.
    pub acquires: u32,
    /// Its read observed the write (always under OpenCL; under PTX when morally strong with
    /// it, [`morally_strong`]). A read that observed nothing learns nothing by a later fence.
    pub observes: bool,
    /// How many SC fences it had passed when it read it.
    pub sc_fences: u32,
}

/// The writes of one location.
#[derive(Debug, Default)]
pub struct History {
    /// Bytes per access: only accesses of this size read older writes.
    pub size: u8,
    /// The writes still readable, oldest first, with consecutive timestamps.
    pub messages: Vec<Message>,
    /// Nothing older than this may be read by anyone (a write every agent must see, such as an
    /// async copy's, or the history's trimmed start).
    pub floor: u32,
    /// The timestamp of the last sequentially consistent write, by the SC order it is in
    /// ([`Weak::sc_instance`]).
    pub sc: ScMarks,
    /// The timestamp of the latest write that a sequentially consistent fence of its writer
    /// followed, by the fence's SC order: a later sequentially consistent write of that order
    /// goes after it (and after `sc`) in modification order, which may place it before the
    /// other writes it has not seen.
    pub sc_fenced: ScMarks,
}

/// Timestamps of one location's writes, one for each SC order that has one there: OpenCL
/// orders the sequentially consistent operations of each scope instance apart, and most
/// locations see none or one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScMarks(smallvec::SmallVec<[(u64, u32); 1]>);

impl ScMarks {
    /// The timestamp of SC order `instance` (0, the initial write's, when it has none).
    fn get(&self, instance: u64) -> u32 {
        self.0.iter().find(|m| m.0 == instance).map_or(0, |m| m.1)
    }

    fn raise(&mut self, instance: u64, ts: u32) {
        match self.0.iter_mut().find(|m| m.0 == instance) {
            Some(m) => m.1 = m.1.max(ts),
            None => self.0.push((instance, ts)),
        }
    }
}

clone_fields!(History { size, messages, floor, sc, sc_fenced });

impl History {
    fn latest_ts(&self) -> u32 {
        self.messages.last().map_or(0, |m| m.ts)
    }

    /// The timestamps of the writes a load may read, latest first: those at or after
    /// `oldest`, but not `own` (the reader's unkept promise).
    fn readable(&self, oldest: u32, own: Option<u32>) -> impl Iterator<Item = u32> + '_ {
        self.messages.iter().rev().map(|m| m.ts).take_while(move |&ts| ts >= oldest).filter(move |&ts| Some(ts) != own)
    }

    fn message(&self, ts: u32) -> Option<&Message> {
        let i = self.messages.binary_search_by_key(&ts, |m| m.ts).ok()?;
        self.messages.get(i)
    }

    fn message_mut(&mut self, ts: u32) -> Option<&mut Message> {
        let i = self.messages.binary_search_by_key(&ts, |m| m.ts).ok()?;
        self.messages.get_mut(i)
    }
}

/// What one work-item (or copy engine) may read and has published.
#[derive(Debug, Default)]
pub struct Agent {
    /// The oldest write of each location it may still read.
    pub cur: View,
    /// What atomic reads saw and did not learn, by the memory of the object read ([`GLOBAL`],
    /// [`LOCAL`]) and scope level, for its next acquire fence of that level naming that
    /// memory.
    pub pending: [[View; LEVELS]; SPACES],
    /// Its view at its last release fence of at least each level naming each memory, which
    /// its later relaxed writes to objects of that memory publish: a fence orders a memory
    /// through an atomic only when its flags name the atomic's memory too.
    pub released: [[View; LEVELS]; SPACES],
    /// Its promise not yet kept (at most one at a time).
    pub promise: Option<Promise>,
    /// It read a release that was only promised, or a write whose promiser has since passed a
    /// release fence within its scope: it may not acquire from now on (an acquire fence
    /// would learn what the write published when it was read, not what it publishes).
    pub tainted: bool,
    /// How many acquire fences (and, under PTX, barriers) it passed: whether one came after
    /// it read a promise.
    pub acquires: u32,
    /// How many sequentially consistent fences it passed.
    pub sc_fences: u32,
    /// What its PTX reads that observe nothing read (`.weak` loads, and loads not morally
    /// strong with their write; see `finish_load`), which bounds none of its own later loads
    /// but is part of what it knows: its releases publish it, so that a work-item that
    /// acquires from it cannot then make a write that read is causally before and have the
    /// read read it (PTX's Causality axiom, which covers every read).
    pub observed: View,
}

clone_fields!(Agent { cur, pending, released, promise, tainted, acquires, sc_fences, observed });

impl Agent {
    /// An atomic read of an object in memory `via` read a write that published `view` at the
    /// read's scope level `level`. An acquire learns it, under OpenCL only what it orders of
    /// `via` (an acquire atomic is global or local after its location, as in Dat3M's
    /// `opencl.cat`); the rest waits for an acquire fence that names both memories.
    fn observe(&mut self, view: &View, via: usize, level: usize, acquire: bool, everything: bool, spaces: &[u8]) {
        if !acquire {
            self.pending[via][level].join(view);
        } else if everything || view.0.iter().all(|&(loc, _)| memory_of(spaces, loc) == via) {
            self.cur.join(view);
        } else {
            self.cur.join(&view.filtered(|loc| memory_of(spaces, loc) == via));
            self.pending[via][level].join(&view.filtered(|loc| memory_of(spaces, loc) != via));
        }
    }

    /// An atomic read (of order `ord`, of an object in memory `via`) at scope distance
    /// `distance` from the writer read a write that published `published`: it learns (an
    /// acquire whose scope synchronises with the release) or keeps for a later acquire fence
    /// (by [`Inclusion::pending_slot`]) every entry that reaches it.
    fn read_published(&mut self, published: &Published, distance: Level, ord: Ordering, via: usize, rule: Inclusion, spaces: &[u8]) {
        let d = distance.index();
        for (entry, view) in published.views.iter().enumerate().skip(d) {
            // Under PTX the entries past the reader's distance know no more than its own.
            if view.0.is_empty() || (rule == Inclusion::Mutual && entry != d) {
                continue;
            }
            let acquire = ord.acquires() && rule.acquires(entry, d, ord.level);
            // A PTX acquire learns every memory (`observe`'s `everything`).
            self.observe(view, via, rule.pending_slot(entry, d), acquire, rule == Inclusion::Mutual, spaces);
        }
    }

    /// What its releases publish: its view, and what its reads that observe nothing read.
    fn known(&self) -> std::borrow::Cow<'_, View> {
        if self.observed.0.is_empty() {
            std::borrow::Cow::Borrowed(&self.cur)
        } else {
            let mut v = self.cur.clone();
            v.join(&self.observed);
            std::borrow::Cow::Owned(v)
        }
    }
}

/// What a work-item with a promise passes: see [`Weak::release_point`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Point {
    /// A release fence, sequentially consistent or not.
    Fence { sc: bool },
    /// A barrier its group meets at.
    Barrier,
}

/// `reader` read a promise whose promiser then passed a release fence within its scope
/// (`sc`: a sequentially consistent one): see [`Weak::release_point`].
fn read_before_fence(agents: &mut [Agent], invalid: &mut bool, reader: PromiseReader, sc: bool) {
    let Some(a) = agents.get_mut(reader.agent as usize) else { return };
    if !reader.observes {
        // A PTX read that observed nothing learns nothing by a fence. Only an SC fence it
        // passed since, before this one in the fence-SC order, puts the read in the causal past
        // of the write it read.
        if sc && a.sc_fences != reader.sc_fences {
            *invalid = true;
        }
        return;
    }
    if reader.binding || a.acquires != reader.acquires {
        *invalid = true;
    } else {
        a.tainted = true;
    }
}

/// A load that read an older write than the latest: for the timeline and the inspector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaleRead {
    /// Log index of the load's event.
    pub event: u32,
    /// Log index of the write it read (`u32::MAX`: the initial contents).
    pub read_from: u32,
    /// Log index of the latest write when it read.
    pub latest: u32,
}

/// A load that read a write its writer had only promised: the write comes later in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EarlyRead {
    /// Log index of the load's event.
    pub event: u32,
    /// Log index of the promise's event (the write that keeps it comes later, by the same
    /// work-item, to the same location, with the same value).
    pub promise: u32,
}

/// A location's key: space, owning group (local memory) or 0, allocation, byte offset.
pub type LocKey = (u8, u32, u32, u64);

/// The model's state: part of the machine, so snapshots and seeks carry it.
#[derive(Debug, Default)]
pub struct Weak {
    pub enabled: bool,
    /// The launch follows PTX (a CUDA kernel): a plain (`.weak`) load is not morally strong
    /// with anything, so reading a write does not order the reader's later reads after it.
    pub ptx: bool,
    /// Each location's dense id, sorted by key: a run touches few locations, and a vector
    /// (unlike a map's nodes) is copied into an existing one without allocating.
    ids: Vec<(LocKey, u32)>,
    /// Each location's space (whether a barrier's fence flags cover it).
    spaces: Vec<u8>,
    pub histories: Vec<History>,
    pub agents: Vec<Agent>,
    /// Each agent's group and device, fixed at launch and shared by every copy of the
    /// machine (the groups with the race detector too, which keeps devices only when some
    /// agent is off device 0).
    pub agent_group: Rc<[u32]>,
    pub agent_device: Rc<[u32]>,
    /// Views of the sequentially consistent fences, per scope instance: one per group, one
    /// per device, one for the system.
    sc_group: BTreeMap<u32, View>,
    sc_device: BTreeMap<u32, View>,
    sc_system: View,
    /// For the exhaustive explorer: the option the step's decision takes (see [`Weak::decide`]).
    pub forced: Option<u32>,
    /// How many options the last decision had (1 when the step decided nothing).
    pub last_options: u32,
    /// The option the last decision took.
    pub last_choice: u32,
    /// Decisions to replay before drawing from the generator (a scenario's `choices`).
    pub script: Vec<u32>,
    pub script_pos: usize,
    /// Loads that read older writes, in the order of their events (`record_stale`), which
    /// lets the explanations find one by its event with a binary search.
    pub stale: Vec<StaleRead>,
    /// Loads that read a write only promised so far (load buffering), in order.
    pub early: Vec<EarlyRead>,
    /// Every decision taken, in order (what replays this run as `choices`).
    pub made: Vec<u32>,
    /// A promise was passed by a release or a read-modify-write: the execution is invalid.
    pub invalid: bool,
    /// Set while certifying promises by a solo run.
    pub certifying: Option<Certify>,
    /// Promises made in this run.
    pub promises_made: u32,
    /// Global allocations that stand for local memory (a litmus test's `local` locations).
    pub local_allocs: Vec<u32>,
    /// Histories a copy into this model dropped (`clone_from` of a state with fewer
    /// locations), emptied and kept for their allocations: a new location takes one. Not part
    /// of the state: a clone starts without any.
    spare: Vec<History>,
}

/// `Weak` copies field by field like [`clone_fields!`], but for its histories: exploration
/// restores a launched machine, which has none, before every run, and the histories the
/// previous run made go to the spare pool instead of being freed.
impl Clone for Weak {
    fn clone(&self) -> Weak {
        let Weak {
            enabled,
            ptx,
            ids,
            spaces,
            histories,
            agents,
            agent_group,
            agent_device,
            sc_group,
            sc_device,
            sc_system,
            forced,
            last_options,
            last_choice,
            script,
            script_pos,
            stale,
            early,
            made,
            invalid,
            certifying,
            promises_made,
            local_allocs,
            spare: _,
        } = self;
        Weak {
            enabled: *enabled,
            ptx: *ptx,
            ids: ids.clone(),
            spaces: spaces.clone(),
            histories: histories.clone(),
            agents: agents.clone(),
            agent_group: agent_group.clone(),
            agent_device: agent_device.clone(),
            sc_group: sc_group.clone(),
            sc_device: sc_device.clone(),
            sc_system: sc_system.clone(),
            forced: *forced,
            last_options: *last_options,
            last_choice: *last_choice,
            script: script.clone(),
            script_pos: *script_pos,
            stale: stale.clone(),
            early: early.clone(),
            made: made.clone(),
            invalid: *invalid,
            certifying: certifying.clone(),
            promises_made: *promises_made,
            local_allocs: local_allocs.clone(),
            spare: Vec::new(),
        }
    }

    fn clone_from(&mut self, source: &Weak) {
        let Weak {
            enabled,
            ptx,
            ids,
            spaces,
            histories,
            agents,
            agent_group,
            agent_device,
            sc_group,
            sc_device,
            sc_system,
            forced,
            last_options,
            last_choice,
            script,
            script_pos,
            stale,
            early,
            made,
            invalid,
            certifying,
            promises_made,
            local_allocs,
            spare: _,
        } = source;
        while self.histories.len() > histories.len() {
            let Some(mut h) = self.histories.pop() else { break };
            h.messages.clear();
            self.spare.push(h);
        }
        // Spare histories to copy the source's extra ones into.
        while self.histories.len() < histories.len() {
            let Some(h) = self.spare.pop() else { break };
            self.histories.push(h);
        }
        self.histories.clone_from(histories);
        self.enabled.clone_from(enabled);
        self.ptx.clone_from(ptx);
        self.ids.clone_from(ids);
        self.spaces.clone_from(spaces);
        self.agents.clone_from(agents);
        self.agent_group.clone_from(agent_group);
        self.agent_device.clone_from(agent_device);
        self.sc_group.clone_from(sc_group);
        self.sc_device.clone_from(sc_device);
        self.sc_system.clone_from(sc_system);
        self.forced.clone_from(forced);
        self.last_options.clone_from(last_options);
        self.last_choice.clone_from(last_choice);
        self.script.clone_from(script);
        self.script_pos.clone_from(script_pos);
        self.stale.clone_from(stale);
        self.early.clone_from(early);
        self.made.clone_from(made);
        self.invalid.clone_from(invalid);
        self.certifying.clone_from(certifying);
        self.promises_made.clone_from(promises_made);
        self.local_allocs.clone_from(local_allocs);
    }
}

/// How a write is made.
#[derive(Clone, Copy, Debug)]
pub struct Store {
    pub ord: Ordering,
    /// It also read: a read-modify-write, with the timestamp of the write it read (chosen by
    /// [`Weak::rmw_read`]), which its write follows immediately and whose release sequence it
    /// continues.
    pub rmw: Option<u32>,
    /// Log index and step of its event.
    pub event: u32,
    pub step: u64,
    /// Every agent must read this write or a later one from now on (an async copy's writes).
    pub everyone: bool,
    /// Where in the source it is made.
    pub span: crate::diag::Span,
}

/// Where a write went.
pub struct Written {
    /// The value memory must hold afterwards when it is not the value written: memory holds
    /// the latest write, which a write placed before others (or keeping an older promise) is
    /// not.
    pub keep: Option<u64>,
    /// The write's timestamp, and whether it is its location's latest.
    pub ts: u32,
    pub latest: bool,
}

/// What a load reads.
pub struct Read {
    pub value: Option<u64>,
    pub stale: bool,
    pub race_release: Option<Option<Box<crate::concurrency::race::shadow::Release>>>,
}

/// How an access orders memory.
#[derive(Clone, Copy, Debug)]
pub struct Ordering {
    /// Whether it is an atomic access at all.
    pub atomic: bool,
    pub order: Order,
    /// Scope level of the atomic.
    pub level: Level,
}

impl Ordering {
    pub const PLAIN: Ordering = Ordering { atomic: false, order: Order::Relaxed, level: Level::System };

    fn acquires(self) -> bool {
        self.atomic && self.order.acquires()
    }

    fn releases(self) -> bool {
        self.atomic && self.order.releases()
    }

    fn sc(self) -> bool {
        self.atomic && self.order == Order::SeqCst
    }
}

/// Whether a PTX read of order `ord` is morally strong with the write it reads, a write of
/// scope `strong` (`None`: a `.weak` write or the initial contents) at scope distance
/// `distance` from the reader: both strong, each one's scope including the other's thread.
/// Only then is reading it an observation, which orders the reader's later reads after the
/// write and carries a synchronisation.
fn morally_strong(ord: Ordering, strong: Option<Level>, distance: Level) -> bool {
    ord.atomic && strong.is_some_and(|w| distance <= w && distance <= ord.level)
}

impl Weak {
    /// Whether a read of order `ord` at scope distance `distance` from a write of scope
    /// `strong` takes what the write publishes: always under OpenCL, where the scopes decide
    /// which of its views it learns (`Published`); under PTX only when it observes the write
    /// ([`morally_strong`]).
    fn observes(&self, ord: Ordering, strong: Option<Level>, distance: Level) -> bool {
        !self.ptx || morally_strong(ord, strong, distance)
    }
}

/// Records a stale read. Each is recorded as its event is made, so `Weak::stale` stays in
/// event order (which `why` searches by).
fn record_stale(stale: &mut Vec<StaleRead>, read: StaleRead) {
    debug_assert!(stale.last().is_none_or(|last| last.event <= read.event), "stale reads are recorded in event order");
    stale.push(read);
}

impl Weak {
    /// The model of a launch whose agents belong to the groups in `agent_group` and the
    /// devices in `agent_device`. A disabled model (sequential consistency) keeps no
    /// per-agent state: the machine calls it only when it is enabled.
    pub fn new(enabled: bool, agent_group: Rc<[u32]>, agent_device: Rc<[u32]>) -> Weak {
        if !enabled {
            return Weak { enabled, ..Weak::default() };
        }
        let agents = vec![Agent::default(); agent_group.len()];
        Weak { enabled, agents, agent_group, agent_device, ..Weak::default() }
    }

    /// The level at which `reader` sees a write by someone in `group` and `device`.
    /// The SC order that `agent`'s sequentially consistent operations of scope `level` are in.
    /// OpenCL relates SC operations only when their scopes are inclusive, which it reads as
    /// naming the same scope instance (`incl` in `scp` of Dat3M's `opencl.cat`): a work-group
    /// scope operation is ordered with those of its group at that scope, not with a device
    /// scope one, so each instance keeps an order of its own. PTX has one.
    fn sc_instance(&self, agent: u32, level: Level) -> u64 {
        if self.ptx {
            return 0;
        }
        match level {
            Level::Group => 1 << 32 | u64::from(self.agent_group[agent as usize]),
            Level::Device => 2 << 32 | u64::from(self.agent_device[agent as usize]),
            Level::System => 3 << 32,
        }
    }

    fn level_between(&self, reader: u32, group: u32, device: u32) -> Level {
        if self.agent_group[reader as usize] == group {
            Level::Group
        } else if self.agent_device[reader as usize] == device {
            Level::Device
        } else {
            Level::System
        }
    }

    /// Whether a write (`atomic` or not) publishes what the release fences before it in its
    /// work-item's program ordered. PTX's release pattern is a fence followed by a strong
    /// write, so a `.weak` write publishes nothing; OpenCL's fence synchronisation also needs
    /// an atomic write, but a plain one is kept publishing there: an atomic that reads it
    /// races with it, and the model leaves that execution undefined.
    fn publishes(&self, atomic: bool) -> bool {
        atomic || !self.ptx
    }

    /// How a release's and an acquire's scopes must relate for them to synchronise: as the
    /// race detector decides it, by dialect.
    fn inclusion(&self) -> Inclusion {
        if self.ptx {
            Inclusion::Mutual
        } else {
            Inclusion::SameScope
        }
    }

    /// The dense id of `key`, the next unused one when it is new.
    fn id(&mut self, key: LocKey) -> u32 {
        match self.ids.binary_search_by_key(&key, |&(k, _)| k) {
            Ok(i) => self.ids[i].1,
            Err(i) => {
                let next = self.histories.len() as u32;
                self.ids.insert(i, (key, next));
                next
            }
        }
    }

    /// The dense id of `key`, if the location has a history.
    fn find_id(&self, key: LocKey) -> Option<u32> {
        self.ids.binary_search_by_key(&key, |&(k, _)| k).ok().map(|i| self.ids[i].1)
    }

    /// The history of `key`, created with `initial` as its first write when new; `None` when
    /// the location has a history of another access size (mixed-size accesses read the latest
    /// bytes, as if sequentially consistent).
    fn history(&mut self, key: LocKey, size: u8, initial: u64) -> (u32, bool) {
        let id = self.id(key);
        if id as usize == self.histories.len() {
            // A litmus location declared `local` is kept in a global buffer shared by every
            // thread, but orders like local memory.
            let local = key.0 == crate::trace::Space::Global as u8 && self.local_allocs.contains(&key.2);
            self.spaces.push(if local { crate::trace::Space::Local as u8 } else { key.0 });
            let mut h = self.spare.pop().unwrap_or_default();
            h.size = size;
            h.floor = 0;
            h.sc.0.clear();
            h.sc_fenced.0.clear();
            h.messages.clear();
            h.messages.push(Message {
                ts: 0,
                value: initial,
                agent: u32::MAX,
                event: u32::MAX,
                step: 0,
                group: 0,
                device: 0,
                published: None,
                race_release: None,
                promised_by: None,
                rmw: false,
                strong: None,
                readers: Vec::new(),
            });
            self.histories.push(h);
        }
        (id, self.histories[id as usize].size == size)
    }

    /// A load of `size` bytes at `key`: which write it reads (`value: None` means the latest).
    /// `choose(n)` picks among `n` readable writes, 0 being the latest; without it the load
    /// reads the latest (a failed compare-exchange).
    pub fn load(&mut self, agent: u32, key: LocKey, size: u8, ord: Ordering, event: u32, choose: Option<&mut dyn FnMut(u32) -> u32>) -> Read {
        let plain = Read { value: None, stale: false, race_release: None };
        // Memory nobody wrote during the run has one write: its initial contents.
        let Some(id) = self.find_id(key) else {
            return plain;
        };
        let h = &self.histories[id as usize];
        if h.size != size {
            return plain;
        }
        let latest_ts = h.latest_ts();
        let Some(choose) = choose else {
            return self.finish_load(agent, id, latest_ts, latest_ts, ord, event);
        };
        let mut oldest = self.agents[agent as usize].cur.get(id).max(h.floor).max(h.messages[0].ts);
        if ord.sc() {
            // The last SC write, and every write an SC fence followed in its writer's
            // program: the fence precedes this load in the SC order, so the load reads that
            // write or a later one (the fence rule of C11 and OpenCL 2.0 for a write before
            // an SC fence and an SC read after it, as an SC store is placed after them).
            let instance = self.sc_instance(agent, ord.level);
            oldest = oldest.max(h.sc.get(instance)).max(h.sc_fenced.get(instance));
        }
        // The writes it may read, latest first: never its own unkept promise. They are
        // counted, then walked again for the one chosen, rather than collected: a load is on
        // the interpreter's path, which does not allocate.
        let own = self.agents[agent as usize].promise.filter(|p| p.id == id).map(|p| p.ts);
        let Some(newest) = h.readable(oldest, own).next() else {
            return self.finish_load(agent, id, latest_ts, latest_ts, ord, event);
        };
        let options = h.readable(oldest, own).count() as u32;
        let k = if options > 1 { self.decide(options, &mut || choose(options)) } else { 0 };
        let ts = self.histories[id as usize].readable(oldest, own).nth(k as usize).unwrap_or(newest);
        self.finish_load(agent, id, ts, latest_ts, ord, event)
    }

    /// Takes a decision among `options` (more than one): the explorer's forced option, else
    /// the next scripted one, else `draw()`. Every nondeterministic choice of a step other
    /// than which agent steps (which write a load reads, whether a weak compare-exchange fails
    /// spuriously) goes through here, so an exploration can enumerate and replay them.
    pub fn decide(&mut self, options: u32, draw: &mut dyn FnMut() -> u32) -> u32 {
        self.last_options = options;
        let k = if self.certifying.is_some() {
            // A solo run that certifies promises reads the latest writes.
            0
        } else if let Some(k) = self.forced.take() {
            k
        } else if let Some(&k) = self.script.get(self.script_pos) {
            self.script_pos += 1;
            k
        } else {
            draw()
        };
        self.last_choice = k.min(options - 1);
        self.made.push(self.last_choice);
        self.last_choice
    }

    /// Reads the write with timestamp `ts` of location `id`, whose latest is `latest_ts`.
    fn finish_load(&mut self, agent: u32, id: u32, ts: u32, latest_ts: u32, ord: Ordering, event: u32) -> Read {
        let plain = Read { value: None, stale: false, race_release: None };
        let k = latest_ts - ts;
        let h = &self.histories[id as usize];
        let Some(m) = h.message(ts) else { return plain };
        let (value, published, group, device, promiser, strong) = (m.value, m.published.clone(), m.group, m.device, m.promised_by, m.strong);
        // A stale write, or a promise (whose write the race detector has not seen yet), brings
        // its own release for the detector.
        let race_release = (k > 0 || m.promised_by.is_some()).then(|| m.race_release.clone());
        if k > 0 {
            let latest_event = h.messages.last().map_or(u32::MAX, |l| l.event);
            record_stale(&mut self.stale, StaleRead { event, read_from: m.event, latest: latest_event });
        }
        if promiser.is_some() {
            self.early.push(EarlyRead { event, promise: m.event });
        }
        // Reading a release that is only promised, within the release's scope: an acquire of
        // it would close a cycle, and so would a later acquire fence of the reader. (Beyond its
        // scope it publishes only what its fences did, known when it was promised.)
        let level = self.level_between(agent, group, device);
        let observes = self.observes(ord, strong, level);
        self.read_promised(agent, id, ts, level, ord.acquires() && observes, observes);
        let rule = self.inclusion();
        let promised = promiser.and_then(|p| self.agents.get(p as usize)).and_then(|a| a.promise).filter(|p| p.release && p.ts == ts && level <= p.level);
        let promised_release = promised.is_some();
        if promised.is_some_and(|p| ord.acquires() && rule.acquires(p.level.index(), level.index(), ord.level)) {
            self.invalid = true;
        }
        let a = &mut self.agents[agent as usize];
        if promised_release && ord.atomic {
            a.tainted = true;
        }
        // Coherence orders a read before later ones only when the read is morally strong with
        // the write it read (PTX's SC-per-location and Causality axioms order by observation,
        // which is reads-from between morally strong accesses): both strong, each one's scope
        // including the other's thread. So a `.weak` load, a strong load of a `.weak` write
        // and one of a write whose scope leaves it out (or whose own scope leaves out the
        // writer) leave the next load free to read an older write. Its own writes are before
        // its reads in program order already. OpenCL's coherence covers every access of a
        // location.
        if observes {
            a.cur.raise(id, ts);
        } else {
            a.observed.raise(id, ts);
        }
        // Under PTX only an observation (reads-from between morally strong accesses) carries
        // a synchronisation.
        if let Some(p) = published {
            if ord.atomic && observes {
                a.read_published(&p, level, ord, memory_of(&self.spaces, id), rule, &self.spaces);
            }
        }
        Read { value: (k > 0).then_some(value), stale: k > 0, race_release }
    }

    /// A write of `value` (`size` bytes at `key`, which held `before`); `rmw` when it also
    /// read (a read-modify-write follows the write it read, whose release sequence it
    /// continues). `everyone` makes the write the oldest anyone may read from now on.
    ///
    /// A write that fulfils an earlier promise takes the promise's place in the history,
    /// which later writes may follow.
    // Who writes where, over what and which value come from the instruction as it runs, and
    // `Store` already groups how the write is made: a struct for the rest would be built at
    // every call only to be taken apart here.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&mut self, agent: u32, key: LocKey, size: u8, before: u64, value: u64, st: Store, draw: &mut dyn FnMut(u32) -> u32) -> Written {
        let Store { ord, rmw, event, step, everyone, span } = st;
        let (id, same_size) = self.history(key, size, before);
        let group = self.agent_group[agent as usize];
        let device = self.agent_device[agent as usize];
        let promisable = !ord.sc();
        if let Some(c) = self.certifying.as_mut().filter(|c| c.agent == agent) {
            // An update can be promised only after a write that exists when the solo run
            // starts: one the solo run itself made is not there to follow yet.
            let h = &self.histories[id as usize];
            let follows_existing = rmw.is_none_or(|r| h.message(r).is_some_and(|m| m.step <= c.start));
            if promisable && same_size && follows_existing {
                c.stores.push(Candidate { key, size, value, level: ord.level, atomic: ord.atomic, release: ord.releases(), rmw: rmw.is_some(), span });
            }
        }
        if let Some(p) = self.agents[agent as usize].promise {
            let same = p.id == id && p.value == value && p.size == size && p.release == ord.releases() && p.level == ord.level;
            match (p.rmw, rmw) {
                (Some(after), Some(r)) if p.id == id => {
                    // The update its agent promised (it read the write the promise follows,
                    // see `rmw_read`): it must write what it promised.
                    if !(same && r == after && promisable) {
                        self.invalid = true;
                    }
                    return self.fulfil(agent, p, ord, event);
                }
                (None, None) if promisable && same && self.agents[agent as usize].cur.get(id) < p.ts => return self.fulfil(agent, p, ord, event),
                _ => {}
            }
            if ord.releases() && p.id == id {
                // No release of the promised location (whose release sequence the promise
                // would join out of order) passes an unkept promise: this execution is not one
                // the model allows. A release of another location may, a sequentially
                // consistent one too: it publishes the work-item's view, which the promised
                // write, later in program order, is not part of (release fences, whose views
                // later relaxed writes publish, may not; see `release_point`). The SC order
                // relates SC accesses only, so a relaxed write after an SC write may be seen
                // before it, as C11 and OpenCL allow (and ARMv8 shows).
                self.invalid = true;
            }
        }
        if !same_size {
            // Another access size: every agent now reads the latest bytes of this location.
            let h = &mut self.histories[id as usize];
            let ts = h.latest_ts() + TS_GAP;
            h.floor = ts;
            h.messages.clear();
            h.messages.push(Message {
                ts,
                value,
                agent,
                event,
                step,
                group,
                device,
                published: None,
                race_release: None,
                promised_by: None,
                rmw: false,
                strong: ord.atomic.then_some(ord.level),
                readers: Vec::new(),
            });
            return Written { keep: None, ts, latest: true };
        }
        let h = &self.histories[id as usize];
        // Where the write goes: at the end, or (an atomic store that is not a
        // read-modify-write) between two writes after every write it has seen, which places
        // it before writes it has not seen in modification order (a decision; this gives the
        // 2+2W shapes). A sequentially consistent store also goes after the last such store
        // and after every write a sequentially consistent fence followed in its writer's
        // program; before the others it has not seen it may go, as the OpenCL model's SC
        // order relates SC accesses only. A read-modify-write goes right after the write it
        // read.
        let mut slots: Vec<usize> = Vec::new();
        if ord.atomic && rmw.is_none() && !everyone {
            let mut seen = self.agents[agent as usize].cur.get(id).max(h.floor);
            if ord.sc() {
                let instance = self.sc_instance(agent, ord.level);
                seen = seen.max(h.sc.get(instance)).max(h.sc_fenced.get(instance));
            }
            for i in 1..h.messages.len() {
                let (a, b) = (h.messages[i - 1].ts, h.messages[i].ts);
                if a >= seen && b - a > 1 && !h.messages[i].rmw {
                    slots.push(i);
                }
            }
        }
        let slot = if slots.is_empty() { 0 } else { self.decide(slots.len() as u32 + 1, &mut || draw(slots.len() as u32 + 1)) };
        let h = &self.histories[id as usize];
        let after = rmw.and_then(|r| h.messages.binary_search_by_key(&r, |m| m.ts).ok()).filter(|&i| i + 1 < h.messages.len());
        let (index, ts) = match (after, slot.checked_sub(1).and_then(|k| slots.get(k as usize))) {
            (Some(i), _) => (i + 1, h.messages[i].ts + (h.messages[i + 1].ts - h.messages[i].ts) / 2),
            (None, Some(&i)) => (i, h.messages[i - 1].ts + (h.messages[i].ts - h.messages[i - 1].ts) / 2),
            (None, None) => (h.messages.len(), h.latest_ts() + TS_GAP),
        };
        if after.is_some() {
            // An update of an older write: a stale read, for the timeline.
            let (read_from, latest) = (h.messages[index - 1].event, h.messages.last().map_or(u32::MAX, |l| l.event));
            record_stale(&mut self.stale, StaleRead { event, read_from, latest });
        }
        // A read-modify-write acquires from the write it read and continues its release
        // sequence. So does a later store of the same work-item (OpenCL 2.0, as C11: the
        // release sequence runs on through the releasing thread's own writes).
        let last = h.messages.get(index.wrapping_sub(1)).map(|m| (m.published.clone(), m.group, m.device, m.agent, m.strong));
        let read = if rmw.is_some() { last.clone().map(|(p, g, d, _, strong)| (p, g, d, strong)) } else { None };
        let read_promised = h.messages.get(index.wrapping_sub(1)).and_then(|m| m.promised_by).filter(|&p| p != agent);
        if rmw.is_some() && read_promised.and_then(|p| self.agents.get(p as usize)).and_then(|a| a.promise).is_some_and(|p| p.release) {
            // A read-modify-write of a write that is only promised: allowed for relaxed
            // promises, which publish what they will; a promised release would be acquired
            // before it is made.
            self.invalid = true;
        }
        if let (Some(_), Some(promiser)) = (rmw, read_promised) {
            let (read_ts, level) = (h.messages[index - 1].ts, self.level_of(agent, promiser));
            self.read_promised(agent, id, read_ts, level, true, true);
        }
        let own_sequence = match &last {
            Some((Some(p), _, _, a, _)) if rmw.is_none() && *a == agent && ord.atomic => Some(p.clone()),
            _ => None,
        };
        let rule = self.inclusion();
        let publishes = self.publishes(ord.atomic);
        let distance = read.as_ref().map(|&(_, g, d, _)| self.level_between(agent, g, d));
        // Under PTX an update continues the release sequence of the write it reads, and
        // acquires from it, only when its read observes that write (see `morally_strong`).
        let continued = match (&read, distance) {
            (Some((Some(p), _, _, strong)), Some(distance)) if self.observes(ord, *strong, distance) => Some(p),
            _ => None,
        };
        let a = &mut self.agents[agent as usize];
        let via = memory_of(&self.spaces, id);
        if let (Some(p), Some(distance)) = (continued, distance) {
            a.read_published(p, distance, ord, via, rule, &self.spaces);
        }
        a.cur.raise(id, ts);
        // A release atomic orders the memory of its own address space (OpenCL 2.0: an
        // atomic on local memory orders local memory only); release fences before it order
        // what their flags name, when they name this atomic's memory too.
        let spaces = &self.spaces;
        let direct = ord.releases().then(|| a.known().filtered(|loc| memory_of(spaces, loc) == via));
        let mut published = if publishes { Published::of_write(&a.released[via], direct.as_ref().map(|d| (d, ord.level)), rule) } else { Published::default() };
        for prev in continued.into_iter().chain(own_sequence.iter()) {
            published.join(prev);
        }
        let any = !published.is_empty();
        let sc_instance = ord.sc().then(|| self.sc_instance(agent, ord.level));
        let h = &mut self.histories[id as usize];
        let message = Message {
            ts,
            value,
            agent,
            event,
            step,
            group,
            device,
            published: any.then(|| Rc::new(published)),
            race_release: None,
            promised_by: None,
            rmw: rmw.is_some(),
            strong: ord.atomic.then_some(ord.level),
            readers: Vec::new(),
        };
        let at_end = index == h.messages.len();
        h.messages.insert(index, message);
        if let Some(instance) = sc_instance {
            h.sc.raise(instance, ts);
        }
        if everyone {
            h.floor = ts;
        }
        if h.messages.len() > MAX_HISTORY {
            let drop = h.messages.len() - MAX_HISTORY;
            h.messages.drain(..drop);
        }
        Written { keep: (!at_end).then(|| h.messages.last().map_or(value, |m| m.value)), ts, latest: at_end }
    }

    /// Keeps the race detector's release of the write just made at `key`, with timestamp
    /// `ts`.
    pub fn set_race_release(&mut self, key: LocKey, ts: u32, release: Option<Box<crate::concurrency::race::shadow::Release>>) {
        if let Some(id) = self.find_id(key) {
            let h = &mut self.histories[id as usize];
            if let Ok(i) = h.messages.binary_search_by_key(&ts, |m| m.ts) {
                h.messages[i].race_release = release;
            }
        }
    }

    /// A fence with `order` at scope `level` (`atomic_work_item_fence`, `mem_fence`,
    /// `__threadfence*`).
    ///
    /// `flags` are its `cl_mem_fence_flags`: it orders local memory, global memory or both.
    pub fn fence(&mut self, agent: u32, ord: Order, level: Level, flags: u64) {
        if ord.releases() {
            self.release_point(agent, level, Point::Fence { sc: ord == Order::SeqCst });
        }
        let group = self.agent_group[agent as usize];
        let device = self.agent_device[agent as usize];
        let instance = self.sc_instance(agent, level);
        let rule = self.inclusion();
        let spaces = &self.spaces;
        let covered = |loc: u32| covers(spaces, flags, loc);
        let a = &mut self.agents[agent as usize];
        if ord.acquires() {
            if a.tainted {
                self.invalid = true;
            }
            a.acquires += 1;
            // What reads of objects of a memory the fence names saw, of the memories it names.
            // The pending slots it learns are those a release of its own scope fills: every
            // distance within its scope under PTX, its own scope's releases under OpenCL.
            for via in (0..SPACES).filter(|&m| flags & fence_bit(m) != 0) {
                for l in (0..LEVELS).filter(|&l| rule.fills(level, l)) {
                    let pending = std::mem::take(&mut a.pending[via][l]);
                    a.cur.join(&pending.filtered(covered));
                    a.pending[via][l] = pending.filtered(|loc| !covered(loc));
                }
            }
        }
        if ord == Order::SeqCst {
            a.sc_fences += 1;
            // Every seq_cst write made so far precedes this fence in the SC order, so what
            // comes after the fence reads that write or a later one (the fence rule of C11
            // and OpenCL 2.0 for an SC write before an SC fence).
            // What this fence passes on to later ones: under PTX everything its work-item
            // knows (morally strong `fence.sc`s synchronise); under OpenCL only its own writes
            // before it, as the SC order relates a fence to those (`mo; sbF` and `rb; sbF` in
            // `scp` of Dat3M's `opencl.cat`) and not to what its work-item read.
            let mut mine = View::default();
            for (id, h) in self.histories.iter_mut().enumerate() {
                let sc = h.sc.get(instance);
                if sc != 0 && covered(id as u32) {
                    a.cur.raise(id as u32, sc);
                }
                // A later seq_cst write goes after this agent's writes before the fence in
                // modification order: were it placed before one of them, that write and the
                // fence would put it before the fence in the SC order (`mo; sbF`), which a
                // later fence or read may contradict. (An unkept promise is a write after the
                // fence.) Whatever the fence's flags.
                let last = h.messages.iter().rev().find(|m| m.agent == agent && m.promised_by.is_none());
                if let Some(m) = last {
                    h.sc_fenced.raise(instance, m.ts);
                    mine.raise(id as u32, m.ts);
                }
            }
            // One order of SC fences per scope instance: each sees what the earlier ones passed
            // on. A fence takes part in the order of its own instance at its level and at every
            // narrower one, so that two fences whose scopes include each other's work-items
            // (a system fence and a device fence on the same device) meet in the narrower
            // instance, and fences whose scopes do not never meet.
            let instances = &Level::ALL[..=level.index()];
            for l in instances {
                let shared = match l {
                    Level::Group => self.sc_group.entry(group).or_default(),
                    Level::Device => self.sc_device.entry(device).or_default(),
                    Level::System => &mut self.sc_system,
                };
                a.cur.join(shared);
            }
            if self.ptx {
                mine.clone_from(&a.cur);
            }
            for l in instances {
                let shared = match l {
                    Level::Group => self.sc_group.entry(group).or_default(),
                    Level::Device => self.sc_device.entry(device).or_default(),
                    Level::System => &mut self.sc_system,
                };
                shared.join(&mine);
            }
        }
        if ord.releases() {
            let view = a.known().filtered(covered);
            for via in (0..SPACES).filter(|&m| flags & fence_bit(m) != 0) {
                for l in (0..LEVELS).filter(|&l| rule.fills(level, l)) {
                    a.released[via][l].join(&view);
                }
            }
        }
    }

    /// The members of a work-group pass a barrier, each with its fence flags: every member's
    /// view then includes every member's view of the memory the flags name. Under OpenCL a
    /// barrier is no release or acquire fence besides (Dat3M's `opencl.cat` synchronises the
    /// work-items that meet at it, `bar_sw`, and nothing else): later relaxed writes publish
    /// nothing through it, and what relaxed reads saw of releases stays pending for an
    /// acquire fence. A CUDA barrier (`__syncthreads`, `bar.sync`) also acts as a fence of its
    /// block, as CUDA documents it: it acquires what was pending and its later relaxed writes
    /// publish at block scope.
    pub fn barrier(&mut self, members: &[(u32, u64)]) {
        for &(m, _) in members {
            self.release_point(m, Level::Group, Point::Barrier);
        }
        let spaces = &self.spaces;
        let covers = |flags: u64, loc: u32| covers(spaces, flags, loc);
        let mut joined = View::default();
        for &(m, flags) in members {
            let a = &mut self.agents[m as usize];
            if self.ptx {
                if a.tainted {
                    self.invalid = true;
                }
                a.acquires += 1;
                for pending in &mut a.pending {
                    let pending = std::mem::take(&mut pending[Level::Group.index()]);
                    a.cur.join(&pending);
                }
            }
            joined.join_where(&a.known(), |loc| covers(flags, loc));
        }
        for &(m, flags) in members {
            let a = &mut self.agents[m as usize];
            a.cur.join_where(&joined, |loc| covers(flags, loc));
            if self.ptx {
                for released in &mut a.released {
                    released[Level::Group.index()] = a.cur.clone();
                }
            }
        }
    }

    /// `agent` releases at scope `level` (a fence or a barrier). Its relaxed writes from now
    /// on publish its view to the agents within that scope, which a promise made before does
    /// not yet: the promised write, when it is made, publishes the new view, and what it
    /// published when somebody within the scope read it no longer holds for that reader.
    /// A reader that took it at once (an update continuing its release sequence, an acquire)
    /// or has acquired by a fence since is not one the model allows; any other reader may go
    /// on but may not acquire by a fence from now on (`Agent::tainted`), since a fence would
    /// learn the old view. A barrier orders more: a member of the group that read the promise
    /// before they met read a write that its barrier orders after the read, which no
    /// execution allows (`rf; hb` is irreflexive), acquire or not. Beyond the scope nothing
    /// changes, so a fence of a narrower scope than the promise's readers
    /// (`__threadfence_block` across blocks) orders nothing for them, as in the PTX and
    /// OpenCL models.
    fn release_point(&mut self, agent: u32, level: Level, point: Point) {
        let Some(p) = self.agents[agent as usize].promise.as_mut() else { return };
        if !p.publishes && point == (Point::Fence { sc: false }) {
            // Its write will publish nothing the fence adds to. An SC fence orders more: PTX's
            // Causality axiom covers `.weak` accesses, so a reader that read the promise and
            // passed an SC fence before this one (in the fence-SC order) read a write that
            // causality orders after its read.
            return;
        }
        p.fenced = Some(p.fenced.map_or(level, |f| f.max(level)));
        let (id, ts) = (p.id, p.ts);
        let Weak { histories, agents, invalid, .. } = self;
        let Some(m) = histories[id as usize].message(ts) else { return };
        for reader in m.readers.iter().filter(|r| r.level <= level) {
            match point {
                Point::Fence { sc } => read_before_fence(agents, invalid, *reader, sc),
                Point::Barrier => *invalid = true,
            }
        }
    }

    /// `agent` read the write with timestamp `ts` of location `id` at scope level `level`
    /// from its writer (`binding`: as an update or an acquire): if that is a promise, the
    /// reader is noted, and if its promiser has passed a release fence of that scope since
    /// it promised it, the reader is one that read it before the fence (see
    /// [`Weak::release_point`]).
    fn read_promised(&mut self, agent: u32, id: u32, ts: u32, level: Level, binding: bool, observes: bool) {
        let Weak { histories, agents, invalid, .. } = self;
        let Some(m) = histories[id as usize].message_mut(ts) else { return };
        let Some(promiser) = m.promised_by.filter(|&p| p != agent) else { return };
        let reader = PromiseReader { agent, level, binding, acquires: agents[agent as usize].acquires, observes, sc_fences: agents[agent as usize].sc_fences };
        m.readers.push(reader);
        let fenced = agents.get(promiser as usize).and_then(|a| a.promise).filter(|p| p.ts == ts).and_then(|p| p.fenced);
        if fenced.is_some_and(|f| level <= f) {
            // A fence before the read orders nothing against it in the fence-SC order.
            read_before_fence(agents, invalid, reader, false);
        }
    }

    /// The scope level between `reader` and the agent `writer`.
    pub fn level_of(&self, reader: u32, writer: u32) -> Level {
        self.level_between(reader, self.agent_group[writer as usize], self.agent_device[writer as usize])
    }

    /// `to` learns everything `from` may read (an async copy's engine and its starter, or a
    /// wait on the engine).
    pub fn learn_from(&mut self, to: u32, from: u32) {
        let view = self.agents[from as usize].cur.clone();
        self.agents[to as usize].cur.join(&view);
    }
}

#[cfg(test)]
mod tests;
