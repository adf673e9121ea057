//! Conversions: the register form of scalar types, C's integer promotions and usual
//! arithmetic conversions, the conversions of assignment (scalars, pointers, vectors), and
//! OpenCL C's `convert_T[_sat][_rounding]` and `as_T` built-ins (saturation, rounding modes,
//! the same bits read as another type).
//!
//! Every other part of the lowering converts through these, so what a conversion means is
//! decided in one place.

use super::*;

/// The register form of a scalar type after integer promotion.
pub fn num_ty(t: ElemType) -> NumTy {
    match t {
        ElemType::Bool | ElemType::Char | ElemType::UChar | ElemType::Short | ElemType::UShort | ElemType::Int => NumTy::I32,
        ElemType::UInt => NumTy::U32,
        ElemType::Long => NumTy::I64,
        ElemType::ULong => NumTy::U64,
        ElemType::Float => NumTy::F32,
        ElemType::Double => NumTy::F64,
    }
}

pub(super) fn elem_of_num(t: NumTy) -> ElemType {
    match t {
        NumTy::I32 => ElemType::Int,
        NumTy::U32 => ElemType::UInt,
        NumTy::I64 => ElemType::Long,
        NumTy::U64 => ElemType::ULong,
        NumTy::F32 => ElemType::Float,
        NumTy::F64 => ElemType::Double,
    }
}

/// C's usual arithmetic conversions, on promoted types.
pub(super) fn common_num(a: NumTy, b: NumTy) -> NumTy {
    let rank = |t: NumTy| match t {
        NumTy::I32 => 0,
        NumTy::U32 => 1,
        NumTy::I64 => 2,
        NumTy::U64 => 3,
        NumTy::F32 => 4,
        NumTy::F64 => 5,
    };
    if rank(a) >= rank(b) {
        a
    } else {
        b
    }
}

/// How a conversion built-in converts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Conversion {
    /// `convert_T[_sat][_rounding]`: value conversion.
    Value { saturate: bool, rounding: Option<UnaryOp> },
    /// `as_T`: the same bits read as another type.
    Reinterpret,
}

/// Parses `convert_float4_sat_rte`, `as_uint` and the like into the target type name and the
/// conversion.
pub(super) fn conversion_builtin(name: &str) -> Option<(&str, Conversion)> {
    if let Some(t) = name.strip_prefix("as_") {
        return Some((t, Conversion::Reinterpret));
    }
    let mut rest = name.strip_prefix("convert_")?;
    let mut rounding = None;
    for (suffix, op) in [("_rte", UnaryOp::RoundEven), ("_rtz", UnaryOp::Trunc), ("_rtp", UnaryOp::Ceil), ("_rtn", UnaryOp::Floor)] {
        if let Some(r) = rest.strip_suffix(suffix) {
            rest = r;
            rounding = Some(op);
        }
    }
    let saturate = rest.ends_with("_sat");
    let t = rest.strip_suffix("_sat").unwrap_or(rest);
    Some((t, Conversion::Value { saturate, rounding }))
}

