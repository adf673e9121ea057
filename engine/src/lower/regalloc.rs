//! Register allocation: temporaries whose lives do not overlap share a register.
//!
//! The lowering gives every value it computes a register of its own, so a function's register
//! file grows with its length: the gallery's reduction, five variables, came to 62 registers.
//! Every work-item carries its file, every snapshot copies every work-item's, and at 65,536
//! work-items the files were most of the machine. This pass runs once per function after it
//! is lowered and renumbers the temporaries by the classic method: liveness over the
//! function's control flow, an interference graph, and a greedy colouring in order of the
//! registers' first appearance.
//!
//! What it leaves alone, and why:
//! - Parameters keep registers `0..num_params`: calls and the launch write them by position.
//! - Registers that a variable lives in ([`ir::DebugVar`]) get one of their own for the whole
//!   function, so the inspector reads a variable's value wherever it is in scope, even past
//!   its last use.
//! - A temporary that may be read before it is written (live where the function starts)
//!   keeps one of its own too, so it still reads the zero a new frame starts with.
//! - An instruction's result never shares a register with its own operands, so no
//!   instruction depends on the order in which the interpreter reads operands and writes its
//!   result (a collective's result arrives after its operands were taken).
//!
//! Instruction indices do not change, so jump targets, spans and variables' scopes stay valid.

use crate::ir::{self, Instr, Reg};

/// The most words of register sets liveness may take per kind of set (8 MB each).
const MAX_SET_WORDS: usize = 1 << 20;
/// The most words of register sets the liveness sweeps may visit in all before the pass gives
/// up on the function (a few hundredths of a second natively).
const MAX_LIVENESS_WORK: usize = 1 << 24;
/// The most interferences the graph may hold before the pass gives up on the function.
const MAX_EDGES: usize = 1 << 21;

/// Whether an operand is read or written by its instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Use,
    Def,
}

/// Calls `f` on every register operand of `instr` but the argument lists of calls and
/// `printf`s, which live in the function's `arg_pool` (see [`pool_args`]).
fn operands(instr: &mut Instr, mut f: impl FnMut(&mut Reg, Role)) {
    use Role::{Def, Use};
    match instr {
        Instr::Const { dst, .. }
        | Instr::Undefined { dst, .. }
        | Instr::ActiveMask { dst }
        | Instr::Clock { dst }
        | Instr::LocalAddr { dst, .. }
        | Instr::GlobalAddr { dst, .. }
        | Instr::Alloca { dst, .. }
        | Instr::Call { dst, .. } => f(dst, Def),
        Instr::Move { dst, src } | Instr::Unary { dst, src, .. } | Instr::Convert { dst, src, .. } | Instr::Narrow { dst, src, .. } => {
            f(src, Use);
            f(dst, Def);
        }
        Instr::Binary { dst, lhs, rhs, .. } | Instr::Compare { dst, lhs, rhs, .. } | Instr::PtrDiff { dst, lhs, rhs, .. } => {
            f(lhs, Use);
            f(rhs, Use);
            f(dst, Def);
        }
        Instr::PtrAdd { dst, ptr, index, .. } => {
            f(ptr, Use);
            f(index, Use);
            f(dst, Def);
        }
        Instr::Jump { .. } | Instr::Statement | Instr::Printf { .. } => {}
        Instr::BranchIf { cond, .. } | Instr::BranchIfNot { cond, .. } | Instr::Assert { cond, .. } => f(cond, Use),
        Instr::Load { dst, addr, .. } => {
            f(addr, Use);
            f(dst, Def);
        }
        Instr::Store { addr, src, .. } => {
            f(addr, Use);
            f(src, Use);
        }
        Instr::Atomic { dst, addr, operand, operand2, .. } => {
            f(addr, Use);
            f(operand, Use);
            f(operand2, Use);
            f(dst, Def);
        }
        Instr::Barrier { flags } | Instr::Fence { flags } => f(flags, Use),
        Instr::NamedBarrier { meeting, resource, members, quorum, .. } => {
            f(meeting, Use);
            f(resource, Use);
            f(members, Use);
            f(quorum, Use);
        }
        Instr::Collective { dst, a, b, mask, width, .. } => {
            f(a, Use);
            f(b, Use);
            if let Some(mask) = mask {
                f(mask, Use);
            }
            if let Some(width) = width {
                f(width, Use);
            }
            f(dst, Def);
        }
        Instr::CheckIndex { index, .. } => f(index, Use),
        Instr::CasSucceeded { dst, old, expected, .. } => {
            f(old, Use);
            f(expected, Use);
            f(dst, Def);
        }
        Instr::Observe { src, .. } => f(src, Use),
        Instr::Malloc { dst, size } => {
            f(size, Use);
            f(dst, Def);
        }
        Instr::Free { ptr } => f(ptr, Use),
        Instr::AsyncCopy { dst, to, from, count, stride, event, .. } => {
            for r in [to, from, count, stride, event] {
                f(r, Use);
            }
            f(dst, Def);
        }
        Instr::WaitEvents { count, list } => {
            f(count, Use);
            f(list, Use);
        }
        Instr::Math { dst, a, b, c, .. } => {
            f(a, Use);
            f(b, Use);
            f(c, Use);
            f(dst, Def);
        }
        Instr::CheckOrder { value, .. } => f(value, Use),
        Instr::WorkItem { dst, dim, .. } => {
            f(dim, Use);
            f(dst, Def);
        }
        Instr::Return { src } => {
            if let Some(src) = src {
                f(src, Use);
            }
        }
    }
}

