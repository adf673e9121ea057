//! PTX litmus tests (the Dat3M format), read and lowered straight to the IR.
//!
//! # The format
//!
//! ```text
//! PTX MP                                      the header: `PTX` and the test's name
//! "message passing across two CTAs"           optional quoted comments
//! { x=0; y=0; P1:r0=0; }                      locations and registers, initially
//!  P0@cta 0,gpu 0        | P1@cta 1,gpu 0        ;   one column per thread: its CTA and GPU
//!  st.weak x, 1          | ld.acquire.gpu r0, y  ;   one PTX instruction per cell
//!  st.release.gpu y, 1   | ld.weak r1, x         ;
//! exists (P1:r0 == 1 /\ P1:r1 == 0)           the final condition
//! ```
//!
//! Rows end with `;` and cells are separated by `|`; a cell may be empty, hold a label
//! (`LC00:`), an instruction, or both. Registers are `r<digits>` (or `%name`); any other name
//! in a memory operand is a location (all in global memory; `[x]` is accepted too). Values
//! are registers or integer constants. Comments are `(* *)`, `/* */` and `//`, as in the
//! OpenCL reader. The final condition is read by the shared reader of the parent module,
//! [`crate::litmus`]: `exists`, `~exists` (or `not exists`) and `forall` over comparisons of
//! registers (`P0:r1` or `0:r1`), locations and values.
//!
//! Instructions (qualifiers in any order, each kind at most once):
//!
//! - `ld{.sem}{.scope}{.global}{.type} r, x`: `.weak` (the default), `.relaxed.S`,
//!   `.acquire.S` or `.volatile` (which is `.relaxed.sys`);
//! - `st{.sem}{.scope}{.global}{.type} x, v`: `.weak`, `.relaxed.S`, `.release.S`,
//!   `.volatile`;
//! - `atom{.sem}{.scope}{.global}.op{.type} r, x, v` with op `add`, `sub`, `inc`, `dec`, `min`,
//!   `max`, `and`, `or`, `xor`, `exch`, or `cas` (`atom.cas r, x, expected, new`); `.sem` is
//!   `.relaxed` (the default), `.acquire`, `.release` or `.acq_rel`, `.scope` defaults to
//!   `.gpu`; `red` is the same without the result register;
//! - `fence.sc.S`, `fence.acq_rel.S` (`fence.S` is `.acq_rel`), `membar.cta|gl|sys`;
//! - `bar{.cta}.sync`, `barrier{.cta}.sync{.aligned}` and their `.arrive` forms, with one to
//!   three operands (see below);
//! - `mov r, v`, `add`, `sub`, `mul{.lo}`, `div`, `rem`, `and`, `or`, `xor`, `min`, `max`,
//!   `shl`, `shr` (`r, a, b`), `neg`, `not` (`r, a`), `setp.cmp{.type} p, a, b`;
//! - branches: `beq`, `bne`, `blt`, `ble`, `bgt`, `bge` (`a, b, LABEL`), `goto LABEL`,
//!   `bra{.uni} LABEL`, a guard `@p` or `@!p` before any instruction, and `ret`/`exit`.
//!
//! Scopes `.cta`, `.gpu`, `.sys` are OpenCL's work-group, device and all-devices scopes:
//! a thread `P<i>@cta c,gpu g` runs in work-group `(g, c)` on device `g`. Types `.b32`,
//! `.s32`, `.u32` and their 64-bit forms fix a location's width and signedness (the first
//! typed access decides; a location nobody types is a signed 32-bit `int`); registers hold
//! 64 bits.
//!
//! What is refused: texture, surface and constant proxies (`tld`, `suld`, `sust`, `suatom`,
//! `sured`, `fence.proxy`, aliases in the initial state), `.cluster` and `.shared`, vector
//! and floating-point types, `bar.red`, `atom.mul`/`atom.div`, registers holding addresses,
//! and `filter` clauses: each with an `unsupported` (or `invalid-litmus`) diagnostic that
//! names it and points at it.
//!
//! # Semantics
//!
//! CUDA follows the PTX memory model, and so does a PTX test: `.weak` loads and stores are
//! plain accesses (two of them that conflict without being ordered are a data race, found by
//! the race detector), `.relaxed`, `.acquire` and `.release` ones are atomics with their
//! order and scope, `atom`/`red` are read-modify-writes, `fence.sc` is a sequentially
//! consistent fence and `fence.acq_rel` an acquire-release fence at its scope. Two strong
//! operations are *morally strong* when each one's scope includes the other's thread: the
//! relaxed model publishes a release only to the threads its scope reaches and an acquire
//! learns only from releases in its own scope, and the race detector reports conflicting
//! atomics whose scopes do not include each other.
//!
//! Barriers follow the format's three operands: `bar.cta.sync a` is PTX's barrier `a` for
//! every thread of the CTA; `bar.cta.sync a, b` is the meeting `a` on barrier resource `b`:
//! every thread of the CTA whose code names meeting `a` takes part, none goes on before all
//! have arrived, and each synchronises with those that arrived with the same resource;
//! `bar.cta.sync a, b, n` completes as soon as `n` threads arrived at meeting `a` with
//! resource `b`, and threads that arrive later go straight through, each synchronising with
//! `n - 1` of those before it (which ones is a decision), as Dat3M reads the count. `.arrive` counts a thread in and lets it go on at once: it releases what it
//! did, and acquires nothing (see `exec::named_barrier`).

