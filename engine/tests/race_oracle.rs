//! A brute-force race oracle, independent of the race detector's code: for small generated
//! kernels it enumerates interleavings, rebuilds each execution from its event log, computes
//! happens-before from the memory models' definitions and decides the races from the
//! definition of a data race, then compares the racing pairs of source locations with the
//! detector's `data-race` findings on the same schedule. They must be equal.
//!
//! The kernels (a family generated from a fixed seed, and a few written by hand for rules the
//! family reaches seldom) run 2 to 4 work-items in one work-group or several over a buffer of
//! two `int`s, each work-item a few lines of straight-line code, one operation a line, in one
//! or two phases separated by a barrier every work-item passes: plain loads and stores,
//! atomic loads, stores, fetch-adds and compare-exchanges with their orders and scopes, and
//! fences. Every other kernel is shaped as message passing (data, then a flag released; the
//! flag acquired, then the data), perhaps through a relay, since random operations seldom
//! line up into a synchronisation. OpenCL C kernels use the C11-style atomics with explicit
//! orders and work-group or device scope, `atomic_inc`, `atomic_work_item_fence` and
//! `mem_fence`, and barriers with global, local or both fence flags; CUDA kernels use volatile
//! accesses (relaxed, system scope), `atomicAdd`, `atomicExch` and `atomicCAS` with their
//! `_block` forms, `__threadfence_block`, `__threadfence` and `__syncthreads`. A second family
//! makes plain loads and stores of a local (`__shared__`) array in two or three phases, whose
//! barriers name local memory, global memory only, or both.
//!
//! The definitions, over one execution under sequential consistency (reads-from is the
//! latest write before in the log, modification order the log's order of writes):
//!
//! - OpenCL 2.0, as Dat3M's `opencl.cat` states it (global memory): happens-before is the
//!   transitive closure of program order and synchronises-with. A release endpoint (a release
//!   atomic write, or a release fence naming global memory before an atomic write `W`)
//!   synchronises with an acquire endpoint (the acquire atomic read `R`, or an acquire fence
//!   naming global memory after it) when `R` reads from `W` or from a write in `W`'s release
//!   sequence (later writes in modification order, up to the first that is neither a
//!   read-modify-write nor by `W`'s work-item), the two endpoints are of different work-items
//!   and their scopes are inclusive: both name the same scope, and it includes both
//!   work-items (section 3.3.6; `incl` in `opencl.cat`). A barrier synchronises its group's
//!   members when their barrier names global memory. Local memory is one copy per work-group;
//!   for it, happens-before is program order and the barriers that name local memory
//!   (`lhb` with `bar_sw` of `LOCAL` in `opencl.cat`). Two accesses of different work-items to
//!   the same location race when one writes, they are not ordered by happens-before, and they
//!   are not two atomics of inclusive scopes (so a work-group-scope and a device-scope atomic
//!   race even within one work-group).
//! - PTX (CUDA), as `ptx-v6.0.cat`: causality order is the transitive closure of program
//!   order, `sync` (a fence before a strong write, the write observed by a strong read through
//!   morally strong reads-from and read-modify-writes, a fence after the read, the fences
//!   morally strong), `sync_barrier` (the same `__syncthreads` of a block) and `sync_fence`
//!   (morally strong `fence.sc`s in the order they ran). Morally strong: both strong
//!   (atomic, volatile or a fence) and each one's scope includes the other's thread. Two
//!   conflicting accesses race unless they are morally strong or ordered by causality.
//!
//! Out of the oracle's reach (and so of this check): the relaxed memory model's executions
//! (a read of an older write, where modification order is not the log's order), atomics and
//! fences on local memory and the rules that let one address space's synchronisation order the other,
//! barriers whose fence flags differ between work-items, compare-exchanges whose failure
//! order is not the acquire part of their success order (the instruction carries one order,
//! whose acquire part the detector uses), release sequences headed by more releasers than
//! the detector keeps apart, and PTX's extension of causality by observation alone (an
//! observed strong write ordered before the observer's later accesses to that location),
//! which the detector does not model.

mod common;

use std::collections::BTreeSet;

use common::generate::{Choices, Lcg};
use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, MemoryModel, Scenario, SchedulerKind};
use interleave_engine::session::{Prepared, Session, WorkItemStatus};
use interleave_engine::trace::{Event, EventKind};

/// Memory orders, as the generator writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Order {
    fn acquires(self) -> bool {
        matches!(self, Order::Acquire | Order::AcqRel | Order::SeqCst)
    }

    fn releases(self) -> bool {
        matches!(self, Order::Release | Order::AcqRel | Order::SeqCst)
    }

    fn opencl(self) -> &'static str {
        match self {
            Order::Relaxed => "memory_order_relaxed",
            Order::Acquire => "memory_order_acquire",
            Order::Release => "memory_order_release",
            Order::AcqRel => "memory_order_acq_rel",
            Order::SeqCst => "memory_order_seq_cst",
        }
    }

    /// The failure order the kernels give a compare-exchange: its success order's acquire
    /// part.
    fn failure(self) -> Order {
        match self {
            Order::Relaxed | Order::Release => Order::Relaxed,
            Order::Acquire | Order::AcqRel => Order::Acquire,
            Order::SeqCst => Order::SeqCst,
        }
    }
}

/// Scope levels: 0 work-group (CUDA block), 1 device, 2 system.
type Level = usize;

fn opencl_scope(level: Level) -> &'static str {
    if level == 0 {
        "memory_scope_work_group"
    } else {
        "memory_scope_device"
    }
}

/// One line of a work-item's code.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Load(usize),
    Store(usize, i32),
    AtomicLoad {
        k: usize,
        order: Order,
        level: Level,
    },
    AtomicStore {
        k: usize,
        v: i32,
        order: Order,
        level: Level,
    },
    /// Adds 1; with `exchange`, CUDA's `atomicExch` of that value, or OpenCL 1.x's
    /// `atomic_inc`.
    Rmw {
        k: usize,
        order: Order,
        level: Level,
        exchange: Option<i32>,
    },
    /// Compare-exchange of `expect` for `v`.
    Cas {
        k: usize,
        expect: i32,
        v: i32,
        order: Order,
        level: Level,
    },
    /// A fence; `global` when it names global memory.
    Fence {
        order: Order,
        level: Level,
        global: bool,
    },
}

