//! Unit tests of the relaxed model's views, histories and fences.

use super::*;

const X: LocKey = (1, 0, 1, 0);
const Y: LocKey = (1, 0, 2, 0);
const RLX: Ordering = Ordering { atomic: true, order: Order::Relaxed, level: Level::Device };
const REL: Ordering = Ordering { atomic: true, order: Order::Release, level: Level::Device };
const ACQ: Ordering = Ordering { atomic: true, order: Order::Acquire, level: Level::Device };

fn st(ord: Ordering) -> Store {
    Store { ord, rmw: None, event: 0, step: 0, everyone: false, span: Default::default() }
}

fn model(groups: &[u32]) -> Weak {
    Weak::new(true, groups.into(), vec![0; groups.len()].into())
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
    let rel_wg = Ordering { level: Level::Group, ..REL };
    let acq_wg = Ordering { level: Level::Group, ..ACQ };
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
    w.fence(0, Order::SeqCst, Level::Device, 3);
    w.store(1, Y, 4, 0, 1, st(RLX), &mut |_| 0);
    w.fence(1, Order::SeqCst, Level::Device, 3);
    assert_eq!(readable(&w, 1, X, RLX).len(), 1, "the second fence sees the first one's view");
}

/// Under OpenCL an SC load of work-group scope is in another SC order than an SC store of
/// device scope (their scopes are not inclusive), so it may still read the initial value
/// when the store ran first; an SC load of the store's scope may not. Under PTX all SC
/// operations are in one order.
#[test]
fn sc_operations_are_ordered_with_those_of_their_scope_instance() {
    let sc = Ordering { atomic: true, order: Order::SeqCst, level: Level::Device };
    let sc_wg = Ordering { level: Level::Group, ..sc };
    for ptx in [false, true] {
        let mut w = model(&[0, 0]);
        w.ptx = ptx;
        w.store(0, X, 4, 0, 1, st(sc), &mut |_| 0);
        assert_eq!(readable(&w, 1, X, sc).len(), 1, "ptx {ptx}: the device-scope load reads the store");
        assert_eq!(readable(&w, 1, X, sc_wg).len(), if ptx { 1 } else { 2 }, "ptx {ptx}: the work-group scope load");
    }
}

