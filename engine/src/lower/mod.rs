//! The front end's second half: name resolution, types and lowering to the IR.
//!
//! One pass over each function's AST. Expressions are lowered to registers as they are
//! typed, so every type error is found at the node that has it. Scalars whose address is
//! never taken live in registers; arrays and address-taken variables live in private memory,
//! reserved at function entry so that a loop never reserves twice.
//!
//! This file holds the entry point ([`lower`]: declarations first, then a worklist of
//! function bodies that template instances join) and the per-function context
//! (`FnLowerer`: registers, code, scopes). The rest is split by what it lowers:
//! [`types`] names and lays out types; `program` is program scope; `statements` function
//! bodies and control flow; `places` lvalues and memory; `expressions` operators;
//! `conversions` C's conversions and `convert_T`/`as_T`; `calls` the dispatch of calls and
//! templates; `library` OpenCL C's built-in library; `atomics` atomics with their orders and
//! scopes; `collectives` OpenCL's work-item queries and group collectives; `cuda` CUDA's
//! built-ins and math library; `warp` CUDA's block and warp collectives. Each is an `impl
//! FnLowerer` block of its own, so the methods one file calls in another are `pub(super)`.

use std::collections::{BTreeSet, HashMap};

use crate::diag::{Diagnostic, Span};
use crate::ir::{
    self, AtomicOp, BinaryOp, CmpOp, CollectiveOp, Instr, Kernel, KernelParam, LocalDecl, MathOp, NumTy, Order, ParamKind, PrintfArg, Query, Reg, ScanOp,
    Scope, UnaryOp,
};
use crate::scenario::{Dialect, ElemType};
use crate::syntax::ast::{self, AddrSpaceQual, BinOp, Designator, ExprKind, Initializer, Item, StmtKind, TypeExpr, UnOp};
use crate::trace::Space;

mod atomics;
mod calls;
mod collectives;
mod conversions;
mod cuda;
mod expressions;
mod library;
mod places;
mod program;
mod regalloc;
mod statements;
mod types;
mod warp;

use atomics::*;
use collectives::*;
use conversions::*;
use cuda::*;
use expressions::*;
use library::*;
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

/// Choices that change the code the lowering produces.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Mark the start of every statement with [`Instr::Statement`], an event, so that each
    /// statement is a scheduler step (the teaching granularity). Off, statements cost nothing.
    pub statements: bool,
    /// Leave every value in a register of its own, as the lowering first made it, instead of
    /// letting temporaries share registers ([`regalloc`]): only for checking the allocation
    /// against the program without it.
    pub keep_registers: bool,
}

/// Lowers a parsed translation unit. Stops at the first error.
pub fn lower(unit: &ast::TranslationUnit, dialect: Dialect, source: &str, options: Options) -> Result<ir::Program, Diagnostic> {
    let cuda = dialect == Dialect::Cuda;
    let mut program = ir::Program { ptx: cuda, ..ir::Program::default() };
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
                    return Err(type_error(f.name_span, format!("`{}` is defined twice", f.name), "second definition").with_label(sig.span, "first definition"));
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
        let saved: Vec<(String, Option<Ty>)> = bindings.iter().map(|(n, t)| (n.clone(), types.bind(n, Some(t.clone())))).collect();
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
        let mut func = lowerer.func;
        if !options.keep_registers {
            regalloc::allocate(&mut func);
        }
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
                            return Err(type_error(
                                p.name_span,
                                "a kernel's pointer parameters must point to __global, __constant or __local memory",
                                "private pointer parameter",
                            )
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
                        if !(1..=1024).contains(&v) {
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
}

/// For match arms the type checker has already excluded.
fn unreachable_ty<T>(span: Span) -> Result<T, Diagnostic> {
    Err(Diagnostic::error("type-error", "internal type inconsistency").with_span(span, "here"))
}
