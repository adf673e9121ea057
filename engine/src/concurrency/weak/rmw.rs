//! Read-modify-writes: which write an atomic update reads, and where its own write goes.
//!
//! An update reads one write `m` of its location and places its own write immediately after
//! `m` in modification order, so that no write comes between them (atomicity: the PTX model's
//! `rmw & (fr; co)` is empty, and the OpenCL model's `rmw & (fre; coe)`). Nothing else makes
//! it read the latest write: like a load, it may read any write at or after its view, as long
//! as no other update has already taken the place right after that write (and timestamps
//! leave room there). A compare-exchange whose comparison fails writes nothing: it is a load
//! of the write it read, and may read any write its view allows.
//!
//! Updates that form cycles with other threads (an update reading a write that comes later in
//! another thread's program than a write that thread read from the update) need a promise of
//! the update's write, see `promise.rs`.

use super::{History, Ordering, Weak};
use crate::concurrency::race::shadow::Release;

/// What a read-modify-write does with the value it reads.
pub struct Update<'a> {
    /// The value it writes after reading `old`, or `None` when it writes nothing (a
    /// compare-exchange whose comparison fails).
    pub apply: &'a dyn Fn(u64) -> Option<u64>,
    /// A weak compare-exchange fails spuriously one time in this many wherever it would
    /// change the value (an option of the step's decision).
    pub spurious_one_in: Option<u64>,
}

/// Which write a read-modify-write reads.
pub struct RmwRead {
    /// Its timestamp: the write the update's own write follows (`Store::rmw`).
    pub ts: u32,
    /// Its value, when it is not the latest write (which memory holds).
    pub value: Option<u64>,
    pub stale: bool,
    /// A weak compare-exchange that fails spuriously (it only reads).
    pub spurious: bool,
    /// The race detector's release of that write, when it is not the one memory's shadow
    /// holds (an older write, or a promise).
    pub race_release: Option<Option<Box<Release>>>,
}

