//! A PTX test's threads to the IR: one kernel `__litmus` taking a pointer per location, in
//! which each work-item finds its thread by its work-group and local id and runs that
//! thread's instructions, each lowered with the span of its cell.

use crate::diag::Span;
use crate::ir::{
    fence, AtomicOp, CmpOp, DebugElem, DebugPlace, DebugVar, Function, Instr as Ir, Kernel, KernelParam, NumTy, Order, ParamKind, Program, Query, Reg, Scope,
};
use crate::litmus::LitmusTest;
use crate::scenario::ElemType;
use crate::trace::Space;

use super::{Instr, Op, PtxCode, Sem, Value};

/// The name of the kernel a litmus test runs as.
const KERNEL: &str = "__litmus";

/// The function being built.
struct Builder {
    code: Vec<Ir>,
    spans: Vec<Span>,
    next_reg: Reg,
}

impl Builder {
    fn push(&mut self, instr: Ir, at: Span) -> usize {
        self.code.push(instr);
        self.spans.push(at);
        self.code.len() - 1
    }

    fn reg(&mut self) -> Reg {
        self.next_reg += 1;
        self.next_reg - 1
    }

    fn constant(&mut self, bits: u64, at: Span) -> Reg {
        let dst = self.reg();
        self.push(Ir::Const { dst, bits }, at);
        dst
    }

    /// Sets the jump at `at` to `target`.
    fn patch(&mut self, at: usize, target: usize) {
        match &mut self.code[at] {
            Ir::Jump { target: t } | Ir::BranchIf { target: t, .. } | Ir::BranchIfNot { target: t, .. } => *t = target as u32,
            _ => {}
        }
    }
}

/// The program of a PTX test: `code` is the test's [`LitmusTest::ptx`]; under `options`'
/// statement granularity every instruction starts with a step.
pub fn lower(test: &LitmusTest, code: &PtxCode, options: crate::lower::Options) -> Program {
    let locations = test.locations.len() as Reg;
    let mut b = Builder { code: Vec::new(), spans: Vec::new(), next_reg: locations };
    let whole = test.condition.span;
    let header = |t: usize| test.threads.get(t).map_or(whole, |th| th.span);
    // Which thread this work-item runs: compare its group and local id with each thread's.
    let dim = b.constant(0, whole);
    let group = b.reg();
    b.push(Ir::WorkItem { query: Query::GroupId, dst: group, dim }, whole);
    let local = b.reg();
    b.push(Ir::WorkItem { query: Query::LocalId, dst: local, dim }, whole);
    let placement = placement(test);
    let mut entries = Vec::with_capacity(code.threads.len());
    for (t, &(g, l)) in placement.iter().enumerate() {
        let at = header(t);
        let mut skips = Vec::new();
        for (value, id) in [(g, group), (l, local)] {
            let k = b.constant(value as u64, at);
            let same = b.reg();
            b.push(Ir::Compare { op: CmpOp::Eq, ty: NumTy::U64, dst: same, lhs: id, rhs: k }, at);
            skips.push(b.push(Ir::BranchIfNot { cond: same, target: 0 }, at));
        }
        entries.push(b.push(Ir::Jump { target: 0 }, at));
        let next = b.code.len();
        for s in skips {
            b.patch(s, next);
        }
    }
    // A work-item that pads a smaller group runs no thread.
    b.push(Ir::Return { src: None }, whole);
    let mut vars = Vec::new();
    for (t, thread) in code.threads.iter().enumerate() {
        let start = b.code.len();
        b.patch(entries[t], start);
        lower_thread(&mut b, test, thread, header(t), &mut vars, options);
    }
    let params = test
        .locations
        .iter()
        .map(|l| KernelParam {
            name: l.name.clone(),
            span: l.span,
            kind: ParamKind::Pointer { space: Space::Global, elem: Some(l.elem), is_const: false },
            type_name: format!("{}*", l.elem.name()),
        })
        .collect();
    let function = Function {
        name: KERNEL.to_string(),
        code: b.code,
        spans: b.spans,
        num_regs: b.next_reg,
        num_params: locations,
        arg_pool: Vec::new(),
        printf_types: Vec::new(),
        vars,
    };
    Program {
        uses_heap: false,
        functions: vec![function],
        kernels: vec![Kernel { name: KERNEL.to_string(), func: 0, params, reqd_work_group_size: None }],
        locals: Vec::new(),
        globals: Vec::new(),
        strings: Vec::new(),
        warnings: Vec::new(),
        ptx: true,
    }
}

