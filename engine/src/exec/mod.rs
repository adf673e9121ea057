//! Execution: work-items as resumable state machines over simulated memory.
//!
//! A [`Machine`] holds everything a run changes: memory (global, constant, each group's local
//! memory, each work-item's private memory), the work-items (function, program counter,
//! registers, call stack) and the work-groups' barrier state. [`Machine::perform`] carries out
//! one work-item's pending shared-memory event and then runs its private computation up to
//! the next one, so every step is exactly one event another work-item could observe.
//!
//! Nothing here chooses anything: which work-item steps is the scheduler's decision.

pub mod frozen;
mod interp;
pub(crate) use interp::may_race;
mod launch;
mod math;
pub mod named_barrier;
pub mod printf;
mod value;
mod warp;

use crate::diag::Span;
use crate::ir::{ptr, CollectiveOp, Instr, NumTy, Program, Reg, ScanOp};
use crate::report::{FindingKind, PrintfLine};
use crate::reuse::clone_fields;
use crate::scenario::Access;
use crate::trace::{Event, EventKind, EventLog, Location, Space};

pub use launch::{launch, Geometry, MACHINE_STREAM};

/// One allocation of global, constant or local memory.
#[derive(Debug)]
pub struct Alloc {
    /// What the kernel calls it (parameter or variable name).
    pub name: String,
    pub bytes: Vec<u8>,
    /// Which bytes have been written, for buffers that start uninitialised; `None` when every
    /// byte is initialised.
    pub init: Option<Vec<bool>>,
    pub access: Access,
    /// The element type its contents are shown in, when known.
    pub elem: Option<crate::scenario::ElemType>,
    /// The race detector's record of its accesses.
    pub shadow: crate::concurrency::race::shadow::Shadow,
}

clone_fields!(Alloc { name, bytes, init, access, elem, shadow });

/// Where a work-item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Stopped before a shared-memory event; the scheduler may step it.
    Ready,
    /// Waiting for the rest of its work-group at a barrier.
    AtBarrier,
    Finished,
    /// Stopped by an error it cannot continue from.
    Faulted,
    /// In `wait_group_events`, until the copies of its events are complete.
    Waiting,
    /// Its work-group is not resident yet: it starts when a resident group finishes.
    NotStarted,
}

/// What a work-item did since the last write to shared memory, to tell a spin loop from
/// progress. A work-item spins when its whole private state (program counter, registers,
/// call stack, private memory) repeats at the same event while no shared memory changed:
/// from there it can only repeat the same cycle until another agent writes. A default watch
/// is one never used: its epoch, 0, is none the machine's (which starts at 1).
#[derive(Debug, Default)]
pub struct SpinWatch {
    /// The machine's write epoch this watch belongs to; a write anywhere starts a new one.
    pub epoch: u64,
    /// The function and program counter of the event where states are compared.
    pub func: u32,
    pub pc: u32,
    /// Quiet events since the anchor last occurred; past a bound the anchor moves, so an
    /// anchor outside the loop does not hide the loop.
    pub since: u32,
    /// Whether `saved` holds the state at the anchor's last occurrence.
    pub taken: bool,
    /// The state at the anchor's last occurrence, made the first time an anchor recurs (most
    /// work-items never come back to a quiet event, and a launch of a million must not pay
    /// three vectors each for it), then kept with its buffers for the next watch.
    pub saved: Option<Box<SpinState>>,
    /// The state repeated within this epoch.
    pub spinning: bool,
}

clone_fields!(SpinWatch { epoch, func, pc, since, taken, saved, spinning });

/// A work-item's private state as a spin watch compares it, kept whole (not hashed) so that
/// a repeat is certain.
#[derive(Clone, Debug, Default)]
pub struct SpinState {
    /// Registers of every frame.
    pub regs: Vec<u64>,
    /// The function and program counter of each caller's frame.
    pub frames: Vec<(u32, u32)>,
    /// Private memory.
    pub private: Vec<u8>,
}

/// What every work-item of a launch starts with.
#[derive(Debug, Default)]
pub struct Entry {
    /// The kernel's register file with its arguments in place.
    pub regs: Regs,
    /// The image of its initialised private variables (empty if it has none).
    pub private: Vec<u8>,
}

impl Entry {
    /// The extra state a work-item starts with: only a kernel with initialised private
    /// variables gives it a `Rare` box at the start.
    pub fn rare(&self) -> Option<Box<Rare>> {
        (!self.private.is_empty()).then(|| Box::new(Rare { private: self.private.clone(), private_init: vec![true; self.private.len()], ..Default::default() }))
    }
}

/// How many registers a work-item holds in place, inside its [`WorkItem`]; a frame stack that
/// needs more moves them all to the heap. Most kernels use fewer (eleven or fewer for most of
/// the gallery's kernels), and a step of a large launch loads its work-item's registers
/// right after the work-item itself: held on the heap, their address came from the work-item,
/// so the two cache misses of a step were one after the other; in place, both addresses follow
/// from the work-item's index and the processor fetches them together.
pub const INLINE_REGS: usize = 12;

/// A work-item's registers: every frame's, the current one's from `WorkItem::base`.
pub type Regs = smallvec::SmallVec<[u64; INLINE_REGS]>;

/// The heap bytes `regs` holds: none while its registers fit in place.
pub fn regs_heap_bytes(regs: &Regs) -> usize {
    if regs.spilled() {
        regs.capacity() * std::mem::size_of::<u64>()
    } else {
        0
    }
}

/// The heap bytes a register file of `count` registers takes (see [`regs_heap_bytes`]).
pub fn regs_heap_bytes_for(count: usize) -> u64 {
    if count > INLINE_REGS {
        count as u64 * std::mem::size_of::<u64>() as u64
    } else {
        0
    }
}

/// A caller's frame, saved while a helper function runs.
#[derive(Clone, Debug)]
pub struct Frame {
    pub func: u32,
    /// Where to continue in the caller (the instruction after the call).
    pub pc: u32,
    pub base: u32,
    /// The caller's register that receives the return value.
    pub dst: Reg,
    /// The caller's private-memory top, restored on return.
    pub private_top: u32,
}

/// One simulated work-item: plain data, cheap to clone (and cheaper to copy into an existing
/// one, whose vectors are reused). Only what every work-item needs on every step lives here
/// (program counter, registers, status, group, warp, clock counter): a launch holds a million
/// of them, and the interpreter loads these fields at every event, so they are kept to a few
/// cache lines' worth. Call frames, private memory and everything else only some kernels use
/// sit behind the `rare` box, made on first use.
#[derive(Debug)]
pub struct WorkItem {
    pub func: u32,
    pub pc: u32,
    /// Index of the current frame's register 0 in `regs`.
    pub base: u32,
    /// Index of its warp in `Machine::warps`.
    pub warp: u32,
    /// Linear index of the work-group.
    pub group: u32,
    pub status: Status,
    /// Whether its last weak compare-exchange failed spuriously.
    pub spurious: bool,
    /// Instructions executed before the current stretch (the `clock()` counter).
    pub cycles: u64,
    pub regs: Regs,
    /// What only some kernels need (call frames, private memory, async-copy events, observed
    /// values), made on first use so that a work-item of a plain kernel carries one null
    /// pointer for all of it.
    pub rare: Option<Box<Rare>>,
}

