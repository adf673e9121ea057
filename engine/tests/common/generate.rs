//! Well-typed kernels and their launches from a stream of choices: a small OpenCL C grammar
//! (private variables, global and local arrays, legacy and C11 atomics, fences, barriers,
//! branches, bounded loops, a helper function, printf) whose every sentence compiles.
//!
//! The same generator serves the determinism tests (choices from a seeded generator), the
//! property tests and the `typed` fuzz target (choices from the fuzzer's bytes, which includes
//! this file by path), so a kernel the fuzzer finds can be rebuilt in a test from its bytes.
// Each test binary uses part of this module; the rest is not dead, only unused there.
#![allow(dead_code)]

use interleave_engine::scenario::{ArgBinding, Dialect, Granularity, MemoryModel, Scenario, SchedulerKind};

/// Where choices come from: `pick(n)` answers a number below `n` (`n` is at least 1).
pub trait Choices {
    fn pick(&mut self, n: u32) -> u32;
}

/// Choices read from bytes, one or two per choice; zeros once the bytes run out, so every
/// byte string describes a finite kernel.
pub struct Bytes<'a>(pub &'a [u8]);

impl Choices for Bytes<'_> {
    fn pick(&mut self, n: u32) -> u32 {
        let take = if n > 256 { 2 } else { 1 };
        let mut value = 0u32;
        for _ in 0..take {
            let (first, rest) = match self.0.split_first() {
                Some((b, rest)) => (*b as u32, rest),
                None => (0, &[][..]),
            };
            value = (value << 8) | first;
            self.0 = rest;
        }
        value % n.max(1)
    }
}

/// Choices from a fixed linear congruential generator: the same seed, the same kernels.
pub struct Lcg(pub u64);

impl Choices for Lcg {
    fn pick(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as u32
    }
}

/// Elements of the global arrays `a` and `b` and of the atomic array `c`.
const GLOBAL_ELEMENTS: u32 = 8;
const ATOMIC_ELEMENTS: u32 = 4;
/// Elements of the local array.
const LOCAL_ELEMENTS: u32 = 4;
/// How deep statements and expressions nest.
const MAX_DEPTH: u32 = 3;
/// The private variables `x0`..`x3`.
const VARIABLES: u32 = 4;

/// The limits of what [`scenario`] generates.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Statements in the kernel body, at most.
    pub max_statements: u32,
    /// Whether the run may use the relaxed memory model.
    pub relaxed: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config { max_statements: 8, relaxed: true }
    }
}

struct Writer<'a> {
    choices: &'a mut dyn Choices,
    text: String,
    /// Loop counters in scope (`i0`, `i1`, ...), readable but never assigned by statements.
    loops: u32,
}

