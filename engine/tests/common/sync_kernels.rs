//! Kernels correct by construction, and the same kernels with one synchronisation broken.
//!
//! From a stream of choices ([`Choices`], as the well-typed kernel generator takes them),
//! [`spec`] picks a synchronisation pattern, a dialect (OpenCL C 2.0 or CUDA) and a launch of
//! one or several groups; [`Spec::scenario`] writes the kernel:
//!
//! - **locks**: a spin lock around a plain increment of a shared counter, taken by one
//!   work-item per warp (a lock contended within a warp hangs under SIMT without independent
//!   thread scheduling, which is a true verdict, not the one tested here). OpenCL: an
//!   `atomic_flag` test-and-set and clear, or a compare-exchange (strong or weak) or exchange
//!   of 0 to 1 and a release by exchange or store, each with acquire and release orders or
//!   relaxed and fenced by `atomic_work_item_fence`, all at device scope. CUDA: `atomicCAS`
//!   or `atomicExch` with `__threadfence()` after taking and before giving back;
//! - **barriers**: every work-item hands a value to its neighbour through local or global
//!   memory, rounds apart, with `barrier` fencing that memory or `__syncthreads()`;
//! - **message passing**: the first work-item writes data and raises a flag with release
//!   (or a release fence and a relaxed store; CUDA: `__threadfence()` and `atomicExch`), the
//!   last spins on it with acquire (or relaxed and an acquire fence) and reads the data;
//! - **compare-exchange retry loops**, weak or strong: every work-item adds one to a counter.
//!
//! Each kernel's result is known ([`Spec::holds`]): the counter counts every increment, every
//! work-item ends with its neighbours' values, the reader reads the data. [`Spec::breaks`]
//! lists the single breakages that apply: [`Break::RemoveSync`] takes away one
//! synchronisation (a release becomes relaxed or loses its fence, a barrier or fence goes, a
//! compare-exchange becomes a load and a store) and [`Break::NarrowScope`] narrows one scope
//! below what the pattern needs (work-group scope, or a block fence, across groups; a barrier
//! that fences the other memory; a warp barrier where the block's is needed). A broken kernel
//! must show a data race, a scope mismatch, lock misuse or a wrong result in some execution.
//!
//! The same generator serves the engine's property tests (`tests/sync_kernels.rs`, choices
//! from a seeded generator) and the `typed` fuzz target (choices from the fuzzer's bytes),
//! which includes this file by path.
// Each test binary uses part of this module; the rest is not dead, only unused there.
#![allow(dead_code)]

use super::generate::Choices;
use std::collections::BTreeMap;

use interleave_engine::scenario::{ArgBinding, Dialect, MemoryModel, Number, Scenario, SchedulerKind};

/// The kernel language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    OpenCl,
    Cuda,
}

/// How a lock is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acquire {
    /// `atomic_flag_test_and_set` (OpenCL), released by `atomic_flag_clear`.
    TestAndSet,
    /// A strong compare-exchange of 0 to 1 (`atomicCAS` in CUDA).
    CasStrong,
    /// A weak compare-exchange of 0 to 1, retried (OpenCL).
    CasWeak,
    /// An exchange of 1 until it returns 0 (`atomicExch` in CUDA).
    Exchange,
}

/// How a lock is given back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    Clear,
    Store,
    Exchange,
}

/// The synchronisation pattern of a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// A spin lock around a plain increment of `data[0]`, taken `rounds` times by one
    /// work-item per warp; `fenced`: relaxed atomics ordered by fences (always so in CUDA).
    Lock { acquire: Acquire, release: Release, fenced: bool },
    /// Each work-item hands a value to its neighbour, `rounds` times, through local memory
    /// (`local`) or its group's part of `data`, across barriers.
    Barrier { local: bool },
    /// The first work-item writes `rounds` words of `data` and raises `sync[0]`; the last
    /// waits for it and copies them to `out`.
    MessagePassing { fenced: bool },
    /// Every work-item adds one to `sync[0]`, `rounds` times, with a compare-exchange loop.
    CasLoop { weak: bool },
}

