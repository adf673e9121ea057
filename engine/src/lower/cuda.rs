//! CUDA's device built-ins: the index variables (`threadIdx` and the others), `__syncthreads`
//! and the fences, `__activemask`, `clock`, `malloc` and `free`, `memcpy` and `memset` as
//! loops over bytes, `assert`, `make_T` vectors, and the math library and intrinsics mapped
//! onto OpenCL C's built-in library (`sqrtf` is `sqrt`, `__float2int_rn` is
//! `convert_int_rte`, `__fdividef(a, b)` is `a / b`).
//!
//! Only CUDA programs reach these. The block and warp collectives are in `warp.rs`, the
//! atomics in `atomics.rs`.

use super::*;

/// CUDA's built-in index variables, as the work-item queries that answer them.
pub(super) fn cuda_index_variable(name: &str) -> Option<Query> {
    Some(match name {
        "threadIdx" => Query::LocalId,
        "blockIdx" => Query::GroupId,
        "blockDim" => Query::LocalSize,
        "gridDim" => Query::NumGroups,
        _ => return None,
    })
}

/// How a function of CUDA's math library or one of its intrinsics is computed from the
/// engine's own built-ins (CUDA Math API reference: single- and double-precision functions,
/// intrinsics, integer intrinsics, type casting intrinsics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CudaLibrary {
    /// The OpenCL C built-in of this name computes it: `sqrtf` is `sqrt` on a `float`,
    /// `__popc` is `popcount`.
    Builtin(&'static str),
    /// A value conversion with a rounding mode: `__float2int_rn` is `convert_int_rte`.
    Convert { to: &'static str, rounding: &'static str },
    /// A lane-wise integer operation OpenCL C has no built-in for (`__ffs`, `__brev`).
    Integer(MathOp),
    /// An arithmetic operator: `__fdividef(a, b)` and `__fadd_rn(a, b)` are `a / b` and `a + b`
    /// (round-to-nearest is what the operators do).
    Operator(BinOp),
    /// `__frcp_rn(x)`: `1 / x`, in the argument's precision.
    Reciprocal,
    /// `__sad(x, y, z)`: `abs_diff(x, y) + z`.
    SumOfAbsoluteDifference,
    /// `__saturatef(x)`: `x` clamped to [0, 1].
    Saturate,
    /// `__ldg(p)`: `*p`, a load through the read-only data cache, which changes no value.
    Load,
}

/// The math functions OpenCL C and CUDA share by name, whose CUDA single-precision forms add
/// an `f` (`sqrtf`); CUDA's double-precision forms have the OpenCL name itself.
pub(super) const SHARED_MATH: &[&str] = &[
    "sqrt",
    "rsqrt",
    "cbrt",
    "exp",
    "exp2",
    "exp10",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "pow",
    "fabs",
    "floor",
    "ceil",
    "round",
    "trunc",
    "rint",
    "fmin",
    "fmax",
    "fmod",
    "hypot",
    "copysign",
    "fdim",
    "remainder",
    "nextafter",
    "fma",
    "erf",
    "erfc",
    "tgamma",
    "lgamma",
    "sinpi",
    "cospi",
    "ldexp",
    "ilogb",
    "logb",
    "frexp",
    "modf",
    "remquo",
];