/// Each thread's (group, local id), from the test's placement.
fn placement(test: &LitmusTest) -> Vec<(usize, usize)> {
    let mut of_thread = vec![(0, 0); test.threads.len()];
    let size = test.local_size.max(1) as usize;
    for (wi, t) in test.work_item_thread.iter().enumerate() {
        if let Some(t) = *t {
            of_thread[t] = (wi / size, wi % size);
        }
    }
    of_thread
}

/// One thread's block: its registers set to their initial values, its instructions, then
/// the observation of every register and the return.
fn lower_thread(b: &mut Builder, test: &LitmusTest, thread: &super::ThreadCode, header: Span, vars: &mut Vec<DebugVar>, options: crate::lower::Options) {
    let start = b.code.len() as u32;
    let regs: Vec<Reg> = thread.registers.iter().map(|_| b.reg()).collect();
    for (&r, (_, initial, _)) in regs.iter().zip(&thread.registers) {
        b.push(Ir::Const { dst: r, bits: *initial as u64 }, header);
    }
    // Where each instruction starts, and the branches to patch once all are placed.
    let mut starts = Vec::with_capacity(thread.instrs.len());
    let mut branches: Vec<(usize, usize)> = Vec::new();
    for instr in &thread.instrs {
        starts.push(b.code.len());
        // At the statement granularity every instruction is a step of its own.
        if options.statements {
            b.push(Ir::Statement, instr.span);
        }
        lower_instr(b, test, instr, &regs, &mut branches);
    }
    let end = b.code.len();
    for (at, target) in branches {
        b.patch(at, starts.get(target).copied().unwrap_or(end));
    }
    for (&r, (_, _, slot)) in regs.iter().zip(&thread.registers) {
        b.push(Ir::Observe { slot: *slot, src: r }, header);
    }
    b.push(Ir::Return { src: None }, header);
    let stop = b.code.len() as u32;
    for (&r, (name, _, _)) in regs.iter().zip(&thread.registers) {
        vars.push(DebugVar {
            name: name.clone(),
            type_name: "long".to_string(),
            place: DebugPlace::Regs(r),
            elem: DebugElem::Scalar(ElemType::Long),
            count: 1,
            start,
            end: stop,
        });
    }
}

/// The register holding `v`: the thread's register, or a new one set to the constant.
fn value(b: &mut Builder, v: Value, regs: &[Reg], at: Span) -> Reg {
    match v {
        Value::Reg(r) => regs[r],
        Value::Const(c) => b.constant(c as u64, at),
    }
}

/// The fence flags of a fence with `order` at `scope` (see [`crate::ir::fence`]).
fn fence_flags(order: Order, scope: Scope) -> u64 {
    fence::GLOBAL | fence::LOCAL | fence::order_bits(order) | fence::scope_bits(scope.level())
}