/// The `arg_pool` range an instruction reads its arguments from (calls and `printf`s).
fn pool_args(instr: &Instr) -> std::ops::Range<usize> {
    match *instr {
        Instr::Call { args, argc, .. } | Instr::Printf { args, argc, .. } => args as usize..(args + argc) as usize,
        _ => 0..0,
    }
}

/// The instructions control may go to after `pc`.
fn successors(code: &[Instr], pc: usize) -> impl Iterator<Item = usize> {
    let next = (pc + 1 < code.len()).then_some(pc + 1);
    let (fall, jump) = match code[pc] {
        Instr::Jump { target } => (None, Some(target as usize)),
        Instr::BranchIf { target, .. } | Instr::BranchIfNot { target, .. } => (next, Some(target as usize)),
        Instr::Return { .. } => (None, None),
        _ => (next, None),
    };
    fall.into_iter().chain(jump.filter(|&t| t < code.len()))
}

/// A set of registers.
#[derive(Clone, PartialEq)]
struct Set(Vec<u64>);

impl Set {
    fn new(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, r: Reg) {
        self.0[r as usize / 64] |= 1 << (r % 64);
    }
    fn remove(&mut self, r: Reg) {
        self.0[r as usize / 64] &= !(1 << (r % 64));
    }
    fn contains(&self, r: Reg) -> bool {
        self.0[r as usize / 64] & (1 << (r % 64)) != 0
    }
    fn union(&mut self, other: &Set) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
    fn iter(&self) -> impl Iterator<Item = Reg> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    k as Reg * 64 + bit
                })
            })
        })
    }
}

/// A straight run of instructions entered only at its first.
struct Block {
    start: usize,
    end: usize,
    succ: Vec<usize>,
}

fn blocks(code: &[Instr]) -> Vec<Block> {
    let mut leader = vec![false; code.len()];
    if let Some(first) = leader.first_mut() {
        *first = true;
    }
    for (pc, instr) in code.iter().enumerate() {
        if matches!(instr, Instr::Jump { .. } | Instr::BranchIf { .. } | Instr::BranchIfNot { .. } | Instr::Return { .. }) {
            if pc + 1 < code.len() {
                leader[pc + 1] = true;
            }
            for s in successors(code, pc) {
                leader[s] = true;
            }
        }
    }
    let starts: Vec<usize> = (0..code.len()).filter(|&pc| leader[pc]).collect();
    let mut block_of = vec![0; code.len()];
    let mut out = Vec::with_capacity(starts.len());
    for (b, &start) in starts.iter().enumerate() {
        let end = starts.get(b + 1).copied().unwrap_or(code.len());
        block_of[start..end].fill(b);
        out.push(Block { start, end, succ: Vec::new() });
    }
    for b in &mut out {
        b.succ = successors(code, b.end - 1).collect();
    }
    for b in &mut out {
        for s in &mut b.succ {
            *s = block_of[*s];
        }
    }
    out
}

