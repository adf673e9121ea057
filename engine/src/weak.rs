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
//!   decision too; a read-modify-write always follows the write it read;
//! - a work-item may *promise* a relaxed (or release) store it will make: the message joins
//!   the history early, for the others to read, which gives load buffering. A promise is
//!   certified when it is made: running its work-item alone from there, reading the latest
//!   writes, makes that store before any release, read-modify-write or barrier. An execution
//!   in which a promise is never kept, or a release passes it, or somebody acquires a promised
//!   release, is not one the model allows: the explorer discards it. Because every promised
//!   value comes out of a certifying run, no value appears out of thin air (seed 001's
//!   `x == y == 42` cannot), and control-dependent cycles (`if (x) y = 1 || if (y) x = 1`)
//!   are never certified. Promises are made by the explorer only, never in a single run.
//!
//! Scopes follow the OpenCL 2.0 model (section 3.3.6; Batty, Donaldson and Wickerson,
//! "Overhauling SC Atomics in C11 and OpenCL", POPL 2016): a release at work-group scope
//! publishes its view only to its own group, at device scope only to its device; an acquire
//! at work-group scope learns only from its own group's releases. A message therefore keeps
//! one view per scope level, and a work-item keeps what relaxed reads saw, per level, until an
//! acquire fence of that level. A release atomic publishes only the memory of its own address
//! space (an atomic in local memory orders local memory); fences and barriers publish what
//! their flags name.
//!
//! Sequentially consistent operations are kept in one order per location (an SC load reads
//! the last SC write or a later one, SC writes go at the end) and SC fences in one order per
//! scope instance (each joins the views of all earlier ones), a fence taking part in those of
//! its own narrower instances too, so that fences whose scopes include each other's
//! work-items are ordered (PTX's morally strong `fence.sc`). This is stronger than OpenCL
//! requires across devices, never weaker: the model shows a subset of what OpenCL allows.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::ir::order;
use crate::reuse::clone_fields;

/// Scope levels, narrowest first: what a release reaches and an acquire learns from.
pub const LEVEL_GROUP: usize = 0;
pub const LEVEL_DEVICE: usize = 1;
pub const LEVEL_SYSTEM: usize = 2;
const LEVELS: usize = 3;

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
        let mut merged = Vec::with_capacity(self.0.len().max(other.0.len()));
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.0, &other.0);
        while i < a.len() && j < b.len() {
            match a[i].0.cmp(&b[j].0) {
                std::cmp::Ordering::Less => {
                    merged.push(a[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    merged.push(b[j]);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    merged.push((a[i].0, a[i].1.max(b[j].1)));
                    i += 1;
                    j += 1;
                }
            }
        }
        merged.extend_from_slice(&a[i..]);
        merged.extend_from_slice(&b[j..]);
        self.0 = merged;
    }

    /// Keeps only the locations `keep` accepts (a barrier that fences one kind of memory).
    fn filtered(&self, keep: impl Fn(u32) -> bool) -> View {
        View(self.0.iter().copied().filter(|&(l, _)| keep(l)).collect())
    }
}

/// Whether fence flags `flags` cover location `loc` (local or global memory).
fn covers(spaces: &[u8], flags: u64, loc: u32) -> bool {
    let space = spaces.get(loc as usize).copied().unwrap_or(0);
    let bit = if space == crate::trace::Space::Local as u8 { crate::ir::fence::LOCAL } else { crate::ir::fence::GLOBAL };
    flags & bit != 0
}

/// What a write published, per scope level: readers in the writer's group use `views[0]`,
/// others in its device `views[1]`, anyone else `views[2]`.
#[derive(Clone, Debug, Default)]
pub struct Published {
    pub views: [View; LEVELS],
}

impl Published {
    /// Joins what `other` published into this, level by level (a release sequence).
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
    pub race_release: Option<Box<crate::race::shadow::Release>>,
    /// A promise of this agent not yet kept: others may read it, the promiser may not.
    pub promised_by: Option<u32>,
    /// Written by a read-modify-write, which follows the write it read immediately: no
    /// later write may be placed between them.
    pub rmw: bool,
}

/// A write an agent promised and has not made yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Promise {
    /// Location id and the promised message's timestamp.
    pub id: u32,
    pub ts: u32,
    pub value: u64,
    pub size: u8,
    /// A release store: its message publishes its view only when the promise is kept, so
    /// an acquire of it before then would be a cycle (such executions are discarded).
    pub release: bool,
    /// The release's scope level.
    pub level: u8,
    /// What the location held before the promise.
    pub before: u64,
}

