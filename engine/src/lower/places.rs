//! Places: lvalues and the memory they name. An expression becomes a register, an address in
//! an address space or some lanes of a vector (swizzles); reads and writes go through here
//! (in CUDA, accesses through `volatile` are relaxed atomics at system scope), as do pointer
//! arithmetic, the index check of a subscripted array object, and aggregates in memory,
//! copied or zeroed leaf by leaf.
//!
//! Separate from expressions because a place is not a value: what it lowers to depends on
//! whether it is read, written or has its address taken.

use super::*;

impl<'u> FnLowerer<'_, 'u> {
    /// `addr + offset` bytes.
    pub(super) fn field_addr(&mut self, addr: Reg, offset: u64, span: Span) -> Result<Reg, Diagnostic> {
        if offset == 0 {
            return Ok(addr);
        }
        let idx = self.constant(offset, ElemType::Long, span)?;
        let dst = self.reg()?;
        self.emit(Instr::PtrAdd { dst, ptr: addr, index: idx.reg, scale: 1 }, span);
        Ok(dst)
    }

    /// Copies a struct or array value leaf by leaf (C's assignment of aggregates).
    pub(super) fn copy_aggregate(&mut self, dst: Reg, src: Reg, ty: &Ty, span: Span) -> Result<(), Diagnostic> {
        let mut leaves = Vec::new();
        self.leaves(ty, 0, &mut leaves);
        if leaves.len() > 4096 {
            return Err(unsupported(span, "copying an aggregate of more than 4096 values"));
        }
        for (offset, mt) in leaves {
            let from = self.field_addr(src, offset, span)?;
            let to = self.field_addr(dst, offset, span)?;
            let v = self.reg()?;
            self.emit(Instr::Load { ty: mt, dst: v, addr: from }, span);
            self.emit(Instr::Store { ty: mt, addr: to, src: v }, span);
        }
        Ok(())
    }

    /// The scalar leaves of a type: byte offset and storage type, in memory order.
    pub(super) fn leaves(&self, ty: &Ty, base: u64, out: &mut Vec<(u64, ElemType)>) {
        if out.len() > 4096 {
            return;
        }
        match ty {
            Ty::Array { elem, len } => {
                for i in 0..*len {
                    self.leaves(elem, base + i * elem.size(), out);
                    if out.len() > 4096 {
                        return;
                    }
                }
            }
            Ty::Record { id, size, .. } => {
                let record = self.types.record(*id);
                if record.is_union {
                    // A union is copied as its bytes.
                    out.extend((0..*size).map(|k| (base + k, ElemType::UChar)));
                } else {
                    for m in record.members.iter().flatten() {
                        self.leaves(&m.ty, base + m.offset, out);
                    }
                }
            }
            Ty::Vector(e, n) => out.extend((0..*n as u64).map(|k| (base + k * e.size(), *e))),
            other => {
                if let Some(mt) = other.mem_type() {
                    out.push((base, mt));
                }
            }
        }
    }

    pub(super) fn zero_memory(&mut self, addr: Reg, ty: &Ty, span: Span) -> Result<(), Diagnostic> {
        if let Ty::Record { .. } = ty {
            let mut leaves = Vec::new();
            self.leaves(ty, 0, &mut leaves);
            for (offset, mt) in leaves {
                let at = self.field_addr(addr, offset, span)?;
                let zero = self.constant(0, ElemType::ULong, span)?;
                self.emit(Instr::Store { ty: mt, addr: at, src: zero.reg }, span);
            }
            return Ok(());
        }
        match ty {
            Ty::Array { elem, len } => {
                for i in 0..*len {
                    let idx = self.constant(i, ElemType::Long, span)?;
                    let dst = self.reg()?;
                    self.emit(Instr::PtrAdd { dst, ptr: addr, index: idx.reg, scale: elem.size() as u32 }, span);
                    self.zero_memory(dst, elem, span)?;
                }
            }
            _ => {
                let zero = self.constant(0, ElemType::ULong, span)?;
                if let Some(mt) = ty.mem_type() {
                    self.emit(Instr::Store { ty: mt, addr, src: zero.reg }, span);
                }
            }
        }
        Ok(())
    }

    /// Loads the value of a place; arrays decay to a pointer to their first element.
    pub(super) fn read(&mut self, place: Place, span: Span) -> Result<Val, Diagnostic> {
        match place {
            Place::Reg(reg, ty) => Ok(Val { reg, ty }),
            Place::Mem(addr, Ty::Array { elem, .. }, space) => Ok(Val { reg: addr, ty: Ty::Ptr { pointee: elem, space, is_const: false } }),
            // A struct value is represented by its address; assignments copy from it.
            Place::Mem(addr, ty @ Ty::Record { .. }, _) => Ok(Val { reg: addr, ty }),
            Place::Mem(addr, Ty::Vector(e, n), space) => {
                let lanes: Vec<u8> = (0..n).collect();
                self.read(Place::Lanes(Box::new(Place::Mem(addr, Ty::Vector(e, n), space)), lanes), span)
            }
            Place::Lanes(base, lanes) => {
                let (Place::Reg(_, Ty::Vector(e, _)) | Place::Mem(_, Ty::Vector(e, _), _)) = *base else { return unreachable_ty(span) };
                let dst = self.regs(lanes.len() as u32)?;
                for (k, &lane) in lanes.iter().enumerate() {
                    match *base {
                        Place::Reg(r, _) => {
                            self.emit(Instr::Move { dst: dst + k as u32, src: r + lane as u32 }, span);
                        }
                        Place::Mem(addr, _, _) => {
                            let at = self.field_addr(addr, lane as u64 * e.size(), span)?;
                            self.emit(Instr::Load { ty: e, dst: dst + k as u32, addr: at }, span);
                        }
                        Place::Lanes(..) => return unreachable_ty(span),
                    }
                }
                let ty = if lanes.len() == 1 { Ty::Scalar(e) } else { Ty::Vector(e, lanes.len() as u8) };
                Ok(Val { reg: dst, ty })
            }
            Place::Mem(_, Ty::Half, _) => Err(type_error(span, "`half` is a storage type: its values cannot be used directly", "half value")
                .with_help("read it with vload_half(offset, pointer), which gives a float")),
            Place::Mem(addr, ty, _) => {
                let mt = ty.mem_type().ok_or_else(|| type_error(span, format!("cannot read a `{}`", ty.describe()), "here"))?;
                let dst = self.reg()?;
                if self.volatile_addrs.contains(&addr) {
                    let (order, scope) = (Order::Relaxed, Scope::System);
                    self.emit(Instr::Atomic { op: AtomicOp::Load, ty: mt, dst, addr, operand: dst, operand2: dst, order, scope }, span);
                } else {
                    self.emit(Instr::Load { ty: mt, dst, addr }, span);
                }
                Ok(Val { reg: dst, ty })
            }
        }
    }

    pub(super) fn write(&mut self, place: &Place, v: Val, span: Span) -> Result<Val, Diagnostic> {
        match place {
            Place::Reg(reg, ty) => {
                let v = self.convert(v, ty, span)?;
                self.move_val(*reg, &v, span);
                Ok(Val { reg: *reg, ty: ty.clone() })
            }
            Place::Mem(addr, ty @ Ty::Vector(_, n), space) => {
                // The assignment's value is the value stored, already in registers: reading the
                // lanes back would be shared-memory events of their own (extra steps, and reads
                // that can race with another work-item's write).
                let lanes: Vec<u8> = (0..*n).collect();
                let stored = self.write(&Place::Lanes(Box::new(Place::Mem(*addr, ty.clone(), *space)), lanes), v, span)?;
                Ok(Val { reg: stored.reg, ty: ty.clone() })
            }
            Place::Lanes(base, lanes) => {
                let (Place::Reg(_, Ty::Vector(e, _)) | Place::Mem(_, Ty::Vector(e, _), _)) = **base else { return unreachable_ty(span) };
                let mut seen = 0u32;
                for &lane in lanes {
                    if seen & (1 << lane) != 0 {
                        return Err(type_error(span, "a swizzle that is assigned to cannot name a component twice", "repeated component"));
                    }
                    seen |= 1 << lane;
                }
                let target = if lanes.len() == 1 { Ty::Scalar(e) } else { Ty::Vector(e, lanes.len() as u8) };
                let v = self.convert(v, &target, span)?;
                for (k, &lane) in lanes.iter().enumerate() {
                    match **base {
                        Place::Reg(r, _) => {
                            self.emit(Instr::Move { dst: r + lane as u32, src: v.reg + k as u32 }, span);
                        }
                        Place::Mem(addr, _, _) => {
                            let at = self.field_addr(addr, lane as u64 * e.size(), span)?;
                            self.emit(Instr::Store { ty: e, addr: at, src: v.reg + k as u32 }, span);
                        }
                        Place::Lanes(..) => return unreachable_ty(span),
                    }
                }
                Ok(v)
            }
            Place::Mem(addr, ty @ Ty::Record { .. }, _) => {
                if &v.ty != ty {
                    return Err(type_error(span, format!("cannot assign a `{}` to a `{}`", v.ty.describe(), ty.describe()), "here"));
                }
                self.copy_aggregate(*addr, v.reg, ty, span)?;
                Ok(Val { reg: *addr, ty: ty.clone() })
            }
            Place::Mem(_, Ty::Half, _) => Err(type_error(span, "`half` is a storage type: values are stored with vstore_half", "half value")
                .with_help("write vstore_half(value, offset, pointer)")),
            Place::Mem(addr, ty, _) => {
                let v = self.convert(v, ty, span)?;
                let mt = ty.mem_type().ok_or_else(|| type_error(span, format!("cannot assign to a `{}`", ty.describe()), "here"))?;
                if self.volatile_addrs.contains(addr) {
                    let (order, scope) = (Order::Relaxed, Scope::System);
                    let dst = self.reg()?;
                    self.emit(Instr::Atomic { op: AtomicOp::Store, ty: mt, dst, addr: *addr, operand: v.reg, operand2: v.reg, order, scope }, span);
                } else {
                    self.emit(Instr::Store { ty: mt, addr: *addr, src: v.reg }, span);
                }
                Ok(v)
            }
        }
    }

    pub(super) fn place(&mut self, e: &ast::Expr) -> Result<Place, Diagnostic> {
        let place = self.place_of(e)?;
        if self.cuda {
            if let Place::Mem(addr, Ty::Scalar(_), space) = &place {
                if *space != Space::Private && self.volatile_root(e) {
                    self.volatile_addrs.insert(*addr);
                }
            }
        }
        Ok(place)
    }

    /// Whether the memory `e` names is reached through a `volatile` variable (or a cast to a
    /// pointer to volatile data).
    pub(super) fn volatile_root(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(name) => self.lookup(name).is_some_and(|v| v.volatile),
            ExprKind::Index(base, index) => self.volatile_root(base) || self.volatile_root(index),
            ExprKind::Unary(UnOp::Deref, inner) | ExprKind::Member(inner, _, _) => self.volatile_root(inner),
            ExprKind::Binary(_, a, b) => self.volatile_root(a) || self.volatile_root(b),
            ExprKind::Cast(ty, inner) => ty.base.is_volatile || self.volatile_root(inner),
            _ => false,
        }
    }

    pub(super) fn place_of(&mut self, e: &ast::Expr) -> Result<Place, Diagnostic> {
        match &e.kind {
            ExprKind::Ident(name) => {
                let Some(var) = self.lookup(name).cloned() else {
                    return Err(self.unknown_name(name, e.span));
                };
                Ok(match var.loc {
                    VarLoc::Reg(r) => Place::Reg(r, var.ty),
                    VarLoc::Mem(addr) => Place::Mem(addr, var.ty, Space::Private),
                    VarLoc::Local(index) => {
                        let dst = self.reg()?;
                        self.emit(Instr::LocalAddr { dst, index }, e.span);
                        Place::Mem(dst, var.ty, Space::Local)
                    }
                    VarLoc::Global(index, space) => {
                        let dst = self.reg()?;
                        self.emit(Instr::GlobalAddr { dst, index }, e.span);
                        Place::Mem(dst, var.ty, space)
                    }
                })
            }
            ExprKind::Index(base, index) => {
                let array_len = match self.static_type(base) {
                    Some(Ty::Array { len, .. }) => Some(len),
                    _ => None,
                };
                let b = self.rvalue(base)?;
                let i = self.rvalue(index)?;
                // `i[p]` is as valid as `p[i]` in C.
                let (p, mut i) = if matches!(b.ty, Ty::Ptr { .. }) { (b, i) } else { (i, b) };
                let Ty::Ptr { pointee, space, .. } = p.ty.clone() else {
                    return Err(type_error(base.span, format!("cannot index a `{}`", p.ty.describe()), "not a pointer or array"));
                };
                // Subscripting an array object (not a pointer) must stay within the array, even
                // where the address would still be inside the struct or frame around it.
                if let Some(len) = array_len.filter(|_| i.ty.is_integer()) {
                    i = self.convert(i, &Ty::Scalar(ElemType::Long), index.span)?;
                    self.emit(Instr::CheckIndex { index: i.reg, len }, index.span);
                }
                let addr = self.offset_pointer(p.reg, &pointee, i, index.span, false)?;
                Ok(Place::Mem(addr, *pointee, space))
            }
            ExprKind::Unary(UnOp::Deref, inner) => {
                let p = self.rvalue(inner)?;
                match p.ty {
                    Ty::Ptr { pointee, space, .. } if *pointee != Ty::Void => Ok(Place::Mem(p.reg, *pointee, space)),
                    other => Err(type_error(inner.span, format!("cannot dereference a `{}`", other.describe()), "not a pointer to data")),
                }
            }
            ExprKind::Member(base, field, arrow) => {
                let (addr, ty, space) = if *arrow {
                    let p = self.rvalue(base)?;
                    match p.ty {
                        Ty::Ptr { pointee, space, .. } => (p.reg, *pointee, space),
                        other => {
                            return Err(type_error(base.span, format!("`->` needs a pointer to a struct, not `{}`", other.describe()), "not a pointer")
                                .with_help("use `.` to access a member of a struct value"))
                        }
                    }
                } else {
                    let is_variable = |this: &Self, n: &str| this.lookup(n).is_some() || !this.cuda || cuda_index_variable(n).is_none();
                    let base_place = match &base.kind {
                        ExprKind::Ident(n) if is_variable(self, n) => self.place(base)?,
                        ExprKind::Index(..) | ExprKind::Unary(UnOp::Deref, _) | ExprKind::Member(..) => self.place(base)?,
                        // Members of a value that is not an lvalue: evaluate it first.
                        _ => {
                            let v = self.rvalue(base)?;
                            match v.ty {
                                Ty::Record { .. } => Place::Mem(v.reg, v.ty, Space::Private),
                                ty => Place::Reg(v.reg, ty),
                            }
                        }
                    };
                    match base_place {
                        Place::Reg(_, Ty::Vector(_, n)) | Place::Mem(_, Ty::Vector(_, n), _) => {
                            let lanes = swizzle(field, n).map_err(|why| type_error(e.span, why, "invalid component selection"))?;
                            return Ok(Place::Lanes(Box::new(base_place), lanes));
                        }
                        Place::Lanes(inner, outer) => {
                            let lanes = swizzle(field, outer.len() as u8).map_err(|why| type_error(e.span, why, "invalid component selection"))?;
                            return Ok(Place::Lanes(inner, lanes.iter().map(|&l| outer[l as usize]).collect()));
                        }
                        Place::Mem(addr, ty, space) => (addr, ty, space),
                        Place::Reg(_, ty) => return Err(type_error(base.span, format!("a `{}` has no members", ty.describe()), "not a struct")),
                    }
                };
                let Ty::Record { id, .. } = ty else {
                    let hint = if matches!(ty, Ty::Ptr { .. }) && !*arrow { " (use `->` through a pointer)" } else { "" };
                    return Err(type_error(base.span, format!("a `{}` has no members{hint}", ty.describe()), "not a struct or union"));
                };
                let record = self.types.record(id);
                let Some(member) = record.members.iter().flatten().find(|m| &m.name == field).cloned() else {
                    let names: Vec<String> = record.members.iter().flatten().map(|m| m.name.clone()).collect();
                    return Err(type_error(e.span, format!("`{}` has no member `{field}`", record.name), "unknown member")
                        .with_note(format!("its members are: {}", names.join(", "))));
                };
                let at = self.field_addr(addr, member.offset, e.span)?;
                Ok(Place::Mem(at, member.ty, space))
            }
            _ => Err(type_error(e.span, "this expression cannot be assigned to or have its address taken", "not an lvalue")),
        }
    }

    /// The type of an lvalue expression, worked out without emitting code, for the simple
    /// forms whose array-ness matters (`a`, `s.f`, `p->f`, `a[i]`); `None` for the rest.
    pub(super) fn static_type(&self, e: &ast::Expr) -> Option<Ty> {
        match &e.kind {
            ExprKind::Ident(n) => self.lookup(n).map(|v| v.ty.clone()),
            ExprKind::Index(b, _) => match self.static_type(b)? {
                Ty::Array { elem, .. } => Some(*elem),
                Ty::Ptr { pointee, .. } => Some(*pointee),
                _ => None,
            },
            ExprKind::Member(b, field, arrow) => {
                let t = match (self.static_type(b)?, arrow) {
                    (Ty::Ptr { pointee, .. }, true) => *pointee,
                    (t, false) => t,
                    _ => return None,
                };
                match t {
                    Ty::Record { id, .. } => self.types.record(id).members.as_ref()?.iter().find(|m| m.name == *field).map(|m| m.ty.clone()),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub(super) fn offset_pointer(&mut self, ptr: Reg, pointee: &Ty, index: Val, span: Span, negate: bool) -> Result<Reg, Diagnostic> {
        if !index.ty.is_integer() {
            return Err(type_error(span, format!("a pointer offset must be an integer, not `{}`", index.ty.describe()), "here"));
        }
        let i = self.convert(index, &Ty::Scalar(ElemType::Long), span)?;
        let i = if negate {
            let dst = self.reg()?;
            self.emit(Instr::Unary { op: UnaryOp::Neg, ty: NumTy::I64, dst, src: i.reg }, span);
            dst
        } else {
            i.reg
        };
        let dst = self.reg()?;
        self.emit(Instr::PtrAdd { dst, ptr, index: i, scale: pointee.size() as u32 }, span);
        Ok(dst)
    }
}

/// The lanes a vector component selection names (`.xz`, `.s01`, `.hi`, ...).
pub(super) fn swizzle(name: &str, n: u8) -> Result<Vec<u8>, String> {
    let width = if n == 3 { 4 } else { n };
    let lanes: Vec<u8> = match name {
        "lo" => (0..width / 2).collect(),
        "hi" => (width / 2..width).collect(),
        "even" => (0..width).step_by(2).collect(),
        "odd" => (1..width).step_by(2).collect(),
        _ if name.starts_with(['s', 'S']) && name.len() > 1 => name[1..]
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8).ok_or_else(|| format!("`{c}` is not a component index (0-9, a-f)")))
            .collect::<Result<_, _>>()?,
        _ => name
            .chars()
            .map(|c| match c {
                'x' => Ok(0),
                'y' => Ok(1),
                'z' => Ok(2),
                'w' => Ok(3),
                _ => Err(format!("`.{name}` is not a vector component (use x, y, z, w, s0-sF, lo, hi, even or odd)")),
            })
            .collect::<Result<_, _>>()?,
    };
    if let Some(&bad) = lanes.iter().find(|&&l| l >= n.max(if matches!(name, "hi" | "odd") { width } else { n })) {
        return Err(format!("component {bad} is out of range for a vector of {n}"));
    }
    if !matches!(lanes.len(), 1 | 2 | 3 | 4 | 8 | 16) {
        return Err(format!("`.{name}` selects {} components; a vector has 2, 3, 4, 8 or 16", lanes.len()));
    }
    Ok(lanes)
}
