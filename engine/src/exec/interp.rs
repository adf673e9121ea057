//! The interpreter loop: private computation at full speed, shared events one at a time.
//!
//! [`run_private`] executes a work-item's instructions until the next one that touches
//! shared memory (or the kernel returns), then leaves it `Ready` with its program counter on
//! that instruction. [`perform_event`] carries out that one instruction. The loop matches on
//! one `Copy` enum: no allocation, no dynamic dispatch.

use super::{Alloc, Arrival, Fault, Frame, Geometry, Machine, Rare, Scope, SpinWatch, Status, WorkItem};
use crate::concurrency::race::AccessInfo as RaceAccess;
use crate::concurrency::weak;
use crate::diag::Span;
use crate::ir::{fence, ptr, AtomicOp, BinaryOp, Instr, NumTy, Program, Query, UnaryOp};
use crate::report::FindingKind;
use crate::scenario::{Access, ElemType};
use crate::trace::{EventKind, Location, Space};

use super::value::{atomic, binary, canon_int, compare, convert, f32_of, f64_of, round, signed_overflow};

/// The relaxed model's key for the location `p` points to, accessed by a member of `group`
/// (local memory is one copy per group).
fn weak_key(p: u64, group: usize) -> weak::LocKey {
    let space = ptr::space(p);
    let owner = if space == Space::Local { group as u32 } else { 0 };
    (space as u8, owner, ptr::alloc(p), ptr::offset(p))
}

/// Why private execution stopped.
enum Exit {
    /// At an instruction that must be a scheduled event.
    AtEvent,
    Finished,
    /// A recoverable problem: report it and keep going.
    Problem(FindingKind, String, Span),
    /// The work-item cannot continue.
    Fatal(FindingKind, String, Span),
    /// Too many instructions without an event.
    Runaway(Span),
    /// Growing its state (a call's frame and registers, private memory) needs this many
    /// bytes, more than the memory limit leaves (or than the host gives).
    Memory(u64, &'static str, Span),
}

/// Grows `v` to hold `len` elements with an exact reservation, charged to `room` (the bytes
/// the memory limit leaves) before it is made. A vector that already has the capacity costs
/// nothing, so a call repeated at the same depth charges once. `Err` with the bytes needed
/// when the room, or the host, does not have them: sizes come from the kernel, and a failed
/// allocation must not end the process.
fn reserve<T>(room: &mut u64, v: &mut Vec<T>, len: usize) -> Result<(), u64> {
    let old = v.capacity();
    if len <= old {
        return Ok(());
    }
    let bytes = ((len - old) as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    if bytes > *room || v.try_reserve_exact(len - v.len()).is_err() {
        return Err(bytes);
    }
    *room -= ((v.capacity() - old) as u64).saturating_mul(std::mem::size_of::<T>() as u64).min(*room);
    Ok(())
}

/// [`reserve`] for a register file: registers held in place cost nothing, and the first
/// growth past them charges the whole heap copy they move to.
fn reserve_regs(room: &mut u64, v: &mut super::Regs, len: usize) -> Result<(), u64> {
    if len <= v.capacity() {
        return Ok(());
    }
    let held = super::regs_heap_bytes(v) as u64;
    let bytes = (len as u64).saturating_mul(8).saturating_sub(held);
    if bytes > *room || v.try_reserve_exact(len - v.len()).is_err() {
        return Err(bytes);
    }
    *room -= (super::regs_heap_bytes(v) as u64 - held).min(*room);
    Ok(())
}

/// The `Rare` box of a work-item, made (and charged to `room`) on first use.
fn rare_box<'a>(room: &mut u64, rare: &'a mut Option<Box<Rare>>) -> Result<&'a mut Rare, u64> {
    if rare.is_none() {
        let bytes = std::mem::size_of::<Rare>() as u64;
        if bytes > *room {
            return Err(bytes);
        }
        *room -= bytes;
    }
    Ok(rare.get_or_insert_with(Box::default))
}

/// Runs `wi`'s private computation up to its next shared-memory event.
#[inline]
pub fn run_private(m: &mut Machine, wi: u32) {
    run_private_with(m, wi, false);
}

/// Runs `wi`'s private computation after an event of its own, in the same step: up to its
/// next shared-memory event, performing on the way the reads [`fold_read`] finds need no
/// step of their own (under the observable granularity). Only here: a work-item's reads
/// are folded into a step of its own, never into the launch (which would do an unbounded
/// share of the run before its first step) nor into another work-item's step (a barrier's
/// release, a group's start), where the timeline would show them under someone else.
#[inline]
pub fn run_after_event(m: &mut Machine, wi: u32) {
    let fold = m.fold_reads;
    run_private_with(m, wi, fold);
}

#[inline]
fn run_private_with(m: &mut Machine, wi: u32, fold: bool) {
    let limit = m.limits.instructions_per_step;
    let mut fuel = limit;
    run_stretch(m, wi, &mut fuel, fold);
    // The clock counts every instruction a work-item executes.
    m.items[wi as usize].cycles += limit - fuel;
}

fn run_stretch(m: &mut Machine, wi: u32, fuel: &mut u64, fold: bool) {
    let program = m.program.clone();
    let limit = m.limits.instructions_per_step;
    let call_depth = m.limits.call_depth;
    loop {
        let item = &mut m.items[wi as usize];
        let active = m.warps[item.warp as usize].active;
        let first = m.groups[item.group as usize].first;
        let room = &mut m.memory_room;
        match exec_private(&program, &m.geometry, &m.program_globals, item, wi - first, fuel, limit, active, m.warp_size, call_depth, room) {
            Exit::AtEvent if fold && fold_read(m, wi) => {}
            Exit::AtEvent => return,
            Exit::Finished => {
                let item = &m.items[wi as usize];
                let span = program.functions[item.func as usize].spans[item.pc as usize];
                m.set_status(wi, Status::Finished);
                m.event(wi, EventKind::Finish, None, 0, 0, span);
                m.leave_group(wi, Some(span));
                return;
            }
            Exit::Problem(kind, message, span) => {
                m.fault(Fault { kind, message, span, work_item: wi, step: m.step, related: Vec::new() });
            }
            Exit::Fatal(kind, message, span) => {
                m.fault(Fault { kind, message, span, work_item: wi, step: m.step, related: Vec::new() });
                m.set_status(wi, Status::Faulted);
                m.leave_group(wi, None);
                return;
            }
            Exit::Runaway(span) => {
                let limit = m.limits.instructions_per_step;
                m.fault(Fault {
                    kind: FindingKind::StepLimit,
                    message: crate::limits::INSTRUCTIONS_PER_STEP
                        .exceeded(limit, &format!("work-item {wi} ran {limit} instructions without touching shared memory (an endless loop?)")),
                    span,
                    work_item: wi,
                    step: m.step,
                    related: Vec::new(),
                });
                m.runaway = Some(wi);
                return;
            }
            Exit::Memory(needed, what, span) => {
                out_of_memory(m, wi, needed, what, span);
                return;
            }
        }
    }
}