/// A write a solo run made, which its agent may promise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Candidate {
    pub key: LocKey,
    pub size: u8,
    pub value: u64,
    /// Scope level of the store.
    pub level: u8,
    pub release: bool,
}

/// What a solo run of one agent wrote, to certify the promises it may make.
#[derive(Clone, Debug, Default)]
pub struct Certify {
    pub agent: u32,
    /// Atomic stores that are neither sequentially consistent nor read-modify-writes, in
    /// order, with their scope level and whether they release: each may be promised.
    pub stores: Vec<Candidate>,
    /// The agent reached a release, a read-modify-write, an SC fence or a barrier: nothing
    /// after it may be promised.
    pub stopped: bool,
}

/// The writes of one location.
#[derive(Debug)]
pub struct History {
    /// Bytes per access: only accesses of this size read older writes.
    pub size: u8,
    /// The writes still readable, oldest first, with consecutive timestamps.
    pub messages: Vec<Message>,
    /// Nothing older than this may be read by anyone (a write every agent must see, such as an
    /// async copy's, or the history's trimmed start).
    pub floor: u32,
    /// The timestamp of the last sequentially consistent write.
    pub sc: u32,
}

clone_fields!(History { size, messages, floor, sc });

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
}

/// What one work-item (or copy engine) may read and has published.
#[derive(Debug, Default)]
pub struct Agent {
    /// The oldest write of each location it may still read.
    pub cur: View,
    /// What relaxed reads saw, per scope level, for its next acquire fence of that level.
    pub pending: [View; LEVELS],
    /// Its view at its last release fence of at least each level, which its later relaxed
    /// writes publish.
    pub released: [View; LEVELS],
    /// Its promise not yet kept (at most one at a time).
    pub promise: Option<Promise>,
    /// It read a release that was only promised: it may not acquire from now on.
    pub tainted: bool,
}

clone_fields!(Agent { cur, pending, released, promise, tainted });

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

/// A location's key: space, owning group (local memory) or 0, allocation, byte offset.
pub type LocKey = (u8, u32, u32, u64);

/// The model's state: part of the machine, so snapshots and seeks carry it.
#[derive(Debug, Default)]
pub struct Weak {
    pub enabled: bool,
    /// Each location's dense id, sorted by key: a run touches few locations, and a vector
    /// (unlike a map's nodes) is copied into an existing one without allocating.
    ids: Vec<(LocKey, u32)>,
    /// Each location's space (whether a barrier's fence flags cover it).
    spaces: Vec<u8>,
    pub histories: Vec<History>,
    pub agents: Vec<Agent>,
    /// Each agent's group and device.
    pub agent_group: Vec<u32>,
    pub agent_device: Vec<u32>,
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
    /// Loads that read older writes, in order.
    pub stale: Vec<StaleRead>,
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
            made,
            invalid,
            certifying,
            promises_made,
            local_allocs,
            spare: _,
        } = self;
        Weak {
            enabled: *enabled,
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
    /// It also read: a read-modify-write reads the latest write and continues its release
    /// sequence.
    pub rmw: bool,
    /// Log index and step of its event.
    pub event: u32,
    pub step: u64,
    /// Every agent must read this write or a later one from now on (an async copy's writes).
    pub everyone: bool,
}

/// What a load reads.
pub struct Read {
    pub value: Option<u64>,
    pub stale: bool,
    pub race_release: Option<Option<Box<crate::race::shadow::Release>>>,
}

/// How an access orders memory.
#[derive(Clone, Copy, Debug)]
pub struct Ordering {
    /// Whether it is an atomic access at all.
    pub atomic: bool,
    pub order: u8,
    /// Scope level of the atomic ([`LEVEL_GROUP`], ...).
    pub level: usize,
}

impl Ordering {
    pub const PLAIN: Ordering = Ordering { atomic: false, order: order::RELAXED, level: LEVEL_SYSTEM };

    fn acquires(self) -> bool {
        self.atomic && matches!(self.order, order::ACQUIRE | order::ACQ_REL | order::SEQ_CST)
    }

    fn releases(self) -> bool {
        self.atomic && matches!(self.order, order::RELEASE | order::ACQ_REL | order::SEQ_CST)
    }

