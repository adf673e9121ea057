//! Named barriers: a PTX litmus test's `bar.sync` and `bar.arrive` ([`Instr::NamedBarrier`]).
//!
//! A work-group's named barriers are *meetings*, each named by a number. A meeting without a
//! thread count waits for its members (the local ids of its mask): once every member has
//! arrived (or finished without arriving, which is barrier divergence), the round completes,
//! the members that wait go on, and the next arrivals start the next round. A meeting with a
//! thread count counts the arrivals with one barrier resource: once that many have arrived
//! it is open, and whoever arrives later goes straight through, having met as many of the
//! earlier arrivals as the count asks (which ones is the step's decision). A work-item that *arrives*
//! (rather than syncs) counts itself in and goes on at once.
//!
//! The memory effect is carried by the relaxed model and the race detector as they carry
//! atomics, so that each arrival releases what it did *when it arrived*, even if it went on
//! (an `arrive`, or an arrival before the count was reached): every arrival is an
//! acquire-release fence at work-group scope (a release fence for an `arrive`) followed by a
//! release store to a word of its own, which no allocation holds; a work-item that passes
//! acquires the words of the arrivals it synchronises with, those of its round with the same
//! resource (for a late arrival at a counted meeting, the earlier arrivals it met). The words
//! are per work-item and meeting, so a word is rewritten only when its work-item arrives at
//! that meeting again.
//!
//! The thread count follows Dat3M's reading of its PTX format: a thread passes once it has
//! met that many threads (itself included), so a late arrival meets as many as it needs of
//! those before it, not necessarily all; with three threads and a count of two, the third
//! may meet either of the first two.
//!
//! [`Instr::NamedBarrier`]: crate::ir::Instr::NamedBarrier

use crate::concurrency::race::shadow::Shadow;
use crate::concurrency::race::AccessInfo;
use crate::concurrency::weak;
use crate::diag::Span;
use crate::ir::{fence, Level, Order, Scope};
use crate::report::FindingKind;
use crate::trace::{EventKind, Space};

use super::{interp, Fault, Machine, Status};

/// Barrier names and resources are 0 to 15, as in PTX.
pub const BARRIERS: u64 = 16;

/// The allocation number of the words arrivals release through: no allocation has it.
const WORDS: u32 = u32::MAX;

/// The named barriers of a launch: the meetings under way and the shadow of their words.
#[derive(Clone, Debug, Default)]
pub struct NamedBarriers {
    meetings: Vec<Meeting>,
    shadow: Shadow,
    /// The values written to the words, all different.
    writes: u64,
}

#[derive(Clone, Debug)]
struct Meeting {
    group: u32,
    name: u64,
    /// 0 for a meeting of members; otherwise its thread count, counting `resource`.
    quorum: u64,
    resource: u64,
    members: u64,
    open: bool,
    /// In arrival order (for a meeting of members, later rounds' arrivals too).
    arrivals: Vec<Arrival>,
}

#[derive(Clone, Copy, Debug)]
struct Arrival {
    wi: u32,
    resource: u64,
    arrive: bool,
    span: Span,
}

/// The offset of the word of `wi`'s arrivals at meeting `name`.
fn word(wi: u32, name: u64) -> u64 {
    (wi as u64 * BARRIERS + name) * 4
}

/// Work-item `wi` of group `group` arrives at a named barrier (its event is already logged
/// at index `event`).
#[allow(clippy::too_many_arguments)]
pub fn arrive(m: &mut Machine, wi: u32, group: usize, name: u64, resource: u64, members: u64, quorum: u64, arrive: bool, event: u32, span: Span) {
    for (what, v, max) in [("barrier", name, BARRIERS - 1), ("barrier resource", resource, BARRIERS - 1), ("thread count", quorum, 64)] {
        if v > max {
            m.fault(Fault {
                kind: FindingKind::OutOfBounds,
                message: format!("{what} {v} is out of range: it is 0 to {max}"),
                span,
                work_item: wi,
                step: m.step,
                related: Vec::new(),
            });
            m.set_status(wi, Status::Faulted);
            m.leave_group(wi, None);
            return;
        }
    }
    // A loop through a barrier is not a spin: what it meets there may have changed.
    if let Some(w) = m.spins.get_mut(wi as usize) {
        w.epoch = 0;
        w.spinning = false;
    }
    publish(m, wi, group, name, arrive, event, span);
    let here = Arrival { wi, resource, arrive, span };
    let state = m.named_barriers.get_or_insert_with(Default::default);
    let found = state.meetings.iter().position(|x| x.group == group as u32 && x.name == name && x.quorum == quorum && (quorum == 0 || x.resource == resource));
    let index = found.unwrap_or_else(|| {
        state.meetings.push(Meeting { group: group as u32, name, quorum, resource, members, open: false, arrivals: Vec::new() });
        state.meetings.len() - 1
    });
    let meeting = &mut state.meetings[index];
    if quorum == 0 {
        meeting.arrivals.push(here);
        if !arrive {
            m.set_status(wi, Status::AtBarrier);
        }
        complete_rounds(m, (group as u32, name), wi);
        return;
    }
    if meeting.open {
        // Late: it passes, having met as many of the arrivals before it as the count asks
        // (which ones is the step's decision), and learned what they released.
        let before: Vec<u32> = meeting.arrivals.iter().map(|a| a.wi).collect();
        meeting.arrivals.push(here);
        if !arrive {
            for from in partners(m, &before, quorum as usize - 1) {
                acquire(m, wi, group, from, name, event, span);
            }
        }
        return;
    }
    meeting.arrivals.push(here);
    let opens = meeting.arrivals.len() as u64 >= quorum;
    let round = if opens {
        meeting.open = true;
        meeting.arrivals.clone()
    } else {
        Vec::new()
    };
    if !arrive {
        m.set_status(wi, Status::AtBarrier);
    }
    if opens {
        release(m, wi, group, name, &round, None);
    }
}

