//! Litmus tests: [`dialect`] says which dialect a text is, [`parse`] reads it. This module
//! reads OpenCL litmus tests (the herd/Dat3M format) and translates them into a kernel; PTX
//! tests are its submodule [`ptx`]'s. The final condition's reader and the placement of
//! threads serve both.
//!
//! # The format
//!
//! ```text
//! OPENCL MP                                   the header: `OPENCL` and the test's name
//! (* a comment, anywhere between items *)
//! { [x]=0; [y]=0; }                           the initial state of the shared locations
//! P0@wg 0, dev 0 (global int* x, global atomic_int* y) {
//!   *x = 1;                                   OpenCL C statements
//!   atomic_store_explicit(y, 1, memory_order_release);
//! }
//! P1@wg 1, dev 0 (global int* x, global atomic_int* y) {
//!   int r0 = atomic_load_explicit(y, memory_order_acquire);
//!   int r1 = *x;                              `r0` and `r1` are P1's registers
//! }
//! exists (1:r0=1 /\ 1:r1=0)                   the final condition
//! ```
//!
//! Each thread `P<i>` names the work-group and the device it runs in; its parameters are
//! pointers to the shared locations, and its registers are the integer variables declared at
//! the top level of its body. The final condition is quantified with `exists`, `~exists` or
//! `forall` and combines atoms `i:reg=value` (a register of thread `i` at the end, also
//! written `Pi:reg`) and `loc=value` (a location's final value), or any comparison of two of
//! registers, locations and values (`==`, `!=`, `<`, `<=`, `>`, `>=`), with `/\`, `\/`, `~`
//! (or `not`) and parentheses.
//!
//! # The translation
//!
//! [`parse`] turns the test into one OpenCL C source, [`LitmusTest::kernel_source`]: every
//! thread becomes a function `void __P<i>(<its parameters>) { <its body> }`, and a kernel
//! `__litmus` appended after all of the original text takes one pointer per location and
//! calls, in each work-item, the function of the thread placed there. At the end of each
//! body, a call `__interleave_observe(SLOT, reg)` per register hands the register's final
//! value to the engine (the locals are out of scope anywhere else).
//!
//! The translation keeps byte offsets: the parameter lists and bodies stay at the same offsets
//! in `kernel_source` as in the litmus text, so a diagnostic the C compiler reports against
//! `kernel_source` points at the right place in the litmus file without any mapping. All
//! that is not C (the header line, comments, the initial state, the `P0@wg 0, dev 0` thread
//! headers, the final condition) is overwritten with blanks, newlines kept where there is
//! room (so line numbers agree too), and that blank space is where the generated text goes:
//!
//! * a thread header `P0@wg 0, dev 0` is always at least two bytes longer than `void __P0`,
//!   so the function head fits in place;
//! * the observations of thread `i` must come after its last statement and before its
//!   closing brace. The bytes from that brace to the next thread's parameter list (the brace,
//!   the blank line, the next header) are free, but usually too few for the calls, so the
//!   calls are put in a macro, `#define __i __interleave_observe(..);}`, whose definition goes
//!   on its own line into an earlier blank region (normally the header, comment and initial
//!   state at the top of the file), and only the short name `__i` replaces the brace;
//! * when no earlier region has room for the definition (a test with a one-line header and
//!   a register in its first thread), the calls are written in place after all and the text
//!   after them shifts; each later blank region gives back as many bytes as it can spare, so
//!   the offsets are exact again from the first thread whose preceding blank space absorbed
//!   the shift. The last thread never shifts anything: nothing but the condition follows it.

mod c_text;
mod condition;
mod cursor;
mod model;
mod parse;
pub mod ptx;
#[cfg(test)]
mod tests;
mod translate;

pub use model::{
    CondExpr, LitmusCondition, LitmusDialect, LitmusLocation, LitmusQuantifier, LitmusRegister, LitmusSpace, LitmusTest, LitmusThread, Operand, Relation, Term,
};

pub(crate) use condition::{parse_condition, ConditionNames};
pub(crate) use cursor::Cursor;
pub(crate) use model::place;

use parse::parse_opencl;

use crate::diag::{Diagnostic, Span};

/// The diagnostic code of every problem in a litmus file.
pub(crate) const CODE: &str = "invalid-litmus";
/// The most threads a test may have.
pub const MAX_THREADS: usize = 64;
/// The most shared locations a test may have.
pub const MAX_LOCATIONS: usize = 256;

/// Which litmus dialect `text` is written in: its first word, after blanks and comments, is
/// `OPENCL` or `PTX` (`ptx` too, as Dat3M reads it). `None` when it is neither: the text is
/// no litmus test. The one place that tells; the app and the CLI ask here.
pub fn dialect(text: &str) -> Option<LitmusDialect> {
    let mut c = Cursor::new(text);
    c.skip_trivia().ok()?;
    match c.peek_ident()?.0 {
        "OPENCL" => Some(LitmusDialect::OpenCl),
        "PTX" | "ptx" => Some(LitmusDialect::Ptx),
        _ => None,
    }
}

pub(crate) fn error(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::error(CODE, message).with_span(span, label)
}

/// A span from byte offsets. [`parse`] rejects texts longer than `u32::MAX` first, so the
/// offsets fit.
pub(crate) fn span(start: usize, end: usize) -> Span {
    Span::new(start as u32, end as u32)
}

pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

pub(crate) fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Reads a litmus test of either dialect ([`dialect`] says which; text that is neither is
/// read as OpenCL, whose reader explains what a test starts with).
pub fn parse(text: &str) -> Result<LitmusTest, Diagnostic> {
    match dialect(text) {
        Some(LitmusDialect::Ptx) => ptx::parse(text),
        _ => parse_opencl(text),
    }
}