    fn sc(self) -> bool {
        self.atomic && self.order == order::SEQ_CST
    }
}

/// The scope level of an OpenCL `memory_scope` value.
pub fn level_of_scope(scope: u8) -> usize {
    match scope {
        crate::ir::scope::WORK_ITEM | crate::ir::scope::WORK_GROUP | crate::ir::scope::SUB_GROUP => LEVEL_GROUP,
        crate::ir::scope::DEVICE => LEVEL_DEVICE,
        _ => LEVEL_SYSTEM,
    }
}

impl Weak {
    /// The model of a launch whose agents belong to the groups in `agent_group` and the
    /// devices in `agent_device`. A disabled model (sequential consistency) keeps no
    /// per-agent state: the machine calls it only when it is enabled.
    pub fn new(enabled: bool, agent_group: Vec<u32>, agent_device: Vec<u32>) -> Weak {
        if !enabled {
            return Weak { enabled, ..Weak::default() };
        }
        let agents = vec![Agent::default(); agent_group.len()];
        Weak { enabled, agents, agent_group, agent_device, ..Weak::default() }
    }

    /// The level at which `reader` sees a write by someone in `group` and `device`.
    fn level_between(&self, reader: u32, group: u32, device: u32) -> usize {
        if self.agent_group[reader as usize] == group {
            LEVEL_GROUP
        } else if self.agent_device[reader as usize] == device {
            LEVEL_DEVICE
        } else {
            LEVEL_SYSTEM
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
            let mut h = self.spare.pop().unwrap_or(History { size, messages: Vec::new(), floor: 0, sc: 0 });
            h.size = size;
            h.floor = 0;
            h.sc = 0;
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
            oldest = oldest.max(h.sc);
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
        let (value, published, group, device) = (m.value, m.published.clone(), m.group, m.device);
        // A stale write, or a promise (whose write the race detector has not seen yet), brings
        // its own release for the detector.
        let race_release = (k > 0 || m.promised_by.is_some()).then(|| m.race_release.clone());
        if k > 0 {
            let latest_event = h.messages.last().map_or(u32::MAX, |l| l.event);
            self.stale.push(StaleRead { event, read_from: m.event, latest: latest_event });
        }
        // Reading a release that is only promised: an acquire of it would close a cycle, and so
        // would a later acquire fence of the reader.
        let promised_release = m.promised_by.and_then(|p| self.agents.get(p as usize)).and_then(|a| a.promise).is_some_and(|p| p.release && p.ts == ts);
        if promised_release && ord.acquires() {
            self.invalid = true;
        }
        let level = self.level_between(agent, group, device);
        let a = &mut self.agents[agent as usize];
        if promised_release && ord.atomic {
            a.tainted = true;
        }
        a.cur.raise(id, ts);
        if let Some(p) = published {
            let view = &p.views[level];
            if ord.acquires() && level <= ord.level {
                a.cur.join(view);
            } else if ord.atomic {
                a.pending[level].join(view);
            }
        }
        Read { value: (k > 0).then_some(value), stale: k > 0, race_release }
    }

    /// A write of `value` (`size` bytes at `key`, which held `before`); `rmw` when it also
    /// read (a read-modify-write reads the latest write, which it continues the release
    /// sequence of). `everyone` makes the write the oldest anyone may read from now on.
    ///
    /// Returns the value memory must hold afterwards when it is not `value`: a write that
    /// fulfils an earlier promise takes the promise's place in the history, which later writes
    /// may follow.
    pub fn store(&mut self, agent: u32, key: LocKey, size: u8, before: u64, value: u64, st: Store, draw: &mut dyn FnMut(u32) -> u32) -> Option<u64> {
        let Store { ord, rmw, event, step, everyone } = st;
        let (id, same_size) = self.history(key, size, before);
        let group = self.agent_group[agent as usize];
        let device = self.agent_device[agent as usize];
        let plain_relaxed = ord.atomic && !ord.releases() && !rmw;
        let promisable = ord.atomic && !rmw && !ord.sc();
        if let Some(c) = self.certifying.as_mut().filter(|c| c.agent == agent && !c.stopped) {
            if promisable && same_size {
                c.stores.push(Candidate { key, size, value, level: ord.level as u8, release: ord.releases() });
            }
            if ord.atomic && !plain_relaxed {
                // A release or read-modify-write must wait for the thread's promises to be
                // kept, so no store after it can be promised (a release store itself can).
                c.stopped = true;
            }
        }
        if let Some(p) = self.agents[agent as usize].promise {
            let same = p.id == id && p.value == value && p.size == size && p.release == ord.releases() && p.level as usize == ord.level;
            if promisable && same && self.agents[agent as usize].cur.get(id) < p.ts {
                return self.fulfil(agent, p);
            }
            if ord.atomic && !plain_relaxed {
                // Promising semantics lets no release or read-modify-write pass an unkept
                // promise: this execution is not one the model allows.
                self.invalid = true;
            }
        }
        if !same_size {
            // Another access size: every agent now reads the latest bytes of this location.
            let h = &mut self.histories[id as usize];
            let ts = h.latest_ts() + TS_GAP;
            h.floor = ts;
            h.messages.clear();
            h.messages.push(Message { ts, value, agent, event, step, group, device, published: None, race_release: None, promised_by: None, rmw: false });
            return None;
        }
        let h = &self.histories[id as usize];
        // Where the write goes: at the end, or (an atomic store that is neither sequentially
        // consistent nor a read-modify-write) between two writes after every write it has
        // seen, which places it before writes it has not seen in modification order (a
        // decision; this gives the 2+2W shapes).
        let mut slots: Vec<usize> = Vec::new();
        if ord.atomic && !rmw && !ord.sc() && !everyone {
            let seen = self.agents[agent as usize].cur.get(id).max(h.floor);
            for i in 1..h.messages.len() {
                let (a, b) = (h.messages[i - 1].ts, h.messages[i].ts);
                if a >= seen && b - a > 1 && !h.messages[i].rmw {
                    slots.push(i);
                }
            }
        }
        let slot = if slots.is_empty() { 0 } else { self.decide(slots.len() as u32 + 1, &mut || draw(slots.len() as u32 + 1)) };
        let h = &self.histories[id as usize];
        let (index, ts) = match slot.checked_sub(1).and_then(|k| slots.get(k as usize)) {
            Some(&i) => (i, h.messages[i - 1].ts + (h.messages[i].ts - h.messages[i - 1].ts) / 2),
            None => (h.messages.len(), h.latest_ts() + TS_GAP),
        };
        // A read-modify-write reads the latest write: it acquires and continues its release
        // sequence. So does a later store of the same work-item (OpenCL 2.0, as C11: the
        // release sequence runs on through the releasing thread's own writes).
        let last = h.messages.get(index.wrapping_sub(1)).map(|m| (m.published.clone(), m.group, m.device, m.agent));
        let read = if rmw { last.clone().map(|(p, g, d, _)| (p, g, d)) } else { None };
        if rmw && h.messages.last().is_some_and(|m| m.promised_by.is_some_and(|p| p != agent)) {
            // A read-modify-write of a write that is only promised: allowed for relaxed
            // promises, which publish what they will; a promised release would be acquired
            // before it is made.
            let promiser = h.messages.last().and_then(|m| m.promised_by).and_then(|p| self.agents.get(p as usize)).and_then(|a| a.promise);
            if promiser.is_some_and(|p| p.release) {
                self.invalid = true;
            }
        }
        let own_sequence = match &last {
            Some((Some(p), _, _, a)) if !rmw && *a == agent && ord.atomic => Some(p.clone()),
            _ => None,
        };
        let a = &mut self.agents[agent as usize];
        if let Some((Some(p), g, d)) = &read {
            let level = if self.agent_group[agent as usize] == *g {
                LEVEL_GROUP
            } else if self.agent_device[agent as usize] == *d {
                LEVEL_DEVICE
            } else {
                LEVEL_SYSTEM
            };
            if ord.acquires() && level <= ord.level {
                a.cur.join(&p.views[level]);
            } else {
                a.pending[level].join(&p.views[level]);
            }
        }
        a.cur.raise(id, ts);
        // A release atomic orders the memory of its own address space (OpenCL 2.0: an
        // atomic on local memory orders local memory only); release fences before it order
        // what their flags name.
        let space = self.spaces.get(id as usize).copied().unwrap_or(0);
        let spaces = &self.spaces;
        let direct = if ord.releases() { a.cur.filtered(|loc| spaces.get(loc as usize).copied().unwrap_or(0) == space) } else { View::default() };
        let mut published = Published::default();
        for (l, view) in published.views.iter_mut().enumerate() {
            view.clone_from(&a.released[l]);
            if ord.releases() && l <= ord.level {
                view.join(&direct);
            }
        }
        for prev in read.iter().filter_map(|(p, _, _)| p.as_ref()).chain(own_sequence.iter()) {
            published.join(prev);
        }
        let any = !published.is_empty();
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
            rmw,
        };
        let at_end = index == h.messages.len();
        h.messages.insert(index, message);
        if ord.sc() {
            h.sc = ts;
        }
        if everyone {
            h.floor = ts;
        }
        if h.messages.len() > MAX_HISTORY {
            let drop = h.messages.len() - MAX_HISTORY;
            h.messages.drain(..drop);
        }
        // Memory holds the latest write, which an earlier-placed one is not.
        if at_end {
            None
        } else {
            h.messages.last().map(|m| m.value)
        }
    }