mod lower;
mod syntax;

pub use lower::lower;

use std::rc::Rc;

use crate::diag::{Diagnostic, Span};
use crate::ir::{AtomicOp, BinaryOp, CmpOp, NumTy, Order, Scope, UnaryOp};
use crate::litmus::{LitmusDialect, LitmusLocation, LitmusRegister, LitmusSpace, LitmusTest, LitmusThread};
use crate::scenario::ElemType;

/// A PTX test's threads, in the form the lowering reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxCode {
    pub threads: Vec<ThreadCode>,
}

/// One thread's registers and instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadCode {
    /// Its registers: name, initial value, and observation slot (the index in
    /// [`LitmusTest::registers`]).
    pub registers: Vec<(String, i64, u32)>,
    pub instrs: Vec<Instr>,
}

/// One instruction of a thread, with the span of its cell's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    pub op: Op,
    /// `@p` (false) or `@!p` (true): the register, and whether the guard is negated.
    pub guard: Option<(usize, bool)>,
    pub span: Span,
}

/// A register of the thread, or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Reg(usize),
    Const(i64),
}

/// How a load or store orders memory: plain, or atomic with an order and a scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sem {
    Weak,
    Strong { order: Order, scope: Scope },
}

/// What an instruction does. Registers are indices into the thread's registers, locations
/// into the test's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Load {
        dst: usize,
        loc: usize,
        sem: Sem,
        ty: Option<ElemType>,
    },
    Store {
        loc: usize,
        src: Value,
        sem: Sem,
        ty: Option<ElemType>,
    },
    /// `atom` (with `dst`) and `red` (without): `operand` is the value, and for `cas` the new
    /// value, with the expected one in `operand2`.
    Atomic {
        op: AtomicOp,
        dst: Option<usize>,
        loc: usize,
        operand: Value,
        operand2: Value,
        order: Order,
        scope: Scope,
        ty: Option<ElemType>,
    },
    Fence {
        order: Order,
        scope: Scope,
    },
    /// A barrier (see the module documentation): `members` is the bit mask of the local ids in
    /// the thread's CTA that take part in the meeting; `quorum` a thread count, if given.
    Barrier {
        meeting: Value,
        resource: Value,
        members: u64,
        quorum: Option<Value>,
        arrive: bool,
    },
    Move {
        dst: usize,
        src: Value,
    },
    Binary {
        op: BinaryOp,
        ty: NumTy,
        dst: usize,
        a: Value,
        b: Value,
        narrow: Option<ElemType>,
    },
    Unary {
        op: UnaryOp,
        ty: NumTy,
        dst: usize,
        a: Value,
        narrow: Option<ElemType>,
    },
    Compare {
        op: CmpOp,
        ty: NumTy,
        dst: usize,
        a: Value,
        b: Value,
    },
    /// A jump to instruction `target` (the thread's length: its end), if `cond` holds.
    Branch {
        cond: Option<(CmpOp, NumTy, Value, Value)>,
        target: usize,
    },
    /// `ret` or `exit`: the thread ends.
    Exit,
}

