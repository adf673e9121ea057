//! OpenCL's work-item queries (`get_global_id`, the sub-group queries) and its work-group
//! and sub-group collectives (`work_group_reduce_add`, `sub_group_broadcast`,
//! `sub_group_barrier`, ...), which become `Instr::WorkItem` and `Instr::Collective`.
//!
//! CUDA's block and warp collectives are in `warp.rs`.

use super::*;

pub(super) fn work_item_query(name: &str) -> Option<Query> {
    Some(match name {
        "get_global_id" => Query::GlobalId,
        "get_local_id" => Query::LocalId,
        "get_group_id" => Query::GroupId,
        "get_global_size" => Query::GlobalSize,
        "get_local_size" => Query::LocalSize,
        "get_enqueued_local_size" => Query::EnqueuedLocalSize,
        "get_num_groups" => Query::NumGroups,
        "get_global_offset" => Query::GlobalOffset,
        "get_work_dim" => Query::WorkDim,
        "get_global_linear_id" => Query::GlobalLinearId,
        "get_local_linear_id" => Query::LocalLinearId,
        "get_sub_group_size" => Query::SubGroupSize,
        "get_max_sub_group_size" => Query::MaxSubGroupSize,
        "get_num_sub_groups" => Query::NumSubGroups,
        "get_enqueued_num_sub_groups" => Query::EnqueuedNumSubGroups,
        "get_sub_group_id" => Query::SubGroupId,
        "get_sub_group_local_id" => Query::SubGroupLocalId,
        _ => return None,
    })
}

pub(super) fn is_sub_group_query(query: Query) -> bool {
    matches!(
        query,
        Query::SubGroupSize | Query::MaxSubGroupSize | Query::NumSubGroups | Query::EnqueuedNumSubGroups | Query::SubGroupId | Query::SubGroupLocalId
    )
}

/// What an OpenCL work-group or sub-group collective computes, from its name.
#[derive(Clone, Copy)]
pub(super) enum GroupCollective {
    All,
    Any,
    Broadcast,
    Reduce(ScanOp),
    ScanInclusive(ScanOp),
    ScanExclusive(ScanOp),
    /// `sub_group_barrier`.
    Barrier,
}

/// Splits `work_group_*` and `sub_group_*` collective names into the sub-group flag and the
/// operation; `None` for other names (including `work_group_barrier`, which is a barrier).
pub(super) fn group_collective_name(name: &str) -> Option<(bool, GroupCollective)> {
    let (warp, rest) = match name.strip_prefix("work_group_") {
        Some(rest) => (false, rest),
        None => (true, name.strip_prefix("sub_group_")?),
    };
    let scan_op = |op: &str| match op {
        "add" => Some(ScanOp::Add),
        "min" => Some(ScanOp::Min),
        "max" => Some(ScanOp::Max),
        _ => None,
    };
    let kind = match rest {
        "all" => GroupCollective::All,
        "any" => GroupCollective::Any,
        "broadcast" => GroupCollective::Broadcast,
        "barrier" if warp => GroupCollective::Barrier,
        _ => {
            if let Some(op) = rest.strip_prefix("reduce_") {
                GroupCollective::Reduce(scan_op(op)?)
            } else if let Some(op) = rest.strip_prefix("scan_inclusive_") {
                GroupCollective::ScanInclusive(scan_op(op)?)
            } else {
                GroupCollective::ScanExclusive(scan_op(rest.strip_prefix("scan_exclusive_")?)?)
            }
        }
    };
    Some((warp, kind))
}

