//! The scoped OpenCL 2.0 model: which candidate executions are consistent, and which race.
//!
//! This is the model of Batty, Donaldson and Wickerson ("Overhauling SC Atomics in C11 and
//! OpenCL", POPL 2016) in the form the Dat3M project gives it for OpenCL, restated here in
//! Rust. In short:
//!
//! - **Tags.** An access is global or local after its location; a fence or barrier is global,
//!   local or both after its flags. A location declared without an atomic type is
//!   *non-atomic*, and only the writes of atomic locations are ordered by the modification
//!   order `mo` (coherence restricted to atomic locations). Non-atomic accesses act at
//!   work-item scope; a barrier acts at work-group scope.
//! - **Inclusive scopes.** Two events' scopes are inclusive when both name work-group scope
//!   and run in one work-group, both name device scope and run on one device, or both name
//!   all-SVM-devices scope. (The same scope on both sides, as the OpenCL 2.0 specification's
//!   definition reads; a work-group release and a device acquire are never inclusive.)
//! - **Synchronises-with, per memory.** A release (a release, acq_rel or seq_cst write or
//!   fence) synchronises with an acquire (likewise a read or fence) of another work-item with
//!   an inclusive scope when an atomic write, not at work-item scope, at the release or after
//!   the release fence, heads a release sequence (later writes to the location in `mo` by the
//!   same work-item or by read-modify-writes) one of whose writes an atomic read reads, at the
//!   acquire or before the acquire fence. This synchronises *global* memory when the release,
//!   the written location and the acquire are all global (likewise local); a barrier
//!   synchronises the memory its flags name between the work-items of a work-group that meet
//!   at it. A synchronisation through one memory also synchronises the other when both ends
//!   are seq_cst or both are fences naming both memories.
//! - **Happens-before, per memory.** Global happens-before is the transitive closure of
//!   program order between global events, the initial writes before everything else, and
//!   global synchronisation (the identity left out, as a barrier synchronises both ways);
//!   local happens-before likewise.
//! - **Axioms.** Coherence with each happens-before (no write read or overwritten against
//!   it); no read of a write that happens after it; a non-atomic read reads a visible write
//!   (one that happens before it with no other write of the location in between); no write
//!   of another work-item comes between a read-modify-write's read and its write; and the
//!   seq_cst events with inclusive scopes are ordered acyclically by reads-before, `mo` and
//!   both happens-befores (extended through seq_cst fences before or after).
//! - **Data races.** Two conflicting accesses (same location, one a write) of different
//!   work-items, not ordered by either happens-before and not both atomic with inclusive
//!   scopes, race. The model flags them; it does not drop the execution.
//!
//! Two points this module settles where the formal text leaves room, both in the direction
//! of the specification:
//!
//! - A plain load, like a plain store, counts as a work-item-scoped access, so neither can be
//!   the atomic read or write through which fences synchronise (the specification requires
//!   atomic operations there).
//! - The modification order covers atomic locations only, which leaves the final value of a
//!   non-atomic location undetermined by the axioms. Here its writes are ordered consistently
//!   with happens-before, so its final value is that of a write no other write happens after.
//!   This changes no register value.

use super::execution::{Execution, Kind};
use super::program::{Order, Scope, Space, FLAG_GLOBAL, FLAG_LOCAL};
use super::relation::{bit, members, Rel, Set};

/// Which data race a consistent execution has, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Race {
    None,
    /// Only atomics of different scopes race, each scope including the other's work-item
    /// (work-group against device scope within a work-group): inclusive scopes name the same
    /// scope on both sides.
    MixedScopes,
    /// Atomics race, one of whose scopes leaves out the other's work-item (work-group scope
    /// across work-groups).
    Atomic,
    /// A non-atomic access takes part.
    NonAtomic,
}

/// The model's judgement of one candidate execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub consistent: bool,
    pub race: Race,
}

/// The scope an event acts at: its own for atomics and fences, work-item scope for plain
/// accesses, work-group scope for barriers; initial writes have none.
fn scope_of(x: &Execution, i: usize) -> Option<Scope> {
    let e = &x.events[i];
    match e.kind {
        _ if e.thread.is_none() => None,
        Kind::Barrier => Some(Scope::WorkGroup),
        Kind::Read | Kind::Write if e.order == Order::Plain => Some(Scope::WorkItem),
        _ => e.scope,
    }
}

