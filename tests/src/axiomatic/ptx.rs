//! The PTX memory model: which candidate executions are consistent.
//!
//! This is the model of Lustig, Sahasrabuddhe and Giroux ("A Formal Analysis of the NVIDIA
//! PTX Memory Consistency Model", ASPLOS 2019) as the PTX ISA 7.5 states it and the Dat3M
//! project formalises it, restated here in Rust for programs of generic-proxy accesses (no
//! texture, surface or constant proxies, no virtual aliases: every access of a location
//! goes through the generic proxy at its one address):
//!
//! - **Strength.** Relaxed, acquire and release accesses are strong, weak (`.weak` or
//!   unqualified) ones are not; fences are strong operations. A read-modify-write is a read
//!   and a write, the read carrying its acquire half and the write its release half.
//! - **Morally strong.** Two events are morally strong when they are in program order (either
//!   way) or both strong with each one's scope including the other's thread (a CTA scope
//!   its CTA, a GPU scope its GPU, the system scope everything), and, when both access
//!   memory, they access the same location.
//! - **Observation** is reads-from between morally strong events, or a read-modify-write's
//!   read to its write.
//! - **Synchronisation.** A release pattern (a release write, possibly followed in program
//!   order by a strong write to the same location, or an acq_rel or sc fence followed by a
//!   strong write) synchronises with an acquire pattern (a strong read, possibly followed by
//!   an acquire read of the same location, or followed by an acq_rel or sc fence) when a chain
//!   of observations leads from the one to the other and the two ends are morally strong.
//!   Morally strong sc fences are ordered by a fence-SC order, a partial order chosen per
//!   execution that relates every such pair (here: every acyclic orientation is tried).
//!   Threads of one CTA meeting at a barrier of one id synchronise.
//! - **Causality order** is program order, or program order around a chain of
//!   synchronisations, fence-SC order and barriers, optionally preceded by an observation;
//!   for generic-proxy programs its proxy conditions keep the pairs of memory events of one
//!   location.
//! - **Axioms.** Coherence: writes to one location in causality order are in coherence order,
//!   and morally strong writes to one location are ordered by it (coherence need not be total
//!   otherwise). Fence-SC: sc fences in causality order are in fence-SC order. Atomicity: no
//!   morally strong write comes between a read-modify-write's read and write. No thin air:
//!   reads-from and dependencies (data, control) form no cycle. Causality: no read reads from,
//!   and no read misses, a write that causality orders after it (`(rf | fr); cause` is
//!   irreflexive).
//! - **Data races.** Two conflicting accesses (same location, one of them a write) race when
//!   they are not morally strong and causality orders neither before the other. The model
//!   gives a racy program no undefined behaviour, only its axioms' outcomes, but the race is
//!   what the engine must report (its `data-race` finding), so the checker decides it too.

use super::execution::Execution;
use super::opencl::{Judgement, Race};
use super::program::{Order, Scope};
use super::relation::{bit, members, Rel, Set};

/// Whether an sc fence also forms release and acquire patterns (the PTX ISA lists `fence.sc`
/// beside `fence.acq_rel` in both).
const SC_FENCE_IS_ACQ_REL: bool = true;

