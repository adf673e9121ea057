//! C types as the lowering understands them, and the environment that names them.
//!
//! [`Types`] resolves what the user wrote (type words, typedef names, struct, union and enum
//! specifiers, pointer levels, array dimensions) to a [`Ty`], lays out structs and unions with
//! C's alignment rules, and evaluates integer constant expressions (array sizes, enumerator
//! values, case labels).

use std::collections::HashMap;

use crate::diag::{Diagnostic, Span};
use crate::scenario::ElemType;
use crate::syntax::ast::{AddrSpaceQual, BinOp, Expr, ExprKind, TagKind, TagSpec, TypeExpr, TypeSpec, UnOp};
use crate::trace::Space;

/// A C type.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Void,
    Scalar(ElemType),
    Ptr {
        pointee: Box<Ty>,
        space: Space,
        is_const: bool,
    },
    Array {
        elem: Box<Ty>,
        len: u64,
    },
    /// A struct or union: its index in [`Types::records`], with its size and alignment so that
    /// sizes never need the environment.
    Record {
        id: u32,
        size: u64,
        align: u64,
        name: std::rc::Rc<str>,
    },
    /// `event_t`, the handle of an asynchronous copy.
    Event,
    /// A vector of 2, 3, 4, 8 or 16 elements (`float4`, `uchar16`).
    Vector(ElemType, u8),
    /// `half`: a 16-bit float that can only be stored, loaded with `vload_half` and stored
    /// with `vstore_half`.
    Half,
}

impl Ty {
    pub fn size(&self) -> u64 {
        match self {
            Ty::Void => 1,
            Ty::Scalar(t) => t.size(),
            Ty::Ptr { .. } | Ty::Event => 8,
            Ty::Half => 2,
            Ty::Array { elem, len } => elem.size().saturating_mul(*len),
            Ty::Record { size, .. } => *size,
            // A 3-element vector is laid out like a 4-element one.
            Ty::Vector(e, n) => e.size() * if *n == 3 { 4 } else { *n as u64 },
        }
    }

    /// Whether values of this type cross function boundaries through private memory.
    pub fn is_aggregate(&self) -> bool {
        matches!(self, Ty::Record { .. } | Ty::Vector(..))
    }

    /// The C spelling, for messages.
    pub fn describe(&self) -> String {
        match self {
            Ty::Void => "void".into(),
            Ty::Scalar(t) => t.name().into(),
            Ty::Ptr { pointee, space, .. } => format!("{} {}*", space_name(*space), pointee.describe()),
            Ty::Array { elem, len } => format!("{}[{len}]", elem.describe()),
            Ty::Record { name, .. } => format!("struct {name}"),
            Ty::Event => "event_t".into(),
            Ty::Half => "half".into(),
            Ty::Vector(e, n) => format!("{}{n}", e.name()),
        }
    }

    pub fn align(&self) -> u64 {
        match self {
            Ty::Array { elem, .. } => elem.align(),
            Ty::Record { align, .. } => *align,
            Ty::Vector(..) => self.size(),
            other => other.size().clamp(1, 8),
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, Ty::Scalar(t) if !t.is_float())
    }

    /// The element type a value of this type is loaded and stored as, if it is one value.
    pub fn mem_type(&self) -> Option<ElemType> {
        match self {
            Ty::Scalar(t) => Some(*t),
            Ty::Ptr { .. } | Ty::Event => Some(ElemType::ULong),
            _ => None,
        }
    }
}

/// One member of a struct or union.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub name: String,
    pub ty: Ty,
    pub offset: u64,
}

/// A struct or union type.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub name: String,
    pub is_union: bool,
    /// `None` while only declared (`struct S;`).
    pub members: Option<Vec<Member>>,
    pub size: u64,
    pub align: u64,
}

/// The names of types and constants in scope.
#[derive(Clone, Debug)]
pub struct Types {
    typedefs: HashMap<String, Ty>,
    tags: HashMap<(bool, String), Ty>,
    pub records: Vec<Record>,
    /// Enumerators, and the named constants of OpenCL (`memory_order_relaxed`, ...).
    pub constants: HashMap<String, (i64, ElemType)>,
    /// Where an unqualified pointer points: private memory in OpenCL C, global memory in
    /// CUDA (whose pointers are generic; the pointer value itself carries the real space).
    pub default_pointee: Space,
}

