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

/// The base of a declaration's type: words like `unsigned int`, plus qualifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeSpec {
    /// The type words in order, e.g. `["unsigned", "int"]` or `["float4"]`.
    pub words: Vec<String>,
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
    Int { value: u64, unsigned: bool, long: bool },
    Float { value: f64, single: bool },
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
    List(Vec<Initializer>, Span),
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
    Break,
    Continue,
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
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub name_span: Span,
    pub is_kernel: bool,
    pub ret: TypeExpr,
    pub params: Vec<Param>,
    pub body: Option<Vec<Stmt>>,
    pub span: Span,
}

/// A whole source file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TranslationUnit {
    pub functions: Vec<Function>,
}
