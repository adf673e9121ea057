//! Atomics: OpenCL 2.0's functions after C11 with their memory orders and scopes (a constant
//! order or scope is checked here, a computed one when it runs), the names of the OpenCL 1.x
//! atomics, and CUDA's `atomicAdd` family with the scope its name gives (`_block`,
//! `_system`) and the element types CUDA defines each for.
//!
//! Orders and scopes are part of every synchronisation, so they are decided in one file.

use super::*;
use Order::{AcqRel, Acquire, Relaxed, Release, SeqCst};

/// CUDA atomics and how each maps to a read-modify-write, with the scope its name gives:
/// `atomicAdd` is device-scoped, `atomicAdd_block` orders only the block's threads and
/// `atomicAdd_system` the host and other devices too (CUDA C++ Programming Guide, "Atomic
/// Functions").
pub(super) fn cuda_atomic(name: &str) -> Option<(AtomicOp, usize, Scope)> {
    let (name, scope) = if let Some(stem) = name.strip_suffix("_block") {
        (stem, Scope::WorkGroup)
    } else if let Some(stem) = name.strip_suffix("_system") {
        (stem, Scope::System)
    } else {
        (name, Scope::Device)
    };
    let (op, arity) = match name {
        "atomicAdd" => (AtomicOp::Add, 2),
        "atomicSub" => (AtomicOp::Sub, 2),
        "atomicExch" => (AtomicOp::Xchg, 2),
        "atomicMin" => (AtomicOp::Min, 2),
        "atomicMax" => (AtomicOp::Max, 2),
        "atomicInc" => (AtomicOp::IncWrap, 2),
        "atomicDec" => (AtomicOp::DecWrap, 2),
        "atomicCAS" => (AtomicOp::CmpXchg, 3),
        "atomicAnd" => (AtomicOp::And, 2),
        "atomicOr" => (AtomicOp::Or, 2),
        "atomicXor" => (AtomicOp::Xor, 2),
        _ => return None,
    };
    Some((op, arity, scope))
}

/// The element types CUDA defines each atomic for (CUDA C++ Programming Guide, "Atomic
/// Functions"); nvcc refuses the others, so they are refused here too.
pub(super) fn cuda_atomic_types(op: AtomicOp) -> &'static [ElemType] {
    use ElemType::{Double, Float, Int, Long, UInt, ULong, UShort};
    match op {
        AtomicOp::Add => &[Int, UInt, ULong, Float, Double],
        AtomicOp::Sub => &[Int, UInt],
        AtomicOp::Xchg => &[Int, UInt, ULong, Float],
        AtomicOp::Min | AtomicOp::Max => &[Int, UInt, Long, ULong],
        AtomicOp::IncWrap | AtomicOp::DecWrap => &[UInt],
        AtomicOp::CmpXchg => &[Int, UInt, ULong, UShort],
        _ => &[Int, UInt, ULong],
    }
}

/// A scalar type as CUDA code spells it.
pub(super) fn cuda_type_name(t: ElemType) -> &'static str {
    match t {
        ElemType::UInt => "unsigned int",
        ElemType::Long => "long long",
        ElemType::ULong => "unsigned long long",
        ElemType::UShort => "unsigned short",
        other => other.name(),
    }
}

/// The bit set of `values` (each below 8), as [`Instr::CheckOrder`] checks a computed order
/// or scope against.
const fn bits(values: &[u8]) -> u8 {
    let (mut set, mut k) = (0, 0);
    while k < values.len() {
        set |= 1 << values[k];
        k += 1;
    }
    set
}

/// Every memory order, and every memory scope.
pub(super) const ALL_ORDERS: u8 = bits(&[Relaxed.value(), Acquire.value(), Release.value(), AcqRel.value(), SeqCst.value()]);

/// A store's orders: none with an acquire part but seq_cst.
pub(super) const ORDERS_NO_ACQUIRE: u8 = bits(&[Relaxed.value(), Release.value(), SeqCst.value()]);

/// A load's orders: none with a release part but seq_cst.
pub(super) const ORDERS_NO_RELEASE: u8 = bits(&[Relaxed.value(), Acquire.value(), SeqCst.value()]);

pub(super) const ALL_SCOPES: u8 =
    bits(&[Scope::WorkItem.value(), Scope::SubGroup.value(), Scope::WorkGroup.value(), Scope::Device.value(), Scope::System.value()]);