impl<'u> FnLowerer<'_, 'u> {
    /// Converts a value to `to`, as C's assignment conversions do.
    pub(super) fn convert(&mut self, v: Val, to: &Ty, span: Span) -> Result<Val, Diagnostic> {
        if &v.ty == to {
            return Ok(v);
        }
        if let Ty::Vector(e, n) = *to {
            return match v.ty {
                // A scalar converts to the element type and is broadcast to every lane.
                Ty::Scalar(_) => {
                    let s = self.convert(v, &Ty::Scalar(e), span)?;
                    let dst = self.regs(n as u32)?;
                    for k in 0..n as u32 {
                        self.emit(Instr::Move { dst: dst + k, src: s.reg }, span);
                    }
                    Ok(Val { reg: dst, ty: to.clone() })
                }
                ref from => Err(type_error(span, format!("cannot convert `{}` to `{}`", from.describe(), to.describe()), "here")
                    .with_help(format!("vectors convert explicitly, e.g. convert_{}(x)", to.describe()))),
            };
        }
        match (&v.ty, to) {
            (Ty::Scalar(from), Ty::Scalar(t)) => {
                let (from, t) = (*from, *t);
                let dst = self.reg()?;
                if t == ElemType::Bool {
                    let zero = self.reg()?;
                    self.emit(Instr::Const { dst: zero, bits: 0 }, span);
                    self.emit(Instr::Compare { op: CmpOp::Ne, ty: num_ty(from), dst, lhs: v.reg, rhs: zero }, span);
                    return Ok(Val { reg: dst, ty: to.clone() });
                }
                let (nf, nt) = (num_ty(from), num_ty(t));
                if nf == nt {
                    self.emit(Instr::Move { dst, src: v.reg }, span);
                } else {
                    self.emit(Instr::Convert { from: nf, to: nt, dst, src: v.reg }, span);
                }
                if matches!(t, ElemType::Char | ElemType::UChar | ElemType::Short | ElemType::UShort) {
                    self.emit(Instr::Narrow { ty: t, dst, src: dst }, span);
                }
                Ok(Val { reg: dst, ty: to.clone() })
            }
            (Ty::Ptr { .. }, Ty::Ptr { .. }) => Ok(Val { reg: v.reg, ty: to.clone() }),
            // An event is a handle; 0 means "no event", as in `async_work_group_copy(.., 0)`.
            (Ty::Scalar(t), Ty::Event) if !t.is_float() => Ok(Val { reg: v.reg, ty: Ty::Event }),
            (Ty::Event, Ty::Event) => Ok(v),
            (Ty::Array { .. }, Ty::Ptr { .. }) => Ok(Val { reg: v.reg, ty: to.clone() }),
            (Ty::Scalar(t), Ty::Ptr { .. }) if !t.is_float() => Ok(Val { reg: v.reg, ty: to.clone() }),
            (Ty::Ptr { .. }, Ty::Scalar(ElemType::Bool)) => {
                let r = self.truth(v, span)?;
                Ok(Val { reg: r, ty: to.clone() })
            }
            (Ty::Ptr { .. }, Ty::Scalar(t)) if !t.is_float() => Ok(Val { reg: v.reg, ty: to.clone() }),
            (from, to) => Err(type_error(span, format!("cannot convert `{}` to `{}`", from.describe(), to.describe()), "here")),
        }
    }

    pub(super) fn promote(&mut self, v: Val, span: Span) -> Result<Val, Diagnostic> {
        match v.ty {
            Ty::Scalar(t) => {
                let p = elem_of_num(num_ty(t));
                self.convert(v, &Ty::Scalar(p), span)
            }
            ref other => Err(type_error(span, format!("expected a number, found `{}`", other.describe()), "not a number")),
        }
    }

    pub(super) fn conversion(&mut self, name: &str, target: &str, how: Conversion, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let to = types::builtin_type(target, span)
            .map_err(|_| type_error(span, format!("`{name}`: `{target}` is not a type to convert to"), "unknown conversion"))?;
        if args.len() != 1 {
            return Err(type_error(span, format!("`{name}` takes 1 argument, but {} were given", args.len()), "wrong number of arguments"));
        }
        let v = self.rvalue(&args[0])?;
        let lanes = |t: &Ty| match t {
            Ty::Vector(e, n) => Some((*e, *n)),
            Ty::Scalar(e) => Some((*e, 1)),
            _ => None,
        };
        let (Some((from_e, from_n)), Some((to_e, to_n))) = (lanes(&v.ty), lanes(&to)) else {
            return Err(type_error(args[0].span, format!("`{name}` converts numbers and vectors, not `{}`", v.ty.describe()), "here"));
        };
        if from_n != to_n {
            if how == Conversion::Reinterpret && v.ty.size() == to.size() && !matches!(from_e, ElemType::Bool) && !matches!(to_e, ElemType::Bool) {
                return self.reinterpret_bytes(v, from_e, from_n, to, to_e, to_n, span);
            }
            if how == Conversion::Reinterpret {
                return Err(type_error(span, format!("`{name}` needs an operand of the same size, not `{}`", v.ty.describe()), "size mismatch"));
            }
            return Err(type_error(args[0].span, format!("`{name}` needs {to_n} component(s), but `{}` has {from_n}", v.ty.describe()), "here"));
        }
        if to_e == ElemType::Bool || from_e == ElemType::Bool {
            return Err(type_error(span, "`bool` has no conversion built-in", "here"));
        }

        let dst = self.regs(to_n as u32)?;
        for k in 0..to_n as u32 {
            let src = v.reg + k;
            match how {
                Conversion::Reinterpret => {
                    if from_e.size() != to_e.size() {
                        return Err(type_error(span, format!("`{name}` needs an operand of the same size, not `{}`", v.ty.describe()), "size mismatch"));
                    }
                    self.emit(Instr::Narrow { ty: to_e, dst: dst + k, src }, span);
                }
                Conversion::Value { saturate, rounding } => {
                    let inexact = !from_e.is_float() || (from_e == ElemType::Double && to_e == ElemType::Float);
                    if let (Some(mode @ (UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc)), true, true) = (rounding, to_e.is_float(), inexact) {
                        // A directed rounding to a float type: integers widen exactly to long or
                        // ulong first, and the value is rounded once from there.
                        let wide = if from_e.is_float() {
                            from_e
                        } else if from_e.is_signed() {
                            ElemType::Long
                        } else {
                            ElemType::ULong
                        };
                        let w = self.convert(Val { reg: src, ty: Ty::Scalar(from_e) }, &Ty::Scalar(wide), span)?;
                        self.emit(Instr::Math { op: MathOp::ConvertDirected(wide, mode), ty: to_e, dst: dst + k, a: w.reg, b: w.reg, c: w.reg }, span);
                        continue;
                    }
                    let (mut cur, mut cur_e) = (src, from_e);
                    if from_e.is_float() && !to_e.is_float() {
                        let r = self.reg()?;
                        self.emit(Instr::Unary { op: rounding.unwrap_or(UnaryOp::Trunc), ty: num_ty(from_e), dst: r, src: cur }, span);
                        cur = r;
                        if saturate && to_e != ElemType::ULong {
                            // Float to long saturates and takes NaN to 0; the integer clamp
                            // below then narrows the range.
                            let l = self.reg()?;
                            self.emit(Instr::Convert { from: num_ty(from_e), to: NumTy::I64, dst: l, src: cur }, span);
                            (cur, cur_e) = (l, ElemType::Long);
                        }
                    }
                    let (lo, hi) = to_e.int_range();
                    let (flo, fhi) = cur_e.int_range();
                    if saturate && !to_e.is_float() && !cur_e.is_float() && (flo < lo || fhi > hi) {
                        cur = self.saturate(cur, cur_e, lo, hi, span)?;
                    }
                    let d = dst + k;
                    self.emit(Instr::Convert { from: num_ty(cur_e), to: num_ty(to_e), dst: d, src: cur }, span);
                    self.narrow_lane(to_e, d, span);
                }
            }
        }
        Ok(Val { reg: dst, ty: to })
    }

    /// `as_T` between types of one size but different lane counts (`as_char4(int)`,
    /// `as_float(uchar4)`): the lanes' bytes, little-endian, regrouped in registers. A
    /// 3-lane vector's fourth (padding) lane reads as zero.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reinterpret_bytes(&mut self, v: Val, from_e: ElemType, from_n: u8, to: Ty, to_e: ElemType, to_n: u8, span: Span) -> Result<Val, Diagnostic> {
        let (fs, ts) = (from_e.size(), to_e.size());
        let lane = |this: &mut Self, i: u64| -> Result<Reg, Diagnostic> {
            if i < from_n as u64 {
                Ok(v.reg + i as u32)
            } else {
                Ok(this.constant(0, ElemType::ULong, span)?.reg)
            }
        };
        let dst = self.regs(to_n as u32)?;
        for j in 0..to_n as u64 {
            let d = dst + j as u32;
            if ts <= fs {
                // A part of one source lane: shift its bytes down; the narrowing keeps them.
                let src = lane(self, j * ts / fs)?;
                let shift = self.constant((j * ts % fs) * 8, ElemType::ULong, span)?;
                self.emit(Instr::Binary { op: BinaryOp::Shr, ty: NumTy::U64, dst: d, lhs: src, rhs: shift.reg }, span);
            } else {
                // Several whole source lanes: mask each to its bytes and put them in place.
                let mask = self.constant(if fs == 8 { u64::MAX } else { (1u64 << (fs * 8)) - 1 }, ElemType::ULong, span)?;
                self.emit(Instr::Const { dst: d, bits: 0 }, span);
                for b in 0..ts / fs {
                    let src = lane(self, j * (ts / fs) + b)?;
                    let (part, shift) = (self.reg()?, self.constant(b * fs * 8, ElemType::ULong, span)?);
                    self.emit(Instr::Binary { op: BinaryOp::And, ty: NumTy::U64, dst: part, lhs: src, rhs: mask.reg }, span);
                    self.emit(Instr::Binary { op: BinaryOp::Shl, ty: NumTy::U64, dst: part, lhs: part, rhs: shift.reg }, span);
                    self.emit(Instr::Binary { op: BinaryOp::Or, ty: NumTy::U64, dst: d, lhs: d, rhs: part }, span);
                }
            }
            self.emit(Instr::Narrow { ty: to_e, dst: d, src: d }, span);
        }
        Ok(Val { reg: dst, ty: to })
    }

    /// Clamps register `r` (of type `from`) to `[lo, hi]` before a saturating conversion.
    pub(super) fn saturate(&mut self, r: Reg, from: ElemType, lo: i128, hi: i128, span: Span) -> Result<Reg, Diagnostic> {
        let nt = num_ty(from);
        let bound = |this: &mut Self, v: i128| -> Result<Reg, Diagnostic> { Ok(this.constant(v as u64, from, span)?.reg) };
        let (flo, fhi) = from.int_range();
        let mut cur = r;
        if hi < fhi {
            let h = bound(self, hi.min(fhi))?;
            let d = self.reg()?;
            self.emit(Instr::Binary { op: BinaryOp::Min, ty: nt, dst: d, lhs: cur, rhs: h }, span);
            cur = d;
        }
        if lo > flo {
            let l = bound(self, lo.max(flo))?;
            let d = self.reg()?;
            self.emit(Instr::Binary { op: BinaryOp::Max, ty: nt, dst: d, lhs: cur, rhs: l }, span);
            cur = d;
        }
        Ok(cur)
    }
}