/// Performs `wi`'s next instruction in the current step if it is a read that no other
/// work-item can observe or change the result of, and says whether it did. That is a plain
/// load of constant memory or of a read-only buffer: nothing writes them (every store, atomic
/// update, async copy or promise into one is refused), so the read returns the same value,
/// and conflicts with nothing, whenever it is made, and making it at the end of the step
/// before removes no outcome and adds none. A read that would be a finding (out of bounds,
/// misaligned, uninitialised) stays a step of its own, where the finding has always been,
/// and so does every read once the event log is full (the run then stops at its limit) and
/// a read its work-item spins on.
/// Memory merely untouched *so far* is not such memory (ARCHITECTURE.md says why).
fn fold_read(m: &mut Machine, wi: u32) -> bool {
    if m.log.len() as u64 >= m.limits.history_events {
        return false;
    }
    let item = &m.items[wi as usize];
    let (func, pc, base, group) = (item.func, item.pc, item.base as usize, item.group as usize);
    let function = &m.program.functions[func as usize];
    let Some(&Instr::Load { ty, dst, addr }) = function.code.get(pc as usize) else {
        return false;
    };
    let span = function.spans[pc as usize];
    let p = item.regs[base + addr as usize];
    // Local memory is the group's to write; private memory never reaches here.
    if !matches!(ptr::space(p), Space::Global | Space::Constant) {
        return false;
    }
    let size = ty.size();
    let Machine { global, constant, groups, .. } = m;
    let foldable = match resolve(global, constant, &mut groups[group].local, p, size) {
        Ok((a, at)) => unwritable(a, p) && !is_uninit(a, at, size as usize),
        Err(_) => false,
    };
    if !foldable {
        return false;
    }
    // The spin watch sees the read as it would see it as a step. A work-item whose state
    // repeats at it spins on memory nothing will change: folded, that loop would run on
    // within one step to the instruction limit, where as steps the hang detector names it.
    quiet(m, wi, func, pc);
    if m.is_spinning(wi) || m.runaway.is_some() {
        return false;
    }
    m.items[wi as usize].pc = pc + 1;
    load(m, wi, ty, base + dst as usize, p, group, span);
    true
}

/// Stops the run: work-item `wi` needs `needed` more bytes for `what` than the memory limit
/// leaves.
fn out_of_memory(m: &mut Machine, wi: u32, needed: u64, what: &str, span: Span) {
    let limit = m.limits.memory_bytes;
    let message = crate::limits::MEMORY_BYTES.exceeded(
        limit,
        &format!(
            "work-item {wi} needs {} more bytes for {what}, more than the memory limit leaves (the launch holds the rest)",
            crate::limits::thousands(needed)
        ),
    );
    m.fault(Fault { kind: FindingKind::StepLimit, message, span, work_item: wi, step: m.step, related: Vec::new() });
    m.runaway = Some(wi);
}

fn private_range(private: &[u8], p: u64, size: u64, span: Span) -> Result<usize, Exit> {
    let offset = ptr::offset(p);
    if offset.checked_add(size).is_none_or(|end| end > private.len() as u64) {
        return Err(Exit::Problem(FindingKind::OutOfBounds, format!("invalid {size}-byte access to private memory at offset {offset}"), span));
    }
    Ok(offset as usize)
}

/// The finding of a signed operation whose result wrapped, kept out of the interpreter loop
/// (it is rare, and its message allocates).
#[cold]
fn overflowed(op: BinaryOp, a: u64, b: u64, span: Span) -> Exit {
    let (a, b) = (a as i64, b as i64);
    Exit::Problem(FindingKind::SignedOverflow, format!("signed integer overflow: {a} {} {b} does not fit in its type (the result wraps)", op_symbol(op)), span)
}