impl Writer<'_> {
    fn pick(&mut self, n: u32) -> u32 {
        self.choices.pick(n)
    }

    /// An in-bounds index for an array of `elements` (a power of two): the expression masked.
    fn index(&mut self, elements: u32, depth: u32) -> String {
        let e = self.expr(depth + 1);
        format!("(({e}) & {})", elements - 1)
    }

    fn expr(&mut self, depth: u32) -> String {
        let leaf = depth >= MAX_DEPTH || self.pick(3) == 0;
        if leaf {
            return match self.pick(6) {
                0 => format!("{}", self.pick(9) as i32 - 2),
                1 => "gid".into(),
                2 => "lid".into(),
                3 if self.loops > 0 => format!("i{}", self.pick(self.loops)),
                _ => format!("x{}", self.pick(VARIABLES)),
            };
        }
        match self.pick(10) {
            0 | 1 => {
                let ops = ["+", "-", "*", "&", "|", "^", "<", "==", "!=", ">>"];
                let op = ops[self.pick(ops.len() as u32) as usize];
                let (l, r) = (self.expr(depth + 1), self.expr(depth + 1));
                if op == ">>" {
                    // A shift by a negative or too large amount is undefined in C; the mask
                    // keeps the kernel well defined.
                    format!("(({l}) >> (({r}) & 7))")
                } else {
                    format!("(({l}) {op} ({r}))")
                }
            }
            2 => {
                // Division by zero is a finding the engine reports; a generated kernel may
                // divide by anything.
                let (l, r) = (self.expr(depth + 1), self.expr(depth + 1));
                let op = if self.pick(2) == 0 { "/" } else { "%" };
                format!("(({l}) {op} ({r}))")
            }
            3 => {
                let array = if self.pick(2) == 0 { "a" } else { "b" };
                format!("{array}[{}]", self.index(GLOBAL_ELEMENTS, depth))
            }
            4 => format!("l[{}]", self.index(LOCAL_ELEMENTS, depth)),
            5 => {
                let (c, t, e) = (self.expr(depth + 1), self.expr(depth + 1), self.expr(depth + 1));
                format!("(({c}) ? ({t}) : ({e}))")
            }
            6 => format!("helper({}, a)", self.expr(depth + 1)),
            7 => self.atomic(depth),
            _ => format!("x{}", self.pick(VARIABLES)),
        }
    }

    /// An atomic read-modify-write, load or compare-exchange on `c`, as an expression.
    fn atomic(&mut self, depth: u32) -> String {
        let at = self.index(ATOMIC_ELEMENTS, depth);
        match self.pick(9) {
            0 => format!("atomic_add(&c[{at}], {})", self.expr(depth + 1)),
            1 => format!("atomic_inc(&c[{at}])"),
            2 => format!("atomic_xchg(&c[{at}], {})", self.expr(depth + 1)),
            3 => format!("atomic_cmpxchg(&c[{at}], {}, {})", self.expr(depth + 1), self.expr(depth + 1)),
            4 => format!("atomic_min(&c[{at}], {})", self.expr(depth + 1)),
            5 => {
                let orders = ["memory_order_relaxed", "memory_order_acquire", "memory_order_seq_cst"];
                let order = orders[self.pick(3) as usize];
                format!("atomic_load_explicit(&d[{at}], {order})")
            }
            6 => {
                let orders = ["memory_order_relaxed", "memory_order_acq_rel", "memory_order_seq_cst"];
                let order = orders[self.pick(3) as usize];
                format!("atomic_fetch_add_explicit(&d[{at}], {}, {order})", self.expr(depth + 1))
            }
            _ => format!("atomic_or(&c[{at}], {})", self.expr(depth + 1)),
        }
    }

    fn statement(&mut self, depth: u32, indent: usize) {
        let pad = "    ".repeat(indent);
        let nested = depth < MAX_DEPTH;
        match self.pick(if nested { 12 } else { 9 }) {
            0 | 1 => {
                let v = self.pick(VARIABLES);
                let e = self.expr(depth);
                self.text.push_str(&format!("{pad}x{v} = {e};\n"));
            }
            2 => {
                let array = if self.pick(2) == 0 { "a" } else { "b" };
                let i = self.index(GLOBAL_ELEMENTS, depth);
                let e = self.expr(depth);
                self.text.push_str(&format!("{pad}{array}[{i}] = {e};\n"));
            }
            3 => {
                let i = self.index(LOCAL_ELEMENTS, depth);
                let e = self.expr(depth);
                self.text.push_str(&format!("{pad}l[{i}] = {e};\n"));
            }
            4 => {
                let e = self.atomic(depth);
                self.text.push_str(&format!("{pad}{e};\n"));
            }
            5 => {
                let fences = ["CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE"];
                let fence = fences[self.pick(3) as usize];
                self.text.push_str(&format!("{pad}barrier({fence});\n"));
            }
            6 => {
                let orders = ["memory_order_release", "memory_order_relaxed", "memory_order_seq_cst"];
                let order = orders[self.pick(3) as usize];
                let i = self.index(ATOMIC_ELEMENTS, depth);
                let e = self.expr(depth);
                self.text.push_str(&format!("{pad}atomic_store_explicit(&d[{i}], {e}, {order});\n"));
            }
            7 => {
                let e = self.expr(depth);
                self.text.push_str(&format!("{pad}printf(\"%d\\n\", {e});\n"));
            }
            8 => {
                let fences = ["CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE"];
                let fence = fences[self.pick(2) as usize];
                self.text.push_str(&format!("{pad}mem_fence({fence});\n"));
            }
            9 => {
                let c = self.expr(depth + 1);
                self.text.push_str(&format!("{pad}if ({c}) {{\n"));
                self.block(depth + 1, indent + 1);
                if self.pick(2) == 0 {
                    self.text.push_str(&format!("{pad}}} else {{\n"));
                    self.block(depth + 1, indent + 1);
                }
                self.text.push_str(&format!("{pad}}}\n"));
            }
            10 => {
                let counter = self.loops;
                let bound = 1 + self.pick(4);
                self.text.push_str(&format!("{pad}for (int i{counter} = 0; i{counter} < {bound}; i{counter}++) {{\n"));
                self.loops += 1;
                self.block(depth + 1, indent + 1);
                self.loops -= 1;
                self.text.push_str(&format!("{pad}}}\n"));
            }
            _ => {
                // A spin on an atomic: it may wait forever, which the step limit ends.
                let i = self.index(ATOMIC_ELEMENTS, depth);
                let bound = self.pick(4);
                self.text.push_str(&format!("{pad}while (atomic_add(&c[{i}], 0) < {bound}) {{ }}\n"));
            }
        }
    }

    fn block(&mut self, depth: u32, indent: usize) {
        let count = 1 + self.pick(3);
        for _ in 0..count {
            self.statement(depth, indent);
        }
    }
}

