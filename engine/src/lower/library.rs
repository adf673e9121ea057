//! OpenCL C's built-in library: the lane-wise math, integer and relational functions (one
//! `MathOp` per lane), the geometric functions, `select`, `shuffle`, `any`/`all`, `nan`,
//! `upsample`, `vec_step`, the address-space queries, the built-ins that store a second
//! result through a pointer, `vloadN`/`vstoreN` and their `half` forms, the asynchronous
//! work-group copies and `printf`.
//!
//! CUDA's math library is mapped onto these functions (`cuda.rs`); a program's own function
//! of the same name takes precedence over them (`calls.rs`).

use super::*;

/// How a lane-wise built-in takes its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MathKind {
    /// Floating-point gentype operands (integers convert).
    Float,
    /// Integer gentype operands.
    Int,
    /// Integer or float gentype operands.
    Any,
    /// A float gentype and an int gentype (`pown`, `rootn`, `ldexp`).
    FloatInt,
    /// Float operands, integer result: 1 / 0 for scalars, -1 / 0 per lane for vectors, whose
    /// lanes are as wide as the operand's (`isnan`, `isless`, ...).
    Relational,
    /// Float operand, `int` result lanes whatever the operand's width (`ilogb`).
    IntResult,
}

/// The lane-wise math, integer and relational built-ins: operation, kind and arity.
/// `native_` and `half_` variants compute the same function at full precision.
pub(super) fn math_builtin(name: &str) -> Option<(MathOp, MathKind, usize)> {
    use MathKind::*;
    use MathOp as M;
    // Division and reciprocal exist only in these forms.
    match name {
        "native_divide" | "half_divide" => return Some((M::Divide, Float, 2)),
        "native_recip" | "half_recip" => return Some((M::Recip, Float, 1)),
        _ => {}
    }
    let name = name.strip_prefix("native_").or_else(|| name.strip_prefix("half_")).unwrap_or(name);
    Some(match name {
        "add_sat" => (M::AddSat, Int, 2),
        "sub_sat" => (M::SubSat, Int, 2),
        "hadd" => (M::Hadd, Int, 2),
        "rhadd" => (M::Rhadd, Int, 2),
        "mul_hi" => (M::MulHi, Int, 2),
        "mul24" => (M::Mul24, Int, 2),
        "mad24" => (M::Mad24, Int, 3),
        "mad_sat" => (M::MadSat, Int, 3),
        "mad_hi" => (M::MadHi, Int, 3),
        "abs_diff" => (M::AbsDiff, Int, 2),
        "rotate" => (M::Rotate, Int, 2),
        "clz" => (M::Clz, Int, 1),
        "ctz" => (M::Ctz, Int, 1),
        "popcount" => (M::Popcount, Int, 1),
        "min" => (M::Min, Any, 2),
        "max" => (M::Max, Any, 2),
        "clamp" => (M::Clamp, Any, 3),
        "bitselect" => (M::Bitselect, Any, 3),
        "sqrt" => (M::Sqrt, Float, 1),
        "rsqrt" => (M::Rsqrt, Float, 1),
        "cbrt" => (M::Cbrt, Float, 1),
        "fabs" => (M::Fabs, Float, 1),
        "floor" => (M::Floor, Float, 1),
        "ceil" => (M::Ceil, Float, 1),
        "round" => (M::Round, Float, 1),
        "trunc" => (M::Trunc, Float, 1),
        "rint" => (M::Rint, Float, 1),
        "exp" => (M::Exp, Float, 1),
        "exp2" => (M::Exp2, Float, 1),
        "exp10" => (M::Exp10, Float, 1),
        "expm1" => (M::Expm1, Float, 1),
        "log" => (M::Log, Float, 1),
        "log2" => (M::Log2, Float, 1),
        "log10" => (M::Log10, Float, 1),
        "log1p" => (M::Log1p, Float, 1),
        "sin" => (M::Sin, Float, 1),
        "cos" => (M::Cos, Float, 1),
        "tan" => (M::Tan, Float, 1),
        "asin" => (M::Asin, Float, 1),
        "acos" => (M::Acos, Float, 1),
        "atan" => (M::Atan, Float, 1),
        "sinh" => (M::Sinh, Float, 1),
        "cosh" => (M::Cosh, Float, 1),
        "tanh" => (M::Tanh, Float, 1),
        "asinh" => (M::Asinh, Float, 1),
        "acosh" => (M::Acosh, Float, 1),
        "atanh" => (M::Atanh, Float, 1),
        "erf" => (M::Erf, Float, 1),
        "erfc" => (M::Erfc, Float, 1),
        "tgamma" => (M::Tgamma, Float, 1),
        "lgamma" => (M::Lgamma, Float, 1),
        "sinpi" => (M::SinPi, Float, 1),
        "cospi" => (M::CosPi, Float, 1),
        "sign" => (M::Sign, Float, 1),
        "degrees" => (M::Degrees, Float, 1),
        "radians" => (M::Radians, Float, 1),
        "pow" => (M::Pow, Float, 2),
        "powr" => (M::Powr, Float, 2),
        "fmin" => (M::Fmin, Float, 2),
        "fmax" => (M::Fmax, Float, 2),
        "fmod" => (M::Fmod, Float, 2),
        "hypot" => (M::Hypot, Float, 2),
        "atan2" => (M::Atan2, Float, 2),
        "copysign" => (M::Copysign, Float, 2),
        "fdim" => (M::Fdim, Float, 2),
        "remainder" => (M::Remainder, Float, 2),
        "nextafter" => (M::Nextafter, Float, 2),
        "step" => (M::Step, Float, 2),
        "mad" => (M::Mad, Float, 3),
        "fma" => (M::Fma, Float, 3),
        "mix" => (M::Mix, Float, 3),
        "smoothstep" => (M::SmoothStep, Float, 3),
        "pown" => (M::Pown, FloatInt, 2),
        "rootn" => (M::Rootn, FloatInt, 2),
        "ldexp" => (M::Ldexp, FloatInt, 2),
        "isnan" => (M::IsNan, Relational, 1),
        "isinf" => (M::IsInf, Relational, 1),
        "isfinite" => (M::IsFinite, Relational, 1),
        "isnormal" => (M::IsNormal, Relational, 1),
        "signbit" => (M::SignBit, Relational, 1),
        "isequal" => (M::IsEqual, Relational, 2),
        "isnotequal" => (M::IsNotEqual, Relational, 2),
        "isgreater" => (M::IsGreater, Relational, 2),
        "isgreaterequal" => (M::IsGreaterEqual, Relational, 2),
        "isless" => (M::IsLess, Relational, 2),
        "islessequal" => (M::IsLessEqual, Relational, 2),
        "islessgreater" => (M::IsLessGreater, Relational, 2),
        "isordered" => (M::IsOrdered, Relational, 2),
        "isunordered" => (M::IsUnordered, Relational, 2),
        "acospi" => (M::AcosPi, Float, 1),
        "asinpi" => (M::AsinPi, Float, 1),
        "atanpi" => (M::AtanPi, Float, 1),
        "atan2pi" => (M::Atan2Pi, Float, 2),
        "tanpi" => (M::TanPi, Float, 1),
        "logb" => (M::Logb, Float, 1),
        "maxmag" => (M::MaxMag, Float, 2),
        "minmag" => (M::MinMag, Float, 2),
        "ilogb" => (M::Ilogb, IntResult, 1),
        _ => return None,
    })
}