/// Executes private instructions of `item` until its next event (or the end of the kernel,
/// a problem, or running out of `fuel`). The current frame's code, spans, registers, program
/// counter and fuel live in locals, reloaded only when a call or return changes the frame,
/// so each instruction costs a fetch, a fuel check and its own work.
#[allow(clippy::too_many_arguments)]
fn exec_private(
    program: &Program,
    geometry: &Geometry,
    globals: &[u64],
    item: &mut WorkItem,
    local_linear: u32,
    fuel: &mut u64,
    limit: u64,
    active_mask: u64,
    warp_size: u32,
    call_depth: u32,
    room: &mut u64,
) -> Exit {
    let mut left = *fuel;
    let WorkItem { func: cur_func, pc: cur_pc, base: cur_base, regs, cycles, group, spurious, rare, .. } = item;
    let exit = 'frame: loop {
        let func = &program.functions[*cur_func as usize];
        let (code, spans) = (&func.code[..], &func.spans[..]);
        let base = *cur_base as usize;
        let mut pc = *cur_pc as usize;
        let r = &mut regs[base..];
        let exit = loop {
            // Matched in place: an arm reads only the fields it uses, not the whole instruction.
            let Some(instr) = code.get(pc) else {
                break Exit::Fatal(FindingKind::Unsupported, "execution ran past the end of a function".into(), Span::default());
            };
            if left == 0 {
                break Exit::Runaway(spans[pc]);
            }
            left -= 1;
            let next = pc + 1;
            match *instr {
                Instr::Const { dst, bits } => r[dst as usize] = bits,
                Instr::Move { dst, src } => r[dst as usize] = r[src as usize],
                Instr::Binary { op: op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), ty: NumTy::I32, dst, lhs, rhs } => {
                    // The commonest arithmetic, `int` addition, subtraction and multiplication,
                    // computed and checked for overflow in one go: the low 32 bits of the
                    // result depend only on the low 32 bits of the operands, so this is what
                    // `binary` and `signed_overflow` give.
                    let (a, b) = (r[lhs as usize], r[rhs as usize]);
                    let (x, y) = (a as i32, b as i32);
                    let (v, overflow) = match op {
                        BinaryOp::Add => x.overflowing_add(y),
                        BinaryOp::Sub => x.overflowing_sub(y),
                        _ => x.overflowing_mul(y),
                    };
                    r[dst as usize] = v as i64 as u64;
                    if overflow {
                        pc = next;
                        break overflowed(op, a, b, spans[pc - 1]);
                    }
                }
                Instr::Binary { op, ty, dst, lhs, rhs } => {
                    let (a, b) = (r[lhs as usize], r[rhs as usize]);
                    match binary(op, ty, a, b) {
                        Some(v) => {
                            r[dst as usize] = v;
                            if matches!(ty, NumTy::I32 | NumTy::I64) && signed_overflow(op, ty, a, b) {
                                pc = next;
                                break overflowed(op, a, b, spans[pc - 1]);
                            }
                        }
                        None => {
                            r[dst as usize] = 0;
                            pc = next;
                            let what = if op == BinaryOp::Div { "division" } else { "remainder" };
                            break Exit::Problem(FindingKind::DivisionByZero, format!("integer {what} by zero (the result is taken as 0)"), spans[pc - 1]);
                        }
                    }
                }
                Instr::Compare { op, ty, dst, lhs, rhs } => r[dst as usize] = compare(op, ty, r[lhs as usize], r[rhs as usize]) as u64,
                Instr::Unary { op, ty, dst, src } => {
                    let v = r[src as usize];
                    r[dst as usize] = match (op, ty) {
                        (UnaryOp::LogicalNot, _) => (canon_int(ty, v) == 0) as u64,
                        (UnaryOp::Neg, NumTy::F32) => (-f32_of(v)).to_bits() as u64,
                        (UnaryOp::Neg, NumTy::F64) => (-f64_of(v)).to_bits(),
                        (UnaryOp::Neg, _) => canon_int(ty, (v as i64).wrapping_neg() as u64),
                        (UnaryOp::BitNot, _) => canon_int(ty, !v),
                        (UnaryOp::Abs, NumTy::I32) => (v as i32).unsigned_abs() as u64,
                        (UnaryOp::Abs, NumTy::I64) => (v as i64).unsigned_abs(),
                        (UnaryOp::Abs, NumTy::F32) => f32_of(v).abs().to_bits() as u64,
                        (UnaryOp::Abs, NumTy::F64) => f64_of(v).abs().to_bits(),
                        (UnaryOp::Abs, _) => v,
                        (UnaryOp::RoundEven | UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc, NumTy::F32) => {
                            { round(op, f32_of(v) as f64) as f32 }.to_bits() as u64
                        }
                        (UnaryOp::RoundEven | UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc, NumTy::F64) => round(op, f64_of(v)).to_bits(),
                        (UnaryOp::RoundEven | UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc, _) => v,
                    }
                }
                Instr::Convert { from, to, dst, src } => r[dst as usize] = convert(from, to, r[src as usize]),
                Instr::Math { op, ty, dst, a, b, c } => r[dst as usize] = super::math::eval(op, ty, r[a as usize], r[b as usize], r[c as usize]),
                Instr::Narrow { ty, dst, src } => {
                    let v = r[src as usize];
                    r[dst as usize] = match ty {
                        ElemType::Bool => (v != 0) as u64,
                        ElemType::Char => v as i8 as i64 as u64,
                        ElemType::UChar => v as u8 as u64,
                        ElemType::Short => v as i16 as i64 as u64,
                        ElemType::UShort => v as u16 as u64,
                        ElemType::Int => v as i32 as i64 as u64,
                        ElemType::UInt | ElemType::Float => v as u32 as u64,
                        ElemType::Long | ElemType::ULong | ElemType::Double => v,
                    }
                }
                Instr::PtrAdd { dst, ptr: p, index, scale } => {
                    let delta = (r[index as usize] as i64).wrapping_mul(scale as i64);
                    r[dst as usize] = ptr::add(r[p as usize], delta);
                }
                Instr::PtrDiff { dst, lhs, rhs, scale } => {
                    let d = (ptr::offset(r[lhs as usize]) as i64).wrapping_sub(ptr::offset(r[rhs as usize]) as i64);
                    r[dst as usize] = (d / scale.max(1) as i64) as u64;
                }
                Instr::Jump { target } => {
                    pc = target as usize;
                    continue;
                }
                Instr::BranchIf { cond, target } => {
                    pc = if r[cond as usize] != 0 { target as usize } else { next };
                    continue;
                }
                Instr::BranchIfNot { cond, target } => {
                    pc = if r[cond as usize] == 0 { target as usize } else { next };
                    continue;
                }
                Instr::Load { ty, dst, addr } => {
                    let p = r[addr as usize];
                    if ptr::space(p) != Space::Private {
                        break Exit::AtEvent;
                    }
                    // A work-item without a `Rare` box has no private memory: any access to
                    // it is out of bounds.
                    let (private, private_init) = rare.as_deref().map_or((&[][..], &[][..]), |r| (&r.private[..], &r.private_init[..]));
                    match private_range(private, p, ty.size(), spans[pc]) {
                        Ok(at) => {
                            r[dst as usize] = ty.decode(&private[at..]);
                            if private_init[at..at + ty.size() as usize].contains(&false) {
                                // Of an array, struct or vector, only the part read may be
                                // missing: say so when other parts were stored.
                                let message = match private_variable(func, r, pc as u32, at as u64) {
                                    Some((name, bytes)) => {
                                        let stored = private_init.get(bytes.start as usize..bytes.end as usize).is_some_and(|b| b.contains(&true));
                                        if stored {
                                            format!("read of a part of `{name}` that nothing has stored yet")
                                        } else {
                                            format!("read of `{name}` before anything was stored in it")
                                        }
                                    }
                                    None => "read of a private variable before anything was stored in it".to_string(),
                                };
                                pc = next;
                                break Exit::Problem(FindingKind::UninitializedRead, message, spans[pc - 1]);
                            }
                        }
                        Err(problem) => {
                            r[dst as usize] = 0;
                            pc = next;
                            break problem;
                        }
                    }
                }
                Instr::Store { ty, addr, src } => {
                    let p = r[addr as usize];
                    if ptr::space(p) != Space::Private {
                        break Exit::AtEvent;
                    }
                    let (private, private_init) = rare.as_deref_mut().map_or((&mut [][..], &mut [][..]), |r| (&mut r.private[..], &mut r.private_init[..]));
                    match private_range(private, p, ty.size(), spans[pc]) {
                        Ok(at) => {
                            ty.encode(r[src as usize], &mut private[at..]);
                            private_init[at..at + ty.size() as usize].fill(true);
                        }
                        Err(problem) => {
                            pc = next;
                            break problem;
                        }
                    }
                }
                Instr::Atomic { .. }
                | Instr::Barrier { .. }
                | Instr::NamedBarrier { .. }
                | Instr::Fence { .. }
                | Instr::Printf { .. }
                | Instr::AsyncCopy { .. }
                | Instr::WaitEvents { .. }
                | Instr::Collective { .. }
                | Instr::Malloc { .. }
                | Instr::Free { .. }
                | Instr::Statement => break Exit::AtEvent,
                Instr::WorkItem { query: q, dst, dim } => r[dst as usize] = query(geometry, *group, local_linear, warp_size, q, r[dim as usize]),
                Instr::LocalAddr { dst, index } => r[dst as usize] = ptr::make(Space::Local, index, 0),
                Instr::Clock { dst } => r[dst as usize] = *cycles + (limit - left),
                Instr::Observe { slot, src } => {
                    let value = r[src as usize];
                    let observed = &mut rare.get_or_insert_with(Box::default).observed;
                    match observed.iter_mut().find(|(s, _)| *s == slot) {
                        Some(entry) => entry.1 = value,
                        None => observed.push((slot, value)),
                    }
                }
                Instr::Undefined { dst, text } => {
                    r[dst as usize] = 0;
                    pc = next;
                    let name = program.strings.get(text as usize).map_or("", String::as_str);
                    break Exit::Problem(
                        FindingKind::UndefinedFunction,
                        format!("`{name}` is declared but has no body: the call does nothing and returns 0"),
                        spans[pc - 1],
                    );
                }
                Instr::CheckIndex { index, len } => {
                    let i = r[index as usize] as i64;
                    if i < 0 || i as u64 >= len {
                        pc = next;
                        break Exit::Problem(FindingKind::OutOfBounds, format!("index {i} exceeds static array size {len}"), spans[pc - 1]);
                    }
                }
                Instr::CasSucceeded { ty, dst, old, expected } => {
                    let equal = canon_int(ty, r[old as usize]) == canon_int(ty, r[expected as usize]);
                    r[dst as usize] = (equal && !*spurious) as u64;
                }
                Instr::CheckOrder { value, allowed, scope, text } => {
                    let v = r[value as usize];
                    if v >= 8 || allowed & (1 << v) == 0 {
                        pc = next;
                        let what = if scope { "memory scope" } else { "memory order" };
                        let op = program.strings.get(text as usize).map(String::as_str).unwrap_or("this atomic");
                        break Exit::Problem(
                            FindingKind::InvalidMemoryOrder,
                            format!("the computed {what} {v} is not valid for `{op}`; the operation runs as seq_cst"),
                            spans[pc - 1],
                        );
                    }
                }
                Instr::ActiveMask { dst } => r[dst as usize] = active_mask,
                Instr::Assert { cond, text } => {
                    if r[cond as usize] == 0 {
                        let block = geometry.group_id(*group);
                        let thread = geometry.local_id(*group, local_linear);
                        let text = program.strings.get(text as usize).map(String::as_str).unwrap_or("");
                        let (function, expr) = text.split_once('\n').unwrap_or((text, ""));
                        let message = format!(
                            "{function}: block: [{},{},{}], thread: [{},{},{}] Assertion `{expr}` failed.",
                            block[0], block[1], block[2], thread[0], thread[1], thread[2]
                        );
                        pc = next;
                        break Exit::Fatal(FindingKind::AssertionFailed, message, spans[pc - 1]);
                    }
                }
                Instr::GlobalAddr { dst, index } => r[dst as usize] = globals[index as usize],
                Instr::Alloca { dst, size, align, initialised } => {
                    let align = align.max(1) as usize;
                    let what = "its private variables";
                    let Rare { private, private_init, .. } = match rare_box(room, rare) {
                        Ok(r) => r,
                        Err(needed) => break Exit::Memory(needed, what, spans[pc]),
                    };
                    let start = private.len().div_ceil(align) * align;
                    let end = start + size as usize;
                    if let Err(needed) = reserve(room, private, end).and_then(|_| reserve(room, private_init, end)) {
                        break Exit::Memory(needed, what, spans[pc]);
                    }
                    private.resize(end, 0);
                    private_init.resize(end, initialised);
                    r[dst as usize] = ptr::make(Space::Private, 1, start as u64);
                }
                Instr::Call { func: callee, dst, args, argc } => {
                    let what = "the frame and registers of a call";
                    let Rare { frames, private, .. } = match rare_box(room, rare) {
                        Ok(r) => r,
                        Err(needed) => break Exit::Memory(needed, what, spans[pc]),
                    };
                    if frames.len() as u32 >= call_depth {
                        break Exit::Fatal(FindingKind::Unsupported, format!("calls nested deeper than {call_depth} levels"), spans[pc]);
                    }
                    let callee_fn = &program.functions[callee as usize];
                    let new_base = regs.len();
                    let grown = reserve(room, frames, frames.len() + 1).and_then(|_| reserve_regs(room, regs, new_base + callee_fn.num_regs as usize));
                    if let Err(needed) = grown {
                        break Exit::Memory(needed, what, spans[pc]);
                    }
                    regs.resize(new_base + callee_fn.num_regs as usize, 0);
                    for i in 0..argc as usize {
                        let a = func.arg_pool[args as usize + i];
                        regs[new_base + i] = regs[base + a as usize];
                    }
                    frames.push(Frame { func: *cur_func, pc: next as u32, base: *cur_base, dst, private_top: private.len() as u32 });
                    *cur_func = callee;
                    *cur_base = new_base as u32;
                    *cur_pc = 0;
                    continue 'frame;
                }
                Instr::Return { src } => {
                    let value = src.map(|s| r[s as usize]);
                    // A work-item that never called has no `Rare` box and no frame to return to.
                    let Some(Rare { frames, private, private_init, .. }) = rare.as_deref_mut() else {
                        break Exit::Finished;
                    };
                    let Some(frame) = frames.pop() else {
                        break Exit::Finished;
                    };
                    regs.truncate(base);
                    private.truncate(frame.private_top as usize);
                    private_init.truncate(frame.private_top as usize);
                    *cur_func = frame.func;
                    *cur_pc = frame.pc;
                    *cur_base = frame.base;
                    if let Some(v) = value {
                        regs[frame.base as usize + frame.dst as usize] = v;
                    }
                    continue 'frame;
                }
            }
            pc = next;
        };
        *cur_pc = pc as u32;
        break exit;
    };
    *fuel = left;
    exit
}

