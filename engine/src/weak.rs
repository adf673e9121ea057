//! The relaxed memory model: which write a load may read.
//!
//! Under `--memory-model relaxed` a load does not have to read the latest write of its
//! location. This module keeps what decides which writes it may read, as an operational
//! model in the style of the view-based semantics of Kang, Hur, Lahav, Vafeiadis and Dreyer,
//! "A Promising Semantics for Relaxed-Memory Concurrency" (POPL 2017), without promises:
//!
//! - every location has a *history*: its writes in modification order, each a message with
//!   a timestamp, the value, and the *views* a release published with it;
//! - every work-item has a *view*: for each location, the oldest write it may still read.
//!   Reading or writing a location moves the view forward (coherence); an acquire that reads
//!   a release's message joins the message's view (happens-before);
//! - a load reads any write of the location at or after its view; which one is a decision,
//!   drawn from the run's seeded generator (or forced by the exhaustive explorer), so it
//!   replays exactly.
//!
//! Scopes follow the OpenCL 2.0 model (section 3.3.6; Batty, Donaldson and Wickerson,
//! "Overhauling SC Atomics in C11 and OpenCL", POPL 2016): a release at work-group scope
//! publishes its view only to its own group, at device scope only to its device; an acquire
//! at work-group scope learns only from its own group's releases. A message therefore keeps
//! one view per scope level, and a work-item keeps what relaxed reads saw, per level, until an
//! acquire fence of that level.
//!
//! Writes join their location's history at its end (no write is placed before one already
//! visible), and loads only read writes that were already made. The model therefore never
//! shows load buffering, and in particular no out-of-thin-air value (as in RC11, Lahav et al.,
//! PLDI 2017, whose `po ∪ rf` is acyclic): it shows a subset of what OpenCL allows and never an
//! outcome OpenCL forbids. Sequentially consistent operations are kept in one order per
//! location (an SC load reads the last SC write or a later one) and SC fences in one order per
//! scope instance (each joins the views of all earlier ones).

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::ir::order;

/// Scope levels, narrowest first: what a release reaches and an acquire learns from.
pub const LEVEL_GROUP: usize = 0;
pub const LEVEL_DEVICE: usize = 1;
pub const LEVEL_SYSTEM: usize = 2;
const LEVELS: usize = 3;

/// The most writes a location's history keeps: older ones can no longer be read (a loss of
/// weak behaviours, never a gain), so a long-running kernel's memory stays bounded.
const MAX_HISTORY: usize = 32;

/// For each location (by dense id), the oldest timestamp that may still be read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View(Vec<(u32, u32)>);

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

/// What a write published, per scope level: readers in the writer's group use `views[0]`,
/// others in its device `views[1]`, anyone else `views[2]`.
#[derive(Clone, Debug, Default)]
pub struct Published {
    pub views: [View; LEVELS],
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
}

/// The writes of one location.
#[derive(Clone, Debug)]
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

impl History {
    fn latest_ts(&self) -> u32 {
        self.messages.last().map_or(0, |m| m.ts)
    }

    fn message(&self, ts: u32) -> Option<&Message> {
        let first = self.messages.first()?.ts;
        self.messages.get(ts.checked_sub(first)? as usize)
    }
}