/// Renumbers `func`'s registers so that temporaries whose lives do not overlap share one.
pub(super) fn allocate(func: &mut ir::Function) {
    let n = func.num_regs as usize;
    if func.code.is_empty() || n == 0 {
        return;
    }
    let blocks = blocks(&func.code);
    // Liveness takes four sets per block; a function too large for that within a few tens of
    // megabytes keeps its registers as they are (it runs the same, with a larger file).
    if blocks.len().saturating_mul(n.div_ceil(64)) > MAX_SET_WORDS {
        return;
    }

    // Each block's upward-exposed uses and definitions.
    let mut gen = vec![Set::new(n); blocks.len()];
    let mut kill = vec![Set::new(n); blocks.len()];
    for (b, block) in blocks.iter().enumerate() {
        for pc in (block.start..block.end).rev() {
            let pool = pool_args(&func.code[pc]);
            operands(&mut func.code[pc], |r, role| {
                if role == Role::Def {
                    kill[b].insert(*r);
                    gen[b].remove(*r);
                }
            });
            operands(&mut func.code[pc], |r, role| {
                if role == Role::Use {
                    gen[b].insert(*r);
                }
            });
            for &r in &func.arg_pool[pool] {
                gen[b].insert(r);
            }
        }
    }
    // Live-in and live-out per block, to a fixed point (backwards, so loops settle in a few
    // rounds).
    let mut live_in = vec![Set::new(n); blocks.len()];
    let mut live_out = vec![Set::new(n); blocks.len()];
    let sweep = blocks.len().saturating_mul(n.div_ceil(64));
    let mut work = 0usize;
    let mut changed = true;
    while changed {
        // Control flow that runs against the sweep's order (a chain of backward `goto`s)
        // settles one block a sweep; past a bound the function keeps its registers rather
        // than compiling for ever.
        work = work.saturating_add(sweep);
        if work > MAX_LIVENESS_WORK {
            return;
        }
        changed = false;
        for b in (0..blocks.len()).rev() {
            let out = &mut live_out[b];
            out.0.fill(0);
            for &s in &blocks[b].succ {
                out.union(&live_in[s]);
            }
            for (((word, o), k), g) in live_in[b].0.iter_mut().zip(&out.0).zip(&kill[b].0).zip(&gen[b].0) {
                let new = (o & !k) | g;
                changed |= new != *word;
                *word = new;
            }
        }
    }

    // Registers with a register of their own: parameters, variables, and whatever is live at
    // the start.
    let mut pinned = Set::new(n);
    for r in 0..func.num_params.min(func.num_regs) {
        pinned.insert(r);
    }
    for v in &func.vars {
        match v.place {
            ir::DebugPlace::Regs(r) => {
                for k in 0..v.count.max(1) {
                    if ((r + k) as usize) < n {
                        pinned.insert(r + k);
                    }
                }
            }
            ir::DebugPlace::Mem(r) => {
                if (r as usize) < n {
                    pinned.insert(r);
                }
            }
        }
    }
    pinned.union(&live_in[0]);

    // Interference among the temporaries: a definition interferes with everything live after
    // it and with its instruction's own operands.
    let mut neighbours: Vec<Vec<Reg>> = vec![Vec::new(); n];
    let mut seen = vec![false; n];
    let mut edges = 0usize;
    for (b, block) in blocks.iter().enumerate() {
        let mut live = live_out[b].clone();
        for pc in (block.start..block.end).rev() {
            let mut defs = Vec::new();
            let mut uses: Vec<Reg> = func.arg_pool[pool_args(&func.code[pc])].to_vec();
            operands(&mut func.code[pc], |r, role| match role {
                Role::Def => defs.push(*r),
                Role::Use => uses.push(*r),
            });
            for &d in &defs {
                if pinned.contains(d) {
                    continue;
                }
                for other in live.iter().chain(uses.iter().copied()) {
                    if other != d && !pinned.contains(other) {
                        neighbours[d as usize].push(other);
                        neighbours[other as usize].push(d);
                        edges += 1;
                    }
                }
            }
            if edges > MAX_EDGES {
                return;
            }
            for &d in &defs {
                seen[d as usize] = true;
                live.remove(d);
            }
            for &u in &uses {
                seen[u as usize] = true;
                live.insert(u);
            }
        }
    }

    // Pinned registers first, in their order (parameters stay at `0..num_params`); then the
    // temporaries, each in the lowest colour none of its coloured neighbours has.
    const NONE: Reg = Reg::MAX;
    let mut map = vec![NONE; n];
    let mut next = 0;
    for r in pinned.iter() {
        map[r as usize] = next;
        next += 1;
    }
    let base = next;
    let mut taken: Vec<bool> = Vec::new();
    let mut colours = 0;
    for r in 0..n {
        if map[r] != NONE || !seen[r] {
            continue;
        }
        // Mark the neighbours' colours, take the lowest unmarked (at most the degree, so
        // finding it costs no more than marking), and unmark them again: the colouring costs
        // the edges, not the registers times the colours.
        let coloured = |o: &Reg| Some(map[*o as usize]).filter(|&m| m != NONE && m >= base).map(|m| (m - base) as usize);
        for c in neighbours[r].iter().filter_map(coloured) {
            if c >= taken.len() {
                taken.resize(c + 1, false);
            }
            taken[c] = true;
        }
        let colour = taken.iter().position(|&t| !t).unwrap_or(taken.len());
        for c in neighbours[r].iter().filter_map(coloured) {
            taken[c] = false;
        }
        colours = colours.max(colour as Reg + 1);
        map[r] = base + colour as Reg;
    }
    // A register never mentioned (a typed-but-discarded expression's, say) needs none; map it
    // anywhere valid so that nothing can index past the new file.
    let total = base + colours;
    for m in &mut map {
        if *m == NONE {
            *m = 0;
        }
    }

    for instr in &mut func.code {
        operands(instr, |r, _| *r = map[*r as usize]);
    }
    for r in &mut func.arg_pool {
        *r = map[*r as usize];
    }
    for v in &mut func.vars {
        match &mut v.place {
            ir::DebugPlace::Regs(r) | ir::DebugPlace::Mem(r) => {
                if (*r as usize) < n {
                    *r = map[*r as usize];
                }
            }
        }
    }
    func.num_regs = total.max(func.num_params);
}

