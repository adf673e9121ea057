//! A machine packed for the snapshots seeking restores ([`FrozenMachine`]).
//!
//! A snapshot of a launch of 65,536 work-items held each one as the live machine did then: 72
//! bytes of fields, a register vector and a boxed spin watch, so about 180 bytes and two
//! allocations a work-item, twelve of the eighteen megabytes a snapshot took. Yet neighbouring
//! work-items are nearly alike: they run the same function, usually at nearby program
//! counters, their registers hold the same pointers and ids one apart, their clocks differ by
//! little. So a snapshot keeps them as one byte string, each field as a LEB128 variable-length
//! integer and most of them as the (zigzag-encoded) difference from the same field of the
//! work-item before: a typical work-item takes 20 to 30 bytes.
//!
//! Restoring writes the fields back into the live machine's work-items, reusing their
//! vectors, exactly: what [`freeze`] reads, [`FrozenItems::thaw_into`] writes, field for field
//! (`WorkItem`'s destructuring below makes a new field a compile error here). The rare boxes
//! (call frames and private memory, a spin watch's saved state) are few and kept as clones.
//!
//! The rest of a large launch's state is packed alike: the race detector's shadow memory
//! (`race::shadow::FrozenShadows`) and the work-items waiting at each barrier, whose arrivals
//! (56 bytes each live) differ from the one before by a work-item and little else. What never
//! changes after the launch is not copied at all: the contents of read-only buffers and
//! constant memory stay in the live machine, which is the only one a snapshot is restored
//! into, and the agents' groups and devices are shared lists (`Rc`). Nor is what follows from
//! the rest: the scheduler's index of the ready list (`Machine::ready_pos`) is rebuilt from
//! the list. What is left is copied as it is.

use super::{Alloc, Arrival, Machine, Rare, Rendezvous, SpinState, SpinWatch, Status, WorkItem};
use crate::concurrency::race::shadow::{FrozenShadows, Shadow};
use crate::pack::{put, put_delta, Reader};
use crate::reuse::clone_boxed_into;

/// A machine as a snapshot keeps it: its work-items, its shadow memory and the arrivals at its
/// barriers packed, as they are most of a large launch's state and nearly alike, everything
/// else as it was.
#[derive(Debug)]
pub struct FrozenMachine {
    /// The machine without its work-items, shadows, arrivals and ready positions (all empty)
    /// and the contents of its fixed allocations ([`fixed_mut`]), and without the event log,
    /// which its caller keeps once for all snapshots.
    machine: Machine,
    items: FrozenItems,
    shadows: FrozenShadows,
    /// The waiting lists of every rendezvous ([`rendezvous_mut`]'s order), packed.
    arrivals: Vec<u8>,
}

/// Every allocation of `machine` that has a shadow, in one fixed order.
fn allocs(machine: &Machine) -> impl Iterator<Item = &Alloc> {
    machine.global.iter().chain(&machine.constant).chain(machine.groups.iter().flat_map(|g| &g.local))
}

fn allocs_mut(machine: &mut Machine) -> impl Iterator<Item = &mut Alloc> {
    machine.global.iter_mut().chain(&mut machine.constant).chain(machine.groups.iter_mut().flat_map(|g| &mut g.local))
}

/// The allocations whose contents never change after the launch: read-only buffers (every
/// write into one is refused) and constant memory. A snapshot keeps none of their bytes: the
/// live machine's are the same at every step of the run (a snapshot is only ever restored
/// into the machine of the launch it was taken from, `Session::seek`).
fn fixed_mut(machine: &mut Machine) -> impl Iterator<Item = &mut Alloc> {
    machine.global.iter_mut().filter(|a| a.access == super::Access::ReadOnly).chain(&mut machine.constant)
}

/// Lends out the contents of `machine`'s fixed allocations ([`fixed_mut`]), leaving them
/// empty.
fn take_fixed(machine: &mut Machine) -> Vec<(Vec<u8>, Option<Vec<bool>>)> {
    fixed_mut(machine).map(|a| (std::mem::take(&mut a.bytes), a.init.take())).collect()
}