fn space_name(space: Space) -> &'static str {
    match space {
        Space::Global => "__global",
        Space::Local => "__local",
        Space::Constant => "__constant",
        Space::Private => "__private",
    }
}

pub fn type_error(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::error("type-error", message).with_span(span, label)
}

pub fn unsupported(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error("unsupported", format!("{what} is not supported yet")).with_span(span, what.to_string())
}

pub fn space_of(q: Option<AddrSpaceQual>, default: Space, _span: Span) -> Result<Space, Diagnostic> {
    Ok(match q {
        None => default,
        Some(AddrSpaceQual::Global) => Space::Global,
        Some(AddrSpaceQual::Local) => Space::Local,
        Some(AddrSpaceQual::Constant) => Space::Constant,
        Some(AddrSpaceQual::Private) => Space::Private,
        // A generic pointer's value carries the space it really points to; statically it is
        // checked like a global pointer.
        Some(AddrSpaceQual::Generic) => Space::Global,
    })
}

/// The name of a struct or union defined without a tag, until a typedef names it.
const ANONYMOUS: &str = "(anonymous)";

/// Largest type the lowering lays out, so a hostile declaration cannot exhaust memory.
const MAX_TYPE_BYTES: u64 = 1 << 32;

impl Types {
    pub fn new(default_pointee: Space) -> Types {
        let mut types = Types { typedefs: HashMap::new(), tags: HashMap::new(), records: Vec::new(), constants: HashMap::new(), default_pointee };
        // OpenCL 2.0's memory_order and memory_scope enumerations (values as in the headers
        // of common implementations; only their identity matters here).
        for (name, value) in [
            ("memory_order_relaxed", 0),
            ("memory_order_acquire", 2),
            ("memory_order_release", 3),
            ("memory_order_acq_rel", 4),
            ("memory_order_seq_cst", 5),
            ("memory_scope_work_item", 0),
            ("memory_scope_work_group", 1),
            ("memory_scope_device", 2),
            ("memory_scope_all_svm_devices", 3),
            ("memory_scope_sub_group", 4),
        ] {
            types.constants.insert(name.to_string(), (value, ElemType::Int));
        }
        types
    }

    /// Resolves a whole written type.
    pub fn resolve(&mut self, t: &TypeExpr) -> Result<Ty, Diagnostic> {
        let span = t.base.span;
        let mut ty = self.base(&t.base)?;
        // The base's qualifier applies to what the innermost pointer points to.
        let mut space = space_of(t.base.space, self.default_pointee, span)?;
        let mut is_const = t.base.is_const;
        for level in &t.pointers {
            ty = Ty::Ptr { pointee: Box::new(ty), space, is_const };
            space = space_of(level.space, self.default_pointee, span)?;
            is_const = level.is_const;
        }
        for dim in t.arrays.iter().rev() {
            let len = match dim {
                Some(e) => self.eval_int(e)?,
                None => return Err(type_error(span, "an array needs a size or an initialiser", "array without a size")),
            };
            ty = self.array_of(ty, len, span)?;
        }
        Ok(ty)
    }

    pub fn array_of(&self, elem: Ty, len: i128, span: Span) -> Result<Ty, Diagnostic> {
        // Zero-length arrays are a common C extension: they hold nothing, so every access to
        // one is reported out of bounds.
        if !(0..=1 << 32).contains(&len) {
            return Err(
                type_error(span, format!("array size {len} is out of range"), "array declared here").with_note("an array needs between 0 and 2^32 elements")
            );
        }
        let ty = Ty::Array { elem: Box::new(elem), len: len as u64 };
        if ty.size() > MAX_TYPE_BYTES {
            return Err(type_error(span, format!("this array would take {} bytes", ty.size()), "too large"));
        }
        Ok(ty)
    }