/// One synchronisation broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Break {
    /// One synchronisation taken away.
    RemoveSync,
    /// One scope narrowed below what the pattern needs.
    NarrowScope,
}

/// A generated kernel and launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub language: Language,
    pub pattern: Pattern,
    pub groups: u64,
    pub group_size: u64,
    /// Work-items per warp (sub-group); lock contenders are each warp's first.
    pub warp_size: u64,
    pub rounds: u32,
}

/// Picks a pattern, dialect and launch from `choices`.
pub fn spec(choices: &mut dyn Choices) -> Spec {
    let language = if choices.pick(2) == 0 { Language::OpenCl } else { Language::Cuda };
    let pattern = match choices.pick(4) {
        0 => {
            let (acquire, release) = match language {
                Language::OpenCl => {
                    let acquire = [Acquire::TestAndSet, Acquire::CasStrong, Acquire::CasWeak, Acquire::Exchange][choices.pick(4) as usize];
                    let release = if acquire == Acquire::TestAndSet {
                        Release::Clear
                    } else if choices.pick(2) == 0 {
                        Release::Store
                    } else {
                        Release::Exchange
                    };
                    (acquire, release)
                }
                Language::Cuda => ([Acquire::CasStrong, Acquire::Exchange][choices.pick(2) as usize], Release::Exchange),
            };
            let fenced = language == Language::Cuda || choices.pick(2) == 0;
            Pattern::Lock { acquire, release, fenced }
        }
        1 => Pattern::Barrier { local: choices.pick(2) == 0 },
        2 => Pattern::MessagePassing { fenced: language == Language::Cuda || choices.pick(2) == 0 },
        // CUDA has only the strong compare-exchange.
        _ => Pattern::CasLoop { weak: language == Language::OpenCl && choices.pick(2) == 0 },
    };
    let groups = 1 + choices.pick(3) as u64;
    let mut group_size = [1u64, 2, 4][choices.pick(3) as usize];
    // Message passing needs two work-items.
    if matches!(pattern, Pattern::MessagePassing { .. }) && groups * group_size < 2 {
        group_size = 2;
    }
    let warp_size = [1u64, 2, 4][choices.pick(3) as usize];
    let rounds = 1 + choices.pick(2);
    Spec { language, pattern, groups, group_size, warp_size, rounds }
}

impl Spec {
    /// Work-items in the launch.
    pub fn work_items(&self) -> u64 {
        self.groups * self.group_size
    }

    /// Work-items that take the lock: the first of each warp.
    fn contenders(&self) -> u64 {
        self.groups * self.group_size.div_ceil(self.warp_size)
    }

    /// The breakages that apply: each must be seen in some execution.
    pub fn breaks(&self) -> Vec<Break> {
        let across_groups = match self.pattern {
            Pattern::Lock { .. } => self.groups > 1,
            Pattern::MessagePassing { .. } => self.groups > 1,
            Pattern::CasLoop { .. } => self.groups > 1,
            // A barrier's narrowing is within the group: the other memory, or a warp's barrier
            // where the group is larger than a warp.
            Pattern::Barrier { .. } => self.group_size > 1 && (self.language == Language::OpenCl || self.group_size > self.warp_size),
        };
        let mut out = Vec::new();
        let concurrent = match self.pattern {
            Pattern::Lock { .. } => self.contenders() > 1,
            Pattern::Barrier { .. } => self.group_size > 1,
            Pattern::MessagePassing { .. } => true,
            Pattern::CasLoop { .. } => self.work_items() > 1,
        };
        if concurrent {
            out.push(Break::RemoveSync);
        }
        if across_groups && concurrent {
            out.push(Break::NarrowScope);
        }
        out
    }

    /// A short description for messages.
    pub fn describe(&self) -> String {
        format!(
            "{:?} {:?}, {} group(s) of {}, warps of {}, {} round(s)",
            self.language, self.pattern, self.groups, self.group_size, self.warp_size, self.rounds
        )
    }