/// Resolves a shared-memory pointer to its allocation and byte offset.
fn resolve<'m>(
    global: &'m mut [Alloc],
    constant: &'m mut [Alloc],
    local: &'m mut [Alloc],
    p: u64,
    size: u64,
) -> Result<(&'m mut Alloc, usize), (FindingKind, String)> {
    let (space, alloc, offset) = (ptr::space(p), ptr::alloc(p) as usize, ptr::offset(p));
    let pool: &mut [Alloc] = match space {
        Space::Global => global,
        Space::Constant => constant,
        Space::Local => local,
        Space::Private => return Err((FindingKind::OutOfBounds, "private pointer reached shared memory".into())),
    };
    if space == Space::Global && alloc == 0 {
        return Err((FindingKind::NullDereference, format!("dereference of a null pointer (offset {offset})")));
    }
    let Some(a) = pool.get_mut(alloc) else {
        return Err((FindingKind::OutOfBounds, "access through an invalid pointer".into()));
    };
    if offset.checked_add(size).is_none_or(|end| end > a.bytes.len() as u64) {
        let len = a.bytes.len();
        return Err((FindingKind::OutOfBounds, format!("invalid {size}-byte access at byte offset {offset} of `{}`, which has {len} bytes", a.name)));
    }
    if offset % size != 0 {
        return Err((FindingKind::MisalignedAccess, format!("{size}-byte access at byte offset {offset} of `{}` is not aligned", a.name)));
    }
    Ok((a, offset as usize))
}

fn is_uninit(a: &Alloc, at: usize, size: usize) -> bool {
    a.init.as_ref().is_some_and(|init| init[at..at + size].iter().any(|b| !b))
}

fn mark_init(a: &mut Alloc, at: usize, size: usize) {
    if let Some(init) = a.init.as_mut() {
        init[at..at + size].iter_mut().for_each(|b| *b = true);
    }
}

fn describe_space(space: Space) -> &'static str {
    match space {
        Space::Global => "global",
        Space::Local => "local",
        Space::Constant => "constant",
        Space::Private => "private",
    }
}

/// The address the pending event of work-item `wi` accesses, when it is ready at a load, a
/// store or an atomic (only for a prefetch: nothing is checked).
#[inline]
pub fn pending_address(m: &Machine, wi: u32) -> Option<u64> {
    let item = m.items.get(wi as usize)?;
    if item.status != Status::Ready {
        return None;
    }
    let func = m.program.functions.get(item.func as usize)?;
    let addr = match *func.code.get(item.pc as usize)? {
        Instr::Load { addr, .. } | Instr::Store { addr, .. } | Instr::Atomic { addr, .. } => addr,
        _ => return None,
    };
    item.regs.get(item.base as usize + addr as usize).copied()
}