    /// The type a type specifier names.
    pub fn base(&mut self, spec: &TypeSpec) -> Result<Ty, Diagnostic> {
        if let Some(tag) = &spec.tag {
            return self.tag(tag);
        }
        if let [name] = spec.words.as_slice() {
            if let Some(ty) = self.typedefs.get(name) {
                return Ok(ty.clone());
            }
            // C++ (CUDA) names structs by their tag alone.
            for is_union in [false, true] {
                if let Some(ty) = self.tags.get(&(is_union, name.clone())) {
                    return Ok(ty.clone());
                }
            }
        }
        scalar_from_words(&spec.words, spec.span)
    }

    /// Binds a template parameter to a type, returning the previous binding to restore.
    pub fn bind(&mut self, name: &str, ty: Option<Ty>) -> Option<Ty> {
        match ty {
            Some(ty) => self.typedefs.insert(name.to_string(), ty),
            None => self.typedefs.remove(name),
        }
    }

    /// Declares `name` as a typedef for `ty`.
    pub fn typedef(&mut self, name: &str, ty: Ty, span: Span) -> Result<(), Diagnostic> {
        // `typedef struct { ... } name;` gives the anonymous struct its name for messages.
        let ty = match ty {
            Ty::Record { id, size, align, name: old } if &*old == ANONYMOUS => {
                self.records[id as usize].name = name.to_string();
                Ty::Record { id, size, align, name: name.into() }
            }
            other => other,
        };
        match self.typedefs.get(name) {
            Some(old) if *old != ty => Err(type_error(span, format!("`{name}` is already a typedef for a different type"), "redefined here")),
            _ => {
                self.typedefs.insert(name.to_string(), ty);
                Ok(())
            }
        }
    }

    fn tag(&mut self, tag: &TagSpec) -> Result<Ty, Diagnostic> {
        if tag.kind == TagKind::Enum {
            return self.enumeration(tag);
        }
        let is_union = tag.kind == TagKind::Union;
        let key = tag.name.clone().map(|n| (is_union, n));
        let Some(fields) = &tag.fields else {
            // A reference: `struct S`, declared now if it was not before.
            let key = key.expect("the parser requires a name or a body");
            if let Some(ty) = self.tags.get(&key) {
                return Ok(ty.clone());
            }
            let id = self.records.len() as u32;
            self.records.push(Record { name: key.1.clone(), is_union, members: None, size: 0, align: 1 });
            let ty = Ty::Record { id, size: 0, align: 1, name: key.1.as_str().into() };
            self.tags.insert(key, ty.clone());
            return Ok(ty);
        };
        let mut members = Vec::new();
        let (mut size, mut align) = (0u64, 1u64);
        // C++ bases come first, each at its own aligned offset, their members flattened in.
        for (base, span) in &tag.bases {
            let ty =
                self.tags.get(&(false, base.clone())).cloned().ok_or_else(|| type_error(*span, format!("unknown base struct `{base}`"), "not a struct"))?;
            let Ty::Record { id, size: bsize, align: balign, .. } = ty else { return Err(type_error(*span, "not a struct", "here")) };
            let Some(base_members) = self.records[id as usize].members.clone() else {
                return Err(type_error(*span, format!("base struct `{base}` is incomplete"), "here"));
            };
            let offset = size.div_ceil(balign) * balign;
            for m in base_members {
                members.push(Member { offset: m.offset + offset, ..m });
            }
            size = offset + bsize;
            align = align.max(balign);
        }
        for f in fields {
            let ty = self.resolve(&f.ty)?;
            if let Ty::Record { id, .. } = &ty {
                if self.records[*id as usize].members.is_none() {
                    return Err(type_error(f.span, format!("field `{}` has an incomplete type", f.name), "declared here"));
                }
            }
            if ty == Ty::Void {
                return Err(type_error(f.span, format!("field `{}` cannot have type void", f.name), "declared here"));
            }
            if members.iter().any(|m: &Member| m.name == f.name) {
                return Err(type_error(f.span, format!("duplicate field `{}`", f.name), "declared again here"));
            }
            let a = if tag.packed { 1 } else { ty.align() };
            align = align.max(a);
            let offset = if is_union { 0 } else { size.div_ceil(a) * a };
            size = if is_union { size.max(ty.size()) } else { offset + ty.size() };
            if size > MAX_TYPE_BYTES {
                return Err(type_error(tag.span, "this struct is too large", "defined here"));
            }
            members.push(Member { name: f.name.clone(), ty, offset });
        }
        let size = size.div_ceil(align).max(1) * align;
        let name = tag.name.clone().unwrap_or_else(|| ANONYMOUS.into());
        let record = Record { name, is_union, members: Some(members), size, align };
        // Complete an earlier declaration, or add a new record.
        let id = match key.as_ref().and_then(|k| self.tags.get(k)) {
            Some(Ty::Record { id, .. }) if self.records[*id as usize].members.is_none() => *id,
            Some(_) => return Err(type_error(tag.span, format!("`{}` is defined twice", record.name), "second definition")),
            None => {
                self.records.push(record.clone());
                (self.records.len() - 1) as u32
            }
        };
        self.records[id as usize] = record;
        let ty = Ty::Record { id, size, align, name: self.records[id as usize].name.as_str().into() };
        if let Some(k) = key {
            self.tags.insert(k, ty.clone());
        }
        Ok(ty)
    }