/// What one work-item (or copy engine) may read and has published.
#[derive(Clone, Debug, Default)]
pub struct Agent {
    /// The oldest write of each location it may still read.
    pub cur: View,
    /// What relaxed reads saw, per scope level, for its next acquire fence of that level.
    pub pending: [View; LEVELS],
    /// Its view at its last release fence of at least each level, which its later relaxed
    /// writes publish.
    pub released: [View; LEVELS],
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

/// A location's key: space, owning group (local memory) or 0, allocation, byte offset.
pub type LocKey = (u8, u32, u32, u64);

/// The model's state: part of the machine, so snapshots and seeks carry it.
#[derive(Clone, Debug, Default)]
pub struct Weak {
    pub enabled: bool,
    ids: BTreeMap<LocKey, u32>,
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
    pub fn new(enabled: bool, agent_group: Vec<u32>, agent_device: Vec<u32>) -> Weak {
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

    fn id(&mut self, key: LocKey) -> u32 {
        let next = self.histories.len() as u32;
        *self.ids.entry(key).or_insert(next)
    }

    /// The history of `key`, created with `initial` as its first write when new; `None` when
    /// the location has a history of another access size (mixed-size accesses read the latest
    /// bytes, as if sequentially consistent).
    fn history(&mut self, key: LocKey, size: u8, initial: u64) -> (u32, bool) {
        let id = self.id(key);
        if id as usize == self.histories.len() {
            self.spaces.push(key.0);
            self.histories.push(History {
                size,
                messages: vec![Message {
                    ts: 0,
                    value: initial,
                    agent: u32::MAX,
                    event: u32::MAX,
                    step: 0,
                    group: 0,
                    device: 0,
                    published: None,
                    race_release: None,
                }],
                floor: 0,
                sc: 0,
            });
        }
        (id, self.histories[id as usize].size == size)
    }

    /// A load of `size` bytes at `key`: which write it reads (`value: None` means the latest).
    /// `choose(n)` picks among `n` readable writes, 0 being the latest; without it the load
    /// reads the latest (a failed compare-exchange).
    pub fn load(&mut self, agent: u32, key: LocKey, size: u8, ord: Ordering, event: u32, choose: Option<&mut dyn FnMut(u32) -> u32>) -> Read {
        let plain = Read { value: None, stale: false, race_release: None };
        // Memory nobody wrote during the run has one write: its initial contents.
        let Some(&id) = self.ids.get(&key) else {
            return plain;
        };
        let h = &self.histories[id as usize];
        if h.size != size {
            return plain;
        }
        let latest_ts = h.latest_ts();
        let Some(choose) = choose else {
            return self.finish_load(agent, id, latest_ts, 0, ord, event);
        };
        let mut oldest = self.agents[agent as usize].cur.get(id).max(h.floor).max(h.messages[0].ts);
        if ord.sc() {
            oldest = oldest.max(h.sc);
        }
        let options = latest_ts.saturating_sub(oldest) + 1;
        let k = if options > 1 { self.decide(options, &mut || choose(options)) } else { 0 };
        self.finish_load(agent, id, latest_ts, k, ord, event)
    }

    /// Takes a decision among `options` (more than one): the explorer's forced option, else
    /// the next scripted one, else `draw()`. Every nondeterministic choice of a step other
    /// than which agent steps (which write a load reads, whether a weak compare-exchange fails
    /// spuriously) goes through here, so an exploration can enumerate and replay them.
    pub fn decide(&mut self, options: u32, draw: &mut dyn FnMut() -> u32) -> u32 {
        self.last_options = options;
        let k = if let Some(k) = self.forced.take() {
            k
        } else if let Some(&k) = self.script.get(self.script_pos) {
            self.script_pos += 1;
            k
        } else {
            draw()
        };
        self.last_choice = k.min(options - 1);
        self.last_choice
    }

    /// Reads the write `k` places before the latest (timestamp `latest_ts`) of location `id`.
    fn finish_load(&mut self, agent: u32, id: u32, latest_ts: u32, k: u32, ord: Ordering, event: u32) -> Read {
        let plain = Read { value: None, stale: false, race_release: None };
        let ts = latest_ts - k;
        let h = &self.histories[id as usize];
        let Some(m) = h.message(ts) else { return plain };
        let (value, published, group, device) = (m.value, m.published.clone(), m.group, m.device);
        let race_release = (k > 0).then(|| m.race_release.clone());
        if k > 0 {
            let latest_event = h.messages.last().map_or(u32::MAX, |l| l.event);
            self.stale.push(StaleRead { event, read_from: m.event, latest: latest_event });
        }
        let level = self.level_between(agent, group, device);
        let a = &mut self.agents[agent as usize];
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
    pub fn store(&mut self, agent: u32, key: LocKey, size: u8, before: u64, value: u64, st: Store) {
        let Store { ord, rmw, event, step, everyone } = st;
        let (id, same_size) = self.history(key, size, before);
        let group = self.agent_group[agent as usize];
        let device = self.agent_device[agent as usize];
        if !same_size {
            // Another access size: every agent now reads the latest bytes of this location.
            let h = &mut self.histories[id as usize];
            let ts = h.latest_ts() + 1;
            h.floor = ts;
            h.messages.clear();
            h.messages.push(Message { ts, value, agent, event, step, group, device, published: None, race_release: None });
            return;
        }
        let h = &self.histories[id as usize];
        let ts = h.latest_ts() + 1;
        // A read-modify-write reads the latest write: it acquires and continues its release.
        let read = if rmw { h.messages.last().map(|m| (m.published.clone(), m.group, m.device)) } else { None };
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
        let mut published = Published::default();
        for (l, view) in published.views.iter_mut().enumerate() {
            *view = if ord.releases() && l <= ord.level { a.cur.clone() } else { a.released[l].clone() };
        }
        if let Some((Some(p), _, _)) = &read {
            for (view, prev) in published.views.iter_mut().zip(p.views.iter()) {
                view.join(prev);
            }
        }
        let any = published.views.iter().any(|v| !v.0.is_empty());
        let h = &mut self.histories[id as usize];
        h.messages.push(Message {
            ts,
            value,
            agent,
            event,
            step,
            group,
            device,
            published: any.then(|| Rc::new(published)),
            race_release: None,
        });
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
    }

    /// Keeps the race detector's release of the write just made at `key`.
    pub fn set_race_release(&mut self, key: LocKey, release: Option<Box<crate::race::shadow::Release>>) {
        if let Some(&id) = self.ids.get(&key) {
            if let Some(m) = self.histories[id as usize].messages.last_mut() {
                m.race_release = release;
            }
        }
    }

    /// A fence with `order` at scope `level` (`atomic_work_item_fence`, `mem_fence`,
    /// `__threadfence*`).
    pub fn fence(&mut self, agent: u32, ord: u8, level: usize) {
        let group = self.agent_group[agent as usize];
        let device = self.agent_device[agent as usize];
        let a = &mut self.agents[agent as usize];
        if matches!(ord, order::ACQUIRE | order::ACQ_REL | order::SEQ_CST) {
            for l in 0..=level.min(LEVELS - 1) {
                let pending = std::mem::take(&mut a.pending[l]);
                a.cur.join(&pending);
            }
        }
        if ord == order::SEQ_CST {
            // One order of SC fences per scope instance: each sees what the earlier ones saw.
            let shared = match level {
                LEVEL_GROUP => self.sc_group.entry(group).or_default(),
                LEVEL_DEVICE => self.sc_device.entry(device).or_default(),
                _ => &mut self.sc_system,
            };
            a.cur.join(shared);
            shared.clone_from(&a.cur);
        }
        if matches!(ord, order::RELEASE | order::ACQ_REL | order::SEQ_CST) {
            for l in 0..=level.min(LEVELS - 1) {
                a.released[l] = a.cur.clone();
            }
        }
    }

    /// The members of a work-group pass a barrier, each with its fence flags: an acquire and
    /// release at work-group scope for the memory the flags name, after which every member's
    /// view includes every member's view of that memory.
    pub fn barrier(&mut self, members: &[(u32, u64)]) {
        let spaces = &self.spaces;
        let covers = |flags: u64, loc: u32| {
            let space = spaces.get(loc as usize).copied().unwrap_or(0);
            let bit = if space == crate::trace::Space::Local as u8 { crate::ir::fence::LOCAL } else { crate::ir::fence::GLOBAL };
            flags & bit != 0
        };
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
        w.store(0, X, 4, 0, 1, st(Ordering::PLAIN));
        w.store(0, Y, 4, 0, 1, st(RLX));
        let r = w.load(1, Y, 4, RLX, 0, Some(&mut |_| 0));
        assert!(!r.stale);
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN), vec![u64::MAX, 0], "the latest (1) or the initial 0");
    }

