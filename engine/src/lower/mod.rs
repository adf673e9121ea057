//! The front end's second half: name resolution, types and lowering to the IR.
//!
//! [`types`] names and lays out types; this module lowers functions.
//!
//! One pass over each function's AST. Expressions are lowered to registers as they are
//! typed, so every type error is found at the node that has it. Scalars whose address is
//! never taken live in registers; arrays and address-taken variables live in private memory,
//! reserved at function entry so that a loop never reserves twice.

use std::collections::{BTreeSet, HashMap};

use crate::diag::{Diagnostic, Span};
use crate::ir::{
    self, AtomicOp, CollectiveOp, MathOp, BinaryOp, CmpOp, Instr, Kernel, KernelParam, LocalDecl, NumTy, ParamKind, PrintfArg, Query, ScanOp,
    Reg, UnaryOp,
};
use crate::scenario::{Dialect, ElemType};
use crate::syntax::ast::{self, AddrSpaceQual, BinOp, Designator, ExprKind, Initializer, Item, StmtKind, TypeExpr, UnOp};
use crate::trace::Space;

mod places;
mod program;
mod statements;
mod types;
mod warp;

use program::*;
use statements::*;

use types::{space_of, type_error, unsupported, Ty, Types};

/// The register form of a scalar type after integer promotion.
pub fn num_ty(t: ElemType) -> NumTy {
    match t {
        ElemType::Bool | ElemType::Char | ElemType::UChar | ElemType::Short | ElemType::UShort | ElemType::Int => {
            NumTy::I32
        }
        ElemType::UInt => NumTy::U32,
        ElemType::Long => NumTy::I64,
        ElemType::ULong => NumTy::U64,
        ElemType::Float => NumTy::F32,
        ElemType::Double => NumTy::F64,
    }
}

fn elem_of_num(t: NumTy) -> ElemType {
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
fn common_num(a: NumTy, b: NumTy) -> NumTy {
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

/// Where a variable lives.
#[derive(Clone, Debug)]
enum VarLoc {
    /// In a register.
    Reg(Reg),
    /// In memory; the register holds its address.
    Mem(Reg),
    /// A `__local` array: the index of its allocation.
    Local(u32),
    /// A program-scope variable: its index in `Program::globals` and its space.
    Global(u32, Space),
}

#[derive(Clone, Debug)]
struct Var {
    loc: VarLoc,
    ty: Ty,
    /// Declared `volatile` (a pointer: what it points to). In CUDA, accesses through it are
    /// relaxed atomics at system scope, as the PTX memory model makes volatile accesses.
    volatile: bool,
}

/// A typed value in a register.
#[derive(Clone, Debug)]
struct Val {
    reg: Reg,
    ty: Ty,
}

/// An lvalue.
#[derive(Clone, Debug)]
enum Place {
    Reg(Reg, Ty),
    /// In memory at the address held by the register, in the given space.
    Mem(Reg, Ty, Space),
    /// Some lanes of a vector place (a swizzle such as `v.xz` or `v.hi`).
    Lanes(Box<Place>, Vec<u8>),
}

struct FnSig {
    ret: Ty,
    /// Parameter types; a reference parameter's is a pointer to the referred type.
    params: Vec<Ty>,
    /// Which parameters are C++ references.
    refs: Vec<bool>,
    span: Span,
    defined: bool,
}

/// Lowers a parsed translation unit. Stops at the first error.
/// Choices that change the code the lowering produces.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Mark the start of every statement with [`Instr::Statement`], an event, so that each
    /// statement is a scheduler step (the teaching granularity). Off, statements cost nothing.
    pub statements: bool,
}

pub fn lower(unit: &ast::TranslationUnit, dialect: Dialect, source: &str, options: Options) -> Result<ir::Program, Diagnostic> {
    let cuda = dialect == Dialect::Cuda;
    let mut program = ir::Program::default();
    let mut types = Types::new(if cuda { Space::Global } else { Space::Private });
    let mut index: HashMap<String, u32> = HashMap::new();
    let mut sigs: Vec<FnSig> = Vec::new();
    let mut bodies: Vec<Option<&ast::Function>> = Vec::new();
    let mut global_scope: HashMap<String, Var> = HashMap::new();
    let mut ref_params: RefParams = HashMap::new();
    let mut templates: HashMap<String, &ast::Function> = HashMap::new();
    for item in &unit.items {
        let f = match item {
            Item::Function(f) => f,
            Item::Typedef(decls) => {
                for d in decls {
                    let ty = types.resolve(&d.ty)?;
                    types.typedef(&d.name, ty, d.name_span)?;
                }
                continue;
            }
            Item::Tag(spec) => {
                types.base(spec)?;
                continue;
            }
            Item::Global(decls, _) => {
                for d in decls {
                    let var = program_scope_variable(&mut types, &mut program, &global_scope, d, cuda)?;
                    global_scope.insert(d.name.clone(), var);
                }
                continue;
            }
        };
        if builtin_name(&f.name) {
            return Err(type_error(f.name_span, format!("`{}` is a built-in function and cannot be redefined", f.name), "redefined here"));
        }
        if !f.template_params.is_empty() {
            if f.is_kernel || f.body.is_none() {
                return Err(unsupported(f.name_span, "a template kernel or a template without a body"));
            }
            ref_params.insert(f.name.clone(), f.params.iter().map(|p| p.is_ref).collect());
            templates.insert(f.name.clone(), f);
            continue;
        }
        let (ret, params, refs) = signature(&mut types, f)?;
        ref_params.insert(f.name.clone(), refs.clone());
        let id = match index.get(&f.name) {
            Some(&id) => {
                let sig = &sigs[id as usize];
                if sig.params != params || sig.ret != ret {
                    return Err(type_error(f.name_span, format!("conflicting declarations of `{}`", f.name), "declared differently here")
                        .with_label(sig.span, "first declared here"));
                }
                if sig.defined && f.body.is_some() {
                    return Err(type_error(f.name_span, format!("`{}` is defined twice", f.name), "second definition")
                        .with_label(sig.span, "first definition"));
                }
                id
            }
            None => {
                let id = sigs.len() as u32;
                index.insert(f.name.clone(), id);
                sigs.push(FnSig { ret, params, refs, span: f.name_span, defined: false });
                bodies.push(None);
                program.functions.push(ir::Function { name: f.name.clone(), ..Default::default() });
                id
            }
        };
        if f.body.is_some() {
            sigs[id as usize].defined = true;
            sigs[id as usize].span = f.name_span;
            bodies[id as usize] = Some(f);
        }
    }
    let mut calls: Vec<BTreeSet<u32>> = Vec::new();
    // Function bodies to lower: the program's own, then template instances as calls need them.
    let mut work: Vec<Work> = bodies.iter().enumerate().filter_map(|(id, b)| b.map(|f| (id as u32, f, Vec::new()))).collect();
    let mut next = 0;
    while next < work.len() {
        let (id, f, bindings) = work[next].clone();
        next += 1;
        let id = id as usize;
        let saved: Vec<(String, Option<Ty>)> =
            bindings.iter().map(|(n, t)| (n.clone(), types.bind(n, Some(t.clone())))).collect();
        let mut lowerer = FnLowerer {
            id: id as u32,
            sigs: &mut sigs,
            index: &mut index,
            templates: &templates,
            work: &mut work,
            program: &mut program,
            types: &mut types,
            cuda,
            source,
            refs: &ref_params,
            func: ir::Function { name: String::new(), ..Default::default() },
            scopes: vec![global_scope.clone(), HashMap::new()],
            allocas: Vec::new(),
            loops: Vec::new(),
            address_taken: BTreeSet::new(),
            volatile_addrs: BTreeSet::new(),
            ret: Ty::Void,
            ret_slot: None,
            is_kernel: f.is_kernel,
            calls: BTreeSet::new(),
            span: f.span,
            statements: options.statements,
            open_vars: Vec::new(),
            typings: 0,
            labels: HashMap::new(),
            gotos: Vec::new(),
        };
        lowerer.ret = lowerer.sigs[id].ret.clone();
        lowerer.func.name = lowerer.program.functions[id].name.clone();
        lowerer.function(f)?;
        let taken = std::mem::take(&mut lowerer.calls);
        let func = lowerer.func;
        for (n, prev) in saved {
            types.bind(&n, prev);
        }
        if calls.len() < sigs.len() {
            calls.resize(sigs.len(), BTreeSet::new());
        }
        calls[id] = taken;
        program.functions[id] = func;
        if f.is_kernel {
            let mut params = Vec::new();
            for (p, ty) in f.params.iter().zip(&sigs[id].params) {
                let kind = match ty {
                    Ty::Scalar(t) => ParamKind::Scalar(*t),
                    Ty::Ptr { pointee, space, is_const } => {
                        if *space == Space::Private {
                            return Err(type_error(p.name_span, "a kernel's pointer parameters must point to __global, __constant or __local memory", "private pointer parameter")
                                .with_help(format!("write `__global {}` for a buffer", p.ty.base.words.join(" "))));
                        }
                        // Buffers of vectors are reported by element; of structs or pointers, as bytes.
                        let elem = match pointee.as_ref() {
                            Ty::Scalar(t) | Ty::Vector(t, _) => Some(*t),
                            // A half buffer is shown as its 16-bit patterns.
                            Ty::Half => Some(ElemType::UShort),
                            _ => None,
                        };
                        ParamKind::Pointer { space: *space, elem, is_const: *is_const }
                    }
                    Ty::Record { .. } | Ty::Vector(..) => ParamKind::Aggregate { size: ty.size(), align: ty.align() },
                    _ => return Err(unsupported(p.name_span, "this kind of kernel parameter")),
                };
                let type_name = match ty {
                    Ty::Ptr { pointee, is_const, .. } => format!("{}{}*", if *is_const { "const " } else { "" }, pointee.describe()),
                    other => other.describe(),
                };
                params.push(KernelParam { name: p.name.clone(), span: p.name_span, kind, type_name });
            }
            if sigs[id].ret != Ty::Void {
                return Err(type_error(f.name_span, format!("kernel `{}` must return void", f.name), "kernel declared here"));
            }
            let reqd_work_group_size = match &f.reqd_work_group_size {
                Some(dims) => {
                    let span = dims.first().map_or(f.name_span, |d| d.span).to(dims.last().map_or(f.name_span, |d| d.span));
                    if dims.len() != 3 {
                        return Err(type_error(span, "reqd_work_group_size needs three sizes, e.g. reqd_work_group_size(64, 1, 1)", "here"));
                    }
                    let mut size = [1u64; 3];
                    for (k, d) in dims.iter().enumerate() {
                        let v = types.eval_int(d)?;
                        if v < 1 || v > 1024 {
                            return Err(type_error(d.span, format!("a work-group size of {v} is out of range"), "here"));
                        }
                        size[k] = v as u64;
                    }
                    Some((size, span))
                }
                None => None,
            };
            program.kernels.push(Kernel { name: f.name.clone(), func: id as u32, params, reqd_work_group_size });
        }
    }
    calls.resize(sigs.len(), BTreeSet::new());
    check_no_recursion(&calls, &sigs, &program)?;
    Ok(program)
}

/// A body to lower: function id, its AST, and the template bindings it is lowered under.
type Work<'u> = (u32, &'u ast::Function, Vec<(String, Ty)>);

