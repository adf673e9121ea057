//! Program scope: function signatures, program-scope variables with their constant initial
//! bytes (pointers among them included), the types of `__local` and `__shared__` arrays, brace
//! lists with designators made positional, the names a program may not redefine, and the
//! check that no function calls itself.
//!
//! This works on declarations rather than code: it runs before the function bodies are
//! lowered (or after them, for recursion), so it stays apart from the per-function lowering.

use super::*;

/// A function's return type, parameter types and which parameters are references.
pub(super) fn signature(types: &mut Types, f: &ast::Function) -> Result<(Ty, Vec<Ty>, Vec<bool>), Diagnostic> {
    let ret = types.resolve(&f.ret)?;
    if matches!(ret, Ty::Array { .. }) {
        return Err(type_error(f.name_span, "a function cannot return an array", "declared here"));
    }
    let mut params = Vec::new();
    let mut refs = Vec::new();
    for p in &f.params {
        // A parameter declared as an array is a pointer to its first element (C11 6.7.6.3), so
        // its first size may be left out (`int a[]`, `float m[][4]`). The pointer points where
        // the base type's qualifier says (`__local int a[]`).
        let mut ty = if p.ty.arrays.is_empty() {
            types.resolve(&p.ty)?
        } else {
            let mut elem = p.ty.clone();
            elem.arrays.remove(0);
            let elem = types.resolve(&elem)?;
            let space = if p.ty.pointers.is_empty() { space_of(p.ty.base.space, types.default_pointee, p.ty.base.span)? } else { Space::Private };
            Ty::Ptr { pointee: Box::new(elem), space, is_const: p.ty.base.is_const && p.ty.pointers.is_empty() }
        };
        if ty == Ty::Void && f.params.len() == 1 && p.name.is_empty() {
            continue;
        }
        if p.is_ref {
            if f.is_kernel {
                return Err(type_error(p.name_span, "a kernel cannot take a reference parameter", "reference"));
            }
            // A reference is passed as the address of the caller's variable.
            ty = Ty::Ptr { pointee: Box::new(ty), space: Space::Global, is_const: false };
        }
        params.push(ty);
        refs.push(p.is_ref);
    }
    Ok((ret, params, refs))
}

/// Lays out a program-scope variable in constant or global memory with its initial bytes.
pub(super) fn program_scope_variable(
    types: &mut Types,
    program: &mut ir::Program,
    globals: &HashMap<String, Var>,
    d: &ast::VarDecl,
    cuda: bool,
) -> Result<Var, Diagnostic> {
    // CUDA variables at file scope without a qualifier are treated as `__device__` ones.
    let default = if cuda { Space::Global } else { Space::Private };
    let space = space_of(storage_space(&d.ty), default, d.ty.base.span)?;
    let space = match space {
        Space::Constant | Space::Global => space,
        // A file-scope `__shared__` variable: one copy per block, like a kernel's.
        Space::Local => {
            let ty = local_array_type(types, d, cuda)?;
            let index = program.locals.len() as u32;
            program.locals.push(LocalDecl { name: d.name.clone(), size: ty.size(), elem: scalar_elem(&ty) });
            return Ok(Var { loc: VarLoc::Local(index), ty, volatile: d.ty.base.is_volatile });
        }
        // OpenCL 1.2 requires program-scope variables to be in the constant address space;
        // OpenCL 2.0 allows the global one and makes it the default. A const-qualified one
        // without a qualifier is constant data.
        Space::Private if d.ty.base.is_const => Space::Constant,
        _ => Space::Global,
    };
    let ty = declared_type(types, d)?;
    let mut bytes = vec![0u8; ty.size() as usize];
    let mut refs = ConstRefs { globals, pointers: Vec::new() };
    if let Some(init) = &d.init {
        const_init(types, &mut refs, &ty, init, &mut bytes, 0)?;
    }
    let pointers = refs.pointers;
    // A constant integer at program scope can also size arrays.
    if let (Ty::Scalar(t), Some(Initializer::Expr(e))) = (&ty, &d.init) {
        if !t.is_float() && (space == Space::Constant || d.ty.base.is_const) {
            if let Ok(v) = types.eval_int(e) {
                types.constants.insert(d.name.clone(), (v as i64, *t));
            }
        }
    }
    let index = program.globals.len() as u32;
    program.globals.push(ir::GlobalDecl { name: d.name.clone(), space, bytes, pointers });
    Ok(Var { loc: VarLoc::Global(index, space), ty, volatile: d.ty.base.is_volatile })
}