fn lower_instr(b: &mut Builder, test: &LitmusTest, instr: &Instr, regs: &[Reg], branches: &mut Vec<(usize, usize)>) {
    let at = instr.span;
    // A guarded instruction is skipped when its predicate says so.
    let skip = instr.guard.map(|(p, negated)| {
        let cond = regs[p];
        if negated {
            b.push(Ir::BranchIf { cond, target: 0 }, at)
        } else {
            b.push(Ir::BranchIfNot { cond, target: 0 }, at)
        }
    });
    let elem = |loc: usize, ty: Option<ElemType>| ty.unwrap_or(test.locations[loc].elem);
    match &instr.op {
        Op::Load { dst, loc, sem, ty } => {
            let ty = elem(*loc, *ty);
            let addr = *loc as Reg;
            match *sem {
                Sem::Weak => {
                    b.push(Ir::Load { ty, dst: regs[*dst], addr }, at);
                }
                Sem::Strong { order, scope } => {
                    let zero = b.constant(0, at);
                    b.push(Ir::Atomic { op: AtomicOp::Load, ty, dst: regs[*dst], addr, operand: zero, operand2: zero, order, scope }, at);
                }
            }
        }
        Op::Store { loc, src, sem, ty } => {
            let ty = elem(*loc, *ty);
            let addr = *loc as Reg;
            let src = value(b, *src, regs, at);
            match *sem {
                Sem::Weak => {
                    b.push(Ir::Store { ty, addr, src }, at);
                }
                Sem::Strong { order, scope } => {
                    let old = b.reg();
                    b.push(Ir::Atomic { op: AtomicOp::Store, ty, dst: old, addr, operand: src, operand2: src, order, scope }, at);
                }
            }
        }
        Op::Atomic { op, dst, loc, operand, operand2, order, scope, ty } => {
            let ty = elem(*loc, *ty);
            let x = value(b, *operand, regs, at);
            let y = value(b, *operand2, regs, at);
            let dst = match dst {
                Some(d) => regs[*d],
                None => b.reg(),
            };
            b.push(Ir::Atomic { op: *op, ty, dst, addr: *loc as Reg, operand: x, operand2: y, order: *order, scope: *scope }, at);
        }
        Op::Fence { order, scope } => {
            let flags = b.constant(fence_flags(*order, *scope), at);
            b.push(Ir::Fence { flags }, at);
        }
        Op::Barrier { meeting, resource, members, quorum, arrive } => {
            let meeting = value(b, *meeting, regs, at);
            let resource = value(b, *resource, regs, at);
            let members = b.constant(*members, at);
            let quorum = value(b, quorum.unwrap_or(Value::Const(0)), regs, at);
            b.push(Ir::NamedBarrier { meeting, resource, members, quorum, arrive: *arrive }, at);
        }
        Op::Move { dst, src } => {
            let src = value(b, *src, regs, at);
            b.push(Ir::Move { dst: regs[*dst], src }, at);
        }
        Op::Binary { op, ty, dst, a, b: rhs, narrow } => {
            let lhs = value(b, *a, regs, at);
            let rhs = value(b, *rhs, regs, at);
            b.push(Ir::Binary { op: *op, ty: *ty, dst: regs[*dst], lhs, rhs }, at);
            if let Some(n) = narrow {
                b.push(Ir::Narrow { ty: *n, dst: regs[*dst], src: regs[*dst] }, at);
            }
        }
        Op::Unary { op, ty, dst, a, narrow } => {
            let src = value(b, *a, regs, at);
            b.push(Ir::Unary { op: *op, ty: *ty, dst: regs[*dst], src }, at);
            if let Some(n) = narrow {
                b.push(Ir::Narrow { ty: *n, dst: regs[*dst], src: regs[*dst] }, at);
            }
        }
        Op::Compare { op, ty, dst, a, b: rhs } => {
            let lhs = value(b, *a, regs, at);
            let rhs = value(b, *rhs, regs, at);
            b.push(Ir::Compare { op: *op, ty: *ty, dst: regs[*dst], lhs, rhs }, at);
        }
        Op::Branch { cond, target } => {
            let jump = match cond {
                None => b.push(Ir::Jump { target: 0 }, at),
                Some((op, ty, x, y)) => {
                    let lhs = value(b, *x, regs, at);
                    let rhs = value(b, *y, regs, at);
                    let c = b.reg();
                    b.push(Ir::Compare { op: *op, ty: *ty, dst: c, lhs, rhs }, at);
                    b.push(Ir::BranchIf { cond: c, target: 0 }, at)
                }
            };
            branches.push((jump, *target));
        }
        Op::Exit => {
            // To the thread's end, where its registers are observed.
            let jump = b.push(Ir::Jump { target: 0 }, at);
            branches.push((jump, usize::MAX));
        }
    }
    if let Some(s) = skip {
        let next = b.code.len();
        b.patch(s, next);
    }
}