    /// The kernel, with `broken` applied, under `model` and `scheduler`.
    pub fn scenario(&self, broken: Option<Break>, model: MemoryModel, scheduler: SchedulerKind) -> Scenario {
        let source = match self.language {
            Language::OpenCl => self.opencl(broken),
            Language::Cuda => self.cuda(broken),
        };
        let (name, dialect) = match self.language {
            Language::OpenCl => ("sync.cl", Dialect::OpenCl),
            Language::Cuda => ("sync.cu", Dialect::Cuda),
        };
        let mut s = Scenario::new(source, name, dialect);
        s.launch.global = vec![self.work_items()];
        s.launch.local = Some(vec![self.group_size]);
        let words = self.work_items().max(self.rounds as u64).max(4);
        s.args = [format!("data=int[{words}]:fill=0"), format!("out=int[{words}]:fill=0"), "sync=int[4]:fill=0".to_string()]
            .iter()
            .map(|a| ArgBinding::parse(a).expect("a valid generated argument"))
            .collect();
        s.warp_size = self.warp_size as u32;
        s.memory_model = model;
        s.scheduler = scheduler;
        s.max_steps = 20_000;
        s
    }

    /// Whether final buffers (by parameter name, as an exploration's outcome gives them) are
    /// the kernel's result.
    pub fn holds(&self, values: &BTreeMap<String, Vec<Option<Number>>>) -> bool {
        let value = |buffer: &str, i: usize| match values.get(buffer).and_then(|v| v.get(i)).copied().flatten() {
            Some(Number::Int(v)) => Some(v),
            Some(Number::UInt(v)) => Some(v as i64),
            _ => None,
        };
        let rounds = self.rounds as i64;
        match self.pattern {
            Pattern::Lock { .. } => value("data", 0) == Some(self.contenders() as i64 * rounds),
            Pattern::CasLoop { .. } => value("sync", 0) == Some(self.work_items() as i64 * rounds),
            Pattern::MessagePassing { .. } => (0..self.rounds as usize).all(|r| value("out", r) == Some(42 + r as i64)),
            Pattern::Barrier { .. } => {
                let n = self.group_size as i64;
                (0..self.work_items() as i64).all(|gid| {
                    let base = gid - gid % n;
                    // Every work-item of the group holds gid + 1, then adds its neighbour's.
                    let mut v: Vec<i64> = (0..n).map(|l| base + l + 1).collect();
                    for _ in 0..rounds {
                        v = (0..n).map(|l| v[l as usize] + v[((l + 1) % n) as usize]).collect();
                    }
                    value("out", gid as usize) == Some(v[(gid % n) as usize])
                })
            }
        }
    }