    #[test]
    fn release_acquire_at_device_scope_publishes_across_groups() {
        let mut w = model(&[0, 1]);
        w.store(0, X, 4, 0, 1, st(Ordering::PLAIN));
        w.store(0, Y, 4, 0, 1, st(REL));
        w.load(1, Y, 4, ACQ, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN), vec![u64::MAX], "only the latest x");
    }

    #[test]
    fn work_group_scope_release_does_not_reach_another_group() {
        let mut w = model(&[0, 1]);
        let rel_wg = Ordering { level: LEVEL_GROUP, ..REL };
        let acq_wg = Ordering { level: LEVEL_GROUP, ..ACQ };
        w.store(0, X, 4, 0, 1, st(Ordering::PLAIN));
        w.store(0, Y, 4, 0, 1, st(rel_wg));
        w.load(1, Y, 4, acq_wg, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN).len(), 2);
    }

    #[test]
    fn coherence_forbids_reading_older_after_newer() {
        let mut w = model(&[0, 1]);
        w.store(0, X, 4, 0, 1, st(RLX));
        w.store(0, X, 4, 1, 2, st(RLX));
        assert_eq!(readable(&w, 1, X, RLX).len(), 3);
        w.forced = Some(1);
        w.load(1, X, 4, RLX, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, RLX).len(), 2, "having read 1, it may read 1 or 2, never 0 again");
    }

    #[test]
    fn sc_fences_forbid_store_buffering() {
        let mut w = model(&[0, 1]);
        w.store(0, X, 4, 0, 1, st(RLX));
        w.fence(0, order::SEQ_CST, LEVEL_DEVICE);
        w.store(1, Y, 4, 0, 1, st(RLX));
        w.fence(1, order::SEQ_CST, LEVEL_DEVICE);
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
