//! Data races by happens-before, not by what the current schedule happened to order.
//!
//! Two accesses to the same byte race when at least one writes, they are not both atomic, and
//! neither happens before the other. Happens-before is built from program order and these
//! synchronisation edges (OpenCL 2.0 section 3.3, CUDA's memory model):
//!
//! - a barrier orders everything its group's members did before it, in the memory its fence
//!   flags name, before everything they do after it (`barrier(CLK_LOCAL_MEM_FENCE)` orders
//!   local memory only; `__syncthreads` both); it orders its own work-group only, and
//!   `__syncwarp` does the same for a warp;
//! - an atomic write with release semantics (release, acq_rel or seq_cst order, or any order
//!   after a release fence) publishes what its agent knew at the release (at the fence, for a
//!   fence); an atomic read with acquire semantics of the value (or of a later value in the
//!   release sequence) learns it, and a relaxed one learns it at its next acquire fence.
//!   OpenCL 1.x and CUDA atomics are relaxed, so they synchronise only together with fences
//!   (`mem_fence`, `__threadfence`);
//! - synchronisation is scoped ([`release`]): the release's endpoint (the release atomic or
//!   fence) and the acquire's (the acquire atomic or fence) must each include the other's
//!   work-item in its scope. `mem_fence` has work-group scope (OpenCL 2.0 defines it as
//!   `atomic_work_item_fence` with `memory_scope_work_group`), as have `__threadfence_block`
//!   and the `_block` atomics: they order nothing across work-groups. An acquire that reads a
//!   release out of its scope is a `scope-mismatch`, and what the release meant to order
//!   races;
//! - under PTX (CUDA) sequentially consistent fences that are morally strong are ordered in
//!   the order they ran, and the earlier orders what preceded it before what follows the
//!   later ("sync_fence" of the PTX model): `__threadfence()` in two blocks orders their
//!   accesses in that direction, `__threadfence_block()` only within a block;
//! - what a release publishes is per address space. OpenCL 2.0 (section 3.3.6) orders global
//!   and local memory by two happens-before relations, global-happens-before and
//!   local-happens-before, each built from program order and the synchronisation of that
//!   memory only: a release/acquire atomic synchronises the memory of its own object's address
//!   space (an atomic on a `local` object orders local memory, not global), a fence or a
//!   barrier the memory its `cl_mem_fence_flags` name. Batty, Donaldson and Wickerson
//!   ("Overhauling SC Atomics in C11 and OpenCL", POPL 2016) formalise this as one
//!   happens-before per memory region. So each agent keeps its knowledge per space (indexed by
//!   [`GLOBAL`] and [`LOCAL`]), a release publishes, per space, what it releases of that
//!   memory, and an access is checked against the knowledge of its own space: a chain through
//!   a local atomic orders no global access, as in the relaxed model ([`crate::concurrency::weak`]).
//!   Through an atomic, a fence orders a memory only if its flags name the memory of the
//!   atomic's object too (in Dat3M's `opencl.cat` a release, the location written and the
//!   acquire must all be global for global synchronisation, and through a local location
//!   only fences naming both memories, or seq_cst ends, count; a seq_cst atomic on a local
//!   object is no global event, so it orders no global access). So release fences are kept
//!   by the memory of the atomic that follows as well as the memory they order, an acquire
//!   atomic learns the memory of its own object, and what else its release published waits
//!   for an acquire fence that names both. CUDA's
//!   atomics are relaxed and its `__threadfence*` and `__syncthreads` name both spaces, so in
//!   CUDA synchronisation covers all memory, `__shared__` included;
//! - an async copy's elements are written by its group's copy engine, which knows what the
//!   work-item that started the copy knew; `wait_group_events` learns what the engine did.
//!
//! Knowledge is kept as [`clock::Knowledge`] per agent and accesses in [`shadow::Shadow`] per
//! allocation (FastTrack's epochs; Flanagan and Freund, PLDI 2009, keeping every access no
//! later one covers, so that every racing pair of source locations is found). A race is
//! reported once per pair of source locations, with the number of words it touched. A race
//! whose order cannot matter is benign (a warning), as Oclgrind and GPUVerify accept such
//! races: two writes of the same value, or a read that reads the same value whichever comes
//! first. Every instance of the pair must be benign for the finding to be.

pub mod clock;
pub mod release;
pub mod shadow;
mod word;

use clock::Knowledge;
use release::{Contribution, Inclusion, LEVELS};
use shadow::{Access, Cell, Release, Shadow};

use crate::ir::{fence, Level, Order, Scope};
use crate::report::{RaceKind, RaceMemory};
use crate::trace::{EventLog, Space};
use std::rc::Rc;

/// Index of global memory (global buffers and program-scope variables) in per-space arrays.
pub const GLOBAL: usize = 0;
/// Index of local memory (a work-group's `local` or CUDA `__shared__` memory, and a litmus
/// test's locations declared `local`) in per-space arrays.
pub const LOCAL: usize = 1;
/// How many address spaces have a happens-before relation of their own.
pub const SPACES: usize = 2;

/// The `cl_mem_fence_flags` bit that names the memory of space index `s`.
fn fence_bit(s: usize) -> u64 {
    if s == LOCAL {
        fence::LOCAL
    } else {
        fence::GLOBAL
    }
}

/// Joins `what` into `agent`'s entry of `map`, made only when `what` knows something.
fn join_entry(map: &mut std::collections::BTreeMap<u32, [Knowledge; SPACES]>, agent: u32, what: &[Knowledge; SPACES]) {
    if what.iter().all(Knowledge::is_empty) {
        return;
    }
    let mine = map.entry(agent).or_default();
    for (m, w) in mine.iter_mut().zip(what.iter()) {
        m.join(w);
    }
}

/// One member's part in one barrier of its group: its clock at the arrival and the fence
/// flags it gave (only the `LOCAL` and `GLOBAL` bits matter here), or [`Crossing::NONE`] for a
/// member that had finished before that barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crossing {
    pub clock: u32,
    pub flags: u8,
}

impl Crossing {
    /// The entry of a member that did not pass the barrier (it had finished). Its clock is
    /// above every real one, so a member's entries stay sorted by clock.
    pub const NONE: Crossing = Crossing { clock: u32::MAX, flags: 0 };

    fn crossed(self) -> bool {
        self.clock != u32::MAX
    }
}

/// One work-item's crossings within its group's table: entry `k` is its part in the group's
/// barrier number `k + 1`.
struct Track<'a> {
    rows: &'a [std::rc::Rc<[Crossing]>],
    local: usize,
}