/// The state of a work-item that most kernels never touch.
#[derive(Debug, Default)]
pub struct Rare {
    /// The callers' frames while a helper function runs.
    pub frames: Vec<Frame>,
    /// Private memory (arrays and variables whose address is taken).
    pub private: Vec<u8>,
    /// Which bytes of `private` have been written (same length): reading one that has not is
    /// an uninitialised read.
    pub private_init: Vec<bool>,
    /// How many async copies this work-item has called (its next call joins copy number
    /// `copies_called` of its group).
    pub copies_called: u32,
    /// Events it received from async copies and has not waited for yet.
    pub unwaited: Vec<u64>,
    /// The events it waits for while `Waiting`.
    pub waiting_for: Vec<u64>,
    /// Values it recorded with `__interleave_observe` (a litmus test's registers), by slot.
    pub observed: Vec<(u32, u64)>,
}

// A launch holds a million work-items, and a step loads one: keep one within its registers in
// place and five words more (144 bytes on a 64-bit host), so growing it is a decision, not an
// accident.
const _: () = assert!(std::mem::size_of::<WorkItem>() <= std::mem::size_of::<Regs>() + 5 * std::mem::size_of::<u64>());

clone_fields!(WorkItem { func, pc, base, warp, group, status, spurious, cycles, regs, rare });

// A litmus test's work-items record their registers here, so restoring the launched machine
// before each run copies into the vectors already there.
clone_fields!(Rare { frames, private, private_init, copies_called, unwaited, waiting_for, observed });

impl WorkItem {
    /// The callers' frames while a helper function runs, innermost last.
    pub fn frames(&self) -> &[Frame] {
        self.rare.as_ref().map_or(&[], |r| &r.frames)
    }

    /// Its private memory.
    pub fn private(&self) -> &[u8] {
        self.rare.as_ref().map_or(&[], |r| &r.private)
    }

    /// How many async copies it has called.
    pub fn copies_called(&self) -> u32 {
        self.rare.as_ref().map_or(0, |r| r.copies_called)
    }

    /// Events it received from async copies and has not waited for yet.
    pub fn unwaited(&self) -> &[u64] {
        self.rare.as_ref().map_or(&[], |r| &r.unwaited)
    }

    /// The events it waits for while `Waiting`.
    pub fn waiting_for(&self) -> &[u64] {
        self.rare.as_ref().map_or(&[], |r| &r.waiting_for)
    }

    /// Values it recorded with `__interleave_observe`, by slot.
    pub fn observed(&self) -> &[(u32, u64)] {
        self.rare.as_ref().map_or(&[], |r| &r.observed)
    }

    /// Where the work-item is: the instruction of its next event, or the barrier or wait it
    /// is blocked in (which its program counter has already moved past).
    pub fn position(&self) -> u32 {
        match self.status {
            Status::AtBarrier | Status::Waiting => self.pc.saturating_sub(1),
            _ => self.pc,
        }
    }
}

/// One asynchronous copy of a work-group, started by the first work-item that called it.
#[derive(Clone, Debug)]
pub struct AsyncCopy {
    pub to: u64,
    pub from: u64,
    pub count: u64,
    /// In elements, on the global side.
    pub stride: u64,
    pub elem_size: u32,
    pub to_local: bool,
    pub event: u64,
    /// Elements copied so far.
    pub done: u64,
    /// The work-item whose call started it.
    pub issuer: u32,
    pub span: Span,
}

/// A work-item waiting at a barrier or collective: where, and the values it brought.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub wi: u32,
    pub func: u32,
    pub pc: u32,
    pub a: u64,
    pub b: u64,
    /// The lanes a warp collective's mask names (`None`: every member takes part).
    pub mask: Option<u64>,
    /// A shuffle's segment width as given (0 when none was: the warp size).
    pub width: u64,
}

/// The meeting point of a work-group's barriers and collectives, or of a warp's.
#[derive(Debug, Default)]
pub struct Rendezvous {
    /// Members that have not finished.
    pub unfinished: u32,
    /// Members waiting, in arrival order.
    pub waiting: Vec<Arrival>,
    /// The first member that returned normally and where, so a barrier that others then
    /// wait at can name it: every member must reach every barrier.
    pub first_finished: Option<(u32, Span)>,
}

clone_fields!(Rendezvous { unfinished, waiting, first_finished });

/// Which rendezvous: a work-group's or a warp's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Group(usize),
    Warp(usize),
}

/// One warp (CUDA) or sub-group (OpenCL): consecutive work-items of a group.
#[derive(Debug)]
pub struct Warp {
    /// Linear index of its first work-item (lane 0).
    pub first: u32,
    pub rendezvous: Rendezvous,
    /// A bit per lane that has not finished (`__activemask`).
    pub active: u64,
}

clone_fields!(Warp { first, rendezvous, active });

/// Barrier state, local memory and async copies of one work-group.
#[derive(Debug)]
pub struct Group {
    /// Linear index of its first work-item.
    pub first: u32,
    pub rendezvous: Rendezvous,
    pub local: Vec<Alloc>,
    /// Its async copies in call order; the copy engine works through them in order.
    pub copies: Vec<AsyncCopy>,
}

clone_fields!(Group { first, rendezvous, local, copies });

/// A problem a work-item ran into, before it is placed in the user's source.
#[derive(Clone, Debug)]
pub struct Fault {
    pub kind: FindingKind,
    pub message: String,
    pub span: Span,
    pub work_item: u32,
    pub step: u64,
    /// Other locations involved: span, work-item and message.
    pub related: Vec<(Span, Option<u32>, String)>,
}

/// Limits that keep a hostile or mistaken kernel from hanging the host.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Instructions a work-item may run between two events.
    pub instructions_per_step: u64,
    /// Call depth of helper functions.
    pub call_depth: u32,
    /// Bytes of printf output.
    pub printf_bytes: usize,
    /// Bytes of memory the launch may hold ([`crate::limits::MEMORY_BYTES`]), named by the
    /// finding that stops a run growing past it.
    pub memory_bytes: u64,
    /// Events the run's history keeps ([`crate::limits::HISTORY_EVENTS`]): a read is folded
    /// into a step only while the log has room, so that one step cannot overrun it.
    pub history_events: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            history_events: crate::limits::HISTORY_EVENTS.default,
            instructions_per_step: crate::limits::INSTRUCTIONS_PER_STEP.default,
            call_depth: crate::limits::CALL_DEPTH,
            printf_bytes: crate::limits::PRINTF_BYTES.default as usize,
            memory_bytes: crate::limits::MEMORY_BYTES.default,
        }
    }
}