impl Op {
    fn location(self) -> Option<usize> {
        match self {
            Op::Load(k) | Op::Store(k, _) => Some(k),
            Op::AtomicLoad { k, .. } | Op::AtomicStore { k, .. } | Op::Rmw { k, .. } | Op::Cas { k, .. } => Some(k),
            Op::Fence { .. } => None,
        }
    }

    fn order(self) -> Order {
        match self {
            Op::AtomicLoad { order, .. } | Op::AtomicStore { order, .. } | Op::Rmw { order, .. } | Op::Cas { order, .. } | Op::Fence { order, .. } => order,
            Op::Load(_) | Op::Store(..) => Order::Relaxed,
        }
    }

    fn level(self) -> Level {
        match self {
            Op::AtomicLoad { level, .. } | Op::AtomicStore { level, .. } | Op::Rmw { level, .. } | Op::Cas { level, .. } | Op::Fence { level, .. } => level,
            Op::Load(_) | Op::Store(..) => 0,
        }
    }

    fn atomic(self) -> bool {
        !matches!(self, Op::Load(_) | Op::Store(..) | Op::Fence { .. })
    }
}

/// A generated kernel: per phase, per work-item, its operations; the barrier between phases
/// (its OpenCL fence flags: 1 local, 2 global); and whether its plain loads and stores are
/// of a local array `t` (one per work-group) instead of the global buffer `m`.
#[derive(Clone, Debug)]
struct Kernel {
    cuda: bool,
    items: usize,
    group_size: usize,
    phases: Vec<Vec<Vec<Op>>>,
    barrier_flags: u32,
    local: bool,
}

/// A kernel's source and, per line, the work-items that run it and the operation on it.
struct Source {
    text: String,
    lines: Vec<Option<Line>>,
}

/// The work-items that run a line, and its operation.
type Line = (std::ops::Range<usize>, Op);

/// A pair of racing source locations (each a span's start and end), the lower first.
type Pair = ((u32, u32), (u32, u32));

fn render(kernel: &Kernel) -> Source {
    let mut lines: Vec<(String, Option<Line>)> = Vec::new();
    let mut push = |text: String, op: Option<Line>| lines.push((text, op));
    if kernel.cuda {
        push("__global__ void k(int *m)".into(), None);
        push("{".into(), None);
        push("    int gid = blockIdx.x * blockDim.x + threadIdx.x;".into(), None);
        if kernel.local {
            push("    __shared__ int t[2];".into(), None);
        }
    } else {
        push("__kernel void k(__global int *m)".into(), None);
        push("{".into(), None);
        push("    int gid = get_global_id(0);".into(), None);
        if kernel.local {
            push("    __local int t[2];".into(), None);
        }
    }
    push("    int r = 0;".into(), None);
    for (p, phase) in kernel.phases.iter().enumerate() {
        if p > 0 {
            let barrier = if kernel.cuda {
                "    __syncthreads();".to_string()
            } else {
                let flags = match kernel.barrier_flags {
                    1 => "CLK_LOCAL_MEM_FENCE",
                    2 => "CLK_GLOBAL_MEM_FENCE",
                    _ => "CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE",
                };
                format!("    barrier({flags});")
            };
            push(barrier, None);
        }
        // Neighbouring work-items with the same operations share their lines, so that many
        // work-items may make the accesses of one source location.
        let mut t = 0;
        while t < phase.len() {
            let ops = &phase[t];
            let team = t..t + phase[t..].iter().take_while(|o| *o == ops).count();
            t = team.end;
            if ops.is_empty() {
                continue;
            }
            if team.len() == 1 {
                push(format!("    if (gid == {}) {{", team.start), None);
            } else {
                push(format!("    if (gid >= {} && gid < {}) {{", team.start, team.end), None);
            }
            for &op in ops {
                push(format!("        {}", statement(kernel.cuda, kernel.local, op)), Some((team.clone(), op)));
            }
            push("    }".into(), None);
        }
    }
    push("}".into(), None);
    let text = lines.iter().map(|(l, _)| format!("{l}\n")).collect();
    Source { text, lines: lines.into_iter().map(|(_, op)| op).collect() }
}

fn statement(cuda: bool, local: bool, op: Op) -> String {
    let a = |k: usize| format!("(__global atomic_int *)&m[{k}]");
    let plain = if local { "t" } else { "m" };
    match (cuda, op) {
        (_, Op::Load(k)) => format!("r += {plain}[{k}];"),
        (_, Op::Store(k, v)) => format!("{plain}[{k}] = {v};"),
        (true, Op::AtomicLoad { k, .. }) => format!("r += ((volatile int *)m)[{k}];"),
        (true, Op::AtomicStore { k, v, .. }) => format!("((volatile int *)m)[{k}] = {v};"),
        (true, Op::Rmw { k, level, exchange, .. }) => {
            let suffix = if level == 0 { "_block" } else { "" };
            match exchange {
                Some(v) => format!("r += atomicExch{suffix}(&m[{k}], {v});"),
                None => format!("r += atomicAdd{suffix}(&m[{k}], 1);"),
            }
        }
        (true, Op::Cas { k, expect, v, level, .. }) => {
            let suffix = if level == 0 { "_block" } else { "" };
            format!("r += atomicCAS{suffix}(&m[{k}], {expect}, {v});")
        }
        (true, Op::Fence { level, .. }) => if level == 0 { "__threadfence_block();" } else { "__threadfence();" }.into(),
        (false, Op::AtomicLoad { k, order, level }) => format!("r += atomic_load_explicit({}, {}, {});", a(k), order.opencl(), opencl_scope(level)),
        (false, Op::AtomicStore { k, v, order, level }) => format!("atomic_store_explicit({}, {v}, {}, {});", a(k), order.opencl(), opencl_scope(level)),
        (false, Op::Rmw { k, order: Order::Relaxed, level: 1, exchange: Some(_) }) => format!("r += atomic_inc(&m[{k}]);"),
        (false, Op::Rmw { k, order, level, .. }) => {
            format!("r += atomic_fetch_add_explicit({}, 1, {}, {});", a(k), order.opencl(), opencl_scope(level))
        }
        (false, Op::Cas { k, expect, v, order, level }) => format!(
            "{{ int e = {expect}; r += atomic_compare_exchange_strong_explicit({}, &e, {v}, {}, {}, {}); }}",
            a(k),
            order.opencl(),
            order.failure().opencl(),
            opencl_scope(level)
        ),
        (false, Op::Fence { order: Order::AcqRel, level: 0, global }) => {
            format!("mem_fence({});", if global { "CLK_GLOBAL_MEM_FENCE" } else { "CLK_LOCAL_MEM_FENCE" })
        }
        (false, Op::Fence { order, level, global }) => format!(
            "atomic_work_item_fence({}, {}, {});",
            if global { "CLK_GLOBAL_MEM_FENCE" } else { "CLK_LOCAL_MEM_FENCE" },
            order.opencl(),
            opencl_scope(level)
        ),
    }
}