    /// `agent` keeps its promise `p`: the promised message becomes its write, publishing what
    /// a relaxed write of `agent` publishes now. Returns the value memory keeps (the latest
    /// write's, which may have come after the promise).
    fn fulfil(&mut self, agent: u32, p: Promise) -> Option<u64> {
        let space = self.spaces.get(p.id as usize).copied().unwrap_or(0);
        let spaces = &self.spaces;
        let a = &mut self.agents[agent as usize];
        a.promise = None;
        a.cur.raise(p.id, p.ts);
        // A relaxed write's message publishes what was fixed when it was promised (no release
        // may come in between); a release publishes its view now.
        let published = p.release.then(|| {
            let direct = a.cur.filtered(|loc| spaces.get(loc as usize).copied().unwrap_or(0) == space);
            let mut published = Published::default();
            for (l, view) in published.views.iter_mut().enumerate() {
                view.clone_from(&a.released[l]);
                if l <= p.level as usize {
                    view.join(&direct);
                }
            }
            Rc::new(published)
        });
        let h = &mut self.histories[p.id as usize];
        if let Some(m) = h.messages.iter_mut().find(|m| m.ts == p.ts) {
            m.promised_by = None;
            if published.is_some() {
                m.published = published;
            }
        }
        h.messages.last().map(|m| m.value)
    }