/// The whole mutable state of a run. Copying one into another (`clone_from`) reuses the
/// destination's allocations: exploration restores the launched machine that way before
/// every run.
#[derive(Debug)]
pub struct Machine {
    pub program: std::rc::Rc<Program>,
    /// The state every work-item starts with; the work-items of a group that is not resident
    /// yet are made from it when the group starts (until then they hold no registers).
    pub entry: std::rc::Rc<Entry>,
    pub geometry: Geometry,
    /// Global allocations; index 0 is the null allocation and is never valid.
    pub global: Vec<Alloc>,
    pub constant: Vec<Alloc>,
    /// The pointer to each program-scope variable, by its index in `Program::globals`.
    pub program_globals: Vec<u64>,
    pub groups: Vec<Group>,
    pub warps: Vec<Warp>,
    pub items: Vec<WorkItem>,
    /// Spin-loop detection, by work-item: empty until the launch's first quiet event, then
    /// one watch each (made by `interp::quiet`). Kept beside the work-items rather than boxed in
    /// each, so that a launch of a million allocates once for them, not a million times, and a
    /// work-item fits a cache line.
    pub spins: Vec<SpinWatch>,
    /// The device heap for `malloc`: its global allocation and the blocks handed out
    /// (offset to length), when the program uses one.
    pub heap: Option<(u32, std::collections::BTreeMap<u64, u64>)>,
    /// Agents that may step, in no particular but deterministic order. Agents are the
    /// work-items (`0..items.len()`) followed by one async-copy engine per work-group
    /// (`items.len() + group`), ready while its group has copy elements to move.
    pub ready: Vec<u32>,
    /// Position of each agent in `ready`, or `u32::MAX`.
    pub ready_pos: Vec<u32>,
    pub log: EventLog,
    pub faults: Vec<Fault>,
    /// Faults already reported, by kind and source position, so a loop reports once.
    reported: std::collections::BTreeSet<(FindingKind, u32, u32)>,
    pub printf: Vec<PrintfLine>,
    printf_bytes: usize,
    pub limits: Limits,
    /// The step being performed; stamped on events and faults.
    pub step: u64,
    /// Set when a work-item exceeded `instructions_per_step`, or needed memory beyond the
    /// memory limit; the run must stop.
    pub runaway: Option<u32>,
    /// Bytes the run may still allocate under the memory limit: the launch charged what it
    /// holds from the start (buffers, local memory, the heap, every work-item's registers and
    /// first private memory), and a work-item's growth (a call's frame, registers and private
    /// memory, a saved spin state) is charged here before it is allocated.
    pub memory_room: u64,
    /// Work-items per warp.
    pub warp_size: u32,
    /// Whether the last step released a barrier or collective (run-to-block then starts
    /// again from the lowest work-item, as Oclgrind does).
    pub released: bool,
    /// The lowest agent made ready since the scheduler last looked (`u32::MAX` for none):
    /// run-to-block keeps a floor below which nothing is ready, and lowers it by this, so
    /// finding the lowest ready agent costs O(1) amortised instead of a scan of all of them.
    pub ready_added_low: u32,
    /// When the scheduler asks for it (PCT keeps its ready agents ordered by priority): every
    /// agent whose readiness changed since the scheduler last looked.
    pub ready_log: Option<Vec<u32>>,
    /// Counts the steps that changed shared memory (or the heap, or printed); a spin is only
    /// a spin while this stays the same.
    pub write_epoch: u64,
    /// Residency: how many groups may be started and unfinished at once.
    pub resident_limit: u32,
    /// Groups started and not finished.
    pub resident: u32,
    /// The next group to start (groups start in index order).
    pub next_group: u32,
    /// The machine's own random choices (spurious failures of weak compare-exchanges), seeded
    /// from the run's generator at launch, so the seed still decides everything.
    pub rng: crate::rng::Rng,
    /// The data-race detector.
    pub races: crate::concurrency::race::Races,
    /// The relaxed memory model (disabled under sequential consistency).
    pub weak: crate::concurrency::weak::Weak,
    /// Barriers meet by count, wherever each work-item calls them: a litmus test's threads
    /// are separate functions, each with its own `barrier` call.
    pub barriers_by_count: bool,
    /// The lanes of a masked warp collective must execute one instruction together, as on
    /// GPUs without independent thread scheduling (the lockstep scheduler); otherwise they
    /// meet wherever each calls the same function with the same mask (see `warp`).
    pub converged_warps: bool,
    /// Reads of memory nothing can write are performed in the work-item's own step before
    /// them, not as steps of their own (`Granularity::Observable`, see `interp::fold_read`).
    pub fold_reads: bool,
    /// The named barriers under way (PTX litmus tests), made at the first arrival.
    pub named_barriers: Option<Box<named_barrier::NamedBarriers>>,
}

clone_fields!(Machine {
    program,
    entry,
    geometry,
    global,
    constant,
    program_globals,
    groups,
    warps,
    items,
    spins,
    heap,
    ready,
    ready_pos,
    log,
    faults,
    reported,
    printf,
    printf_bytes,
    limits,
    step,
    runaway,
    memory_room,
    warp_size,
    released,
    ready_added_low,
    ready_log,
    write_epoch,
    resident_limit,
    resident,
    next_group,
    rng,
    races,
    weak,
    barriers_by_count,
    converged_warps,
    fold_reads,
    named_barriers,
});

/// In a schedule, an agent index with this bit set is a promise step of that work-item (the
/// relaxed model's speculative write; see `crate::concurrency::weak`).
pub const PROMISE: u32 = 0x8000_0000;

/// The most steps a solo run takes to certify promises.
const SOLO_STEPS: u32 = 256;

impl Machine {
    /// Starts loading into the cache what the agents of the next three steps will touch
    /// first, each as far as what is already loaded allows (see `Session::prefetch_ahead`):
    /// for the third, its work-item (with its registers, when they are in place); for the
    /// second, its registers if they are on the heap, its spin watch and the race detector's
    /// entries (its work-item was asked for a step earlier); for the next one, the
    /// memory and shadow word its pending event accesses (its registers were asked for a step
    /// earlier). Agents that are not work-items, or not where a guess put them, are passed
    /// over; nothing here changes the machine.
    #[inline]
    pub fn prefetch_ahead(&self, [next, second, third]: [u32; 3]) {
        if let Some(item) = self.items.get(third as usize) {
            // Every cache line it spans, wherever it starts.
            let at = (item as *const WorkItem).cast::<u8>();
            let size = std::mem::size_of::<WorkItem>();
            for offset in (0..size).step_by(64) {
                prefetch(at.wrapping_add(offset));
            }
            prefetch(at.wrapping_add(size - 1));
        }
        if let Some(item) = self.items.get(second as usize) {
            if item.regs.spilled() {
                prefetch(item.regs.as_ptr().wrapping_add(item.base as usize));
            }
            if let Some(spin) = self.spins.get(second as usize) {
                prefetch(spin as *const SpinWatch);
            }
            // What the race detector reads first for an access: the agent's clock and what it
            // knows of the others.
            if let Some(clock) = self.races.clock.get(second as usize) {
                prefetch(clock as *const u32);
            }
            prefetch(self.races.know.get(second as usize) as *const _);
            if let Some(pos) = self.ready_pos.get(second as usize) {
                prefetch(pos as *const u32);
            }
        }
        if let Some(p) = interp::pending_address(self, next) {
            let group = self.items[next as usize].group as usize;
            let pool = match ptr::space(p) {
                Space::Global => &self.global[..],
                Space::Constant => &self.constant[..],
                Space::Local => self.groups.get(group).map_or(&[][..], |g| &g.local[..]),
                Space::Private => &[][..],
            };
            if let Some(alloc) = pool.get(ptr::alloc(p) as usize) {
                let offset = ptr::offset(p) as usize;
                if offset < alloc.bytes.len() {
                    prefetch(alloc.bytes.as_ptr().wrapping_add(offset));
                    if let Some(cell) = alloc.shadow.cell_if_made(offset / 4) {
                        prefetch(cell as *const _);
                    }
                }
            }
        }
    }