/// One of `from`, by the choices.
fn pick<T: Copy>(c: &mut Lcg, from: &[T]) -> T {
    from[c.pick(from.len() as u32) as usize]
}

/// One operation for a kernel of the dialect, from the choices.
fn operation(cuda: bool, c: &mut Lcg) -> Op {
    use Order::*;
    let k = c.pick(2) as usize;
    let v = c.pick(2) as i32 + 1;
    let level = c.pick(2) as usize;
    if cuda {
        return match c.pick(7) {
            0 => Op::Load(k),
            1 => Op::Store(k, v),
            2 => Op::AtomicLoad { k, order: Relaxed, level: 2 },
            3 => Op::AtomicStore { k, v, order: Relaxed, level: 2 },
            4 => Op::Rmw { k, order: Relaxed, level, exchange: (c.pick(2) == 0).then_some(v) },
            5 => Op::Cas { k, expect: c.pick(2) as i32, v, order: Relaxed, level },
            _ => Op::Fence { order: SeqCst, level, global: true },
        };
    }
    let all = [Relaxed, Acquire, Release, AcqRel, SeqCst];
    match c.pick(8) {
        0 => Op::Load(k),
        1 => Op::Store(k, v),
        2 => Op::AtomicLoad { k, order: pick(c, &[Relaxed, Acquire, SeqCst]), level },
        3 => Op::AtomicStore { k, v, order: pick(c, &[Relaxed, Release, SeqCst]), level },
        // OpenCL 1.x's atomic_inc: relaxed, at device scope.
        4 if c.pick(4) == 0 => Op::Rmw { k, order: Relaxed, level: 1, exchange: Some(1) },
        4 => Op::Rmw { k, order: pick(c, &all), level, exchange: None },
        5 => Op::Cas { k, expect: c.pick(2) as i32, v, order: pick(c, &all), level },
        // mem_fence: acquire-release at work-group scope.
        6 if c.pick(3) == 0 => Op::Fence { order: AcqRel, level: 0, global: c.pick(4) != 0 },
        _ => Op::Fence { order: pick(c, &[Acquire, Release, AcqRel, SeqCst]), level, global: c.pick(6) != 0 },
    }
}

/// A release of `k` for message passing: an atomic write, perhaps after a fence.
fn release(cuda: bool, k: usize, c: &mut Lcg) -> Vec<Op> {
    let mut ops = Vec::new();
    if c.pick(3) != 0 {
        ops.push(fence(cuda, c, true));
    }
    ops.push(match operation(cuda, c) {
        Op::AtomicStore { v, order, level, .. } => Op::AtomicStore { k, v, order, level },
        Op::Rmw { order, level, exchange, .. } => Op::Rmw { k, order, level, exchange },
        Op::Cas { expect, v, order, level, .. } => Op::Cas { k, expect, v, order, level },
        _ => Op::AtomicStore {
            k,
            v: 1,
            order: if cuda { Order::Relaxed } else { pick(c, &[Order::Relaxed, Order::Release]) },
            level: if cuda { 2 } else { c.pick(2) as usize },
        },
    });
    ops
}

/// An acquire of `k` for message passing: an atomic read, perhaps before a fence.
fn acquire(cuda: bool, k: usize, c: &mut Lcg) -> Vec<Op> {
    let mut ops = vec![match operation(cuda, c) {
        Op::AtomicLoad { order, level, .. } => Op::AtomicLoad { k, order, level },
        Op::Rmw { order, level, exchange, .. } => Op::Rmw { k, order, level, exchange },
        Op::Cas { expect, v, order, level, .. } => Op::Cas { k, expect, v, order, level },
        _ => Op::AtomicLoad {
            k,
            order: if cuda { Order::Relaxed } else { pick(c, &[Order::Relaxed, Order::Acquire]) },
            level: if cuda { 2 } else { c.pick(2) as usize },
        },
    }];
    if c.pick(3) != 0 {
        ops.push(fence(cuda, c, false));
    }
    ops
}

/// A fence that releases (or acquires), of either scope.
fn fence(cuda: bool, c: &mut Lcg, releasing: bool) -> Op {
    use Order::*;
    let level = c.pick(2) as usize;
    if cuda {
        return Op::Fence { order: SeqCst, level, global: true };
    }
    let order = if releasing { pick(c, &[Release, AcqRel, SeqCst]) } else { pick(c, &[Acquire, AcqRel, SeqCst]) };
    if c.pick(4) == 0 {
        return Op::Fence { order: AcqRel, level: 0, global: true };
    }
    Op::Fence { order, level, global: c.pick(8) != 0 }
}

/// A message-passing kernel: work-item 0 writes data `m[0]` and releases the flag `m[1]`,
/// the others acquire the flag and read or write the data; now and then a relay passes the
/// flag on through a read-modify-write.
fn message_passing(cuda: bool, c: &mut Lcg) -> Kernel {
    let items = [2, 3, 3][c.pick(3) as usize];
    let group_size = match c.pick(4) {
        0 => items,
        1 if items % 2 == 0 => 2,
        _ => 1,
    };
    let mut code: Vec<Vec<Op>> = vec![Vec::new(); items];
    code[0].push(if c.pick(4) == 0 { Op::Load(0) } else { Op::Store(0, 1 + c.pick(2) as i32) });
    code[0].extend(release(cuda, 1, c));
    for (t, ops) in code.iter_mut().enumerate().skip(1) {
        if t == 2 && c.pick(2) == 0 {
            // A relay of the flag: acquire it and release it again; or release with a fence
            // before acquiring (a fence releases only what preceded it); or one
            // read-modify-write that passes it on.
            match c.pick(3) {
                0 => {
                    ops.extend(acquire(cuda, 1, c));
                    ops.extend(release(cuda, 1, c));
                }
                1 => {
                    ops.push(fence(cuda, c, true));
                    ops.extend(acquire(cuda, 1, c));
                    ops.push(if cuda {
                        Op::AtomicStore { k: 1, v: 2, order: Order::Relaxed, level: 2 }
                    } else {
                        Op::AtomicStore { k: 1, v: 2, order: Order::Relaxed, level: 1 }
                    });
                }
                _ => {
                    let order = if cuda { Order::Relaxed } else { pick(c, &[Order::Relaxed, Order::Acquire, Order::Release, Order::AcqRel]) };
                    ops.push(Op::Rmw { k: 1, order, level: c.pick(2) as usize, exchange: None });
                }
            }
            continue;
        }
        ops.extend(acquire(cuda, 1, c));
        ops.push(if c.pick(3) == 0 { Op::Store(0, 1 + c.pick(2) as i32) } else { Op::Load(0) });
    }
    Kernel { cuda, items, group_size, phases: vec![code], barrier_flags: 2, local: false }
}