/// An atomic's scopes: all but the work-item's, which is only for image fences.
pub(super) const ATOMIC_SCOPES: u8 = bits(&[Scope::SubGroup.value(), Scope::WorkGroup.value(), Scope::Device.value(), Scope::System.value()]);

pub(super) fn atomic_op(name: &str) -> Option<AtomicOp> {
    let op = name.strip_prefix("atomic_").or_else(|| name.strip_prefix("atom_"))?;
    Some(match op {
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "xchg" => AtomicOp::Xchg,
        "inc" => AtomicOp::Inc,
        "dec" => AtomicOp::Dec,
        "min" => AtomicOp::Min,
        "max" => AtomicOp::Max,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        "cmpxchg" => AtomicOp::CmpXchg,
        _ => return None,
    })
}

impl<'u> FnLowerer<'_, 'u> {
    /// OpenCL 2.0's atomic functions (after C11), with and without `_explicit` orders and
    /// scopes; `None` when `name` is not one of them.
    pub(super) fn c11_atomic(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Result<Val, Diagnostic>> {
        let base = name.strip_suffix("_explicit").unwrap_or(name);
        let explicit = base.len() != name.len();
        let (what, fixed) = match base {
            "atomic_init" if !explicit => ("init", 2),
            "atomic_store" => ("store", 2),
            "atomic_load" => ("load", 1),
            "atomic_exchange" => ("exchange", 2),
            "atomic_compare_exchange_strong" | "atomic_compare_exchange_weak" => ("cmpxchg", 3),
            "atomic_fetch_add" | "atomic_fetch_sub" | "atomic_fetch_or" | "atomic_fetch_xor" | "atomic_fetch_and" | "atomic_fetch_min" | "atomic_fetch_max" => {
                ("fetch", 2)
            }
            "atomic_flag_test_and_set" => ("test_and_set", 1),
            "atomic_flag_clear" => ("clear", 1),
            "atomic_work_item_fence" if !explicit => ("fence", 3),
            _ => return None,
        };
        Some(self.c11_atomic_call(name, base, what, fixed, explicit, args, span))
    }

    /// A memory order argument: a constant, checked now to be one of OpenCL's orders (what the
    /// operation allows of them its caller checks, with words of its own), or a computed
    /// value, checked when it runs (`allowed` has a bit per valid value, see [`bits`]). A
    /// computed order makes the operation seq_cst, the strongest it could be.
    pub(super) fn order_arg(&mut self, e: &ast::Expr, allowed: u8, op: &str) -> Result<Option<Order>, Diagnostic> {
        self.ordering_arg(e, false, allowed, op, Order::from_value)
    }

    /// A memory scope argument, as [`FnLowerer::order_arg`] an order.
    pub(super) fn scope_arg(&mut self, e: &ast::Expr, allowed: u8, op: &str) -> Result<Option<Scope>, Diagnostic> {
        self.ordering_arg(e, true, allowed, op, Scope::from_value)
    }

    /// An order (`scope` false) or scope argument, `decode` reading a constant's value.
    fn ordering_arg<T>(&mut self, e: &ast::Expr, scope: bool, allowed: u8, op: &str, decode: fn(u8) -> Option<T>) -> Result<Option<T>, Diagnostic> {
        let what = if scope { "memory scope" } else { "memory order" };
        match self.types.eval_int(e) {
            Ok(v) => match u8::try_from(v).ok().and_then(decode) {
                Some(x) => Ok(Some(x)),
                None => Err(Diagnostic::error("invalid-memory-order", format!("{v} is not a valid {what}")).with_span(e.span, "here")),
            },
            Err(_) => {
                let v = self.rvalue(e)?;
                let v = self.convert(v, &Ty::Scalar(ElemType::UInt), e.span)?;
                let text = self.program.strings.len() as u32;
                self.program.strings.push(op.to_string());
                self.emit(Instr::CheckOrder { value: v.reg, allowed, scope, text }, e.span);
                Ok(None)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn c11_atomic_call(
        &mut self,
        name: &str,
        base: &str,
        what: &str,
        fixed: usize,
        explicit: bool,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Val, Diagnostic> {
        let orders = if what == "cmpxchg" { 2 } else { 1 };
        let allowed: Vec<usize> = if explicit { vec![fixed + orders, fixed + orders + 1] } else { vec![fixed] };
        if !allowed.contains(&args.len()) {
            let counts: Vec<String> = allowed.iter().map(|n| n.to_string()).collect();
            return Err(type_error(
                span,
                format!("`{name}` takes {} arguments, but {} were given", counts.join(" or "), args.len()),
                "wrong number of arguments",
            ));
        }
        let order_name = |o: Order| format!("memory_order_{}", o.name());
        let invalid = |e: &ast::Expr, message: String| Err(Diagnostic::error("invalid-memory-order", message).with_span(e.span, "this order"));
        if what == "fence" {
            let flags = self.rvalue(&args[0])?;
            let flags = self.convert(flags, &Ty::Scalar(ElemType::UInt), args[0].span)?;
            let order = self.order_arg(&args[1], ALL_ORDERS, base)?.unwrap_or(SeqCst);
            let scope = self.scope_arg(&args[2], ALL_SCOPES, base)?.unwrap_or(Scope::Device);
            let image_only = self.types.eval_int(&args[0]).is_ok_and(|f| f == 4);
            if scope == Scope::WorkItem && !image_only {
                return invalid(&args[2], "memory_scope_work_item is only valid with CLK_IMAGE_MEM_FENCE".into());
            }
            let bits = ir::fence::scope_bits(scope.level()) | ir::fence::order_bits(order);
            let scoped = self.constant(bits, ElemType::UInt, span)?;
            let f = self.reg()?;
            self.emit(Instr::Binary { op: BinaryOp::Or, ty: NumTy::U32, dst: f, lhs: flags.reg, rhs: scoped.reg }, span);
            self.emit(Instr::Fence { flags: f }, span);
            return Ok(Val { reg: f, ty: Ty::Void });
        }
        let p = self.rvalue(&args[0])?;
        let Ty::Ptr { pointee, space, .. } = &p.ty else {
            return Err(type_error(args[0].span, format!("`{name}` needs a pointer to an atomic object"), "not a pointer"));
        };
        let space = *space;
        let elem = match pointee.as_ref() {
            Ty::Scalar(t @ (ElemType::Int | ElemType::UInt | ElemType::Long | ElemType::ULong)) => *t,
            Ty::Scalar(t @ (ElemType::Float | ElemType::Double)) if matches!(what, "init" | "store" | "load" | "exchange" | "cmpxchg") => *t,
            other => return Err(type_error(args[0].span, format!("`{name}` does not work on `{}`", other.describe()), "wrong type")),
        };
        if space == Space::Constant {
            return Err(type_error(args[0].span, format!("`{name}` cannot update __constant memory"), "constant"));
        }
        let vt = Ty::Scalar(elem);
        // The orders and scope after the fixed arguments.
        let default_scope = Scope::Device;
        let (mut order, mut failure, mut scope) = (SeqCst, SeqCst, default_scope);
        if explicit {
            let allowed = match what {
                "store" | "clear" => ORDERS_NO_ACQUIRE,
                "load" => ORDERS_NO_RELEASE,
                _ => ALL_ORDERS,
            };
            order = self.order_arg(&args[fixed], allowed, base)?.unwrap_or(SeqCst);
            if what == "cmpxchg" {
                // A computed failure order is checked against the fixed rules only.
                failure = self.order_arg(&args[fixed + 1], ORDERS_NO_RELEASE, base)?.unwrap_or(Relaxed);
            }
            if let Some(s) = args.get(fixed + orders) {
                scope = self.scope_arg(s, ATOMIC_SCOPES, base)?.unwrap_or(default_scope);
                if scope == Scope::WorkItem {
                    return invalid(s, format!("`{name}` cannot use memory_scope_work_item, which is only for image fences"));
                }
            }
            let oarg = &args[fixed];
            match what {
                "store" | "clear" if matches!(order, Acquire | AcqRel) => {
                    return invalid(oarg, format!("`{base}` cannot use {}: a store has no acquire part", order_name(order)))
                        .map_err(|d: Diagnostic| d.with_help("use memory_order_release, memory_order_seq_cst or memory_order_relaxed"));
                }
                "load" if matches!(order, Release | AcqRel) => {
                    return invalid(oarg, format!("`{base}` cannot use {}: a load has no release part", order_name(order)))
                        .map_err(|d: Diagnostic| d.with_help("use memory_order_acquire, memory_order_seq_cst or memory_order_relaxed"));
                }
                "cmpxchg" => {
                    let farg = &args[fixed + 1];
                    if matches!(failure, Release | AcqRel) {
                        return invalid(farg, format!("the failure order of `{base}` cannot be {}", order_name(failure)));
                    }
                    let stronger = match order {
                        Relaxed | Release => failure != Relaxed,
                        Acquire | AcqRel => failure == SeqCst,
                        SeqCst => false,
                    };
                    if stronger {
                        return invalid(farg, format!("the failure order {} is stronger than the success order {}", order_name(failure), order_name(order)));
                    }
                }
                _ => {}
            }
        }
        // An atomic on local memory reaches its work-group only (a sub-group's scope is
        // recorded as the work-group's too).
        let scope = if space == Space::Local { Scope::WorkGroup } else { scope };
        let operand = |this: &mut Self, k: usize| -> Result<Reg, Diagnostic> {
            let v = this.rvalue(&args[k])?;
            Ok(this.convert(v, &vt, args[k].span)?.reg)
        };
        let dst = self.reg()?;
        let emit_atomic = |this: &mut Self, op: AtomicOp, operand: Reg, operand2: Reg| {
            this.emit(Instr::Atomic { op, ty: elem, dst, addr: p.reg, operand, operand2, order, scope }, span);
        };
        match what {
            "init" => {
                // atomic_init is an ordinary, non-atomic store.
                let v = operand(self, 1)?;
                self.emit(Instr::Store { ty: elem, addr: p.reg, src: v }, span);
                Ok(Val { reg: v, ty: Ty::Void })
            }
            "store" => {
                let v = operand(self, 1)?;
                emit_atomic(self, AtomicOp::Store, v, v);
                Ok(Val { reg: dst, ty: Ty::Void })
            }
            "load" => {
                emit_atomic(self, AtomicOp::Load, p.reg, p.reg);
                Ok(Val { reg: dst, ty: vt })
            }
            "exchange" => {
                let v = operand(self, 1)?;
                emit_atomic(self, AtomicOp::Xchg, v, v);
                Ok(Val { reg: dst, ty: vt })
            }
            "fetch" => {
                let op = match &base["atomic_fetch_".len()..] {
                    "add" => AtomicOp::Add,
                    "sub" => AtomicOp::Sub,
                    "or" => AtomicOp::Or,
                    "xor" => AtomicOp::Xor,
                    "and" => AtomicOp::And,
                    "min" => AtomicOp::Min,
                    _ => AtomicOp::Max,
                };
                let v = operand(self, 1)?;
                emit_atomic(self, op, v, v);
                Ok(Val { reg: dst, ty: vt })
            }
            "test_and_set" => {
                let one = self.constant(1, elem, span)?;
                emit_atomic(self, AtomicOp::Xchg, one.reg, one.reg);
                let zero = self.constant(0, elem, span)?;
                let r = self.reg()?;
                self.emit(Instr::Compare { op: CmpOp::Ne, ty: num_ty(elem), dst: r, lhs: dst, rhs: zero.reg }, span);
                Ok(Val { reg: r, ty: Ty::Scalar(ElemType::Bool) })
            }
            "clear" => {
                let zero = self.constant(0, elem, span)?;
                emit_atomic(self, AtomicOp::Store, zero.reg, zero.reg);
                Ok(Val { reg: dst, ty: Ty::Void })
            }
            _ => {
                // compare-exchange: `expected` points at the value to compare with; on failure
                // it receives the value found.
                let e = self.rvalue(&args[1])?;
                let Ty::Ptr { pointee: ep, .. } = &e.ty else {
                    return Err(type_error(args[1].span, format!("`{name}` needs a pointer to the expected value"), "not a pointer")
                        .with_help("pass the address of a variable, e.g. &expected"));
                };
                if ep.as_ref() != &vt {
                    return Err(type_error(args[1].span, format!("the expected value must be a `{}`, not `{}`", vt.describe(), ep.describe()), "here"));
                }
                let expected = self.reg()?;
                self.emit(Instr::Load { ty: elem, dst: expected, addr: e.reg }, span);
                let desired = operand(self, 2)?;
                let weak = base == "atomic_compare_exchange_weak";
                emit_atomic(self, if weak { AtomicOp::CmpXchgWeak } else { AtomicOp::CmpXchg }, desired, expected);
                let ok = self.reg()?;
                self.emit(Instr::CasSucceeded { ty: num_ty(elem), dst: ok, old: dst, expected }, span);
                let skip = self.emit(Instr::BranchIf { cond: ok, target: 0 }, span);
                self.emit(Instr::Store { ty: elem, addr: e.reg, src: dst }, span);
                let end = self.here();
                self.patch(skip, end);
                Ok(Val { reg: ok, ty: Ty::Scalar(ElemType::Bool) })
            }
        }
    }

    pub(super) fn cuda_atomic_call(&mut self, name: &str, op: AtomicOp, n: usize, scope: Scope, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        if args.len() != n {
            return Err(type_error(span, format!("`{name}` takes {n} arguments, but {} were given", args.len()), "wrong number of arguments"));
        }
        let p = self.rvalue(&args[0])?;
        let Ty::Ptr { pointee, .. } = &p.ty else {
            return Err(type_error(args[0].span, format!("`{name}` needs the address of the value to update"), "not a pointer"));
        };
        let types = cuda_atomic_types(op);
        let elem = match pointee.as_ref() {
            Ty::Scalar(t) if types.contains(t) => *t,
            other => {
                let names: Vec<String> = types.iter().map(|t| format!("`{}`", cuda_type_name(*t))).collect();
                return Err(type_error(args[0].span, format!("`{name}` does not work on `{}`", other.describe()), "wrong element type")
                    .with_note(format!("CUDA defines it for {}", names.join(", "))));
            }
        };
        let vt = Ty::Scalar(elem);
        let first = self.rvalue(&args[1])?;
        let first = self.convert(first, &vt, args[1].span)?;
        let (operand, operand2) = if op == AtomicOp::CmpXchg {
            let desired = self.rvalue(&args[2])?;
            let desired = self.convert(desired, &vt, args[2].span)?;
            (desired.reg, first.reg)
        } else {
            (first.reg, first.reg)
        };
        let dst = self.reg()?;
        // CUDA's atomics are relaxed; their scope is the name's.
        self.emit(Instr::Atomic { op, ty: elem, dst, addr: p.reg, operand, operand2, order: Relaxed, scope }, span);
        Ok(Val { reg: dst, ty: vt })
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::Dialect;

    /// The diagnostic `source` fails to compile with, as `code: message`.
    fn refusal(source: &str) -> String {
        match crate::frontend::check(source, Dialect::OpenCl, &[]) {
            Ok(_) => "compiles".to_string(),
            Err(d) => d.iter().map(|d| format!("{}: {}", d.code, d.message)).collect::<Vec<_>>().join("\n"),
        }
    }

    #[test]
    fn constant_orders_and_scopes_are_opencl_values() {
        let store =
            |order: &str, scope: &str| refusal(&format!("__kernel void k(__global atomic_int *x) {{ atomic_store_explicit(x, 1, {order}, {scope}); }}"));
        assert_eq!(store("memory_order_release", "memory_scope_device"), "compiles");
        assert_eq!(store("memory_order_relaxed", "memory_scope_sub_group"), "compiles");
        // 1 is C11's consume, which OpenCL C does not have; OpenCL's scopes stop at 4.
        assert_eq!(store("1", "memory_scope_device"), "invalid-memory-order: 1 is not a valid memory order");
        assert_eq!(store("6", "memory_scope_device"), "invalid-memory-order: 6 is not a valid memory order");
        assert_eq!(store("memory_order_release", "5"), "invalid-memory-order: 5 is not a valid memory scope");
        let fence = |order: &str, scope: &str| refusal(&format!("__kernel void k() {{ atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, {order}, {scope}); }}"));
        assert_eq!(fence("memory_order_acq_rel", "memory_scope_work_group"), "compiles");
        assert_eq!(fence("1", "memory_scope_device"), "invalid-memory-order: 1 is not a valid memory order");
        assert_eq!(fence("memory_order_seq_cst", "5"), "invalid-memory-order: 5 is not a valid memory scope");
    }
}