    /// About how many bytes of heap the machine holds (its work-items with their vectors,
    /// warps and groups, memory with its shadow, and the detectors' per-agent state), for
    /// spacing snapshots: a snapshot keeps all of it, the work-items, shadows and barrier
    /// arrivals packed ([`frozen`]) into less, so this bounds a snapshot from above. Capacities are counted,
    /// not lengths, as a copy's allocator rounds much the same way.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let item = |w: &WorkItem| {
            size_of::<WorkItem>()
                + regs_heap_bytes(&w.regs)
                + w.rare.as_ref().map_or(0, |r| {
                    size_of::<Rare>()
                        + r.private.capacity()
                        + r.private_init.capacity()
                        + r.frames.capacity() * size_of::<Frame>()
                        + (r.unwaited.capacity() + r.waiting_for.capacity()) * size_of::<u64>()
                        + r.observed.capacity() * size_of::<(u32, u64)>()
                })
        };
        let spin = |spin: &SpinWatch| {
            spin.saved.as_ref().map_or(0, |s| size_of::<SpinState>() + s.regs.capacity() * 8 + s.private.capacity() + s.frames.capacity() * 8)
        };
        let alloc = |a: &Alloc| size_of::<Alloc>() + a.bytes.capacity() + a.init.as_ref().map_or(0, Vec::capacity) + a.shadow.bytes();
        self.items.iter().map(item).sum::<usize>()
            + self.spins.capacity() * size_of::<SpinWatch>()
            + self.spins.iter().map(spin).sum::<usize>()
            + self.warps.len() * size_of::<Warp>()
            + self.groups.iter().map(|g| size_of::<Group>() + g.local.iter().map(alloc).sum::<usize>()).sum::<usize>()
            + self.global.iter().chain(&self.constant).map(alloc).sum::<usize>()
            + (self.ready.capacity() + self.ready_pos.capacity()) * size_of::<u32>()
            + self.races.heap_bytes()
            + self.weak.agents.capacity() * size_of::<crate::concurrency::weak::Agent>()
    }

    /// The relaxed writes `agent` could promise now, into `found` (emptied first): those a
    /// run of `agent` alone from here, reading the latest writes, makes up to its first
    /// sequentially consistent write or a barrier (each one certified by that very run, with
    /// the scope of the release fences it passed), read-modify-writes of a location the run
    /// had not written before included. The solo
    /// run is on `solo`, a machine kept between calls, into which this one is copied reusing
    /// its allocations (made on the first call).
    pub fn promise_candidates(&self, agent: u32, solo: &mut Option<Box<Machine>>, found: &mut Vec<crate::concurrency::weak::Candidate>) {
        found.clear();
        let wi = agent as usize;
        if !self.weak.enabled || wi >= self.items.len() || self.items[wi].status != Status::Ready || self.weak.agents[wi].promise.is_some() {
            return;
        }
        let solo = match solo {
            Some(solo) => {
                Machine::clone_from(solo, self);
                solo
            }
            None => solo.insert(Box::new(self.clone())),
        };
        // The solo run collects its stores straight into `found`'s vector.
        solo.weak.certifying = Some(crate::concurrency::weak::Certify { agent, stores: std::mem::take(found), start: self.step });
        for _ in 0..SOLO_STEPS {
            if solo.items[wi].status != Status::Ready || solo.runaway.is_some() || solo.weak.certifying.is_none() {
                break;
            }
            solo.step += 1;
            solo.perform(agent);
        }
        *found = solo.weak.certifying.take().map(|c| c.stores).unwrap_or_default();
        // Only writes to memory can be promised: a named barrier's arrival words are held by
        // no allocation, and nobody reads them as values (the barrier counts arrivals), so a
        // promise of one would be a step that changes nothing.
        found.retain(|c| self.holds(c.key, c.size));
        // Each distinct write once, at its first place (there are few: a quadratic scan
        // allocates nothing).
        let mut kept = 0;
        for k in 0..found.len() {
            let c = found[k];
            if !found[..kept].iter().any(|k| k.same_write(&c)) {
                found[kept] = c;
                kept += 1;
            }
        }
        found.truncate(kept);
    }

    /// Whether memory holds the `size` bytes at `key` (space, owning group, allocation,
    /// offset).
    fn holds(&self, key: crate::concurrency::weak::LocKey, size: u8) -> bool {
        let offset = key.3;
        self.allocation(key).is_some_and(|a| offset.checked_add(size as u64).is_some_and(|end| end <= a.bytes.len() as u64))
    }

    /// The allocation a relaxed-model location key (space, owning group, allocation, offset)
    /// names, if memory holds one: as the next two functions read it.
    fn allocation(&self, key: crate::concurrency::weak::LocKey) -> Option<&Alloc> {
        match local_owner(key)? {
            Some(g) => self.groups.get(g)?.local.get(key.2 as usize),
            None => self.global.get(key.2 as usize),
        }
    }

    fn allocation_mut(&mut self, key: crate::concurrency::weak::LocKey) -> Option<&mut Alloc> {
        match local_owner(key)? {
            Some(g) => self.groups.get_mut(g)?.local.get_mut(key.2 as usize),
            None => self.global.get_mut(key.2 as usize),
        }
    }

    /// Work-item `agent` promises one of `candidates`, its candidate writes in the current
    /// state (a decision among them); `false` when it has none.
    pub fn promise(&mut self, agent: u32, candidates: &[crate::concurrency::weak::Candidate]) -> bool {
        let n = candidates.len() as u32;
        if n == 0 {
            return false;
        }
        let Machine { weak, rng, .. } = self;
        let k = if n > 1 { weak.decide(n, &mut || rng.below(n as u64) as u32) } else { 0 };
        let candidate = candidates[k as usize];
        let crate::concurrency::weak::Candidate { key, size, value, level, release, span, .. } = candidate;
        let (space, _, alloc, offset) = key;
        let Some(a) = self.allocation_mut(key) else { return false };
        let (at, len) = (offset as usize, size as usize);
        let Some(bytes) = a.bytes.get_mut(at..at + len) else { return false };
        let elem = if size == 8 { crate::scenario::ElemType::ULong } else { crate::scenario::ElemType::UInt };
        let before = elem.decode(bytes);
        elem.encode(value, bytes);
        let event = self.log.len() as u32;
        let memory = if space == Space::Local as u8 { Space::Local } else { Space::Global };
        let race_release = if release { None } else { self.races.promise_release(agent, memory, alloc, level, event) };
        self.weak.promise(agent, candidate, before, event, self.step, race_release);
        self.event(agent, EventKind::Promise, Some(Location { space: memory, alloc, offset }), before, value, span);
        self.write_epoch += 1;
        true
    }

    /// Places work-group `g` on device `devices[g]` (litmus tests put threads on several
    /// devices; a kernel launch is on one): device scope then reaches only that device.
    pub fn set_group_devices(&mut self, devices: &[u32]) {
        let device_of_group = |g: u32| devices.get(g as usize).copied().unwrap_or(0);
        let agents: Vec<u32> = self.items.iter().map(|i| device_of_group(i.group)).chain((0..self.groups.len() as u32).map(device_of_group)).collect();
        // The race detector reads an empty list as every agent on device 0.
        let agents: std::rc::Rc<[u32]> = agents.into();
        self.races.agent_device = if agents.iter().any(|&d| d != 0) { agents.clone() } else { std::rc::Rc::from([]) };
        self.weak.agent_device = agents;
    }

    pub fn set_status(&mut self, wi: u32, status: Status) {
        let was_ready = self.items[wi as usize].status == Status::Ready;
        self.items[wi as usize].status = status;
        self.set_ready(wi, was_ready, status == Status::Ready);
    }

    /// The agent index of group `g`'s copy engine.
    pub fn copy_engine(&self, g: usize) -> u32 {
        (self.items.len() + g) as u32
    }

    pub(crate) fn set_ready(&mut self, wi: u32, was_ready: bool, is_ready: bool) {
        if was_ready != is_ready {
            if let Some(log) = &mut self.ready_log {
                log.push(wi);
            }
        }
        if was_ready && !is_ready {
            let pos = self.ready_pos[wi as usize];
            let last = self.ready.pop().unwrap_or(wi);
            if last != wi {
                self.ready[pos as usize] = last;
                self.ready_pos[last as usize] = pos;
            }
            self.ready_pos[wi as usize] = u32::MAX;
        } else if !was_ready && is_ready {
            self.ready_pos[wi as usize] = self.ready.len() as u32;
            self.ready.push(wi);
            self.ready_added_low = self.ready_added_low.min(wi);
        }
    }

    /// Records a fault unless the same kind was already reported at the same place.
    pub fn fault(&mut self, fault: Fault) {
        if self.reported.insert((fault.kind, fault.span.start, fault.span.end)) {
            self.faults.push(fault);
        }
    }

    fn event(&mut self, wi: u32, kind: EventKind, location: Option<Location>, read: u64, written: u64, span: Span) {
        self.log.push(Event { step: self.step, work_item: wi, kind, location, read, written, span, order: None, scope: None });
    }

    /// An event with a memory order and scope (atomics and fences).
    #[allow(clippy::too_many_arguments)]
    fn ordered_event(
        &mut self,
        wi: u32,
        kind: EventKind,
        location: Option<Location>,
        read: u64,
        written: u64,
        span: Span,
        order: Option<crate::ir::Order>,
        scope: Option<crate::ir::Scope>,
    ) {
        self.log.push(Event { step: self.step, work_item: wi, kind, location, read, written, span, order, scope });
    }

    /// An atomic read-modify-write, load or store, with its operation (lock recognition reads
    /// it, see `crate::locks`).
    #[allow(clippy::too_many_arguments)]
    fn atomic_event(
        &mut self,
        wi: u32,
        location: Location,
        read: u64,
        written: u64,
        span: Span,
        order: crate::ir::Order,
        scope: crate::ir::Scope,
        op: crate::ir::AtomicOp,
    ) {
        let event = Event {
            step: self.step,
            work_item: wi,
            kind: EventKind::Atomic,
            location: Some(location),
            read,
            written,
            span,
            order: Some(order),
            scope: Some(scope),
        };
        self.log.push_atomic(event, op);
    }

    /// Carries out agent `wi`'s next step: a work-item's pending event (after which it runs
    /// to its next one), or one element of a group's async copy.
    pub fn perform(&mut self, wi: u32) {
        self.released = false;
        self.races.tick(wi);
        if wi as usize >= self.items.len() {
            interp::copy_element(self, wi as usize - self.items.len());
            return;
        }
        let decisions = self.weak.made.len();
        interp::perform_event(self, wi);
        // An outcome other than the first option was drawn (a weak compare-exchange that
        // failed spuriously, a load that read an older write): the same state may do otherwise
        // next time, so its repeat proves no spin.
        if self.weak.made[decisions..].iter().any(|&k| k != 0) {
            interp::unsettle(self, wi);
        }
        if self.items[wi as usize].status == Status::Ready {
            interp::run_after_event(self, wi);
        }
    }

    /// Whether work-item `wi` is known to spin: its state repeated since the last write.
    #[inline]
    pub fn is_spinning(&self, wi: u32) -> bool {
        self.spins.get(wi as usize).is_some_and(|w| w.spinning && w.epoch == self.write_epoch)
    }

    /// The registers of work-item `wi`: those it starts with if its group has not started.
    pub fn regs_of(&self, wi: u32) -> &[u64] {
        let item = &self.items[wi as usize];
        if item.status == Status::NotStarted {
            &self.entry.regs
        } else {
            &item.regs
        }
    }

    /// The private memory of work-item `wi`: what it starts with if its group has not started.
    pub fn private_of(&self, wi: u32) -> &[u8] {
        let item = &self.items[wi as usize];
        if item.status == Status::NotStarted {
            &self.entry.private
        } else {
            item.private()
        }
    }

    /// Groups that have not started yet.
    pub fn pending_groups(&self) -> u32 {
        self.groups.len() as u32 - self.next_group
    }

    /// Makes the next waiting work-group resident: its work-items become ready and run to
    /// their first event. Returns `false` when every group has started.
    pub fn start_next_group(&mut self) -> bool {
        let g = self.next_group as usize;
        if g >= self.groups.len() {
            return false;
        }
        self.next_group += 1;
        self.resident += 1;
        let first = self.groups[g].first;
        let end = self.groups.get(g + 1).map_or(self.items.len() as u32, |next| next.first);
        // Its work-items were made without registers or private memory at launch: they get
        // them now that they start.
        for item in &mut self.items[first as usize..end as usize] {
            item.regs.clear();
            item.regs.extend_from_slice(&self.entry.regs);
            item.rare = self.entry.rare();
        }
        for wi in first..end {
            self.set_status(wi, Status::Ready);
        }
        for wi in first..end {
            if self.items[wi as usize].status == Status::Ready && self.runaway.is_none() {
                interp::run_private(self, wi);
            }
        }
        true
    }

    /// Called when a work-item leaves its group's and warp's accounting (finished or faulted).
    fn leave_group(&mut self, wi: u32, finished_at: Option<Span>) {
        let g = self.items[wi as usize].group as usize;
        if let Some(span) = finished_at {
            self.check_copies_at_finish(wi, g, span);
        }
        let w = self.items[wi as usize].warp as usize;
        let lane = wi - self.warps[w].first;
        self.warps[w].active &= !(1u64 << (lane % 64));
        for scope in [Scope::Group(g), Scope::Warp(w)] {
            let r = self.rendezvous(scope);
            r.unfinished -= 1;
            if let (None, Some(span)) = (r.first_finished, finished_at) {
                r.first_finished = Some((wi, span));
            }
            match scope {
                // A lane that leaves may be all a meeting of its warp still waited for.
                Scope::Warp(w) => self.settle_warp(w, wi, None),
                Scope::Group(_) if !r.waiting.is_empty() && r.waiting.len() as u32 == r.unfinished => self.release(scope, wi),
                Scope::Group(_) => {}
            }
        }
        named_barrier::left(self, wi, g);
        // The last work-item of a group frees its slot for the next waiting group.
        if self.groups[g].rendezvous.unfinished == 0 {
            self.resident = self.resident.saturating_sub(1);
            while self.resident < self.resident_limit && self.start_next_group() {}
        }
    }

    pub fn rendezvous(&mut self, scope: Scope) -> &mut Rendezvous {
        match scope {
            Scope::Group(g) => &mut self.groups[g].rendezvous,
            Scope::Warp(w) => &mut self.warps[w].rendezvous,
        }
    }

    /// A finishing work-item must have joined every copy of its group and waited for its
    /// events.
    fn check_copies_at_finish(&mut self, wi: u32, g: usize, span: Span) {
        let called = self.items[wi as usize].copies_called() as usize;
        if let Some(copy) = self.groups[g].copies.get(called) {
            let (issuer, copy_span) = (copy.issuer, copy.span);
            self.fault(Fault {
                kind: FindingKind::AsyncCopyDivergence,
                message: format!("async copy divergence: work-item {wi} finished without calling the async copy that work-item {issuer} of its group called"),
                span: copy_span,
                work_item: issuer,
                step: self.step,
                related: vec![(span, Some(wi), format!("work-item {wi} finished here"))],
            });
        }
        if !self.items[wi as usize].unwaited().is_empty() {
            self.fault(Fault {
                kind: FindingKind::UnwaitedEvent,
                message: format!("work-item {wi} finished without waiting for the events of its async copies"),
                span,
                work_item: wi,
                step: self.step,
                related: Vec::new(),
            });
        }
    }

    /// Lets every member waiting at a work-group's rendezvous go on, giving each the result of
    /// the collective it waited at (a warp's meetings are settled by `settle_warp`).
    fn release(&mut self, scope: Scope, by: u32) {
        let waiting = std::mem::take(&mut self.rendezvous(scope).waiting);
        let first = waiting[0];
        let span = self.program.functions[first.func as usize].spans[first.pc as usize];
        let what = if matches!(scope, Scope::Warp(_)) { "warp" } else { "group" };
        let at = match self.program.functions[first.func as usize].code[first.pc as usize] {
            Instr::Collective { .. } => "at this collective",
            _ => "at this barrier",
        };
        if let Some((finished, finish_span)) = self.rendezvous(scope).first_finished {
            let count = waiting.len();
            self.fault(Fault {
                kind: FindingKind::BarrierDivergence,
                message: format!(
                    "barrier divergence: {count} work-item{} of a {what} waited {at}, but work-item {finished} of the same {what} finished without reaching it",
                    if count == 1 { "" } else { "s" }
                ),
                span,
                work_item: first.wi,
                step: self.step,
                related: vec![(finish_span, Some(finished), format!("work-item {finished} finished here"))],
            });
        }
        let barrier = matches!(self.program.functions[first.func as usize].code[first.pc as usize], Instr::Barrier { .. });
        let by_count = self.barriers_by_count && barrier;
        if let Some(other) = waiting.iter().find(|w| (w.func, w.pc) != (first.func, first.pc)).filter(|_| !by_count) {
            let other_span = self.program.functions[other.func as usize].spans[other.pc as usize];
            self.fault(Fault {
                kind: FindingKind::BarrierDivergence,
                message: format!("barrier divergence: work-items of one {what} reached different barriers or collectives"),
                span,
                work_item: first.wi,
                step: self.step,
                related: vec![(other_span, Some(other.wi), format!("work-item {} waited here instead", other.wi))],
            });
        }
        self.release_arrivals(scope, by, waiting);
    }

    /// Lets the members in `waiting` go on (those of one work-group barrier, or of one
    /// meeting at a warp collective), ordering memory as their barrier does and handing out
    /// the collective's result. A masked warp collective's results are handed out already.
    fn release_arrivals(&mut self, scope: Scope, by: u32, waiting: Vec<Arrival>) {
        let first = waiting[0];
        let span = self.program.functions[first.func as usize].spans[first.pc as usize];
        self.event(by, EventKind::BarrierRelease, None, waiting.len() as u64, 0, span);
        self.released = true;
        // Barriers (and CUDA's barrier-collectives) order memory; OpenCL's value collectives
        // and the warp shuffles only exchange values.
        let members: Vec<u32> = waiting.iter().map(|w| w.wi).collect();
        match (scope, self.program.functions[first.func as usize].code[first.pc as usize]) {
            // Each member's own flags say what its barrier released.
            (Scope::Group(g), Instr::Barrier { .. }) => {
                let flags: Vec<(u32, u64)> = waiting.iter().map(|w| (w.wi, w.a)).collect();
                self.races.barrier(g as u32, &flags);
                self.forget_ordered_local(g, &flags);
                if self.weak.enabled {
                    self.weak.barrier(&flags);
                }
            }
            (Scope::Group(g), Instr::Collective { op: CollectiveOp::Sync | CollectiveOp::Count | CollectiveOp::All | CollectiveOp::Any, .. }) => {
                let both = crate::ir::fence::LOCAL | crate::ir::fence::GLOBAL;
                let flags: Vec<(u32, u64)> = waiting.iter().map(|w| (w.wi, both)).collect();
                self.races.barrier(g as u32, &flags);
                self.forget_ordered_local(g, &flags);
                if self.weak.enabled {
                    self.weak.barrier(&flags);
                }
            }
            (Scope::Warp(_), Instr::Collective { op: CollectiveOp::Sync, .. }) => {
                self.races.warp_sync(&members);
                if self.weak.enabled {
                    let both = crate::ir::fence::LOCAL | crate::ir::fence::GLOBAL;
                    let flags: Vec<(u32, u64)> = members.iter().map(|&m| (m, both)).collect();
                    self.weak.barrier(&flags);
                }
            }
            _ => {}
        }
        if let Instr::Collective { op, dst, mask: None, .. } = self.program.functions[first.func as usize].code[first.pc as usize] {
            self.hand_out(scope, op, dst, &waiting, span);
        }
        for w in &waiting {
            self.set_status(w.wi, Status::Ready);
        }
        for (k, w) in waiting.iter().enumerate() {
            // The members run one after another, each starting with its registers, which it
            // last touched when it arrived, long ago in a large launch (a cache miss each):
            // ask for those of the member two ahead, so that the loads overlap the runs.
            // This is no guess: that member runs next but one unless it faults first.
            if cfg!(target_arch = "x86_64") {
                if let Some(ahead) = waiting.get(k + 2).and_then(|a| self.items.get(a.wi as usize)) {
                    prefetch(ahead.regs.as_ptr().wrapping_add(ahead.base as usize));
                }
            }
            if self.items[w.wi as usize].status == Status::Ready {
                interp::run_private(self, w.wi);
            }
        }
    }
}