/// The generated family, from a fixed seed: kernels small enough to enumerate, every other
/// one a message-passing kernel (which random operations seldom make).
fn family(count: usize, seed: u64) -> Vec<Kernel> {
    let mut c = Lcg(seed);
    (0..count)
        .map(|n| {
            let cuda = n % 3 == 2;
            if n % 2 == 1 {
                return message_passing(cuda, &mut c);
            }
            let items = [2, 2, 3, 4][c.pick(4) as usize];
            let group_size = match c.pick(3) {
                0 => items,
                1 if items % 2 == 0 => items / 2,
                _ => 1,
            };
            let phases = 1 + (c.pick(3) == 0) as usize;
            // At most about eight operations, so that the interleavings stay enumerable.
            let per_item = (8 / (items * phases)).clamp(1, 3);
            let phases: Vec<Vec<Vec<Op>>> = (0..phases)
                .map(|_| (0..items).map(|_| (0..1 + c.pick(per_item as u32) as usize).map(|_| operation(cuda, &mut c)).collect()).collect())
                .collect();
            Kernel { cuda, items, group_size, phases, barrier_flags: 1 + c.pick(3), local: false }
        })
        .collect()
}

/// Kernels whose words many work-items touch at once, as a counter or a flag is: 32 to 96
/// work-items in groups of 16 or 32, in one or two phases, each phase in teams of 4 to 16
/// neighbours with the same operations (so that they share their source locations): a random
/// one or two, or one side of message passing through `m[1]`. A word then keeps tens of
/// accesses of one location from as many work-items, where the family's words keep a few.
fn crowded(count: usize, seed: u64) -> Vec<Kernel> {
    crowded_with(count, seed, &[32, 64, 96], &[16, 32])
}

/// [`crowded`] kernels of 160 to 256 work-items in groups of 1, 2 or 4: a team's atomics
/// come from many groups, each a kind of access of its own, so a word fills with more kinds
/// than it has room for and forgets whole groups' accesses.
fn crowded_groups(count: usize, seed: u64) -> Vec<Kernel> {
    crowded_with(count, seed, &[160, 192, 256], &[1, 2, 4])
}

fn crowded_with(count: usize, seed: u64, sizes: &[usize], group_sizes: &[usize]) -> Vec<Kernel> {
    let mut c = Lcg(seed);
    (0..count)
        .map(|n| {
            let cuda = n % 3 == 2;
            let items = sizes[c.pick(sizes.len() as u32) as usize];
            let group_size = group_sizes[c.pick(group_sizes.len() as u32) as usize];
            let phases: Vec<Vec<Vec<Op>>> = (0..1 + c.pick(2))
                .map(|_| {
                    let mut phase = Vec::new();
                    while phase.len() < items {
                        let team = (4 + c.pick(13) as usize).min(items - phase.len());
                        let ops = match c.pick(4) {
                            0 => [vec![Op::Store(0, 1)], release(cuda, 1, &mut c)].concat(),
                            1 => [acquire(cuda, 1, &mut c), vec![Op::Load(0)]].concat(),
                            _ => (0..1 + c.pick(2)).map(|_| operation(cuda, &mut c)).collect(),
                        };
                        phase.extend(std::iter::repeat_n(ops, team));
                    }
                    phase
                })
                .collect();
            Kernel { cuda, items, group_size, phases, barrier_flags: 1 + c.pick(3), local: false }
        })
        .collect()
}

/// Kernels of plain loads and stores of a local array, in two or three phases separated by
/// barriers that fence local memory, global memory only, or both (`__syncthreads` in CUDA),
/// over one work-group or several (each with its own array): whether a barrier orders the
/// accesses on either side of it, and whether the detector may forget the accesses before
/// it, is all there is to decide.
fn local_family(count: usize, seed: u64) -> Vec<Kernel> {
    let mut c = Lcg(seed);
    (0..count)
        .map(|n| {
            let cuda = n % 4 == 3;
            let items = [2, 3, 4, 4][c.pick(4) as usize];
            let group_size = match c.pick(4) {
                0 | 1 => items,
                2 if items % 2 == 0 => items / 2,
                _ => 1,
            };
            let phases = 2 + (c.pick(3) == 0) as usize;
            let per_item = (9 / (items * phases)).clamp(1, 2);
            let phases: Vec<Vec<Vec<Op>>> = (0..phases)
                .map(|_| {
                    (0..items)
                        .map(|_| {
                            (0..c.pick(per_item as u32 + 1) as usize)
                                .map(|_| {
                                    let k = c.pick(2) as usize;
                                    if c.pick(2) == 0 {
                                        Op::Load(k)
                                    } else {
                                        Op::Store(k, 1 + c.pick(2) as i32)
                                    }
                                })
                                .collect()
                        })
                        .collect()
                })
                .collect();
            Kernel { cuda, items, group_size, phases, barrier_flags: 1 + c.pick(3), local: true }
        })
        .collect()
}