/// The `k` arrivals among `before` that a late arrival meets: one of the combinations, by
/// the step's decision (so that exploration tries each). Past `u32::MAX` combinations (a
/// count near half of dozens of threads), all of them.
fn partners(m: &mut Machine, before: &[u32], k: usize) -> Vec<u32> {
    let n = before.len();
    if k >= n {
        return before.to_vec();
    }
    let choose = |n: usize, k: usize| -> u128 { (0..k).fold(1u128, |c, i| c * (n - i) as u128 / (i + 1) as u128) };
    let Ok(count) = u32::try_from(choose(n, k)) else { return before.to_vec() };
    let Machine { weak, rng, .. } = m;
    let mut index = if count > 1 { weak.decide(count, &mut || rng.below(count as u64) as u32) } else { 0 } as u128;
    // The combination of that rank, in lexicographic order.
    let mut chosen = Vec::with_capacity(k);
    let mut next = 0;
    while chosen.len() < k {
        let left = k - chosen.len() - 1;
        let with = choose(n - next - 1, left);
        if index < with {
            chosen.push(before[next]);
        } else {
            index -= with;
        }
        next += 1;
    }
    chosen
}

/// A work-item of `group` left (finished, or stopped by a fault): the meetings it was a
/// member of may now be complete without it.
pub fn left(m: &mut Machine, wi: u32, group: usize) {
    let Some(state) = &m.named_barriers else { return };
    let first = m.groups[group].first;
    let bit = 1u64.checked_shl(wi - first).unwrap_or(0);
    let mine: Vec<(u32, u64)> =
        state.meetings.iter().filter(|x| x.group == group as u32 && x.quorum == 0 && x.members & bit != 0).map(|x| (x.group, x.name)).collect();
    for key in mine {
        complete_rounds(m, key, wi);
    }
}

/// Completes the rounds of the meeting of members `key` (group, name) whose members have
/// all arrived or left; `by` is the agent whose step completes them. Meetings are found by
/// key each time: releasing a round runs work-items on, and one that finishes completes
/// other meetings, which may go away.
fn complete_rounds(m: &mut Machine, key: (u32, u64), by: u32) {
    loop {
        let Some(state) = &m.named_barriers else { return };
        let Some(index) = state.meetings.iter().position(|x| x.quorum == 0 && (x.group, x.name) == key) else { return };
        let meeting = &state.meetings[index];
        let group = meeting.group as usize;
        let first = m.groups[group].first;
        let mut round: Vec<usize> = Vec::new();
        let mut finished_without: Option<u32> = None;
        for l in 0..64u32 {
            if meeting.members & (1 << l) == 0 {
                continue;
            }
            let wi = first + l;
            match meeting.arrivals.iter().position(|a| a.wi == wi) {
                Some(k) => round.push(k),
                None => match m.items.get(wi as usize).map(|item| item.status) {
                    Some(Status::Finished) => {
                        finished_without.get_or_insert(wi);
                    }
                    Some(Status::Faulted) | None => {}
                    // Still to come.
                    Some(_) => return,
                },
            }
        }
        if round.is_empty() {
            return;
        }
        round.sort_unstable();
        let name = meeting.name;
        let arrivals: Vec<Arrival> = round.iter().map(|&k| meeting.arrivals[k]).collect();
        let state = m.named_barriers.as_mut().expect("checked above");
        for &k in round.iter().rev() {
            state.meetings[index].arrivals.remove(k);
        }
        // A meeting with nobody left in it is forgotten; its next arrival starts it anew.
        if state.meetings[index].arrivals.is_empty() {
            state.meetings.remove(index);
        }
        release(m, by, group, name, &arrivals, finished_without);
    }
}