    fn enumeration(&mut self, tag: &TagSpec) -> Result<Ty, Diagnostic> {
        if let Some(items) = &tag.enumerators {
            let mut next = 0i128;
            for e in items {
                let value = match &e.value {
                    Some(v) => self.eval_int(v)?,
                    None => next,
                };
                if value < i32::MIN as i128 || value > u32::MAX as i128 {
                    return Err(type_error(e.span, format!("enumerator value {value} does not fit in an int"), "here"));
                }
                self.constants.insert(e.name.clone(), (value as i64, ElemType::Int));
                next = value + 1;
            }
        }
        Ok(Ty::Scalar(ElemType::Int))
    }

    pub fn record(&self, id: u32) -> &Record {
        &self.records[id as usize]
    }

    /// Evaluates an integer constant expression.
    pub fn eval_int(&self, e: &Expr) -> Result<i128, Diagnostic> {
        let not_const = || type_error(e.span, "expected an integer constant", "not a constant");
        Ok(match &e.kind {
            ExprKind::Int { value, .. } => *value as i128,
            ExprKind::Char(c) => *c as i8 as i128,
            ExprKind::Ident(n) => self.constants.get(n).map(|(v, _)| *v as i128).ok_or_else(not_const)?,
            ExprKind::Unary(UnOp::Neg, a) => -self.eval_int(a)?,
            ExprKind::Unary(UnOp::Plus, a) => self.eval_int(a)?,
            ExprKind::Unary(UnOp::BitNot, a) => !self.eval_int(a)?,
            ExprKind::Unary(UnOp::Not, a) => (self.eval_int(a)? == 0) as i128,
            ExprKind::Cast(_, a) => self.eval_int(a)?,
            ExprKind::Ternary(c, a, b) => {
                if self.eval_int(c)? != 0 {
                    self.eval_int(a)?
                } else {
                    self.eval_int(b)?
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.eval_int(a)?, self.eval_int(b)?);
                let r = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div if b != 0 => Some(a / b),
                    BinOp::Rem if b != 0 => Some(a % b),
                    BinOp::Shl if (0..64).contains(&b) => a.checked_mul(1i128 << b),
                    BinOp::Shr if (0..64).contains(&b) => Some(a >> b),
                    BinOp::BitAnd => Some(a & b),
                    BinOp::BitOr => Some(a | b),
                    BinOp::BitXor => Some(a ^ b),
                    BinOp::LogAnd => Some((a != 0 && b != 0) as i128),
                    BinOp::LogOr => Some((a != 0 || b != 0) as i128),
                    BinOp::Eq => Some((a == b) as i128),
                    BinOp::Ne => Some((a != b) as i128),
                    BinOp::Lt => Some((a < b) as i128),
                    BinOp::Le => Some((a <= b) as i128),
                    BinOp::Gt => Some((a > b) as i128),
                    BinOp::Ge => Some((a >= b) as i128),
                    _ => None,
                };
                r.filter(|v| v.unsigned_abs() < (1u128 << 64)).ok_or_else(not_const)?
            }
            _ => return Err(not_const()),
        })
    }
}