/// Hand-written kernels, one per rule the family might reach only by chance.
fn handwritten() -> Vec<Kernel> {
    use Order::*;
    let one = |cuda: bool, items: usize, group_size: usize, code: Vec<Vec<Op>>| Kernel {
        cuda,
        items,
        group_size,
        phases: vec![code],
        barrier_flags: 2,
        local: false,
    };
    let data = Op::Store(0, 1);
    let read = Op::Load(0);
    let gpu_fence = Op::Fence { order: SeqCst, level: 1, global: true };
    vec![
        // PTX: a block-scope read-modify-write in another block does not observe the write.
        one(
            true,
            2,
            1,
            vec![
                vec![data, gpu_fence, Op::Rmw { k: 1, order: Relaxed, level: 1, exchange: Some(1) }],
                vec![Op::Rmw { k: 1, order: Relaxed, level: 0, exchange: None }, gpu_fence, read],
            ],
        ),
        // PTX: ... nor passes it on to a reader of its block.
        one(
            true,
            3,
            1,
            vec![
                vec![data, gpu_fence, Op::Rmw { k: 1, order: Relaxed, level: 1, exchange: Some(1) }],
                vec![Op::AtomicLoad { k: 1, order: Relaxed, level: 2 }, gpu_fence, read],
                vec![Op::Rmw { k: 1, order: Relaxed, level: 0, exchange: None }],
            ],
        ),
        // PTX: __threadfence_block across blocks orders nothing; __threadfence does.
        one(
            true,
            2,
            1,
            vec![
                vec![data, Op::Fence { order: SeqCst, level: 0, global: true }, Op::AtomicStore { k: 1, v: 1, order: Relaxed, level: 2 }],
                vec![Op::AtomicLoad { k: 1, order: Relaxed, level: 2 }, Op::Fence { order: SeqCst, level: 0, global: true }, read],
            ],
        ),
        // OpenCL: a release fence publishes what preceded it, not what its work-item acquired
        // after it.
        one(
            false,
            3,
            3,
            vec![
                vec![data, Op::Fence { order: Release, level: 1, global: true }, Op::AtomicStore { k: 1, v: 1, order: Relaxed, level: 1 }],
                vec![Op::AtomicLoad { k: 1, order: Acquire, level: 1 }, read],
                vec![
                    Op::Fence { order: Release, level: 1, global: true },
                    Op::AtomicLoad { k: 1, order: Acquire, level: 1 },
                    Op::AtomicStore { k: 1, v: 2, order: Relaxed, level: 1 },
                ],
            ],
        ),
        // OpenCL: mem_fence (work-group scope) across groups, and the device-scope repair.
        one(
            false,
            2,
            1,
            vec![
                vec![data, Op::Fence { order: AcqRel, level: 0, global: true }, Op::Rmw { k: 1, order: Relaxed, level: 1, exchange: Some(1) }],
                vec![Op::AtomicLoad { k: 1, order: Relaxed, level: 1 }, Op::Fence { order: AcqRel, level: 0, global: true }, read],
            ],
        ),
        one(
            false,
            2,
            1,
            vec![
                vec![data, Op::Fence { order: Release, level: 1, global: true }, Op::Rmw { k: 1, order: Relaxed, level: 1, exchange: Some(1) }],
                vec![Op::AtomicLoad { k: 1, order: Relaxed, level: 1 }, Op::Fence { order: Acquire, level: 1, global: true }, read],
            ],
        ),
        // OpenCL: a work-group-scope acquire of another group's release, then a device-scope
        // acquire fence, which does synchronise.
        one(
            false,
            2,
            1,
            vec![
                vec![data, Op::Fence { order: Release, level: 1, global: true }, Op::AtomicStore { k: 1, v: 1, order: Relaxed, level: 0 }],
                vec![Op::AtomicLoad { k: 1, order: Acquire, level: 0 }, Op::Fence { order: Acquire, level: 1, global: true }, read],
            ],
        ),
        // A plain write, then an atomic one that synchronises: a later read ordered after the
        // atomic write only still races with the plain one.
        one(
            false,
            3,
            3,
            vec![
                vec![data],
                vec![Op::AtomicStore { k: 0, v: 2, order: Release, level: 1 }],
                vec![Op::AtomicLoad { k: 0, order: Acquire, level: 1 }, Op::Store(0, 3)],
            ],
        ),
    ]
}

/// The oracle's view of one execution's events: per memory or synchronisation event, its
/// work-item, operation and whether it wrote.
#[derive(Clone, Copy, Debug)]
struct Ev {
    item: usize,
    op: Option<Op>,
    /// The k-th barrier of its work-item (for a barrier arrival).
    barrier: Option<usize>,
    /// A read (a load, an atomic that read), a write (a store, an atomic that wrote).
    reads: bool,
    writes: bool,
    site: (u32, u32),
}