impl Weak {
    /// Which write of `key` (`size` bytes, whose latest value memory holds as `latest`) the
    /// update `update` of `agent` reads: any write at or after its view whose next place in
    /// modification order is free, or on which the update writes nothing; the latest first.
    /// Several are a decision (`draw(n)` picks among `n` in a run). A sequentially consistent
    /// update reads the latest write, which keeps it after every SC write: a subset of what the
    /// model allows. An
    /// agent that promised this update's write reads the write its promise follows.
    #[allow(clippy::too_many_arguments)]
    pub fn rmw_read(
        &mut self,
        agent: u32,
        key: super::LocKey,
        size: u8,
        latest: u64,
        ord: Ordering,
        update: &Update,
        draw: &mut dyn FnMut(u32) -> u32,
    ) -> RmwRead {
        let (id, same_size) = self.history(key, size, latest);
        let h = &self.histories[id as usize];
        let latest_ts = h.latest_ts();
        if !same_size {
            // Mixed access sizes read the latest bytes: only a spurious failure is left to decide.
            let could = update.spurious_one_in.filter(|_| (update.apply)(latest).is_some_and(|v| v != latest));
            let spurious = could.is_some_and(|n| self.decide(2, &mut || (draw(n.min(u32::MAX as u64) as u32) == 0) as u32) == 1);
            return RmwRead { ts: latest_ts, value: None, stale: false, spurious, race_release: None };
        }
        let a = &self.agents[agent as usize];
        let mut oldest = a.cur.get(id).max(h.floor).max(h.messages[0].ts);
        if ord.sc() {
            oldest = oldest.max(h.sc.get(self.sc_instance(agent, ord.level)));
        }
        let own = a.promise.filter(|p| p.id == id);
        let mut spurious = false;
        let ts = if let Some(after) = own.and_then(|p| p.rmw) {
            // Keeping a promised update: it reads the write its promise was placed after.
            if after < oldest || h.message(after).is_none() {
                self.invalid = true;
            }
            after
        } else {
            let own = own.map(|p| p.ts);
            // A sequentially consistent update reads the latest write it may read.
            let limit = if ord.sc() { 1 } else { usize::MAX };
            let spurious_one_in = update.spurious_one_in;
            // Counted, then walked again for the one chosen, as loads are: nothing allocates.
            let messages = reads(h, oldest, own, update).take(limit).count() as u32;
            let twins = reads(h, oldest, own, update).take(limit).filter(|r| r.1).count() as u32;
            if messages == 0 {
                // Nothing it may read has a free place after it (no timestamp fits): it reads
                // the latest write, unless that is its own promise, which it may not read.
                if own == Some(latest_ts) {
                    self.invalid = true;
                }
                return RmwRead { ts: latest_ts, value: None, stale: false, spurious: false, race_release: None };
            }
            // A run picks the write, then (a weak exchange that would write) whether it fails
            // spuriously; with a single write to read, only the latter is drawn. The history is
            // lent to the draw while the decision is taken.
            let history = std::mem::take(&mut self.histories[id as usize]);
            let mut draw_one = || {
                let k = if messages > 1 { draw(messages) } else { 0 };
                let could = reads(&history, oldest, own, update).take(limit).nth(k as usize).is_some_and(|r| r.1);
                match spurious_one_in {
                    Some(n) if could && draw(n.min(u32::MAX as u64) as u32) == 0 => {
                        messages + reads(&history, oldest, own, update).take(limit).take(k as usize + 1).filter(|r| r.1).count() as u32 - 1
                    }
                    _ => k,
                }
            };
            let k = if messages + twins > 1 { self.decide(messages + twins, &mut draw_one) } else { 0 };
            self.histories[id as usize] = history;
            let h = &self.histories[id as usize];
            if k < messages {
                reads(h, oldest, own, update).take(limit).nth(k as usize).map_or(latest_ts, |r| r.0)
            } else {
                spurious = true;
                reads(h, oldest, own, update).take(limit).filter(|r| r.1).nth((k - messages) as usize).map_or(latest_ts, |r| r.0)
            }
        };
        let h = &self.histories[id as usize];
        let m = h.message(ts);
        let value = m.filter(|_| ts != latest_ts).map(|m| m.value);
        let race_release = m.filter(|m| ts != latest_ts || m.promised_by.is_some()).map(|m| m.race_release.clone());
        RmwRead { ts, value, stale: ts != latest_ts, spurious, race_release }
    }

    /// `agent`'s compare-exchange on `key` failed (or failed spuriously) on the write with
    /// timestamp `ts` that [`Weak::rmw_read`] chose: it was a load of that write.
    pub fn rmw_failed(&mut self, agent: u32, key: super::LocKey, size: u8, ts: u32, ord: Ordering, event: u32) {
        let Some(id) = self.find_id(key) else { return };
        let h = &self.histories[id as usize];
        if h.size != size {
            return;
        }
        let latest_ts = h.latest_ts();
        self.finish_load(agent, id, ts, latest_ts, ord, event);
    }
}

/// The writes of `h` an update may read, latest first, each with whether a spurious failure
/// there is an option: at or after `oldest`, not the reader's own promise `own`, and either
/// followed by a free place (it is the latest, or the next write is no update's, which would
/// have read it, and a timestamp fits between) or one the update does not write after.
fn reads<'a>(h: &'a History, oldest: u32, own: Option<u32>, update: &'a Update) -> impl Iterator<Item = (u32, bool)> + 'a {
    let n = h.messages.len();
    h.messages.iter().enumerate().rev().take_while(move |&(_, m)| m.ts >= oldest).filter(move |&(_, m)| Some(m.ts) != own).filter_map(move |(i, m)| {
        let writes = (update.apply)(m.value);
        let free = i + 1 == n || (!h.messages[i + 1].rmw && h.messages[i + 1].ts - m.ts > 1);
        (writes.is_none() || free).then_some((m.ts, update.spurious_one_in.is_some() && writes.is_some_and(|v| v != m.value)))
    })
}