impl Machine {
    /// After group `g`'s barrier (`flags`: each member and the fences it gave): when the
    /// barrier orders every earlier access to the group's local memory before every later
    /// one, the race detector forgets those accesses. Nothing later can race with them, and
    /// a word that keeps the accesses of every level of a tree reduction costs a cache miss
    /// at each access to it. Only work-items touched that memory, unless the group started
    /// an async copy (its copy engine's accesses are not ordered by the barrier).
    fn forget_ordered_local(&mut self, g: usize, flags: &[(u32, u64)]) {
        let group = &mut self.groups[g];
        if group.copies.is_empty() && self.races.barrier_orders_local(g as u32, flags) {
            for alloc in &mut group.local {
                alloc.shadow.forget_accesses();
            }
        }
    }

    /// The first work-item of a rendezvous and how many members it has when none has
    /// finished: a work-group's size, or a warp's (the last warp of a group may be short).
    fn members(&self, scope: Scope) -> (u32, u32) {
        let group_end = |m: &Machine, g: usize| m.groups.get(g + 1).map_or(m.items.len() as u32, |next| next.first);
        match scope {
            Scope::Group(g) => {
                let first = self.groups[g].first;
                (first, group_end(self, g) - first)
            }
            Scope::Warp(w) => {
                let first = self.warps[w].first;
                let g = self.items[first as usize].group as usize;
                (first, (group_end(self, g) - first).min(self.warp_size))
            }
        }
    }

