//! The spanned abstract syntax tree.
//!
//! It records what the user wrote, before any name resolution or typing: a type name is a
//! [`TypeSpec`] of words, not a resolved type, so that the lowering pass can explain a
//! mistake in the user's own terms.

use crate::diag::Span;

/// Address-space qualifiers as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrSpaceQual {
    Global,
    Local,
    Constant,
    Private,
    Generic,
}

/// Which kind of tagged type a `struct`, `union` or `enum` specifier names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TagKind {
    Struct,
    Union,
    Enum,
}

/// A member of a struct or union definition.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub span: Span,
    pub ty: TypeExpr,
}

/// An enumerator, with its explicit value if it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Enumerator {
    pub name: String,
    pub span: Span,
    pub value: Option<Expr>,
}

/// `struct S`, `struct S { ... }`, `union { ... }`, `enum E { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct TagSpec {
    pub kind: TagKind,
    pub name: Option<String>,
    /// The members, when this specifier defines the type.
    pub fields: Option<Vec<Field>>,
    /// The enumerators, when this specifier defines an enum.
    pub enumerators: Option<Vec<Enumerator>>,
    /// C++ base structs (`struct t : s { ... }`), in order.
    pub bases: Vec<(String, Span)>,
    /// `__attribute__((packed))`: members without padding.
    pub packed: bool,
    pub span: Span,
}

/// The base of a declaration's type: words like `unsigned int`, plus qualifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeSpec {
    /// The type words in order, e.g. `["unsigned", "int"]`, `["float4"]` or a typedef name.
    pub words: Vec<String>,
    /// A struct, union or enum specifier instead of words.
    pub tag: Option<Box<TagSpec>>,
    pub space: Option<AddrSpaceQual>,
    pub is_const: bool,
    pub is_volatile: bool,
    pub span: Span,
}

/// One `*` in a declarator, with the qualifiers written after it.
#[derive(Clone, Debug, PartialEq)]
pub struct PointerLevel {
    pub space: Option<AddrSpaceQual>,
    pub is_const: bool,
    pub is_volatile: bool,
}

/// A full type as written: base, pointer levels and array dimensions.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub base: TypeSpec,
    pub pointers: Vec<PointerLevel>,
    /// Array dimensions, outermost first; `None` for `[]`.
    pub arrays: Vec<Option<Expr>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Ident(String),
    Int {
        value: u64,
        unsigned: bool,
        long: bool,
    },
    Float {
        value: f64,
        single: bool,
    },
    Char(u8),
    Str(String),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b` (op `None`) or a compound assignment such as `a += b`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `a.b` (arrow `false`) or `a->b` (arrow `true`).
    Member(Box<Expr>, String, bool),
    Cast(Box<TypeExpr>, Box<Expr>),
    /// `(type){ a, b, ... }`: a C99 compound literal.
    CompoundLiteral(Box<TypeExpr>, Vec<Initializer>),
    SizeofType(Box<TypeExpr>),
    SizeofExpr(Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// One declared name in a declaration statement.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub name: String,
    pub name_span: Span,
    pub ty: TypeExpr,
    pub init: Option<Initializer>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Expr(Expr),
    /// `{ a, b, ... }`; `{}` initialises everything to zero.
    List(Vec<Initializer>, Span),
    /// `.member = value` or `[index] = value` as an item of a list (C99 designated
    /// initialisers): the designators in order (`.a[2].b = 1` has three), the value, and the
    /// span of the whole item. The parser never makes one with no designator.
    Designated(Vec<Designator>, Box<Initializer>, Span),
}

/// One step of a designated initialiser's path.
#[derive(Clone, Debug, PartialEq)]
pub enum Designator {
    /// `.name`, with the name's span.
    Member(String, Span),
    /// `[index]`: an integer constant expression.
    Index(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(Expr),
    Decl(Vec<VarDecl>),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Option<Box<Stmt>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Return(Option<Expr>),
    /// `typedef` declarations inside a function.
    Typedef(Vec<VarDecl>),
    /// A declaration that only defines a struct, union or enum.
    Tag(TypeSpec),
    /// `switch (e) { ... }`: the body's statements with the case labels in place.
    Switch(Expr, Vec<Stmt>),
    /// `case VALUE:` inside a switch body.
    Case(Expr),
    /// `default:` inside a switch body.
    Default,
    Break,
    Continue,
    /// `goto NAME;`, with the name's span.
    Goto(String, Span),
    /// `NAME:` before a statement, which follows as its own statement.
    Label(String, Span),
    Empty,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub name_span: Span,
    pub ty: TypeExpr,
    /// A C++ reference parameter (`int &x`): the caller passes its variable, not a copy.
    pub is_ref: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub name_span: Span,
    pub is_kernel: bool,
    pub ret: TypeExpr,
    pub params: Vec<Param>,
    pub body: Option<Vec<Stmt>>,
    /// `__attribute__((reqd_work_group_size(X, Y, Z)))`: the work-group size the kernel needs.
    pub reqd_work_group_size: Option<Vec<Expr>>,
    /// `template<typename T, ...>`: the type parameters of a function template.
    pub template_params: Vec<String>,
    pub span: Span,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Function(Function),
    /// A program-scope variable declaration.
    Global(Vec<VarDecl>, Span),
    Typedef(Vec<VarDecl>),
    /// A declaration that only defines a struct, union or enum (`struct S { ... };`).
    Tag(TypeSpec),
}

/// A whole source file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TranslationUnit {
    pub items: Vec<Item>,
}
