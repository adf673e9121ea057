//! Promises: writes an agent makes visible before it performs them (Kang et al.'s load
//! buffering), certified by a solo run and kept or discarded (see the module above).

use std::rc::Rc;

use super::{LocKey, Message, Published, Weak, TS_GAP};

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

impl Weak {
    /// `agent` keeps its promise `p`: the promised message becomes its write, publishing what
    /// a relaxed write of `agent` publishes now. Returns the value memory keeps (the latest
    /// write's, which may have come after the promise).
    pub(super) fn fulfil(&mut self, agent: u32, p: Promise) -> Option<u64> {
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
}