/// Gives back what [`take_fixed`] lent out.
fn put_fixed(machine: &mut Machine, contents: Vec<(Vec<u8>, Option<Vec<bool>>)>) {
    let mut fixed = fixed_mut(machine);
    for (bytes, init) in contents {
        let a = fixed.next().expect("a snapshot is restored into the machine of its own launch, with the same fixed allocations");
        debug_assert!(a.bytes.is_empty() && a.init.is_none(), "a fixed allocation's contents are lent out");
        (a.bytes, a.init) = (bytes, init);
    }
    debug_assert!(fixed.next().is_none(), "a snapshot is restored into the machine of its own launch");
}

/// How many agents `machine` has: its work-items, then a copy engine per group.
fn agents(machine: &Machine) -> usize {
    machine.items.len() + machine.groups.len()
}

/// Makes `ready_pos` the positions of the agents in `ready` (`u32::MAX` for the others), for
/// `agents` agents: it follows from `ready`, so a snapshot does not keep it.
fn rebuild_ready_pos(ready: &[u32], ready_pos: &mut Vec<u32>, agents: usize) {
    ready_pos.clear();
    ready_pos.resize(agents, u32::MAX);
    for (i, &agent) in ready.iter().enumerate() {
        ready_pos[agent as usize] = i as u32;
    }
}

/// Every rendezvous of `machine`: its groups', then its warps'.
fn rendezvous_mut(machine: &mut Machine) -> impl Iterator<Item = &mut Rendezvous> {
    machine.groups.iter_mut().map(|g| &mut g.rendezvous).chain(machine.warps.iter_mut().map(|w| &mut w.rendezvous))
}

/// Packs the waiting lists `lists`, in order.
fn freeze_arrivals<'a>(lists: impl Iterator<Item = &'a Vec<Arrival>>) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut prev = Arrival { wi: 0, func: 0, pc: 0, a: 0, b: 0, mask: None, width: 0 };
    for list in lists {
        put(&mut bytes, list.len() as u64);
        for &arrival in list {
            let Arrival { wi, func, pc, a, b, mask, width } = arrival;
            put_delta(&mut bytes, u64::from(wi), u64::from(prev.wi));
            put(&mut bytes, u64::from(func));
            put(&mut bytes, u64::from(pc));
            put_delta(&mut bytes, a, prev.a);
            put_delta(&mut bytes, b, prev.b);
            match mask {
                None => bytes.push(0),
                Some(mask) => {
                    bytes.push(1);
                    put(&mut bytes, mask);
                }
            }
            put(&mut bytes, width);
            prev = arrival;
        }
    }
    bytes.shrink_to_fit();
    bytes
}

/// Makes `lists` the waiting lists [`freeze_arrivals`] packed into `bytes`, reusing them.
fn thaw_arrivals<'a>(bytes: &[u8], lists: impl Iterator<Item = &'a mut Vec<Arrival>>) {
    let mut reader = Reader::new(bytes);
    let mut prev = Arrival { wi: 0, func: 0, pc: 0, a: 0, b: 0, mask: None, width: 0 };
    for list in lists {
        let n = reader.get() as usize;
        list.clear();
        for _ in 0..n {
            let wi = reader.get_delta(u64::from(prev.wi)) as u32;
            let func = reader.get_u32();
            let pc = reader.get_u32();
            let a = reader.get_delta(prev.a);
            let b = reader.get_delta(prev.b);
            let mask = (reader.byte() != 0).then(|| reader.get());
            let width = reader.get();
            prev = Arrival { wi, func, pc, a, b, mask, width };
            list.push(prev);
        }
    }
    debug_assert!(reader.done(), "every frozen arrival is read back");
}