/// An SC fence learns the SC writes of its own order: a work-group-scope fence under OpenCL
/// not a device-scope store, a device-scope fence that store.
#[test]
fn an_sc_fence_learns_the_sc_writes_of_its_scope_instance() {
    let sc = Ordering { atomic: true, order: Order::SeqCst, level: Level::Device };
    for (level, ptx, readable_after) in [(Level::Group, false, 2), (Level::Device, false, 1), (Level::Group, true, 1)] {
        let mut w = model(&[0, 0]);
        w.ptx = ptx;
        w.store(0, X, 4, 0, 1, st(sc), &mut |_| 0);
        w.fence(1, Order::SeqCst, level, 3);
        assert_eq!(readable(&w, 1, X, RLX).len(), readable_after, "a {level:?} fence, ptx {ptx}");
    }
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

// proptest is a native dev-dependency only.
#[cfg(not(target_arch = "wasm32"))]
proptest::proptest! {
    /// Joining the locations a filter keeps, in place or not, gives what joining the
    /// filtered view gives: the larger timestamp of each location of either.
    #[test]
    fn a_filtered_join_is_the_join_of_the_filtered_view(
        mine in proptest::collection::btree_map(0u32..40, 1u32..9, 0..30),
        theirs in proptest::collection::btree_map(0u32..40, 1u32..9, 0..30),
        modulus in 1u32..4,
    ) {
        let view = |m: &std::collections::BTreeMap<u32, u32>| View(m.iter().map(|(&l, &t)| (l, t)).collect());
        let keep = |loc: u32| loc.is_multiple_of(modulus);
        let mut expected: std::collections::BTreeMap<u32, u32> = mine.clone();
        for (&l, &t) in theirs.iter().filter(|(&l, _)| keep(l)) {
            let e = expected.entry(l).or_insert(t);
            *e = (*e).max(t);
        }
        let mut joined = view(&mine);
        joined.join_where(&view(&theirs), keep);
        proptest::prop_assert_eq!(&joined, &view(&expected));
        // Where every kept location is already there, in place.
        let mut both = view(&expected);
        both.join_where(&view(&theirs), keep);
        proptest::prop_assert_eq!(&both, &view(&expected));
        let mut plain = view(&mine);
        plain.join(&view(&theirs).filtered(keep));
        proptest::prop_assert_eq!(plain, joined);
    }
}

/// An update of agent `agent` at `key` by `apply`, taking option `k` of its decision: the
/// value it read (`u64::MAX` for the latest) and whether it was a spurious failure, or `None`
/// when it has fewer options.
fn update(w: &mut Weak, agent: u32, key: LocKey, ord: Ordering, apply: &dyn Fn(u64) -> Option<u64>, k: u32) -> Option<(u64, bool)> {
    w.forced = Some(k);
    w.last_options = 1;
    let r = w.rmw_read(agent, key, 4, 0, ord, &Update { apply, spurious_one_in: None }, &mut |_| 0);
    w.forced = None;
    if k >= w.last_options {
        return None;
    }
    let old = r.value.unwrap_or(u64::MAX);
    let value = apply(r.value.unwrap_or(0));
    if let Some(v) = value {
        w.store(agent, key, 4, 0, v, Store { ord, rmw: Some(r.ts), event: 0, step: 0, everyone: false, span: Default::default() }, &mut |_| 0);
    }
    Some((old, r.spurious))
}

/// The values agent `agent`'s update by `apply` may read now, latest first.
fn update_options(w: &Weak, agent: u32, key: LocKey, ord: Ordering, apply: &dyn Fn(u64) -> Option<u64>) -> Vec<u64> {
    (0..).map_while(|k| update(&mut w.clone(), agent, key, ord, apply, k).map(|r| r.0)).collect()
}

#[test]
fn an_update_may_read_an_older_write_and_goes_right_after_it() {
    let mut w = model(&[0, 1]);
    let add = |v: u64| Some(v + 10);
    w.store(0, X, 4, 0, 1, st(RLX), &mut |_| 0);
    w.store(0, X, 4, 1, 2, st(RLX), &mut |_| 0);
    assert_eq!(update_options(&w, 1, X, RLX, &add), vec![u64::MAX, 1, 0], "the latest (2), 1 or the initial 0");
    // Agent 1 adds to the initial 0: its write 10 comes right after it, before 1 and 2.
    assert_eq!(update(&mut w, 1, X, RLX, &add, 2), Some((0, false)));
    let values: Vec<u64> = w.histories[0].messages.iter().map(|m| m.value).collect();
    assert_eq!(values, vec![0, 10, 1, 2]);
    // Nobody else's update may read 0 now (atomicity), nor agent 1's below its own write.
    assert_eq!(update_options(&w, 0, X, RLX, &add), vec![u64::MAX], "agent 0 wrote 2: it reads nothing older");
    assert_eq!(update_options(&w, 1, X, RLX, &add), vec![u64::MAX, 1, 10]);
}

#[test]
fn a_compare_exchange_that_fails_may_read_a_write_an_update_follows() {
    let mut w = model(&[0, 1, 2]);
    w.store(0, X, 4, 0, 1, Store { rmw: Some(0), ..st(RLX) }, &mut |_| 0);
    // Comparing with 5 fails everywhere: a plain read of 1 or of the initial 0.
    let cas_5 = |v: u64| (v == 5).then_some(7);
    assert_eq!(update_options(&w, 1, X, RLX, &cas_5), vec![u64::MAX, 0]);
    // Comparing with 0 would succeed on the initial 0, which agent 0's update follows.
    let cas_0 = |v: u64| (v == 0).then_some(7);
    assert_eq!(update_options(&w, 2, X, RLX, &cas_0), vec![u64::MAX]);
}

#[test]
fn a_sequentially_consistent_update_reads_the_latest_write() {
    let mut w = model(&[0, 1]);
    let sc = Ordering { order: Order::SeqCst, ..RLX };
    w.store(0, X, 4, 0, 1, st(RLX), &mut |_| 0);
    w.store(0, X, 4, 1, 2, st(RLX), &mut |_| 0);
    assert_eq!(update_options(&w, 1, X, sc, &|v| Some(v + 1)), vec![u64::MAX]);
}

#[test]
fn a_ptx_weak_load_does_not_order_later_loads_after_the_write_it_read() {
    for ptx in [false, true] {
        let mut w = model(&[0, 1]);
        w.ptx = ptx;
        w.store(0, X, 4, 0, 1, st(REL), &mut |_| 0);
        // Agent 1 reads the release's write 1 with a plain load; may the next load read 0?
        let r = w.load(1, X, 4, Ordering::PLAIN, 0, Some(&mut |_| 0));
        assert!(!r.stale);
        let expected = if ptx { vec![u64::MAX, 0] } else { vec![u64::MAX] };
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN), expected, "ptx: {ptx}");
        // A relaxed (morally strong) load that read it orders later loads in both models.
        let mut w = model(&[0, 1]);
        w.ptx = ptx;
        w.store(0, X, 4, 0, 1, st(REL), &mut |_| 0);
        w.load(1, X, 4, RLX, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN), vec![u64::MAX], "ptx: {ptx}");
    }
}