/// Carries out the event instruction at `wi`'s program counter.
pub fn perform_event(m: &mut Machine, wi: u32) {
    let program = m.program.clone();
    let (func_index, pc, base, group) = {
        let item = &m.items[wi as usize];
        (item.func, item.pc, item.base as usize, item.group as usize)
    };
    let func = &program.functions[func_index as usize];
    let span = func.spans[pc as usize];
    let instr = &func.code[pc as usize];
    m.items[wi as usize].pc = pc + 1;
    let reg = |m: &Machine, r: u32| m.items[wi as usize].regs[base + r as usize];
    match *instr {
        Instr::Load { ty, dst, addr } => {
            load(m, wi, ty, base + dst as usize, reg(m, addr), group, span);
            // A load that read an older write may read a newer one next time: `Machine::perform`
            // unsettles the watch after any drawn outcome.
            quiet(m, wi, func_index, pc);
        }
        Instr::Store { ty, addr, src } => {
            let p = reg(m, addr);
            let v = reg(m, src);
            let size = ty.size();
            let event = m.log.len() as u32;
            let Machine { global, constant, groups, races, log, weak, step, .. } = m;
            let result = resolve(global, constant, &mut groups[group].local, p, size).and_then(|(a, at)| {
                if unwritable(a, p) {
                    return Err((FindingKind::ReadOnlyWrite, format!("write to the read-only buffer `{}`", a.name)));
                }
                let before = ty.decode(&a.bytes[at..]);
                let was_uninit = is_uninit(a, at, size as usize);
                ty.encode(v, &mut a.bytes[at..]);
                if weak.enabled {
                    let written = ty.decode(&a.bytes[at..]);
                    let store = weak::Store { ord: weak::Ordering::PLAIN, rmw: None, event, step: *step, everyone: false, span };
                    if let Some(keep) = weak.store(wi, weak_key(p, group), size as u8, before, written, store, &mut |_| 0).keep {
                        ty.encode(keep, &mut a.bytes[at..]);
                    }
                }
                mark_init(a, at, size as usize);
                // Storing what memory already holds is benign for the race detector even where
                // that memory was never written (its contents are arbitrary, not absent); for
                // spin detection, initialising memory is a change.
                let same = ty.decode(&a.bytes[at..]) == before;
                let changed = was_uninit || !same;
                let value = stored_bits(&a.bytes[at..at + size as usize]);
                let info = RaceAccess { write: true, same_value: same, value, ..access_info(wi, p, group, size, event, span) };
                races.access(&mut a.shadow, log, info);
                Ok(changed)
            });
            match result {
                Ok(true) => m.write_epoch += 1,
                Ok(false) => {}
                Err((kind, message)) => m.fault(Fault { kind, message, span, work_item: wi, step: m.step, related: Vec::new() }),
            }
            let loc = Location { space: ptr::space(p), alloc: ptr::alloc(p), offset: ptr::offset(p) };
            m.event(wi, EventKind::Store, Some(loc), 0, v, span);
        }
        Instr::Atomic { op, ty, dst, addr, operand, operand2, order, scope } => {
            let p = reg(m, addr);
            let (x, y) = (reg(m, operand), reg(m, operand2));
            let size = ty.size();
            let event = m.log.len() as u32;
            let Machine { global, constant, groups, rng, races, log, weak, step, .. } = m;
            let mut spurious = false;
            let result = resolve(global, constant, &mut groups[group].local, p, size).and_then(|(a, at)| {
                if a.access != Access::ReadWrite || ptr::space(p) == Space::Constant {
                    return Err((FindingKind::ReadOnlyWrite, format!("atomic update of the read-only or write-only buffer `{}`", a.name)));
                }
                let latest = ty.decode(&a.bytes[at..]);
                let mut old = latest;
                // A store that keeps a promise finds its own value in memory already: for the
                // race detector it changes what was there before the promise.
                let promised_before = if weak.enabled { weak.promised_before(wi, weak_key(p, group)) } else { None };
                let ord = weak::Ordering { atomic: true, order, level: scope.level() };
                let key = weak_key(p, group);
                // Under the relaxed model a load (or an update) may read an older write, and
                // then it synchronises with what that write released, not with the latest one.
                let mut release_read = None;
                let mut rmw_read = None;
                if weak.enabled && op == AtomicOp::Load {
                    let read = weak.load(wi, key, size as u8, ord, event, Some(&mut |n| rng.below(n as u64) as u32));
                    release_read = read.race_release;
                    if let Some(value) = read.value {
                        old = value;
                    }
                } else if weak.enabled && op != AtomicOp::Store {
                    // A compare-exchange writes only where its comparison succeeds (it compares
                    // as `atomic` does: a successful exchange would hand back the probe `v ^ 1`).
                    let cas = matches!(op, AtomicOp::CmpXchg | AtomicOp::CmpXchgWeak);
                    let apply = |v: u64| (!cas || atomic(AtomicOp::CmpXchg, ty, v, v ^ 1, y) != v).then(|| atomic(op, ty, v, x, y));
                    let spurious_one_in = (op == AtomicOp::CmpXchgWeak).then_some(WEAK_CAS_FAILS_ONE_IN);
                    let update = weak::Update { apply: &apply, spurious_one_in };
                    let read = weak.rmw_read(wi, key, size as u8, latest, ord, &update, &mut |n| rng.below(n as u64) as u32);
                    release_read = read.race_release;
                    spurious = read.spurious;
                    if let Some(value) = read.value {
                        old = value;
                    }
                    rmw_read = Some(read.ts);
                }
                // A load leaves memory as it is, whichever write it read.
                let mut new = if op == AtomicOp::Load { latest } else { atomic(op, ty, old, x, y) };
                // A weak exchange that would succeed fails one time in four (option 1 of the
                // step's decision; under the relaxed model, an option of the update's read).
                if op == AtomicOp::CmpXchgWeak && new != old && !weak.enabled && weak.decide(2, &mut || (rng.below(WEAK_CAS_FAILS_ONE_IN) == 0) as u32) == 1 {
                    spurious = true;
                }
                if spurious {
                    new = old;
                }
                // Whether a compare-exchange failed: it compares as `atomic` does (a
                // successful exchange would hand back the probe `old ^ 1`).
                let cas_failed = matches!(op, AtomicOp::CmpXchg | AtomicOp::CmpXchgWeak) && (spurious || atomic(AtomicOp::CmpXchg, ty, old, old ^ 1, y) == old);
                let was_uninit = is_uninit(a, at, size as usize);
                // A compare-exchange that failed wrote nothing: memory keeps the latest write,
                // even when it read an older one (whose value `new` then is).
                ty.encode(if cas_failed { latest } else { new }, &mut a.bytes[at..]);
                mark_init(a, at, size as usize);
                // A load changes nothing, even of a location its work-item has promised to
                // write (whose memory already shows the promised value).
                let mut same = op == AtomicOp::Load || ty.decode(&a.bytes[at..]) == promised_before.unwrap_or(latest);
                // A load reads only, a store writes only, anything else reads and writes, but
                // for a compare-exchange that failed, which only read: it neither races as a
                // write nor continues or starts a release sequence.
                let (write, rmw) = match op {
                    AtomicOp::Load => (false, false),
                    AtomicOp::Store => (true, false),
                    _ if cas_failed => (false, false),
                    _ => (true, true),
                };
                let info = RaceAccess {
                    write,
                    rmw,
                    same_value: same,
                    // What a write stored, or what a read (a load, a failed compare-exchange)
                    // returned.
                    value: if write { stored_bits(&a.bytes[at..at + size as usize]) } else { bits_of(ty, old) },
                    atomic: Some((order, scope)),
                    ..access_info(wi, p, group, size, event, span)
                };
                let word = at / 4;
                let saved = release_read.map(|r| std::mem::replace(&mut a.shadow.cell(word).release, r));
                // A relaxed write may be placed before the latest one, which keeps its release.
                let before = (saved.is_none() && write && weak.enabled && races.enabled).then(|| a.shadow.cell(word).release.clone());
                races.access(&mut a.shadow, log, info);
                // The shadow keeps the release of the latest write: what an access of an older
                // write made of it goes back, once the write (if any) has kept its own.
                let mut latest_release = saved;
                if weak.enabled && op != AtomicOp::Load {
                    if cas_failed {
                        // A compare-exchange that failed only read.
                        weak.rmw_failed(wi, key, size as u8, rmw_read.unwrap_or(0), ord, event);
                    } else {
                        let written = ty.decode(&a.bytes[at..]);
                        let store = weak::Store { ord, rmw: rmw_read, event, step: *step, everyone: false, span };
                        let w = weak.store(wi, key, size as u8, old, written, store, &mut |n| rng.below(n as u64) as u32);
                        if let Some(keep) = w.keep {
                            ty.encode(keep, &mut a.bytes[at..]);
                            // Memory shows no change, but an older write gained a successor.
                            same = false;
                        }
                        if races.enabled {
                            weak.set_race_release(key, w.ts, a.shadow.cell(word).release.clone());
                        }
                        if w.latest {
                            latest_release = None;
                        } else if latest_release.is_none() {
                            latest_release = before;
                        }
                    }
                }
                if let Some(saved) = latest_release {
                    a.shadow.cell(word).release = saved;
                }
                let changed = was_uninit || !same;
                Ok((old, new, changed))
            });
            let (old, new, changed) = match result {
                Ok(v) => v,
                Err((kind, message)) => {
                    m.fault(Fault { kind, message, span, work_item: wi, step: m.step, related: Vec::new() });
                    (0, 0, false)
                }
            };
            m.items[wi as usize].regs[base + dst as usize] = old;
            m.items[wi as usize].spurious = spurious;
            let loc = Location { space: ptr::space(p), alloc: ptr::alloc(p), offset: ptr::offset(p) };
            m.atomic_event(wi, loc, old, new, span, order, scope, op);
            // An update that leaves the value as it was (a failed compare-exchange, adding
            // zero, setting a set flag) is a read as far as progress goes. One whose outcome
            // was drawn (a weak compare-exchange that failed spuriously, an update that read an
            // older write) may go otherwise from the same state next time: a retry that can
            // still succeed, never the anchor of a spin.
            if changed {
                m.write_epoch += 1;
            } else {
                quiet(m, wi, func_index, pc);
            }
        }
        Instr::Barrier { flags } => {
            let f = reg(m, flags);
            m.event(wi, EventKind::BarrierArrive, None, 0, f, span);
            arrive(m, Scope::Group(group), Arrival { wi, func: func_index, pc, a: f, b: 0, mask: None, width: 0 });
        }
        Instr::NamedBarrier { meeting, resource, members, quorum, arrive } => {
            let (name, resource) = (reg(m, meeting), reg(m, resource));
            let (members, quorum) = (reg(m, members), reg(m, quorum));
            let event = m.log.len() as u32;
            m.event(wi, EventKind::BarrierArrive, None, name, resource, span);
            super::named_barrier::arrive(m, wi, group, name, resource, members, quorum, arrive, event, span);
        }
        Instr::Collective { warp, a, b, mask, width, .. } => {
            let (a, b) = (reg(m, a), reg(m, b));
            let mask = mask.map(|r| reg(m, r));
            let width = width.map_or(0, |r| reg(m, r));
            m.event(wi, EventKind::BarrierArrive, None, a, b, span);
            let scope = if warp { Scope::Warp(m.items[wi as usize].warp as usize) } else { Scope::Group(group) };
            arrive(m, scope, Arrival { wi, func: func_index, pc, a, b, mask, width });
        }
        Instr::Malloc { dst, size } => {
            let size = reg(m, size);
            let p = m.heap_alloc(size);
            m.write_epoch += 1;
            m.races.heap_malloc(wi);
            m.items[wi as usize].regs[base + dst as usize] = p;
            let loc = (p != 0).then(|| Location { space: Space::Global, alloc: ptr::alloc(p), offset: ptr::offset(p) });
            m.event(wi, EventKind::Atomic, loc, size, p, span);
        }
        Instr::Free { ptr: r } => {
            let p = reg(m, r);
            m.write_epoch += 1;
            m.races.heap_free(wi);
            if p != 0 && !m.heap_free(p) {
                m.fault(Fault {
                    kind: FindingKind::OutOfBounds,
                    message: "free of a pointer that malloc did not return (or that was already freed)".into(),
                    span,
                    work_item: wi,
                    step: m.step,
                    related: Vec::new(),
                });
            }
            m.event(wi, EventKind::Atomic, None, p, 0, span);
        }
        Instr::Fence { flags } => {
            let f = reg(m, flags);
            let scope = if f & fence::SCOPE_GROUP != 0 {
                Some(crate::ir::Scope::WorkGroup)
            } else if f & fence::SCOPE_DEVICE != 0 {
                Some(crate::ir::Scope::Device)
            } else if f & fence::SCOPE_SYSTEM != 0 {
                Some(crate::ir::Scope::System)
            } else {
                None
            };
            m.ordered_event(wi, EventKind::Fence, None, 0, f, span, None, scope);
            m.races.fence(wi, f);
            if m.weak.enabled {
                let (order, level) = fence::order_and_level(f);
                m.weak.fence(wi, order, level, f);
            }
            quiet(m, wi, func_index, pc);
        }
        Instr::AsyncCopy { dst, to, from, count, stride, event, elem_size, to_local } => {
            let (to, from, count, stride, event_in) = (reg(m, to), reg(m, from), reg(m, count), reg(m, stride), reg(m, event));
            let rare = m.items[wi as usize].rare.get_or_insert_with(Box::default);
            let k = rare.copies_called as usize;
            rare.copies_called += 1;
            let handle = match m.groups[group].copies.get(k) {
                Some(c) => {
                    let same = (c.to, c.from, c.count, c.stride, c.elem_size, c.to_local) == (to, from, count, stride, elem_size, to_local);
                    let (handle, issuer, first_span) = (c.event, c.issuer, c.span);
                    if !same {
                        m.fault(Fault {
                            kind: FindingKind::AsyncCopyDivergence,
                            message: format!(
                                "async copy divergence: work-item {wi} called the group's async copy with different arguments than work-item {issuer}"
                            ),
                            span,
                            work_item: wi,
                            step: m.step,
                            related: vec![(first_span, Some(issuer), format!("work-item {issuer} started the copy with its arguments here"))],
                        });
                    }
                    handle
                }
                None => {
                    let handle = if event_in != 0 { event_in } else { k as u64 + 1 };
                    m.groups[group].copies.push(super::AsyncCopy { to, from, count, stride, elem_size, to_local, event: handle, done: 0, issuer: wi, span });
                    m.update_copy_engine(group);
                    // The copy engine knows what the work-item that started the copy knew.
                    let engine = m.copy_engine(group);
                    m.races.learn_from(engine, wi);
                    handle
                }
            };
            let item = &mut m.items[wi as usize];
            if !item.unwaited().contains(&handle) {
                item.rare.get_or_insert_with(Box::default).unwaited.push(handle);
            }
            item.regs[base + dst as usize] = handle;
            m.event(wi, EventKind::AsyncCopy, None, count, handle, span);
        }
        Instr::WaitEvents { count, list } => {
            let (n, p) = (reg(m, count), reg(m, list));
            let mut events = Vec::new();
            for k in 0..n.min(1024) {
                match read_event(m, wi, ptr::add(p, 8 * k as i64)) {
                    Some(e) => events.push(e),
                    None => {
                        m.fault(Fault {
                            kind: FindingKind::InvalidWaitEvent,
                            message: format!("wait_group_events reads its event list out of bounds (event {k} of {n})"),
                            span,
                            work_item: wi,
                            step: m.step,
                            related: Vec::new(),
                        });
                        break;
                    }
                }
            }
            m.event(wi, EventKind::Wait, None, n, 0, span);
            let mut pending = Vec::new();
            for e in events {
                if !m.groups[group].copies.iter().any(|c| c.event == e) {
                    m.fault(Fault {
                        kind: FindingKind::InvalidWaitEvent,
                        message: format!("wait_group_events was given an event ({e}) that no async copy of this work-group returned"),
                        span,
                        work_item: wi,
                        step: m.step,
                        related: Vec::new(),
                    });
                    continue;
                }
                if let Some(rare) = &mut m.items[wi as usize].rare {
                    rare.unwaited.retain(|&u| u != e);
                }
                if !m.event_complete(group, e) {
                    pending.push(e);
                }
            }
            if pending.is_empty() {
                let engine = m.copy_engine(group);
                m.races.learn_from(wi, engine);
            } else {
                m.items[wi as usize].rare.get_or_insert_with(Box::default).waiting_for = pending;
                m.set_status(wi, Status::Waiting);
            }
        }
        Instr::Printf { format, args, argc } => {
            let values: Vec<(crate::ir::PrintfArg, u64)> = (0..argc as usize)
                .map(|i| {
                    let k = args as usize + i;
                    (func.printf_types[k], reg(m, func.arg_pool[k]))
                })
                .collect();
            let text = super::printf::format(&program.strings[format as usize], &values, &program.strings);
            m.record_printf(wi, text, span);
            // Output is progress: a loop that prints is not a silent spin.
            m.write_epoch += 1;
            m.event(wi, EventKind::Printf, None, 0, 0, span);
        }
        Instr::Statement => m.event(wi, EventKind::Statement, None, 0, 0, span),
        _ => {}
    }
}