/// Bytes given to CUDA's `extern __shared__` arrays, whose size the launch would choose.
pub(super) const DYNAMIC_SHARED_BYTES: u64 = 16 * 1024;

/// The type of a local (shared) array; CUDA's `extern __shared__ T s[]` gets a fixed size.
pub(super) fn local_array_type(types: &mut Types, d: &ast::VarDecl, cuda: bool) -> Result<Ty, Diagnostic> {
    if cuda && d.init.is_none() && matches!(d.ty.arrays.first(), Some(None)) {
        let mut outer = d.ty.clone();
        outer.arrays.remove(0);
        let elem = types.resolve(&outer)?;
        let len = (DYNAMIC_SHARED_BYTES / elem.size().max(1)).max(1);
        return types.array_of(elem, len as i128, d.name_span);
    }
    declared_type(types, d)
}

/// The type of a declaration, taking an array's size from its initialiser when it has none.
pub(super) fn declared_type(types: &mut Types, d: &ast::VarDecl) -> Result<Ty, Diagnostic> {
    if let (Some(None), Some(Initializer::List(items, span))) = (d.ty.arrays.first(), &d.init) {
        let mut outer = d.ty.clone();
        outer.arrays.remove(0);
        let elem = types.resolve(&outer)?;
        return types.array_of(elem, list_length(types, items)?, *span);
    }
    if let (Some(None), Some(Initializer::Expr(ast::Expr { kind: ExprKind::Str(s), span }))) = (d.ty.arrays.first(), &d.init) {
        let mut outer = d.ty.clone();
        outer.arrays.remove(0);
        let elem = types.resolve(&outer)?;
        return types.array_of(elem, s.len() as i128 + 1, *span);
    }
    types.resolve(&d.ty)
}

/// A compile-time number.
#[derive(Clone, Copy)]
pub(super) enum ConstNum {
    Int(i128),
    Float(f64),
}

pub(super) fn const_number(types: &Types, e: &ast::Expr) -> Result<ConstNum, Diagnostic> {
    if let Ok(v) = types.eval_int(e) {
        return Ok(ConstNum::Int(v));
    }
    let not_const = || type_error(e.span, "a program-scope initialiser must be a constant", "not a constant");
    Ok(match &e.kind {
        ExprKind::Float { value, .. } => ConstNum::Float(*value),
        ExprKind::Unary(UnOp::Neg, a) => match const_number(types, a)? {
            ConstNum::Int(v) => ConstNum::Int(-v),
            ConstNum::Float(v) => ConstNum::Float(-v),
        },
        ExprKind::Unary(UnOp::Plus, a) | ExprKind::Cast(_, a) => const_number(types, a)?,
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_number(types, a)?, const_number(types, b)?);
            let f = |n: ConstNum| match n {
                ConstNum::Int(v) => v as f64,
                ConstNum::Float(v) => v,
            };
            let (x, y) = (f(a), f(b));
            ConstNum::Float(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                _ => return Err(not_const()),
            })
        }
        _ => return Err(not_const()),
    })
}

/// How many elements a list gives an array declared without a size: one past the last it
/// initialises, designators included (`{ [4] = 1 }` has five).
pub(super) fn list_length(types: &Types, items: &[Initializer]) -> Result<i128, Diagnostic> {
    let (mut cursor, mut length) = (0i128, 0i128);
    for item in items {
        if let Initializer::Designated(designators, _, _) = item {
            if let Some(Designator::Index(e)) = designators.first() {
                cursor = types.eval_int(e)?;
            }
        }
        cursor = cursor.saturating_add(1);
        length = length.max(cursor);
    }
    Ok(length)
}