#[test]
fn under_ptx_only_a_morally_strong_read_orders_later_loads_after_the_write_it_read() {
    let rlx_wg = Ordering { level: Level::Group, ..RLX };
    // (writer's order, reader's order, the agents' groups, whether the reader's next load may
    // still read the initial 0 under PTX). Morally strong: both strong, each one's scope
    // including the other's work-item.
    let cases = [
        (RLX, RLX, [0, 1], false),
        (Ordering::PLAIN, RLX, [0, 1], true),
        (rlx_wg, RLX, [0, 1], true),
        (RLX, rlx_wg, [0, 1], true),
        (rlx_wg, rlx_wg, [0, 0], false),
    ];
    for (write, read, groups, free) in cases {
        for ptx in [false, true] {
            let mut w = model(&groups);
            w.ptx = ptx;
            w.store(0, X, 4, 0, 1, st(write), &mut |_| 0);
            let r = w.load(1, X, 4, read, 0, Some(&mut |_| 0));
            assert!(!r.stale);
            let expected = if ptx && free { vec![u64::MAX, 0] } else { vec![u64::MAX] };
            assert_eq!(readable(&w, 1, X, RLX), expected, "a {write:?} write read by a {read:?} load in groups {groups:?}, ptx {ptx}");
        }
    }
}

#[test]
fn under_ptx_a_weak_write_after_a_release_fence_publishes_nothing() {
    // Message passing: x = 1, a release fence, then the flag; an acquire load reads the flag.
    for (flag, ptx, expected) in [(RLX, true, vec![u64::MAX]), (Ordering::PLAIN, true, vec![u64::MAX, 0]), (Ordering::PLAIN, false, vec![u64::MAX])] {
        let mut w = model(&[0, 1]);
        w.ptx = ptx;
        w.store(0, X, 4, 0, 1, st(RLX), &mut |_| 0);
        w.fence(0, Order::Release, Level::Device, BOTH_FENCES);
        w.store(0, Y, 4, 0, 1, st(flag), &mut |_| 0);
        w.load(1, Y, 4, ACQ, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, RLX), expected, "a {flag:?} flag, ptx {ptx}");
    }
}

#[test]
fn under_ptx_an_acquire_learns_only_from_a_release_it_observes() {
    // A release of x's write at device scope, read in another group by an acquire load of
    // work-group scope (which leaves the writer out) and then an acquire fence of device
    // scope: the read is no observation, so nothing synchronises.
    let acq_wg = Ordering { level: Level::Group, ..ACQ };
    for (read, expected) in [(acq_wg, vec![u64::MAX, 0]), (ACQ, vec![u64::MAX])] {
        let mut w = model(&[0, 1]);
        w.ptx = true;
        w.store(0, X, 4, 0, 1, st(RLX), &mut |_| 0);
        w.store(0, Y, 4, 0, 1, st(REL), &mut |_| 0);
        w.load(1, Y, 4, read, 0, Some(&mut |_| 0));
        w.fence(1, Order::Acquire, Level::Device, BOTH_FENCES);
        assert_eq!(readable(&w, 1, X, RLX), expected, "read by a {read:?} load");
    }
}

#[test]
fn a_device_release_and_a_work_group_acquire_synchronise_under_ptx_only() {
    // One work-group: each scope includes the other's work-item, but OpenCL's inclusive
    // scopes name the same scope.
    let acq_wg = Ordering { level: Level::Group, ..ACQ };
    for (ptx, expected) in [(false, vec![u64::MAX, 0]), (true, vec![u64::MAX])] {
        let mut w = model(&[0, 0]);
        w.ptx = ptx;
        w.store(0, X, 4, 0, 1, st(Ordering::PLAIN), &mut |_| 0);
        w.store(0, Y, 4, 0, 1, st(REL), &mut |_| 0);
        w.load(1, Y, 4, acq_wg, 0, Some(&mut |_| 0));
        assert_eq!(readable(&w, 1, X, Ordering::PLAIN), expected, "ptx: {ptx}");
    }
}

/// Agent 0 of a one-group launch promises a relaxed `x = 1`, and agent 1 reads it with `ord`.
fn promised_and_read(ord: Ordering) -> Weak {
    promised_and_read_in(&[0, 0], ord)
}

/// As [`promised_and_read`], with the agents in the work-groups `groups`.
fn promised_and_read_in(groups: &[u32], ord: Ordering) -> Weak {
    let mut w = model(groups);
    let c = Candidate { key: X, size: 4, value: 1, level: Level::Device, atomic: true, release: false, rmw: false, span: Default::default() };
    w.promise(0, c, 0, 0, 0, None);
    let r = w.load(1, X, 4, ord, 1, Some(&mut |_| 0));
    assert_eq!(r.value, None, "it reads the promise, the latest write");
    assert!(!w.invalid);
    w
}