fn op_symbol(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        _ => "*",
    }
}

/// The name of the private variable of `func` in scope at `pc` whose memory holds byte
/// `offset`, for messages (`regs` is the frame's register file).
fn private_variable(func: &crate::ir::Function, regs: &[u64], pc: u32, offset: u64) -> Option<(String, std::ops::Range<u64>)> {
    func.vars.iter().filter(|v| v.start <= pc && pc < v.end).find_map(|v| {
        let crate::ir::DebugPlace::Mem(r) = v.place else { return None };
        let start = ptr::offset(*regs.get(r as usize)?);
        let size = match v.elem {
            crate::ir::DebugElem::Scalar(t) => t.size() * v.count as u64,
            crate::ir::DebugElem::Pointer => 8 * v.count as u64,
            crate::ir::DebugElem::Bytes => v.count as u64,
        };
        (start..start + size).contains(&offset).then(|| (v.name.clone(), start..start + size))
    })
}

/// How often a weak compare-exchange that could succeed fails spuriously: one time in this
/// many. Often enough that a loop which forgets to retry goes wrong under a few seeds.
const WEAK_CAS_FAILS_ONE_IN: u64 = 4;

/// A plain load by `wi` through pointer `p` into its register `dst` (an index into its
/// register vector), as an event of the current step.
fn load(m: &mut Machine, wi: u32, ty: ElemType, dst: usize, p: u64, group: usize, span: Span) {
    let size = ty.size();
    let event = m.log.len() as u32;
    let Machine { global, constant, groups, races, log, weak, rng, .. } = m;
    let (v, problem) = match resolve(global, constant, &mut groups[group].local, p, size) {
        Err(problem) => (0, Some(problem)),
        Ok((a, at)) => {
            let mut v = ty.decode(&a.bytes[at..]);
            if weak.enabled {
                let key = weak_key(p, group);
                let read = weak.load(wi, key, size as u8, weak::Ordering::PLAIN, event, Some(&mut |n| rng.below(n as u64) as u32));
                if let Some(old) = read.value {
                    v = old;
                }
            }
            if may_race(a) {
                let info = RaceAccess { value: bits_of(ty, v), ..access_info(wi, p, group, size, event, span) };
                races.access(&mut a.shadow, log, info);
            }
            if a.access == Access::WriteOnly {
                (v, Some((FindingKind::WriteOnlyRead, format!("read from the write-only buffer `{}`", a.name))))
            } else if is_uninit(a, at, size as usize) {
                let space = describe_space(ptr::space(p));
                (v, Some((FindingKind::UninitializedRead, format!("read of uninitialised {space} memory in `{}` (byte offset {at})", a.name))))
            } else {
                (v, None)
            }
        }
    };
    if let Some((kind, message)) = problem {
        m.fault(Fault { kind, message, span, work_item: wi, step: m.step, related: Vec::new() });
    }
    m.items[wi as usize].regs[dst] = v;
    let loc = Location { space: ptr::space(p), alloc: ptr::alloc(p), offset: ptr::offset(p) };
    m.event(wi, EventKind::Load, Some(loc), v, 0, span);
}

