//! Promises: writes an agent makes visible before it performs them (Kang et al.'s load
//! buffering), certified by a solo run and kept or discarded (see the module above).

use std::rc::Rc;

use super::{LocKey, Message, Published, Weak, TS_GAP};
use crate::concurrency::race::shadow::Release;
use crate::ir::Level;

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
    pub level: Level,
    /// Its write publishes what the release fences before it ordered ([`Weak::publishes`]).
    pub publishes: bool,
    /// What the location held before the promise.
    pub before: u64,
    /// A read-modify-write's: the timestamp of the write it will read, which the promised
    /// message follows immediately (no other write may come between them).
    pub rmw: Option<u32>,
    /// The widest scope level of the release fences (or barriers) its agent passed since the
    /// promise: a reader within it reads what the write will publish no longer (see
    /// `Weak::release_point`).
    pub fenced: Option<Level>,
}

/// A write a solo run made, which its agent may promise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub key: LocKey,
    pub size: u8,
    pub value: u64,
    /// Scope level of the store.
    pub level: Level,
    /// An atomic store (PTX: a strong one), not a plain or `.weak` one.
    pub atomic: bool,
    pub release: bool,
    /// Made by a read-modify-write, of the latest write of its location when the solo run
    /// started (so its promise follows that write).
    pub rmw: bool,
    /// Where the solo run made it: the promise's event names this place in the source, not
    /// where its work-item stands when it promises.
    pub span: crate::diag::Span,
}

impl Candidate {
    /// Whether `other` promises the same write (made elsewhere in the source, perhaps): one
    /// promise of them is enough.
    pub fn same_write(&self, other: &Candidate) -> bool {
        Candidate { span: other.span, ..*self } == *other
    }
}

/// What a solo run of one agent wrote, to certify the promises it may make.
#[derive(Clone, Debug, Default)]
pub struct Certify {
    pub agent: u32,
    /// Stores (plain ones too) and read-modify-writes that are not sequentially
    /// consistent, in order, with their scope level and whether they release: each may be
    /// promised.
    pub stores: Vec<Candidate>,
    /// The machine's step when the solo run started: a read-modify-write that reads a write
    /// made after it (by the solo run) cannot be promised, as that write does not exist yet.
    pub start: u64,
}

impl Weak {
    /// `agent` keeps its promise `p` with a write of order `ord`: the promised message
    /// becomes its write, publishing what a relaxed write of `agent` publishes now. A
    /// read-modify-write also reads the write its promise follows. Memory keeps the latest
    /// write, which may have come after the promise.
    pub(super) fn fulfil(&mut self, agent: u32, p: Promise, ord: super::Ordering, event: u32) -> super::Written {
        // What a read-modify-write reads: the release sequence it continues, and what its
        // reader may learn of it.
        let read = p.rmw.and_then(|after| {
            let h = &self.histories[p.id as usize];
            let m = h.message(after)?;
            if h.latest_ts() != after {
                let latest = h.messages.last().map_or(u32::MAX, |l| l.event);
                super::record_stale(&mut self.stale, super::StaleRead { event, read_from: m.event, latest });
            }
            let distance = self.level_between(agent, m.group, m.device);
            Some((m.published.clone().filter(|_| self.observes(ord, m.strong, distance)), distance))
        });
        let rule = self.inclusion();
        let spaces = &self.spaces;
        let via = super::memory_of(spaces, p.id);
        let a = &mut self.agents[agent as usize];
        a.promise = None;
        if let Some((Some(published), distance)) = &read {
            a.read_published(published, *distance, ord, via, rule, spaces);
        }
        a.cur.raise(p.id, p.ts);
        // A relaxed write's message publishes what was fixed when it was promised, and what
        // release fences since then add (a reader within their scope that read it before may
        // not acquire by a fence since, nor afterwards; see `release_point`); a release
        // publishes its view now, and a read-modify-write's release continues the sequence of
        // the write it read.
        let fenced = (!p.release && p.publishes && p.fenced.is_some()).then(|| {
            let mut published = Published::default();
            for (view, released) in published.views.iter_mut().zip(a.released[via].iter()) {
                view.clone_from(released);
            }
            published
        });
        let published = p.release.then(|| {
            let direct = a.known().filtered(|loc| super::memory_of(spaces, loc) == via);
            let mut published = Published::of_write(&a.released[via], Some((&direct, p.level)), rule);
            if let Some((Some(prev), _)) = &read {
                published.join(prev);
            }
            Rc::new(published)
        });
        let h = &mut self.histories[p.id as usize];
        if let Some(m) = h.messages.iter_mut().find(|m| m.ts == p.ts) {
            m.promised_by = None;
            m.readers.clear();
            if published.is_some() {
                m.published = published;
            } else if let Some(mut now) = fenced {
                if let Some(before) = &m.published {
                    now.join(before);
                }
                m.published = Some(Rc::new(now));
            }
        }
        let latest = h.latest_ts() == p.ts;
        super::Written { keep: h.messages.last().map(|m| m.value), ts: p.ts, latest }
    }