    /// `agent` promises to write `value` (`size` bytes) at `key` later: the write joins the
    /// end of the location's history now, readable by the other agents (Kang et al.'s
    /// promises, which give load buffering). The caller has certified that running `agent`
    /// alone from here makes that write.
    #[allow(clippy::too_many_arguments)]
    pub fn promise(&mut self, agent: u32, c: Candidate, before: u64, event: u32, step: u64, race_release: Option<Box<crate::race::shadow::Release>>) {
        let Candidate { key, size, value, level, release } = c;
        let (id, same_size) = self.history(key, size, before);
        if !same_size {
            return;
        }
        let group = self.agent_group[agent as usize];
        let device = self.agent_device[agent as usize];
        // The message publishes now what the relaxed write will: the views of the agent's
        // last release fences (which it cannot pass again before keeping the promise), and
        // the release sequence of its own write before it.
        let mut published = Published::default();
        for (view, released) in published.views.iter_mut().zip(self.agents[agent as usize].released.iter()) {
            view.clone_from(released);
        }
        let h = &mut self.histories[id as usize];
        if let Some(Some(prev)) = h.messages.last().filter(|m| m.agent == agent).map(|m| m.published.clone()) {
            published.join(&prev);
        }
        // A release's view is known only when it is made: until then its message publishes
        // nothing, and nobody may acquire it.
        let any = !release && !published.is_empty();
        let ts = h.latest_ts() + TS_GAP;
        h.messages.push(Message {
            ts,
            value,
            agent,
            event,
            step,
            group,
            device,
            published: any.then(|| Rc::new(published)),
            race_release,
            promised_by: Some(agent),
            rmw: false,
        });
        self.agents[agent as usize].promise = Some(Promise { id, ts, value, size, release, level, before });
        self.promises_made += 1;
    }

    /// What `key` held before `agent` promised the write it is about to make there, if it
    /// promised one: memory already shows the promised value.
    pub fn promised_before(&self, agent: u32, key: LocKey) -> Option<u64> {
        let p = self.agents.get(agent as usize)?.promise?;
        (self.find_id(key) == Some(p.id)).then_some(p.before)
    }