    fn opencl(&self, broken: Option<Break>) -> String {
        let narrow = broken == Some(Break::NarrowScope);
        let remove = broken == Some(Break::RemoveSync);
        let scope = if narrow { "memory_scope_work_group" } else { "memory_scope_device" };
        let rounds = self.rounds;
        let mut k = String::new();
        let sync_type = if matches!(self.pattern, Pattern::Lock { acquire: Acquire::TestAndSet, .. }) { "atomic_flag" } else { "atomic_int" };
        k.push_str(&format!("__kernel void k(__global int *data, __global int *out, volatile __global {sync_type} *sync)\n{{\n"));
        k.push_str("    int gid = get_global_id(0);\n    int lid = get_local_id(0);\n");
        match self.pattern {
            Pattern::Lock { acquire, release, fenced } => {
                let (take, give) = if fenced { ("memory_order_relaxed", "memory_order_relaxed") } else { ("memory_order_acquire", "memory_order_release") };
                // Breaking the release: relaxed, or its fence gone.
                let give = if remove && !fenced { "memory_order_relaxed" } else { give };
                k.push_str(&format!("    if (get_sub_group_local_id() == 0) {{\n        for (int r = 0; r < {rounds}; r++) {{\n"));
                let taking = match acquire {
                    Acquire::TestAndSet => format!("            while (atomic_flag_test_and_set_explicit(&sync[0], {take}, {scope})) {{\n            }}\n"),
                    Acquire::CasStrong | Acquire::CasWeak => {
                        let strength = if acquire == Acquire::CasWeak { "weak" } else { "strong" };
                        format!(
                            "            int expected = 0;\n            while (!atomic_compare_exchange_{strength}_explicit(&sync[0], &expected, 1, {take}, memory_order_relaxed, {scope}))\n                expected = 0;\n"
                        )
                    }
                    Acquire::Exchange => format!("            while (atomic_exchange_explicit(&sync[0], 1, {take}, {scope}) != 0) {{\n            }}\n"),
                };
                k.push_str(&taking);
                if fenced {
                    k.push_str(&format!("            atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, {scope});\n"));
                }
                k.push_str("            data[0] = data[0] + 1;\n");
                if fenced && !remove {
                    k.push_str(&format!("            atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, {scope});\n"));
                }
                let giving = match release {
                    Release::Clear => format!("            atomic_flag_clear_explicit(&sync[0], {give}, {scope});\n"),
                    Release::Store => format!("            atomic_store_explicit(&sync[0], 0, {give}, {scope});\n"),
                    Release::Exchange => format!("            atomic_exchange_explicit(&sync[0], 0, {give}, {scope});\n"),
                };
                k.push_str(&giving);
                k.push_str("        }\n    }\n");
            }
            Pattern::Barrier { local } => {
                let n = self.group_size;
                // Narrowing a barrier: it fences the other memory.
                let fences_local = local != narrow;
                let flags = if fences_local { "CLK_LOCAL_MEM_FENCE" } else { "CLK_GLOBAL_MEM_FENCE" };
                if local {
                    k.push_str(&format!("    __local int tmp[{n}];\n"));
                }
                let slot = |i: &str| if local { format!("tmp[{i}]") } else { format!("data[gid - lid + {i}]") };
                k.push_str(&format!("    int v = gid + 1;\n    for (int r = 0; r < {rounds}; r++) {{\n"));
                k.push_str(&format!("        {} = v;\n", slot("lid")));
                if !remove {
                    k.push_str(&format!("        barrier({flags});\n"));
                }
                k.push_str(&format!("        v = v + {};\n", slot(&format!("(lid + 1) % {n}"))));
                k.push_str(&format!("        barrier({flags});\n    }}\n    out[gid] = v;\n"));
            }
            Pattern::MessagePassing { fenced } => {
                let last = self.work_items() - 1;
                let (publish, observe) =
                    if fenced { ("memory_order_relaxed", "memory_order_relaxed") } else { ("memory_order_release", "memory_order_acquire") };
                let publish = if remove && !fenced { "memory_order_relaxed" } else { publish };
                // The writer's branch comes first: under lockstep a warp's lanes that diverge
                // run the earlier code first, so a reader in the writer's warp waits for it.
                k.push_str(&format!("    if (gid == 0) {{\n        for (int r = 0; r < {rounds}; r++)\n            data[r] = 42 + r;\n"));
                if fenced && !remove {
                    k.push_str(&format!("        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, {scope});\n"));
                }
                k.push_str(&format!("        atomic_store_explicit(&sync[0], 1, {publish}, {scope});\n    }}\n"));
                k.push_str(&format!("    if (gid == {last}) {{\n        while (atomic_load_explicit(&sync[0], {observe}, {scope}) == 0) {{\n        }}\n"));
                if fenced {
                    k.push_str(&format!("        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, {scope});\n"));
                }
                k.push_str(&format!("        for (int r = 0; r < {rounds}; r++)\n            out[r] = data[r];\n    }}\n"));
            }
            Pattern::CasLoop { weak } => {
                let strength = if weak { "weak" } else { "strong" };
                k.push_str(&format!("    for (int r = 0; r < {rounds}; r++) {{\n"));
                k.push_str(&format!("        int old = atomic_load_explicit(&sync[0], memory_order_relaxed, {scope});\n"));
                if remove {
                    // A load and a store: no longer one read-modify-write.
                    k.push_str(&format!("        atomic_store_explicit(&sync[0], old + 1, memory_order_relaxed, {scope});\n"));
                } else {
                    k.push_str(&format!(
                        "        while (!atomic_compare_exchange_{strength}_explicit(&sync[0], &old, old + 1, memory_order_relaxed, memory_order_relaxed, {scope})) {{\n        }}\n"
                    ));
                }
                k.push_str("    }\n");
            }
        }
        k.push_str("}\n");
        k
    }