    /// `agent` promises to write `value` (`size` bytes) at `key` later: the write joins the
    /// end of the location's history now, readable by the other agents (Kang et al.'s
    /// promises, which give load buffering). The caller has certified that running `agent`
    /// alone from here makes that write. A read-modify-write's promise follows the latest
    /// write, which it will read: that place is taken from now on.
    #[allow(clippy::too_many_arguments)]
    pub fn promise(&mut self, agent: u32, c: Candidate, before: u64, event: u32, step: u64, race_release: Option<Box<Release>>) {
        let Candidate { key, size, value, level, atomic, release, rmw, .. } = c;
        let (id, same_size) = self.history(key, size, before);
        if !same_size {
            return;
        }
        let group = self.agent_group[agent as usize];
        let device = self.agent_device[agent as usize];
        // The message publishes now what the relaxed write will: the views of the agent's
        // last release fences (which it cannot pass again before keeping the promise), and
        // the release sequence it continues: of its own write before it, or of any write a
        // read-modify-write reads (the latest, which its promise follows).
        let mut published = Published::default();
        let via = super::memory_of(&self.spaces, id);
        let publishes = self.publishes(atomic);
        if publishes {
            for (view, released) in published.views.iter_mut().zip(self.agents[agent as usize].released[via].iter()) {
                view.clone_from(released);
            }
        }
        // Continuing the sequence of a release that is itself only promised would need its
        // view before it is known: not an execution the model allows.
        let promised_release = |m: &Message| m.promised_by.and_then(|b| self.agents.get(b as usize)).and_then(|b| b.promise).is_some_and(|b| b.release);
        if rmw && self.histories[id as usize].messages.last().is_some_and(promised_release) {
            self.invalid = true;
        }
        // An update's read is an atomic one of its own scope.
        let read_as = super::Ordering { atomic: true, order: crate::ir::Order::Relaxed, level };
        let continues =
            |m: &Message| publishes && if rmw { self.observes(read_as, m.strong, self.level_between(agent, m.group, m.device)) } else { m.agent == agent };
        let prev = self.histories[id as usize].messages.last().filter(|m| continues(m)).and_then(|m| m.published.clone());
        if let Some(prev) = prev {
            published.join(&prev);
        }
        let h = &mut self.histories[id as usize];
        let after = rmw.then(|| h.latest_ts());
        let read_promise = after.zip(h.messages.last().and_then(|m| m.promised_by));
        // For the race detector too, an update continues the release sequence it reads.
        let race_release = if rmw { continued(h.messages.last().and_then(|m| m.race_release.as_deref()), race_release) } else { race_release };
        // A release's view is known only when it is made: until then its message publishes
        // only what it will beyond its scope, and nobody within the scope may acquire it.
        let any = !published.is_empty();
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
            rmw,
            strong: atomic.then_some(level),
            readers: Vec::new(),
        });
        self.agents[agent as usize].promise = Some(Promise { id, ts, value, size, release, level, publishes, before, rmw: after, fenced: None });
        // An update's promise reads the latest write: if that is itself a promise, its reader
        // is noted (see `release_point`).
        if let Some((read, promiser)) = read_promise {
            let level = self.level_of(agent, promiser);
            self.read_promised(agent, id, read, level, true, true);
        }
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
}

/// The race detector's release of an update's write, as the detector makes it for an update
/// it sees: the release sequence of the write it reads (`prev`) goes on, joined with the
/// update's own release (`own`, after a release fence).
fn continued(prev: Option<&Release>, own: Option<Box<Release>>) -> Option<Box<Release>> {
    match (prev, own) {
        (Some(prev), Some(own)) => {
            let mut joined = Box::new(prev.clone());
            joined.absorb(&own);
            Some(joined)
        }
        (None, own) => own,
        (Some(prev), None) => Some(Box::new(prev.clone())),
    }
}
