//! The front end's first half: source text to a spanned AST.
//!
//! `lexer` turns text into tokens, `preprocess` runs directives and expands macros, and
//! `parser` builds the [`ast`] by recursive descent. Every
//! node keeps the byte span it came from, so later stages can point at the user's code.
//! Problems become [`Diagnostic`](crate::diag::Diagnostic)s with code `syntax-error` or
//! `unsupported`; the parser stops at the first one, because one clear message beats a cascade.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod preprocess;
