//! Expressions: names (variables, enumerators, predefined constants), the operators on
//! scalars and vectors, conditions, `?:`, `&&` and `||` (with vector operands lane by lane),
//! vector literals and expressions lowered only for their type (`sizeof`).
//!
//! Each expression is lowered once, typed as it is lowered, so a type error is found at the
//! node that has it; calls are lowered by `calls.rs`, places by `places.rs` and conversions
//! by `conversions.rs`.

use super::*;

/// Predefined constants that are names rather than macros.
pub(super) fn predefined(name: &str) -> Option<(u64, ElemType)> {
    Some(match name {
        "true" => (1, ElemType::Int),
        "false" => (0, ElemType::Int),
        _ => return None,
    })
}

impl<'u> FnLowerer<'_, 'u> {
    /// Lowers a condition to an `int` register that is non-zero when true.
    pub(super) fn condition(&mut self, e: &ast::Expr) -> Result<Reg, Diagnostic> {
        let v = self.rvalue(e)?;
        self.truth(v, e.span)
    }

    pub(super) fn truth(&mut self, v: Val, span: Span) -> Result<Reg, Diagnostic> {
        let ty = match &v.ty {
            Ty::Scalar(t) => num_ty(*t),
            Ty::Ptr { .. } => NumTy::U64,
            other => return Err(type_error(span, format!("a `{}` cannot be used as a condition", other.describe()), "not a scalar")),
        };
        if ty == NumTy::I32 || ty == NumTy::U32 {
            return Ok(v.reg);
        }
        let zero = self.reg()?;
        self.emit(Instr::Const { dst: zero, bits: 0 }, span);
        let dst = self.reg()?;
        self.emit(Instr::Compare { op: CmpOp::Ne, ty, dst, lhs: v.reg, rhs: zero }, span);
        Ok(dst)
    }

    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Result<Val, Diagnostic> {
        let v = self.expr(e)?;
        if v.ty == Ty::Void {
            return Err(type_error(e.span, "this expression has no value", "void"));
        }
        Ok(v)
    }

    pub(super) fn expr(&mut self, e: &ast::Expr) -> Result<Val, Diagnostic> {
        let span = e.span;
        match &e.kind {
            ExprKind::Int { value, unsigned, long } => {
                // C picks the first type that holds the value.
                let ty = match (*unsigned, *long) {
                    (false, false) if *value <= i32::MAX as u64 => ElemType::Int,
                    (true, false) if *value <= u32::MAX as u64 => ElemType::UInt,
                    (false, _) if *value <= i64::MAX as u64 => ElemType::Long,
                    _ => ElemType::ULong,
                };
                self.constant(*value, ty, span)
            }
            ExprKind::Float { value, single } => {
                if *single {
                    self.constant((*value as f32).to_bits() as u64, ElemType::Float, span)
                } else {
                    self.constant(value.to_bits(), ElemType::Double, span)
                }
            }
            ExprKind::Char(c) => self.constant(*c as i8 as i64 as u64, ElemType::Char, span),
            ExprKind::Str(_) => Err(type_error(span, "string literals can only be used as printf's format", "string here")),
            ExprKind::Ident(name) => {
                if self.lookup(name).is_none() {
                    if let Some(&(value, ty)) = self.types.constants.get(name) {
                        return self.constant(value as u64, ty, span);
                    }
                    if let Some((bits, ty)) = predefined(name) {
                        return self.constant(bits, ty, span);
                    }
                    if self.cuda {
                        if let Some(query) = cuda_index_variable(name) {
                            let dst = self.regs(3)?;
                            for d in 0..3 {
                                let dim = self.constant(d, ElemType::UInt, span)?;
                                self.emit(Instr::WorkItem { query, dst: dst + d as u32, dim: dim.reg }, span);
                            }
                            return Ok(Val { reg: dst, ty: Ty::Vector(ElemType::UInt, 3) });
                        }
                    }
                    if name == "NULL" || (self.cuda && name == "nullptr") {
                        let v = self.constant(0, ElemType::ULong, span)?;
                        return Ok(Val { reg: v.reg, ty: Ty::Ptr { pointee: Box::new(Ty::Void), space: Space::Global, is_const: false } });
                    }
                }
                let place = self.place(e)?;
                self.read(place, span)
            }
            ExprKind::Index(..) | ExprKind::Unary(UnOp::Deref, _) | ExprKind::Member(..) => {
                let place = self.place(e)?;
                self.read(place, span)
            }
            ExprKind::Unary(UnOp::AddrOf, inner) => match self.place(inner)? {
                Place::Mem(addr, ty, space) => Ok(Val { reg: addr, ty: Ty::Ptr { pointee: Box::new(ty), space, is_const: false } }),
                Place::Reg(..) | Place::Lanes(..) => Err(type_error(span, "cannot take the address of this value", "here")),
            },
            ExprKind::Unary(op @ (UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec), inner) => {
                let place = self.place(inner)?;
                let old = self.read(place.clone(), span)?;
                let old_copy = self.reg()?;
                self.emit(Instr::Move { dst: old_copy, src: old.reg }, span);
                let one = self.constant(1, ElemType::Int, span)?;
                let bin = if matches!(op, UnOp::PreInc | UnOp::PostInc) { BinOp::Add } else { BinOp::Sub };
                let new = self.arith(bin, Val { reg: old_copy, ty: old.ty.clone() }, one, span)?;
                let new = self.write(&place, new, span)?;
                if matches!(op, UnOp::PostInc | UnOp::PostDec) {
                    Ok(Val { reg: old_copy, ty: old.ty })
                } else {
                    Ok(new)
                }
            }
            ExprKind::Unary(op, inner) => {
                let v = self.rvalue(inner)?;
                if let Ty::Vector(..) = v.ty {
                    return self.vector_unary(*op, v, span);
                }
                match op {
                    UnOp::Plus => self.promote(v, span),
                    UnOp::Not => {
                        let t = self.truth(v, span)?;
                        let dst = self.reg()?;
                        self.emit(Instr::Unary { op: UnaryOp::LogicalNot, ty: NumTy::I32, dst, src: t }, span);
                        Ok(Val { reg: dst, ty: Ty::Scalar(ElemType::Int) })
                    }
                    UnOp::Neg | UnOp::BitNot => {
                        let v = self.promote(v, span)?;
                        let Ty::Scalar(t) = v.ty else { unreachable_ty(span)? };
                        if *op == UnOp::BitNot && t.is_float() {
                            return Err(type_error(span, "`~` needs an integer operand", "floating-point value"));
                        }
                        let dst = self.reg()?;
                        let uop = if *op == UnOp::Neg { UnaryOp::Neg } else { UnaryOp::BitNot };
                        self.emit(Instr::Unary { op: uop, ty: num_ty(t), dst, src: v.reg }, span);
                        Ok(Val { reg: dst, ty: Ty::Scalar(t) })
                    }
                    _ => Err(unsupported(span, "this operator")),
                }
            }
            ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, a, b) => {
                let is_and = matches!(e.kind, ExprKind::Binary(BinOp::LogAnd, ..));
                let va = self.rvalue(a)?;
                if let Ty::Vector(..) = va.ty {
                    let vb = self.rvalue(b)?;
                    return self.vector_logical(is_and, va, vb, span);
                }
                let ca = self.truth(va, a.span)?;
                let dst = self.reg()?;
                self.emit(Instr::Const { dst, bits: if is_and { 0 } else { 1 } }, span);
                let jump = if is_and {
                    self.emit(Instr::BranchIfNot { cond: ca, target: 0 }, a.span)
                } else {
                    self.emit(Instr::BranchIf { cond: ca, target: 0 }, a.span)
                };
                let vb = self.rvalue(b)?;
                if let Ty::Vector(..) = vb.ty {
                    // A vector second operand needs both operands evaluated, but a scalar first
                    // operand has already decided whether the second runs.
                    return Err(unsupported(span, "a logical operator with a scalar first operand and a vector second one")
                        .with_help("compare the scalar into a vector first, or swap the operands"));
                }
                let cb = self.truth(vb, b.span)?;
                let zero = self.reg()?;
                self.emit(Instr::Const { dst: zero, bits: 0 }, b.span);
                self.emit(Instr::Compare { op: CmpOp::Ne, ty: NumTy::I32, dst, lhs: cb, rhs: zero }, b.span);
                let end = self.here();
                self.patch(jump, end);
                Ok(Val { reg: dst, ty: Ty::Scalar(ElemType::Int) })
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.rvalue(a)?;
                let vb = self.rvalue(b)?;
                self.arith(*op, va, vb, span)
            }
            ExprKind::Assign(op, lhs, rhs) => {
                let place = self.place(lhs)?;
                if let Place::Mem(_, Ty::Array { .. }, _) | Place::Reg(_, Ty::Array { .. }) = place {
                    return Err(type_error(lhs.span, "arrays cannot be assigned", "array"));
                }
                let value = match op {
                    None => self.rvalue(rhs)?,
                    Some(op) => {
                        let old = self.read(place.clone(), lhs.span)?;
                        let r = self.rvalue(rhs)?;
                        self.arith(*op, old, r, span)?
                    }
                };
                self.write(&place, value, span)
            }
            ExprKind::Ternary(cond, then, otherwise) => {
                let c = self.rvalue(cond)?;
                if let Ty::Vector(..) = c.ty {
                    return self.vector_ternary(c, then, otherwise, span);
                }
                // Each arm is lowered once, where it runs; the result type needs both arms, so
                // the `then` arm's conversion into the result waits in a block after the
                // `else` arm (lowering an arm once for its type and again for its code would
                // cost time exponential in the nesting of `?:`).
                let c = self.truth(c, cond.span)?;
                let jf = self.emit(Instr::BranchIfNot { cond: c, target: 0 }, cond.span);
                let vt = self.expr(then)?;
                let to_then_result = self.emit(Instr::Jump { target: 0 }, span);
                let else_at = self.here();
                self.patch(jf, else_at);
                let ve = self.expr(otherwise)?;
                let decay = |t: &Ty| match t {
                    Ty::Array { elem, .. } => Ty::Ptr { pointee: elem.clone(), space: Space::Private, is_const: false },
                    t => t.clone(),
                };
                let result_ty = match (decay(&vt.ty), decay(&ve.ty)) {
                    (Ty::Scalar(x), Ty::Scalar(y)) => Ty::Scalar(elem_of_num(common_num(num_ty(x), num_ty(y)))),
                    (v @ Ty::Vector(..), _) | (_, v @ Ty::Vector(..)) => v,
                    (r @ Ty::Record { .. }, _) => r,
                    (Ty::Void, _) | (_, Ty::Void) => Ty::Void,
                    (p @ Ty::Ptr { .. }, Ty::Scalar(_)) | (p @ Ty::Ptr { .. }, Ty::Ptr { .. }) => p,
                    (Ty::Scalar(_), p @ Ty::Ptr { .. }) => p,
                    (x, y) => {
                        return Err(type_error(span, format!("the arms of `?:` have incompatible types `{}` and `{}`", x.describe(), y.describe()), "here"))
                    }
                };
                let dst = self.regs(Self::width(&result_ty))?;
                self.ternary_result(ve, &result_ty, dst, otherwise.span)?;
                let jend = self.emit(Instr::Jump { target: 0 }, span);
                let then_result_at = self.here();
                self.patch(to_then_result, then_result_at);
                self.ternary_result(vt, &result_ty, dst, then.span)?;
                let end = self.here();
                self.patch(jend, end);
                Ok(Val { reg: dst, ty: result_ty })
            }
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Cast(ty, inner) => {
                let to = self.types.resolve(ty)?;
                if let Ty::Vector(e, n) = to {
                    return self.vector_literal(e, n, inner, span);
                }
                let v = self.expr(inner)?;
                if to == Ty::Void {
                    return Ok(Val { reg: v.reg, ty: Ty::Void });
                }
                match (&v.ty, &to) {
                    (Ty::Ptr { .. } | Ty::Array { .. }, Ty::Scalar(t)) if t.is_float() => {
                        Err(type_error(span, "a pointer cannot be cast to a floating-point type", "cast here"))
                    }
                    _ => self.convert(v, &to, span),
                }
            }
            ExprKind::CompoundLiteral(ty, items) => {
                let ty = self.types.resolve(ty)?;
                if let Ty::Vector(e, n) = ty {
                    let mut exprs = Vec::new();
                    for item in items {
                        match item {
                            Initializer::Expr(x) => exprs.push(x.clone()),
                            Initializer::List(_, s) | Initializer::Designated(_, _, s) => {
                                return Err(type_error(*s, "a vector literal's components are values", "not a value"))
                            }
                        }
                    }
                    let Some(first) = exprs.first().cloned() else {
                        return Err(type_error(span, "an empty vector literal", "here"));
                    };
                    let chain = exprs[1..].iter().fold(first, |acc, x| {
                        let s = acc.span.to(x.span);
                        ast::Expr { kind: ExprKind::Comma(Box::new(acc), Box::new(x.clone())), span: s }
                    });
                    return self.vector_literal(e, n, &chain, span);
                }
                // Structs and arrays: a private temporary initialised from the list.
                let addr = self.reg()?;
                self.allocas.push((addr, ty.size() as u32, ty.align() as u32, true));
                self.init_memory(addr, &ty, &Initializer::List(items.clone(), span))?;
                self.read(Place::Mem(addr, ty, Space::Private), span)
            }
            ExprKind::SizeofType(ty) => {
                let t = self.types.resolve(ty)?;
                self.constant(t.size(), ElemType::ULong, span)
            }
            ExprKind::SizeofExpr(inner) => {
                let size = self.type_of_unevaluated(inner)?.size();
                self.constant(size, ElemType::ULong, span)
            }
            ExprKind::Call(callee, args) => self.call(callee, args, span),
        }
    }

    /// Moves an arm's value, converted to the result type, into the result registers.
    pub(super) fn ternary_result(&mut self, v: Val, result_ty: &Ty, dst: Reg, span: Span) -> Result<(), Diagnostic> {
        if *result_ty != Ty::Void {
            let v = self.convert(v, result_ty, span)?;
            self.move_val(dst, &v, span);
        }
        Ok(())
    }

    /// The type of an expression whose code is discarded (sizeof's operand is not evaluated).
    pub(super) fn type_of_unevaluated(&mut self, e: &ast::Expr) -> Result<Ty, Diagnostic> {
        self.typings += 1;
        if self.typings > MAX_TYPINGS {
            return Err(Diagnostic::error("unsupported", "template calls are nested too deeply to deduce their types in reasonable time")
                .with_span(e.span, "deducing the type of this argument")
                .with_help("give the nested calls' results names with local variables"));
        }
        let code_len = self.func.code.len();
        let regs = self.func.num_regs;
        let ty = match &e.kind {
            ExprKind::Ident(_) | ExprKind::Index(..) | ExprKind::Unary(UnOp::Deref, _) => match self.place(e)? {
                Place::Reg(_, t) | Place::Mem(_, t, _) => t,
                Place::Lanes(..) => self.expr(e)?.ty,
            },
            _ => self.expr(e)?.ty,
        };
        self.func.code.truncate(code_len);
        self.func.spans.truncate(code_len);
        self.func.num_regs = regs;
        Ok(ty)
    }

    /// `(float4)(a, b, c, d)`, `(int4)(v.xy, 0, 1)` or `(float4)(x)` (broadcast).
    pub(super) fn vector_literal(&mut self, e: ElemType, n: u8, inner: &ast::Expr, span: Span) -> Result<Val, Diagnostic> {
        let mut parts = Vec::new();
        let mut cur = inner;
        while let ExprKind::Comma(a, b) = &cur.kind {
            parts.push(b.as_ref());
            cur = a;
        }
        parts.push(cur);
        parts.reverse();
        let ty = Ty::Vector(e, n);
        if parts.len() == 1 {
            let v = self.rvalue(parts[0])?;
            if let Ty::Vector(..) = v.ty {
                if v.ty != ty {
                    return Err(type_error(span, format!("cannot cast `{}` to `{}`", v.ty.describe(), ty.describe()), "here")
                        .with_help(format!("use convert_{}(x) to convert vectors", ty.describe())));
                }
                return Ok(v);
            }
            return self.convert(v, &ty, span);
        }
        let dst = self.regs(n as u32)?;
        let mut lane = 0u32;
        for part in parts {
            let v = self.rvalue(part)?;
            let pieces = match &v.ty {
                Ty::Vector(pe, pn) => {
                    let mut regs = Vec::new();
                    for k in 0..*pn as u32 {
                        let s = Val { reg: v.reg + k, ty: Ty::Scalar(*pe) };
                        regs.push(self.convert(s, &Ty::Scalar(e), part.span)?.reg);
                    }
                    regs
                }
                _ => vec![self.convert(v, &Ty::Scalar(e), part.span)?.reg],
            };
            for r in pieces {
                if lane < n as u32 {
                    self.emit(Instr::Move { dst: dst + lane, src: r }, part.span);
                }
                lane += 1;
            }
        }
        if lane != n as u32 {
            return Err(type_error(span, format!("a `{}` literal needs {n} components, but this one has {lane}", ty.describe()), "vector literal"));
        }
        Ok(Val { reg: dst, ty })
    }

    pub(super) fn vector_unary(&mut self, op: UnOp, v: Val, span: Span) -> Result<Val, Diagnostic> {
        let Ty::Vector(e, n) = v.ty else { return unreachable_ty(span) };
        let (uop, rt) = match op {
            UnOp::Plus => return Ok(v),
            UnOp::Neg => (UnaryOp::Neg, e),
            UnOp::BitNot if !e.is_float() => (UnaryOp::BitNot, e),
            UnOp::Not => (UnaryOp::LogicalNot, mask_elem(e)),
            _ => return Err(type_error(span, format!("this operator does not apply to `{}`", v.ty.describe()), "here")),
        };
        let dst = self.regs(n as u32)?;
        for k in 0..n as u32 {
            self.emit(Instr::Unary { op: uop, ty: num_ty(e), dst: dst + k, src: v.reg + k }, span);
            if op == UnOp::Not {
                // Vector relational results are -1 (all bits set) for true.
                self.emit(Instr::Unary { op: UnaryOp::Neg, ty: num_ty(rt), dst: dst + k, src: dst + k }, span);
            }
            self.narrow_lane(rt, dst + k, span);
        }
        Ok(Val { reg: dst, ty: Ty::Vector(rt, n) })
    }

    pub(super) fn narrow_lane(&mut self, e: ElemType, r: Reg, span: Span) {
        if matches!(e, ElemType::Char | ElemType::UChar | ElemType::Short | ElemType::UShort) {
            self.emit(Instr::Narrow { ty: e, dst: r, src: r }, span);
        }
    }

    /// Component-wise arithmetic and comparison of vectors (a scalar operand is broadcast).
    pub(super) fn vector_arith(&mut self, op: BinOp, a: Val, b: Val, span: Span) -> Result<Val, Diagnostic> {
        let vt = match (&a.ty, &b.ty) {
            (Ty::Vector(..), Ty::Vector(..)) if a.ty != b.ty => {
                return Err(type_error(span, format!("mismatched vector types `{}` and `{}`", a.ty.describe(), b.ty.describe()), "here"))
            }
            (v @ Ty::Vector(..), Ty::Scalar(_)) | (Ty::Scalar(_), v @ Ty::Vector(..)) | (v @ Ty::Vector(..), Ty::Vector(..)) => v.clone(),
            (x, y) => return Err(type_error(span, format!("invalid operands `{}` and `{}` for this operator", x.describe(), y.describe()), "here")),
        };
        let Ty::Vector(e, n) = vt else { return unreachable_ty(span) };
        let a = self.convert(a, &vt, span)?;
        let b = self.convert(b, &vt, span)?;
        let is_cmp = matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
        let rt = if is_cmp { mask_elem(e) } else { e };
        let bop = match op {
            BinOp::Add => Some(BinaryOp::Add),
            BinOp::Sub => Some(BinaryOp::Sub),
            BinOp::Mul => Some(BinaryOp::Mul),
            BinOp::Div => Some(BinaryOp::Div),
            BinOp::Rem if !e.is_float() => Some(BinaryOp::Rem),
            BinOp::BitAnd if !e.is_float() => Some(BinaryOp::And),
            BinOp::BitOr if !e.is_float() => Some(BinaryOp::Or),
            BinOp::BitXor if !e.is_float() => Some(BinaryOp::Xor),
            BinOp::Shl if !e.is_float() => Some(BinaryOp::Shl),
            BinOp::Shr if !e.is_float() => Some(BinaryOp::Shr),
            _ if is_cmp => None,
            _ => return Err(type_error(span, format!("this operator does not apply to `{}`", vt.describe()), "here")),
        };
        let dst = self.regs(n as u32)?;
        for k in 0..n as u32 {
            let (l, r, d) = (a.reg + k, b.reg + k, dst + k);
            match bop {
                Some(bop) => {
                    self.emit(Instr::Binary { op: bop, ty: num_ty(e), dst: d, lhs: l, rhs: r }, span);
                }
                None => {
                    self.emit(Instr::Compare { op: cmp_op(op), ty: num_ty(e), dst: d, lhs: l, rhs: r }, span);
                    self.emit(Instr::Unary { op: UnaryOp::Neg, ty: num_ty(rt), dst: d, src: d }, span);
                }
            }
            self.narrow_lane(rt, d, span);
        }
        Ok(Val { reg: dst, ty: Ty::Vector(rt, n) })
    }

    pub(super) fn arith(&mut self, op: BinOp, a: Val, b: Val, span: Span) -> Result<Val, Diagnostic> {
        if matches!(a.ty, Ty::Vector(..)) || matches!(b.ty, Ty::Vector(..)) {
            return self.vector_arith(op, a, b, span);
        }
        let is_cmp = matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
        // Pointer arithmetic and comparison.
        match (&a.ty, &b.ty) {
            (Ty::Ptr { pointee, .. }, t) if t.is_integer() && matches!(op, BinOp::Add | BinOp::Sub) => {
                let pointee = pointee.clone();
                let addr = self.offset_pointer(a.reg, &pointee, b, span, op == BinOp::Sub)?;
                return Ok(Val { reg: addr, ty: a.ty });
            }
            (t, Ty::Ptr { pointee, .. }) if t.is_integer() && op == BinOp::Add => {
                let pointee = pointee.clone();
                let ty = b.ty.clone();
                let addr = self.offset_pointer(b.reg, &pointee, a, span, false)?;
                return Ok(Val { reg: addr, ty });
            }
            (Ty::Ptr { pointee, .. }, Ty::Ptr { .. }) if op == BinOp::Sub => {
                let dst = self.reg()?;
                self.emit(Instr::PtrDiff { dst, lhs: a.reg, rhs: b.reg, scale: pointee.size().max(1) as u32 }, span);
                return Ok(Val { reg: dst, ty: Ty::Scalar(ElemType::Long) });
            }
            (Ty::Ptr { .. }, Ty::Ptr { .. }) | (Ty::Ptr { .. }, Ty::Scalar(_)) | (Ty::Scalar(_), Ty::Ptr { .. }) if is_cmp => {
                let dst = self.reg()?;
                self.emit(Instr::Compare { op: cmp_op(op), ty: NumTy::U64, dst, lhs: a.reg, rhs: b.reg }, span);
                return Ok(Val { reg: dst, ty: Ty::Scalar(ElemType::Int) });
            }
            (Ty::Scalar(_), Ty::Scalar(_)) => {}
            (x, y) => {
                return Err(type_error(span, format!("invalid operands `{}` and `{}` for this operator", x.describe(), y.describe()), "here"));
            }
        }
        let (Ty::Scalar(ta), Ty::Scalar(tb)) = (&a.ty, &b.ty) else { unreachable_ty(span)? };
        let (ta, tb) = (*ta, *tb);
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            if ta.is_float() || tb.is_float() {
                return Err(type_error(span, "shifts need integer operands", "floating-point operand"));
            }
            let a = self.promote(a, span)?;
            let rt = match a.ty {
                Ty::Scalar(t) => t,
                _ => ElemType::Int,
            };
            let b = self.convert(b, &Ty::Scalar(rt), span)?;
            let dst = self.reg()?;
            let bop = if op == BinOp::Shl { BinaryOp::Shl } else { BinaryOp::Shr };
            self.emit(Instr::Binary { op: bop, ty: num_ty(rt), dst, lhs: a.reg, rhs: b.reg }, span);
            return Ok(Val { reg: dst, ty: Ty::Scalar(rt) });
        }
        let common = common_num(num_ty(ta), num_ty(tb));
        let ct = Ty::Scalar(elem_of_num(common));
        if common.is_float() && matches!(op, BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor) {
            return Err(
                type_error(span, "this operator needs integer operands", "floating-point operand").with_help("use fmod() for a floating-point remainder")
            );
        }
        let a = self.convert(a, &ct, span)?;
        let b = self.convert(b, &ct, span)?;
        let dst = self.reg()?;
        if is_cmp {
            self.emit(Instr::Compare { op: cmp_op(op), ty: common, dst, lhs: a.reg, rhs: b.reg }, span);
            return Ok(Val { reg: dst, ty: Ty::Scalar(ElemType::Int) });
        }
        let bop = match op {
            BinOp::Add => BinaryOp::Add,
            BinOp::Sub => BinaryOp::Sub,
            BinOp::Mul => BinaryOp::Mul,
            BinOp::Div => BinaryOp::Div,
            BinOp::Rem => BinaryOp::Rem,
            BinOp::BitAnd => BinaryOp::And,
            BinOp::BitOr => BinaryOp::Or,
            BinOp::BitXor => BinaryOp::Xor,
            _ => return Err(unsupported(span, "this operator")),
        };
        self.emit(Instr::Binary { op: bop, ty: common, dst, lhs: a.reg, rhs: b.reg }, span);
        Ok(Val { reg: dst, ty: ct })
    }

    /// `cond ? then : otherwise` with a vector condition (OpenCL C 1.2 section 6.3.i): lane by
    /// lane, as `select(otherwise, then, cond)` is, so both arms are evaluated and a lane's
    /// condition is its most significant bit; `select_values` widens scalar arms to the
    /// condition's lanes.
    pub(super) fn vector_ternary(&mut self, c: Val, then: &ast::Expr, otherwise: &ast::Expr, span: Span) -> Result<Val, Diagnostic> {
        let (vt, ve) = (self.rvalue(then)?, self.rvalue(otherwise)?);
        self.select_values("?:", ve, vt, c, span, span)
    }

    /// `&&` and `||` with a vector operand (OpenCL C 1.2 section 6.3.h): lane by lane, both
    /// operands evaluated, -1 for true. Each operand becomes its truth mask (`x != 0`, negated
    /// for a scalar so that true is -1 there too) and the masks are combined bitwise.
    pub(super) fn vector_logical(&mut self, is_and: bool, a: Val, b: Val, span: Span) -> Result<Val, Diagnostic> {
        let mask = |this: &mut Self, v: Val| -> Result<Val, Diagnostic> {
            let zero = this.constant(0, ElemType::Int, span)?;
            let test = this.arith(BinOp::Ne, v, zero, span)?;
            if let Ty::Scalar(t) = test.ty {
                let dst = this.reg()?;
                this.emit(Instr::Unary { op: UnaryOp::Neg, ty: num_ty(t), dst, src: test.reg }, span);
                return Ok(Val { reg: dst, ty: test.ty });
            }
            Ok(test)
        };
        let (ma, mb) = (mask(self, a)?, mask(self, b)?);
        self.arith(if is_and { BinOp::BitAnd } else { BinOp::BitOr }, ma, mb, span)
    }
}

/// A written type naming vector type `ty`, for lowering a brace list as a compound literal.
pub(super) fn vector_type_expr(ty: &Ty, span: Span) -> TypeExpr {
    TypeExpr {
        base: ast::TypeSpec { words: vec![ty.describe()], tag: None, space: None, is_const: false, is_volatile: false, span },
        pointers: Vec::new(),
        arrays: Vec::new(),
    }
}

/// The signed integer element of the same size: the lane type of a vector comparison.
pub(super) fn mask_elem(e: ElemType) -> ElemType {
    match e.size() {
        1 => ElemType::Char,
        2 => ElemType::Short,
        4 => ElemType::Int,
        _ => ElemType::Long,
    }
}

pub(super) fn cmp_op(op: BinOp) -> CmpOp {
    match op {
        BinOp::Eq => CmpOp::Eq,
        BinOp::Ne => CmpOp::Ne,
        BinOp::Lt => CmpOp::Lt,
        BinOp::Le => CmpOp::Le,
        BinOp::Gt => CmpOp::Gt,
        _ => CmpOp::Ge,
    }
}