/// Puts the designated items of a list in their places (C11 6.7.9): the list for `ty` becomes
/// positional, one item per element or member up to the last one initialised, with `{}`
/// (zero) in the gaps. A later item for the same place replaces an earlier one, and
/// `.a.b = x` joins what earlier items gave `a`. Only this level is resolved; nested lists
/// are resolved when they are initialised in turn.
pub(super) fn positional(types: &Types, ty: &Ty, items: &[Initializer], span: Span) -> Result<Vec<Initializer>, Diagnostic> {
    let (count, members) = match ty {
        Ty::Array { len, .. } => (*len, Vec::new()),
        Ty::Record { id, .. } => {
            let members = types.record(*id).members.clone().unwrap_or_default();
            (members.len() as u64, members)
        }
        _ => return Err(type_error(span, format!("designators name elements of arrays and members of structs, not of a `{}`", ty.describe()), "here")),
    };
    let is_union = matches!(ty, Ty::Record { id, .. } if types.record(*id).is_union);
    let mut slots: Vec<Initializer> = Vec::new();
    let mut cursor = 0u64;
    for item in items {
        let (index, value) = match item {
            Initializer::Designated(designators, value, item_span) => {
                let Some((first, rest)) = designators.split_first() else { return Err(type_error(*item_span, "a designator is missing", "here")) };
                let index = match (first, ty) {
                    (Designator::Index(e), Ty::Array { len, .. }) => {
                        let i = types.eval_int(e)?;
                        u64::try_from(i)
                            .ok()
                            .filter(|i| i < len)
                            .ok_or_else(|| type_error(e.span, format!("index {i} is outside the array of {len}"), "this index"))?
                    }
                    (Designator::Member(name, name_span), Ty::Record { .. }) => members
                        .iter()
                        .position(|m| &m.name == name)
                        .ok_or_else(|| type_error(*name_span, format!("`{}` has no member `{name}`", ty.describe()), "no such member"))?
                        as u64,
                    (Designator::Index(e), _) => {
                        return Err(type_error(e.span, format!("an index designator needs an array, not a `{}`", ty.describe()), "here"))
                    }
                    (Designator::Member(_, s), _) => {
                        return Err(type_error(*s, format!("a member designator needs a struct or union, not a `{}`", ty.describe()), "here"))
                    }
                };
                let value = if rest.is_empty() {
                    (**value).clone()
                } else {
                    let nested = Initializer::Designated(rest.to_vec(), value.clone(), *item_span);
                    match slots.get(index as usize) {
                        Some(Initializer::List(earlier, list_span)) => {
                            let mut joined = earlier.clone();
                            joined.push(nested);
                            Initializer::List(joined, *list_span)
                        }
                        _ => Initializer::List(vec![nested], *item_span),
                    }
                };
                (index, value)
            }
            other => (cursor, other.clone()),
        };
        if index >= count || (is_union && index > 0) {
            if is_union && index < count {
                return Err(unsupported(span, "initialising a union member other than the first"));
            }
            let what = match ty {
                Ty::Array { len, .. } => format!("too many initialisers for an array of {len}"),
                _ => format!("too many initialisers for `{}`", ty.describe()),
            };
            return Err(type_error(span, what, "here"));
        }
        if slots.len() <= index as usize {
            slots.resize(index as usize + 1, Initializer::List(Vec::new(), span));
        }
        slots[index as usize] = value;
        cursor = index + 1;
    }
    Ok(slots)
}

pub(super) fn has_designators(items: &[Initializer]) -> bool {
    items.iter().any(|i| matches!(i, Initializer::Designated(..)))
}

/// What a program-scope initialiser may point at, and the pointers it holds.
pub(super) struct ConstRefs<'a> {
    /// The program-scope variables declared before it.
    globals: &'a HashMap<String, Var>,
    /// Its pointers, for the launch to fill in.
    pointers: Vec<ir::GlobalPointer>,
}