/// A kernel with its launch, scheduler, seed and memory model, all from `choices`.
pub fn scenario(choices: &mut dyn Choices, config: Config) -> Scenario {
    let mut w = Writer { choices, text: String::new(), loops: 0 };
    w.text.push_str(
        "int helper(int v, __global int *p)\n{\n    return v + p[v & 7];\n}\n\n\
         __kernel void generated(__global int *a, __global int *b, volatile __global int *c, volatile __global atomic_int *d)\n{\n\
         \x20   __local int l[4];\n\
         \x20   int gid = get_global_id(0);\n\
         \x20   int lid = get_local_id(0);\n\
         \x20   int x0 = gid, x1 = lid, x2 = 0, x3 = 1;\n",
    );
    let count = 1 + w.pick(config.max_statements.max(1));
    for _ in 0..count {
        w.statement(0, 1);
    }
    w.text.push_str("    a[gid & 7] = x0 + x1 + x2 + x3;\n}\n");

    let locals = [1u64, 2, 4];
    let local = locals[w.pick(3) as usize];
    let groups = 1 + w.pick(3) as u64;
    let mut s = Scenario::new(w.text.clone(), "generated.cl", Dialect::OpenCl);
    s.launch.global = vec![local * groups];
    s.launch.local = Some(vec![local]);
    s.args = ["a=int[8]:fill=0", "b=int[8]:range=0:1", "c=int[4]:fill=0", "d=int[4]:fill=0"]
        .iter()
        .map(|a| ArgBinding::parse(a).expect("a valid generated argument"))
        .collect();
    let schedulers: Vec<SchedulerKind> = SchedulerKind::ALL.iter().map(|(_, k)| *k).filter(|k| *k != SchedulerKind::Manual).collect();
    s.scheduler = schedulers[w.pick(schedulers.len() as u32) as usize];
    s.seed = w.pick(1 << 16) as u64;
    if config.relaxed && w.pick(2) == 1 {
        s.memory_model = MemoryModel::Relaxed;
    }
    if w.pick(3) == 0 {
        s.granularity = Granularity::Statement;
    }
    if groups > 1 && w.pick(3) == 0 {
        s.max_resident_groups = Some(1);
    }
    s.max_steps = 5_000;
    s.max_instructions_per_step = 20_000;
    s
}