    /// Whether the execution so far is one the model allows to end here: no promise left
    /// unkept and none passed by a release.
    pub fn consistent(&self) -> bool {
        !self.invalid && self.agents.iter().all(|a| a.promise.is_none())
    }

    /// Keeps the race detector's release of the write just made at `key`.
    pub fn set_race_release(&mut self, key: LocKey, release: Option<Box<crate::race::shadow::Release>>) {
        if let Some(id) = self.find_id(key) {
            if let Some(m) = self.histories[id as usize].messages.last_mut() {
                m.race_release = release;
            }
        }
    }

    /// A fence with `order` at scope `level` (`atomic_work_item_fence`, `mem_fence`,
    /// `__threadfence*`).
    ///
    /// `flags` are its `cl_mem_fence_flags`: it orders local memory, global memory or both.
    pub fn fence(&mut self, agent: u32, ord: u8, level: usize, flags: u64) {
        if matches!(ord, order::RELEASE | order::ACQ_REL | order::SEQ_CST) {
            self.release_point(agent);
        }
        let group = self.agent_group[agent as usize];
        let device = self.agent_device[agent as usize];
        let spaces = &self.spaces;
        let covered = |loc: u32| covers(spaces, flags, loc);
        let a = &mut self.agents[agent as usize];
        if matches!(ord, order::ACQUIRE | order::ACQ_REL | order::SEQ_CST) {
            if a.tainted {
                self.invalid = true;
            }
            for l in 0..=level.min(LEVELS - 1) {
                let pending = std::mem::take(&mut a.pending[l]);
                a.cur.join(&pending.filtered(covered));
                a.pending[l] = pending.filtered(|loc| !covered(loc));
            }
        }
        if ord == order::SEQ_CST {
            // One order of SC fences per scope instance: each sees what the earlier ones saw.
            // A fence takes part in the order of its own instance at its level and at every
            // narrower one, so that two fences whose scopes include each other's work-items
            // (a system fence and a device fence on the same device) meet in the narrower
            // instance, and fences whose scopes do not never meet.
            let top = level.min(LEVELS - 1);
            for l in 0..=top {
                let shared = match l {
                    LEVEL_GROUP => self.sc_group.entry(group).or_default(),
                    LEVEL_DEVICE => self.sc_device.entry(device).or_default(),
                    _ => &mut self.sc_system,
                };
                a.cur.join(shared);
            }
            for l in 0..=top {
                let shared = match l {
                    LEVEL_GROUP => self.sc_group.entry(group).or_default(),
                    LEVEL_DEVICE => self.sc_device.entry(device).or_default(),
                    _ => &mut self.sc_system,
                };
                shared.clone_from(&a.cur);
            }
        }
        if matches!(ord, order::RELEASE | order::ACQ_REL | order::SEQ_CST) {
            let view = a.cur.filtered(covered);
            for l in 0..=level.min(LEVELS - 1) {
                a.released[l].join(&view);
            }
        }
    }

    /// The members of a work-group pass a barrier, each with its fence flags: an acquire and
    /// release at work-group scope for the memory the flags name, after which every member's
    /// view includes every member's view of that memory.
    pub fn barrier(&mut self, members: &[(u32, u64)]) {
        for &(m, _) in members {
            self.release_point(m);
        }
        let spaces = &self.spaces;
        let covers = |flags: u64, loc: u32| covers(spaces, flags, loc);
        let mut joined = View::default();
        for &(m, flags) in members {
            let a = &mut self.agents[m as usize];
            let pending = std::mem::take(&mut a.pending[LEVEL_GROUP]);
            a.cur.join(&pending);
            joined.join(&a.cur.filtered(|loc| covers(flags, loc)));
        }
        for &(m, flags) in members {
            let a = &mut self.agents[m as usize];
            a.cur.join(&joined.filtered(|loc| covers(flags, loc)));
            a.released[LEVEL_GROUP] = a.cur.clone();
        }
    }

    /// `agent` releases (a fence or a barrier): no promise may pass it.
    fn release_point(&mut self, agent: u32) {
        if let Some(c) = self.certifying.as_mut().filter(|c| c.agent == agent) {
            c.stopped = true;
        }
        if self.agents[agent as usize].promise.is_some() {
            self.invalid = true;
        }
    }