/// Whether the allocation `a`, reached through pointer `p`, is memory nothing may write:
/// constant memory, or a read-only buffer. Stores and async copies into it are refused, so
/// its reads can be folded into the step before them (`fold_read`).
fn unwritable(a: &Alloc, p: u64) -> bool {
    a.access == Access::ReadOnly || ptr::space(p) == Space::Constant
}

/// Whether an access to `a` can race. Nothing writes a read-only buffer (a store, atomic
/// update or async copy into one is refused with a `read-only-write` finding and not
/// performed), and reads never conflict with reads, so the race detector keeps no shadow of
/// it: a kernel's input costs no cell a word and no check a read.
pub(crate) fn may_race(a: &Alloc) -> bool {
    a.access != Access::ReadOnly
}

/// The race detector's view of an access by `wi` through pointer `p` (a plain read; callers
/// adjust the rest).
fn access_info(wi: u32, p: u64, group: usize, size: u64, event: u32, span: Span) -> RaceAccess {
    RaceAccess {
        agent: wi,
        space: ptr::space(p),
        memory_group: group as u32,
        alloc: ptr::alloc(p),
        offset: ptr::offset(p),
        size,
        write: false,
        atomic: None,
        same_value: false,
        value: 0,
        rmw: false,
        event,
        span,
    }
}

/// The bits of a value of `ty` in register form as memory holds them, for the race detector.
fn bits_of(ty: ElemType, v: u64) -> u64 {
    let mut b = [0u8; 8];
    ty.encode(v, &mut b);
    u64::from_le_bytes(b)
}

/// The bits a write stored, for the race detector: its first eight bytes, the first lowest.
fn stored_bits(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(b)
}

/// Quiet events (loads, updates that changed nothing, fences) since the spin anchor after
/// which the anchor moves to the current event.
const SPIN_ANCHOR_WINDOW: u32 = 64;

/// Records a quiet event of `wi` at `func`/`pc` and decides whether it spins: its state at
/// this event equals its state the last time it was here, and no shared memory changed in
/// between. The state is hashed only when the anchor recurs, so straight-line code pays a
/// comparison, not a hash.
fn quiet(m: &mut Machine, wi: u32, func: u32, pc: u32) {
    let epoch = m.write_epoch;
    if m.spins.len() < m.items.len() && !make_spin_watches(m, wi, func, pc) {
        return;
    }
    let item = &m.items[wi as usize];
    let (frames, private) = item.rare.as_deref().map_or((&[][..], &[][..]), |r| (&r.frames[..], &r.private[..]));
    let w = &mut m.spins[wi as usize];
    if w.epoch != epoch || w.since >= SPIN_ANCHOR_WINDOW {
        // A new watch reuses the buffers of the old one.
        w.epoch = epoch;
        w.func = func;
        w.pc = pc;
        w.since = 0;
        w.taken = false;
        w.spinning = false;
        return;
    }
    if (w.func, w.pc) != (func, pc) {
        w.since += 1;
        return;
    }
    w.since = 0;
    // Once the state has repeated in this epoch it keeps repeating until something writes.
    if w.spinning {
        return;
    }
    let same = w.taken
        && w.saved.as_ref().is_some_and(|s| {
            s.regs[..] == item.regs[..]
                && s.private == private
                && s.frames.len() == frames.len()
                && s.frames.iter().zip(frames).all(|(&(f, p), frame)| (f, p) == (frame.func, frame.pc))
        });
    if same {
        w.spinning = true;
        return;
    }
    // The saved copy grows with the work-item's state: charged like any growth, so a launch
    // of many spinning work-items with large private memory stops at the memory limit.
    let s = w.saved.get_or_insert_with(Default::default);
    let room = &mut m.memory_room;
    let grown = reserve(room, &mut s.regs, item.regs.len())
        .and_then(|_| reserve(room, &mut s.private, private.len()))
        .and_then(|_| reserve(room, &mut s.frames, frames.len()));
    if let Err(needed) = grown {
        let span = m.program.functions[func as usize].spans.get(pc as usize).copied().unwrap_or_default();
        out_of_memory(m, wi, needed, "a copy of its state to tell whether it spins", span);
        return;
    }
    // The clock counter is left out on purpose: a loop that reads `clock()` keeps it in a
    // register, and a loop that does not cannot tell the difference.
    s.regs.clear();
    s.regs.extend_from_slice(&item.regs);
    s.private.clear();
    s.private.extend_from_slice(private);
    s.frames.clear();
    s.frames.extend(frames.iter().map(|f| (f.func, f.pc)));
    w.taken = true;
}

/// Makes every work-item's spin watch, at the launch's first quiet event (`wi`'s, at
/// `func`/`pc`), charged to the memory limit like any growth; `false` when the limit (or the
/// host) leaves no room for them, and the run stops.
#[cold]
fn make_spin_watches(m: &mut Machine, wi: u32, func: u32, pc: u32) -> bool {
    let len = m.items.len();
    if let Err(needed) = reserve(&mut m.memory_room, &mut m.spins, len) {
        let span = m.program.functions[func as usize].spans.get(pc as usize).copied().unwrap_or_default();
        out_of_memory(m, wi, needed, "the launch's spin-loop detection", span);
        return false;
    }
    m.spins.resize_with(len, SpinWatch::default);
    true
}

/// Forgets what `wi`'s spin watch saw: its last event's outcome was drawn from the generator
/// (see [`crate::concurrency::weak::Weak::decide`]), so it may go otherwise from the same state next time,
/// and a state that repeats across it is a retry that can still succeed, not a spin. The next
/// quiet event starts a new watch.
pub fn unsettle(m: &mut Machine, wi: u32) {
    if let Some(w) = m.spins.get_mut(wi as usize) {
        w.since = SPIN_ANCHOR_WINDOW;
        w.spinning = false;
    }
}