/// The program-scope variable and byte offset a constant address names: `&g`, `a` (an array),
/// `&a[2]`, `a + 2`, `&g + 1`, through casts.
pub(super) fn const_address(types: &Types, globals: &HashMap<String, Var>, e: &ast::Expr) -> Option<(u32, i64)> {
    let variable = |name: &str| match globals.get(name) {
        Some(Var { loc: VarLoc::Global(index, _), ty, .. }) => Some((*index, ty.clone())),
        _ => None,
    };
    // The address and the size of what it points to, for pointer arithmetic.
    let pointing = |e: &ast::Expr| -> Option<(u32, i64, u64)> {
        match &e.kind {
            ExprKind::Unary(UnOp::AddrOf, inner) => match &inner.kind {
                ExprKind::Ident(name) => variable(name).map(|(i, ty)| (i, 0, ty.size())),
                ExprKind::Index(base, index) => {
                    let ExprKind::Ident(name) = &base.kind else { return None };
                    let (i, ty) = variable(name)?;
                    let Ty::Array { elem, .. } = ty else { return None };
                    let k = i64::try_from(types.eval_int(index).ok()?).ok()?;
                    Some((i, k.checked_mul(elem.size() as i64)?, elem.size()))
                }
                _ => None,
            },
            ExprKind::Ident(name) => match variable(name)? {
                (i, Ty::Array { elem, .. }) => Some((i, 0, elem.size())),
                _ => None,
            },
            _ => None,
        }
    };
    match &e.kind {
        ExprKind::Cast(_, inner) => const_address(types, globals, inner),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), base, k) => {
            let (i, offset, size) = pointing(base)?;
            let k = i64::try_from(types.eval_int(k).ok()?).ok()?;
            let delta = k.checked_mul(size as i64)?;
            Some((i, if *op == BinOp::Add { offset.checked_add(delta)? } else { offset.checked_sub(delta)? }))
        }
        _ => pointing(e).map(|(i, offset, _)| (i, offset)),
    }
}

/// Writes the bytes of a constant initialiser into `bytes`, which start `at` bytes into the
/// variable.
pub(super) fn const_init(types: &Types, refs: &mut ConstRefs, ty: &Ty, init: &Initializer, bytes: &mut [u8], at: usize) -> Result<(), Diagnostic> {
    if let Initializer::List(items, span) = init {
        if has_designators(items) {
            return const_init(types, refs, ty, &Initializer::List(positional(types, ty, items, *span)?, *span), bytes, at);
        }
        if items.is_empty() {
            // `{}`: the bytes start as zero.
            return Ok(());
        }
    }
    if let Initializer::Designated(_, _, span) = init {
        return Err(type_error(*span, "a designator belongs in a list in braces", "here"));
    }
    match (ty, init) {
        (Ty::Array { elem, len }, Initializer::List(items, span)) => {
            if items.len() as u64 > *len {
                return Err(type_error(*span, format!("too many initialisers for an array of {len}"), "here"));
            }
            let size = elem.size() as usize;
            for (i, item) in items.iter().enumerate() {
                const_init(types, refs, elem, item, &mut bytes[i * size..(i + 1) * size], at + i * size)?;
            }
            Ok(())
        }
        (Ty::Array { elem, len }, Initializer::Expr(ast::Expr { kind: ExprKind::Str(s), span })) if elem.size() == 1 => {
            if s.len() as u64 > *len {
                return Err(type_error(*span, "the string is longer than the array", "here"));
            }
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            Ok(())
        }
        (Ty::Record { id, .. }, Initializer::List(items, span)) => {
            let record = types.record(*id);
            let members = record.members.clone().unwrap_or_default();
            let count = if record.is_union { 1 } else { members.len() };
            if items.len() > count {
                return Err(type_error(*span, format!("too many initialisers for `{}`", record.name), "here"));
            }
            for (m, item) in members.iter().zip(items) {
                let offset = m.offset as usize;
                const_init(types, refs, &m.ty, item, &mut bytes[offset..offset + m.ty.size() as usize], at + offset)?;
            }
            Ok(())
        }
        (_, Initializer::List(items, _)) if items.len() == 1 => const_init(types, refs, ty, &items[0], bytes, at),
        (_, Initializer::List(_, span)) => Err(type_error(*span, "a scalar is initialised with one value", "list here")),
        (Ty::Scalar(t), Initializer::Expr(e)) => {
            let bits = match (const_number(types, e)?, t.is_float()) {
                (ConstNum::Int(v), false) => v as u64,
                (ConstNum::Float(v), false) => v as i64 as u64,
                (ConstNum::Int(v), true) if *t == ElemType::Float => (v as f32).to_bits() as u64,
                (ConstNum::Float(v), true) if *t == ElemType::Float => (v as f32).to_bits() as u64,
                (ConstNum::Int(v), true) => (v as f64).to_bits(),
                (ConstNum::Float(v), true) => v.to_bits(),
            };
            t.encode(bits, bytes);
            Ok(())
        }
        (Ty::Ptr { .. }, Initializer::Expr(e)) => {
            if types.eval_int(e).is_ok_and(|v| v == 0) {
                return Ok(());
            }
            let (target, offset) = const_address(types, refs.globals, e)
                .ok_or_else(|| type_error(e.span, "a program-scope pointer starts as 0 or the address of a program-scope variable", "not such an address"))?;
            refs.pointers.push(ir::GlobalPointer { at: at as u32, target, offset });
            Ok(())
        }
        (_, Initializer::Expr(e)) => Err(unsupported(e.span, "this kind of program-scope initialiser")),
        (_, Initializer::Designated(_, _, span)) => Err(type_error(*span, "a designator belongs in a list in braces", "here")),
    }
}