    /// Computes collective `op` over the values the waiting members brought and writes each
    /// member's result to register `dst`. A member's id is its local linear id in a group and
    /// its lane in a warp; reductions and scans combine values in id order, never in arrival
    /// order, so floating-point results do not depend on the schedule.
    fn hand_out(&mut self, scope: Scope, op: CollectiveOp, dst: Reg, waiting: &[Arrival], span: Span) {
        let first = waiting[0];
        let what = if matches!(scope, Scope::Warp(_)) { "sub-group" } else { "work-group" };
        let (first_member, size) = self.members(scope);
        // Members that wait at another barrier or collective (reported as divergence) bring
        // no value for this one.
        let mut lanes: Vec<(u32, u64)> = waiting.iter().filter(|w| (w.func, w.pc) == (first.func, first.pc)).map(|w| (w.wi - first_member, w.a)).collect();
        lanes.sort_unstable_by_key(|&(lane, _)| lane);
        let index_of = |lane: u32| lanes.binary_search_by_key(&lane, |&(l, _)| l).ok();
        let value_of_lane = |lane: u32| index_of(lane).map(|i| lanes[i].1);
        // Scans need every member's running value; reductions need only the last one.
        let prefix: Vec<u64> = match op {
            CollectiveOp::Reduce(sop, ty) | CollectiveOp::ScanInclusive(sop, ty) | CollectiveOp::ScanExclusive(sop, ty) => lanes
                .iter()
                .scan(None, |acc: &mut Option<u64>, &(_, v)| {
                    let next = acc.map_or(v, |a| combine(sop, ty, a, v));
                    *acc = Some(next);
                    Some(next)
                })
                .collect(),
            _ => Vec::new(),
        };
        if let CollectiveOp::Broadcast(_) = op {
            // The source must be one member, named alike by every member.
            if let Some(other) = waiting.iter().find(|w| (w.func, w.pc) == (first.func, first.pc) && w.b != first.b) {
                self.fault(Fault {
                    kind: FindingKind::BarrierDivergence,
                    message: format!("collective divergence: work-items of one {what} broadcast from different ids ({} and {})", first.b, other.b),
                    span,
                    work_item: first.wi,
                    step: self.step,
                    related: vec![(span, Some(other.wi), format!("work-item {} named id {}", other.wi, other.b))],
                });
            } else if first.b >= size as u64 {
                // The lowering turns a work-group local id with a coordinate outside the
                // group's size into `u64::MAX`, since no single number names it.
                let source = if first.b == u64::MAX { "a local id outside the work-group".to_string() } else { format!("id {}", first.b) };
                self.fault(Fault {
                    kind: FindingKind::OutOfBounds,
                    message: format!("broadcast from {source}, but the {what} has {size} work-item{}", if size == 1 { "" } else { "s" }),
                    span,
                    work_item: first.wi,
                    step: self.step,
                    related: Vec::new(),
                });
            }
        }
        for w in waiting {
            // A member that waits at another barrier or collective (already reported as
            // divergence) has no result register here.
            if (w.func, w.pc) != (first.func, first.pc) {
                continue;
            }
            let lane = w.wi - first_member;
            let result = match op {
                CollectiveOp::Sync => 0,
                CollectiveOp::Count => waiting.iter().filter(|x| x.a != 0).count() as u64,
                CollectiveOp::All => waiting.iter().all(|x| x.a != 0) as u64,
                CollectiveOp::Any => waiting.iter().any(|x| x.a != 0) as u64,
                CollectiveOp::Ballot => lanes.iter().filter(|(_, v)| *v != 0).fold(0u64, |m, (l, _)| m | 1u64 << (l % 64)),
                CollectiveOp::Shfl => value_of_lane(w.b as u32 % self.warp_size).unwrap_or(w.a),
                CollectiveOp::ShflUp => lane.checked_sub(w.b as u32).and_then(value_of_lane).unwrap_or(w.a),
                CollectiveOp::ShflDown => lane.checked_add(w.b as u32).and_then(value_of_lane).unwrap_or(w.a),
                CollectiveOp::ShflXor => value_of_lane(lane ^ w.b as u32).unwrap_or(w.a),
                CollectiveOp::Broadcast(_) => u32::try_from(w.b).ok().and_then(value_of_lane).unwrap_or(0),
                CollectiveOp::Reduce(..) => prefix.last().copied().unwrap_or(0),
                CollectiveOp::ScanInclusive(..) => index_of(lane).map_or(0, |i| prefix[i]),
                CollectiveOp::ScanExclusive(sop, ty) => match index_of(lane) {
                    Some(i) if i > 0 => prefix[i - 1],
                    _ => identity(sop, ty),
                },
            };
            let item = &mut self.items[w.wi as usize];
            let base = item.base as usize;
            item.regs[base + dst as usize] = result;
        }
    }
}