impl FrozenMachine {
    /// Packs `machine`, whose event log the caller has taken out. The machine is borrowed
    /// mutably only to lend its work-items and shadows out while the rest is copied; it is
    /// left as it was.
    pub fn freeze(machine: &mut Machine) -> FrozenMachine {
        debug_assert_eq!(machine.ready_pos.len(), agents(machine), "an agent per work-item and per group's copy engine");
        let items = std::mem::take(&mut machine.items);
        let spins = std::mem::take(&mut machine.spins);
        let ready_pos = std::mem::take(&mut machine.ready_pos);
        let fixed = take_fixed(machine);
        let shadows: Vec<Shadow> = allocs_mut(machine).map(|a| std::mem::take(&mut a.shadow)).collect();
        let waiting: Vec<Vec<Arrival>> = rendezvous_mut(machine).map(|r| std::mem::take(&mut r.waiting)).collect();
        let copy = machine.clone();
        machine.items = items;
        machine.spins = spins;
        machine.ready_pos = ready_pos;
        put_fixed(machine, fixed);
        for (alloc, shadow) in allocs_mut(machine).zip(shadows) {
            alloc.shadow = shadow;
        }
        let arrivals = freeze_arrivals(waiting.iter());
        for (rendezvous, list) in rendezvous_mut(machine).zip(waiting) {
            rendezvous.waiting = list;
        }
        FrozenMachine {
            machine: copy,
            items: freeze(&machine.items, &machine.spins),
            shadows: FrozenShadows::freeze(allocs(machine).map(|a| &a.shadow)),
            arrivals,
        }
    }

    /// Makes `machine` the one frozen, but for its event log, which is left as it is; its
    /// allocations are reused.
    pub fn thaw_into(&self, machine: &mut Machine) {
        let mut items = std::mem::take(&mut machine.items);
        let mut spins = std::mem::take(&mut machine.spins);
        let mut ready_pos = std::mem::take(&mut machine.ready_pos);
        let log = std::mem::take(&mut machine.log);
        // The fixed allocations' contents are the same in the live machine as when the
        // snapshot was taken: kept out of the copy, and given back after it.
        let fixed = take_fixed(machine);
        // The shadows and waiting lists copied here are empty, which empties the machine's own
        // but keeps their pages and capacity for the packed ones to be written into.
        machine.clone_from(&self.machine);
        put_fixed(machine, fixed);
        self.items.thaw_into(&mut items, &mut spins);
        machine.items = items;
        machine.spins = spins;
        machine.log = log;
        rebuild_ready_pos(&machine.ready, &mut ready_pos, agents(machine));
        machine.ready_pos = ready_pos;
        self.shadows.thaw_into(allocs_mut(machine).map(|a| &mut a.shadow));
        thaw_arrivals(&self.arrivals, rendezvous_mut(machine).map(|r| &mut r.waiting));
    }
}

/// Work-items as [`freeze`] packed them.
#[derive(Debug, Default)]
pub struct FrozenItems {
    bytes: Vec<u8>,
    /// How many work-items `bytes` holds.
    len: usize,
    /// The work-items that had a [`Rare`] box, by index, in increasing order.
    rare: Vec<(u32, Box<Rare>)>,
    /// Whether the machine had made its spin watches (`Machine::spins`): then every
    /// work-item's is packed with it.
    spins: bool,
    /// The spin watches that kept a saved state, by work-item index, in increasing order.
    saved: Vec<(u32, Box<SpinState>)>,
}

// The flag byte of each work-item: its status in the low three bits, then one bit each.
const SPURIOUS: u8 = 1 << 3;
const SPIN_TAKEN: u8 = 1 << 5;
const SPIN_SPINNING: u8 = 1 << 6;
const STATUS_MASK: u8 = 0b111;

const STATUSES: [Status; 6] = [Status::Ready, Status::AtBarrier, Status::Finished, Status::Faulted, Status::Waiting, Status::NotStarted];

fn status_code(status: Status) -> u8 {
    STATUSES.iter().position(|&s| s == status).expect("every status is listed") as u8
}

/// The fields a work-item is compared with: those of the one before it, or zeros for the first.
#[derive(Clone, Copy, Default)]
struct Base {
    warp: u32,
    group: u32,
    cycles: u64,
    epoch: u64,
}

/// How many work-items ahead thawing asks the processor to load.
const PREFETCH_AHEAD: usize = 8;