pub(super) fn cuda_library(name: &str) -> Option<CudaLibrary> {
    use CudaLibrary::*;
    if let Some(stem) = name.strip_suffix('f') {
        if let Some(shared) = SHARED_MATH.iter().find(|m| **m == stem) {
            return Some(Builtin(shared));
        }
    }
    // The fast intrinsics (`__sinf`) compute the same function at lower precision; like
    // OpenCL's `native_` forms, they compute it at full precision here.
    if let Some(stem) = name.strip_prefix("__").and_then(|n| n.strip_suffix('f')) {
        if let Some(fast) = ["sin", "cos", "tan", "exp", "exp10", "log", "log2", "log10", "pow"].iter().find(|m| **m == stem) {
            return Some(Builtin(fast));
        }
    }
    // The type casting intrinsics: a conversion with a rounding mode (`_rn` nearest even,
    // `_rz` toward zero, `_ru` up, `_rd` down), or the same bits read as another type.
    if let Some((from_to, rounding)) = name.strip_prefix("__").and_then(|n| n.rsplit_once('_')) {
        let rounding = match rounding {
            "rn" => Some("rte"),
            "rz" => Some("rtz"),
            "ru" => Some("rtp"),
            "rd" => Some("rtn"),
            _ => None,
        };
        let conversion = match from_to {
            "float2int" | "double2int" => Some("int"),
            "float2uint" | "double2uint" => Some("uint"),
            "float2ll" | "double2ll" => Some("long"),
            "float2ull" | "double2ull" => Some("ulong"),
            "int2float" | "uint2float" | "ll2float" | "ull2float" | "double2float" => Some("float"),
            "int2double" | "uint2double" | "ll2double" | "ull2double" => Some("double"),
            _ => None,
        };
        if let (Some(rounding), Some(to)) = (rounding, conversion) {
            return Some(Convert { to, rounding });
        }
    }
    Some(match name {
        "__float_as_int" => Builtin("as_int"),
        "__float_as_uint" => Builtin("as_uint"),
        "__int_as_float" | "__uint_as_float" => Builtin("as_float"),
        "__double_as_longlong" => Builtin("as_long"),
        "__longlong_as_double" => Builtin("as_double"),
        "__popc" | "__popcll" => Builtin("popcount"),
        "__clz" | "__clzll" => Builtin("clz"),
        "__mul24" | "__umul24" => Builtin("mul24"),
        "__mulhi" | "__umulhi" | "__mul64hi" | "__umul64hi" => Builtin("mul_hi"),
        "__hadd" | "__uhadd" => Builtin("hadd"),
        "__rhadd" | "__urhadd" => Builtin("rhadd"),
        "labs" | "llabs" => Builtin("abs"),
        "umin" | "llmin" | "ullmin" => Builtin("min"),
        "umax" | "llmax" | "ullmax" => Builtin("max"),
        "__fsqrt_rn" | "__dsqrt_rn" => Builtin("sqrt"),
        "__frsqrt_rn" => Builtin("rsqrt"),
        "__fmaf_rn" | "__fma_rn" => Builtin("fma"),
        "__ffs" | "__ffsll" => Integer(MathOp::Ffs),
        "__brev" | "__brevll" => Integer(MathOp::Brev),
        "__fdividef" | "fdividef" | "__fdiv_rn" | "__ddiv_rn" => Operator(BinOp::Div),
        "__fadd_rn" | "__dadd_rn" => Operator(BinOp::Add),
        "__fsub_rn" | "__dsub_rn" => Operator(BinOp::Sub),
        "__fmul_rn" | "__dmul_rn" => Operator(BinOp::Mul),
        "__frcp_rn" | "__drcp_rn" => Reciprocal,
        "__sad" | "__usad" => SumOfAbsoluteDifference,
        "__saturatef" => Saturate,
        "__ldg" => Load,
        _ => return None,
    })
}

