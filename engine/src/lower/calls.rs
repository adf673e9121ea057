//! Calls: which function a call names, in order: the program's own functions, CUDA function
//! templates (instantiated when a call needs them, `T` deduced from the arguments), the CUDA
//! built-ins, the atomics, the built-ins refused with a reason (device-side enqueue, pipes,
//! images, GPUVerify's specification functions) and the OpenCL C built-ins; barriers, fences,
//! work-item queries and the OpenCL 1.x atomics are lowered in place.
//!
//! A call of the program's own function passes structs and vectors through private memory,
//! with a hidden result slot; the built-in families are in files of their own.

use super::*;

/// GPUVerify's specification functions (`__requires`, `__global_invariant`, `__read_offset_bytes`,
/// ...): they describe all executions, which a simulator of one execution cannot evaluate.
pub(super) fn is_verifier_annotation(name: &str) -> bool {
    const PREFIXES: [&str; 10] =
        ["__requires", "__ensures", "__invariant", "__global_invariant", "__assert", "__assume", "__read", "__write", "__atomic_has_taken_value", "__implies"];
    PREFIXES.iter().any(|p| name.starts_with(p))
        || matches!(name, "__writes_to" | "__reads_from" | "__no_read" | "__no_write" | "__same_group" | "__distinct_id" | "__other_int")
}

impl<'u> FnLowerer<'_, 'u> {
    pub(super) fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
                return Err(type_error(
                    span,
                    format!("`{name}` takes {n} argument{}, but {} were given", if n == 1 { "" } else { "s" }, args.len()),
                    "wrong number of arguments",
                )
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
            let slot = self
                .types
                .eval_int(&args[0])
                .ok()
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| type_error(args[0].span, "the observation slot must be a constant", "not a constant"))?;
            let value = self.rvalue(&args[1])?;
            let value = self.convert(value, &Ty::Scalar(ElemType::Long), args[1].span)?;
            self.emit(Instr::Observe { slot, src: value.reg }, span);
            return Ok(Val { reg: value.reg, ty: Ty::Void });
        }
        if matches!(
            name.as_str(),
            "enqueue_kernel"
                | "get_default_queue"
                | "enqueue_marker"
                | "ndrange_1D"
                | "ndrange_2D"
                | "ndrange_3D"
                | "get_kernel_work_group_size"
                | "capture_event_profiling_info"
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
                    return Err(type_error(
                        args[0].span,
                        format!("`{name}` works on int, uint, long or ulong, not `{}`", other.describe()),
                        "wrong element type",
                    ))
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
            let scope = if *space == Space::Local { Scope::WorkGroup } else { Scope::Device };
            self.emit(Instr::Atomic { op, ty: elem, dst, addr: p.reg, operand, operand2, order: Order::Relaxed, scope }, span);
            return Ok(Val { reg: dst, ty: vt });
        }
        Err(type_error(callee.span, format!("cannot find function `{name}`"), "not a known function or built-in")
            .with_note("functions must be defined or declared before they are called"))
    }

    /// The instance of template `t` that a call with `args` needs: `T` is deduced from each
    /// parameter written as `T`, `T*`, `T**`, ... against its argument's type.
    pub(super) fn instantiate(&mut self, t: &'u ast::Function, args: &[ast::Expr], span: Span) -> Result<u32, Diagnostic> {
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
                    other => return Err(type_error(a.span, format!("cannot deduce `{word}`: expected a pointer, found `{}`", other.describe()), "here")),
                };
            }
            match &bound[k] {
                Some(prev) if *prev != ty => {
                    return Err(type_error(
                        a.span,
                        format!("`{word}` is deduced both as `{}` and as `{}`", prev.describe(), ty.describe()),
                        "conflicting deduction",
                    ))
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
        let saved: Vec<(String, Option<Ty>)> = bindings.iter().map(|(n, ty)| (n.clone(), self.types.bind(n, Some(ty.clone())))).collect();
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

    pub(super) fn user_call(&mut self, id: u32, name: &str, args: &[ast::Expr], span: Span) -> Result<Val, Diagnostic> {
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
                        return Err(type_error(
                            a.span,
                            format!("a `{}&` parameter needs a `{}` variable, not a `{}`", pointee.describe(), pointee.describe(), ty.describe()),
                            "here",
                        ))
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
}