/// Packs `items`, with their spin watches `spins` (one each, or none made yet).
pub fn freeze(items: &[WorkItem], spins: &[SpinWatch]) -> FrozenItems {
    debug_assert!(spins.is_empty() || spins.len() == items.len(), "the spin watches are made all at once");
    let spins = (spins.len() == items.len()).then_some(spins);
    let mut frozen = FrozenItems { bytes: Vec::with_capacity(items.len() * 24), len: items.len(), spins: spins.is_some(), ..FrozenItems::default() };
    let bytes = &mut frozen.bytes;
    let mut base = Base::default();
    let mut prev_regs: &[u64] = &[];
    for (index, item) in items.iter().enumerate() {
        // The vectors and boxes lie all over the heap, as in thawing (below).
        if let Some(ahead) = items.get(index + PREFETCH_AHEAD) {
            super::prefetch(ahead.regs.as_ptr());
        }
        let WorkItem { func, pc, base: reg_base, warp, group, status, spurious, cycles, regs, rare } = item;
        let spin = spins.map(|s| &s[index]);
        let mut flags = status_code(*status);
        if *spurious {
            flags |= SPURIOUS;
        }
        if let Some(spin) = spin {
            if spin.taken {
                flags |= SPIN_TAKEN;
            }
            if spin.spinning {
                flags |= SPIN_SPINNING;
            }
        }
        bytes.push(flags);
        put(bytes, u64::from(*func));
        put(bytes, u64::from(*pc));
        put(bytes, u64::from(*reg_base));
        put_delta(bytes, u64::from(*warp), u64::from(base.warp));
        put_delta(bytes, u64::from(*group), u64::from(base.group));
        put_delta(bytes, *cycles, base.cycles);
        put(bytes, regs.len() as u64);
        for (i, &r) in regs.iter().enumerate() {
            put_delta(bytes, r, prev_regs.get(i).copied().unwrap_or(0));
        }
        if let Some(spin) = spin {
            let SpinWatch { epoch, func, pc, since, taken: _, saved, spinning: _ } = spin;
            put_delta(bytes, *epoch, base.epoch);
            put(bytes, u64::from(*func));
            put(bytes, u64::from(*pc));
            put(bytes, u64::from(*since));
            if let Some(saved) = saved {
                frozen.saved.push((index as u32, saved.clone()));
            }
            base.epoch = *epoch;
        }
        if let Some(rare) = rare {
            frozen.rare.push((index as u32, rare.clone()));
        }
        base.warp = *warp;
        base.group = *group;
        base.cycles = *cycles;
        prev_regs = regs;
    }
    frozen.bytes.shrink_to_fit();
    frozen
}