/// Whether `x` is consistent under the PTX model, and its worst data race under some fence-SC
/// order that makes it consistent: [`Race::NonAtomic`] when a weak access takes part,
/// [`Race::Atomic`] when both are strong but a scope leaves out the other's thread.
pub fn judge(x: &Execution) -> Judgement {
    let n = x.len();
    let ev = &x.events;
    let test = x.test;
    let all: Set = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let id = |s: Set| Rel::id(n, s);
    let with_order = |orders: &[Order]| x.set(|e| orders.contains(&e.order));
    let strong_write = x.writes & !x.init & with_order(&[Order::Relaxed, Order::Release]);
    let strong_read = x.reads & with_order(&[Order::Relaxed, Order::Acquire]);
    let strong = strong_write | strong_read | x.fences;
    let release_write = x.writes & with_order(&[Order::Release]);
    let acquire_read = x.reads & with_order(&[Order::Acquire]);
    let acq_rel_fence = x.fences & if SC_FENCE_IS_ACQ_REL { with_order(&[Order::AcqRel, Order::SeqCst]) } else { with_order(&[Order::AcqRel]) };
    let sc_fence = x.fences & with_order(&[Order::SeqCst]);
    let memory = x.memory();

    let place = |i: usize| ev[i].thread.map(|t| (test.threads[t].device, test.threads[t].group));
    // Whether the scope of event `a` includes the thread of event `b`.
    let covers = |a: usize, b: usize| match (ev[a].scope, place(a), place(b)) {
        (_, None, _) | (_, _, None) => false,
        (Some(Scope::Cta), Some(pa), Some(pb)) => pa == pb,
        (Some(Scope::Gpu), Some(pa), Some(pb)) => pa.0 == pb.0,
        (Some(Scope::Sys), _, _) => true,
        _ => false,
    };
    let po = x.po;
    let in_scope = Rel::from_fn(n, |a, b| strong & bit(a) != 0 && strong & bit(b) != 0 && covers(a, b) && covers(b, a));
    let ms1 = po.union(&po.inverse()).union(&in_scope);
    let ms3 = Rel::product(n, memory, memory).inter(&x.same_loc).union(&Rel::product(n, all, all).minus(&Rel::product(n, memory, memory)));
    let ms = ms1.inter(&ms3).no_id();
    let observation = ms.inter(&x.rf).union(&x.rmw);
    let po_loc = po.inter(&x.same_loc);
    let release_pattern = id(release_write).seq(&po_loc.opt()).seq(&id(strong_write)).union(&id(acq_rel_fence).seq(&po).seq(&id(strong_write)));
    let acquire_pattern = id(strong_read).seq(&po_loc.opt()).seq(&id(acquire_read)).union(&id(strong_read).seq(&po).seq(&id(acq_rel_fence)));
    let sync = ms.inter(&release_pattern.seq(&observation.plus()).seq(&acquire_pattern));
    let same_cta = Rel::from_fn(n, |a, b| place(a).is_some() && place(a) == place(b));
    let barrier_meet = Rel::from_fn(n, |a, b| x.barriers & bit(a) != 0 && x.barriers & bit(b) != 0 && ev[a].barrier == ev[b].barrier).inter(&same_cta).no_id();
    let co = x.co;
    let fr = x.fr();

    // Checks that do not depend on the fence-SC order.
    let writes = x.writes;
    let strong_pairs = id(writes).seq(&ms).seq(&id(writes)).inter(&x.same_loc);
    let inconsistent = Judgement { consistent: false, race: Race::None };
    if !strong_pairs.minus(&co.union(&co.inverse())).is_empty() {
        return inconsistent;
    }
    if !x.rmw.inter(&ms.inter(&fr).seq(&ms.inter(&co))).is_empty() {
        return inconsistent;
    }
    if !x.rf.union(&x.data).union(&x.ctrl).acyclic() {
        return inconsistent;
    }
    // Conflicting accesses of the threads (initial writes conflict with nothing) that are not
    // morally strong: each races unless causality orders it.
    let threads = x.set(|e| e.thread.is_some());
    let conflicting = Rel::product(n, memory & threads, memory & threads)
        .inter(&x.same_loc)
        .inter(&Rel::product(n, writes, all).union(&Rel::product(n, all, writes)))
        .minus(&ms)
        .no_id();

    // Every acyclic orientation of the morally strong pairs of sc fences.
    let pairs: Vec<(usize, usize)> =
        members(sc_fence).flat_map(|a| members(sc_fence).filter(move |&b| b > a).map(move |b| (a, b))).filter(|&(a, b)| ms.has(a, b)).collect();
    assert!(pairs.len() < 20, "too many sc fences");
    let mut judgement = inconsistent;
    for mask in 0u32..(1u32 << pairs.len()) {
        let mut oriented = Rel::empty(n);
        for (k, &(a, b)) in pairs.iter().enumerate() {
            if mask & (1 << k) != 0 {
                oriented.add(a, b);
            } else {
                oriented.add(b, a);
            }
        }
        let fence_sc = oriented.plus();
        if !fence_sc.irreflexive() {
            continue;
        }
        let step = sync.union(&fence_sc).union(&barrier_meet).seq(&po.opt());
        let cause_base = po.opt().seq(&step.plus()).union(&po);
        let cause = observation.opt().seq(&id(memory).seq(&cause_base.inter(&x.same_loc)).seq(&id(memory)));
        let coherence = id(writes).seq(&cause).seq(&id(writes)).inter(&x.same_loc).minus(&co).is_empty();
        let fence_order = id(sc_fence).seq(&cause).seq(&id(sc_fence)).minus(&fence_sc).is_empty();
        let causality = x.rf.union(&fr).seq(&cause).irreflexive();
        if !(coherence && fence_order && causality) {
            continue;
        }
        judgement.consistent = true;
        let races = conflicting.minus(&cause).minus(&cause.inverse());
        for a in 0..n {
            for b in members(races.row(a)) {
                let weak = !strong & (bit(a) | bit(b)) != 0;
                judgement.race = judgement.race.max(if weak { Race::NonAtomic } else { Race::Atomic });
            }
        }
    }
    judgement
}