/// The unordered pairs of source locations that race in the execution `events`, by the
/// definitions in the module documentation.
fn oracle(kernel: &Kernel, events: &[Ev]) -> BTreeSet<((u32, u32), (u32, u32))> {
    let n = events.len();
    let group = |t: usize| t / kernel.group_size;
    // Distance between two work-items: 0 the same group, 1 the same device.
    let distance = |a: usize, b: usize| if group(a) == group(b) { 0 } else { 1 };
    let includes = |x: &Ev, y: &Ev| {
        let d = distance(x.item, y.item);
        d <= x.op.map_or(0, Op::level) && d <= y.op.map_or(0, Op::level)
    };
    // Scopes that synchronise and keep atomics from racing: under PTX each includes the
    // other's thread (morally strong); under OpenCL 2.0 both name the same scope, which
    // includes both work-items (inclusive scopes).
    let inclusive = |x: &Ev, y: &Ev| includes(x, y) && (kernel.cuda || x.op.map_or(0, Op::level) == y.op.map_or(0, Op::level));
    // A location: a word of `m`, or of the local array of a work-group (one copy per group).
    let location = |e: &Ev| e.op.and_then(Op::location).map(|k| (if kernel.local { group(e.item) } else { 0 }, k));
    let fence = |e: &Ev| matches!(e.op, Some(Op::Fence { .. }));
    let global_fence = |e: &Ev| matches!(e.op, Some(Op::Fence { global: true, .. }));
    // Reads-from: the latest write to the location before, under sequential consistency.
    let rf: Vec<Option<usize>> = (0..n)
        .map(|i| {
            let k = location(&events[i])?;
            if !events[i].reads {
                return None;
            }
            (0..i).rev().find(|&j| events[j].writes && location(&events[j]) == Some(k))
        })
        .collect();
    let mut edges = vec![vec![false; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            if events[i].item == events[j].item {
                edges[i][j] = true;
            }
        }
    }
    // Barriers: the same barrier of two members of a group, when the barrier names the memory
    // accessed (`__syncthreads` names all of it).
    let fenced = if kernel.local { 1 } else { 2 };
    for i in 0..n {
        for j in 0..n {
            let (a, b) = (&events[i], &events[j]);
            if i != j
                && a.barrier.is_some()
                && a.barrier == b.barrier
                && a.item != b.item
                && group(a.item) == group(b.item)
                && (kernel.cuda || kernel.barrier_flags & fenced != 0)
            {
                edges[i][j] = true;
            }
        }
    }
    let atomic = |e: &Ev| e.op.is_some_and(Op::atomic);
    if kernel.cuda {
        // Observation: reads-from between morally strong accesses, through read-modify-writes.
        let strong_pair = |x: usize, y: usize| atomic(&events[x]) && atomic(&events[y]) && events[x].item != events[y].item && includes(&events[x], &events[y]);
        let mut observed: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
        for r in 0..n {
            if let Some(w) = rf[r] {
                if atomic(&events[r]) && (events[w].item == events[r].item || strong_pair(w, r)) {
                    let mut set = BTreeSet::from([w]);
                    if events[w].reads && events[w].writes {
                        set.extend(observed[w].iter().copied());
                    }
                    observed[r] = set;
                }
            }
        }
        for a in (0..n).filter(|&a| fence(&events[a])) {
            for b in (0..n).filter(|&b| fence(&events[b]) && events[b].item != events[a].item) {
                if !includes(&events[a], &events[b]) {
                    continue;
                }
                // fence.sc pairs: in the order they ran.
                if a < b {
                    edges[a][b] = true;
                }
                let synced = (a + 1..n).any(|w| {
                    events[w].item == events[a].item
                        && events[w].writes
                        && atomic(&events[w])
                        && (0..b).any(|r| events[r].item == events[b].item && atomic(&events[r]) && events[r].reads && observed[r].contains(&w))
                });
                if synced {
                    edges[a][b] = true;
                }
            }
        }
    } else {
        // Release sequences: the later writes to the location up to the first that is
        // neither a read-modify-write nor by the head's work-item.
        let in_sequence = |w: usize, later: usize| {
            let k = location(&events[w]);
            if later == w {
                return true;
            }
            (w + 1..=later).filter(|&x| events[x].writes && location(&events[x]) == k).all(|x| events[x].reads || events[x].item == events[w].item)
        };
        for r in 0..n {
            let Some(read_from) = rf[r] else { continue };
            // The head of the sequence and the read must be atomic; the write read may be any
            // write of the sequence.
            if !atomic(&events[r]) {
                continue;
            }
            let u = events[r].item;
            for w in (0..=read_from).filter(|&w| atomic(&events[w]) && events[w].writes && location(&events[w]) == location(&events[r])) {
                if !in_sequence(w, read_from) {
                    continue;
                }
                let t = events[w].item;
                let releases = (0..=w).filter(|&a| {
                    (a == w && events[w].op.is_some_and(|o| o.order().releases()))
                        || (a < w && events[a].item == t && global_fence(&events[a]) && events[a].op.is_some_and(|o| o.order().releases()))
                });
                for a in releases {
                    let acquires = (r..n).filter(|&b| {
                        (b == r && events[r].op.is_some_and(|o| read_order(o, events[r].writes).acquires()))
                            || (b > r && events[b].item == u && global_fence(&events[b]) && events[b].op.is_some_and(|o| o.order().acquires()))
                    });
                    for b in acquires.collect::<Vec<_>>() {
                        if events[a].item != events[b].item && inclusive(&events[a], &events[b]) {
                            edges[a][b] = true;
                        }
                    }
                }
            }
        }
    }
    // Happens-before (causality order): the transitive closure, row by row as bit sets.
    let words = n.div_ceil(64);
    let mut hb: Vec<Vec<u64>> = edges
        .iter()
        .map(|row| {
            let mut bits = vec![0u64; words];
            for (j, _) in row.iter().enumerate().filter(|(_, &e)| e) {
                bits[j / 64] |= 1 << (j % 64);
            }
            bits
        })
        .collect();
    for k in 0..n {
        let through = hb[k].clone();
        for row in hb.iter_mut() {
            if row[k / 64] & (1 << (k % 64)) != 0 {
                for (word, more) in row.iter_mut().zip(&through) {
                    *word |= more;
                }
            }
        }
    }
    let ordered = |i: usize, j: usize| hb[i][j / 64] & (1 << (j % 64)) != 0;
    let mut races = BTreeSet::new();
    for i in 0..n {
        for j in i + 1..n {
            let (x, y) = (&events[i], &events[j]);
            let (Some(kx), Some(ky)) = (location(x), location(y)) else { continue };
            if kx != ky || x.item == y.item || !(x.writes || y.writes) || ordered(i, j) || ordered(j, i) {
                continue;
            }
            if atomic(x) && atomic(y) && inclusive(x, y) {
                continue;
            }
            races.insert((x.site.min(y.site), x.site.max(y.site)));
        }
    }
    races
}

/// The order a read takes: a compare-exchange that failed reads with its failure order.
fn read_order(op: Op, wrote: bool) -> Order {
    match op {
        Op::Cas { order, .. } if !wrote => order.failure(),
        other => other.order(),
    }
}

/// The oracle's events of a finished run.
fn events_of(session: &Session, source: &Source) -> Vec<Ev> {
    let mut barriers = vec![0usize; session.work_item_count()];
    let mut out = Vec::new();
    for e in session.events().iter() {
        let item = e.work_item as usize;
        let site = (e.span.start, e.span.end);
        match e.kind {
            EventKind::BarrierArrive => {
                out.push(Ev { item, op: None, barrier: Some(barriers[item]), reads: false, writes: false, site });
                barriers[item] += 1;
            }
            EventKind::Load | EventKind::Store | EventKind::Atomic | EventKind::Fence => {
                let line = session.line_col(e.span).0 as usize;
                let (owners, op) = source.lines[line - 1].clone().unwrap_or_else(|| panic!("event on line {line} with no operation"));
                assert!(owners.contains(&item), "line {line} belongs to work-items {owners:?}");
                let (reads, writes) = access(op, &e);
                out.push(Ev { item, op: Some(op), barrier: None, reads, writes, site });
            }
            _ => {}
        }
    }
    out
}

/// Whether an event of `op` read and wrote memory.
fn access(op: Op, e: &Event) -> (bool, bool) {
    match op {
        Op::Load(_) | Op::AtomicLoad { .. } => (true, false),
        Op::Store(..) | Op::AtomicStore { .. } => (false, true),
        Op::Rmw { .. } => (true, true),
        // A compare-exchange writes when it found the expected value.
        Op::Cas { expect, .. } => (true, e.read as u32 as i32 == expect),
        Op::Fence { .. } => (false, false),
    }
}