impl FrozenItems {
    /// Bytes it takes beyond its own size.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        self.bytes.capacity()
            + self.rare.capacity() * std::mem::size_of::<(u32, Box<Rare>)>()
            + self.saved.capacity() * std::mem::size_of::<(u32, Box<SpinState>)>()
    }

    /// Makes `items` the work-items that were frozen and `spins` their spin watches, reusing
    /// the vectors and boxes they hold.
    pub fn thaw_into(&self, items: &mut Vec<WorkItem>, spins: &mut Vec<SpinWatch>) {
        items.truncate(self.len);
        if self.spins {
            spins.truncate(self.len);
            spins.resize_with(self.len, SpinWatch::default);
        } else {
            spins.clear();
        }
        while items.len() < self.len {
            items.push(WorkItem {
                func: 0,
                pc: 0,
                base: 0,
                warp: 0,
                group: 0,
                status: Status::NotStarted,
                spurious: false,
                cycles: 0,
                regs: super::Regs::new(),
                rare: None,
            });
        }
        let mut reader = Reader::new(&self.bytes);
        let mut base = Base::default();
        let mut rare = self.rare.iter().peekable();
        let mut saved = self.saved.iter().peekable();
        for index in 0..self.len {
            let (done, rest) = items.split_at_mut(index);
            let prev_regs: &[u64] = done.last().map_or(&[], |p| &p.regs);
            // The live work-items' register vectors lie all over the heap, and waiting for each
            // in turn made thawing slower than copying: ask for them a few work-items ahead.
            if let Some(ahead) = rest.get(PREFETCH_AHEAD) {
                super::prefetch(ahead.regs.as_ptr());
            }
            let item = &mut rest[0];
            let flags = reader.byte();
            item.status = STATUSES[(flags & STATUS_MASK) as usize];
            item.spurious = flags & SPURIOUS != 0;
            item.func = reader.get_u32();
            item.pc = reader.get_u32();
            item.base = reader.get_u32();
            item.warp = reader.get_delta(u64::from(base.warp)) as u32;
            item.group = reader.get_delta(u64::from(base.group)) as u32;
            item.cycles = reader.get_delta(base.cycles);
            let count = reader.get() as usize;
            item.regs.resize(count, 0);
            let shared = count.min(prev_regs.len());
            for (r, &p) in item.regs[..shared].iter_mut().zip(prev_regs) {
                *r = reader.get_delta(p);
            }
            for r in &mut item.regs[shared..] {
                *r = reader.get_delta(0);
            }
            if let Some(spin) = spins.get_mut(index) {
                spin.epoch = reader.get_delta(base.epoch);
                spin.func = reader.get_u32();
                spin.pc = reader.get_u32();
                spin.since = reader.get_u32();
                spin.taken = flags & SPIN_TAKEN != 0;
                spin.spinning = flags & SPIN_SPINNING != 0;
                let kept = saved.next_if(|(at, _)| *at as usize == index);
                clone_boxed_into(&mut spin.saved, kept.map(|(_, state)| &**state));
                base.epoch = spin.epoch;
            }
            let kept = rare.next_if(|(at, _)| *at as usize == index);
            clone_boxed_into(&mut item.rare, kept.map(|(_, kept)| &**kept));
            base.warp = item.warp;
            base.group = item.group;
            base.cycles = item.cycles;
        }
        debug_assert!(reader.done(), "every frozen byte is read back");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The point of packing: a launch's work-items take a few bytes each, not 180.
    #[test]
    fn alike_work_items_take_few_bytes() {
        let items: Vec<WorkItem> = (0..1024u32)
            .map(|i| WorkItem {
                func: 0,
                pc: 17 + i % 3,
                base: 0,
                warp: i / 32,
                group: i / 256,
                status: Status::Ready,
                spurious: false,
                cycles: 40 + u64::from(i % 4),
                regs: smallvec::smallvec![0x1_0000_0000, 0x2_0000_0000, u64::from(i), u64::from(i % 256), u64::from(i / 256), 7, u64::from(i) * 4, 0],
                rare: None,
            })
            .collect();
        let spins: Vec<SpinWatch> = (0..1024).map(|_| SpinWatch { epoch: 3, func: 0, pc: 20, since: 1, ..SpinWatch::default() }).collect();
        let packed = freeze(&items, &spins);
        let per_item = packed.heap_bytes() as f64 / items.len() as f64;
        assert!(per_item < 24.0, "{per_item} bytes a work-item");
        let (mut back, mut back_spins) = (Vec::new(), Vec::new());
        packed.thaw_into(&mut back, &mut back_spins);
        assert_eq!(format!("{back:?}"), format!("{items:?}"));
        assert_eq!(format!("{back_spins:?}"), format!("{spins:?}"));
    }
}