/// `a op b` for a reduction or scan, on register values of type `ty` (integers wrap, as
/// OpenCL's integer arithmetic does; float minimum and maximum follow `fmin` and `fmax`).
fn combine(op: ScanOp, ty: NumTy, a: u64, b: u64) -> u64 {
    let op = match op {
        ScanOp::Add => crate::ir::BinaryOp::Add,
        ScanOp::Min => crate::ir::BinaryOp::Min,
        ScanOp::Max => crate::ir::BinaryOp::Max,
    };
    // The interpreter's own arithmetic, so a reduction computes exactly what the same
    // operations written out would; addition, minimum and maximum cannot fail.
    value::binary(op, ty, a, b).unwrap_or(a)
}

/// The identity of `op` on `ty` in register form: what an exclusive scan hands its first
/// member (0 for add; the largest value for min and the smallest for max, as OpenCL says,
/// with infinities for floats).
fn identity(op: ScanOp, ty: NumTy) -> u64 {
    match (op, ty) {
        (ScanOp::Add, _) => 0,
        (ScanOp::Min, NumTy::I32) => i32::MAX as u64,
        (ScanOp::Min, NumTy::U32) => u32::MAX as u64,
        (ScanOp::Min, NumTy::I64) => i64::MAX as u64,
        (ScanOp::Min, NumTy::U64) => u64::MAX,
        (ScanOp::Min, NumTy::F32) => f32::INFINITY.to_bits() as u64,
        (ScanOp::Min, NumTy::F64) => f64::INFINITY.to_bits(),
        (ScanOp::Max, NumTy::I32) => i32::MIN as i64 as u64,
        (ScanOp::Max, NumTy::I64) => i64::MIN as u64,
        (ScanOp::Max, NumTy::U32 | NumTy::U64) => 0,
        (ScanOp::Max, NumTy::F32) => f32::NEG_INFINITY.to_bits() as u64,
        (ScanOp::Max, NumTy::F64) => f64::NEG_INFINITY.to_bits(),
    }
}