pub(super) fn check_no_recursion(calls: &[BTreeSet<u32>], sigs: &[FnSig], program: &ir::Program) -> Result<(), Diagnostic> {
    // Depth-first search with colours; a grey node reached again closes a cycle.
    fn visit(n: usize, calls: &[BTreeSet<u32>], colour: &mut [u8]) -> Option<usize> {
        colour[n] = 1;
        for &m in &calls[n] {
            let m = m as usize;
            if colour[m] == 1 {
                return Some(m);
            }
            if colour[m] == 0 {
                if let Some(c) = visit(m, calls, colour) {
                    return Some(c);
                }
            }
        }
        colour[n] = 2;
        None
    }
    let mut colour = vec![0u8; calls.len()];
    for n in 0..calls.len() {
        if colour[n] == 0 {
            if let Some(c) = visit(n, calls, &mut colour) {
                return Err(Diagnostic::error("unsupported", format!("recursion is not supported (`{}` calls itself)", program.functions[c].name))
                    .with_span(sigs[c].span, "recursive function")
                    .with_note("OpenCL C does not allow recursion"));
            }
        }
    }
    Ok(())
}

/// The declared address space of a declaration's storage (not of what it points to).
pub(super) fn storage_space(t: &TypeExpr) -> Option<AddrSpaceQual> {
    if t.pointers.is_empty() {
        t.base.space
    } else {
        t.pointers.last().and_then(|p| p.space)
    }
}

/// Built-ins a program may not redefine: the ones whose meaning is the simulation's
/// (synchronisation, atomics, work-item queries, copies). Library functions such as `mix` or
/// `length` may be shadowed by the program's own, which then take precedence. So may the
/// OpenCL 2.0 sub-group queries and collectives, whose names were free before 2.0: programs
/// written for earlier versions sometimes define helpers with those names.
pub(super) fn builtin_name(name: &str) -> bool {
    vector_memory_builtin(name).is_some()
        || half_memory_builtin(name).is_some()
        || conversion_builtin(name).is_some()
        || work_item_query(name).is_some_and(|q| !is_sub_group_query(q))
        || atomic_op(name).is_some()
        || matches!(
            name,
            "barrier"
                | "work_group_barrier"
                | "mem_fence"
                | "read_mem_fence"
                | "write_mem_fence"
                | "printf"
                | "min"
                | "max"
                | "abs"
                | "async_work_group_copy"
                | "async_work_group_strided_copy"
                | "wait_group_events"
                | "prefetch"
        )
}

/// The scalar type of a scalar or of an array (of arrays) of scalars.
pub(super) fn scalar_elem(ty: &Ty) -> Option<ElemType> {
    match ty {
        Ty::Scalar(t) => Some(*t),
        Ty::Array { elem, .. } => scalar_elem(elem),
        Ty::Vector(t, _) => Some(*t),
        _ => None,
    }
}