impl<'u> FnLowerer<'_, 'u> {
    /// CUDA's device built-ins; `None` when `name` is not one of them.
    pub(super) fn cuda_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Result<Val, Diagnostic>> {
        let fence = |this: &mut Self, flags: u64, barrier: bool| -> Result<Val, Diagnostic> {
            if !args.is_empty() {
                return Err(type_error(span, format!("`{name}` takes no arguments"), "here"));
            }
            let f = this.constant(flags, ElemType::UInt, span)?;
            let instr = if barrier { Instr::Barrier { flags: f.reg } } else { Instr::Fence { flags: f.reg } };
            this.emit(instr, span);
            Ok(Val { reg: f.reg, ty: Ty::Void })
        };
        use ir::fence::{GLOBAL, LOCAL, SCOPE_DEVICE, SCOPE_GROUP, SCOPE_SYSTEM};
        Some(match name {
            "__syncthreads" => fence(self, LOCAL | GLOBAL | SCOPE_GROUP, true),
            "__threadfence_block" => fence(self, LOCAL | GLOBAL | SCOPE_GROUP, false),
            "__threadfence" => fence(self, LOCAL | GLOBAL | SCOPE_DEVICE, false),
            "__threadfence_system" => fence(self, LOCAL | GLOBAL | SCOPE_SYSTEM, false),
            "memcpy" | "__builtin_memcpy" | "memset" | "__builtin_memset" => self.byte_loop(name, args, span),
            "__syncthreads_count" => self.collective(name, CollectiveOp::Count, false, args, span),
            "__syncthreads_and" => self.collective(name, CollectiveOp::All, false, args, span),
            "__syncthreads_or" => self.collective(name, CollectiveOp::Any, false, args, span),
            "__syncwarp" => self.collective(name, CollectiveOp::Sync, true, args, span),
            "__all" | "__all_sync" => self.collective(name, CollectiveOp::All, true, args, span),
            "__any" | "__any_sync" => self.collective(name, CollectiveOp::Any, true, args, span),
            "__ballot" | "__ballot_sync" => self.collective(name, CollectiveOp::Ballot, true, args, span),
            "__shfl_sync" => self.collective(name, CollectiveOp::Shfl, true, args, span),
            "__shfl_up_sync" => self.collective(name, CollectiveOp::ShflUp, true, args, span),
            "__shfl_down_sync" => self.collective(name, CollectiveOp::ShflDown, true, args, span),
            "__shfl_xor_sync" => self.collective(name, CollectiveOp::ShflXor, true, args, span),
            "__activemask" | "clock" | "clock64" => {
                if !args.is_empty() {
                    return Some(Err(type_error(span, format!("`{name}` takes no arguments"), "here")));
                }
                let dst = match self.reg() {
                    Ok(r) => r,
                    Err(e) => return Some(Err(e)),
                };
                let (instr, ty) = match name {
                    "__activemask" => (Instr::ActiveMask { dst }, ElemType::UInt),
                    "clock" => (Instr::Clock { dst }, ElemType::Long),
                    _ => (Instr::Clock { dst }, ElemType::Long),
                };
                self.emit(instr, span);
                Ok(Val { reg: dst, ty: Ty::Scalar(ty) })
            }
            "malloc" => {
                let [size] = args else { return Some(Err(type_error(span, "`malloc` takes one size", "here"))) };
                (|| {
                    let n = self.rvalue(size)?;
                    let n = self.convert(n, &Ty::Scalar(ElemType::ULong), size.span)?;
                    let dst = self.reg()?;
                    self.emit(Instr::Malloc { dst, size: n.reg }, span);
                    self.program.uses_heap = true;
                    Ok(Val { reg: dst, ty: Ty::Ptr { pointee: Box::new(Ty::Void), space: Space::Global, is_const: false } })
                })()
            }
            "free" => {
                let [p] = args else { return Some(Err(type_error(span, "`free` takes one pointer", "here"))) };
                (|| {
                    let v = self.rvalue(p)?;
                    if !matches!(v.ty, Ty::Ptr { .. }) {
                        return Err(type_error(p.span, "`free` needs a pointer from malloc", "not a pointer"));
                    }
                    self.emit(Instr::Free { ptr: v.reg }, span);
                    Ok(Val { reg: v.reg, ty: Ty::Void })
                })()
            }
            "assert" => self.assert(args, span),
            _ if cuda_atomic(name).is_some() => {
                let (op, n, scope) = cuda_atomic(name)?;
                self.cuda_atomic_call(name, op, n, scope, args, span)
            }
            _ if name.starts_with("make_") => {
                let ty = match types::builtin_type(&name[5..], span) {
                    Ok(Ty::Vector(e, n)) => (e, n),
                    _ => return None,
                };
                let mut parts = args.iter();
                let Some(first) = parts.next() else {
                    return Some(Err(type_error(span, format!("`{name}` needs {} arguments", ty.1), "here")));
                };
                // Build the comma chain a vector literal takes.
                let mut chain = first.clone();
                for p in parts {
                    let s = chain.span.to(p.span);
                    chain = ast::Expr { kind: ExprKind::Comma(Box::new(chain), Box::new(p.clone())), span: s };
                }
                if args.len() != ty.1 as usize {
                    return Some(Err(type_error(span, format!("`{name}` takes {} arguments, but {} were given", ty.1, args.len()), "here")));
                }
                self.vector_literal(ty.0, ty.1, &chain, span)
            }
            _ => return None,
        })
    }

    /// A CUDA math-library function or intrinsic, computed as the built-in, operator or
    /// expression [`cuda_library`] names for it.
    pub(super) fn cuda_library_call(&mut self, name: &str, library: CudaLibrary, callee: Span, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let arity = match library {
            CudaLibrary::Builtin(_) | CudaLibrary::Convert { .. } => None,
            CudaLibrary::Integer(_) | CudaLibrary::Reciprocal | CudaLibrary::Saturate | CudaLibrary::Load => Some(1),
            CudaLibrary::Operator(_) => Some(2),
            CudaLibrary::SumOfAbsoluteDifference => Some(3),
        };
        if let Some(n) = arity.filter(|n| *n != args.len()) {
            return Err(type_error(
                span,
                format!("`{name}` takes {n} argument{}, but {} were given", if n == 1 { "" } else { "s" }, args.len()),
                "wrong number of arguments",
            ));
        }
        let expr = |kind: ExprKind| ast::Expr { kind, span };
        let boxed = |e: &ast::Expr| Box::new(e.clone());
        let call =
            |function: &str, args: Vec<ast::Expr>| ExprKind::Call(Box::new(ast::Expr { kind: ExprKind::Ident(function.to_string()), span: callee }), args);
        match library {
            CudaLibrary::Builtin(builtin) => self.call(&ast::Expr { kind: ExprKind::Ident(builtin.to_string()), span: callee }, args, span),
            CudaLibrary::Convert { to, rounding } => {
                self.call(&ast::Expr { kind: ExprKind::Ident(format!("convert_{to}_{rounding}")), span: callee }, args, span)
            }
            CudaLibrary::Integer(op) => self.math_call(name, op, MathKind::Int, args, span),
            CudaLibrary::Operator(op) => self.rvalue(&expr(ExprKind::Binary(op, boxed(&args[0]), boxed(&args[1])))),
            CudaLibrary::Reciprocal => {
                let single = name.starts_with("__f");
                let one = expr(ExprKind::Float { value: 1.0, single });
                self.rvalue(&expr(ExprKind::Binary(BinOp::Div, Box::new(one), boxed(&args[0]))))
            }
            CudaLibrary::SumOfAbsoluteDifference => {
                let difference = expr(call("abs_diff", vec![args[0].clone(), args[1].clone()]));
                self.rvalue(&expr(ExprKind::Binary(BinOp::Add, Box::new(difference), boxed(&args[2]))))
            }
            CudaLibrary::Saturate => {
                let bound = |value: f64| expr(ExprKind::Float { value, single: true });
                self.rvalue(&expr(call("clamp", vec![args[0].clone(), bound(0.0), bound(1.0)])))
            }
            CudaLibrary::Load => self.rvalue(&expr(ExprKind::Unary(UnOp::Deref, boxed(&args[0])))),
        }
    }

    /// `memcpy(dst, src, n)` and `memset(dst, byte, n)` as a loop over bytes.
    pub(super) fn byte_loop(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        if args.len() != 3 {
            return Err(type_error(span, format!("`{name}` takes 3 arguments, but {} were given", args.len()), "here"));
        }
        let is_copy = name.ends_with("memcpy");
        let void_ptr = Ty::Ptr { pointee: Box::new(Ty::Void), space: Space::Global, is_const: false };
        // A literal 0 is a null pointer; the run reports the null dereference.
        let as_pointer = |this: &mut Self, v: Val, span: Span| match v.ty {
            Ty::Scalar(t) if !t.is_float() => this.convert(v, &void_ptr, span),
            _ => Ok(v),
        };
        let dst = self.rvalue(&args[0])?;
        let dst = as_pointer(self, dst, args[0].span)?;
        let src = self.rvalue(&args[1])?;
        let src = if is_copy { as_pointer(self, src, args[1].span)? } else { src };
        if !matches!(dst.ty, Ty::Ptr { .. }) || (is_copy && !matches!(src.ty, Ty::Ptr { .. })) {
            return Err(type_error(span, format!("`{name}` needs pointers"), "here"));
        }
        let value = if is_copy { src.clone() } else { self.convert(src, &Ty::Scalar(ElemType::UChar), args[1].span)? };
        let len = self.rvalue(&args[2])?;
        let len = self.convert(len, &Ty::Scalar(ElemType::ULong), args[2].span)?;
        let i = self.reg()?;
        self.emit(Instr::Const { dst: i, bits: 0 }, span);
        let one = self.constant(1, ElemType::ULong, span)?;
        let top = self.here();
        let c = self.reg()?;
        self.emit(Instr::Compare { op: CmpOp::Lt, ty: NumTy::U64, dst: c, lhs: i, rhs: len.reg }, span);
        let exit = self.emit(Instr::BranchIfNot { cond: c, target: 0 }, span);
        let to = self.reg()?;
        self.emit(Instr::PtrAdd { dst: to, ptr: dst.reg, index: i, scale: 1 }, span);
        let byte = if is_copy {
            let from = self.reg()?;
            self.emit(Instr::PtrAdd { dst: from, ptr: value.reg, index: i, scale: 1 }, span);
            let b = self.reg()?;
            self.emit(Instr::Load { ty: ElemType::UChar, dst: b, addr: from }, span);
            b
        } else {
            value.reg
        };
        self.emit(Instr::Store { ty: ElemType::UChar, addr: to, src: byte }, span);
        self.emit(Instr::Binary { op: BinaryOp::Add, ty: NumTy::U64, dst: i, lhs: i, rhs: one.reg }, span);
        self.emit(Instr::Jump { target: top }, span);
        let end = self.here();
        self.patch(exit, end);
        Ok(Val { reg: dst.reg, ty: dst.ty })
    }

    pub(super) fn assert(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [cond] = args else {
            return Err(type_error(span, "`assert` takes one condition", "here"));
        };
        let c = self.condition(cond)?;
        let expr = self.source.get(cond.span.start as usize..cond.span.end as usize).unwrap_or("?");
        let text = self.program.strings.len() as u32;
        self.program.strings.push(format!("{}\n{expr}", self.func.name));
        self.emit(Instr::Assert { cond: c, text }, span);
        Ok(Val { reg: c, ty: Ty::Void })
    }
}
