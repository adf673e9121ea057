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

mod calls;
mod conversions;
mod expressions;
mod places;
mod program;
mod statements;
mod types;
mod warp;

use conversions::*;
use expressions::*;
use program::*;
use statements::*;

use types::{space_of, type_error, unsupported, Ty, Types};

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

    fn unknown_name(&self, name: &str, span: Span) -> Diagnostic {
        type_error(span, format!("cannot find `{name}` in this scope"), "not declared")
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

/// For match arms the type checker has already excluded.
fn unreachable_ty<T>(span: Span) -> Result<T, Diagnostic> {
    Err(Diagnostic::error("type-error", "internal type inconsistency").with_span(span, "here"))
}