impl Track<'_> {
    fn len(&self) -> usize {
        self.rows.len()
    }

    fn get(&self, k: usize) -> Crossing {
        self.rows[k][self.local]
    }

    /// The number of leading entries for which `pred` holds (entries are sorted by clock).
    fn partition_point(&self, pred: impl Fn(Crossing) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if pred(self.get(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// A race between two source locations, with how many words it was seen on.
#[derive(Clone, Debug)]
pub struct RaceRecord {
    /// Event indices of the earlier and the later access (the first time they raced).
    pub first: u32,
    pub second: u32,
    pub kind: RaceKind,
    pub memory: RaceMemory,
    /// Every racing write so far stored the value that was already there.
    pub benign: bool,
    /// What synchronisation was missing.
    pub why: &'static str,
    /// Distinct words seen racing (capped).
    pub words: std::collections::BTreeSet<(u8, u32, u32, u64)>,
    /// The finding this record became, once the session made it one.
    pub finding: Option<usize>,
    /// Changed since the session last looked.
    pub dirty: bool,
}

/// The most distinct words a record counts.
const MAX_WORDS_COUNTED: usize = 100_000;

/// One value per agent, kept as nothing at all until some agent's value is first written:
/// most kernels never fence, acquire or release, and a launch of a million work-items should
/// not pay for state that stays at its default. Reading an agent's value before any write
/// gives the default; the first write makes every agent's value at once (one allocation, not
/// one per agent), so later accesses index a plain vector.
#[derive(Debug, Default)]
pub struct PerAgent<T> {
    /// Every agent's value once any was written; empty before.
    values: Vec<T>,
    /// How many agents there are (the length `values` takes at the first write).
    agents: u32,
    /// What an agent's value is before the first write.
    default: T,
}

impl<T: Clone + Default> PerAgent<T> {
    /// Default values for `agents` agents, not yet allocated.
    pub fn new(agents: usize) -> PerAgent<T> {
        PerAgent { values: Vec::new(), agents: agents as u32, default: T::default() }
    }

    /// The value of `agent`.
    pub fn get(&self, agent: usize) -> &T {
        self.values.get(agent).unwrap_or(&self.default)
    }

    /// The value of `agent`, to change (making every agent's value on the first write).
    pub fn get_mut(&mut self, agent: usize) -> &mut T {
        if self.values.is_empty() {
            self.values.resize(self.agents as usize, T::default());
        }
        &mut self.values[agent]
    }

    /// The value of `agent` to change, only if values were made already (so that taking a
    /// value that is still the default allocates nothing).
    pub fn existing_mut(&mut self, agent: usize) -> Option<&mut T> {
        self.values.get_mut(agent)
    }

    /// How many values are allocated (0 before the first write).
    pub fn capacity(&self) -> usize {
        self.values.capacity()
    }
}

impl<T: Clone> Clone for PerAgent<T> {
    fn clone(&self) -> Self {
        PerAgent { values: self.values.clone(), agents: self.agents, default: self.default.clone() }
    }

    // A snapshot restored into an existing detector reuses its buffer.
    fn clone_from(&mut self, source: &Self) {
        self.values.clone_from(&source.values);
        self.agents = source.agents;
        self.default.clone_from(&source.default);
    }
}

/// The detector's state: part of the machine, so snapshots and seeks carry it.
#[derive(Debug, Default)]
pub struct Races {
    pub enabled: bool,
    /// The work-group of each agent (work-items, then one copy engine per group). Fixed at
    /// launch, so the machine, its snapshots and the relaxed model share one list.
    pub agent_group: Rc<[u32]>,
    /// The device of each agent (all 0 but in litmus tests that place threads on devices;
    /// empty when all are 0). Fixed at launch, shared like `agent_group`.
    pub agent_device: Rc<[u32]>,
    /// How many agents are work-items (the rest are copy engines).
    pub work_items: u32,
    /// Each agent's own clock: the steps it has taken.
    pub clock: Vec<u32>,
    /// What each agent knows has happened before its next step, per address space: entry
    /// [`GLOBAL`] orders global accesses, entry [`LOCAL`] local ones.
    pub know: PerAgent<[Knowledge; SPACES]>,
    /// Releases an atomic read saw and did not learn, by the address space of the atomic's
    /// object, the memory they order and the distance from their releasers (see [`release`]),
    /// learned at the agent's next acquire fence that names both memories and whose scope
    /// reaches that far. Made at the agent's first such read.
    pub pending: PerAgent<Option<Box<Pending>>>,
    /// The agent's release fences, made at its first: they make its later atomic writes
    /// releases of the memory they named, publishing what it knew at the fence.
    pub fenced: PerAgent<Option<Box<Fenced>>>,
    /// Per agent and address space, its clock at its last release of that memory (a release
    /// atomic on it, or a release fence that named it; 0: none). Only explanations read it: a
    /// race whose first access was followed by releases of the other memory only is one of
    /// synchronising the wrong address space.
    pub released: PerAgent<[u32; SPACES]>,
    /// Global allocations that stand for local memory (a litmus test's locations declared
    /// `local`, kept in buffers every thread shares): they synchronise like local memory.
    pub local_allocs: Vec<u32>,
    /// The first work-item of each group, then the number of work-items: group `g`'s members
    /// are `group_first[g]..group_first[g + 1]`.
    pub group_first: Vec<u32>,
    /// Each group's barrier crossings, one row per barrier it passed, one entry per member
    /// in local order: a barrier appends one row to one vector, instead of one entry to
    /// each member's own list. A row never changes once made, so it is shared: a snapshot
    /// of the machine copies a pointer per row, not the row.
    pub crossings: Vec<Vec<std::rc::Rc<[Crossing]>>>,
    /// How many barriers each group has passed.
    pub barriers: Vec<u32>,
    /// Races found, one per pair of source locations, in the order found.
    pub records: Vec<RaceRecord>,
    index: std::collections::BTreeMap<(u32, u32, u32, u32), usize>,
    /// Scope mismatches found: (releasing event, acquiring event), not yet reported.
    pub scope_mismatches: Vec<(u32, u32)>,
    /// The memories (address space, owning group, allocation) in which a full word forgot
    /// accesses (see `shadow`), each once.
    forgetful: Vec<(u8, u32, u32)>,
    /// The access at which a memory first forgot, not yet reported.
    pub forgotten: Vec<u32>,
    /// Per agent and address space, what it would have learned had the scopes of the
    /// releases and acquires it met been wide enough (only explanations read it; kept for
    /// the few agents that met such a release).
    pub withheld: std::collections::BTreeMap<u32, [Knowledge; SPACES]>,
    /// Per agent and address space, what it would have learned had its acquires named the
    /// memory of the atomics they read through as well (only explanations read it).
    pub across: std::collections::BTreeMap<u32, [Knowledge; SPACES]>,
    /// Per agent and address space, its clock at its latest atomic write after a release
    /// fence that named that memory but not the atomic's own, so that the write published
    /// nothing of it (0: none; only explanations read it).
    pub unpublished: std::collections::BTreeMap<u32, [u32; SPACES]>,
    /// CUDA: synchronisation follows PTX, where morally strong `fence.sc`s synchronise in
    /// the order they ran. Every CUDA fence is a `fence.sc` and CUDA's atomics are relaxed, so
    /// every release through an atomic the PTX model allows (a fence, a strong write observed
    /// by a strong read, a fence, the fences morally strong) is already such an order, and the
    /// moral strength it asks of the write and read between the fences decides nothing more.
    pub ptx: bool,
    /// Under PTX, what the sequentially consistent fences so far published (`fence.sc`
    /// pairs that are morally strong synchronise in the order they ran).
    pub sc_fences: ScFences,
    /// What the device heap's `free` calls published, for later `malloc` calls.
    pub heap: Knowledge,
}

crate::reuse::clone_fields!(Races {
    enabled,
    agent_group,
    agent_device,
    work_items,
    clock,
    know,
    pending,
    fenced,
    released,
    local_allocs,
    group_first,
    crossings,
    barriers,
    records,
    index,
    scope_mismatches,
    forgetful,
    forgotten,
    withheld,
    across,
    unpublished,
    ptx,
    sc_fences,
    heap,
});

/// What PTX's sequentially consistent fences published, by the scope instance they reach:
/// a later such fence learns what every earlier one it is morally strong with knew.
#[derive(Clone, Debug, Default)]
pub struct ScFences {
    /// Every fence of the work-group (whatever its scope: it includes its own group).
    pub groups: std::collections::BTreeMap<u32, [Knowledge; SPACES]>,
    /// Every fence of device scope or wider, per device.
    pub devices: std::collections::BTreeMap<u32, [Knowledge; SPACES]>,
    /// Every fence of system scope.
    pub system: [Knowledge; SPACES],
}

/// What an agent's atomic reads saw for its later acquire fences: entry `[f][m][d]` is what
/// releases through atomics on objects of space `f` published of memory `m`, at distance (or
/// scope level) `d`.
pub type Pending = [[[Knowledge; LEVELS]; SPACES]; SPACES];

/// An agent's release fences, by the address space of the atomic that writes after them,
/// the memory they order and distance (see [`release`]).
///
/// A fence orders a memory through an atomic only when its flags name both that memory and
/// the atomic's own (Dat3M's `opencl.cat`: a release synchronises global memory when the
/// release, the location written and the acquire are all global, and through the other
/// memory's location only when both ends are fences naming both memories). So a fence that
/// names only `CLK_GLOBAL_MEM_FENCE` publishes nothing through an atomic on a local object.
#[derive(Clone, Debug, Default)]
pub struct Fenced {
    /// `[f][m][d]`: the agent's clock at its latest release fence whose flags named both the
    /// memory of space `f` and memory `m` and whose scope reaches distance `d` (0: none).
    pub clock: [[[u32; LEVELS]; SPACES]; SPACES],
    /// What the agent knew of memory `m` at that fence, kept once it has learned more since
    /// (`None`: it knows the same now). A fence releases what happened before it, not what
    /// its work-item learned afterwards.
    pub then: [[[Option<Knowledge>; LEVELS]; SPACES]; SPACES],
}

/// One shared-memory access to check.
#[derive(Clone, Copy, Debug)]
pub struct AccessInfo {
    pub agent: u32,
    pub space: Space,
    /// The work-group whose local memory it is (any value for other spaces).
    pub memory_group: u32,
    pub alloc: u32,
    pub offset: u64,
    pub size: u64,
    pub write: bool,
    /// An atomic access, with its order and scope.
    pub atomic: Option<(Order, Scope)>,
    /// Whether the write (if it is one) left the bytes as they were.
    pub same_value: bool,
    /// The bits a write stored or a read returned, its first byte lowest (bytes past the
    /// eighth are not kept).
    pub value: u64,
    /// Whether an atomic both reads and writes (so a relaxed one continues a release sequence).
    pub rmw: bool,
    /// Index its event has (or will have) in the log.
    pub event: u32,
    /// Its source location.
    pub span: crate::diag::Span,
}

impl Races {
    /// The detector of a launch of `work_items` work-items in `groups` groups, whose agents
    /// belong to the groups in `agent_group`. A disabled detector keeps no per-agent state at
    /// all: every entry point returns before reading it. An enabled one allocates only each
    /// agent's group and clock up front; what agents know, have pending, fenced and released
    /// is made at the first barrier, fence or atomic that changes it.
    pub fn new(enabled: bool, agent_group: Rc<[u32]>, work_items: u32, groups: usize) -> Races {
        if !enabled {
            return Races { enabled, work_items, ..Races::default() };
        }
        let agents = agent_group.len();
        // Work-items are numbered group by group.
        let mut group_first = vec![work_items; groups + 1];
        for (wi, &g) in agent_group.iter().enumerate().take(work_items as usize).rev() {
            group_first[g as usize] = wi as u32;
        }
        Races {
            enabled,
            agent_group,
            work_items,
            clock: vec![0; agents],
            know: PerAgent::new(agents),
            pending: PerAgent::new(agents),
            fenced: PerAgent::new(agents),
            released: PerAgent::new(agents),
            group_first,
            crossings: vec![Vec::new(); groups],
            barriers: vec![0; groups],
            ..Races::default()
        }
    }

    /// About how many bytes the per-agent state takes, for spacing snapshots: clocks count
    /// their lists once however many agents share them, and the agents' groups and devices
    /// not at all, since a snapshot shares them too.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let mut seen = std::collections::HashSet::new();
        let learned: usize = self.know.values.iter().flatten().filter_map(Knowledge::storage).filter(|&(at, _)| seen.insert(at)).map(|(_, bytes)| bytes).sum();
        learned
            + self.clock.capacity() * 4
            + self.know.capacity() * size_of::<[Knowledge; SPACES]>()
            + (self.pending.capacity() + self.fenced.capacity()) * size_of::<usize>()
            + self.released.capacity() * size_of::<[u32; SPACES]>()
            + self
                .crossings
                .iter()
                .map(|rows| size_of::<Vec<std::rc::Rc<[Crossing]>>>() + rows.capacity() * size_of::<std::rc::Rc<[Crossing]>>())
                .sum::<usize>()
            + self.group_first.capacity() * 4
            + self.barriers.capacity() * 4
    }

    /// An agent takes a step.
    pub fn tick(&mut self, agent: u32) {
        if self.enabled {
            self.clock[agent as usize] += 1;
        }
    }

    /// The index ([`GLOBAL`] or [`LOCAL`]) of the happens-before relation that orders an
    /// access to allocation `alloc` of `space`.
    pub fn sync_space(&self, space: Space, alloc: u32) -> usize {
        // A litmus test's `local` location lives in a global buffer but orders like local
        // memory, as in the relaxed model; outside litmus tests the list is empty.
        if space == Space::Local || (space == Space::Global && self.local_allocs.contains(&alloc)) {
            LOCAL
        } else {
            GLOBAL
        }
    }

    /// The first barrier after `agent`'s `clock`-th step at which `agent` fenced memory of
    /// space index `space`, as its number in the group's sequence of barriers. A barrier
    /// orders an access before whatever comes after it in the group when the work-item that
    /// made the access fenced that memory there (a fence releases what its own work-item did).
    fn fenced_barrier_after(&self, agent: u32, clock: u32, space: usize) -> Option<u32> {
        let track = self.track(agent);
        let bit = fence_bit(space) as u8;
        let from = track.partition_point(|c| c.clock < clock);
        (from..track.len()).find(|&k| track.get(k).flags & bit != 0).map(|k| k as u32 + 1)
    }

    /// Work-item `agent`'s crossings of its group's barriers.
    fn track(&self, agent: u32) -> Track<'_> {
        let g = self.agent_group[agent as usize] as usize;
        let first = self.group_first[g];
        Track { rows: &self.crossings[g], local: (agent - first) as usize }
    }

    /// How many of its group's barriers work-item `agent` passed (members pass every
    /// barrier until they finish).
    fn passed(&self, agent: u32) -> u32 {
        self.track(agent).partition_point(Crossing::crossed) as u32
    }

    /// How many of `group`'s barriers `agent` knows were passed, as far as memory of space
    /// index `space` is concerned: what it learned, and for its own group the barriers it
    /// passed itself (kept in its crossings rather than in its knowledge, so that a barrier
    /// does not have to rewrite every member's clock).
    fn known_barriers(&self, agent: u32, group: u32, space: usize) -> u32 {
        let learned = self.know.get(agent as usize)[space].group(group);
        if agent < self.work_items && self.agent_group[agent as usize] == group {
            let passed = self.passed(agent);
            if passed > 0 {
                return learned.max(passed);
            }
        }
        learned
    }

    /// What `agent` publishes of the memory of space index `space` when it releases that
    /// memory as of its `clock`-th step: what it knows of that memory, its own steps up to
    /// `clock`, and the barriers its group had passed by then.
    fn published(&self, agent: u32, space: usize, clock: u32) -> Knowledge {
        self.published_from(&self.know.get(agent as usize)[space], agent, clock)
    }

    /// [`Races::published`] for an agent that knew `base` of the memory at its `clock`-th
    /// step.
    fn published_from(&self, base: &Knowledge, agent: u32, clock: u32) -> Knowledge {
        let mut know = base.clone();
        know.learn_item(agent, clock);
        if agent < self.work_items {
            let passed = self.track(agent).partition_point(|c| c.clock <= clock);
            if passed > 0 {
                know.learn_group(self.agent_group[agent as usize], passed as u32);
            }
        }
        know
    }

    /// What `agent` publishes of every memory as of now (a `free`, or the start of an async
    /// copy or a wait for one, which order everything).
    fn published_all(&self, agent: u32) -> [Knowledge; SPACES] {
        let clock = self.clock[agent as usize];
        std::array::from_fn(|s| self.published(agent, s, clock))
    }

    /// What a write of `agent` releases, per distance of the acquirer and address space:
    /// of its atomic's own space `space`, when `direct` (a release order) everything up to
    /// now to acquirers within the atomic's scope level `level`; of the memory its earlier
    /// release fences named, what it knew at the latest fence that reaches each distance.
    /// `None` when it releases nothing.
    fn contribution(&self, agent: u32, space: usize, direct: bool, level: Level) -> Option<Contribution> {
        let a = agent as usize;
        let now = self.clock[a];
        let fenced = self.fenced.get(a).as_deref();
        let rule = self.inclusion();
        let upto = |s: usize, d: usize| -> u32 {
            if direct && s == space && rule.fills(level, d) {
                now
            } else {
                fenced.map_or(0, |f| f.clock[space][s][d])
            }
        };
        if (0..SPACES).all(|s| (0..LEVELS).all(|d| upto(s, d) == 0)) {
            return None;
        }
        let mut c: Contribution = Default::default();
        // Indices, not iterators: `c` is indexed by distance, then space, and a distance may
        // copy an earlier one's entry (`c[e][s]`).
        #[allow(clippy::needless_range_loop)]
        for s in 0..SPACES {
            for d in 0..LEVELS {
                let at = upto(s, d);
                if at == 0 {
                    continue;
                }
                // Distances released at the same step share what they publish.
                if let Some(e) = (0..d).find(|&e| upto(s, e) == at) {
                    c[d][s] = c[e][s].clone();
                    continue;
                }
                let then = if at == now { None } else { fenced.and_then(|f| f.then[space][s][d].as_ref()) };
                c[d][s] = self.published_from(then.unwrap_or(&self.know.get(a)[s]), agent, at);
            }
        }
        Some(c)
    }

    /// Before `agent` learns more of the memory of space index `space`: each release fence of
    /// that memory still in force keeps what the agent knew at it.
    fn before_learning(&mut self, agent: usize, space: usize) {
        let Some(f) = self.fenced.existing_mut(agent).and_then(|f| f.as_deref_mut()) else { return };
        let know = &self.know.get(agent)[space];
        for (clock, then) in f.clock.iter().zip(f.then.iter_mut()) {
            for d in 0..LEVELS {
                if clock[space][d] != 0 && then[space][d].is_none() {
                    then[space][d] = Some(know.clone());
                }
            }
        }
    }

    /// `agent` learns `what` of the memory of space index `space`.
    fn learn(&mut self, agent: usize, space: usize, what: &Knowledge) {
        if what.is_empty() {
            return;
        }
        self.before_learning(agent, space);
        self.know.get_mut(agent)[space].join(what);
    }

    /// `agent` would have learned `what` had scopes been wide enough (for explanations).
    fn withhold(&mut self, agent: u32, what: &[Knowledge; SPACES]) {
        join_entry(&mut self.withheld, agent, what);
    }

    /// `agent` would have learned `what` had the acquire (an atomic, or a fence) named the
    /// memory of the atomic it read through as well (for explanations).
    fn withhold_across(&mut self, agent: u32, what: &[Knowledge; SPACES]) {
        join_entry(&mut self.across, agent, what);
    }

    /// Whether `prev` happens before the current step of `agent`, for memory of space index
    /// `space`.
    fn ordered(&self, prev: Access, agent: u32, space: usize) -> bool {
        if prev.agent == agent {
            return true;
        }
        let know = &self.know.get(agent as usize)[space];
        if know.item(prev.agent) >= prev.clock {
            return true;
        }
        // Barriers order work-items only; copy engines are ordered through their waiters.
        if prev.agent >= self.work_items {
            return false;
        }
        let group = self.agent_group[prev.agent as usize];
        // Most words are touched by work-items whose group has passed no barrier yet.
        if self.barriers[group as usize] == 0 {
            return false;
        }
        match self.fenced_barrier_after(prev.agent, prev.clock, space) {
            Some(seq) => self.known_barriers(agent, group, space) >= seq,
            None => false,
        }
    }

    /// Checks one access against the shadow of its allocation and records it there.
    pub fn access(&mut self, shadow: &mut Shadow, log: &EventLog, a: AccessInfo) {
        if !self.enabled || !matches!(a.space, Space::Global | Space::Local) || a.size == 0 {
            return;
        }
        let clock = self.clock[a.agent as usize];
        let space = self.sync_space(a.space, a.alloc);
        let first_word = (a.offset / 4) as usize;
        let last_word = ((a.offset + a.size - 1) / 4) as usize;
        for word in first_word..=last_word {
            let lo = (word as u64 * 4).max(a.offset) - word as u64 * 4;
            let hi = ((word as u64 + 1) * 4).min(a.offset + a.size) - word as u64 * 4;
            let mask = (((1u16 << hi) - 1) & !((1u16 << lo) - 1)) as u8;
            let mut flags = 0;
            if let Some((_, sc)) = a.atomic {
                flags |= Access::ATOMIC | (sc.level().index() as u8) << Access::LEVEL_SHIFT;
            }
            if a.write {
                flags |= Access::WRITE;
                if a.same_value {
                    flags |= Access::SAME_VALUE;
                }
            }
            // The word's bytes of the value stored or read (only the first eight are known).
            let mut value = 0;
            for k in lo..hi {
                let at = word as u64 * 4 + k - a.offset;
                if at >= 8 {
                    flags |= Access::MIXED;
                } else {
                    value |= (((a.value >> (8 * at)) & 0xff) as u32) << (8 * k);
                }
            }
            let site = (a.span.start, a.span.end);
            let cur = Access { agent: a.agent, clock, event: a.event, site, value, mask, flags };
            let cell = shadow.cell(word);
            // Local memory is one copy per group; other memory is one copy for everyone.
            let owner = if a.space == Space::Local { a.memory_group } else { 0 };
            let key = (a.space as u8, owner, a.alloc, word as u64 * 4);
            // An acquire is ordered after what its release published, so it reads the release
            // before it is checked; it releases (and so continues or ends sequences) after.
            let sync = a.atomic.filter(|_| word == first_word);
            if let Some((ord, sc)) = sync {
                if !a.write || a.rmw {
                    if let Some(rel) = &cell.release {
                        self.observe(rel, a, space, sc.level(), ord.acquires());
                    }
                }
            }
            self.check_word(cell, cur, a, space, key, log);
            if let Some((ord, sc)) = sync {
                self.synchronise(cell, a, space, ord, sc);
            }
            if a.atomic.is_none() && a.write {
                self.plain_store(cell, a.agent);
            }
        }
    }

    /// The device of `agent` (0 unless a litmus test placed it on another).
    fn device(&self, agent: usize) -> u32 {
        self.agent_device.get(agent).copied().unwrap_or(0)
    }

    /// Whether agent `other` is within scope `level` of agent `agent`.
    fn within(&self, level: Level, agent: u32, other: u32) -> bool {
        match level {
            Level::Group => self.agent_group[agent as usize] == self.agent_group[other as usize],
            Level::Device => self.device(agent as usize) == self.device(other as usize),
            Level::System => true,
        }
    }

    /// How scopes must relate to synchronise: as PTX says for CUDA, as OpenCL 2.0 says
    /// otherwise.
    fn inclusion(&self) -> Inclusion {
        if self.ptx {
            Inclusion::Mutual
        } else {
            Inclusion::SameScope
        }
    }

    /// Whether two atomic accesses' scopes are inclusive: under OpenCL 2.0 the same scope,
    /// including both agents; under PTX each including the other's agent.
    fn inclusive(&self, a: Access, b: Access) -> bool {
        let mutual = self.within(a.level(), a.agent, b.agent) && self.within(b.level(), b.agent, a.agent);
        match self.inclusion() {
            Inclusion::SameScope => mutual && a.level() == b.level(),
            Inclusion::Mutual => mutual,
        }
    }

    /// The release side of an atomic at `cell`, on memory of space index `space` (its
    /// acquire side, [`Races::observe`], came before its check).
    fn synchronise(&mut self, cell: &mut Cell, a: AccessInfo, space: usize, ord: Order, sc: Scope) {
        let agent = a.agent as usize;
        let (my_group, my_device) = (self.agent_group[agent], self.device(agent));
        let direct = ord.releases();
        let level = sc.level();
        if a.write {
            if direct {
                self.released.get_mut(agent)[space] = self.clock[agent];
            }
            let c = self.contribution(a.agent, space, direct, level);
            self.note_unpublished(a.agent, space);
            if let Some(prev) = cell.release.as_deref_mut() {
                // A read-modify-write continues every release sequence it read from; a store
                // continues only those its own agent released (OpenCL 2.0, as C11).
                if !a.rmw {
                    prev.stored_by(a.agent);
                }
                if let Some(c) = c {
                    prev.add(c, a.agent, my_group, my_device, self.inclusion());
                    prev.event = a.event;
                }
                if prev.parts.is_empty() {
                    cell.release = None;
                }
            } else if let Some(c) = c {
                cell.release = Some(Box::new(Release::new(c, a.agent, my_group, my_device, a.event, self.inclusion())));
            }
        }
    }

    /// For explanations: an atomic write by `agent` to an object in memory of space index
    /// `space` after a release fence that named another memory but not this one publishes
    /// nothing of that memory.
    fn note_unpublished(&mut self, agent: u32, space: usize) {
        let Some(f) = self.fenced.get(agent as usize).as_deref() else { return };
        let now = self.clock[agent as usize];
        for memory in (0..SPACES).filter(|&m| m != space) {
            if (0..LEVELS).any(|d| f.clock[memory][memory][d] > f.clock[space][memory][d]) {
                self.unpublished.entry(agent).or_default()[memory] = now;
            }
        }
    }

    /// A plain store by `agent` to a word where a release was published: as C11 has it, a
    /// write of the release sequences `agent` released, which ends the others (an atomic
    /// read of its value synchronises with those).
    fn plain_store(&mut self, cell: &mut Cell, agent: u32) {
        let Some(rel) = cell.release.as_deref_mut() else { return };
        rel.stored_by(agent);
        if rel.parts.is_empty() {
            cell.release = None;
        }
    }

    /// Atomic read `a` (scope level `level`) of an object in memory of space index `space`
    /// reads from release `rel`. An acquire learns, of each part whose releasers its scope
    /// includes and whose reach includes it, what the part orders of the object's own memory;
    /// the rest waits, by distance, for a later acquire fence, as does all of a relaxed read's.
    fn observe(&mut self, rel: &Release, a: AccessInfo, space: usize, level: Level, acquire: bool) {
        let agent = a.agent as usize;
        let (my_group, my_device) = (self.agent_group[agent], self.device(agent));
        let (mut learned, mut held) = (false, false);
        let rule = self.inclusion();
        for part in &rel.parts {
            let d = part.distance(my_group, my_device);
            if d > part.reach as usize {
                // The release does not reach this reader.
                held = true;
                self.withhold(a.agent, &part.know);
                continue;
            }
            let direct = acquire && rule.acquires(part.reach as usize, d, level);
            // Under OpenCL an acquire atomic orders the memory of its own object only (Dat3M's
            // `opencl.cat`: the acquire is global or local after its location), so what the
            // releaser's fences published of the other memory needs an acquire fence naming
            // both memories. PTX has one order for all memory.
            let ptx = self.ptx;
            let learns = |s: usize| direct && (ptx || s == space);
            if direct {
                for s in (0..SPACES).filter(|&s| learns(s)) {
                    self.learn(agent, s, &part.know[s]);
                }
                learned = true;
                // Kept for explanations, only when there is something (most releases publish
                // one memory, and an acquire in a spin loop should not copy it).
                if part.know.iter().enumerate().any(|(s, k)| !learns(s) && !k.is_empty()) {
                    let mut other = part.know.clone();
                    for (s, k) in other.iter_mut().enumerate() {
                        if learns(s) {
                            *k = Knowledge::default();
                        }
                    }
                    self.withhold_across(a.agent, &other);
                }
            } else if acquire {
                // An acquire whose scope does not include the releaser: an acquire fence
                // after it whose scope does may still learn it.
                held = true;
                self.withhold(a.agent, &part.know);
            }
            if part.know.iter().enumerate().any(|(s, k)| !learns(s) && !k.is_empty()) {
                let pending = self.pending.get_mut(agent).get_or_insert_with(Default::default);
                let slot = rule.pending_slot(part.reach as usize, d);
                for (s, know) in part.know.iter().enumerate() {
                    if !learns(s) {
                        pending[space][s][slot].join(know);
                    }
                }
            }
        }
        if acquire && held && !learned {
            self.scope_mismatches.push((rel.event, a.event));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn record(&mut self, prev: Access, cur: Access, kind: RaceKind, benign: bool, a: AccessInfo, space: usize, key: (u8, u32, u32, u64), log: &EventLog) {
        let Some(p) = log.get(prev.event as usize) else { return };
        // One finding per pair of source locations, whichever of the two came first.
        let (x, y) = ((p.span.start, p.span.end), (a.span.start, a.span.end));
        let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
        let pair = (lo.0, lo.1, hi.0, hi.1);
        let memory = if a.space == Space::Local { RaceMemory::Local } else { RaceMemory::Global };
        let k = match self.index.get(&pair) {
            Some(&k) => k,
            None => {
                let why = if prev.is_atomic() && cur.is_atomic() {
                    match self.inclusion() {
                        Inclusion::Mutual => "atomic accesses race when their scopes do not include each other: memory_scope_work_group reaches only the work-item's own work-group, memory_scope_device only its own device",
                        Inclusion::SameScope if prev.level() != cur.level() => "atomic accesses race unless both name the same scope and it includes both work-items (OpenCL 2.0's inclusive scopes): one at memory_scope_work_group and one at memory_scope_device race even within one work-group",
                        Inclusion::SameScope => "atomic accesses race unless both name the same scope and it includes both work-items (OpenCL 2.0's inclusive scopes): memory_scope_work_group reaches only the work-item's own work-group, memory_scope_device only its own device",
                    }
                } else {
                    self.explain(prev, a.agent, space)
                };
                self.records.push(RaceRecord {
                    first: prev.event,
                    second: cur.event,
                    kind,
                    memory,
                    benign,
                    why,
                    words: Default::default(),
                    finding: None,
                    dirty: true,
                });
                self.index.insert(pair, self.records.len() - 1);
                self.records.len() - 1
            }
        };
        let r = &mut self.records[k];
        if !benign && r.benign {
            r.benign = false;
            r.dirty = true;
        }
        if kind == RaceKind::WriteWrite && r.kind != kind {
            r.kind = kind;
            r.dirty = true;
        }
        if r.words.len() < MAX_WORDS_COUNTED && r.words.insert(key) {
            r.dirty = true;
        }
    }

    /// What synchronisation would have ordered `prev` before the current step of `agent`, for
    /// memory of space index `space`.
    fn explain(&self, prev: Access, agent: u32, space: usize) -> &'static str {
        let engine = |a: u32| a >= self.work_items;
        if engine(prev.agent) || engine(agent) {
            return "an async copy's elements are ordered only at wait_group_events, and for the rest of the group by a barrier after it";
        }
        let (g1, g2) = (self.agent_group[prev.agent as usize], self.agent_group[agent as usize]);
        // Ordered, had the scopes of the releases and acquires between them been wide enough.
        if let Some(w) = self.withheld.get(&agent) {
            let w = &w[space];
            let by_barrier = self.fenced_barrier_after(prev.agent, prev.clock, space).is_some_and(|seq| w.group(g1) >= seq);
            if w.item(prev.agent) >= prev.clock || by_barrier {
                return "the synchronisation between them is scoped too narrowly: a release or acquire (an atomic, or a fence such as mem_fence or __threadfence_block) at work-group scope orders only work-items of its own work-group, one at device scope only those of its device; both sides need a scope that includes the other";
            }
        }
        // Ordered, had the acquire named the memory of the atomic it read through as well.
        if self.across.get(&agent).is_some_and(|w| w[space].item(prev.agent) >= prev.clock) {
            return if space == LOCAL {
                "the release that would order them was read through an atomic on a global object: an acquire atomic orders only the memory of its own object, and an acquire fence orders local memory through a global atomic only if its flags name both memories (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)"
            } else {
                "the release that would order them was read through an atomic on a local object: an acquire atomic orders only the memory of its own object, and an acquire fence orders global memory through a local atomic only if its flags name both memories (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)"
            };
        }
        // The first access's work-item fenced this memory, then published through an atomic
        // of the other memory, which a fence naming this memory alone does not reach.
        if self.unpublished.get(&prev.agent).is_some_and(|u| u[space] > prev.clock) {
            return if space == LOCAL {
                "after the first access its work-item fenced local memory and then wrote an atomic on a global object, which publishes local memory only after a fence whose flags name both memories (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE), and only to an acquire fence naming both"
            } else {
                "after the first access its work-item fenced global memory and then wrote an atomic on a local object, which publishes global memory only after a fence whose flags name both memories (CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE), and only to an acquire fence naming both"
            };
        }
        if g1 == g2 {
            // A barrier between them that the first work-item passed without fencing this
            // memory.
            let known = self.known_barriers(agent, g1, space);
            let track = self.track(prev.agent);
            let from = track.partition_point(|c| c.clock < prev.clock);
            // Barrier numbers rise with the entries: only the first one after the access can
            // be one the current work-item knows of.
            let first_after = (from < track.len()).then(|| track.get(from)).filter(|c| c.crossed() && (from as u32) < known);
            if let Some(c) = first_after {
                return match (space, c.flags as u64 & (fence::LOCAL | fence::GLOBAL)) {
                    (_, 0) => "the barrier between them was given no fence flags by the first access's work-item, so it orders no memory",
                    (LOCAL, _) => "the barrier between them fences only global memory for the first access's work-item; local memory needs CLK_LOCAL_MEM_FENCE",
                    _ => "the barrier between them fences only local memory for the first access's work-item (CLK_LOCAL_MEM_FENCE); global memory needs CLK_GLOBAL_MEM_FENCE",
                };
            }
        }
        // Ordered for the other memory but not for this one: the synchronisation between them
        // covered the wrong address space.
        let other = if space == LOCAL { GLOBAL } else { LOCAL };
        if self.ordered(prev, agent, other) {
            return if space == LOCAL {
                "the synchronisation between them orders only global memory: a release/acquire atomic orders the memory of its own address space, and a fence or barrier only the memory its flags name (local memory needs a local atomic or CLK_LOCAL_MEM_FENCE)"
            } else {
                "the synchronisation between them orders only local memory: a release/acquire atomic on a local object orders local memory only, and a fence or barrier only the memory its flags name (global memory needs a global atomic or CLK_GLOBAL_MEM_FENCE)"
            };
        }
        // The first access's work-item released only the other memory after it, so nothing
        // that follows its releases can be ordered after this access.
        let released = *self.released.get(prev.agent as usize);
        if released[space] < prev.clock && released[other] > prev.clock {
            return if space == LOCAL {
                "after the first access its work-item released only global memory (an atomic on a global object, or a fence naming only CLK_GLOBAL_MEM_FENCE), which does not order local memory"
            } else {
                "after the first access its work-item released only local memory (an atomic on a local object, or a fence naming only CLK_LOCAL_MEM_FENCE), which does not order global memory: a release/acquire chain orders global memory only through global atomics or fences naming CLK_GLOBAL_MEM_FENCE"
            };
        }
        if g1 != g2 {
            return "work-items of different work-groups are ordered only by an atomic release read by an atomic acquire at device scope (OpenCL 1.x and CUDA atomics are relaxed and need fences for that); a barrier orders its own group only";
        }
        "no barrier between these accesses, and no atomic release read by an atomic acquire (OpenCL 1.x and CUDA atomics are relaxed and need fences for that)"
    }

    /// Whether the barrier that `members` (each with the fence flags it gave) just passed
    /// orders every access the group's work-items made to its local memory before every
    /// access to come: each of the group's work-items passed it (none had finished) fencing
    /// local memory. Such accesses cannot race with a later one, so their shadow may forget
    /// them ([`shadow::Shadow::forget_accesses`]); the caller checks that no other agent (an
    /// async copy) touched that memory.
    pub fn barrier_orders_local(&self, group: u32, members: &[(u32, u64)]) -> bool {
        if !self.enabled {
            return false;
        }
        let size = self.group_first[group as usize + 1] - self.group_first[group as usize];
        members.len() == size as usize && members.iter().all(|&(_, flags)| flags & fence::LOCAL != 0)
    }

    /// The group's members pass a barrier (or a collective that is one), each with the fence
    /// flags it gave.
    pub fn barrier(&mut self, group: u32, members: &[(u32, u64)]) {
        if !self.enabled {
            return;
        }
        self.barriers[group as usize] += 1;
        // One new row of the group's table: members that had finished keep `NONE`.
        let first = self.group_first[group as usize];
        let size = (self.group_first[group as usize + 1] - first) as usize;
        let mut row = vec![Crossing::NONE; size];
        for &(m, flags) in members {
            let clock = self.clock[m as usize];
            row[(m - first) as usize] = Crossing { clock, flags: (flags & (fence::LOCAL | fence::GLOBAL)) as u8 };
        }
        self.crossings[group as usize].push(row.into());
        // Each member's barrier is an acquire and release of the memory its flags name: what
        // the members knew of that memory, everyone who fenced it learns. A barrier that
        // fences no memory synchronises execution only: nothing is learned.
        for space in 0..SPACES {
            let bit = fence_bit(space);
            if members.iter().all(|&(_, f)| f & bit == 0) {
                continue;
            }
            let mut joined = Knowledge::default();
            // The clock joined last: the lanes of a warp often share theirs, and joining it
            // again would compare every entry to learn nothing.
            let mut last = Knowledge::default();
            for &(m, f) in members {
                let know = &self.know.get(m as usize)[space];
                if f & bit != 0 && !know.is_empty() && !know.shares(&last) {
                    joined.join(know);
                    last = know.clone();
                }
            }
            // Nobody that fenced this memory knew anything of it: there is nothing to share.
            if joined.is_empty() {
                continue;
            }
            for &(m, f) in members {
                // Usually every member already knows the same: then nothing is copied.
                if f & bit != 0 && self.know.get(m as usize)[space] != joined {
                    self.before_learning(m as usize, space);
                    self.know.get_mut(m as usize)[space].clone_from(&joined);
                }
            }
        }
        // What scopes kept from a member passes on like what it learned (for explanations).
        if !self.withheld.is_empty() {
            for space in 0..SPACES {
                let bit = fence_bit(space);
                let mut joined = Knowledge::default();
                for &(m, f) in members {
                    if let Some(w) = self.withheld.get(&m).filter(|_| f & bit != 0) {
                        joined.join(&w[space]);
                    }
                }
                if joined.is_empty() {
                    continue;
                }
                for &(m, f) in members {
                    if f & bit != 0 {
                        self.withheld.entry(m).or_default()[space].join(&joined);
                    }
                }
            }
        }
    }

    /// The lanes of a warp synchronise (`__syncwarp`): each learns every lane's steps so far.
    pub fn warp_sync(&mut self, members: &[u32]) {
        if !self.enabled {
            return;
        }
        // CUDA's `__syncwarp` orders all memory the lanes access, shared memory included.
        for space in 0..SPACES {
            // What the lanes knew first, then their own steps: after a sync every lane
            // shares one clock, so the joins find it equal and copy nothing.
            let mut joined = Knowledge::default();
            for &m in members {
                joined.join(&self.know.get(m as usize)[space]);
            }
            for &m in members {
                joined.learn_item(m, self.clock[m as usize]);
            }
            for &m in members {
                self.before_learning(m as usize, space);
                self.know.get_mut(m as usize)[space].clone_from(&joined);
            }
        }
    }

    /// A fence, for the memory its flags name (`CLK_LOCAL_MEM_FENCE`, `CLK_GLOBAL_MEM_FENCE`
    /// or both; CUDA's `__threadfence*` name both) and within its scope (OpenCL 1.x's
    /// `mem_fence` has work-group scope, as OpenCL 2.0 defines it; `__threadfence_block` the
    /// block's): a release fence makes the agent's later atomic writes releases of that
    /// memory, as of the fence, to acquirers its scope includes; an acquire fence learns what
    /// its relaxed atomic reads saw of that memory from releasers its scope includes.
    pub fn fence(&mut self, agent: u32, flags: u64) {
        if !self.enabled {
            return;
        }
        let (ord, level) = fence::order_and_level(flags);
        let a = agent as usize;
        if self.ptx && ord == Order::SeqCst && a < self.work_items as usize {
            self.sc_fence(agent, level);
        }
        let named = |s: usize| flags & fence_bit(s) != 0;
        let rule = self.inclusion();
        if ord.acquires() {
            // Of each memory the fence names, it learns what atomics on objects of a memory it
            // also names saw from releasers its scope reaches; the rest stays pending, for a
            // wider fence or one that names both memories.
            let mut learned: [Knowledge; SPACES] = Default::default();
            let mut far: [Knowledge; SPACES] = Default::default();
            let mut across: [Knowledge; SPACES] = Default::default();
            if let Some(pending) = self.pending.existing_mut(a).and_then(|p| p.as_deref_mut()) {
                for (via, of_via) in pending.iter_mut().enumerate() {
                    for (memory, of_memory) in of_via.iter_mut().enumerate().filter(|&(m, _)| named(m)) {
                        for (d, here) in of_memory.iter_mut().enumerate().filter(|(_, k)| !k.is_empty()) {
                            if !rule.fills(level, d) {
                                far[memory].join(here);
                            } else if named(via) {
                                learned[memory].join(&std::mem::take(here));
                            } else {
                                across[memory].join(here);
                            }
                        }
                    }
                }
            }
            for (memory, k) in learned.iter().enumerate() {
                self.learn(a, memory, k);
            }
            self.withhold(agent, &far);
            self.withhold_across(agent, &across);
        }
        if ord.releases() {
            let now = self.clock[a];
            let f = self.fenced.get_mut(a).get_or_insert_with(Default::default);
            for (via, memory) in (0..SPACES).flat_map(|f| (0..SPACES).map(move |m| (f, m))) {
                if !(named(via) && named(memory)) {
                    continue;
                }
                for d in (0..LEVELS).filter(|&d| rule.fills(level, d)) {
                    f.clock[via][memory][d] = now;
                    f.then[via][memory][d] = None;
                }
            }
            for memory in (0..SPACES).filter(|&m| named(m)) {
                self.released.get_mut(a)[memory] = now;
            }
        }
    }

    /// PTX's `fence.sc` (`__threadfence_block`, `__threadfence`, `__threadfence_system`) at
    /// scope level `level`: morally strong pairs of them are ordered in the order they ran
    /// ("sync_fence" in the PTX model), so this one learns what every earlier fence it is
    /// morally strong with knew (those of its group; of its device, for device scope or
    /// wider; all system-scope ones, for system scope) and publishes what it knows.
    fn sc_fence(&mut self, agent: u32, level: Level) {
        let a = agent as usize;
        let (group, device) = (self.agent_group[a], self.device(a));
        let mut earlier: [Knowledge; SPACES] = Default::default();
        let sources = [
            self.sc_fences.groups.get(&group),
            self.sc_fences.devices.get(&device).filter(|_| level >= Level::Device),
            Some(&self.sc_fences.system).filter(|_| level >= Level::System),
        ];
        for known in sources.into_iter().flatten() {
            for (e, k) in earlier.iter_mut().zip(known.iter()) {
                e.join(k);
            }
        }
        for (s, k) in earlier.iter().enumerate() {
            self.learn(a, s, k);
        }
        let mine = self.published_all(agent);
        let join = |into: &mut [Knowledge; SPACES]| {
            for (i, k) in into.iter_mut().zip(mine.iter()) {
                i.join(k);
            }
        };
        join(self.sc_fences.groups.entry(group).or_default());
        if level >= Level::Device {
            join(self.sc_fences.devices.entry(device).or_default());
        }
        if level >= Level::System {
            join(&mut self.sc_fences.system);
        }
    }

    /// The release a relaxed write promised now by `agent` to allocation `alloc` of `space`
    /// makes (relaxed model): what it knows, when a release fence before makes its relaxed
    /// writes releases.
    pub fn promise_release(&self, agent: u32, space: Space, alloc: u32, level: Level, event: u32) -> Option<Box<Release>> {
        if !self.enabled {
            return None;
        }
        // A relaxed write releases only what the fences before it named.
        let c = self.contribution(agent, self.sync_space(space, alloc), false, level)?;
        let group = self.agent_group[agent as usize];
        let device = self.device(agent as usize);
        Some(Box::new(Release::new(c, agent, group, device, event, self.inclusion())))
    }

    /// `free`: what the freeing agent did with the block happens before any later `malloc`
    /// that hands it out again, as a thread-safe allocator guarantees.
    pub fn heap_free(&mut self, agent: u32) {
        if !self.enabled {
            return;
        }
        // The allocator orders the block whichever memory it is used as: global memory.
        let know = self.published(agent, GLOBAL, self.clock[agent as usize]);
        self.heap.join(&know);
    }

    /// `malloc`: learns what every earlier `free` published.
    pub fn heap_malloc(&mut self, agent: u32) {
        if self.enabled && !self.heap.is_empty() {
            let heap = std::mem::take(&mut self.heap);
            self.learn(agent as usize, GLOBAL, &heap);
            self.heap = heap;
        }
    }

    /// `to` learns everything `from` did and knew (an async copy started by `from`, or a wait
    /// on the copy engine `from`).
    pub fn learn_from(&mut self, to: u32, from: u32) {
        if !self.enabled {
            return;
        }
        let know = self.published_all(from);
        for (s, theirs) in know.iter().enumerate() {
            self.learn(to as usize, s, theirs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PerAgent;

    #[test]
    fn per_agent_values_are_defaults_until_the_first_write_makes_them_all() {
        let mut values: PerAgent<[u32; 2]> = PerAgent::new(4);
        assert_eq!((*values.get(3), values.capacity()), ([0, 0], 0));
        assert!(values.existing_mut(1).is_none(), "taking a default allocates nothing");
        values.get_mut(2)[1] = 7;
        assert!(values.capacity() >= 4);
        assert_eq!([*values.get(0), *values.get(2), *values.get(3)], [[0, 0], [0, 7], [0, 0]]);
        let mut copy = PerAgent::new(0);
        copy.clone_from(&values);
        assert_eq!(*copy.get(2), [0, 7]);
    }
}