/// Most template instances one program may create (they multiply quickly).
const MAX_INSTANCES: usize = 512;

/// How a lane-wise built-in takes its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MathKind {
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
fn math_builtin(name: &str) -> Option<(MathOp, MathKind, usize)> {
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
fn half_memory_builtin(name: &str) -> Option<(bool, u8, bool, MathOp)> {
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
fn vector_memory_builtin(name: &str) -> Option<(bool, u8)> {
    let (store, n) = match name.strip_prefix("vload") {
        Some(n) => (false, n),
        None => (true, name.strip_prefix("vstore")?),
    };
    let n: u8 = n.parse().ok()?;
    matches!(n, 2 | 3 | 4 | 8 | 16).then_some((store, n))
}

/// How a conversion built-in converts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conversion {
    /// `convert_T[_sat][_rounding]`: value conversion.
    Value { saturate: bool, rounding: Option<UnaryOp> },
    /// `as_T`: the same bits read as another type.
    Reinterpret,
}

/// Parses `convert_float4_sat_rte`, `as_uint` and the like into the target type name and the
/// conversion.
fn conversion_builtin(name: &str) -> Option<(&str, Conversion)> {
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

/// CUDA's built-in index variables, as the work-item queries that answer them.
fn cuda_index_variable(name: &str) -> Option<Query> {
    Some(match name {
        "threadIdx" => Query::LocalId,
        "blockIdx" => Query::GroupId,
        "blockDim" => Query::LocalSize,
        "gridDim" => Query::NumGroups,
        _ => return None,
    })
}

/// CUDA atomics and how each maps to a read-modify-write, with the scope its name gives:
/// `atomicAdd` is device-scoped, `atomicAdd_block` orders only the block's threads and
/// `atomicAdd_system` the host and other devices too (CUDA C++ Programming Guide, "Atomic
/// Functions").
fn cuda_atomic(name: &str) -> Option<(AtomicOp, usize, u8)> {
    let (name, scope) = if let Some(stem) = name.strip_suffix("_block") {
        (stem, ir::scope::WORK_GROUP)
    } else if let Some(stem) = name.strip_suffix("_system") {
        (stem, ir::scope::SYSTEM)
    } else {
        (name, ir::scope::DEVICE)
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
fn cuda_atomic_types(op: AtomicOp) -> &'static [ElemType] {
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
fn cuda_type_name(t: ElemType) -> &'static str {
    match t {
        ElemType::UInt => "unsigned int",
        ElemType::Long => "long long",
        ElemType::ULong => "unsigned long long",
        ElemType::UShort => "unsigned short",
        other => other.name(),
    }
}

/// How a function of CUDA's math library or one of its intrinsics is computed from the
/// engine's own built-ins (CUDA Math API reference: single- and double-precision functions,
/// intrinsics, integer intrinsics, type casting intrinsics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CudaLibrary {
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
const SHARED_MATH: &[&str] = &[
    "sqrt", "rsqrt", "cbrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos",
    "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "pow", "fabs", "floor", "ceil", "round", "trunc", "rint", "fmin",
    "fmax", "fmod", "hypot", "copysign", "fdim", "remainder", "nextafter", "fma", "erf", "erfc", "tgamma", "lgamma", "sinpi", "cospi",
    "ldexp", "ilogb", "logb", "frexp", "modf", "remquo",
];

fn cuda_library(name: &str) -> Option<CudaLibrary> {
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

/// GPUVerify's specification functions (`__requires`, `__global_invariant`, `__read_offset_bytes`,
/// ...): they describe all executions, which a simulator of one execution cannot evaluate.
fn is_verifier_annotation(name: &str) -> bool {
    const PREFIXES: [&str; 10] = [
        "__requires", "__ensures", "__invariant", "__global_invariant", "__assert", "__assume", "__read", "__write",
        "__atomic_has_taken_value", "__implies",
    ];
    PREFIXES.iter().any(|p| name.starts_with(p)) || matches!(name, "__writes_to" | "__reads_from" | "__no_read" | "__no_write" | "__same_group" | "__distinct_id" | "__other_int")
}

/// Bit sets of valid `memory_order` values (relaxed 0, acquire 2, release 3, acq_rel 4,
/// seq_cst 5) and `memory_scope` values (0 to 4).
const ALL_ORDERS: u8 = 0b11_1101;
const ORDERS_NO_ACQUIRE: u8 = 0b10_1001;
const ORDERS_NO_RELEASE: u8 = 0b10_0101;
const ALL_SCOPES: u8 = 0b1_1111;

fn work_item_query(name: &str) -> Option<Query> {
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

fn is_sub_group_query(query: Query) -> bool {
    matches!(
        query,
        Query::SubGroupSize | Query::MaxSubGroupSize | Query::NumSubGroups | Query::EnqueuedNumSubGroups | Query::SubGroupId | Query::SubGroupLocalId
    )
}

/// What an OpenCL work-group or sub-group collective computes, from its name.
#[derive(Clone, Copy)]
enum GroupCollective {
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
fn group_collective_name(name: &str) -> Option<(bool, GroupCollective)> {
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

fn atomic_op(name: &str) -> Option<AtomicOp> {
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

/// Predefined constants that are names rather than macros.
fn predefined(name: &str) -> Option<(u64, ElemType)> {
    Some(match name {
        "true" => (1, ElemType::Int),
        "false" => (0, ElemType::Int),
        _ => return None,
    })
}

struct LoopTargets {
    breaks: Vec<usize>,
    continues: Vec<usize>,
    /// A switch takes `break` but passes `continue` on to the enclosing loop.
    is_switch: bool,
}

struct FnLowerer<'a, 'u> {
    /// The id of the function being lowered.
    id: u32,
    sigs: &'a mut Vec<FnSig>,
    index: &'a mut HashMap<String, u32>,
    /// Function templates by name, instantiated at their calls.
    templates: &'a HashMap<String, &'u ast::Function>,
    /// Bodies still to lower; instances are added here.
    work: &'a mut Vec<Work<'u>>,
    program: &'a mut ir::Program,
    types: &'a mut Types,
    /// Lowering CUDA: its built-in variables and functions.
    cuda: bool,
    /// The source text, for messages that quote it (`assert`).
    source: &'a str,
    /// Which parameters of each function are C++ references.
    refs: &'a RefParams,
    func: ir::Function,
    scopes: Vec<HashMap<String, Var>>,
    /// Private memory reserved at entry: `(register, size, align, initialised)`; a variable
    /// declared without a value starts uninitialised, everything else (parameters, values
    /// with initialisers, temporaries) starts initialised.
    allocas: Vec<(Reg, u32, u32, bool)>,
    loops: Vec<LoopTargets>,
    /// Names used with `&`: those variables live in memory.
    address_taken: BTreeSet<String>,
    /// Registers holding addresses reached through `volatile` (CUDA): accesses through them
    /// are relaxed atomics at system scope.
    volatile_addrs: BTreeSet<Reg>,
    ret: Ty,
    /// For a function returning a struct or vector: the register holding the address the
    /// caller reserved for the result (a hidden first parameter).
    ret_slot: Option<Reg>,
    is_kernel: bool,
    calls: BTreeSet<u32>,
    span: Span,
    /// Whether every statement starts with an [`Instr::Statement`] event.
    statements: bool,
    /// Variables of `func.vars` whose scope is still open, with their scope depth.
    open_vars: Vec<(usize, usize)>,
    /// Expressions lowered only for their type so far in this function (see
    /// [`MAX_TYPINGS`]).
    typings: u32,
    /// Where each label of the function is, and the jumps of its `goto`s (instruction, label,
    /// the label's span in the `goto`), patched when the function's code is complete.
    labels: HashMap<String, u32>,
    gotos: Vec<(usize, String, Span)>,
}

/// How many expressions one function may lower only for their type. A template call deduces
/// its parameters from its arguments' types and then lowers the arguments, so template calls
/// nested N deep type their innermost argument 2^N times; the bound turns that into a
/// diagnostic instead of a hang. Real code stays far below it.
const MAX_TYPINGS: u32 = 100_000;

const MAX_REGS: u32 = 1 << 20;
const MAX_PRIVATE_BYTES: u64 = 1 << 20;

impl<'u> FnLowerer<'_, 'u> {
    fn reg(&mut self) -> Result<Reg, Diagnostic> {
        let r = self.func.num_regs;
        if r >= MAX_REGS {
            return Err(unsupported(self.span, "a function this large"));
        }
        self.func.num_regs += 1;
        Ok(r)
    }

    /// `n` consecutive registers (a vector value occupies one per lane).
    fn regs(&mut self, n: u32) -> Result<Reg, Diagnostic> {
        let first = self.reg()?;
        for _ in 1..n {
            self.reg()?;
        }
        Ok(first)
    }

    /// Registers a value of `ty` occupies.
    fn width(ty: &Ty) -> u32 {
        match ty {
            Ty::Vector(_, n) => *n as u32,
            _ => 1,
        }
    }

    /// Copies a value's registers into `dst`.
    fn move_val(&mut self, dst: Reg, v: &Val, span: Span) {
        for k in 0..Self::width(&v.ty) {
            self.emit(Instr::Move { dst: dst + k, src: v.reg + k }, span);
        }
    }

    fn emit(&mut self, instr: Instr, span: Span) -> usize {
        self.func.code.push(instr);
        self.func.spans.push(span);
        self.func.code.len() - 1
    }

    fn here(&self) -> u32 {
        self.func.code.len() as u32
    }

    fn patch(&mut self, at: usize, target: u32) {
        match &mut self.func.code[at] {
            Instr::Jump { target: t } | Instr::BranchIf { target: t, .. } | Instr::BranchIfNot { target: t, .. } => *t = target,
            _ => {}
        }
    }

    fn constant(&mut self, bits: u64, ty: ElemType, span: Span) -> Result<Val, Diagnostic> {
        let dst = self.reg()?;
        self.emit(Instr::Const { dst, bits }, span);
        Ok(Val { reg: dst, ty: Ty::Scalar(ty) })
    }

    fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Lowers a condition to an `int` register that is non-zero when true.
    fn condition(&mut self, e: &ast::Expr) -> Result<Reg, Diagnostic> {
        let v = self.rvalue(e)?;
        self.truth(v, e.span)
    }

    fn truth(&mut self, v: Val, span: Span) -> Result<Reg, Diagnostic> {
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

    /// Converts a value to `to`, as C's assignment conversions do.
    fn convert(&mut self, v: Val, to: &Ty, span: Span) -> Result<Val, Diagnostic> {
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

    fn rvalue(&mut self, e: &ast::Expr) -> Result<Val, Diagnostic> {
        let v = self.expr(e)?;
        if v.ty == Ty::Void {
            return Err(type_error(e.span, "this expression has no value", "void"));
        }
        Ok(v)
    }

    fn unknown_name(&self, name: &str, span: Span) -> Diagnostic {
        type_error(span, format!("cannot find `{name}` in this scope"), "not declared")
    }

    fn expr(&mut self, e: &ast::Expr) -> Result<Val, Diagnostic> {
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
                Place::Mem(addr, ty, space) => {
                    Ok(Val { reg: addr, ty: Ty::Ptr { pointee: Box::new(ty), space, is_const: false } })
                }
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
    fn ternary_result(&mut self, v: Val, result_ty: &Ty, dst: Reg, span: Span) -> Result<(), Diagnostic> {
        if *result_ty != Ty::Void {
            let v = self.convert(v, result_ty, span)?;
            self.move_val(dst, &v, span);
        }
        Ok(())
    }

    /// The type of an expression whose code is discarded (sizeof's operand is not evaluated).
    fn type_of_unevaluated(&mut self, e: &ast::Expr) -> Result<Ty, Diagnostic> {
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

    fn promote(&mut self, v: Val, span: Span) -> Result<Val, Diagnostic> {
        match v.ty {
            Ty::Scalar(t) => {
                let p = elem_of_num(num_ty(t));
                self.convert(v, &Ty::Scalar(p), span)
            }
            ref other => Err(type_error(span, format!("expected a number, found `{}`", other.describe()), "not a number")),
        }
    }

    /// `(float4)(a, b, c, d)`, `(int4)(v.xy, 0, 1)` or `(float4)(x)` (broadcast).
    fn vector_literal(&mut self, e: ElemType, n: u8, inner: &ast::Expr, span: Span) -> Result<Val, Diagnostic> {
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

    fn vector_unary(&mut self, op: UnOp, v: Val, span: Span) -> Result<Val, Diagnostic> {
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

    fn narrow_lane(&mut self, e: ElemType, r: Reg, span: Span) {
        if matches!(e, ElemType::Char | ElemType::UChar | ElemType::Short | ElemType::UShort) {
            self.emit(Instr::Narrow { ty: e, dst: r, src: r }, span);
        }
    }

    /// Component-wise arithmetic and comparison of vectors (a scalar operand is broadcast).
    fn vector_arith(&mut self, op: BinOp, a: Val, b: Val, span: Span) -> Result<Val, Diagnostic> {
        let vt = match (&a.ty, &b.ty) {
            (Ty::Vector(..), Ty::Vector(..)) if a.ty != b.ty => {
                return Err(type_error(span, format!("mismatched vector types `{}` and `{}`", a.ty.describe(), b.ty.describe()), "here"))
            }
            (v @ Ty::Vector(..), Ty::Scalar(_)) | (Ty::Scalar(_), v @ Ty::Vector(..)) | (v @ Ty::Vector(..), Ty::Vector(..)) => v.clone(),
            (x, y) => {
                return Err(type_error(span, format!("invalid operands `{}` and `{}` for this operator", x.describe(), y.describe()), "here"))
            }
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

    fn arith(&mut self, op: BinOp, a: Val, b: Val, span: Span) -> Result<Val, Diagnostic> {
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
            return Err(type_error(span, "this operator needs integer operands", "floating-point operand")
                .with_help("use fmod() for a floating-point remainder"));
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

    fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let ExprKind::Ident(name) = &callee.kind else {
            return Err(unsupported(callee.span, "calling through a function pointer"));
        };
        if let Some(&id) = self.index.get(name) {
            return self.user_call(id, name, args, span);
        }
        if let Some(&t) = self.templates.get(name.as_str()) {
            let id = self.instantiate(t, args, span)?;
            let key = self.program.functions[id as usize].name.clone();
            return self.user_call(id, &key, args, span);
        }
        let expect_args = |n: usize, usage: &str| -> Result<(), Diagnostic> {
            if args.len() != n {
                return Err(type_error(span, format!("`{name}` takes {n} argument{}, but {} were given", if n == 1 { "" } else { "s" }, args.len()), "wrong number of arguments")
                    .with_help(format!("call it as {usage}")));
            }
            Ok(())
        };
        if self.cuda {
            if let Some(result) = self.cuda_call(name, args, span) {
                return result;
            }
            if let Some(library) = cuda_library(name) {
                return self.cuda_library_call(name, library, callee.span, args, span);
            }
        }
        if !self.cuda {
            if let Some(result) = self.c11_atomic(name, args, span) {
                return result;
            }
        }
        if name == "__interleave_observe" {
            // The litmus reader's way of keeping a thread's registers past its end.
            expect_args(2, "__interleave_observe(SLOT, VALUE)")?;
            let slot = self.types.eval_int(&args[0]).ok().and_then(|v| u32::try_from(v).ok()).ok_or_else(|| {
                type_error(args[0].span, "the observation slot must be a constant", "not a constant")
            })?;
            let value = self.rvalue(&args[1])?;
            let value = self.convert(value, &Ty::Scalar(ElemType::Long), args[1].span)?;
            self.emit(Instr::Observe { slot, src: value.reg }, span);
            return Ok(Val { reg: value.reg, ty: Ty::Void });
        }
        if matches!(
            name.as_str(),
            "enqueue_kernel" | "get_default_queue" | "enqueue_marker" | "ndrange_1D" | "ndrange_2D" | "ndrange_3D"
                | "get_kernel_work_group_size" | "capture_event_profiling_info"
        ) {
            return Err(Diagnostic::error("unsupported", format!("device-side enqueue (`{name}`) is not supported"))
                .with_span(callee.span, "device-side enqueue")
                .with_help("launch the child work from the host as a separate kernel"));
        }
        if name.starts_with("read_pipe") || name.starts_with("write_pipe") || name.starts_with("reserve_") {
            return Err(Diagnostic::error("unsupported", format!("pipes (`{name}`) are not supported")).with_span(callee.span, "pipe built-in"));
        }
        if name.starts_with("read_image") || name.starts_with("write_image") || name.starts_with("get_image") {
            return Err(Diagnostic::error("unsupported", format!("images (`{name}`) are not supported")).with_span(callee.span, "image built-in"));
        }
        if is_verifier_annotation(name) {
            return Err(Diagnostic::error("unsupported", format!("`{name}` is a GPUVerify specification function, which a dynamic simulator cannot evaluate"))
                .with_span(callee.span, "verifier annotation")
                .with_help("remove the annotation; Interleave checks races and divergence by running the kernel"));
        }
        if !self.cuda {
            if let Some(result) = self.group_collective(name, args, span) {
                return result;
            }
        }
        if let Some(query) = work_item_query(name) {
            let dim = if query == Query::WorkDim {
                expect_args(0, "get_work_dim()")?;
                self.constant(0, ElemType::UInt, span)?
            } else if matches!(query, Query::GlobalLinearId | Query::LocalLinearId) || is_sub_group_query(query) {
                expect_args(0, &format!("{name}()"))?;
                self.constant(0, ElemType::UInt, span)?
            } else {
                expect_args(1, &format!("{name}(0)"))?;
                let d = self.rvalue(&args[0])?;
                self.convert(d, &Ty::Scalar(ElemType::UInt), args[0].span)?
            };
            let dst = self.reg()?;
            self.emit(Instr::WorkItem { query, dst, dim: dim.reg }, span);
            // The sub-group queries return `uint`, the others `size_t`.
            let ty = if query == Query::WorkDim || is_sub_group_query(query) { ElemType::UInt } else { ElemType::ULong };
            return Ok(Val { reg: dst, ty: Ty::Scalar(ty) });
        }
        match name.as_str() {
            "barrier" | "work_group_barrier" => {
                if args.is_empty() || args.len() > 2 || (name == "barrier" && args.len() != 1) {
                    return Err(type_error(span, format!("`{name}` needs a cl_mem_fence_flags argument"), "missing flags")
                        .with_help(format!("write {name}(CLK_LOCAL_MEM_FENCE) or {name}(CLK_GLOBAL_MEM_FENCE)")));
                }
                let f = self.rvalue(&args[0])?;
                let f = self.convert(f, &Ty::Scalar(ElemType::UInt), args[0].span)?;
                if let Some(scope) = args.get(1) {
                    self.rvalue(scope)?;
                }
                self.emit(Instr::Barrier { flags: f.reg }, span);
                return Ok(Val { reg: f.reg, ty: Ty::Void });
            }
            "mem_fence" | "read_mem_fence" | "write_mem_fence" => {
                expect_args(1, &format!("{name}(CLK_GLOBAL_MEM_FENCE)"))?;
                let f = self.rvalue(&args[0])?;
                let f = self.convert(f, &Ty::Scalar(ElemType::UInt), args[0].span)?;
                self.emit(Instr::Fence { flags: f.reg }, span);
                return Ok(Val { reg: f.reg, ty: Ty::Void });
            }
            "printf" => return self.printf(args, span),
            _ if math_builtin(name).is_some() => {
                let (op, kind, arity) = math_builtin(name).unwrap_or((MathOp::Min, MathKind::Any, 2));
                if args.len() != arity {
                    return Err(type_error(span, format!("`{name}` takes {arity} argument(s), but {} were given", args.len()), "wrong number of arguments"));
                }
                return self.math_call(name, op, kind, args, span);
            }
            "select" => return self.select(args, span),
            "fract" | "modf" | "frexp" | "remquo" | "sincos" | "lgamma_r" => return self.math_with_pointer(name, args, span),
            "nan" => return self.nan(args, span),
            "upsample" => return self.upsample(args, span),
            "vec_step" => return self.vec_step(args, span),
            "to_global" | "to_local" | "to_private" | "get_fence" => return self.address_space_of(name, args, span),
            "dot" | "length" | "distance" | "normalize" | "cross" | "fast_length" | "fast_distance" | "fast_normalize" => {
                return self.geometric(name, args, span)
            }
            "any" | "all" => return self.any_all(name, args, span),
            "shuffle" | "shuffle2" => return self.shuffle(name, args, span),
            "async_work_group_copy" | "async_work_group_strided_copy" => return self.async_copy(name, args, span),
            "wait_group_events" => {
                expect_args(2, "wait_group_events(1, &event)")?;
                let n = self.rvalue(&args[0])?;
                let n = self.convert(n, &Ty::Scalar(ElemType::Int), args[0].span)?;
                let list = self.rvalue(&args[1])?;
                match &list.ty {
                    Ty::Ptr { pointee, .. } if **pointee == Ty::Event => {}
                    other => {
                        return Err(type_error(args[1].span, format!("`wait_group_events` needs a pointer to event_t, not `{}`", other.describe()), "here")
                            .with_help("pass the address of the event: wait_group_events(1, &event)"))
                    }
                }
                self.emit(Instr::WaitEvents { count: n.reg, list: list.reg }, span);
                return Ok(Val { reg: n.reg, ty: Ty::Void });
            }
            "prefetch" => {
                // A performance hint with no effect on results: its arguments are still
                // evaluated and checked.
                expect_args(2, "prefetch(pointer, count)")?;
                let p = self.rvalue(&args[0])?;
                if !matches!(p.ty, Ty::Ptr { .. }) {
                    return Err(type_error(args[0].span, "`prefetch` needs a pointer", "not a pointer"));
                }
                self.rvalue(&args[1])?;
                return Ok(Val { reg: p.reg, ty: Ty::Void });
            }
            _ if half_memory_builtin(name).is_some() => {
                let (store, n, aligned, rounding) = half_memory_builtin(name).unwrap_or((false, 1, false, MathOp::FloatToHalfRte));
                return self.half_memory(name, store, n, aligned, rounding, args, span);
            }
            _ if vector_memory_builtin(name).is_some() => {
                let (store, n) = vector_memory_builtin(name).unwrap_or((false, 4));
                return self.vector_memory(name, store, n, args, span);
            }
            _ if conversion_builtin(name).is_some() => {
                let (target, how) = conversion_builtin(name).unwrap_or(("int", Conversion::Reinterpret));
                return self.conversion(name, target, how, args, span);
            }
            "abs" => {
                expect_args(1, "abs(x)")?;
                let a = self.rvalue(&args[0])?;
                if let Ty::Vector(e, n) = a.ty {
                    return self.vector_abs(a.reg, e, n, span);
                }
                let a = self.promote(a, span)?;
                let Ty::Scalar(t) = a.ty else { unreachable_ty(span)? };
                if t.is_float() {
                    return Err(type_error(span, "`abs` takes an integer", "floating-point argument").with_help("use fabs() for floating-point values"));
                }
                let dst = self.reg()?;
                self.emit(Instr::Unary { op: UnaryOp::Abs, ty: num_ty(t), dst, src: a.reg }, span);
                // abs returns the unsigned type of the same width.
                let rt = match t {
                    ElemType::Long | ElemType::ULong => ElemType::ULong,
                    _ => ElemType::UInt,
                };
                return Ok(Val { reg: dst, ty: Ty::Scalar(rt) });
            }
            _ => {}
        }
        if let Some(op) = atomic_op(name) {
            let n = match op {
                AtomicOp::Inc | AtomicOp::Dec => 1,
                AtomicOp::CmpXchg => 3,
                _ => 2,
            };
            let usage = match n {
                1 => format!("{name}(&counter)"),
                3 => format!("{name}(&x, expected, desired)"),
                _ => format!("{name}(&x, value)"),
            };
            expect_args(n, &usage)?;
            let p = self.rvalue(&args[0])?;
            let Ty::Ptr { pointee, space, .. } = &p.ty else {
                return Err(type_error(args[0].span, format!("`{name}` needs a pointer to the value to update"), "not a pointer")
                    .with_help(format!("call it as {usage}")));
            };
            let elem = match pointee.as_ref() {
                Ty::Scalar(t @ (ElemType::Int | ElemType::UInt | ElemType::Long | ElemType::ULong)) => *t,
                Ty::Scalar(ElemType::Float) if op == AtomicOp::Xchg => ElemType::Float,
                other => {
                    return Err(type_error(args[0].span, format!("`{name}` works on int, uint, long or ulong, not `{}`", other.describe()), "wrong element type"))
                }
            };
            if !matches!(space, Space::Global | Space::Local) {
                return Err(type_error(args[0].span, format!("`{name}` needs a pointer to __global or __local memory"), "points to private memory"));
            }
            let vt = Ty::Scalar(elem);
            let operand = match args.get(1).filter(|_| n >= 2) {
                Some(a) => {
                    let v = self.rvalue(a)?;
                    self.convert(v, &vt, a.span)?.reg
                }
                None => self.constant(1, elem, span)?.reg,
            };
            let (operand, operand2) = if op == AtomicOp::CmpXchg {
                let desired = self.rvalue(&args[2])?;
                let desired = self.convert(desired, &vt, args[2].span)?;
                (desired.reg, operand)
            } else {
                (operand, operand)
            };
            let dst = self.reg()?;
            // OpenCL 1.x atomics are relaxed, at device scope (work-group scope for local memory).
            let scope = if *space == Space::Local { ir::scope::WORK_GROUP } else { ir::scope::DEVICE };
            let order = ir::order::RELAXED;
            self.emit(Instr::Atomic { op, ty: elem, dst, addr: p.reg, operand, operand2, order, scope }, span);
            return Ok(Val { reg: dst, ty: vt });
        }
        Err(type_error(callee.span, format!("cannot find function `{name}`"), "not a known function or built-in")
            .with_note("functions must be defined or declared before they are called"))
    }

    /// `abs` of an integer vector: lane-wise, into the unsigned vector of the same width
    /// (`abs((char4)(-128))` is `(uchar4)(128)`).
    fn vector_abs(&mut self, src: Reg, e: ElemType, n: u8, span: Span) -> Result<Val, Diagnostic> {
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
    fn gentype(&self, vals: &[Val], kind: MathKind, name: &str, span: Span) -> Result<(ElemType, u8), Diagnostic> {
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
            MathKind::Int if e.is_float() => {
                return Err(type_error(span, format!("`{name}` takes integers, not floating-point values"), "here"))
            }
            _ => {}
        }
        Ok((e, lanes))
    }

    /// Converts `v` to lane type `e` with `n` lanes (broadcasting a scalar).
    fn to_gentype(&mut self, v: Val, e: ElemType, n: u8, span: Span) -> Result<Reg, Diagnostic> {
        let target = if n == 1 { Ty::Scalar(e) } else { Ty::Vector(e, n) };
        if let (Ty::Vector(ve, vn), Ty::Vector(..)) = (&v.ty, &target) {
            if *vn == n && *ve != e {
                return Err(type_error(span, format!("expected a `{}`, found a `{}`", target.describe(), v.ty.describe()), "here"));
            }
        }
        Ok(self.convert(v, &target, span)?.reg)
    }

    fn math_call(&mut self, name: &str, op: MathOp, kind: MathKind, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let vals: Vec<Val> = args.iter().map(|a| self.rvalue(a)).collect::<Result<_, _>>()?;
        let float_part = if kind == MathKind::FloatInt { &vals[..1] } else { &vals[..] };
        let (e, n) = self.gentype(float_part, kind, name, span)?;
        let n = if kind == MathKind::FloatInt { self.gentype(&vals, MathKind::Any, name, span)?.1.max(n) } else { n };
        let mut regs = Vec::new();
        for (i, v) in vals.into_iter().enumerate() {
            let lane_e = if kind == MathKind::FloatInt && i == 1 { ElemType::Int } else { e };
            regs.push(self.to_gentype(v, lane_e, n, span)?);
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

    /// `cond ? then : otherwise` with a vector condition (OpenCL C 1.2 section 6.3.i): lane by
    /// lane, as `select(otherwise, then, cond)` is, so both arms are evaluated and a lane's
    /// condition is its most significant bit; `select_values` widens scalar arms to the
    /// condition's lanes.
    fn vector_ternary(&mut self, c: Val, then: &ast::Expr, otherwise: &ast::Expr, span: Span) -> Result<Val, Diagnostic> {
        let (vt, ve) = (self.rvalue(then)?, self.rvalue(otherwise)?);
        self.select_values("?:", ve, vt, c, span, span)
    }

    /// `&&` and `||` with a vector operand (OpenCL C 1.2 section 6.3.h): lane by lane, both
    /// operands evaluated, -1 for true. Each operand becomes its truth mask (`x != 0`, negated
    /// for a scalar so that true is -1 there too) and the masks are combined bitwise.
    fn vector_logical(&mut self, is_and: bool, a: Val, b: Val, span: Span) -> Result<Val, Diagnostic> {
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

    /// `select(a, b, c)`: per lane, `b` where `c` is true (vectors: where its sign bit is set).
    fn select(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [a, b, c] = args else {
            return Err(type_error(span, "`select` takes 3 arguments: select(a, b, condition)", "here"));
        };
        let (va, vb, vc) = (self.rvalue(a)?, self.rvalue(b)?, self.rvalue(c)?);
        self.select_values("select", va, vb, vc, c.span, span)
    }

    /// `select(a, b, c)` on values: the built-in, and `?:` with a vector condition (which is
    /// `select(otherwise, then, condition)`, scalar arms broadcast to the condition's lanes).
    fn select_values(&mut self, name: &str, va: Val, vb: Val, vc: Val, c_span: Span, span: Span) -> Result<Val, Diagnostic> {
        let (e, n) = self.gentype(&[va.clone(), vb.clone()], MathKind::Any, name, span)?;
        // Scalar arms of `?:` take the condition's lanes; the built-in's do not.
        let n = match vc.ty {
            Ty::Vector(_, cn) if n == 1 && name == "?:" => cn,
            _ => n,
        };
        let (ra, rb) = (self.to_gentype(va, e, n, span)?, self.to_gentype(vb, e, n, span)?);
        let ce = match &vc.ty {
            Ty::Scalar(t) | Ty::Vector(t, _) if !t.is_float() => *t,
            other => return Err(type_error(c_span, format!("`{name}` needs an integer condition, not `{}`", other.describe()), "here")),
        };
        let rc = self.to_gentype(vc, ce, n, span)?;
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
    fn math_with_pointer(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
        let regs: Vec<Reg> = vals.into_iter().map(|v| self.to_gentype(v, e, n, span)).collect::<Result<_, _>>()?;
        let (ra, rb) = (regs[0], *regs.last().unwrap_or(&regs[0]));
        let out_e = if int_out { ElemType::Int } else { e };
        let out_ty = if n == 1 { Ty::Scalar(out_e) } else { Ty::Vector(out_e, n) };
        let p_arg = &args[inputs];
        let p = self.rvalue(p_arg)?;
        let space = match &p.ty {
            Ty::Ptr { pointee, space, is_const: false } if **pointee == out_ty && *space != Space::Constant => *space,
            other => {
                return Err(type_error(p_arg.span, format!("`{name}` stores through a pointer to `{}`, not a `{}`", out_ty.describe(), other.describe()), "here")
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
    fn nan(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let [code] = args else {
            return Err(type_error(span, format!("`nan` takes 1 argument, but {} were given", args.len()), "wrong number of arguments")
                .with_help("call it as nan(0u)"));
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
    fn upsample(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
            return Err(type_error(lo.span, format!("with a `{}` hi, `upsample` needs a `{}` lo, not a `{}`", vh.ty.describe(), lo_ty.describe(), vl.ty.describe()), "here")
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
    fn vec_step(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
            other => {
                return Err(type_error(operand.span, format!("`vec_step` takes a scalar or vector type or value, not a `{}`", other.describe()), "here"))
            }
        };
        self.constant(steps, ElemType::Int, span)
    }

    /// `to_global`, `to_local` and `to_private` (the pointer when it points into that space,
    /// else NULL) and `get_fence` (the fence flags of the space it points into), decided by the
    /// space the pointer value carries.
    fn address_space_of(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
    fn geometric(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
        let regs: Vec<Reg> = vals.into_iter().map(|v| self.to_gentype(v, e, n, span)).collect::<Result<_, _>>()?;
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
    fn any_all(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
    fn shuffle(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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

    /// OpenCL 2.0's atomic functions (after C11), with and without `_explicit` orders and
    /// scopes; `None` when `name` is not one of them.
    fn c11_atomic(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Result<Val, Diagnostic>> {
        let base = name.strip_suffix("_explicit").unwrap_or(name);
        let explicit = base.len() != name.len();
        let (what, fixed) = match base {
            "atomic_init" if !explicit => ("init", 2),
            "atomic_store" => ("store", 2),
            "atomic_load" => ("load", 1),
            "atomic_exchange" => ("exchange", 2),
            "atomic_compare_exchange_strong" | "atomic_compare_exchange_weak" => ("cmpxchg", 3),
            "atomic_fetch_add" | "atomic_fetch_sub" | "atomic_fetch_or" | "atomic_fetch_xor" | "atomic_fetch_and"
            | "atomic_fetch_min" | "atomic_fetch_max" => ("fetch", 2),
            "atomic_flag_test_and_set" => ("test_and_set", 1),
            "atomic_flag_clear" => ("clear", 1),
            "atomic_work_item_fence" if !explicit => ("fence", 3),
            _ => return None,
        };
        Some(self.c11_atomic_call(name, base, what, fixed, explicit, args, span))
    }

    /// A memory order or scope argument: a constant, checked now, or a computed value, checked
    /// when it runs (`allowed` has a bit per valid value). A computed order makes the
    /// operation seq_cst, the strongest it could be.
    fn order_arg(&mut self, e: &ast::Expr, what: &str, allowed: u8, op: &str) -> Result<Option<u8>, Diagnostic> {
        match self.types.eval_int(e) {
            Ok(v) if (0..=5).contains(&v) => Ok(Some(v as u8)),
            Ok(v) => Err(Diagnostic::error("invalid-memory-order", format!("{v} is not a valid {what}")).with_span(e.span, "here")),
            Err(_) => {
                let v = self.rvalue(e)?;
                let v = self.convert(v, &Ty::Scalar(ElemType::UInt), e.span)?;
                let text = self.program.strings.len() as u32;
                self.program.strings.push(op.to_string());
                self.emit(Instr::CheckOrder { value: v.reg, allowed, scope: what.contains("scope"), text }, e.span);
                Ok(None)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn c11_atomic_call(
        &mut self,
        name: &str,
        base: &str,
        what: &str,
        fixed: usize,
        explicit: bool,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Val, Diagnostic> {
        use ir::order::{ACQUIRE, ACQ_REL, RELAXED, RELEASE, SEQ_CST};
        let orders = if what == "cmpxchg" { 2 } else { 1 };
        let allowed: Vec<usize> = if explicit { vec![fixed + orders, fixed + orders + 1] } else { vec![fixed] };
        if !allowed.contains(&args.len()) {
            let counts: Vec<String> = allowed.iter().map(|n| n.to_string()).collect();
            return Err(type_error(span, format!("`{name}` takes {} arguments, but {} were given", counts.join(" or "), args.len()), "wrong number of arguments"));
        }
        let order_name = |o: u8| match o {
            RELAXED => "memory_order_relaxed",
            ACQUIRE => "memory_order_acquire",
            RELEASE => "memory_order_release",
            ACQ_REL => "memory_order_acq_rel",
            _ => "memory_order_seq_cst",
        };
        let invalid = |e: &ast::Expr, message: String| Err(Diagnostic::error("invalid-memory-order", message).with_span(e.span, "this order"));
        if what == "fence" {
            let flags = self.rvalue(&args[0])?;
            let flags = self.convert(flags, &Ty::Scalar(ElemType::UInt), args[0].span)?;
            let order = self.order_arg(&args[1], "memory order", ALL_ORDERS, base)?.unwrap_or(SEQ_CST);
            let scope = self.order_arg(&args[2], "memory scope", ALL_SCOPES, base)?.unwrap_or(ir::scope::DEVICE);
            let image_only = self.types.eval_int(&args[0]).is_ok_and(|f| f == 4);
            if scope == ir::scope::WORK_ITEM && !image_only {
                return invalid(&args[2], "memory_scope_work_item is only valid with CLK_IMAGE_MEM_FENCE".into());
            }
            let bits = match scope {
                ir::scope::WORK_GROUP | ir::scope::SUB_GROUP | ir::scope::WORK_ITEM => ir::fence::SCOPE_GROUP,
                ir::scope::DEVICE => ir::fence::SCOPE_DEVICE,
                _ => ir::fence::SCOPE_SYSTEM,
            };
            let scoped = self.constant(bits | ir::fence::ORDERED | (order as u64) << 16, ElemType::UInt, span)?;
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
        let default_scope = ir::scope::DEVICE;
        let (mut order, mut failure, mut scope) = (SEQ_CST, SEQ_CST, default_scope);
        if explicit {
            let allowed = match what {
                "store" | "clear" => ORDERS_NO_ACQUIRE,
                "load" => ORDERS_NO_RELEASE,
                _ => ALL_ORDERS,
            };
            order = self.order_arg(&args[fixed], "memory order", allowed, base)?.unwrap_or(SEQ_CST);
            if what == "cmpxchg" {
                // A computed failure order is checked against the fixed rules only.
                failure = self.order_arg(&args[fixed + 1], "memory order", ORDERS_NO_RELEASE, base)?.unwrap_or(RELAXED);
            }
            if let Some(s) = args.get(fixed + orders) {
                scope = self.order_arg(s, "memory scope", ALL_SCOPES & !1, base)?.unwrap_or(default_scope);
                if scope == ir::scope::WORK_ITEM {
                    return invalid(s, format!("`{name}` cannot use memory_scope_work_item, which is only for image fences"));
                }
            }
            let oarg = &args[fixed];
            match what {
                "store" | "clear" if matches!(order, ACQUIRE | ACQ_REL) => {
                    return invalid(oarg, format!("`{base}` cannot use {}: a store has no acquire part", order_name(order)))
                        .map_err(|d: Diagnostic| d.with_help("use memory_order_release, memory_order_seq_cst or memory_order_relaxed"));
                }
                "load" if matches!(order, RELEASE | ACQ_REL) => {
                    return invalid(oarg, format!("`{base}` cannot use {}: a load has no release part", order_name(order)))
                        .map_err(|d: Diagnostic| d.with_help("use memory_order_acquire, memory_order_seq_cst or memory_order_relaxed"));
                }
                "cmpxchg" => {
                    let farg = &args[fixed + 1];
                    if matches!(failure, RELEASE | ACQ_REL) {
                        return invalid(farg, format!("the failure order of `{base}` cannot be {}", order_name(failure)));
                    }
                    let stronger = match order {
                        RELAXED | RELEASE => failure != RELAXED,
                        ACQUIRE | ACQ_REL => failure == SEQ_CST,
                        _ => false,
                    };
                    if stronger {
                        return invalid(farg, format!("the failure order {} is stronger than the success order {}", order_name(failure), order_name(order)));
                    }
                }
                _ => {}
            }
        }
        let scope = if space == Space::Local && scope > ir::scope::WORK_GROUP { ir::scope::WORK_GROUP } else { scope };
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

    /// CUDA's device built-ins; `None` when `name` is not one of them.
    fn cuda_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Result<Val, Diagnostic>> {
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
                let result = (|| {
                    let n = self.rvalue(size)?;
                    let n = self.convert(n, &Ty::Scalar(ElemType::ULong), size.span)?;
                    let dst = self.reg()?;
                    self.emit(Instr::Malloc { dst, size: n.reg }, span);
                    self.program.uses_heap = true;
                    Ok(Val { reg: dst, ty: Ty::Ptr { pointee: Box::new(Ty::Void), space: Space::Global, is_const: false } })
                })();
                result
            }
            "free" => {
                let [p] = args else { return Some(Err(type_error(span, "`free` takes one pointer", "here"))) };
                let result = (|| {
                    let v = self.rvalue(p)?;
                    if !matches!(v.ty, Ty::Ptr { .. }) {
                        return Err(type_error(p.span, "`free` needs a pointer from malloc", "not a pointer"));
                    }
                    self.emit(Instr::Free { ptr: v.reg }, span);
                    Ok(Val { reg: v.reg, ty: Ty::Void })
                })();
                result
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

    /// OpenCL's work-group and sub-group collectives (`work_group_reduce_add`,
    /// `sub_group_broadcast`, ...) and `sub_group_barrier`; `None` when `name` is not one.
    fn group_collective(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Result<Val, Diagnostic>> {
        let (warp, kind) = group_collective_name(name)?;
        Some(self.group_collective_call(name, warp, kind, args, span))
    }

    fn group_collective_call(&mut self, name: &str, warp: bool, kind: GroupCollective, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let (min, max, usage) = match kind {
            GroupCollective::All | GroupCollective::Any => (1, 1, format!("{name}(predicate)")),
            GroupCollective::Broadcast if warp => (2, 2, format!("{name}(x, sub_group_local_id)")),
            GroupCollective::Broadcast => (2, 4, format!("{name}(x, local_id), {name}(x, local_id_x, local_id_y) or {name}(x, local_id_x, local_id_y, local_id_z)")),
            GroupCollective::Barrier => (1, 2, format!("{name}(CLK_LOCAL_MEM_FENCE) or {name}(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group)")),
            _ => (1, 1, format!("{name}(x)")),
        };
        if args.len() < min || args.len() > max {
            let takes = if min == max { format!("{min}") } else { format!("{min} to {max}") };
            let given = if args.len() == 1 { "1 was".to_string() } else { format!("{} were", args.len()) };
            return Err(type_error(span, format!("`{name}` takes {takes} argument{}, but {given} given", if max == 1 { "" } else { "s" }), "wrong number of arguments")
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
    fn group_collective_value(&mut self, name: &str, e: &ast::Expr) -> Result<(Reg, ElemType), Diagnostic> {
        let v = self.rvalue(e)?;
        match v.ty {
            Ty::Scalar(_) => {
                let v = self.promote(v, e.span)?;
                let Ty::Scalar(t) = v.ty else { return unreachable_ty(e.span) };
                Ok((v.reg, t))
            }
            Ty::Half => Err(type_error(e.span, format!("`{name}` does not take `half` values"), "half value")
                .with_help("convert to float first, e.g. (float)x, or load the value with vload_half")),
            ref other => Err(type_error(e.span, format!("`{name}` takes a scalar int, uint, long, ulong, float or double, not `{}`", other.describe()), "not a scalar")
                .with_help("apply it to each component separately")),
        }
    }

    /// The local linear id that `work_group_broadcast` names with one, two or three local id
    /// coordinates (missing ones are 0). A coordinate outside the work-group's size in its
    /// dimension yields `u64::MAX`, which the run reports as a broadcast from outside the
    /// group instead of silently reading another work-item.
    fn broadcast_local_id(&mut self, coords: &[ast::Expr], span: Span) -> Result<Reg, Diagnostic> {
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

    fn cuda_atomic_call(&mut self, name: &str, op: AtomicOp, n: usize, scope: u8, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
        let order = ir::order::RELAXED;
        self.emit(Instr::Atomic { op, ty: elem, dst, addr: p.reg, operand, operand2, order, scope }, span);
        Ok(Val { reg: dst, ty: vt })
    }

    /// A CUDA math-library function or intrinsic, computed as the built-in, operator or
    /// expression [`cuda_library`] names for it.
    fn cuda_library_call(&mut self, name: &str, library: CudaLibrary, callee: Span, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let arity = match library {
            CudaLibrary::Builtin(_) | CudaLibrary::Convert { .. } => None,
            CudaLibrary::Integer(_) | CudaLibrary::Reciprocal | CudaLibrary::Saturate | CudaLibrary::Load => Some(1),
            CudaLibrary::Operator(_) => Some(2),
            CudaLibrary::SumOfAbsoluteDifference => Some(3),
        };
        if let Some(n) = arity.filter(|n| *n != args.len()) {
            return Err(type_error(span, format!("`{name}` takes {n} argument{}, but {} were given", if n == 1 { "" } else { "s" }, args.len()), "wrong number of arguments"));
        }
        let expr = |kind: ExprKind| ast::Expr { kind, span };
        let boxed = |e: &ast::Expr| Box::new(e.clone());
        let call = |function: &str, args: Vec<ast::Expr>| {
            ExprKind::Call(Box::new(ast::Expr { kind: ExprKind::Ident(function.to_string()), span: callee }), args)
        };
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
    fn byte_loop(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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

    fn assert(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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

    /// `async_work_group_copy(dst, src, n, event)` and the strided form with a stride before
    /// the event.
    fn async_copy(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
                return Err(type_error(span, format!("`{name}` copies between __local and __global memory, not from `{}` to `{}`", from.ty.describe(), to.ty.describe()), "here"))
            }
        };
        if tp != fp {
            return Err(type_error(span, format!("`{name}` needs both pointers to the same element type, not `{}` and `{}`", to.ty.describe(), from.ty.describe()), "here"));
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
        let instr = Instr::AsyncCopy {
            dst,
            to: to.reg,
            from: from.reg,
            count: count.reg,
            stride: stride.reg,
            event: ev.reg,
            elem_size: elem_size as u32,
            to_local,
        };
        self.emit(instr, span);
        Ok(Val { reg: dst, ty: Ty::Event })
    }

    /// The argument count (`(offset, p)` or `(data, offset, p)`) and the pointer operand of the
    /// vload/vstore families.
    fn load_store_pointer<'e>(&mut self, name: &str, store: bool, args: &'e [ast::Expr], span: Span) -> Result<(usize, &'e ast::Expr, Val), Diagnostic> {
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
    fn half_memory(&mut self, name: &str, store: bool, n: u8, aligned: bool, rounding: MathOp, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let (want, p_arg, p) = self.load_store_pointer(name, store, args, span)?;
        match &p.ty {
            Ty::Ptr { pointee, .. } if **pointee == Ty::Half => {}
            other => {
                return Err(type_error(p_arg.span, format!("`{name}` needs a pointer to half, not `{}`", other.describe()), "here"))
            }
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

    fn vector_memory(&mut self, name: &str, store: bool, n: u8, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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

    fn conversion(&mut self, name: &str, target: &str, how: Conversion, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
    fn reinterpret_bytes(&mut self, v: Val, from_e: ElemType, from_n: u8, to: Ty, to_e: ElemType, to_n: u8, span: Span) -> Result<Val, Diagnostic> {
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
    fn saturate(&mut self, r: Reg, from: ElemType, lo: i128, hi: i128, span: Span) -> Result<Reg, Diagnostic> {
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

    /// The instance of template `t` that a call with `args` needs: `T` is deduced from each
    /// parameter written as `T`, `T*`, `T**`, ... against its argument's type.
    fn instantiate(&mut self, t: &'u ast::Function, args: &[ast::Expr], span: Span) -> Result<u32, Diagnostic> {
        if args.len() != t.params.len() {
            return Err(type_error(span, format!("`{}` takes {} arguments, but {} were given", t.name, t.params.len(), args.len()), "here"));
        }
        let mut bound: Vec<Option<Ty>> = vec![None; t.template_params.len()];
        for (p, a) in t.params.iter().zip(args) {
            let [word] = p.ty.base.words.as_slice() else { continue };
            let Some(k) = t.template_params.iter().position(|n| n == word) else { continue };
            let mut ty = match self.type_of_unevaluated(a)? {
                Ty::Array { elem, .. } => Ty::Ptr { pointee: elem, space: Space::Private, is_const: false },
                other => other,
            };
            for _ in &p.ty.pointers {
                ty = match ty {
                    Ty::Ptr { pointee, .. } => *pointee,
                    other => {
                        return Err(type_error(a.span, format!("cannot deduce `{word}`: expected a pointer, found `{}`", other.describe()), "here"))
                    }
                };
            }
            match &bound[k] {
                Some(prev) if *prev != ty => {
                    return Err(type_error(a.span, format!("`{word}` is deduced both as `{}` and as `{}`", prev.describe(), ty.describe()), "conflicting deduction"))
                }
                _ => bound[k] = Some(ty),
            }
        }
        let mut bindings = Vec::new();
        for (name, ty) in t.template_params.iter().zip(bound) {
            let Some(ty) = ty else {
                return Err(type_error(span, format!("cannot deduce the template parameter `{name}` of `{}` from this call", t.name), "here")
                    .with_help("use the parameter in a function parameter's type"));
            };
            bindings.push((name.clone(), ty));
        }
        let names: Vec<String> = bindings.iter().map(|(_, ty)| ty.describe()).collect();
        let key = format!("{}<{}>", t.name, names.join(", "));
        if let Some(&id) = self.index.get(&key) {
            return Ok(id);
        }
        if self.work.len() >= MAX_INSTANCES {
            return Err(unsupported(span, &format!("more than {MAX_INSTANCES} template instances")));
        }
        let saved: Vec<(String, Option<Ty>)> =
            bindings.iter().map(|(n, ty)| (n.clone(), self.types.bind(n, Some(ty.clone())))).collect();
        let sig = signature(self.types, t);
        for (n, prev) in saved {
            self.types.bind(&n, prev);
        }
        let (ret, params, refs) = sig?;
        let id = self.sigs.len() as u32;
        self.sigs.push(FnSig { ret, params, refs, span: t.name_span, defined: true });
        self.program.functions.push(ir::Function { name: key.clone(), ..Default::default() });
        self.index.insert(key, id);
        self.work.push((id, t, bindings));
        Ok(id)
    }

    fn user_call(&mut self, id: u32, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let sig = &self.sigs[id as usize];
        let (ret, params, refs) = (sig.ret.clone(), sig.params.clone(), sig.refs.clone());
        if args.len() != params.len() {
            return Err(type_error(span, format!("`{name}` takes {} arguments, but {} were given", params.len(), args.len()), "wrong number of arguments")
                .with_label(sig.span, "defined here"));
        }
        let mut regs = Vec::new();
        let ret_slot = if ret.is_aggregate() {
            let slot = self.reg()?;
            self.allocas.push((slot, ret.size() as u32, ret.align() as u32, true));
            regs.push(slot);
            Some(slot)
        } else {
            None
        };
        for (k, (a, pty)) in args.iter().zip(&params).enumerate() {
            if refs.get(k).copied().unwrap_or(false) {
                let Ty::Ptr { pointee, .. } = pty else { return unreachable_ty(a.span) };
                match self.place(a) {
                    Ok(Place::Mem(addr, ty, _)) if &ty == pointee.as_ref() => {
                        regs.push(addr);
                        continue;
                    }
                    Ok(Place::Mem(_, ty, _)) | Ok(Place::Reg(_, ty)) => {
                        return Err(type_error(a.span, format!("a `{}&` parameter needs a `{}` variable, not a `{}`", pointee.describe(), pointee.describe(), ty.describe()), "here"))
                    }
                    _ => return Err(type_error(a.span, "a reference parameter needs a variable, not a value", "not an lvalue")),
                }
            }
            let v = self.rvalue(a)?;
            if let Ty::Vector(..) = pty {
                let copy = self.reg()?;
                self.allocas.push((copy, pty.size() as u32, pty.align() as u32, true));
                self.write(&Place::Mem(copy, pty.clone(), Space::Private), v, a.span)?;
                regs.push(copy);
                continue;
            }
            if let Ty::Record { .. } = pty {
                // Structs are passed by value: the callee gets a private copy.
                if &v.ty != pty {
                    return Err(type_error(a.span, format!("expected a `{}`, found a `{}`", pty.describe(), v.ty.describe()), "wrong type"));
                }
                let copy = self.reg()?;
                self.allocas.push((copy, pty.size() as u32, pty.align() as u32, true));
                self.copy_aggregate(copy, v.reg, pty, a.span)?;
                regs.push(copy);
                continue;
            }
            let v = self.convert(v, pty, a.span)?;
            regs.push(v.reg);
        }
        // A prototype alone (a function from a library linked elsewhere, or one a verifier
        // treats as unknown) has nothing to simulate: the call does nothing and returns 0, and
        // the run says so.
        if !self.work.iter().any(|w| w.0 == id) {
            let name = self.program.functions.get(id as usize).map_or(String::new(), |f| f.name.clone());
            let text = self.program.strings.len() as u32;
            self.program.strings.push(name);
            let dst = self.reg()?;
            self.emit(Instr::Undefined { dst, text }, span);
            if let Some(slot) = ret_slot {
                return self.read(Place::Mem(slot, ret, Space::Private), span);
            }
            return Ok(Val { reg: dst, ty: ret });
        }
        let start = self.func.arg_pool.len() as u32;
        self.func.arg_pool.extend(&regs);
        self.func.printf_types.extend(regs.iter().map(|_| PrintfArg::None));
        let dst = self.reg()?;
        self.emit(Instr::Call { func: id, dst, args: start, argc: regs.len() as u32 }, span);
        self.calls.insert(id);
        if let Some(slot) = ret_slot {
            return self.read(Place::Mem(slot, ret, Space::Private), span);
        }
        Ok(Val { reg: dst, ty: ret })
    }

    fn printf(&mut self, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
        let Some(ast::Expr { kind: ExprKind::Str(format), .. }) = args.first() else {
            return Err(type_error(span, "printf needs a string literal as its format", "here")
                .with_help("write printf(\"%d\\n\", x)"));
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

/// A written type naming vector type `ty`, for lowering a brace list as a compound literal.
fn vector_type_expr(ty: &Ty, span: Span) -> TypeExpr {
    TypeExpr {
        base: ast::TypeSpec { words: vec![ty.describe()], tag: None, space: None, is_const: false, is_volatile: false, span },
        pointers: Vec::new(),
        arrays: Vec::new(),
    }
}

/// The signed integer element of the same size: the lane type of a vector comparison.
fn mask_elem(e: ElemType) -> ElemType {
    match e.size() {
        1 => ElemType::Char,
        2 => ElemType::Short,
        4 => ElemType::Int,
        _ => ElemType::Long,
    }
}

fn cmp_op(op: BinOp) -> CmpOp {
    match op {
        BinOp::Eq => CmpOp::Eq,
        BinOp::Ne => CmpOp::Ne,
        BinOp::Lt => CmpOp::Lt,
        BinOp::Le => CmpOp::Le,
        BinOp::Gt => CmpOp::Gt,
        _ => CmpOp::Ge,
    }
}

/// For match arms the type checker has already excluded.
fn unreachable_ty<T>(span: Span) -> Result<T, Diagnostic> {
    Err(Diagnostic::error("type-error", "internal type inconsistency").with_span(span, "here"))
}