const GLOBAL_FENCE: u64 = crate::ir::fence::GLOBAL;
/// Fence flags naming both memories (the tests' locations are in local memory).
const BOTH_FENCES: u64 = crate::ir::fence::GLOBAL | crate::ir::fence::LOCAL;

#[test]
fn a_promise_may_pass_a_release_fence_its_reader_never_acquires_by() {
    let mut w = promised_and_read(RLX);
    w.fence(0, Order::Release, Level::Device, GLOBAL_FENCE);
    assert!(!w.invalid && w.agents[1].tainted, "the reader goes on, but may not acquire");
    w.store(0, X, 4, 0, 1, st(RLX), &mut |_| 0);
    assert!(w.consistent(), "the promise is kept");
    w.fence(1, Order::Acquire, Level::Device, GLOBAL_FENCE);
    assert!(w.invalid, "an acquire fence would learn what the write published before the release fence");
}

#[test]
fn a_promise_passing_a_release_fence_invalidates_readers_that_learned_from_it() {
    // An acquire fence of the reader before the release fence.
    let mut w = promised_and_read(RLX);
    w.fence(1, Order::Acquire, Level::Device, GLOBAL_FENCE);
    assert!(!w.invalid);
    w.fence(0, Order::Release, Level::Device, GLOBAL_FENCE);
    assert!(w.invalid);
    // An acquire load of the promise.
    let mut w = promised_and_read(ACQ);
    w.fence(0, Order::Release, Level::Device, GLOBAL_FENCE);
    assert!(w.invalid);
    // A fence of work-group scope does not reach a reader in another group.
    let mut w = promised_and_read_in(&[0, 1], ACQ);
    w.fence(0, Order::Release, Level::Group, GLOBAL_FENCE);
    assert!(!w.invalid && !w.agents[1].tainted);
}

#[test]
fn under_ptx_a_weak_promise_passes_release_fences_but_not_sc_ones() {
    // Agent 0 promises a `.weak` x = 1, which agent 1 reads and then passes an SC fence.
    let promised = |w: &mut Weak| {
        let c = Candidate { key: X, size: 4, value: 1, level: Level::System, atomic: false, release: false, rmw: false, span: Default::default() };
        w.promise(0, c, 0, 0, 0, None);
        w.load(1, X, 4, RLX, 1, Some(&mut |_| 0));
        w.fence(1, Order::SeqCst, Level::Device, GLOBAL_FENCE);
    };
    // Its write publishes nothing a release fence adds, so the reader's acquire learned nothing
    // of the fence.
    let mut w = model(&[0, 0]);
    w.ptx = true;
    promised(&mut w);
    w.fence(0, Order::AcqRel, Level::Device, GLOBAL_FENCE);
    assert!(!w.invalid);
    // An SC fence of the promiser after the reader's in the fence-SC order: causality orders the
    // read before the write it read.
    let mut w = model(&[0, 0]);
    w.ptx = true;
    promised(&mut w);
    w.fence(0, Order::SeqCst, Level::Device, GLOBAL_FENCE);
    assert!(w.invalid);
}

#[test]
fn under_ptx_a_reader_that_observed_nothing_learns_nothing_by_its_fence() {
    // Agent 0 promises a relaxed x = 1, which agent 1 reads with a plain (`.weak`) load and
    // then passes an acquire fence (`.sc`: an SC one); agent 0 then passes a release fence.
    for (ptx, reader_sc, promiser_sc, invalid) in
        [(false, false, false, true), (true, false, false, false), (true, false, true, false), (true, true, false, false), (true, true, true, true)]
    {
        let mut w = model(&[0, 0]);
        w.ptx = ptx;
        let c = Candidate { key: X, size: 4, value: 1, level: Level::Device, atomic: true, release: false, rmw: false, span: Default::default() };
        w.promise(0, c, 0, 0, 0, None);
        w.load(1, X, 4, Ordering::PLAIN, 1, Some(&mut |_| 0));
        let order = |sc| if sc { Order::SeqCst } else { Order::AcqRel };
        w.fence(1, order(reader_sc), Level::Device, GLOBAL_FENCE);
        w.fence(0, order(promiser_sc), Level::Device, GLOBAL_FENCE);
        assert_eq!(w.invalid, invalid, "ptx {ptx}, the reader's fence sc {reader_sc}, the promiser's sc {promiser_sc}");
        assert!(!w.agents[1].tainted || !ptx, "a PTX reader that observed nothing may still acquire");
    }
}

#[test]
fn a_promise_read_in_its_group_may_not_pass_a_barrier() {
    // The barrier orders the read before the write it read, acquire or not.
    let mut w = promised_and_read(RLX);
    w.barrier(&[(0, GLOBAL_FENCE), (1, GLOBAL_FENCE)]);
    assert!(w.invalid);
}