    fn cuda(&self, broken: Option<Break>) -> String {
        let narrow = broken == Some(Break::NarrowScope);
        let remove = broken == Some(Break::RemoveSync);
        let fence = if narrow { "__threadfence_block()" } else { "__threadfence()" };
        let rounds = self.rounds;
        let w = self.warp_size;
        let mut k = String::new();
        k.push_str("__global__ void k(int *data, int *out, int *sync)\n{\n");
        k.push_str("    int lid = threadIdx.x;\n    int gid = blockIdx.x * blockDim.x + threadIdx.x;\n");
        match self.pattern {
            Pattern::Lock { acquire, .. } => {
                k.push_str(&format!("    if (lid % {w} == 0) {{\n        for (int r = 0; r < {rounds}; r++) {{\n"));
                match acquire {
                    Acquire::Exchange => k.push_str("            while (atomicExch(&sync[0], 1) != 0) {\n            }\n"),
                    _ => k.push_str("            while (atomicCAS(&sync[0], 0, 1) != 0) {\n            }\n"),
                }
                k.push_str(&format!("            {fence};\n            data[0] = data[0] + 1;\n"));
                if !remove {
                    k.push_str(&format!("            {fence};\n"));
                }
                k.push_str("            atomicExch(&sync[0], 0);\n        }\n    }\n");
            }
            Pattern::Barrier { local } => {
                let n = self.group_size;
                // Narrowing a barrier: the warp's instead of the block's.
                let sync = if narrow { "__syncwarp()" } else { "__syncthreads()" };
                if local {
                    k.push_str(&format!("    __shared__ int tmp[{n}];\n"));
                }
                let slot = |i: &str| if local { format!("tmp[{i}]") } else { format!("data[gid - lid + {i}]") };
                k.push_str(&format!("    int v = gid + 1;\n    for (int r = 0; r < {rounds}; r++) {{\n"));
                k.push_str(&format!("        {} = v;\n", slot("lid")));
                if !remove {
                    k.push_str(&format!("        {sync};\n"));
                }
                k.push_str(&format!("        v = v + {};\n", slot(&format!("(lid + 1) % {n}"))));
                k.push_str(&format!("        {sync};\n    }}\n    out[gid] = v;\n"));
            }
            Pattern::MessagePassing { .. } => {
                let last = self.work_items() - 1;
                k.push_str(&format!("    if (gid == 0) {{\n        for (int r = 0; r < {rounds}; r++)\n            data[r] = 42 + r;\n"));
                if !remove {
                    k.push_str(&format!("        {fence};\n"));
                }
                k.push_str("        atomicExch(&sync[0], 1);\n    }\n");
                k.push_str(&format!("    if (gid == {last}) {{\n        while (atomicAdd(&sync[0], 0) == 0) {{\n        }}\n        {fence};\n"));
                k.push_str(&format!("        for (int r = 0; r < {rounds}; r++)\n            out[r] = data[r];\n    }}\n"));
            }
            Pattern::CasLoop { .. } => {
                let scoped = if narrow { "_block" } else { "" };
                k.push_str(&format!("    for (int r = 0; r < {rounds}; r++) {{\n        int old = atomicAdd{scoped}(&sync[0], 0);\n"));
                if remove {
                    // A load and a store: no longer one read-modify-write.
                    k.push_str(&format!("        atomicExch{scoped}(&sync[0], old + 1);\n"));
                } else {
                    k.push_str(&format!(
                        "        int seen;\n        while ((seen = atomicCAS{scoped}(&sync[0], old, old + 1)) != old)\n            old = seen;\n"
                    ));
                }
                k.push_str("    }\n");
            }
        }
        k.push_str("}\n");
        k
    }
}