/// The detector's racing pairs of source locations in a run.
fn detected(session: &Session) -> BTreeSet<((u32, u32), (u32, u32))> {
    session
        .findings()
        .iter()
        .filter(|f| f.kind.as_str() == "data-race")
        .map(|f| {
            let a = f.span.map(|s| (s.start, s.end)).expect("a race finding has a span");
            let b = f.related[0].span.map(|s| (s.start, s.end)).expect("a race finding names the other access");
            (a.min(b), a.max(b))
        })
        .collect()
}

fn scenario(kernel: &Kernel, source: &Source) -> Scenario {
    let dialect = if kernel.cuda { Dialect::Cuda } else { Dialect::OpenCl };
    let mut s = Scenario::new(source.text.clone(), if kernel.cuda { "k.cu" } else { "k.cl" }, dialect);
    s.launch.global = vec![kernel.items as u64];
    s.launch.local = Some(vec![kernel.group_size as u64]);
    s.args = vec![ArgBinding::parse("m=int[2]:fill=0").expect("a valid argument")];
    s.scheduler = SchedulerKind::Manual;
    s.memory_model = MemoryModel::Sc;
    s
}

/// How many kernels the family has, and the seed it is generated from.
const FAMILY: usize = 600;
const SEED: u64 = 0x5eed_0ac1e;

/// The most schedules checked per kernel (depth-first, in work-item order).
const MAX_SCHEDULES: usize = 400;

/// Replays `schedule` from the launch.
fn replay(prepared: &Prepared, schedule: &[usize]) -> Session {
    let mut session = Session::start(prepared, 0).expect("the kernel launches");
    for &wi in schedule {
        assert!(session.step_work_item(wi), "work-item {wi} could step when the schedule was found");
    }
    session
}

/// Checks every schedule of `kernel` (up to the bound): returns how many, and the first
/// disagreement.
fn check(kernel: &Kernel) -> Result<usize, String> {
    let source = render(kernel);
    let prepared = Prepared::new(scenario(kernel, &source)).map_err(|d| format!("does not compile: {d:?}\n{}", source.text))?;
    let mut stack: Vec<Vec<usize>> = vec![Vec::new()];
    let mut checked = 0;
    while let Some(schedule) = stack.pop() {
        if checked >= MAX_SCHEDULES {
            break;
        }
        let session = replay(&prepared, &schedule);
        if session.status() == RunStatus::Running {
            // Only work-items that can step extend the schedule.
            for wi in (0..kernel.items).rev().filter(|&wi| matches!(session.work_item(wi).status, WorkItemStatus::Ready | WorkItemStatus::Spinning)) {
                let mut longer = schedule.clone();
                longer.push(wi);
                stack.push(longer);
            }
            continue;
        }
        checked += 1;
        assert_eq!(session.status(), RunStatus::Completed, "{}", source.text);
        let expected = oracle(kernel, &events_of(&session, &source));
        let found = detected(&session);
        if expected != found {
            return Err(format!(
                "schedule {schedule:?}: the definition gives {expected:?}, the detector {found:?}\n{}\nfindings: {:#?}",
                source.text,
                session.findings().iter().map(|f| &f.message).collect::<Vec<_>>()
            ));
        }
    }
    Ok(checked)
}

