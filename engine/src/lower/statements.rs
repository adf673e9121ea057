//! Function bodies and statements: a function's entry (parameters, the variables that must
//! live in memory because their address is taken, private memory reserved at entry), scopes
//! and the variables the inspector shows, control flow (`if`, loops, `switch`, `break`,
//! `continue`, `goto`, `return`) and declarations with their initialisers.
//!
//! Statements sequence code and bind names; the values come from `expressions.rs` and the
//! memory they are stored to from `places.rs`.

use super::*;

pub(super) fn collect_address_taken_expr(e: &ast::Expr, out: &mut BTreeSet<String>, refs: &RefParams) {
    match &e.kind {
        ExprKind::Unary(UnOp::AddrOf, inner) => {
            let mut base = inner.as_ref();
            while let ExprKind::Member(b, _, false) = &base.kind {
                base = b;
            }
            if let ExprKind::Ident(n) = &base.kind {
                out.insert(n.clone());
            }
            collect_address_taken_expr(inner, out, refs);
        }
        ExprKind::Unary(_, a) | ExprKind::SizeofExpr(a) | ExprKind::Cast(_, a) | ExprKind::Member(a, _, _) => collect_address_taken_expr(a, out, refs),
        ExprKind::Binary(_, a, b) | ExprKind::Assign(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => {
            collect_address_taken_expr(a, out, refs);
            collect_address_taken_expr(b, out, refs);
        }
        ExprKind::Ternary(a, b, c) => {
            collect_address_taken_expr(a, out, refs);
            collect_address_taken_expr(b, out, refs);
            collect_address_taken_expr(c, out, refs);
        }
        ExprKind::Call(f, args) => {
            collect_address_taken_expr(f, out, refs);
            args.iter().for_each(|a| collect_address_taken_expr(a, out, refs));
            // A variable passed to a C++ reference parameter is passed by address.
            if let ExprKind::Ident(callee) = &f.kind {
                for (a, is_ref) in args.iter().zip(refs.get(callee).into_iter().flatten()) {
                    if let (true, ExprKind::Ident(n)) = (*is_ref, &a.kind) {
                        out.insert(n.clone());
                    }
                }
            }
        }
        ExprKind::CompoundLiteral(_, items) => {
            let mut stack: Vec<&Initializer> = items.iter().collect();
            while let Some(init) = stack.pop() {
                match init {
                    Initializer::Expr(e) => collect_address_taken_expr(e, out, refs),
                    Initializer::List(more, _) => stack.extend(more),
                    Initializer::Designated(_, value, _) => stack.push(value),
                }
            }
        }
        _ => {}
    }
}

/// For each function, which parameters are C++ references.
pub(super) type RefParams = HashMap<String, Vec<bool>>;

pub(super) fn collect_address_taken_stmt(s: &ast::Stmt, out: &mut BTreeSet<String>, refs: &RefParams) {
    match &s.kind {
        StmtKind::Switch(e, body) => {
            collect_address_taken_expr(e, out, refs);
            body.iter().for_each(|s| collect_address_taken_stmt(s, out, refs));
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => collect_address_taken_expr(e, out, refs),
        StmtKind::Decl(decls) => {
            for d in decls {
                let mut stack: Vec<&Initializer> = d.init.iter().collect();
                while let Some(init) = stack.pop() {
                    match init {
                        Initializer::Expr(e) => collect_address_taken_expr(e, out, refs),
                        Initializer::List(items, _) => stack.extend(items),
                        Initializer::Designated(_, value, _) => stack.push(value),
                    }
                }
            }
        }
        StmtKind::Block(b) => b.iter().for_each(|s| collect_address_taken_stmt(s, out, refs)),
        StmtKind::If(c, t, e) => {
            collect_address_taken_expr(c, out, refs);
            collect_address_taken_stmt(t, out, refs);
            if let Some(e) = e {
                collect_address_taken_stmt(e, out, refs);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            collect_address_taken_expr(c, out, refs);
            collect_address_taken_stmt(b, out, refs);
        }
        StmtKind::For(i, c, st, b) => {
            if let Some(i) = i {
                collect_address_taken_stmt(i, out, refs);
            }
            if let Some(c) = c {
                collect_address_taken_expr(c, out, refs);
            }
            if let Some(st) = st {
                collect_address_taken_expr(st, out, refs);
            }
            collect_address_taken_stmt(b, out, refs);
        }
        _ => {}
    }
}

impl<'u> FnLowerer<'_, 'u> {
    pub(super) fn function(&mut self, f: &ast::Function) -> Result<(), Diagnostic> {
        let body = f.body.as_deref().unwrap_or_default();
        for s in body {
            collect_address_taken_stmt(s, &mut self.address_taken, self.refs);
        }
        let sig = &self.sigs[self.id as usize];
        let (sig_params, sig_refs) = (sig.params.clone(), sig.refs.clone());
        let hidden = self.ret.is_aggregate() as u32;
        if hidden == 1 {
            self.ret_slot = Some(0);
        }
        self.func.num_params = sig_params.len() as u32 + hidden;
        self.func.num_regs = sig_params.len() as u32 + hidden;
        let mut param_copies = Vec::new();
        for (i, (p, ty)) in f.params.iter().zip(sig_params).enumerate() {
            let is_ref = sig_refs.get(i).copied().unwrap_or(false);
            let i = i + hidden as usize;
            if p.name.is_empty() {
                continue;
            }
            if is_ref {
                // The register holds the caller's variable's address; uses read through it.
                let Ty::Ptr { pointee, .. } = ty else { return unreachable_ty(p.name_span) };
                self.bind(&p.name, Var { loc: VarLoc::Mem(i as Reg), ty: *pointee, volatile: p.ty.base.is_volatile }, 1);
                continue;
            }
            if self.scopes[1].contains_key(&p.name) {
                return Err(type_error(p.name_span, format!("parameter `{}` is declared twice", p.name), "duplicate"));
            }
            let loc = if ty.is_aggregate() {
                // The caller passes the address of its private copy.
                VarLoc::Mem(i as Reg)
            } else if self.address_taken.contains(&p.name) {
                let addr = self.reg()?;
                self.allocas.push((addr, ty.size() as u32, ty.align() as u32, true));
                param_copies.push((addr, i as Reg, ty.clone(), p.name_span));
                VarLoc::Mem(addr)
            } else {
                VarLoc::Reg(i as Reg)
            };
            self.bind(&p.name, Var { loc, ty, volatile: p.ty.base.is_volatile }, 1);
        }
        for (addr, reg, ty, span) in param_copies {
            if let Some(mt) = ty.mem_type() {
                self.emit(Instr::Store { ty: mt, addr, src: reg }, span);
            }
        }
        for s in body {
            self.stmt(s)?;
        }
        // A `goto` jumps to its label wherever it is in the function, before or after it.
        for (at, name, span) in std::mem::take(&mut self.gotos) {
            let Some(&target) = self.labels.get(&name) else {
                return Err(type_error(span, format!("no label `{name}` in this function"), "jumps nowhere"));
            };
            self.patch(at, target);
        }
        let end = Span::new(f.span.end.saturating_sub(1), f.span.end);
        if self.ret == Ty::Void || self.ret_slot.is_some() {
            self.emit(Instr::Return { src: None }, end);
        } else {
            // Falling off the end of a non-void function returns an unspecified value; zero
            // keeps runs deterministic.
            let zero = self.reg()?;
            self.emit(Instr::Const { dst: zero, bits: 0 }, end);
            self.emit(Instr::Return { src: Some(zero) }, end);
        }
        self.prepend_allocas();
        Ok(())
    }

    /// Declares `name` in the innermost scope and records where it lives for the inspector.
    pub(super) fn bind(&mut self, name: &str, var: Var, scope: usize) {
        let (elem, count) = match &var.ty {
            Ty::Scalar(t) => (ir::DebugElem::Scalar(*t), 1),
            Ty::Vector(t, n) => (ir::DebugElem::Scalar(*t), *n as u32),
            Ty::Ptr { .. } | Ty::Event => (ir::DebugElem::Pointer, 1),
            Ty::Array { elem, len } => match elem.as_ref() {
                Ty::Scalar(t) => (ir::DebugElem::Scalar(*t), (*len).min(u32::MAX as u64) as u32),
                Ty::Ptr { .. } => (ir::DebugElem::Pointer, (*len).min(u32::MAX as u64) as u32),
                other => (ir::DebugElem::Bytes, other.size().saturating_mul(*len).min(u32::MAX as u64) as u32),
            },
            other => (ir::DebugElem::Bytes, other.size().min(u32::MAX as u64) as u32),
        };
        let place = match var.loc {
            VarLoc::Reg(r) => Some(ir::DebugPlace::Regs(r)),
            VarLoc::Mem(r) => Some(ir::DebugPlace::Mem(r)),
            // Local and program-scope variables are shown with memory, not per work-item.
            VarLoc::Local(_) | VarLoc::Global(..) => None,
        };
        if let Some(place) = place {
            let start = self.here();
            self.func.vars.push(ir::DebugVar { name: name.to_string(), type_name: var.ty.describe(), place, elem, count, start, end: u32::MAX });
            self.open_vars.push((self.func.vars.len() - 1, scope));
        }
        if let Some(s) = self.scopes.get_mut(scope) {
            s.insert(name.to_string(), var);
        }
    }

    /// Closes the innermost scope: its variables go out of the inspector's view here.
    pub(super) fn pop_scope(&mut self) {
        let depth = self.scopes.len().saturating_sub(1);
        let here = self.here();
        while let Some(&(index, scope)) = self.open_vars.last() {
            if scope < depth {
                break;
            }
            self.func.vars[index].end = here;
            self.open_vars.pop();
        }
        self.scopes.pop();
    }

    /// Puts the private-memory reservations at the function's entry and shifts jump targets.
    pub(super) fn prepend_allocas(&mut self) {
        let n = self.allocas.len() as u32;
        if n == 0 {
            return;
        }
        for v in &mut self.func.vars {
            v.start += n;
            v.end = v.end.saturating_add(n);
        }
        for instr in &mut self.func.code {
            match instr {
                Instr::Jump { target } | Instr::BranchIf { target, .. } | Instr::BranchIfNot { target, .. } => *target += n,
                _ => {}
            }
        }
        let prefix: Vec<Instr> = self.allocas.iter().map(|&(dst, size, align, initialised)| Instr::Alloca { dst, size, align, initialised }).collect();
        let spans = vec![self.span; prefix.len()];
        self.func.code.splice(0..0, prefix);
        self.func.spans.splice(0..0, spans);
    }

    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> Result<(), Diagnostic> {
        if self.statements && !matches!(s.kind, StmtKind::Block(_)) {
            self.emit(Instr::Statement, s.span);
        }
        match &s.kind {
            StmtKind::Expr(e) => {
                self.expr(e)?;
            }
            StmtKind::Decl(decls) => {
                for d in decls {
                    self.decl(d)?;
                }
            }
            StmtKind::Block(stmts) => {
                self.scopes.push(HashMap::new());
                for s in stmts {
                    self.stmt(s)?;
                }
                self.pop_scope();
            }
            StmtKind::If(cond, then, otherwise) => {
                let c = self.condition(cond)?;
                let jf = self.emit(Instr::BranchIfNot { cond: c, target: 0 }, cond.span);
                self.scoped(then)?;
                match otherwise {
                    Some(o) => {
                        let jend = self.emit(Instr::Jump { target: 0 }, s.span);
                        let else_at = self.here();
                        self.patch(jf, else_at);
                        self.scoped(o)?;
                        let end = self.here();
                        self.patch(jend, end);
                    }
                    None => {
                        let end = self.here();
                        self.patch(jf, end);
                    }
                }
            }
            StmtKind::While(cond, body) => {
                let top = self.here();
                let c = self.condition(cond)?;
                let jf = self.emit(Instr::BranchIfNot { cond: c, target: 0 }, cond.span);
                self.loop_body(body)?;
                self.emit(Instr::Jump { target: top }, cond.span);
                let end = self.here();
                self.patch(jf, end);
                self.finish_loop(end, top);
            }
            StmtKind::DoWhile(body, cond) => {
                let top = self.here();
                self.loops.push(LoopTargets { breaks: Vec::new(), continues: Vec::new(), is_switch: false });
                self.scoped(body)?;
                let cont = self.here();
                let c = self.condition(cond)?;
                self.emit(Instr::BranchIf { cond: c, target: top }, cond.span);
                let end = self.here();
                self.finish_loop(end, cont);
            }
            StmtKind::For(init, cond, step, body) => {
                self.scopes.push(HashMap::new());
                if let Some(init) = init {
                    self.stmt(init)?;
                }
                let top = self.here();
                let jf = match cond {
                    Some(cond) => {
                        let c = self.condition(cond)?;
                        Some(self.emit(Instr::BranchIfNot { cond: c, target: 0 }, cond.span))
                    }
                    None => None,
                };
                self.loops.push(LoopTargets { breaks: Vec::new(), continues: Vec::new(), is_switch: false });
                self.scoped(body)?;
                let cont = self.here();
                if let Some(step) = step {
                    self.expr(step)?;
                }
                self.emit(Instr::Jump { target: top }, s.span);
                let end = self.here();
                if let Some(jf) = jf {
                    self.patch(jf, end);
                }
                self.finish_loop(end, cont);
                self.pop_scope();
            }
            StmtKind::Return(value) => match (value, &self.ret) {
                (None, Ty::Void) => {
                    self.emit(Instr::Return { src: None }, s.span);
                }
                (Some(e), Ty::Void) => return Err(type_error(e.span, "a void function cannot return a value", "returned here")),
                (None, ret) => return Err(type_error(s.span, format!("this function must return a `{}`", ret.describe()), "missing value")),
                (Some(e), ret) if ret.is_aggregate() => {
                    let ret = ret.clone();
                    let v = self.rvalue(e)?;
                    let slot = self.ret_slot.unwrap_or(0);
                    self.write(&Place::Mem(slot, ret, Space::Private), v, e.span)?;
                    self.emit(Instr::Return { src: None }, s.span);
                }
                (Some(e), ret) => {
                    let ret = ret.clone();
                    let v = self.rvalue(e)?;
                    let v = self.convert(v, &ret, e.span)?;
                    self.emit(Instr::Return { src: Some(v.reg) }, s.span);
                }
            },
            StmtKind::Break | StmtKind::Continue => {
                let at = self.emit(Instr::Jump { target: 0 }, s.span);
                let is_break = s.kind == StmtKind::Break;
                let innermost = if is_break { self.loops.last_mut() } else { self.loops.iter_mut().rev().find(|l| !l.is_switch) };
                let Some(targets) = innermost else {
                    let word = if is_break { "break" } else { "continue" };
                    return Err(type_error(s.span, format!("`{word}` outside of a loop"), "not in a loop"));
                };
                if is_break {
                    targets.breaks.push(at);
                } else {
                    targets.continues.push(at);
                }
            }
            StmtKind::Typedef(decls) => {
                for d in decls {
                    let ty = self.types.resolve(&d.ty)?;
                    self.types.typedef(&d.name, ty, d.name_span)?;
                }
            }
            StmtKind::Tag(spec) => {
                self.types.base(spec)?;
            }
            StmtKind::Switch(value, body) => self.switch(value, body, s.span)?,
            StmtKind::Case(e) => return Err(type_error(e.span, "`case` outside of a switch", "not directly inside a switch body")),
            StmtKind::Default => return Err(type_error(s.span, "`default` outside of a switch", "here")),
            StmtKind::Goto(name, name_span) => {
                let at = self.emit(Instr::Jump { target: 0 }, s.span);
                self.gotos.push((at, name.clone(), *name_span));
            }
            StmtKind::Label(name, name_span) => {
                if self.labels.insert(name.clone(), self.here()).is_some() {
                    return Err(type_error(*name_span, format!("the label `{name}` is defined twice in this function"), "defined again here"));
                }
            }
            StmtKind::Empty => {}
        }
        Ok(())
    }

    /// Lowers a switch: compare-and-branch to each case label, then the body in order, so
    /// that cases fall through as in C.
    pub(super) fn switch(&mut self, value: &ast::Expr, body: &[ast::Stmt], span: Span) -> Result<(), Diagnostic> {
        let v = self.rvalue(value)?;
        if !v.ty.is_integer() {
            return Err(type_error(value.span, format!("a switch needs an integer, not `{}`", v.ty.describe()), "here"));
        }
        let v = self.promote(v, value.span)?;
        let Ty::Scalar(vt) = v.ty else { return unreachable_ty(span) };
        let mut seen = BTreeSet::new();
        let mut case_jumps = Vec::new();
        let mut has_default = false;
        for stmt in body {
            match &stmt.kind {
                StmtKind::Case(e) => {
                    let c = self.types.eval_int(e)?;
                    if !seen.insert(c) {
                        return Err(type_error(e.span, format!("duplicate case value {c}"), "repeated here"));
                    }
                    let k = self.constant(c as u64, vt, e.span)?;
                    let dst = self.reg()?;
                    self.emit(Instr::Compare { op: CmpOp::Eq, ty: num_ty(vt), dst, lhs: v.reg, rhs: k.reg }, e.span);
                    case_jumps.push(self.emit(Instr::BranchIf { cond: dst, target: 0 }, e.span));
                }
                StmtKind::Default if has_default => return Err(type_error(stmt.span, "a switch has two `default` labels", "second default")),
                StmtKind::Default => has_default = true,
                _ => {}
            }
        }
        let to_default = self.emit(Instr::Jump { target: 0 }, span);
        self.loops.push(LoopTargets { breaks: vec![to_default], continues: Vec::new(), is_switch: true });
        let mut default_at = None;
        let mut case_index = 0;
        self.scopes.push(HashMap::new());
        for stmt in body {
            match &stmt.kind {
                StmtKind::Case(_) => {
                    let here = self.here();
                    self.patch(case_jumps[case_index], here);
                    case_index += 1;
                }
                StmtKind::Default => default_at = Some(self.here()),
                _ => self.stmt(stmt)?,
            }
        }
        self.pop_scope();
        let end = self.here();
        let targets = self.loops.pop().unwrap_or(LoopTargets { breaks: Vec::new(), continues: Vec::new(), is_switch: true });
        for b in targets.breaks {
            self.patch(b, end);
        }
        if let Some(d) = default_at {
            self.patch(to_default, d);
        }
        Ok(())
    }

    pub(super) fn scoped(&mut self, s: &ast::Stmt) -> Result<(), Diagnostic> {
        self.scopes.push(HashMap::new());
        let r = self.stmt(s);
        self.pop_scope();
        r
    }

    pub(super) fn loop_body(&mut self, body: &ast::Stmt) -> Result<(), Diagnostic> {
        self.loops.push(LoopTargets { breaks: Vec::new(), continues: Vec::new(), is_switch: false });
        self.scoped(body)
    }

    pub(super) fn finish_loop(&mut self, end: u32, cont: u32) {
        let targets = self.loops.pop().unwrap_or(LoopTargets { breaks: Vec::new(), continues: Vec::new(), is_switch: false });
        for b in targets.breaks {
            self.patch(b, end);
        }
        for c in targets.continues {
            self.patch(c, cont);
        }
    }

    pub(super) fn decl(&mut self, d: &ast::VarDecl) -> Result<(), Diagnostic> {
        if self.scopes.last().is_some_and(|s| s.contains_key(&d.name)) {
            return Err(type_error(d.name_span, format!("`{}` is already declared in this scope", d.name), "redeclared here"));
        }
        let is_local = storage_space(&d.ty) == Some(AddrSpaceQual::Local);
        let is_auto = self.cuda && d.ty.base.words == ["auto"] && d.ty.pointers.is_empty() && d.ty.arrays.is_empty();
        let ty = if is_auto {
            // C++ `auto`: the type of the initialiser, with arrays decayed to pointers.
            let Some(Initializer::Expr(e)) = &d.init else {
                return Err(type_error(d.name_span, "an `auto` variable needs an initialiser", "no initialiser"));
            };
            match self.type_of_unevaluated(e)? {
                Ty::Array { elem, .. } => Ty::Ptr { pointee: elem, space: Space::Private, is_const: false },
                Ty::Void => return Err(type_error(e.span, "this expression has no value", "void")),
                t => t,
            }
        } else if is_local {
            local_array_type(self.types, d, self.cuda)?
        } else {
            declared_type(self.types, d)?
        };
        // A const integer initialised with a constant expression is itself a constant, so it
        // can size arrays (`const int N = 64; __local float tile[N];`).
        if let (true, Ty::Scalar(t), Some(Initializer::Expr(e))) = (d.ty.base.is_const && d.ty.pointers.is_empty(), &ty, &d.init) {
            if !t.is_float() {
                if let Ok(v) = self.types.eval_int(e) {
                    self.types.constants.insert(d.name.clone(), (v as i64, *t));
                }
            }
        }
        if let Ty::Record { id, .. } = ty {
            if self.types.record(id).members.is_none() {
                return Err(type_error(d.name_span, format!("`{}` has an incomplete type", d.name), "declared here")
                    .with_help("define the struct before declaring variables of it"));
            }
        }
        if ty == Ty::Void {
            return Err(type_error(d.name_span, format!("variable `{}` cannot have type void", d.name), "declared here"));
        }
        let space = space_of(storage_space(&d.ty), Space::Private, d.ty.base.span)?;
        match space {
            Space::Local => {
                if !self.is_kernel && !self.cuda {
                    return Err(type_error(d.name_span, "`__local` variables can only be declared in a kernel", "declared here"));
                }
                if d.init.is_some() {
                    return Err(type_error(d.name_span, "`__local` variables cannot be initialised", "initialised here")
                        .with_help("assign the value after the declaration, then use a barrier"));
                }
                let index = self.program.locals.len() as u32;
                self.program.locals.push(LocalDecl { name: d.name.clone(), size: ty.size(), elem: scalar_elem(&ty) });
                let volatile = d.ty.base.is_volatile;
                self.scopes.last_mut().map(|s| s.insert(d.name.clone(), Var { loc: VarLoc::Local(index), ty, volatile }));
                return Ok(());
            }
            Space::Global | Space::Constant => {
                return Err(unsupported(d.name_span, "a `__global` or `__constant` variable inside a function"));
            }
            Space::Private => {}
        }
        // A variable declared without a value lives in private memory, whose bytes remember
        // whether they were written, so reading it before assigning it is reported.
        let in_memory = matches!(ty, Ty::Array { .. } | Ty::Record { .. }) || self.address_taken.contains(&d.name) || d.init.is_none();
        if in_memory {
            if ty.size() > MAX_PRIVATE_BYTES {
                return Err(type_error(d.name_span, format!("`{}` needs {} bytes of private memory", d.name, ty.size()), "too large")
                    .with_note(format!("a private variable may use at most {MAX_PRIVATE_BYTES} bytes")));
            }
            let addr = self.reg()?;
            self.allocas.push((addr, ty.size() as u32, ty.align() as u32, d.init.is_some()));
            if let Some(init) = &d.init {
                self.init_memory(addr, &ty, init)?;
            }
            self.bind(&d.name, Var { loc: VarLoc::Mem(addr), ty, volatile: d.ty.base.is_volatile }, self.scopes.len() - 1);
        } else {
            let reg = self.regs(Self::width(&ty))?;
            match &d.init {
                Some(Initializer::Expr(e)) => {
                    let v = self.rvalue(e)?;
                    let v = self.convert(v, &ty, e.span)?;
                    self.move_val(reg, &v, e.span);
                }
                Some(Initializer::List(_, span) | Initializer::Designated(_, _, span)) => {
                    return Err(type_error(*span, "a scalar is initialised with a value, not a list", "list here"))
                }
                None => {
                    // Uninitialised private variables read as zero, so runs stay deterministic.
                    for k in 0..Self::width(&ty) {
                        self.emit(Instr::Const { dst: reg + k, bits: 0 }, d.name_span);
                    }
                }
            }
            self.bind(&d.name, Var { loc: VarLoc::Reg(reg), ty, volatile: d.ty.base.is_volatile }, self.scopes.len() - 1);
        }
        Ok(())
    }

    pub(super) fn init_memory(&mut self, addr: Reg, ty: &Ty, init: &Initializer) -> Result<(), Diagnostic> {
        if let Initializer::List(items, span) = init {
            if has_designators(items) {
                let items = positional(self.types, ty, items, *span)?;
                return self.init_memory(addr, ty, &Initializer::List(items, *span));
            }
            if items.is_empty() {
                return self.zero_memory(addr, ty, *span);
            }
        }
        match (ty, init) {
            (_, Initializer::Designated(_, _, span)) => Err(type_error(*span, "a designator belongs in a list in braces", "here")),
            (Ty::Array { elem, len }, Initializer::List(items, span)) => {
                if items.len() as u64 > *len {
                    return Err(type_error(*span, format!("too many initialisers for an array of {len}"), "here"));
                }
                for i in 0..*len {
                    let idx = self.constant(i, ElemType::Long, *span)?;
                    let dst = self.reg()?;
                    self.emit(Instr::PtrAdd { dst, ptr: addr, index: idx.reg, scale: elem.size() as u32 }, *span);
                    match items.get(i as usize) {
                        Some(item) => self.init_memory(dst, elem, item)?,
                        None => self.zero_memory(dst, elem, *span)?,
                    }
                }
                Ok(())
            }
            (Ty::Array { elem, len }, Initializer::Expr(ast::Expr { kind: ExprKind::Str(text), span })) if elem.size() == 1 => {
                let bytes = text.as_bytes();
                if bytes.len() as u64 > *len {
                    return Err(type_error(*span, "the string is longer than the array", "here"));
                }
                for i in 0..*len {
                    let b = bytes.get(i as usize).copied().unwrap_or(0);
                    let at = self.field_addr(addr, i, *span)?;
                    let v = self.constant(b as u64, ElemType::UChar, *span)?;
                    self.emit(Instr::Store { ty: ElemType::UChar, addr: at, src: v.reg }, *span);
                }
                Ok(())
            }
            (Ty::Array { .. }, Initializer::Expr(e)) => Err(type_error(e.span, "an array is initialised with a list in braces", "expected `{ ... }`")),
            (Ty::Record { id, .. }, Initializer::List(items, span)) => {
                let record = self.types.record(*id).clone();
                let members = record.members.unwrap_or_default();
                let count = if record.is_union { 1 } else { members.len() };
                if items.len() > count {
                    return Err(type_error(*span, format!("too many initialisers for `{}`", record.name), "here"));
                }
                if record.is_union || items.len() < members.len() {
                    self.zero_memory(addr, ty, *span)?;
                }
                for (m, item) in members.iter().zip(items) {
                    let at = self.field_addr(addr, m.offset, *span)?;
                    self.init_memory(at, &m.ty, item)?;
                }
                Ok(())
            }
            (Ty::Vector(..), Initializer::Expr(e)) => {
                let v = self.rvalue(e)?;
                self.write(&Place::Mem(addr, ty.clone(), Space::Private), v, e.span)?;
                Ok(())
            }
            (Ty::Vector(..), Initializer::List(items, span)) if items.len() > 1 => {
                let v = self.expr(&ast::Expr { kind: ExprKind::CompoundLiteral(Box::new(vector_type_expr(ty, *span)), items.clone()), span: *span })?;
                self.write(&Place::Mem(addr, ty.clone(), Space::Private), v, *span)?;
                Ok(())
            }
            (Ty::Record { .. }, Initializer::Expr(e)) => {
                let v = self.rvalue(e)?;
                if &v.ty != ty {
                    return Err(type_error(e.span, format!("cannot initialise a `{}` with a `{}`", ty.describe(), v.ty.describe()), "here"));
                }
                self.copy_aggregate(addr, v.reg, ty, e.span)
            }
            (_, Initializer::List(items, span)) if items.len() == 1 => self.init_memory(addr, ty, &items[0]).map_err(|d| d.with_label(*span, "in this list")),
            (_, Initializer::List(_, span)) => Err(type_error(*span, "a scalar is initialised with one value", "list here")),
            (_, Initializer::Expr(e)) => {
                let v = self.rvalue(e)?;
                let v = self.convert(v, ty, e.span)?;
                let mt = ty.mem_type().ok_or_else(|| unsupported(e.span, "initialising this type"))?;
                self.emit(Instr::Store { ty: mt, addr, src: v.reg }, e.span);
                Ok(())
            }
        }
    }
}