/// A work-item arrives at a rendezvous; the last one to arrive releases everyone.
fn arrive(m: &mut Machine, scope: Scope, arrival: Arrival) {
    // A loop through a barrier or collective is not a spin: the others it meets may have
    // changed their private state, and what it releases may go on to write.
    if let Some(w) = m.spins.get_mut(arrival.wi as usize) {
        w.epoch = 0;
        w.spinning = false;
    }
    m.set_status(arrival.wi, Status::AtBarrier);
    if let Scope::Warp(w) = scope {
        m.warp_arrive(w, arrival);
        return;
    }
    let r = m.rendezvous(scope);
    r.waiting.push(arrival);
    if r.waiting.len() as u32 == r.unfinished {
        m.release(scope, arrival.wi);
    }
}

/// Reads one `event_t` from wherever the list points (usually private memory).
fn read_event(m: &mut Machine, wi: u32, p: u64) -> Option<u64> {
    if ptr::space(p) == Space::Private {
        let item = &m.items[wi as usize];
        let at = ptr::offset(p) as usize;
        return item.private().get(at..at + 8).map(|b| ElemType::ULong.decode(b));
    }
    let g = m.items[wi as usize].group as usize;
    let Machine { global, constant, groups, .. } = m;
    resolve(global, constant, &mut groups[g].local, p, 8).ok().map(|(a, at)| ElemType::ULong.decode(&a.bytes[at..]))
}

/// Moves the next element of group `g`'s oldest unfinished async copy.
pub fn copy_element(m: &mut Machine, g: usize) {
    let Some(index) = m.groups[g].copies.iter().position(|c| c.done < c.count) else {
        m.update_copy_engine(g);
        return;
    };
    let c = m.groups[g].copies[index].clone();
    let es = c.elem_size as u64;
    let i = c.done;
    let (global_step, local_step) = (c.stride.max(1) * es, es);
    let (src, dst) = if c.to_local {
        (ptr::add(c.from, (i * global_step) as i64), ptr::add(c.to, (i * local_step) as i64))
    } else {
        (ptr::add(c.from, (i * local_step) as i64), ptr::add(c.to, (i * global_step) as i64))
    };
    let mut buf = [0u8; 128];
    let size = (es as usize).min(buf.len());
    let engine = m.copy_engine(g);
    let event = m.log.len() as u32;
    let result = {
        let Machine { global, constant, groups, races, log, weak, step, .. } = m;
        let local = &mut groups[g].local;
        match resolve(global, constant, local, src, es) {
            Ok((a, at)) => {
                buf[..size].copy_from_slice(&a.bytes[at..at + size]);
                if may_race(a) {
                    let read = RaceAccess { value: stored_bits(&buf[..size]), ..access_info(engine, src, g, es, event, c.span) };
                    races.access(&mut a.shadow, log, read);
                }
                match resolve(global, constant, local, dst, es) {
                    Ok((b, at)) if !unwritable(b, dst) => {
                        let same = b.bytes[at..at + size] == buf[..size] && !is_uninit(b, at, size);
                        b.bytes[at..at + size].copy_from_slice(&buf[..size]);
                        mark_init(b, at, size);
                        let value = stored_bits(&buf[..size]);
                        let info = RaceAccess { write: true, same_value: same, value, ..access_info(engine, dst, g, es, event, c.span) };
                        races.access(&mut b.shadow, log, info);
                        if weak.enabled {
                            // The copy's writes are what every reader sees from now on: the
                            // group orders them through wait_group_events, not through views.
                            let value = u64::from_le_bytes(buf[..8].try_into().unwrap_or([0; 8]));
                            let store = weak::Store { ord: weak::Ordering::PLAIN, rmw: None, event, step: *step, everyone: true, span: c.span };
                            let _ = weak.store(engine, weak_key(dst, g), es.min(255) as u8, 0, value, store, &mut |_| 0);
                        }
                        Ok(())
                    }
                    Ok((b, _)) => Err((FindingKind::ReadOnlyWrite, format!("async copy into the read-only buffer `{}`", b.name))),
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    };
    if let Err((kind, message)) = result {
        m.fault(Fault { kind, message: format!("async copy: {message}"), span: c.span, work_item: c.issuer, step: m.step, related: Vec::new() });
    }
    m.groups[g].copies[index].done += 1;
    let value = u64::from_le_bytes(buf[..8].try_into().unwrap_or([0; 8]));
    let loc = Location { space: ptr::space(dst), alloc: ptr::alloc(dst), offset: ptr::offset(dst) };
    m.event(c.issuer, EventKind::AsyncCopy, Some(loc), value, value, c.span);
    m.write_epoch += 1;
    if m.groups[g].copies[index].done == c.count {
        m.wake_waiters(g);
    }
    m.update_copy_engine(g);
}

impl Machine {
    /// Whether every copy of group `g` with event `e` has moved all its elements.
    pub fn event_complete(&self, g: usize, e: u64) -> bool {
        self.groups[g].copies.iter().filter(|c| c.event == e).all(|c| c.done >= c.count)
    }

    /// Makes group `g`'s copy engine ready exactly while it has elements to move.
    pub fn update_copy_engine(&mut self, g: usize) {
        let engine = self.copy_engine(g);
        let busy = self.groups[g].copies.iter().any(|c| c.done < c.count);
        let was = self.ready_pos[engine as usize] != u32::MAX;
        self.set_ready(engine, was, busy);
    }

    /// Resumes the work-items of group `g` whose awaited copies are all complete.
    fn wake_waiters(&mut self, g: usize) {
        let first = self.groups[g].first as usize;
        let end = self.groups.get(g + 1).map_or(self.items.len(), |n| n.first as usize);
        for wi in first..end {
            if self.items[wi].status != Status::Waiting {
                continue;
            }
            let done = self.items[wi].waiting_for().iter().all(|&e| self.event_complete(g, e));
            if done {
                if let Some(rare) = &mut self.items[wi].rare {
                    rare.waiting_for.clear();
                }
                let engine = self.copy_engine(g);
                self.races.learn_from(wi as u32, engine);
                self.set_status(wi as u32, Status::Ready);
                run_private(self, wi as u32);
            }
        }
    }
}

/// Answers a work-item query from the launch geometry.
fn query(g: &Geometry, group: u32, local_linear: u32, warp_size: u32, query: Query, dim: u64) -> u64 {
    let d = dim as usize;
    // Each query computes only the coordinates it needs: these are called once per query
    // in the interpreter's loop.
    let group_id = || g.group_id(group);
    let local_size = || g.group_size(group);
    let local_id = || g.local_id(group, local_linear);
    match query {
        Query::WorkDim => g.dims as u64,
        Query::GlobalLinearId => {
            let (group_id, local_id) = (group_id(), local_id());
            let gid = |k: usize| group_id[k] * g.local[k] + local_id[k];
            gid(0) + g.global[0] * (gid(1) + g.global[1] * gid(2))
        }
        Query::LocalLinearId => {
            let (local_id, local_size) = (local_id(), local_size());
            local_id[0] + local_size[0] * (local_id[1] + local_size[1] * local_id[2])
        }
        Query::SubGroupSize | Query::MaxSubGroupSize | Query::NumSubGroups | Query::EnqueuedNumSubGroups | Query::SubGroupId | Query::SubGroupLocalId => {
            super::sub_group_query(query, local_size().iter().product(), g.local.iter().product(), local_linear as u64, warp_size as u64)
        }
        _ if d >= g.dims as usize => match query {
            Query::GlobalSize | Query::LocalSize | Query::EnqueuedLocalSize | Query::NumGroups => 1,
            _ => 0,
        },
        Query::GlobalId => group_id()[d] * g.local[d] + local_id()[d] + g.offset[d],
        Query::LocalId => local_id()[d],
        Query::GroupId => group_id()[d],
        Query::GlobalSize => g.global[d],
        Query::LocalSize => local_size()[d],
        Query::EnqueuedLocalSize => g.local[d],
        Query::NumGroups => g.num_groups[d],
        Query::GlobalOffset => g.offset[d],
    }
}