/// Reads a PTX litmus test (see the module documentation).
pub fn parse(text: &str) -> Result<LitmusTest, Diagnostic> {
    if u32::try_from(text.len()).is_err() {
        return Err(Diagnostic::error(crate::litmus::CODE, "the litmus file is too large (4 GiB at most)"));
    }
    let test = syntax::read(text)?;
    let placed = crate::litmus::place(&test.threads.iter().map(|t| (t.cta, t.gpu)).collect::<Vec<_>>());
    let mut registers = Vec::new();
    let mut code = PtxCode { threads: Vec::with_capacity(test.threads.len()) };
    for (index, t) in test.threads.iter().enumerate() {
        let mut regs = Vec::with_capacity(t.registers.len());
        for r in &t.registers {
            regs.push((r.name.clone(), r.initial, registers.len() as u32));
            registers.push(LitmusRegister { thread: index, name: r.name.clone(), span: r.span });
        }
        code.threads.push(ThreadCode { registers: regs, instrs: Vec::new() });
    }
    // Who takes part in each meeting, per CTA (see `syntax::Thread::meetings`).
    for (index, t) in test.threads.iter().enumerate() {
        let (group, _) = placed.of_thread[index];
        let cta_mask = |g: usize| -> u64 {
            (0..placed.local_size as usize).filter(|&l| placed.work_item_thread[g * placed.local_size as usize + l].is_some()).fold(0u64, |m, l| m | 1 << l)
        };
        let members_of = |meeting: Value| -> u64 {
            let Value::Const(name) = meeting else { return cta_mask(group) };
            let mut mask = 0u64;
            for (other, o) in test.threads.iter().enumerate() {
                let (g, l) = placed.of_thread[other];
                if g != group {
                    continue;
                }
                match o.meetings.iter().find(|m| m.0 == name) {
                    // A one-operand barrier of the meeting in the CTA: PTX's barrier, which
                    // every thread of the CTA must reach.
                    Some(&(_, true)) => return cta_mask(group),
                    Some(_) => mask |= 1 << l,
                    None => {}
                }
            }
            mask
        };
        let instrs = t
            .instrs
            .iter()
            .map(|i| {
                let mut i = i.clone();
                if let Op::Barrier { meeting, members, .. } = &mut i.op {
                    *members = members_of(*meeting);
                }
                i
            })
            .collect();
        code.threads[index].instrs = instrs;
    }
    let locations = test
        .locations
        .iter()
        .map(|l| LitmusLocation { name: l.name.clone(), initial: l.initial, space: LitmusSpace::Global, elem: l.elem, span: l.span })
        .collect();
    let threads = test
        .threads
        .iter()
        .enumerate()
        .map(|(i, t)| LitmusThread { name: format!("P{i}"), work_group: t.cta, device: t.gpu, span: t.header, params: t.header, body: t.body })
        .collect();
    Ok(LitmusTest {
        name: test.name,
        locations,
        threads,
        registers,
        condition: test.condition,
        kernel_source: String::new(),
        segments: Vec::new(),
        local_size: placed.local_size,
        groups: placed.groups,
        group_device: placed.group_device,
        work_item_thread: placed.work_item_thread,
        dialect: LitmusDialect::Ptx,
        ptx: Some(Rc::new(code)),
    })
}

#[cfg(test)]
mod tests;