/// Judges `x` under the OpenCL model.
pub fn judge(x: &Execution) -> Judgement {
    let n = x.len();
    let ev = &x.events;
    let test = x.test;
    let all: Set = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let loc_is = |i: usize, f: &dyn Fn(&super::program::Location) -> bool| ev[i].loc.is_some_and(|l| f(&test.locations[l]));
    let non_atomic = (0..n).filter(|&i| loc_is(i, &|l| !l.atomic)).fold(0, |s, i| s | bit(i));
    let fence_like = x.fences | x.barriers;
    let tagged = |flag: u8, space: Space| -> Set {
        (0..n).filter(|&i| loc_is(i, &|l| l.space == space) || (fence_like & bit(i) != 0 && ev[i].flags & flag != 0)).fold(0, |s, i| s | bit(i))
    };
    let global = tagged(FLAG_GLOBAL, Space::Global);
    let local = tagged(FLAG_LOCAL, Space::Local);
    let scopes: Vec<Option<Scope>> = (0..n).map(|i| scope_of(x, i)).collect();
    let group = |i: usize| ev[i].thread.map(|t| (test.threads[t].device, test.threads[t].group));
    let device = |i: usize| ev[i].thread.map(|t| test.threads[t].device);
    let incl = Rel::from_fn(n, |a, b| match (scopes[a], scopes[b]) {
        (Some(Scope::WorkGroup), Some(Scope::WorkGroup)) => group(a) == group(b),
        (Some(Scope::Device), Some(Scope::Device)) => device(a) == device(b),
        (Some(Scope::AllSvmDevices), Some(Scope::AllSvmDevices)) => true,
        _ => false,
    });
    let work_item_scoped = (0..n).filter(|&i| scopes[i] == Some(Scope::WorkItem)).fold(0, |s, i| s | bit(i));
    let with_order = |orders: &[Order]| x.set(|e| orders.contains(&e.order));
    let acquire = with_order(&[Order::Acquire, Order::AcqRel, Order::SeqCst]) & (x.reads | x.fences);
    let release = with_order(&[Order::Release, Order::AcqRel, Order::SeqCst]) & (x.writes | x.fences);
    let sc = with_order(&[Order::SeqCst]);
    let rmw_events = x.set(|e| e.rmw);

    let sb = x.po;
    let wi = x.same_thread;
    let rf = x.rf;
    let mo = x.co.from_set(!non_atomic).to_set(!non_atomic);
    let rb = rf.inverse().seq(&mo);
    let id = |s: Set| Rel::id(n, s);

    // Release sequences: the writes after a write in `mo` by its own work-item or by
    // read-modify-writes, up to the first write that is neither.
    let continues = Rel::product(n, all, rmw_events).union(&wi);
    let rs = mo.inter(&continues).minus(&mo.minus(&continues).seq(&mo));
    let fence_then = id(x.fences).seq(&sb).union(&id(all));
    let then_fence = sb.seq(&id(x.fences)).union(&id(all));

    let ra_sw = |space: Set| -> Rel {
        id(space & release)
            .seq(&fence_then)
            .seq(&id(x.writes & !work_item_scoped))
            .seq(&rs.union(&id(all)))
            .seq(&id(space))
            .seq(&rf)
            .seq(&id(x.reads & !work_item_scoped))
            .seq(&then_fence)
            .seq(&id(acquire & space))
            .inter(&incl)
            .minus(&wi)
    };
    let same_group = Rel::from_fn(n, |a, b| group(a).is_some() && group(a) == group(b));
    let meet = Rel::from_fn(n, |a, b| x.barriers & bit(a) != 0 && x.barriers & bit(b) != 0 && ev[a].barrier == ev[b].barrier);
    let bar_sw = |space: Set| id(space).seq(&meet.inter(&same_group).minus(&wi)).seq(&id(space));
    let both = global & local;
    let cross = Rel::product(n, sc, sc).union(&Rel::product(n, both, both));
    let (ra_global, ra_local) = (ra_sw(global), ra_sw(local));
    let gsw = ra_global.union(&bar_sw(global)).union(&cross.inter(&ra_local));
    let lsw = ra_local.union(&bar_sw(local)).union(&cross.inter(&ra_global));
    let init_first = Rel::product(n, x.init, all & !x.init);
    let hb = |space: Set, sw: &Rel| -> Rel {
        let base = id(space).seq(&sb.union(&init_first)).seq(&id(space)).union(sw);
        base.plus().no_id()
    };
    let ghb = hb(global, &gsw);
    let lhb = hb(local, &lsw);
    let any_hb = ghb.union(&lhb);

    let coherent = |h: &Rel| rf.inverse().union(&id(all)).seq(&mo).seq(&rf.union(&id(all))).seq(h).irreflexive();
    let reads_past = rf.seq(&any_hb).irreflexive();
    let visible = |h: &Rel, r: usize, w: usize| h.has(w, r) && !members(x.writes & x.same_loc.row(w)).any(|w2| h.has(w, w2) && h.has(w2, r));
    let non_atomic_reads_visible = rf.pairs().all(|(w, r)| {
        if non_atomic & bit(r) == 0 {
            return true;
        }
        (global & bit(r) == 0 || visible(&ghb, r, w)) && (local & bit(r) == 0 || visible(&lhb, r, w))
    });
    let fr = x.fr();
    let atomic = x.rmw.inter(&fr.minus(&wi).seq(&x.co.minus(&wi))).is_empty();
    let scp = fence_then.seq(&rb.union(&mo).union(&any_hb)).seq(&then_fence);
    let sc_order = Rel::product(n, sc, sc).inter(&scp).inter(&incl).acyclic();
    // Non-atomic locations: writes in happens-before order (see the module documentation).
    let hb_writes = any_hb.from_set(x.writes & non_atomic).to_set(x.writes).inter(&x.same_loc);
    let final_order = hb_writes.minus(&x.co).is_empty();

    let consistent = coherent(&ghb) && coherent(&lhb) && reads_past && non_atomic_reads_visible && atomic && sc_order && final_order;
    if !consistent {
        return Judgement { consistent, race: Race::None };
    }
    let conflict = Rel::product(n, x.writes, x.memory()).union(&Rel::product(n, x.memory(), x.writes)).inter(&x.same_loc);
    let races = conflict.minus(&any_hb).minus(&any_hb.inverse()).minus(&wi).minus(&incl).from_set(!x.init).to_set(!x.init);
    // Whether the scope of `a` includes the work-item of `b`.
    let covers = |a: usize, b: usize| match scopes[a] {
        Some(Scope::WorkGroup) => group(a) == group(b),
        Some(Scope::Device) => device(a) == device(b),
        Some(Scope::AllSvmDevices) => true,
        _ => false,
    };
    let race = races
        .pairs()
        .map(|(a, b)| {
            if ev[a].order == Order::Plain || ev[b].order == Order::Plain {
                Race::NonAtomic
            } else if covers(a, b) && covers(b, a) {
                Race::MixedScopes
            } else {
                Race::Atomic
            }
        })
        .max()
        .unwrap_or(Race::None);
    Judgement { consistent, race }
}