/// `vload_half[N]`, `vloada_half[N]`, `vstore_half[N][_rounding]`, `vstorea_half[N][_rounding]`:
/// whether it stores, N, whether it is the aligned form, and the rounding of a store.
pub(super) fn half_memory_builtin(name: &str) -> Option<(bool, u8, bool, MathOp)> {
    let (store, rest) = match name.strip_prefix("vload") {
        Some(r) => (false, r),
        None => (true, name.strip_prefix("vstore")?),
    };
    let (aligned, rest) = match rest.strip_prefix("a_half") {
        Some(r) => (true, r),
        None => (false, rest.strip_prefix("_half")?),
    };
    let (digits, rounding) = match rest.find('_') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let op = match (store, rounding) {
        (_, "") => MathOp::FloatToHalfRte,
        (true, "_rte") => MathOp::FloatToHalfRte,
        (true, "_rtz") => MathOp::FloatToHalfRtz,
        (true, "_rtp") => MathOp::FloatToHalfRtp,
        (true, "_rtn") => MathOp::FloatToHalfRtn,
        _ => return None,
    };
    let n: u8 = if digits.is_empty() { 1 } else { digits.parse().ok()? };
    matches!(n, 1 | 2 | 3 | 4 | 8 | 16).then_some((store, n, aligned, op))
}

/// `vloadN` / `vstoreN`: whether it stores, and N.
pub(super) fn vector_memory_builtin(name: &str) -> Option<(bool, u8)> {
    let (store, n) = match name.strip_prefix("vload") {
        Some(n) => (false, n),
        None => (true, name.strip_prefix("vstore")?),
    };
    let n: u8 = n.parse().ok()?;
    matches!(n, 2 | 3 | 4 | 8 | 16).then_some((store, n))
}