/// Answers the sub-group queries. Sub-groups are the warps: `warp_size` consecutive
/// work-items by local linear id, so the last one of a group is short when the group size
/// is not a multiple of it. `group` and `enqueued` are the actual and enqueued work-group
/// sizes in work-items.
pub(crate) fn sub_group_query(query: crate::ir::Query, group: u64, enqueued: u64, local_linear: u64, warp_size: u64) -> u64 {
    use crate::ir::Query;
    let w = warp_size.max(1);
    match query {
        Query::SubGroupSize => w.min(group - local_linear / w * w),
        Query::MaxSubGroupSize => w.min(enqueued),
        Query::NumSubGroups => group.div_ceil(w),
        Query::EnqueuedNumSubGroups => enqueued.div_ceil(w),
        Query::SubGroupId => local_linear / w,
        Query::SubGroupLocalId => local_linear % w,
        _ => 0,
    }
}

impl Machine {
    /// Appends printf output, up to the printf limit.
    fn record_printf(&mut self, wi: u32, text: String, span: Span) {
        if self.printf_bytes >= self.limits.printf_bytes {
            return;
        }
        self.printf_bytes += text.len();
        if self.printf_bytes >= self.limits.printf_bytes {
            let limit = self.limits.printf_bytes as u64;
            self.fault(Fault {
                kind: FindingKind::StepLimit,
                message: crate::limits::PRINTF_BYTES.exceeded(limit, "printf output reached its limit and later output is dropped"),
                span,
                work_item: wi,
                step: self.step,
                related: Vec::new(),
            });
        }
        let g = self.items[wi as usize].group;
        let local = wi - self.groups[g as usize].first;
        let work_item = self.geometry.global_id(g, local);
        self.printf.push(PrintfLine { work_item, text });
    }
}

impl Machine {
    /// Hands out `size` bytes of the device heap, 16-byte aligned and first-fit, or NULL.
    pub fn heap_alloc(&mut self, size: u64) -> u64 {
        let Some((alloc, blocks)) = self.heap.as_mut() else { return 0 };
        let capacity = self.global[*alloc as usize].bytes.len() as u64;
        let size = size.max(1).div_ceil(16) * 16;
        let mut at = 0u64;
        for (&start, &len) in blocks.iter() {
            if start.saturating_sub(at) >= size {
                break;
            }
            at = (start + len).div_ceil(16) * 16;
        }
        if at.checked_add(size).is_none_or(|end| end > capacity) {
            return 0;
        }
        blocks.insert(at, size);
        crate::ir::ptr::make(crate::trace::Space::Global, *alloc, at)
    }

    /// Returns a block to the device heap; `false` if `p` is not the start of a live block.
    pub fn heap_free(&mut self, p: u64) -> bool {
        let Some((alloc, blocks)) = self.heap.as_mut() else { return false };
        crate::ir::ptr::alloc(p) == *alloc && blocks.remove(&crate::ir::ptr::offset(p)).is_some()
    }
}

/// The memory a relaxed-model location key's space names: `Some(Some(group))` for local
/// memory of that group, `Some(None)` for global memory, `None` for neither (a named
/// barrier's arrival words, which no allocation holds).
fn local_owner(key: crate::concurrency::weak::LocKey) -> Option<Option<usize>> {
    match key.0 {
        s if s == Space::Local as u8 => Some(Some(key.1 as usize)),
        s if s == Space::Global as u8 => Some(None),
        _ => None,
    }
}

/// A hint to the processor that `p` will be read soon: on x86-64 a prefetch instruction,
/// elsewhere (wasm has none) nothing. It never faults, wherever `p` points, and changes
/// nothing but how long the next loads take.
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn prefetch<T>(p: *const T) {
    // SAFETY: a prefetch reads nothing the program sees and never faults, whatever the
    // address; SSE, which it needs, is part of every x86-64 processor.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod collective_tests {
    use super::{combine, identity, sub_group_query};
    use crate::ir::{NumTy, Query, ScanOp};

    #[test]
    fn integer_reductions_wrap_in_their_type() {
        let i32_max = i32::MAX as u64;
        assert_eq!(combine(ScanOp::Add, NumTy::I32, i32_max, 1), i32::MIN as i64 as u64);
        assert_eq!(combine(ScanOp::Add, NumTy::U32, u32::MAX as u64, 2), 1);
        assert_eq!(combine(ScanOp::Min, NumTy::I32, (-3i64) as u64, 2), (-3i64) as u64);
        assert_eq!(combine(ScanOp::Min, NumTy::U32, u32::MAX as u64, 2), 2);
        assert_eq!(combine(ScanOp::Max, NumTy::I64, (-3i64) as u64, 2), 2);
    }

    #[test]
    fn identities_leave_every_value_unchanged() {
        let samples: [(NumTy, u64); 6] = [
            (NumTy::I32, (-7i64) as u64),
            (NumTy::U32, 7),
            (NumTy::I64, i64::MIN as u64),
            (NumTy::U64, u64::MAX),
            (NumTy::F32, (-2.5f32).to_bits() as u64),
            (NumTy::F64, 1e300f64.to_bits()),
        ];
        for (ty, v) in samples {
            for op in [ScanOp::Add, ScanOp::Min, ScanOp::Max] {
                assert_eq!(combine(op, ty, identity(op, ty), v), v, "{op:?} {ty:?}");
            }
        }
    }

    #[test]
    fn float_min_and_max_skip_nan_like_fmin() {
        let nan = f32::NAN.to_bits() as u64;
        let one = 1.0f32.to_bits() as u64;
        assert_eq!(combine(ScanOp::Min, NumTy::F32, nan, one), one);
        assert_eq!(combine(ScanOp::Max, NumTy::F32, one, nan), one);
    }

    #[test]
    fn sub_groups_split_a_group_into_warps() {
        // A group of 6 with warps of 4: sub-groups {0..3} and {4, 5}.
        assert_eq!(sub_group_query(Query::SubGroupSize, 6, 6, 3, 4), 4);
        assert_eq!(sub_group_query(Query::SubGroupSize, 6, 6, 5, 4), 2);
        assert_eq!(sub_group_query(Query::SubGroupLocalId, 6, 6, 5, 4), 1);
        assert_eq!(sub_group_query(Query::SubGroupId, 6, 6, 5, 4), 1);
        assert_eq!(sub_group_query(Query::NumSubGroups, 4, 6, 0, 4), 1);
        assert_eq!(sub_group_query(Query::EnqueuedNumSubGroups, 4, 6, 0, 4), 2);
        assert_eq!(sub_group_query(Query::MaxSubGroupSize, 2, 2, 0, 32), 2);
    }
}