/// The integration tests' kernel generator, for the allocation's oracle over generated kernels.
#[cfg(test)]
#[path = "../../tests/common/generate.rs"]
mod generate;

#[cfg(test)]
mod tests {
    //! The oracle for the allocation: a program runs exactly as it does with a register for
    //! every value, which needs no analysis to be right. Every example of the gallery, under
    //! several seeds and both granularities, gives the same report (status, steps, trace
    //! hash, findings, buffers, printed lines) either way.

    use crate::report::RunStatus;
    use crate::scenario::{Dialect, Granularity, Scenario};
    use crate::session::{Prepared, Session};

    const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/examples");

    fn examples() -> Vec<(String, Scenario)> {
        let mut names: Vec<String> = std::fs::read_dir(EXAMPLES)
            .expect("the examples folder")
            .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml") && n != "gallery.toml")
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|name| {
                let text = std::fs::read_to_string(format!("{EXAMPLES}/{name}")).expect("the scenario file");
                let read = |file: &str| Ok((std::fs::read_to_string(format!("{EXAMPLES}/{file}")).expect("the example's source"), file.to_string()));
                let scenario = crate::scenario::from_toml(&text, read).expect("a valid example");
                (name, scenario)
            })
            .collect()
    }

    /// `prepared`'s scenario compiled with a register for every value.
    fn without_allocation(prepared: &Prepared) -> Prepared {
        let s = &prepared.scenario;
        let options = crate::lower::Options { statements: s.granularity == Granularity::Statement, keep_registers: true };
        let program = match &prepared.litmus {
            Some(test) => crate::frontend::compile_litmus(test, &s.defines, options),
            None => crate::frontend::compile_with(&s.source, s.dialect, &s.defines, options),
        };
        prepared.with_program(program.expect("the example compiles"))
    }

    use super::{allocate, generate, operands, Role, MAX_LIVENESS_WORK, MAX_SET_WORDS};
    use crate::ir::{BinaryOp, DebugElem, DebugPlace, DebugVar, Function, Instr, NumTy};

    fn function(num_params: u32, num_regs: u32, code: Vec<Instr>) -> Function {
        let spans = vec![crate::diag::Span::default(); code.len()];
        Function { name: "f".into(), code, spans, num_regs, num_params, ..Function::default() }
    }

    fn add(dst: u32, lhs: u32, rhs: u32) -> Instr {
        Instr::Binary { op: BinaryOp::Add, ty: NumTy::I32, dst, lhs, rhs }
    }

    #[test]
    fn temporaries_with_disjoint_lives_share_a_register() {
        // r1 = 1; r2 = p + r1; r3 = 2; r4 = r2 + r3; return r4: r1 is dead once r2 is made,
        // so r3 can take its register; r4 shares with neither of its operands. Three
        // registers hold the four temporaries.
        let code = vec![Instr::Const { dst: 1, bits: 1 }, add(2, 0, 1), Instr::Const { dst: 3, bits: 2 }, add(4, 2, 3), Instr::Return { src: Some(4) }];
        let mut f = function(1, 5, code);
        allocate(&mut f);
        assert_eq!(f.num_regs, 4, "the parameter and three registers: {:?}", f.code);
        assert!(matches!((f.code[0], f.code[2]), (Instr::Const { dst: a, .. }, Instr::Const { dst: b, .. }) if a == b), "r1 and r3 share: {:?}", f.code);
        let Instr::Binary { dst, lhs, rhs, .. } = f.code[3] else { unreachable!() };
        assert_ne!(lhs, rhs, "operands live at once share nothing");
        assert!(dst != lhs && dst != rhs, "a result never shares with its own operands");
        assert!(matches!(f.code[1], Instr::Binary { lhs: 0, .. }), "the parameter stays in register 0");
    }

    #[test]
    fn a_value_live_around_a_loop_keeps_its_register() {
        // r1 = 10 (live around the loop); loop: r2 = r1 + p; r3 = r2 < ...; branch back.
        // r1 is read in every iteration, so nothing made in the loop may take its register.
        let code = vec![
            Instr::Const { dst: 1, bits: 10 },
            add(2, 1, 0),
            Instr::Const { dst: 3, bits: 0 },
            Instr::Compare { op: crate::ir::CmpOp::Lt, ty: NumTy::I32, dst: 4, lhs: 2, rhs: 3 },
            Instr::BranchIf { cond: 4, target: 1 },
            Instr::Return { src: None },
        ];
        let mut f = function(1, 5, code);
        allocate(&mut f);
        let Instr::Const { dst: kept, .. } = f.code[0] else { unreachable!() };
        for pc in 1..4 {
            let mut defs = Vec::new();
            operands(&mut f.code[pc].clone(), |r, role| {
                if role == Role::Def {
                    defs.push(*r);
                }
            });
            assert!(!defs.contains(&kept), "instruction {pc} overwrites the loop's live value: {:?}", f.code);
        }
    }

    #[test]
    fn variables_and_values_read_before_written_keep_registers_of_their_own() {
        // r1 is a variable in scope for the first two instructions only, r2 is read before
        // any write (it must still read 0), r3 and r4 are temporaries made after both.
        let code = vec![Instr::Const { dst: 1, bits: 7 }, add(3, 2, 1), Instr::Const { dst: 4, bits: 1 }, add(4, 4, 3), Instr::Return { src: Some(4) }];
        let mut f = function(0, 5, code);
        f.vars.push(DebugVar { name: "x".into(), type_name: "int".into(), place: DebugPlace::Regs(1), elem: DebugElem::Pointer, count: 1, start: 0, end: 2 });
        allocate(&mut f);
        let DebugPlace::Regs(x) = f.vars[0].place else { unreachable!() };
        let Instr::Binary { lhs: unwritten, .. } = f.code[1] else { unreachable!() };
        for pc in [2, 3] {
            let mut defs = Vec::new();
            operands(&mut f.code[pc].clone(), |r, role| {
                if role == Role::Def {
                    defs.push(*r);
                }
            });
            assert!(!defs.contains(&x), "the variable's register is reused past its last use: {:?}", f.code);
            assert!(!defs.contains(&unwritten), "the register read before written is reused: {:?}", f.code);
        }
    }

    #[test]
    fn a_function_too_large_for_the_analysis_keeps_its_registers() {
        // More blocks times register words than the liveness sets may take.
        let blocks = 1_000;
        let regs = (MAX_SET_WORDS / blocks + 1) as u32 * 64;
        let code: Vec<Instr> = (0..blocks as u32).map(|b| Instr::Jump { target: b + 1 }).chain([Instr::Return { src: None }]).collect();
        let mut f = function(0, regs, code.clone());
        allocate(&mut f);
        assert_eq!((f.num_regs, f.code), (regs, code));
    }

    /// A chain of jumps each to the instruction before it: liveness settles one block a
    /// sweep. A short chain is allocated; one whose sweeps would exceed the bound is left as
    /// it was, so no source makes compiling hang.
    #[test]
    fn a_chain_of_backward_jumps_is_allocated_or_left_within_a_bound() {
        let chain = |len: u32| {
            // r2 = 0; r3 = 0; r1 = 1; jump to the chain's end; return r1 (reached last); then
            // jumps, each to the one before it. The three temporaries never live at once.
            let mut code = vec![
                Instr::Const { dst: 2, bits: 0 },
                Instr::Const { dst: 3, bits: 0 },
                Instr::Const { dst: 1, bits: 1 },
                Instr::Jump { target: len + 4 },
                Instr::Return { src: Some(1) },
            ];
            code.extend((5..=len + 4).map(|pc| Instr::Jump { target: pc - 1 }));
            function(0, 4, code)
        };
        let mut short = chain(50);
        allocate(&mut short);
        assert_eq!(short.num_regs, 1, "one register holds the three: {:?}", &short.code[..5]);
        let long_len = (MAX_LIVENESS_WORK as f64).sqrt() as u32 + 2;
        let long = chain(long_len);
        let mut allocated = long.clone();
        allocate(&mut allocated);
        assert_eq!((allocated.num_regs, allocated.code), (long.num_regs, long.code), "the long chain keeps its registers");
    }

    /// The same oracle over generated kernels (the property tests' grammar: loops, branches,
    /// a helper function, atomics, barriers, local memory), each under its own scheduler,
    /// memory model and granularity. One difference is allowed, and counted: a spin is
    /// recognised when a work-item's whole state repeats, and a dead temporary's leftover value
    /// is part of that state, so a run that ends in a livelock may recognise it a few steps
    /// sooner or later; what the run did (its buffers and the kinds of its findings) must
    /// still agree.
    #[test]
    fn generated_kernels_run_the_same_with_a_register_for_every_value() {
        let kinds = |r: &crate::report::Report| r.findings.iter().map(|f| f.kind).collect::<Vec<_>>();
        let (kernels, mut spins_timed_otherwise) = (1000, 0);
        for seed in 0..kernels {
            let scenario = generate::scenario(&mut generate::Lcg(31_000 + seed), generate::Config::default());
            let allocated = Prepared::new(scenario.clone()).expect("a generated kernel compiles");
            let plain = without_allocation(&allocated);
            let mut a = Session::start(&allocated, scenario.seed).expect("a generated kernel launches");
            let mut b = Session::start(&plain, scenario.seed).expect("a generated kernel launches");
            a.run(u64::MAX);
            b.run(u64::MAX);
            let (ra, rb) = (a.report(), b.report());
            let context = || format!("kernel {seed} runs differently with shared registers:\n{}", scenario.source);
            if ra != rb && ra.status == RunStatus::Livelock && rb.status == RunStatus::Livelock {
                assert_eq!(ra.buffers, rb.buffers, "{}", context());
                assert_eq!(kinds(&ra), kinds(&rb), "{}", context());
                spins_timed_otherwise += 1;
            } else {
                assert_eq!(ra, rb, "{}", context());
            }
        }
        assert!(spins_timed_otherwise * 100 <= kernels, "{spins_timed_otherwise} of {kernels} livelocks recognised at another step");
    }

    #[test]
    fn every_example_runs_the_same_with_a_register_for_every_value() {
        let mut compared = 0;
        for (name, scenario) in examples() {
            for granularity in [Granularity::Event, Granularity::Statement] {
                if granularity == Granularity::Statement && scenario.dialect == Dialect::Litmus {
                    continue;
                }
                let mut s = scenario.clone();
                s.granularity = granularity;
                let allocated = Prepared::new(s).expect("the example compiles");
                let plain = without_allocation(&allocated);
                assert!(
                    allocated.program.functions.iter().map(|f| f.num_regs).sum::<u32>() <= plain.program.functions.iter().map(|f| f.num_regs).sum::<u32>(),
                    "{name}: the allocation never needs more registers"
                );
                for seed in [scenario.seed, 0, 1, 2, 3] {
                    let mut a = Session::start(&allocated, seed).expect("the example launches");
                    let mut b = Session::start(&plain, seed).expect("the example launches");
                    a.run(u64::MAX);
                    b.run(u64::MAX);
                    assert_eq!(a.report(), b.report(), "{name} ({granularity:?}, seed {seed}) runs differently with shared registers");
                    compared += 1;
                }
            }
        }
        assert!(compared >= 100, "the examples were found ({compared} runs compared)");
    }
}