/// The round `arrivals` of meeting `name` completes: each one that waits acquires what the
/// others with its resource released, and goes on.
fn release(m: &mut Machine, by: u32, group: usize, name: u64, arrivals: &[Arrival], finished_without: Option<u32>) {
    let span = arrivals[0].span;
    let event = m.log.len() as u32;
    m.event(by, EventKind::BarrierRelease, None, arrivals.len() as u64, 0, span);
    m.released = true;
    if let Some(finished) = finished_without {
        let count = arrivals.len();
        m.fault(Fault {
            kind: FindingKind::BarrierDivergence,
            message: format!(
                "barrier divergence: {count} work-item{} met at this barrier, but work-item {finished}, which takes part in it, finished without reaching it",
                if count == 1 { "" } else { "s" }
            ),
            span,
            work_item: arrivals[0].wi,
            step: m.step,
            related: Vec::new(),
        });
    }
    for a in arrivals.iter().filter(|a| !a.arrive) {
        for from in arrivals.iter().filter(|b| b.wi != a.wi && b.resource == a.resource) {
            acquire(m, a.wi, group, from.wi, name, event, a.span);
        }
    }
    for a in arrivals.iter().filter(|a| !a.arrive) {
        if m.items[a.wi as usize].status == Status::AtBarrier {
            m.set_status(a.wi, Status::Ready);
        }
    }
    for a in arrivals.iter().filter(|a| !a.arrive) {
        if m.items[a.wi as usize].status == Status::Ready {
            interp::run_private(m, a.wi);
        }
    }
}

/// The fence flags of a barrier's fence: both memories, at work-group scope.
fn flags(ord: Order) -> u64 {
    fence::GLOBAL | fence::LOCAL | fence::order_bits(ord) | fence::scope_bits(Level::Group)
}

/// `wi`'s arrival releases what it did: a fence, then a release store to its word.
fn publish(m: &mut Machine, wi: u32, group: usize, name: u64, arrive: bool, event: u32, span: Span) {
    let ord = if arrive { Order::Release } else { Order::AcqRel };
    m.races.fence(wi, flags(ord));
    if m.weak.enabled {
        m.weak.fence(wi, ord, Level::Group, flags(ord));
    }
    let offset = word(wi, name);
    let Machine { races, log, weak, named_barriers, step, .. } = m;
    let state = named_barriers.get_or_insert_with(Default::default);
    let before = state.writes;
    state.writes += 1;
    let info = AccessInfo {
        agent: wi,
        space: Space::Global,
        memory_group: group as u32,
        alloc: WORDS,
        offset,
        size: 4,
        write: true,
        atomic: Some((Order::Release, Scope::WorkGroup)),
        same_value: false,
        value: state.writes,
        rmw: false,
        event,
        span,
    };
    races.access(&mut state.shadow, log, info);
    if weak.enabled {
        let ord = weak::Ordering { atomic: true, order: Order::Release, level: Level::Group };
        let store = weak::Store { ord, rmw: None, event, step: *step, everyone: false, span };
        weak.store(wi, (Space::Global as u8, 0, WORDS, offset), 4, before, state.writes, store, &mut |_| 0);
    }
}

/// `wi` acquires what `from` released at its latest arrival at meeting `name`.
fn acquire(m: &mut Machine, wi: u32, group: usize, from: u32, name: u64, event: u32, span: Span) {
    let offset = word(from, name);
    let Machine { races, log, weak, named_barriers, .. } = m;
    let state = named_barriers.get_or_insert_with(Default::default);
    let info = AccessInfo {
        agent: wi,
        space: Space::Global,
        memory_group: group as u32,
        alloc: WORDS,
        offset,
        size: 4,
        write: false,
        atomic: Some((Order::Acquire, Scope::WorkGroup)),
        same_value: false,
        value: 0,
        rmw: false,
        event,
        span,
    };
    races.access(&mut state.shadow, log, info);
    if weak.enabled {
        let ord = weak::Ordering { atomic: true, order: Order::Acquire, level: Level::Group };
        weak.load(wi, (Space::Global as u8, 0, WORDS, offset), 4, ord, event, None);
    }
}

/// For a work-item waiting at a named barrier: how many of its meeting have arrived, and how
/// many it waits for (the members, or the thread count), for the deadlock finding.
pub fn waiting(m: &Machine, wi: u32) -> Option<(u64, u64)> {
    let state = m.named_barriers.as_ref()?;
    let meeting = state.meetings.iter().find(|x| x.arrivals.iter().any(|a| a.wi == wi && !a.arrive))?;
    let expected = if meeting.quorum > 0 { meeting.quorum } else { meeting.members.count_ones() as u64 };
    Some((meeting.arrivals.len() as u64, expected))
}