impl Types {
    /// The type a single name denotes when it is a typedef or a built-in type word (`float4`),
    /// for built-ins such as `vec_step` that take a type where an expression may stand.
    pub fn named(&self, name: &str) -> Option<Ty> {
        if let Some(ty) = self.typedefs.get(name) {
            return Some(ty.clone());
        }
        if !crate::syntax::parser::is_type_word(name) {
            return None;
        }
        builtin_type(name, Span::default()).ok()
    }
}

/// The built-in type a single word names (`int`, `float4`).
pub fn builtin_type(word: &str, span: Span) -> Result<Ty, Diagnostic> {
    scalar_from_words(&[word.to_string()], span)
}

/// Resolves the words of a type specifier to a built-in type.
fn scalar_from_words(words: &[String], span: Span) -> Result<Ty, Diagnostic> {
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let unsigned = words.contains(&"unsigned");
    let rest: Vec<&str> = words.iter().copied().filter(|w| *w != "unsigned" && *w != "signed").collect();
    let ty = match (unsigned, rest.as_slice()) {
        (false, ["void"]) => return Ok(Ty::Void),
        (false, ["event_t"]) => return Ok(Ty::Event),
        (false, ["dim3"]) => return Ok(Ty::Vector(ElemType::UInt, 3)),
        (false, ["auto"]) => return Err(unsupported(span, "`auto` outside a local variable with an initialiser")),
        (false, ["bool"] | ["_Bool"]) => ElemType::Bool,
        (false, ["char"]) => ElemType::Char,
        (true, ["char"]) | (false, ["uchar"]) => ElemType::UChar,
        (false, ["short"] | ["short", "int"]) => ElemType::Short,
        (true, ["short"] | ["short", "int"]) | (false, ["ushort"]) => ElemType::UShort,
        (false, ["int"] | [] | ["atomic_int"] | ["atomic_flag"] | ["memory_order"] | ["memory_scope"]) => ElemType::Int,
        (true, ["int"] | []) | (false, ["uint"] | ["cl_mem_fence_flags"] | ["atomic_uint"]) => ElemType::UInt,
        (
            false,
            ["long"] | ["long", "int"] | ["long", "long"] | ["ptrdiff_t"] | ["intptr_t"] | ["atomic_long"] | ["atomic_intptr_t"] | ["atomic_ptrdiff_t"],
        ) => ElemType::Long,
        (true, ["long"] | ["long", "int"] | ["long", "long"])
        | (false, ["ulong"] | ["size_t"] | ["uintptr_t"] | ["atomic_ulong"] | ["atomic_uintptr_t"] | ["atomic_size_t"]) => ElemType::ULong,
        (false, ["float"] | ["atomic_float"]) => ElemType::Float,
        (false, ["double"] | ["atomic_double"]) => ElemType::Double,
        (false, ["half"]) => return Ok(Ty::Half),
        (false, [w]) if w.starts_with("image") || *w == "sampler_t" => return Err(unsupported(span, "images and samplers")),
        (false, ["queue_t" | "ndrange_t" | "clk_event_t"]) => return Err(unsupported(span, "device-side enqueue")),
        (false, ["reserve_id_t"]) => return Err(unsupported(span, "pipes")),
        (false, [w]) if crate::syntax::parser::is_type_word(w) => {
            let digits = w.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            let stem = &w[..w.len() - digits.len()];
            let elem = ElemType::parse(stem).ok_or_else(|| unsupported(span, "vectors of `half`"))?;
            return Ok(Ty::Vector(elem, digits.parse().unwrap_or(4)));
        }
        _ => return Err(type_error(span, format!("`{}` is not a valid type", words.join(" ")), "invalid type")),
    };
    Ok(Ty::Scalar(ty))
}