#[test]
fn the_detector_finds_exactly_the_races_the_definition_gives() {
    let kernels = family(FAMILY, SEED);
    let mut schedules = 0;
    let mut failures = Vec::new();
    for (n, kernel) in kernels.iter().enumerate() {
        match check(kernel) {
            Ok(k) => schedules += k,
            Err(e) => failures.push(format!("kernel {n}: {e}")),
        }
    }
    for (n, kernel) in handwritten().iter().enumerate() {
        match check(kernel) {
            Ok(k) => schedules += k,
            Err(e) => failures.push(format!("hand-written kernel {n}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{} of {} kernels disagree:\n{}", failures.len(), kernels.len(), failures[..failures.len().min(3)].join("\n\n"));
    // The family is not trivial: many schedules, and races both found and absent.
    assert!(schedules > 50_000, "only {schedules} schedules");
}

/// How many local-memory kernels are checked.
const LOCAL_FAMILY: usize = 240;

/// Local memory: a barrier orders its group's accesses to local memory when every member's
/// barrier names local memory, and the race detector then forgets the accesses before it.
/// The definition decides from the log which accesses race; the detector must agree on every
/// schedule, barriers that fence only global memory (which order no local access) included.
#[test]
fn the_detector_finds_exactly_the_races_of_local_memory() {
    let kernels = local_family(LOCAL_FAMILY, SEED);
    let (mut schedules, mut racy, mut clean) = (0, 0, 0);
    let mut failures = Vec::new();
    for (n, kernel) in kernels.iter().enumerate() {
        match check(kernel) {
            Ok(k) => schedules += k,
            Err(e) => failures.push(format!("local kernel {n}: {e}")),
        }
        let source = render(kernel);
        let prepared = Prepared::new(scenario(kernel, &source)).expect("it compiles");
        let mut session = Session::start(&prepared, 0).expect("it launches");
        while session.status() == RunStatus::Running {
            assert!((0..kernel.items).any(|wi| session.step_work_item(wi)));
        }
        if oracle(kernel, &events_of(&session, &source)).is_empty() {
            clean += 1;
        } else {
            racy += 1;
        }
    }
    assert!(failures.is_empty(), "{} of {} kernels disagree:\n{}", failures.len(), kernels.len(), failures[..failures.len().min(3)].join("\n\n"));
    // Not trivial: many schedules, races found and absent, every kind of barrier, one group
    // and several.
    assert!(schedules > 10_000, "only {schedules} schedules");
    assert!(racy > 20 && clean > 20, "{racy} racy and {clean} race-free executions");
    for flags in 1..=3 {
        assert!(kernels.iter().any(|k| !k.cuda && k.barrier_flags == flags), "no barrier with flags {flags}");
    }
    assert!(kernels.iter().any(|k| k.cuda) && kernels.iter().any(|k| k.group_size < k.items) && kernels.iter().any(|k| k.phases.len() == 3));
}

/// How many crowded kernels are checked, and on how many random schedules each.
const CROWDED: usize = 60;
const CROWDED_SEEDS: u64 = 3;

/// The detector finds exactly the definition's races in words that many work-items touch at
/// once, on random schedules (too many work-items to enumerate them): there it keeps its
/// accesses by kind and passes over whole groups of them, which words of a few accesses never
/// need. A run whose words forgot accesses must say so with a `race-detection-limit` warning
/// wherever it may have missed a pair (with less room a word, `shadow::MAX_ACCESSES` at 32
/// or 64, runs miss pairs, and each of them warns).
#[test]
fn the_detector_finds_exactly_the_races_of_crowded_words() {
    let tally = check_crowded("crowded", &crowded(CROWDED, SEED), CROWDED_SEEDS);
    // Crowded indeed (about 150 events a run), with races to find.
    assert!(tally.events > (CROWDED * CROWDED_SEEDS as usize) * 100, "only {} events", tally.events);
    assert!(tally.racy > 0, "no racy run");
    // The room a word has is enough for most of these kernels: few runs need to say they
    // forgot (16 of 180 with room for 128 accesses a word, none of which missed a pair).
    assert!(tally.warned <= CROWDED * CROWDED_SEEDS as usize / 10, "{} runs forgot accesses", tally.warned);
}

/// How many crowded kernels of many groups are checked, and on how many random schedules.
const CROWDED_GROUPS: usize = 16;
const CROWDED_GROUPS_SEEDS: u64 = 2;

/// The same in words that the atomics of many work-groups touch: a word keeps no more
/// accesses than it has room for by forgetting the oldest groups' accesses of a source
/// location (`word::forget_groups`), and wherever that may have hidden a race with one of
/// them, the run says so. Here words overflow and runs often warn (14 of the 32); what must
/// hold is that no run reports a pair the definition does not give, and that a run that
/// does not warn finds every pair.
#[test]
fn the_detector_finds_the_races_of_words_crowded_by_many_groups() {
    let kernels = crowded_groups(CROWDED_GROUPS, SEED);
    let tally = check_crowded("crowded by groups", &kernels, CROWDED_GROUPS_SEEDS);
    let runs = CROWDED_GROUPS * CROWDED_GROUPS_SEEDS as usize;
    assert!(tally.events > runs * 200, "only {} events", tally.events);
    assert!(tally.racy > 0, "no racy run");
    assert!(kernels.iter().all(|k| k.items / k.group_size >= 40), "a kernel of few groups");
}

/// What [`check_crowded`] counted over its runs.
struct Tally {
    events: usize,
    racy: usize,
    warned: usize,
}

/// Runs each kernel on `seeds` random schedules and compares the detector's racing pairs
/// with the definition's: equal, or where the run warns that it forgot accesses, a subset.
fn check_crowded(what: &str, kernels: &[Kernel], seeds: u64) -> Tally {
    let mut failures = Vec::new();
    let mut tally = Tally { events: 0, racy: 0, warned: 0 };
    for (n, kernel) in kernels.iter().enumerate() {
        let source = render(kernel);
        let mut scenario = scenario(kernel, &source);
        scenario.scheduler = SchedulerKind::Random;
        let prepared = Prepared::new(scenario).unwrap_or_else(|d| panic!("does not compile: {d:?}\n{}", source.text));
        for seed in 0..seeds {
            let mut session = Session::start(&prepared, seed).expect("the kernel launches");
            session.run(u64::MAX);
            assert_eq!(session.status(), RunStatus::Completed, "{}", source.text);
            let run = events_of(&session, &source);
            tally.events += run.len();
            let expected = oracle(kernel, &run);
            tally.racy += !expected.is_empty() as usize;
            let found = detected(&session);
            // A word that forgot accesses may miss a pair, and then the run says so; it never
            // reports a pair the definition does not give.
            let forgetful = session.findings().iter().any(|f| f.kind.as_str() == "race-detection-limit");
            tally.warned += forgetful as usize;
            if if forgetful { !found.is_subset(&expected) } else { expected != found } {
                let text = |site: (u32, u32)| source.text[site.0 as usize..site.1 as usize].to_string();
                let pairs = |set: Vec<&Pair>| set.iter().map(|(a, b)| format!("`{}` with `{}`", text(*a), text(*b))).collect::<Vec<_>>().join("; ");
                failures.push(format!(
                    "{what} kernel {n}, seed {seed}: missed {}; found beyond the definition {}\n{}",
                    pairs(expected.difference(&found).collect()),
                    pairs(found.difference(&expected).collect()),
                    source.text
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} runs disagree:\n{}", failures.len(), failures[..failures.len().min(2)].join("\n\n"));
    tally
}

/// The family exercises what it claims to: both dialects, one group and several, atomics of
/// both scopes, fences and barriers, and kernels with races and without.
#[test]
fn the_family_covers_both_dialects_scopes_and_race_verdicts() {
    let kernels = family(FAMILY, SEED);
    assert!(kernels.iter().any(|k| k.cuda) && kernels.iter().any(|k| !k.cuda));
    assert!(kernels.iter().any(|k| k.group_size == k.items) && kernels.iter().any(|k| k.group_size < k.items));
    assert!(kernels.iter().any(|k| k.phases.len() > 1));
    let ops: Vec<Op> = kernels.iter().flat_map(|k| k.phases.iter().flatten().flatten().copied()).collect();
    assert!(ops.iter().any(|o| matches!(o, Op::Fence { level: 0, .. })) && ops.iter().any(|o| matches!(o, Op::Fence { level: 1, .. })));
    assert!(ops.iter().any(|o| o.atomic() && o.level() == 0) && ops.iter().any(|o| o.atomic() && o.level() == 1));
    let (mut racy, mut clean) = (0, 0);
    for kernel in kernels.iter().take(60) {
        let source = render(kernel);
        let prepared = Prepared::new(scenario(kernel, &source)).expect("it compiles");
        let mut session = Session::start(&prepared, 0).expect("it launches");
        // Round-robin by hand: the first work-item that can step.
        while session.status() == RunStatus::Running {
            let stepped = (0..kernel.items).any(|wi| session.step_work_item(wi));
            assert!(stepped);
        }
        if oracle(kernel, &events_of(&session, &source)).is_empty() {
            clean += 1;
        } else {
            racy += 1;
        }
    }
    assert!(racy > 5 && clean > 5, "{racy} racy and {clean} race-free executions");
}