impl<'u> FnLowerer<'_, 'u> {
    /// `abs` of an integer vector: lane-wise, into the unsigned vector of the same width
    /// (`abs((char4)(-128))` is `(uchar4)(128)`).
    pub(super) fn vector_abs(&mut self, src: Reg, e: ElemType, n: u8, span: Span) -> Result<Val, Diagnostic> {
        if e.is_float() {
            return Err(type_error(span, "`abs` takes an integer", "floating-point argument").with_help("use fabs() for floating-point values"));
        }
        let unsigned = match e.size() {
            1 => ElemType::UChar,
            2 => ElemType::UShort,
            4 => ElemType::UInt,
            _ => ElemType::ULong,
        };
        let dst = self.regs(n as u32)?;
        for k in 0..n as u32 {
            self.emit(Instr::Unary { op: UnaryOp::Abs, ty: num_ty(e), dst: dst + k, src: src + k }, span);
            self.emit(Instr::Narrow { ty: unsigned, dst: dst + k, src: dst + k }, span);
        }
        Ok(Val { reg: dst, ty: Ty::Vector(unsigned, n) })
    }

    /// The gentype of a built-in call: element type and lane count, from its operands.
    pub(super) fn gentype(&self, vals: &[Val], kind: MathKind, name: &str, span: Span) -> Result<(ElemType, u8), Diagnostic> {
        let mut lanes = 1u8;
        let mut elem: Option<ElemType> = None;
        for v in vals {
            let (e, n) = match &v.ty {
                Ty::Scalar(e) => (*e, 1),
                Ty::Vector(e, n) => (*e, *n),
                other => return Err(type_error(span, format!("`{name}` does not take a `{}`", other.describe()), "here")),
            };
            if n > 1 {
                if lanes > 1 && lanes != n {
                    return Err(type_error(span, format!("`{name}` was given vectors of different lengths"), "here"));
                }
                lanes = n;
            }
            // Built-ins are overloaded on the exact type: operands of one type keep it
            // (`add_sat` on `char` saturates at 127); mixed scalars take C's common type.
            elem = Some(match elem {
                None => e,
                Some(prev) if prev == e => e,
                Some(prev) => elem_of_num(common_num(num_ty(prev), num_ty(e))),
            });
        }
        let mut e = elem.unwrap_or(ElemType::Int);
        // A vector's element type wins over a broadcast scalar's.
        if let Some(Ty::Vector(ve, _)) = vals.iter().map(|v| &v.ty).find(|t| matches!(t, Ty::Vector(..))) {
            e = *ve;
        }
        match kind {
            MathKind::Float | MathKind::FloatInt | MathKind::Relational | MathKind::IntResult if !e.is_float() => e = ElemType::Float,
            MathKind::Int if e.is_float() => return Err(type_error(span, format!("`{name}` takes integers, not floating-point values"), "here")),
            _ => {}
        }
        Ok((e, lanes))
    }

    /// Converts `v` to lane type `e` with `n` lanes (broadcasting a scalar).
    pub(super) fn convert_to_gentype(&mut self, v: Val, e: ElemType, n: u8, span: Span) -> Result<Reg, Diagnostic> {
        let target = if n == 1 { Ty::Scalar(e) } else { Ty::Vector(e, n) };
        if let (Ty::Vector(ve, vn), Ty::Vector(..)) = (&v.ty, &target) {
            if *vn == n && *ve != e {
                return Err(type_error(span, format!("expected a `{}`, found a `{}`", target.describe(), v.ty.describe()), "here"));
            }
        }
        Ok(self.convert(v, &target, span)?.reg)
    }

    pub(super) fn math_call(&mut self, name: &str, op: MathOp, kind: MathKind, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let vals: Vec<Val> = args.iter().map(|a| self.rvalue(a)).collect::<Result<_, _>>()?;
        let float_part = if kind == MathKind::FloatInt { &vals[..1] } else { &vals[..] };
        let (e, n) = self.gentype(float_part, kind, name, span)?;
        let n = if kind == MathKind::FloatInt { self.gentype(&vals, MathKind::Any, name, span)?.1.max(n) } else { n };
        let mut regs = Vec::new();
        for (i, v) in vals.into_iter().enumerate() {
            let lane_e = if kind == MathKind::FloatInt && i == 1 { ElemType::Int } else { e };
            regs.push(self.convert_to_gentype(v, lane_e, n, span)?);
        }
        let (ra, rb, rc) = (regs[0], *regs.get(1).unwrap_or(&regs[0]), *regs.get(2).unwrap_or(&regs[0]));
        let result_e = match kind {
            MathKind::Relational if n > 1 => mask_elem(e),
            MathKind::Relational | MathKind::IntResult => ElemType::Int,
            _ => e,
        };
        let dst = self.regs(n as u32)?;
        for k in 0..n as u32 {
            self.emit(Instr::Math { op, ty: e, dst: dst + k, a: ra + k, b: rb + k, c: rc + k }, span);
            if kind == MathKind::Relational && n > 1 {
                // Vector relational results are -1 (all bits set) for true.
                self.emit(Instr::Unary { op: UnaryOp::Neg, ty: num_ty(result_e), dst: dst + k, src: dst + k }, span);
            }
        }
        let ty = if n == 1 { Ty::Scalar(result_e) } else { Ty::Vector(result_e, n) };
        Ok(Val { reg: dst, ty })
    }

    /// `select(a, b, c)`: per lane, `b` where `c` is true (vectors: where its sign bit is set).
    pub(super) fn select(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [a, b, c] = args else {
            return Err(type_error(span, "`select` takes 3 arguments: select(a, b, condition)", "here"));
        };
        let (va, vb, vc) = (self.rvalue(a)?, self.rvalue(b)?, self.rvalue(c)?);
        self.select_values("select", va, vb, vc, c.span, span)
    }

    /// `select(a, b, c)` on values: the built-in, and `?:` with a vector condition (which is
    /// `select(otherwise, then, condition)`, scalar arms broadcast to the condition's lanes).
    pub(super) fn select_values(&mut self, name: &str, va: Val, vb: Val, vc: Val, c_span: Span, span: Span) -> Result<Val, Diagnostic> {
        let (e, n) = self.gentype(&[va.clone(), vb.clone()], MathKind::Any, name, span)?;
        // Scalar arms of `?:` take the condition's lanes; the built-in's do not.
        let n = match vc.ty {
            Ty::Vector(_, cn) if n == 1 && name == "?:" => cn,
            _ => n,
        };
        let (ra, rb) = (self.convert_to_gentype(va, e, n, span)?, self.convert_to_gentype(vb, e, n, span)?);
        let ce = match &vc.ty {
            Ty::Scalar(t) | Ty::Vector(t, _) if !t.is_float() => *t,
            other => return Err(type_error(c_span, format!("`{name}` needs an integer condition, not `{}`", other.describe()), "here")),
        };
        let rc = self.convert_to_gentype(vc, ce, n, span)?;
        let dst = self.regs(n as u32)?;
        for k in 0..n as u32 {
            // The condition's own type decides its sign bit.
            let cond = if n == 1 {
                rc + k
            } else {
                let m = self.reg()?;
                let zero = self.constant(0, ce, span)?;
                self.emit(Instr::Compare { op: CmpOp::Lt, ty: num_ty(ce), dst: m, lhs: rc + k, rhs: zero.reg }, span);
                if !ce.is_signed() {
                    // For unsigned lanes the most significant bit is tested directly.
                    let shift = self.constant(ce.size() * 8 - 1, ce, span)?;
                    self.emit(Instr::Binary { op: BinaryOp::Shr, ty: num_ty(ce), dst: m, lhs: rc + k, rhs: shift.reg }, span);
                }
                m
            };
            self.emit(Instr::Math { op: MathOp::Select, ty: e, dst: dst + k, a: ra + k, b: rb + k, c: cond }, span);
        }
        let ty = if n == 1 { Ty::Scalar(e) } else { Ty::Vector(e, n) };
        Ok(Val { reg: dst, ty })
    }

    /// The built-ins that return one value and store a second through their last argument, a
    /// pointer into any address space: `fract` (the floor), `modf` (the integral part),
    /// `sincos` (the cosine), `frexp` (the exponent), `lgamma_r` (the sign of gamma) and
    /// `remquo` (the quotient bits). The store is an ordinary store through the pointer, seen
    /// by the memory checks and the race detector like any other.
    pub(super) fn math_with_pointer(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        use MathOp as M;
        let (value_op, stored_op, int_out) = match name {
            "fract" => (M::Fract, M::Floor, false),
            "modf" => (M::Modf, M::Trunc, false),
            "sincos" => (M::Sin, M::Cos, false),
            "frexp" => (M::FrexpMantissa, M::FrexpExponent, true),
            "lgamma_r" => (M::Lgamma, M::LgammaSign, true),
            _ => (M::Remainder, M::RemquoQuotient, true),
        };
        let inputs = if name == "remquo" { 2 } else { 1 };
        if args.len() != inputs + 1 {
            let usage = if inputs == 2 { format!("{name}(x, y, &out)") } else { format!("{name}(x, &out)") };
            return Err(type_error(span, format!("`{name}` takes {} arguments, but {} were given", inputs + 1, args.len()), "wrong number of arguments")
                .with_help(format!("call it as {usage}")));
        }
        let vals: Vec<Val> = args[..inputs].iter().map(|a| self.rvalue(a)).collect::<Result<_, _>>()?;
        let (e, n) = self.gentype(&vals, MathKind::Float, name, span)?;
        let regs: Vec<Reg> = vals.into_iter().map(|v| self.convert_to_gentype(v, e, n, span)).collect::<Result<_, _>>()?;
        let (ra, rb) = (regs[0], *regs.last().unwrap_or(&regs[0]));
        let out_e = if int_out { ElemType::Int } else { e };
        let out_ty = if n == 1 { Ty::Scalar(out_e) } else { Ty::Vector(out_e, n) };
        let p_arg = &args[inputs];
        let p = self.rvalue(p_arg)?;
        let space = match &p.ty {
            Ty::Ptr { pointee, space, is_const: false } if **pointee == out_ty && *space != Space::Constant => *space,
            other => {
                return Err(type_error(
                    p_arg.span,
                    format!("`{name}` stores through a pointer to `{}`, not a `{}`", out_ty.describe(), other.describe()),
                    "here",
                )
                .with_help(format!("pass the address of a writable `{}`", out_ty.describe())))
            }
        };
        let (value, stored) = (self.regs(n as u32)?, self.regs(n as u32)?);
        for k in 0..n as u32 {
            self.emit(Instr::Math { op: value_op, ty: e, dst: value + k, a: ra + k, b: rb + k, c: ra + k }, span);
            self.emit(Instr::Math { op: stored_op, ty: e, dst: stored + k, a: ra + k, b: rb + k, c: ra + k }, span);
        }
        self.write(&Place::Mem(p.reg, out_ty.clone(), space), Val { reg: stored, ty: out_ty }, span)?;
        Ok(Val { reg: value, ty: if n == 1 { Ty::Scalar(e) } else { Ty::Vector(e, n) } })
    }

    /// `nan(code)`: a quiet NaN carrying `code` in its significand; a 64-bit code (`ulong`)
    /// gives a double, any narrower integer a float.
    pub(super) fn nan(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [code] = args else {
            return Err(
                type_error(span, format!("`nan` takes 1 argument, but {} were given", args.len()), "wrong number of arguments").with_help("call it as nan(0u)")
            );
        };
        let v = self.rvalue(code)?;
        let (e, n) = match v.ty {
            Ty::Scalar(e) if !e.is_float() => (e, 1),
            Ty::Vector(e, n) if !e.is_float() => (e, n),
            ref other => {
                return Err(type_error(code.span, format!("`nan` takes an unsigned integer code (`uint` or `ulong`), not a `{}`", other.describe()), "here"))
            }
        };
        let result_e = if e.size() == 8 { ElemType::Double } else { ElemType::Float };
        let dst = self.regs(n as u32)?;
        for k in 0..n as u32 {
            // Only the code's low bits are used, which the register holds whatever its type.
            self.emit(Instr::Math { op: MathOp::Nan, ty: result_e, dst: dst + k, a: v.reg + k, b: v.reg + k, c: v.reg + k }, span);
        }
        Ok(Val { reg: dst, ty: if n == 1 { Ty::Scalar(result_e) } else { Ty::Vector(result_e, n) } })
    }

    /// `upsample(hi, lo)`: `(hi << bits) | lo` in the type twice as wide as `hi`, whose
    /// signedness it keeps; `lo` is the unsigned type of `hi`'s width.
    pub(super) fn upsample(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [hi, lo] = args else {
            return Err(type_error(span, format!("`upsample` takes 2 arguments, but {} were given", args.len()), "wrong number of arguments")
                .with_help("call it as upsample(hi, lo)"));
        };
        let (vh, vl) = (self.rvalue(hi)?, self.rvalue(lo)?);
        let lanes = |t: &Ty| match t {
            Ty::Scalar(e) => Some((*e, 1u8)),
            Ty::Vector(e, n) => Some((*e, *n)),
            _ => None,
        };
        use ElemType as E;
        let Some((he, n)) = lanes(&vh.ty) else {
            return Err(type_error(hi.span, format!("`upsample` takes a char, short or int `hi`, not a `{}`", vh.ty.describe()), "here"));
        };
        let (wide, lo_e) = match he {
            E::Char => (E::Short, E::UChar),
            E::UChar => (E::UShort, E::UChar),
            E::Short => (E::Int, E::UShort),
            E::UShort => (E::UInt, E::UShort),
            E::Int => (E::Long, E::UInt),
            E::UInt => (E::ULong, E::UInt),
            _ => return Err(type_error(hi.span, format!("`upsample` takes a char, short or int `hi`, not a `{}`", vh.ty.describe()), "here")),
        };
        let lo_ty = if n == 1 { Ty::Scalar(lo_e) } else { Ty::Vector(lo_e, n) };
        if lanes(&vl.ty) != Some((lo_e, n)) {
            return Err(type_error(
                lo.span,
                format!("with a `{}` hi, `upsample` needs a `{}` lo, not a `{}`", vh.ty.describe(), lo_ty.describe(), vl.ty.describe()),
                "here",
            )
            .with_help(format!("convert it: ({})x", lo_ty.describe())));
        }
        let shift = self.constant(he.size() * 8, E::ULong, span)?;
        let dst = self.regs(n as u32)?;
        for k in 0..n as u32 {
            let h = self.convert(Val { reg: vh.reg + k, ty: Ty::Scalar(he) }, &Ty::Scalar(wide), span)?;
            let l = self.convert(Val { reg: vl.reg + k, ty: Ty::Scalar(lo_e) }, &Ty::Scalar(wide), span)?;
            // Unsigned register arithmetic: the shifted sign bits are the result's, never an
            // overflow.
            let shifted = self.reg()?;
            self.emit(Instr::Binary { op: BinaryOp::Shl, ty: NumTy::U64, dst: shifted, lhs: h.reg, rhs: shift.reg }, span);
            self.emit(Instr::Binary { op: BinaryOp::Or, ty: NumTy::U64, dst: dst + k, lhs: shifted, rhs: l.reg }, span);
            self.emit(Instr::Narrow { ty: wide, dst: dst + k, src: dst + k }, span);
        }
        Ok(Val { reg: dst, ty: if n == 1 { Ty::Scalar(wide) } else { Ty::Vector(wide, n) } })
    }

    /// `vec_step(type)` or `vec_step(expression)`: the number of lanes, a compile-time `int`
    /// (1 for a scalar, 4 for a 3-lane vector, which is laid out as 4). The expression is not
    /// evaluated.
    pub(super) fn vec_step(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [operand] = args else {
            return Err(type_error(span, format!("`vec_step` takes 1 argument, but {} were given", args.len()), "wrong number of arguments")
                .with_help("call it as vec_step(float4) or vec_step(x)"));
        };
        // A single word that is not a variable may name a type (`float4`, a typedef).
        // The parser gives a type name of several words (`unsigned int`) as `SizeofType`.
        let named = match &operand.kind {
            ExprKind::Ident(w) if self.lookup(w).is_none() => self.types.named(w),
            ExprKind::SizeofType(t) => Some(self.types.resolve(t)?),
            _ => None,
        };
        let ty = match named {
            Some(ty) => ty,
            None => self.type_of_unevaluated(operand)?,
        };
        let steps = match ty {
            Ty::Scalar(_) | Ty::Half => 1,
            Ty::Vector(_, 3) => 4,
            Ty::Vector(_, n) => n as u64,
            other => return Err(type_error(operand.span, format!("`vec_step` takes a scalar or vector type or value, not a `{}`", other.describe()), "here")),
        };
        self.constant(steps, ElemType::Int, span)
    }

    /// `to_global`, `to_local` and `to_private` (the pointer when it points into that space,
    /// else NULL) and `get_fence` (the fence flags of the space it points into), decided by the
    /// space the pointer value carries.
    pub(super) fn address_space_of(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [operand] = args else {
            return Err(type_error(span, format!("`{name}` takes 1 argument, but {} were given", args.len()), "wrong number of arguments")
                .with_help(format!("call it as {name}(pointer)")));
        };
        let p = self.rvalue(operand)?;
        let Ty::Ptr { pointee, space, is_const } = p.ty.clone() else {
            return Err(type_error(operand.span, format!("`{name}` takes a pointer, not a `{}`", p.ty.describe()), "not a pointer"));
        };
        if space == Space::Constant {
            return Err(type_error(operand.span, format!("`{name}` takes a generic pointer; a `__constant` pointer cannot become one"), "__constant pointer"));
        }
        let target = match name {
            "to_global" => Space::Global,
            "to_private" => Space::Private,
            _ => Space::Local,
        };
        // The pointer's top bits hold its space (see `ir::ptr`).
        let shift = self.constant(62, ElemType::ULong, span)?;
        let tag = self.reg()?;
        self.emit(Instr::Binary { op: BinaryOp::Shr, ty: NumTy::U64, dst: tag, lhs: p.reg, rhs: shift.reg }, span);
        let want = self.constant(target as u64, ElemType::ULong, span)?;
        let is_target = self.reg()?;
        self.emit(Instr::Compare { op: CmpOp::Eq, ty: NumTy::U64, dst: is_target, lhs: tag, rhs: want.reg }, span);
        let dst = self.reg()?;
        if name == "get_fence" {
            // CLK_LOCAL_MEM_FENCE for local memory, CLK_GLOBAL_MEM_FENCE for the rest.
            let (local, global) = (self.constant(1, ElemType::UInt, span)?, self.constant(2, ElemType::UInt, span)?);
            self.emit(Instr::Math { op: MathOp::Select, ty: ElemType::UInt, dst, a: global.reg, b: local.reg, c: is_target }, span);
            return Ok(Val { reg: dst, ty: Ty::Scalar(ElemType::UInt) });
        }
        let null = self.constant(0, ElemType::ULong, span)?;
        self.emit(Instr::Math { op: MathOp::Select, ty: ElemType::ULong, dst, a: null.reg, b: p.reg, c: is_target }, span);
        Ok(Val { reg: dst, ty: Ty::Ptr { pointee, space: target, is_const } })
    }

    /// `dot`, `length`, `distance`, `normalize` and `cross` on float scalars and vectors, and
    /// the `fast_` forms of `length`, `distance` and `normalize` (the same values, floats only).
    pub(super) fn geometric(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let fast = name.starts_with("fast_");
        let full = name;
        let name = name.strip_prefix("fast_").unwrap_or(name);
        let arity = if matches!(name, "dot" | "distance" | "cross") { 2 } else { 1 };
        if args.len() != arity {
            return Err(type_error(span, format!("`{full}` takes {arity} argument(s), but {} were given", args.len()), "here"));
        }
        let vals: Vec<Val> = args.iter().map(|a| self.rvalue(a)).collect::<Result<_, _>>()?;
        let (e, n) = self.gentype(&vals, MathKind::Float, full, span)?;
        if fast && e == ElemType::Double {
            return Err(type_error(span, format!("`{full}` takes float vectors, not double"), "double operand").with_help(format!("use {name}() for doubles")));
        }
        let regs: Vec<Reg> = vals.into_iter().map(|v| self.convert_to_gentype(v, e, n, span)).collect::<Result<_, _>>()?;
        let nt = num_ty(e);
        let dot = |this: &mut Self, a: Reg, b: Reg| -> Result<Reg, Diagnostic> {
            let acc = this.reg()?;
            this.emit(Instr::Binary { op: BinaryOp::Mul, ty: nt, dst: acc, lhs: a, rhs: b }, span);
            for k in 1..n as u32 {
                let p = this.reg()?;
                this.emit(Instr::Binary { op: BinaryOp::Mul, ty: nt, dst: p, lhs: a + k, rhs: b + k }, span);
                this.emit(Instr::Binary { op: BinaryOp::Add, ty: nt, dst: acc, lhs: acc, rhs: p }, span);
            }
            Ok(acc)
        };
        let sqrt = |this: &mut Self, r: Reg| -> Result<Reg, Diagnostic> {
            let d = this.reg()?;
            this.emit(Instr::Math { op: MathOp::Sqrt, ty: e, dst: d, a: r, b: r, c: r }, span);
            Ok(d)
        };
        let scalar = |reg| Ok(Val { reg, ty: Ty::Scalar(e) });
        match name {
            "dot" => {
                let d = dot(self, regs[0], regs[1])?;
                scalar(d)
            }
            "length" => {
                let d = dot(self, regs[0], regs[0])?;
                let s = sqrt(self, d)?;
                scalar(s)
            }
            "distance" => {
                let diff = self.regs(n as u32)?;
                for k in 0..n as u32 {
                    self.emit(Instr::Binary { op: BinaryOp::Sub, ty: nt, dst: diff + k, lhs: regs[0] + k, rhs: regs[1] + k }, span);
                }
                let d = dot(self, diff, diff)?;
                let s = sqrt(self, d)?;
                scalar(s)
            }
            "normalize" => {
                let d = dot(self, regs[0], regs[0])?;
                let len = sqrt(self, d)?;
                let dst = self.regs(n as u32)?;
                for k in 0..n as u32 {
                    self.emit(Instr::Binary { op: BinaryOp::Div, ty: nt, dst: dst + k, lhs: regs[0] + k, rhs: len }, span);
                }
                Ok(Val { reg: dst, ty: if n == 1 { Ty::Scalar(e) } else { Ty::Vector(e, n) } })
            }
            _ => {
                if n != 3 && n != 4 {
                    return Err(type_error(span, "`cross` takes 3- or 4-component vectors", "here"));
                }
                let (a, b) = (regs[0], regs[1]);
                let dst = self.regs(n as u32)?;
                for (k, (i, j)) in [(1u32, 2u32), (2, 0), (0, 1)].into_iter().enumerate() {
                    let (p, q) = (self.reg()?, self.reg()?);
                    self.emit(Instr::Binary { op: BinaryOp::Mul, ty: nt, dst: p, lhs: a + i, rhs: b + j }, span);
                    self.emit(Instr::Binary { op: BinaryOp::Mul, ty: nt, dst: q, lhs: a + j, rhs: b + i }, span);
                    self.emit(Instr::Binary { op: BinaryOp::Sub, ty: nt, dst: dst + k as u32, lhs: p, rhs: q }, span);
                }
                if n == 4 {
                    self.emit(Instr::Const { dst: dst + 3, bits: 0 }, span);
                }
                Ok(Val { reg: dst, ty: Ty::Vector(e, n) })
            }
        }
    }

    /// `any(v)` / `all(v)`: whether the sign bit of any / every lane is set.
    pub(super) fn any_all(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [x] = args else { return Err(type_error(span, format!("`{name}` takes one argument"), "here")) };
        let v = self.rvalue(x)?;
        let (e, n) = match &v.ty {
            Ty::Scalar(t) | Ty::Vector(t, _) if !t.is_float() => (*t, Self::width(&v.ty)),
            other => return Err(type_error(x.span, format!("`{name}` takes a signed integer vector, not `{}`", other.describe()), "here")),
        };
        let dst = self.reg()?;
        self.emit(Instr::Const { dst, bits: (name == "all") as u64 }, span);
        let zero = self.constant(0, e, span)?;
        for k in 0..n {
            let neg = self.reg()?;
            self.emit(Instr::Compare { op: CmpOp::Lt, ty: num_ty(e), dst: neg, lhs: v.reg + k, rhs: zero.reg }, span);
            let op = if name == "all" { BinaryOp::And } else { BinaryOp::Or };
            self.emit(Instr::Binary { op, ty: NumTy::I32, dst, lhs: dst, rhs: neg }, span);
        }
        Ok(Val { reg: dst, ty: Ty::Scalar(ElemType::Int) })
    }

    /// `shuffle(x, mask)` and `shuffle2(x, y, mask)`: lanes chosen by the mask's low bits.
    pub(super) fn shuffle(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let two = name == "shuffle2";
        if args.len() != 2 + two as usize {
            return Err(type_error(span, format!("`{name}` takes {} arguments", 2 + two as usize), "here"));
        }
        let vals: Vec<Val> = args.iter().map(|a| self.rvalue(a)).collect::<Result<_, _>>()?;
        let (Ty::Vector(e, n), Ty::Vector(me, mn)) = (&vals[0].ty, &vals[vals.len() - 1].ty) else {
            return Err(type_error(span, format!("`{name}` takes vectors"), "here"));
        };
        let (e, n, me, mn) = (*e, *n, *me, *mn);
        if two && vals[1].ty != vals[0].ty {
            return Err(type_error(span, "`shuffle2` needs two vectors of the same type", "here"));
        }
        let sources: Vec<Reg> = (0..n as u32).map(|k| vals[0].reg + k).chain((0..if two { n as u32 } else { 0 }).map(|k| vals[1].reg + k)).collect();
        let count = sources.len() as u64;
        let mask = vals[vals.len() - 1].reg;
        let dst = self.regs(mn as u32)?;
        let modulus = self.constant(count.next_power_of_two() - 1, me, span)?;
        for j in 0..mn as u32 {
            let idx = self.reg()?;
            self.emit(Instr::Binary { op: BinaryOp::And, ty: num_ty(me), dst: idx, lhs: mask + j, rhs: modulus.reg }, span);
            self.emit(Instr::Move { dst: dst + j, src: sources[0] }, span);
            for (k, &src) in sources.iter().enumerate().skip(1) {
                let kk = self.constant(k as u64, me, span)?;
                let c = self.reg()?;
                self.emit(Instr::Compare { op: CmpOp::Eq, ty: num_ty(me), dst: c, lhs: idx, rhs: kk.reg }, span);
                self.emit(Instr::Math { op: MathOp::Select, ty: e, dst: dst + j, a: dst + j, b: src, c }, span);
            }
        }
        Ok(Val { reg: dst, ty: Ty::Vector(e, mn) })
    }

    /// `async_work_group_copy(dst, src, n, event)` and the strided form with a stride before
    /// the event.
    pub(super) fn async_copy(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let strided = name.contains("strided");
        let want = if strided { 5 } else { 4 };
        if args.len() != want {
            let usage = if strided { "async_work_group_strided_copy(dst, src, count, stride, event)" } else { "async_work_group_copy(dst, src, count, event)" };
            return Err(type_error(span, format!("`{name}` takes {want} arguments, but {} were given", args.len()), "wrong number of arguments")
                .with_help(format!("call it as {usage}")));
        }
        let to = self.rvalue(&args[0])?;
        let from = self.rvalue(&args[1])?;
        let (Ty::Ptr { pointee: tp, space: ts, .. }, Ty::Ptr { pointee: fp, space: fs, .. }) = (&to.ty, &from.ty) else {
            return Err(type_error(span, format!("`{name}` copies between a __local and a __global pointer"), "here"));
        };
        let to_local = match (ts, fs) {
            (Space::Local, Space::Global | Space::Constant) => true,
            (Space::Global, Space::Local) => false,
            _ => {
                return Err(type_error(
                    span,
                    format!("`{name}` copies between __local and __global memory, not from `{}` to `{}`", from.ty.describe(), to.ty.describe()),
                    "here",
                ))
            }
        };
        if tp != fp {
            return Err(type_error(
                span,
                format!("`{name}` needs both pointers to the same element type, not `{}` and `{}`", to.ty.describe(), from.ty.describe()),
                "here",
            ));
        }
        let elem_size = tp.size();
        if !matches!(**tp, Ty::Scalar(_) | Ty::Vector(..)) || elem_size > 128 {
            return Err(type_error(span, format!("`{name}` copies scalars or vectors, not `{}`", tp.describe()), "here"));
        }
        let count = self.rvalue(&args[2])?;
        let count = self.convert(count, &Ty::Scalar(ElemType::ULong), args[2].span)?;
        let stride = if strided {
            let s = self.rvalue(&args[3])?;
            self.convert(s, &Ty::Scalar(ElemType::ULong), args[3].span)?
        } else {
            self.constant(1, ElemType::ULong, span)?
        };
        let ev = self.rvalue(&args[want - 1])?;
        let ev = self.convert(ev, &Ty::Event, args[want - 1].span)?;
        let dst = self.reg()?;
        let instr =
            Instr::AsyncCopy { dst, to: to.reg, from: from.reg, count: count.reg, stride: stride.reg, event: ev.reg, elem_size: elem_size as u32, to_local };
        self.emit(instr, span);
        Ok(Val { reg: dst, ty: Ty::Event })
    }

    /// The argument count (`(offset, p)` or `(data, offset, p)`) and the pointer operand of the
    /// vload/vstore families.
    pub(super) fn load_store_pointer<'e>(
        &mut self,
        name: &str,
        store: bool,
        args: &'e [ast::Expr],
        span: Span,
    ) -> Result<(usize, &'e ast::Expr, Val), Diagnostic> {
        let want = if store { 3 } else { 2 };
        if args.len() != want {
            let usage = if store { format!("{name}(data, offset, pointer)") } else { format!("{name}(offset, pointer)") };
            return Err(type_error(span, format!("`{name}` takes {want} arguments, but {} were given", args.len()), "wrong number of arguments")
                .with_help(format!("call it as {usage}")));
        }
        let p_arg = &args[want - 1];
        let p = self.rvalue(p_arg)?;
        Ok((want, p_arg, p))
    }

    /// Loads and stores of `half` data, converting to and from `float`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn half_memory(
        &mut self,
        name: &str,
        store: bool,
        n: u8,
        aligned: bool,
        rounding: MathOp,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Val, Diagnostic> {
        let (want, p_arg, p) = self.load_store_pointer(name, store, args, span)?;
        match &p.ty {
            Ty::Ptr { pointee, .. } if **pointee == Ty::Half => {}
            other => return Err(type_error(p_arg.span, format!("`{name}` needs a pointer to half, not `{}`", other.describe()), "here")),
        }
        let offset = self.rvalue(&args[want - 2])?;
        let offset = self.convert(offset, &Ty::Scalar(ElemType::Long), args[want - 2].span)?;
        // Element index of lane 0: offset * N (the aligned 3-vector forms step by 4).
        let stride = if aligned && n == 3 { 4 } else { n as u64 };
        let scale = self.constant(stride, ElemType::Long, span)?;
        let first = self.reg()?;
        self.emit(Instr::Binary { op: BinaryOp::Mul, ty: NumTy::I64, dst: first, lhs: offset.reg, rhs: scale.reg }, span);
        let base = self.reg()?;
        self.emit(Instr::PtrAdd { dst: base, ptr: p.reg, index: first, scale: 2 }, span);
        let vt = if n == 1 { Ty::Scalar(ElemType::Float) } else { Ty::Vector(ElemType::Float, n) };
        if store {
            let data = self.rvalue(&args[0])?;
            // Doubles are rounded to half directly, not through float (which could round twice).
            let data_e = match data.ty {
                Ty::Scalar(ElemType::Double) | Ty::Vector(ElemType::Double, _) => ElemType::Double,
                _ => ElemType::Float,
            };
            let dt = if n == 1 { Ty::Scalar(data_e) } else { Ty::Vector(data_e, n) };
            let data = self.convert(data, &dt, args[0].span)?;
            for k in 0..n as u32 {
                let at = self.field_addr(base, k as u64 * 2, span)?;
                let h = self.reg()?;
                self.emit(Instr::Math { op: rounding, ty: data_e, dst: h, a: data.reg + k, b: data.reg + k, c: data.reg + k }, span);
                self.emit(Instr::Store { ty: ElemType::UShort, addr: at, src: h }, span);
            }
            return Ok(Val { reg: base, ty: Ty::Void });
        }
        let dst = self.regs(n as u32)?;
        for k in 0..n as u32 {
            let at = self.field_addr(base, k as u64 * 2, span)?;
            let bits = self.reg()?;
            self.emit(Instr::Load { ty: ElemType::UShort, dst: bits, addr: at }, span);
            self.emit(Instr::Math { op: MathOp::HalfToFloat, ty: ElemType::Float, dst: dst + k, a: bits, b: bits, c: bits }, span);
        }
        Ok(Val { reg: dst, ty: vt })
    }

    pub(super) fn vector_memory(&mut self, name: &str, store: bool, n: u8, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let (want, p_arg, p) = self.load_store_pointer(name, store, args, span)?;
        let Ty::Ptr { pointee, space, .. } = &p.ty else {
            return Err(type_error(p_arg.span, format!("`{name}` needs a pointer to scalars"), "not a pointer"));
        };
        let Ty::Scalar(e) = **pointee else {
            return Err(type_error(p_arg.span, format!("`{name}` needs a pointer to scalars, not `{}`", p.ty.describe()), "here"));
        };
        let space = *space;
        let offset = self.rvalue(&args[want - 2])?;
        let offset = self.convert(offset, &Ty::Scalar(ElemType::Long), args[want - 2].span)?;
        // Element index of lane 0: offset * n.
        let scale = self.constant(n as u64, ElemType::Long, span)?;
        let first = self.reg()?;
        self.emit(Instr::Binary { op: BinaryOp::Mul, ty: NumTy::I64, dst: first, lhs: offset.reg, rhs: scale.reg }, span);
        let base = self.reg()?;
        self.emit(Instr::PtrAdd { dst: base, ptr: p.reg, index: first, scale: e.size() as u32 }, span);
        let vt = Ty::Vector(e, n);
        // The lanes are consecutive scalars: address them as an unaligned vector place.
        let lanes: Vec<u8> = (0..n).collect();
        let place = Place::Lanes(Box::new(Place::Mem(base, vt.clone(), space)), lanes);
        if store {
            let data = self.rvalue(&args[0])?;
            if data.ty != vt {
                return Err(type_error(args[0].span, format!("`{name}` stores a `{}`, not a `{}`", vt.describe(), data.ty.describe()), "here"));
            }
            self.write(&place, data, span)?;
            return Ok(Val { reg: base, ty: Ty::Void });
        }
        self.read(place, span)
    }

    pub(super) fn printf(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let Some(ast::Expr { kind: ExprKind::Str(format), .. }) = args.first() else {
            return Err(type_error(span, "printf needs a string literal as its format", "here").with_help("write printf(\"%d\\n\", x)"));
        };
        let format_index = self.program.strings.len() as u32;
        self.program.strings.push(format.clone());
        let mut regs = Vec::new();
        let mut kinds = Vec::new();
        for a in &args[1..] {
            if let ExprKind::Str(s) = &a.kind {
                let index = self.program.strings.len() as u64;
                self.program.strings.push(s.clone());
                let c = self.constant(index, ElemType::ULong, a.span)?;
                regs.push(c.reg);
                kinds.push(PrintfArg::Str);
                continue;
            }
            let v = self.rvalue(a)?;
            match &v.ty {
                Ty::Scalar(t) if t.is_float() => {
                    let v = self.convert(v, &Ty::Scalar(ElemType::Double), a.span)?;
                    regs.push(v.reg);
                    kinds.push(PrintfArg::Int(NumTy::F64));
                }
                Ty::Scalar(t) => {
                    regs.push(v.reg);
                    kinds.push(PrintfArg::Int(num_ty(*t)));
                }
                Ty::Ptr { .. } | Ty::Array { .. } => {
                    regs.push(v.reg);
                    kinds.push(PrintfArg::Ptr);
                }
                // A vector's lanes are consecutive arguments; `%vN` consumes N of them.
                Ty::Vector(e, n) => {
                    for k in 0..*n as u32 {
                        let lane = Val { reg: v.reg + k, ty: Ty::Scalar(*e) };
                        if e.is_float() {
                            let d = self.convert(lane, &Ty::Scalar(ElemType::Double), a.span)?;
                            regs.push(d.reg);
                            kinds.push(PrintfArg::Int(NumTy::F64));
                        } else {
                            regs.push(lane.reg);
                            kinds.push(PrintfArg::Int(num_ty(*e)));
                        }
                    }
                }
                Ty::Void => return Err(type_error(a.span, "this argument has no value", "void")),
                other => return Err(type_error(a.span, format!("printf cannot print a `{}`", other.describe()), "here")),
            }
        }
        let start = self.func.arg_pool.len() as u32;
        self.func.arg_pool.extend(&regs);
        self.func.printf_types.extend(kinds);
        self.emit(Instr::Printf { format: format_index, args: start, argc: regs.len() as u32 }, span);
        self.constant(0, ElemType::Int, span)
    }
}