impl<'u> FnLowerer<'_, 'u> {
    /// OpenCL's work-group and sub-group collectives (`work_group_reduce_add`,
    /// `sub_group_broadcast`, ...) and `sub_group_barrier`; `None` when `name` is not one.
    pub(super) fn group_collective(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Result<Val, Diagnostic>> {
        let (warp, kind) = group_collective_name(name)?;
        Some(self.group_collective_call(name, warp, kind, args, span))
    }

    pub(super) fn group_collective_call(&mut self, name: &str, warp: bool, kind: GroupCollective, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let (min, max, usage) = match kind {
            GroupCollective::All | GroupCollective::Any => (1, 1, format!("{name}(predicate)")),
            GroupCollective::Broadcast if warp => (2, 2, format!("{name}(x, sub_group_local_id)")),
            GroupCollective::Broadcast => {
                (2, 4, format!("{name}(x, local_id), {name}(x, local_id_x, local_id_y) or {name}(x, local_id_x, local_id_y, local_id_z)"))
            }
            GroupCollective::Barrier => (1, 2, format!("{name}(CLK_LOCAL_MEM_FENCE) or {name}(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group)")),
            _ => (1, 1, format!("{name}(x)")),
        };
        if args.len() < min || args.len() > max {
            let takes = if min == max { format!("{min}") } else { format!("{min} to {max}") };
            let given = if args.len() == 1 { "1 was".to_string() } else { format!("{} were", args.len()) };
            return Err(type_error(
                span,
                format!("`{name}` takes {takes} argument{}, but {given} given", if max == 1 { "" } else { "s" }),
                "wrong number of arguments",
            )
            .with_help(format!("call it as {usage}")));
        }
        let dst = self.reg()?;
        let (op, a, b, ty) = match kind {
            GroupCollective::Barrier => {
                let f = self.rvalue(&args[0])?;
                let f = self.convert(f, &Ty::Scalar(ElemType::UInt), args[0].span)?;
                if let Some(scope) = args.get(1) {
                    let s = self.rvalue(scope)?;
                    self.convert(s, &Ty::Scalar(ElemType::Int), scope.span)?;
                }
                (CollectiveOp::Sync, f.reg, f.reg, Ty::Void)
            }
            GroupCollective::All | GroupCollective::Any => {
                // The predicate is an `int`: a value converts to it first, so 0.5 is false.
                let p = self.rvalue(&args[0])?;
                if !matches!(p.ty, Ty::Scalar(_)) {
                    return Err(type_error(args[0].span, format!("`{name}` takes an int predicate, not `{}`", p.ty.describe()), "not a scalar"));
                }
                let p = self.convert(p, &Ty::Scalar(ElemType::Int), args[0].span)?;
                let op = if matches!(kind, GroupCollective::All) { CollectiveOp::All } else { CollectiveOp::Any };
                (op, p.reg, p.reg, Ty::Scalar(ElemType::Int))
            }
            GroupCollective::Broadcast => {
                let (x, t) = self.group_collective_value(name, &args[0])?;
                let id = if warp {
                    let v = self.rvalue(&args[1])?;
                    self.convert(v, &Ty::Scalar(ElemType::UInt), args[1].span)?.reg
                } else {
                    self.broadcast_local_id(&args[1..], span)?
                };
                (CollectiveOp::Broadcast(num_ty(t)), x, id, Ty::Scalar(t))
            }
            GroupCollective::Reduce(op) | GroupCollective::ScanInclusive(op) | GroupCollective::ScanExclusive(op) => {
                let (x, t) = self.group_collective_value(name, &args[0])?;
                let nt = num_ty(t);
                let op = match kind {
                    GroupCollective::Reduce(_) => CollectiveOp::Reduce(op, nt),
                    GroupCollective::ScanInclusive(_) => CollectiveOp::ScanInclusive(op, nt),
                    _ => CollectiveOp::ScanExclusive(op, nt),
                };
                (op, x, x, Ty::Scalar(t))
            }
        };
        self.emit(Instr::Collective { op, warp, dst, a, b, mask: None, width: None }, span);
        Ok(Val { reg: dst, ty })
    }

    /// The value a reduction, scan or broadcast combines: a scalar `int`, `uint`, `long`,
    /// `ulong`, `float` or `double`. Narrower integers are promoted to `int`, the overload C's
    /// promotions select.
    pub(super) fn group_collective_value(&mut self, name: &str, e: &ast::Expr) -> Result<(Reg, ElemType), Diagnostic> {
        let v = self.rvalue(e)?;
        match v.ty {
            Ty::Scalar(_) => {
                let v = self.promote(v, e.span)?;
                let Ty::Scalar(t) = v.ty else { return unreachable_ty(e.span) };
                Ok((v.reg, t))
            }
            Ty::Half => Err(type_error(e.span, format!("`{name}` does not take `half` values"), "half value")
                .with_help("convert to float first, e.g. (float)x, or load the value with vload_half")),
            ref other => {
                Err(type_error(e.span, format!("`{name}` takes a scalar int, uint, long, ulong, float or double, not `{}`", other.describe()), "not a scalar")
                    .with_help("apply it to each component separately"))
            }
        }
    }

    /// The local linear id that `work_group_broadcast` names with one, two or three local id
    /// coordinates (missing ones are 0). A coordinate outside the work-group's size in its
    /// dimension yields `u64::MAX`, which the run reports as a broadcast from outside the
    /// group instead of silently reading another work-item.
    pub(super) fn broadcast_local_id(&mut self, coords: &[ast::Expr], span: Span) -> Result<Reg, Diagnostic> {
        let size_t = Ty::Scalar(ElemType::ULong);
        let linear = self.reg()?;
        self.emit(Instr::Const { dst: linear, bits: 0 }, span);
        let ok = self.reg()?;
        self.emit(Instr::Const { dst: ok, bits: 1 }, span);
        let stride = self.reg()?;
        self.emit(Instr::Const { dst: stride, bits: 1 }, span);
        for (d, e) in coords.iter().enumerate() {
            let v = self.rvalue(e)?;
            let id = self.convert(v, &size_t, e.span)?.reg;
            let dim = self.constant(d as u64, ElemType::UInt, span)?;
            let size = self.reg()?;
            self.emit(Instr::WorkItem { query: Query::LocalSize, dst: size, dim: dim.reg }, span);
            let inside = self.reg()?;
            self.emit(Instr::Compare { op: CmpOp::Lt, ty: NumTy::U64, dst: inside, lhs: id, rhs: size }, span);
            self.emit(Instr::Binary { op: BinaryOp::And, ty: NumTy::I32, dst: ok, lhs: ok, rhs: inside }, span);
            let term = self.reg()?;
            self.emit(Instr::Binary { op: BinaryOp::Mul, ty: NumTy::U64, dst: term, lhs: id, rhs: stride }, span);
            self.emit(Instr::Binary { op: BinaryOp::Add, ty: NumTy::U64, dst: linear, lhs: linear, rhs: term }, span);
            self.emit(Instr::Binary { op: BinaryOp::Mul, ty: NumTy::U64, dst: stride, lhs: stride, rhs: size }, span);
        }
        let outside = self.constant(u64::MAX, ElemType::ULong, span)?;
        let dst = self.reg()?;
        self.emit(Instr::Math { op: MathOp::Select, ty: ElemType::ULong, dst, a: outside.reg, b: linear, c: ok }, span);
        Ok(dst)
    }
}