    /// `to` learns everything `from` may read (an async copy's engine and its starter, or a
    /// wait on the engine).
    pub fn learn_from(&mut self, to: u32, from: u32) {
        let view = self.agents[from as usize].cur.clone();
        self.agents[to as usize].cur.join(&view);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X: LocKey = (1, 0, 1, 0);
    const Y: LocKey = (1, 0, 2, 0);
    const RLX: Ordering = Ordering { atomic: true, order: order::RELAXED, level: LEVEL_DEVICE };
    const REL: Ordering = Ordering { atomic: true, order: order::RELEASE, level: LEVEL_DEVICE };
    const ACQ: Ordering = Ordering { atomic: true, order: order::ACQUIRE, level: LEVEL_DEVICE };

    fn st(ord: Ordering) -> Store {
        Store { ord, rmw: false, event: 0, step: 0, everyone: false }
    }

    fn model(groups: &[u32]) -> Weak {
        Weak::new(true, groups.to_vec(), vec![0; groups.len()])
    }

    /// The values agent 1 can read from `key` right now, latest first.
    fn readable(w: &Weak, agent: u32, key: LocKey, ord: Ordering) -> Vec<u64> {
        let mut out = Vec::new();
        for k in 0.. {
            let mut probe = w.clone();
            probe.forced = Some(k);
            probe.last_options = 1;
            let r = probe.load(agent, key, 4, ord, 0, Some(&mut |_| 0));
            if k >= probe.last_options {
                break;
            }
            out.push(r.value.unwrap_or(u64::MAX));
        }
        out
    }

    #[test]
    fn message_passing_with_relaxed_flag_may_read_stale_data() {
        let mut w = model(&[0, 1]);
        w.store(0, X, 4, 0, 1, st(Ordering::PLAIN), &mut |_| 0);
        w.store(0, Y, 4, 0, 1, st(RLX), &mut |_| 0);
        let r = w.load(1, Y, 4, RLX, 0, Some(&mut |_| 0));
        assert!(!r.stale);
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN), vec![u64::MAX, 0], "the latest (1) or the initial 0");
    }

    #[test]
    fn release_acquire_at_device_scope_publishes_across_groups() {
        let mut w = model(&[0, 1]);
        w.store(0, X, 4, 0, 1, st(Ordering::PLAIN), &mut |_| 0);
        w.store(0, Y, 4, 0, 1, st(REL), &mut |_| 0);
        w.load(1, Y, 4, ACQ, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN), vec![u64::MAX], "only the latest x");
    }

    #[test]
    fn work_group_scope_release_does_not_reach_another_group() {
        let mut w = model(&[0, 1]);
        let rel_wg = Ordering { level: LEVEL_GROUP, ..REL };
        let acq_wg = Ordering { level: LEVEL_GROUP, ..ACQ };
        w.store(0, X, 4, 0, 1, st(Ordering::PLAIN), &mut |_| 0);
        w.store(0, Y, 4, 0, 1, st(rel_wg), &mut |_| 0);
        w.load(1, Y, 4, acq_wg, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN).len(), 2);
    }

    #[test]
    fn coherence_forbids_reading_older_after_newer() {
        let mut w = model(&[0, 1]);
        w.store(0, X, 4, 0, 1, st(RLX), &mut |_| 0);
        w.store(0, X, 4, 1, 2, st(RLX), &mut |_| 0);
        assert_eq!(readable(&w, 1, X, RLX).len(), 3);
        w.forced = Some(1);
        w.load(1, X, 4, RLX, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, RLX).len(), 2, "having read 1, it may read 1 or 2, never 0 again");
    }

    #[test]
    fn sc_fences_forbid_store_buffering() {
        let mut w = model(&[0, 1]);
        w.store(0, X, 4, 0, 1, st(RLX), &mut |_| 0);
        w.fence(0, order::SEQ_CST, LEVEL_DEVICE, 3);
        w.store(1, Y, 4, 0, 1, st(RLX), &mut |_| 0);
        w.fence(1, order::SEQ_CST, LEVEL_DEVICE, 3);
        assert_eq!(readable(&w, 1, X, RLX).len(), 1, "the second fence sees the first one's view");
    }

    #[test]
    fn views_join_by_location() {
        let mut a = View::default();
        a.raise(3, 1);
        a.raise(1, 4);
        let mut b = View::default();
        b.raise(1, 2);
        b.raise(2, 7);
        a.join(&b);
        assert_eq!(a, View(vec![(1, 4), (2, 7), (3, 1)]));
    }
}