/// Property tests, natively only: proptest is not built for wasm.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use crate::exec::Frame;
    use proptest::prelude::*;

    fn spin_state() -> impl Strategy<Value = SpinState> {
        (prop::collection::vec(any::<u64>(), 0..4), prop::collection::vec((any::<u32>(), any::<u32>()), 0..3), prop::collection::vec(any::<u8>(), 0..5))
            .prop_map(|(regs, frames, private)| SpinState { regs, frames, private })
    }

    fn spin() -> impl Strategy<Value = SpinWatch> {
        (any::<u64>(), any::<u32>(), any::<u32>(), any::<u32>(), any::<bool>(), prop::option::of(spin_state()), any::<bool>())
            .prop_map(|(epoch, func, pc, since, taken, saved, spinning)| SpinWatch { epoch, func, pc, since, taken, saved: saved.map(Box::new), spinning })
    }

    fn rare() -> impl Strategy<Value = Rare> {
        (
            prop::collection::vec((any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>()), 0..3),
            prop::collection::vec(any::<u8>(), 0..6),
            any::<u32>(),
            prop::collection::vec(any::<u64>(), 0..3),
            prop::collection::vec((any::<u32>(), any::<u64>()), 0..3),
        )
            .prop_map(|(frames, private, copies_called, unwaited, observed)| Rare {
                frames: frames.into_iter().map(|(func, pc, base, top)| Frame { func, pc, base, dst: pc % 7, private_top: top }).collect(),
                private_init: private.iter().map(|b| b % 2 == 0).collect(),
                private,
                copies_called,
                waiting_for: unwaited.iter().rev().copied().collect(),
                unwaited,
                observed,
            })
    }

    /// Values at the edges of the encodings as well as anywhere: small, near the top of each
    /// width, and negative.
    fn word() -> impl Strategy<Value = u64> {
        prop_oneof![0u64..300, any::<u64>(), (0u64..300).prop_map(|v| u64::MAX - v), (0u64..300).prop_map(|v| u64::from(u32::MAX) - v)]
    }

    fn item() -> impl Strategy<Value = WorkItem> {
        (
            (any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>(), 0..STATUSES.len(), any::<bool>(), word()),
            // Past `INLINE_REGS`, so that registers on the heap are frozen and thawed too.
            prop::collection::vec(word(), 0..20),
            prop::option::of(rare()),
        )
            .prop_map(|((func, pc, base, warp, group, status, spurious, cycles), regs, rare)| WorkItem {
                func,
                pc,
                base,
                warp,
                group,
                status: STATUSES[status],
                spurious,
                cycles,
                regs: regs.into(),
                rare: rare.map(Box::new),
            })
    }

    /// Work-items with their spin watches: one each, or none made yet.
    fn launch(items: impl Strategy<Value = Vec<WorkItem>>) -> impl Strategy<Value = (Vec<WorkItem>, Vec<SpinWatch>)> {
        (items, any::<bool>()).prop_flat_map(|(items, made)| {
            let n = if made { items.len() } else { 0 };
            (Just(items), prop::collection::vec(spin(), n))
        })
    }

    /// Neighbours alike, as a launch's work-items are: the case the encoding is made for.
    fn alike() -> impl Strategy<Value = Vec<WorkItem>> {
        (item(), 0usize..40).prop_map(|(first, n)| {
            (0..n as u64)
                .map(|i| {
                    let mut w = first.clone();
                    w.warp = w.warp.wrapping_add((i / 32) as u32);
                    w.group = w.group.wrapping_add((i / 64) as u32);
                    w.cycles = w.cycles.wrapping_add(i % 5);
                    for r in &mut w.regs {
                        *r = r.wrapping_add(i);
                    }
                    w
                })
                .collect()
        })
    }

    fn shown((items, spins): &(Vec<WorkItem>, Vec<SpinWatch>)) -> String {
        format!("{items:?} {spins:?}")
    }

    fn arrival() -> impl Strategy<Value = Arrival> {
        (any::<u32>(), any::<u32>(), any::<u32>(), word(), word(), prop::option::of(word()), word()).prop_map(|(wi, func, pc, a, b, mask, width)| Arrival {
            wi,
            func,
            pc,
            a,
            b,
            mask,
            width,
        })
    }

    proptest! {
        /// Whatever the live waiting lists held, thawing gives back the frozen ones.
        #[test]
        fn thawing_gives_back_the_frozen_arrivals(frozen in prop::collection::vec(prop::collection::vec(arrival(), 0..6), 0..5), live in prop::collection::vec(prop::collection::vec(arrival(), 0..6), 5)) {
            let packed = freeze_arrivals(frozen.iter());
            let mut into = live;
            into.truncate(frozen.len());
            thaw_arrivals(&packed, into.iter_mut());
            prop_assert_eq!(format!("{into:?}"), format!("{frozen:?}"));
        }

        /// Whatever the live work-items were, thawing gives back exactly the frozen ones.
        #[test]
        fn thawing_gives_back_what_was_frozen(frozen in launch(prop::collection::vec(item(), 0..20)), live in launch(prop::collection::vec(item(), 0..20))) {
            let packed = freeze(&frozen.0, &frozen.1);
            prop_assert_eq!(packed.len, frozen.0.len());
            let mut into = live;
            packed.thaw_into(&mut into.0, &mut into.1);
            prop_assert_eq!(shown(&into), shown(&frozen));
            let mut fresh = (Vec::new(), Vec::new());
            packed.thaw_into(&mut fresh.0, &mut fresh.1);
            prop_assert_eq!(shown(&fresh), shown(&frozen));
        }

        #[test]
        fn alike_work_items_come_back_too(frozen in launch(alike()), live in launch(alike())) {
            let mut into = live;
            freeze(&frozen.0, &frozen.1).thaw_into(&mut into.0, &mut into.1);
            prop_assert_eq!(shown(&into), shown(&frozen));
        }
    }
}
