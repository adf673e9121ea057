//! Litmus tests: [`dialect`] says which dialect a text is, [`parse`] reads it. This module
//! reads OpenCL litmus tests (the herd/Dat3M format) and translates them into a kernel; PTX
//! tests are [`crate::litmus_ptx`]'s. The final condition's reader and the placement of
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

// The engine reports problems as a plain `Diagnostic` everywhere; a parse fails at most once,
// so the size of the error value costs nothing worth boxing it for.
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, HashSet};

use crate::diag::{Diagnostic, Span};
use crate::scenario::ElemType;

/// The diagnostic code of every problem in a litmus file.
pub(crate) const CODE: &str = "invalid-litmus";
/// The most threads a test may have.
pub const MAX_THREADS: usize = 64;
/// The most shared locations a test may have.
pub const MAX_LOCATIONS: usize = 256;
/// How deeply the final condition may nest parentheses and negations; deeper input is
/// rejected instead of exhausting the stack.
const MAX_CONDITION_DEPTH: usize = 200;

/// A parsed litmus test and the kernel that runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusTest {
    pub name: String,
    /// In initial-state order, then every location a thread declares as a parameter that the
    /// initial state did not list (initial value 0).
    pub locations: Vec<LitmusLocation>,
    /// In file order, which is also numbering order (`P0`, `P1`, ...).
    pub threads: Vec<LitmusThread>,
    /// Every register, in thread order then declaration order; a register's slot (the first
    /// argument of its `__interleave_observe` call) is its index here.
    pub registers: Vec<LitmusRegister>,
    pub condition: LitmusCondition,
    /// OpenCL C source that runs the test (see the module documentation).
    pub kernel_source: String,
    /// Where the test's own text sits in `kernel_source`: (offset there, offset in the
    /// test, length), for each thread's parameters and body.
    pub segments: Vec<(u32, u32, u32)>,
    /// Work-items per work-group of the launch, and the number of work-groups.
    pub local_size: u64,
    pub groups: u64,
    /// The device of each work-group (index = linear work-group id).
    pub group_device: Vec<u32>,
    /// The thread each work-item runs (index = linear global id), or `None` for padding
    /// work-items.
    pub work_item_thread: Vec<Option<usize>>,
    pub dialect: LitmusDialect,
    /// A PTX test's instructions, which lower to the IR directly (`kernel_source` is empty).
    pub ptx: Option<std::rc::Rc<crate::litmus_ptx::PtxCode>>,
}

/// Where a test's threads run: work-groups are the distinct (device, work-group) pairs in
/// that order, a pair's threads taking local ids in file order, and every group as large as
/// the largest (the others padded with work-items that run no thread).
pub(crate) struct Placement {
    pub local_size: u64,
    pub groups: u64,
    pub group_device: Vec<u32>,
    pub work_item_thread: Vec<Option<usize>>,
    /// Each thread's (group, local id).
    pub of_thread: Vec<(usize, usize)>,
}

/// The placement of threads that run in the given (work-group, device) pairs.
pub(crate) fn place(threads: &[(u32, u32)]) -> Placement {
    let mut pairs: BTreeMap<(u32, u32), Vec<usize>> = BTreeMap::new();
    for (t, &(group, device)) in threads.iter().enumerate() {
        pairs.entry((device, group)).or_default().push(t);
    }
    let local_size = pairs.values().map(Vec::len).max().unwrap_or(1);
    let mut of_thread = vec![(0usize, 0usize); threads.len()];
    let mut work_item_thread = vec![None; pairs.len() * local_size];
    let mut group_device = Vec::with_capacity(pairs.len());
    for (g, ((device, _), members)) in pairs.iter().enumerate() {
        group_device.push(*device);
        for (l, &t) in members.iter().enumerate() {
            of_thread[t] = (g, l);
            work_item_thread[g * local_size + l] = Some(t);
        }
    }
    Placement { local_size: local_size as u64, groups: pairs.len() as u64, group_device, work_item_thread, of_thread }
}

/// Which memory a location lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitmusSpace {
    Global,
    Local,
}

/// A shared location: a kernel parameter of `__litmus`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusLocation {
    pub name: String,
    pub initial: i64,
    pub space: LitmusSpace,
    /// The element type of the first thread parameter that declares it (`atomic_int` and
    /// `int` are both [`ElemType::Int`]); `Int` when no thread declares it.
    pub elem: ElemType,
    /// The name in the initial state, or in the first parameter list that declares it.
    pub span: Span,
}

/// One thread (`P0@wg 0, dev 0 (...) { ... }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusThread {
    /// `P0`, `P1`, ...
    pub name: String,
    pub work_group: u32,
    pub device: u32,
    /// The header `P0@wg 0, dev 0`.
    pub span: Span,
    /// The parameter list, parentheses included.
    pub params: Span,
    /// The body between its braces (braces excluded).
    pub body: Span,
}

/// A register: an integer variable declared at the top level of a thread's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusRegister {
    /// Index into [`LitmusTest::threads`].
    pub thread: usize,
    pub name: String,
    /// The name in its declaration.
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitmusQuantifier {
    Exists,
    NotExists,
    Forall,
}

/// The final condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusCondition {
    pub quantifier: LitmusQuantifier,
    pub expr: CondExpr,
    /// From the quantifier to the end of the expression.
    pub span: Span,
}

/// A proposition over the final state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CondExpr {
    True,
    And(Box<CondExpr>, Box<CondExpr>),
    Or(Box<CondExpr>, Box<CondExpr>),
    Not(Box<CondExpr>),
    /// `term=value`, or `term!=value` when `negated`.
    Eq {
        term: Term,
        value: i64,
        negated: bool,
        span: Span,
    },
    /// Any other comparison: two terms (`P0:r1 == P0:r2`), or an order (`x >= 2`).
    Compare {
        left: Operand,
        relation: Relation,
        right: Operand,
        span: Span,
    },
}

/// One side of a [`CondExpr::Compare`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Term(Term),
    Value(i64),
}

/// How the two sides of a [`CondExpr::Compare`] compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// What an atom of the condition reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `thread` is an index into [`LitmusTest::threads`].
    Register {
        thread: usize,
        name: String,
    },
    Location {
        name: String,
    },
}

impl LitmusCondition {
    /// Whether the expression (ignoring the quantifier) holds, given register and location
    /// values. An atom whose value the callbacks do not know is false (and its negation
    /// true).
    pub fn holds(&self, register: &dyn Fn(usize, &str) -> Option<i64>, location: &dyn Fn(&str) -> Option<i64>) -> bool {
        eval(&self.expr, register, location)
    }
}

fn eval(expr: &CondExpr, register: &dyn Fn(usize, &str) -> Option<i64>, location: &dyn Fn(&str) -> Option<i64>) -> bool {
    match expr {
        CondExpr::True => true,
        CondExpr::And(a, b) => eval(a, register, location) && eval(b, register, location),
        CondExpr::Or(a, b) => eval(a, register, location) || eval(b, register, location),
        CondExpr::Not(a) => !eval(a, register, location),
        CondExpr::Eq { term, value, negated, .. } => term_value(term, register, location).is_some_and(|v| (v == *value) != *negated),
        CondExpr::Compare { left, relation, right, .. } => {
            let side = |o: &Operand| match o {
                Operand::Term(t) => term_value(t, register, location),
                Operand::Value(v) => Some(*v),
            };
            let (Some(a), Some(b)) = (side(left), side(right)) else { return false };
            match relation {
                Relation::Eq => a == b,
                Relation::Ne => a != b,
                Relation::Lt => a < b,
                Relation::Le => a <= b,
                Relation::Gt => a > b,
                Relation::Ge => a >= b,
            }
        }
    }
}

fn term_value(term: &Term, register: &dyn Fn(usize, &str) -> Option<i64>, location: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    match term {
        Term::Register { thread, name } => register(*thread, name),
        Term::Location { name } => location(name),
    }
}

impl LitmusTest {
    /// The span in the test's text of a span in `kernel_source`: exact inside a thread's own
    /// text (which the translation copies, usually to the same offset); generated text maps to
    /// the end of the thread before it.
    pub fn source_span(&self, span: Span) -> Span {
        let map = |offset: u32| -> u32 {
            let mut best = 0;
            for &(out, text, len) in &self.segments {
                if offset >= out && offset <= out + len {
                    return text + (offset - out);
                }
                if offset > out + len {
                    best = text + len;
                }
            }
            best
        };
        let start = map(span.start);
        Span::new(start, map(span.end).max(start))
    }

    /// Whether the translation kept every thread at its offset (then spans need no mapping).
    pub fn offsets_kept(&self) -> bool {
        self.segments.iter().all(|&(out, text, _)| out == text)
    }

    /// The observation slot of register `name` of thread `thread`.
    pub fn register_slot(&self, thread: usize, name: &str) -> Option<u32> {
        let index = self.registers.iter().position(|r| r.thread == thread && r.name == name)?;
        u32::try_from(index).ok()
    }

    /// Whether `text` looks like a litmus test of either dialect (see [`dialect`]).
    pub fn is_litmus(text: &str) -> bool {
        dialect(text).is_some()
    }
}

/// The dialects a litmus test is written in; the first word of the test says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitmusDialect {
    /// `OPENCL <name>`: threads are OpenCL C functions, under the OpenCL 2.0 model.
    OpenCl,
    /// `PTX <name>`: a table of PTX instructions, under the PTX model (see [`crate::litmus_ptx`]).
    Ptx,
}

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

/// A position in the litmus text, for the parts outside the C code.
///
/// The cursor only ever stops on a character boundary: it steps over ASCII bytes and over
/// whole runs that end at an ASCII byte or at the end of the text.
pub(crate) struct Cursor<'a> {
    pub text: &'a str,
    pub bytes: &'a [u8],
    pub pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Cursor<'a> {
        Cursor { text, bytes: text.as_bytes(), pos: 0 }
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(crate) fn peek_at(&self, k: usize) -> Option<u8> {
        self.bytes.get(self.pos + k).copied()
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    pub(crate) fn starts_with(&self, s: &str) -> bool {
        self.bytes[self.pos.min(self.bytes.len())..].starts_with(s.as_bytes())
    }

    pub(crate) fn eat(&mut self, s: &str) -> bool {
        if self.starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Skips blanks and comments: `(* *)` (which nest, as in herd), `/* */` and `//`.
    pub(crate) fn skip_trivia(&mut self) -> Result<(), Diagnostic> {
        loop {
            while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
                self.pos += 1;
            }
            if self.starts_with("(*") {
                let start = self.pos;
                let mut depth = 0usize;
                loop {
                    if self.eat("(*") {
                        depth += 1;
                    } else if self.eat("*)") {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    } else if self.at_end() {
                        return Err(error(span(start, start + 2), "this comment is never closed", "comment opened here").with_help("close it with `*)`"));
                    } else {
                        self.pos += 1;
                    }
                }
            } else if self.starts_with("/*") {
                let start = self.pos;
                self.pos += 2;
                loop {
                    if self.eat("*/") {
                        break;
                    } else if self.at_end() {
                        return Err(error(span(start, start + 2), "this comment is never closed", "comment opened here").with_help("close it with `*/`"));
                    }
                    self.pos += 1;
                }
            } else if self.starts_with("//") {
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.pos += 1;
                }
            } else {
                return Ok(());
            }
        }
    }

    /// The identifier at the cursor, without consuming it.
    pub(crate) fn peek_ident(&self) -> Option<(&'a str, Span)> {
        let start = self.pos;
        if !self.peek().is_some_and(is_ident_start) {
            return None;
        }
        let mut end = start;
        while self.bytes.get(end).copied().is_some_and(is_ident_byte) {
            end += 1;
        }
        Some((&self.text[start..end], span(start, end)))
    }

    pub(crate) fn ident(&mut self) -> Option<(&'a str, Span)> {
        let (word, s) = self.peek_ident()?;
        self.pos = s.end as usize;
        Some((word, s))
    }

    /// Consumes `word` if the identifier at the cursor is exactly that word.
    pub(crate) fn eat_word(&mut self, word: &str) -> bool {
        match self.peek_ident() {
            Some((w, s)) if w == word => {
                self.pos = s.end as usize;
                true
            }
            _ => false,
        }
    }

    /// The extent of the token at the cursor, for messages: a word, one character, or an
    /// empty span at the end of the text.
    pub(crate) fn found_span(&self) -> Span {
        let start = self.pos.min(self.bytes.len());
        if let Some((_, s)) = self.peek_ident() {
            return s;
        }
        if self.peek().is_some_and(|b| b.is_ascii_digit()) {
            let mut end = start;
            while self.bytes.get(end).copied().is_some_and(is_ident_byte) {
                end += 1;
            }
            return span(start, end);
        }
        let len = self.text.get(start..).and_then(|rest| rest.chars().next()).map_or(0, char::len_utf8);
        span(start, start + len)
    }

    /// The token at the cursor, quoted, or "the end of the file".
    pub(crate) fn found(&self) -> String {
        let s = self.found_span();
        match self.text.get(s.start as usize..s.end as usize) {
            Some(t) if !t.is_empty() => format!("`{}`", t.escape_debug()),
            _ => "the end of the file".to_string(),
        }
    }

    /// An unsigned integer literal (decimal, or hexadecimal after `0x`).
    pub(crate) fn unsigned(&mut self) -> Result<Option<(u64, Span)>, Diagnostic> {
        if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return Ok(None);
        }
        let s = self.found_span();
        self.pos = s.end as usize;
        let literal = &self.text[s.start as usize..s.end as usize];
        let parsed = match literal.strip_prefix("0x").or_else(|| literal.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => literal.parse::<u64>(),
        };
        match parsed {
            Ok(v) => Ok(Some((v, s))),
            Err(e) if matches!(e.kind(), std::num::IntErrorKind::PosOverflow) => Err(error(s, format!("the number `{literal}` is too large"), "too large")),
            Err(_) => Err(error(s, format!("`{literal}` is not a number"), "not a number")),
        }
    }

    /// A signed integer value, as in `[x]=-1` or `1:r0=2`.
    pub(crate) fn value(&mut self, context: &str) -> Result<(i64, Span), Diagnostic> {
        let start = self.pos;
        let negative = if self.eat("-") {
            true
        } else {
            self.eat("+");
            false
        };
        let Some((magnitude, digits)) = self.unsigned()? else {
            return Err(error(self.found_span(), format!("expected an integer value {context}, found {}", self.found()), "expected an integer"));
        };
        let s = span(start, digits.end as usize);
        let value = if negative { 0i64.checked_sub_unsigned(magnitude) } else { i64::try_from(magnitude).ok() };
        value.map(|v| (v, s)).ok_or_else(|| error(s, "the value does not fit in 64 bits", "out of range"))
    }
}

/// A thread as read from the text, before the test is assembled.
struct ThreadSyntax {
    index: usize,
    header: Span,
    work_group: u32,
    device: u32,
    /// Offset of the `(` of the parameter list.
    params_open: usize,
    /// Offset one past the `)` of the parameter list.
    params_end: usize,
    params: Vec<Param>,
    /// Offset of the body's `{` and of its closing `}`.
    body_open: usize,
    body_close: usize,
    registers: Vec<(String, Span)>,
}

/// A thread parameter: a pointer to a location.
struct Param {
    name: String,
    span: Span,
    space: LitmusSpace,
    elem: ElemType,
    /// The declared type, as a cast: `(volatile global int*)`.
    cast: String,
}

/// An entry of the initial state.
struct InitEntry {
    name: String,
    span: Span,
    value: i64,
    elem: Option<ElemType>,
}

/// Reads a litmus test of either dialect ([`dialect`] says which; text that is neither is
/// read as OpenCL, whose reader explains what a test starts with).
pub fn parse(text: &str) -> Result<LitmusTest, Diagnostic> {
    match dialect(text) {
        Some(LitmusDialect::Ptx) => crate::litmus_ptx::parse(text),
        _ => parse_opencl(text),
    }
}

/// Reads an OpenCL litmus test and translates it (see the module documentation).
fn parse_opencl(text: &str) -> Result<LitmusTest, Diagnostic> {
    if u32::try_from(text.len()).is_err() {
        return Err(Diagnostic::error(CODE, "the litmus file is too large (4 GiB at most)"));
    }
    let mut c = Cursor::new(text);
    c.skip_trivia()?;
    let name = parse_name(&mut c)?;
    c.skip_trivia()?;
    let init = if c.peek() == Some(b'{') { parse_init(&mut c)? } else { Vec::new() };
    c.skip_trivia()?;
    let mut threads: Vec<ThreadSyntax> = Vec::new();
    while c.peek() == Some(b'P') && c.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
        threads.push(parse_thread(&mut c, threads.len())?);
        c.skip_trivia()?;
    }
    if threads.is_empty() {
        let message = format!("expected a thread such as `P0@wg 0, dev 0 (global atomic_int* x) {{ ... }}`, found {}", c.found());
        return Err(error(c.found_span(), message, "expected the first thread").with_note("a litmus test needs at least one thread"));
    }
    let locations = collect_locations(&init, &threads)?;
    let registers: Vec<LitmusRegister> =
        threads.iter().flat_map(|t| t.registers.iter().map(|(name, s)| LitmusRegister { thread: t.index, name: name.clone(), span: *s })).collect();
    let condition = parse_condition(&mut c, &OpenClNames { threads: &threads, locations: &locations })?;
    c.skip_trivia()?;
    if !c.at_end() {
        return Err(error(c.found_span(), format!("unexpected {} after the final condition", c.found()), "unexpected text")
            .with_note("the final condition ends the test"));
    }

    let placed = place(&threads.iter().map(|t| (t.work_group, t.device)).collect::<Vec<_>>());
    let (kernel_source, segments) = translate(text, &threads, &registers, &locations, &placed.of_thread);
    Ok(LitmusTest {
        name,
        locations,
        threads: threads
            .iter()
            .map(|t| LitmusThread {
                name: format!("P{}", t.index),
                work_group: t.work_group,
                device: t.device,
                span: t.header,
                params: span(t.params_open, t.params_end),
                body: span(t.body_open + 1, t.body_close),
            })
            .collect(),
        registers,
        condition,
        kernel_source,
        segments,
        local_size: placed.local_size,
        groups: placed.groups,
        group_device: placed.group_device,
        work_item_thread: placed.work_item_thread,
        dialect: LitmusDialect::OpenCl,
        ptx: None,
    })
}

/// `OPENCL <name>`: the name is the run of non-blank characters after the keyword.
fn parse_name(c: &mut Cursor) -> Result<String, Diagnostic> {
    if !c.eat_word("OPENCL") {
        return Err(error(
            c.found_span(),
            format!("a litmus test starts with `OPENCL <name>` or `PTX <name>`, found {}", c.found()),
            "expected `OPENCL` or `PTX`",
        ));
    }
    let keyword_end = c.pos;
    while c.peek().is_some_and(|b| b == b' ' || b == b'\t') {
        c.pos += 1;
    }
    let start = c.pos;
    while c.peek().is_some_and(|b| !b.is_ascii_whitespace()) {
        c.pos += 1;
    }
    if start == c.pos {
        return Err(error(span(keyword_end - 6, keyword_end), "expected the test's name after `OPENCL`", "no name follows")
            .with_help("write the name on the same line, e.g. `OPENCL MP`"));
    }
    Ok(c.text[start..c.pos].to_string())
}

/// Type words that may precede a location in the initial state (`int x = 0;`).
fn init_type_word(word: &str) -> bool {
    matches!(
        word,
        "int"
            | "uint"
            | "long"
            | "ulong"
            | "unsigned"
            | "signed"
            | "atomic_int"
            | "atomic_uint"
            | "atomic_long"
            | "atomic_ulong"
            | "global"
            | "__global"
            | "local"
            | "__local"
            | "volatile"
            | "const"
    )
}

/// The element type a sequence of type words names, if it is one of the location types.
fn elem_of_words(words: &[&str]) -> Option<ElemType> {
    let unsigned = words.contains(&"unsigned");
    let base = words.iter().rev().find(|w| !matches!(**w, "unsigned" | "signed"));
    Some(match base.copied() {
        None if unsigned => ElemType::UInt,
        Some("int") | Some("atomic_int") if !unsigned => ElemType::Int,
        Some("int") if unsigned => ElemType::UInt,
        Some("uint") | Some("atomic_uint") => ElemType::UInt,
        Some("long") | Some("atomic_long") if !unsigned => ElemType::Long,
        Some("long") if unsigned => ElemType::ULong,
        Some("ulong") | Some("atomic_ulong") => ElemType::ULong,
        _ => return None,
    })
}

/// `{ [x]=0; y=1; int z=2; }`.
fn parse_init(c: &mut Cursor) -> Result<Vec<InitEntry>, Diagnostic> {
    let open = c.pos;
    c.pos += 1;
    let mut entries: Vec<InitEntry> = Vec::new();
    loop {
        c.skip_trivia()?;
        if c.eat("}") {
            return Ok(entries);
        }
        if c.at_end() {
            return Err(error(span(open, open + 1), "the initial state is never closed", "opened here").with_help("close it with `}`"));
        }
        let entry_start = c.pos;
        if c.peek().is_some_and(|b| b.is_ascii_digit()) {
            let mut end = c.pos;
            while c.bytes.get(end).is_some_and(|&b| b != b';' && b != b'}' && b != b'\n') {
                end += 1;
            }
            return Err(error(span(entry_start, end), "initial register values are not supported", "a register's initial value")
                .with_help("initialise the register in the thread's body, e.g. `int r0 = 1;`"));
        }
        // Optional type words, then `[x]` or `x`.
        let mut words = Vec::new();
        while let Some((word, s)) = c.peek_ident() {
            if !init_type_word(word) {
                break;
            }
            let save = c.pos;
            c.pos = s.end as usize;
            c.skip_trivia()?;
            if c.peek_ident().is_some() || c.peek() == Some(b'[') {
                words.push(word);
            } else {
                // The word is the location's name after all (a location called `local`).
                c.pos = save;
                break;
            }
        }
        let bracketed = c.eat("[");
        if bracketed {
            c.skip_trivia()?;
        }
        let Some((name, name_span)) = c.ident() else {
            return Err(error(c.found_span(), format!("expected a location name in the initial state, found {}", c.found()), "expected a name")
                .with_help("write the initial state as `{ [x]=0; [y]=0; }`"));
        };
        if bracketed {
            c.skip_trivia()?;
            if !c.eat("]") {
                return Err(error(c.found_span(), format!("expected `]` after `[{name}`, found {}", c.found()), "expected `]`"));
            }
        }
        c.skip_trivia()?;
        if !c.eat("=") {
            return Err(error(c.found_span(), format!("expected `=` and a value after the location `{name}`, found {}", c.found()), "expected `=`"));
        }
        c.skip_trivia()?;
        let (value, _) = c.value(&format!("for `{name}`"))?;
        let elem = if words.is_empty() {
            None
        } else {
            let types: Vec<&str> =
                words.iter().copied().filter(|w| !matches!(*w, "global" | "__global" | "local" | "__local" | "volatile" | "const")).collect();
            match elem_of_words(&types) {
                Some(e) => Some(e),
                None if types.is_empty() => None,
                None => {
                    return Err(error(span(entry_start, name_span.start as usize), "unsupported type in the initial state", "this type")
                        .with_note("litmus locations have type int, uint, long or ulong"))
                }
            }
        };
        if let Some(first) = entries.iter().find(|e| e.name == name) {
            return Err(error(name_span, format!("the location `{name}` is initialised twice"), "initialised again here")
                .with_label(first.span, "first initialised here"));
        }
        entries.push(InitEntry { name: name.to_string(), span: name_span, value, elem });
        c.skip_trivia()?;
        if c.eat(";") {
            continue;
        }
        if c.peek() != Some(b'}') {
            return Err(error(c.found_span(), format!("expected `;` or `}}` after the initial value of `{name}`, found {}", c.found()), "expected `;`"));
        }
    }
}

/// `P0@wg 0, dev 0 (<params>) { <body> }`, expected to be thread number `expected`.
fn parse_thread(c: &mut Cursor, expected: usize) -> Result<ThreadSyntax, Diagnostic> {
    let start = c.pos;
    c.pos += 1;
    let Some((number, digits)) = c.unsigned()? else {
        return Err(error(c.found_span(), "expected a thread number after `P`", "expected a number"));
    };
    let name_span = span(start, digits.end as usize);
    let name = format!("P{number}");
    if number < expected as u64 {
        return Err(error(name_span, format!("thread {name} is declared twice"), "declared again here"));
    }
    if number > expected as u64 {
        return Err(error(name_span, format!("expected thread P{expected} here, found {name}"), format!("expected P{expected}"))
            .with_note("threads are numbered P0, P1, ... in the order they appear"));
    }
    if expected >= MAX_THREADS {
        return Err(error(name_span, format!("a litmus test may have at most {MAX_THREADS} threads"), "one thread too many"));
    }
    let header_help = "a thread starts with a header such as `P0@wg 0, dev 0`";
    c.skip_trivia()?;
    if !(c.eat("@") && {
        let _ = c.skip_trivia();
        c.eat("wg")
    }) {
        return Err(
            error(c.found_span(), format!("expected `@wg` after the thread name `{name}`, found {}", c.found()), "expected `@wg`").with_help(header_help)
        );
    }
    c.skip_trivia()?;
    let work_group = header_number(c, &format!("the work-group number after `@wg` in the header of {name}"))?;
    c.skip_trivia()?;
    if !(c.eat(",") && {
        let _ = c.skip_trivia();
        c.eat("dev")
    }) {
        return Err(error(c.found_span(), format!("expected `, dev <n>` after the work-group of {name}, found {}", c.found()), "expected `, dev`")
            .with_help(header_help));
    }
    c.skip_trivia()?;
    let device = header_number(c, &format!("the device number after `dev` in the header of {name}"))?;
    let header = span(start, c.pos);
    c.skip_trivia()?;
    if c.peek() != Some(b'(') {
        return Err(error(c.found_span(), format!("expected `(` to open the parameter list of {name}, found {}", c.found()), "expected `(`"));
    }
    let params_open = c.pos;
    let Some(params_close) = c_match(c.bytes, params_open, b'(', b')') else {
        return Err(
            error(span(params_open, params_open + 1), format!("the parameter list of {name} is never closed"), "opened here").with_help("close it with `)`")
        );
    };
    let params = parse_params(c.text, params_open + 1, params_close, &name)?;
    c.pos = params_close + 1;
    c.pos = skip_c_trivia(c.bytes, c.pos);
    if c.peek() != Some(b'{') {
        return Err(error(c.found_span(), format!("expected `{{` to open the body of {name}, found {}", c.found()), "expected `{`"));
    }
    let body_open = c.pos;
    let Some(body_close) = c_match(c.bytes, body_open, b'{', b'}') else {
        return Err(error(span(body_open, body_open + 1), format!("the body of {name} has no closing `}}`"), "opened here")
            .with_help("check that the braces in the body balance"));
    };
    c.pos = body_close + 1;
    let registers = scan_registers(c.text, body_open + 1, body_close);
    Ok(ThreadSyntax { index: expected, header, work_group, device, params_open, params_end: params_close + 1, params, body_open, body_close, registers })
}

fn header_number(c: &mut Cursor, what: &str) -> Result<u32, Diagnostic> {
    match c.unsigned()? {
        Some((v, s)) => u32::try_from(v).map_err(|_| error(s, format!("{what} is too large"), "too large")),
        None => Err(error(c.found_span(), format!("expected {what}, found {}", c.found()), "expected a number")),
    }
}

/// Skips C blanks and comments from `pos`; an unclosed `/*` runs to the end.
fn skip_c_trivia(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        while bytes.get(pos).is_some_and(|b| b.is_ascii_whitespace()) {
            pos += 1;
        }
        if bytes[pos.min(bytes.len())..].starts_with(b"//") {
            while bytes.get(pos).is_some_and(|&b| b != b'\n') {
                pos += 1;
            }
        } else if bytes[pos.min(bytes.len())..].starts_with(b"/*") {
            pos = skip_block_comment(bytes, pos);
        } else {
            return pos;
        }
    }
}

/// The offset after the `/* */` comment at `pos` (the end of the text if it is unclosed).
fn skip_block_comment(bytes: &[u8], pos: usize) -> usize {
    let mut p = pos + 2;
    while p < bytes.len() {
        if bytes[p] == b'*' && bytes.get(p + 1) == Some(&b'/') {
            return p + 2;
        }
        p += 1;
    }
    bytes.len()
}

/// The offset after the string or character literal opening at `pos`.
fn skip_literal(bytes: &[u8], pos: usize) -> usize {
    let quote = bytes[pos];
    let mut p = pos + 1;
    while p < bytes.len() {
        match bytes[p] {
            b'\\' => p += 2,
            b'\n' => return p,
            b if b == quote => return p + 1,
            _ => p += 1,
        }
    }
    bytes.len()
}

/// The offset of the `close` that matches the `open` at `pos`, skipping C comments and
/// literals, or `None` if the text ends first.
fn c_match(bytes: &[u8], pos: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    let mut p = pos;
    while p < bytes.len() {
        let b = bytes[p];
        if b == b'/' && bytes.get(p + 1) == Some(&b'/') {
            while p < bytes.len() && bytes[p] != b'\n' {
                p += 1;
            }
            continue;
        }
        if b == b'/' && bytes.get(p + 1) == Some(&b'*') {
            p = skip_block_comment(bytes, p);
            continue;
        }
        if b == b'"' || b == b'\'' {
            p = skip_literal(bytes, p);
            continue;
        }
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Some(p);
            }
        }
        p += 1;
    }
    None
}

/// A token of the C text in parameter lists and bodies; enough to find declarations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CKind {
    Ident,
    Number,
    Punct,
}

#[derive(Clone, Copy, Debug)]
struct CToken {
    kind: CKind,
    start: usize,
    end: usize,
}

/// Tokens of `text[start..end]`, skipping comments, literals and preprocessor lines.
fn c_tokens(text: &str, start: usize, end: usize) -> Vec<CToken> {
    let bytes = &text.as_bytes()[..end.min(text.len())];
    let mut out = Vec::new();
    let mut p = start;
    let mut line_start = true;
    while p < bytes.len() {
        let b = bytes[p];
        if b == b'\n' {
            line_start = true;
            p += 1;
            continue;
        }
        if b.is_ascii_whitespace() {
            p += 1;
            continue;
        }
        let first_on_line = line_start;
        line_start = false;
        if b == b'/' && bytes.get(p + 1) == Some(&b'/') || b == b'#' && first_on_line {
            while p < bytes.len() && bytes[p] != b'\n' {
                p += 1;
            }
        } else if b == b'/' && bytes.get(p + 1) == Some(&b'*') {
            p = skip_block_comment(bytes, p);
        } else if b == b'"' {
            p = skip_literal(bytes, p);
        } else if b == b'\'' {
            let s = p;
            p = skip_literal(bytes, p);
            out.push(CToken { kind: CKind::Number, start: s, end: p });
        } else if is_ident_start(b) || b.is_ascii_digit() {
            let s = p;
            while p < bytes.len() && (is_ident_byte(bytes[p]) || bytes[p] == b'.') {
                p += 1;
            }
            let kind = if b.is_ascii_digit() { CKind::Number } else { CKind::Ident };
            out.push(CToken { kind, start: s, end: p });
        } else {
            // One character; a non-ASCII one whole, so every token is a valid slice.
            let len = text.get(p..).and_then(|rest| rest.chars().next()).map_or(1, char::len_utf8);
            out.push(CToken { kind: CKind::Punct, start: p, end: p + len });
            p += len;
        }
    }
    out
}

fn tok_text<'a>(text: &'a str, t: &CToken) -> &'a str {
    text.get(t.start..t.end).unwrap_or("")
}

fn is_punct(text: &str, tokens: &[CToken], i: usize, p: &str) -> bool {
    tokens.get(i).is_some_and(|t| t.kind == CKind::Punct && tok_text(text, t) == p)
}

fn is_ident(tokens: &[CToken], i: usize) -> bool {
    tokens.get(i).is_some_and(|t| t.kind == CKind::Ident)
}

/// The parameters in `text[start..end]` (inside the parentheses).
fn parse_params(text: &str, start: usize, end: usize, thread: &str) -> Result<Vec<Param>, Diagnostic> {
    let tokens = c_tokens(text, start, end);
    if tokens.is_empty() || (tokens.len() == 1 && tok_text(text, &tokens[0]) == "void") {
        return Ok(Vec::new());
    }
    let mut params: Vec<Param> = Vec::new();
    for decl in tokens.split(|t| t.kind == CKind::Punct && tok_text(text, t) == ",") {
        let (Some(first), Some(last)) = (decl.first(), decl.last()) else {
            let at = span(start, end);
            return Err(error(at, format!("the parameter list of {thread} has an empty parameter"), "empty parameter"));
        };
        let decl_span = span(first.start, last.end);
        let decl_text = text.get(first.start..last.end).unwrap_or("");
        if last.kind != CKind::Ident {
            return Err(error(decl_span, format!("expected a parameter name at the end of `{decl_text}` in {thread}"), "expected a name"));
        }
        let name = tok_text(text, last).to_string();
        let name_span = span(last.start, last.end);
        let mut space = None;
        let mut stars = 0;
        let mut type_words = Vec::new();
        let mut cast = String::new();
        for t in &decl[..decl.len() - 1] {
            let word = tok_text(text, t);
            match (t.kind, word) {
                (CKind::Punct, "*") => {
                    stars += 1;
                    cast.push('*');
                    continue;
                }
                (CKind::Ident, "global" | "__global") => space = Some(LitmusSpace::Global),
                (CKind::Ident, "local" | "__local") => space = Some(LitmusSpace::Local),
                (CKind::Ident, "constant" | "__constant" | "private" | "__private" | "generic" | "__generic") => {
                    return Err(error(span(t.start, t.end), format!("the location `{name}` of {thread} is declared `{word}`"), "not global or local")
                        .with_note("a litmus location lives in global or local memory"));
                }
                (CKind::Ident, "volatile" | "const" | "restrict" | "__restrict") => {}
                (CKind::Ident, "int" | "uint" | "long" | "ulong" | "unsigned" | "signed" | "atomic_int" | "atomic_uint" | "atomic_long" | "atomic_ulong") => {
                    type_words.push(word)
                }
                (CKind::Ident, _) => {
                    return Err(error(span(t.start, t.end), format!("unsupported type `{word}` for the location `{name}` of {thread}"), "unsupported type")
                        .with_note("litmus locations have type int, uint, long or ulong, or their atomic_ forms"));
                }
                _ => {
                    return Err(error(span(t.start, t.end), format!("unexpected `{word}` in the parameter `{decl_text}` of {thread}"), "unexpected")
                        .with_help("a parameter looks like `global atomic_int* x`"));
                }
            }
            if !cast.is_empty() {
                cast.push(' ');
            }
            cast.push_str(word);
        }
        if stars == 0 {
            return Err(error(decl_span, format!("the parameter `{name}` of {thread} is not a pointer"), "not a pointer")
                .with_help(format!("litmus thread parameters are pointers to shared locations, e.g. `global atomic_int* {name}`")));
        }
        if stars > 1 {
            return Err(error(decl_span, format!("the parameter `{name}` of {thread} is a pointer to a pointer"), "not a location")
                .with_help(format!("litmus thread parameters are pointers to shared locations, e.g. `global atomic_int* {name}`")));
        }
        let Some(elem) = elem_of_words(&type_words) else {
            return Err(error(decl_span, format!("the parameter `{name}` of {thread} has no supported element type"), "expected a type")
                .with_note("litmus locations have type int, uint, long or ulong, or their atomic_ forms"));
        };
        if let Some(first) = params.iter().find(|p| p.name == name) {
            return Err(error(name_span, format!("{thread} declares the parameter `{name}` twice"), "declared again here")
                .with_label(first.span, "first declared here"));
        }
        params.push(Param { name, span: name_span, space: space.unwrap_or(LitmusSpace::Global), elem, cast: format!("({cast})") });
    }
    Ok(params)
}

/// Words that may start the declaration of a register, and whether each names a type.
fn decl_word(word: &str) -> Option<bool> {
    match word {
        "const" | "volatile" | "private" | "__private" | "register" => Some(false),
        "int" | "uint" | "long" | "ulong" | "short" | "ushort" | "char" | "uchar" | "bool" | "_Bool" | "unsigned" | "signed" => Some(true),
        _ => None,
    }
}

/// The registers of the body `text[start..end]`: the integer variables declared at its top
/// level (not in nested blocks, not pointers or arrays), in declaration order.
fn scan_registers(text: &str, start: usize, end: usize) -> Vec<(String, Span)> {
    let tokens = c_tokens(text, start, end);
    let mut registers: Vec<(String, Span)> = Vec::new();
    let mut depth = 0usize;
    let mut parens = 0usize;
    let mut statement_start = true;
    let mut i = 0;
    while i < tokens.len() {
        if depth == 0 && parens == 0 && statement_start {
            // Labels (`B1: barrier(...)`) only name the statement after them.
            while is_ident(&tokens, i) && is_punct(text, &tokens, i + 1, ":") && !is_punct(text, &tokens, i + 2, ":") {
                i += 2;
            }
            if let Some(next) = declaration(text, &tokens, i, &mut registers) {
                i = next;
                statement_start = true;
                continue;
            }
        }
        let Some(t) = tokens.get(i) else { break };
        statement_start = false;
        if t.kind == CKind::Punct {
            match tok_text(text, t) {
                "{" => {
                    depth += 1;
                    statement_start = true;
                }
                "}" => {
                    depth = depth.saturating_sub(1);
                    statement_start = true;
                }
                "(" => parens += 1,
                ")" => parens = parens.saturating_sub(1),
                ";" => statement_start = parens == 0,
                _ => {}
            }
        }
        i += 1;
    }
    registers
}

/// If an integer declaration starts at token `i`, records its scalar declarators and returns
/// the index after its `;`.
fn declaration(text: &str, tokens: &[CToken], i: usize, registers: &mut Vec<(String, Span)>) -> Option<usize> {
    let mut j = i;
    let mut saw_type = false;
    while let Some(t) = tokens.get(j).filter(|t| t.kind == CKind::Ident) {
        match decl_word(tok_text(text, t)) {
            Some(is_type) => saw_type |= is_type,
            None => break,
        }
        j += 1;
    }
    if !saw_type || !(is_ident(tokens, j) || is_punct(text, tokens, j, "*")) {
        return None;
    }
    loop {
        let mut pointer = false;
        while is_punct(text, tokens, j, "*") {
            pointer = true;
            j += 1;
        }
        let name = tokens.get(j).filter(|t| t.kind == CKind::Ident).copied();
        j += 1;
        let array = is_punct(text, tokens, j, "[");
        if let Some(n) = name {
            let name = tok_text(text, &n).to_string();
            if !pointer && !array && !registers.iter().any(|(r, _)| *r == name) {
                registers.push((name, span(n.start, n.end)));
            }
        }
        // Skip the initializer (or array bounds) up to the next `,` or `;` at this level.
        let mut nesting = 0usize;
        loop {
            let Some(t) = tokens.get(j) else { return Some(j) };
            j += 1;
            if t.kind != CKind::Punct {
                continue;
            }
            match tok_text(text, t) {
                "(" | "[" | "{" => nesting += 1,
                ")" | "]" | "}" => nesting = nesting.saturating_sub(1),
                "," if nesting == 0 => break,
                ";" if nesting == 0 => return Some(j),
                _ => {}
            }
        }
    }
}

/// The locations: the initial state's, then those only thread parameters declare.
fn collect_locations(init: &[InitEntry], threads: &[ThreadSyntax]) -> Result<Vec<LitmusLocation>, Diagnostic> {
    if let Some(extra) = init.get(MAX_LOCATIONS) {
        return Err(error(extra.span, format!("a litmus test may have at most {MAX_LOCATIONS} locations"), "one location too many"));
    }
    let mut locations: Vec<LitmusLocation> = init
        .iter()
        .map(|e| LitmusLocation { name: e.name.clone(), initial: e.value, space: LitmusSpace::Global, elem: e.elem.unwrap_or(ElemType::Int), span: e.span })
        .collect();
    // The first parameter declaring each location, which fixes its space (and its type when
    // the initial state does not).
    let mut declared: Vec<Option<(usize, Span)>> = vec![None; locations.len()];
    for t in threads {
        for p in &t.params {
            let index = match locations.iter().position(|l| l.name == p.name) {
                Some(i) => i,
                None => {
                    if locations.len() >= MAX_LOCATIONS {
                        return Err(error(p.span, format!("a litmus test may have at most {MAX_LOCATIONS} locations"), "one location too many"));
                    }
                    locations.push(LitmusLocation { name: p.name.clone(), initial: 0, space: p.space, elem: p.elem, span: p.span });
                    declared.push(None);
                    locations.len() - 1
                }
            };
            match declared[index] {
                None => {
                    declared[index] = Some((t.index, p.span));
                    locations[index].space = p.space;
                    if init.get(index).is_none_or(|e| e.elem.is_none()) {
                        locations[index].elem = p.elem;
                    }
                }
                Some((first, first_span)) if locations[index].space != p.space => {
                    let space_name = |s: LitmusSpace| if s == LitmusSpace::Global { "global" } else { "local" };
                    return Err(error(
                        p.span,
                        format!(
                            "P{} declares `{}` in {} memory, but P{first} declares it in {} memory",
                            t.index,
                            p.name,
                            space_name(p.space),
                            space_name(locations[index].space)
                        ),
                        "different memory",
                    )
                    .with_label(first_span, "first declared here"));
                }
                Some(_) => {}
            }
        }
    }
    Ok(locations)
}

/// What the final condition's names are resolved against: each dialect declares its
/// registers and locations its own way, and the condition reads them the same way.
pub(crate) trait ConditionNames {
    /// How many threads the test has.
    fn threads(&self) -> usize;
    /// Whether thread `thread` (below [`ConditionNames::threads`]) has a register `name`, or
    /// the diagnostic that says it does not; `atom` is the atom's span.
    fn register(&self, thread: usize, name: &str, atom: Span) -> Result<(), Diagnostic>;
    /// Whether `name` is a location of the test, or the diagnostic that says it is not.
    fn location(&self, name: &str, atom: Span) -> Result<(), Diagnostic>;
    /// What the test may continue with where a condition was expected, for the message when
    /// neither comes.
    fn expected_before_condition(&self) -> String;
}

/// The OpenCL reader's names: registers are the variables a thread's body declares, and a
/// thread's pointer parameters are accepted too (their atoms never hold).
struct OpenClNames<'a> {
    threads: &'a [ThreadSyntax],
    locations: &'a [LitmusLocation],
}

impl ConditionNames for OpenClNames<'_> {
    fn threads(&self) -> usize {
        self.threads.len()
    }

    fn register(&self, thread: usize, name: &str, atom: Span) -> Result<(), Diagnostic> {
        let t = &self.threads[thread];
        if t.registers.iter().any(|(r, _)| r == name) {
            return Ok(());
        }
        if t.params.iter().any(|p| p.name == name) {
            // `0:x` for a pointer parameter `x`: as in herd and Dat3M, the thread's variable `x`
            // holds the location's address, which equals no integer the condition can name, so
            // the atom never holds.
            return Ok(());
        }
        let known = if t.registers.is_empty() {
            format!("P{thread} has no registers")
        } else {
            let names: Vec<String> = t.registers.iter().map(|(r, _)| format!("`{r}`")).collect();
            format!("the registers of P{thread} are {}", names.join(", "))
        };
        Err(error(atom, format!("the condition names register `{name}` of thread {thread}, which P{thread} does not declare"), "unknown register")
            .with_note(known)
            .with_note("a register is an integer variable declared at the top level of the thread's body, e.g. `int r0 = ...;`"))
    }

    fn location(&self, name: &str, atom: Span) -> Result<(), Diagnostic> {
        if self.locations.iter().any(|l| l.name == name) {
            return Ok(());
        }
        Err(error(atom, format!("the condition names location `{name}`, which the test neither initialises nor passes to a thread"), "unknown location"))
    }

    fn expected_before_condition(&self) -> String {
        format!("another thread (`P{}@wg <w>, dev <d> (...) {{ ... }}`) or the final condition (`exists`, `~exists` or `forall`)", self.threads.len())
    }
}

/// The condition's reader: the names it resolves against and how deep it is.
struct Scope<'a> {
    names: &'a dyn ConditionNames,
    depth: usize,
}

/// `exists (...)`, `~exists (...)` (or `not exists`) or `forall (...)`, read from the cursor
/// with `names` (see [`ConditionNames`]).
pub(crate) fn parse_condition(c: &mut Cursor, names: &dyn ConditionNames) -> Result<LitmusCondition, Diagnostic> {
    let start = c.pos;
    let quantifier = if c.eat("~") || c.eat_word("not") {
        c.skip_trivia()?;
        if !c.eat_word("exists") {
            return Err(error(c.found_span(), format!("expected `exists` after the negation, found {}", c.found()), "expected `exists`"));
        }
        LitmusQuantifier::NotExists
    } else if c.eat_word("exists") {
        LitmusQuantifier::Exists
    } else if c.eat_word("forall") {
        LitmusQuantifier::Forall
    } else if c.at_end() {
        return Err(error(c.found_span(), "the test has no final condition", "expected `exists`, `~exists` or `forall`")
            .with_help("end the test with a condition such as `exists (1:r0=1 /\\ x=1)`"));
    } else {
        return Err(error(c.found_span(), format!("expected {}, found {}", names.expected_before_condition(), c.found()), "unexpected here"));
    };
    let mut scope = Scope { names, depth: 0 };
    let expr = parse_or(c, &mut scope)?;
    Ok(LitmusCondition { quantifier, expr, span: span(start, c.pos) })
}

fn parse_or(c: &mut Cursor, scope: &mut Scope) -> Result<CondExpr, Diagnostic> {
    let mut left = parse_and(c, scope)?;
    loop {
        // Blanks after the last operand are not part of the condition's span.
        let end = c.pos;
        c.skip_trivia()?;
        if !c.eat("\\/") {
            c.pos = end;
            return Ok(left);
        }
        let right = parse_and(c, scope)?;
        left = CondExpr::Or(Box::new(left), Box::new(right));
    }
}

fn parse_and(c: &mut Cursor, scope: &mut Scope) -> Result<CondExpr, Diagnostic> {
    let mut left = parse_unary(c, scope)?;
    loop {
        let end = c.pos;
        c.skip_trivia()?;
        if !c.eat("/\\") {
            c.pos = end;
            return Ok(left);
        }
        let right = parse_unary(c, scope)?;
        left = CondExpr::And(Box::new(left), Box::new(right));
    }
}

fn parse_unary(c: &mut Cursor, scope: &mut Scope) -> Result<CondExpr, Diagnostic> {
    c.skip_trivia()?;
    if scope.depth >= MAX_CONDITION_DEPTH {
        return Err(error(c.found_span(), format!("the condition nests more than {MAX_CONDITION_DEPTH} levels deep"), "too deep"));
    }
    let open = c.pos;
    if c.eat("~") || c.eat_word("not") {
        scope.depth += 1;
        let inner = parse_unary(c, scope)?;
        scope.depth -= 1;
        return Ok(CondExpr::Not(Box::new(inner)));
    }
    if c.eat("(") {
        scope.depth += 1;
        let inner = parse_or(c, scope)?;
        scope.depth -= 1;
        c.skip_trivia()?;
        if !c.eat(")") {
            return Err(error(c.found_span(), format!("expected `)` in the condition, found {}", c.found()), "expected `)`")
                .with_label(span(open, open + 1), "to close this"));
        }
        return Ok(inner);
    }
    if c.eat_word("true") {
        return Ok(CondExpr::True);
    }
    if c.eat_word("false") {
        return Ok(CondExpr::Not(Box::new(CondExpr::True)));
    }
    parse_atom(c, scope)
}

const ATOM_EXAMPLE: &str = "a condition atom looks like `1:r0=1` (a register of P1, also written `P1:r0`) or `x=1` (a location)";

/// One side of a comparison: `i:reg` or `Pi:reg`, `loc`, `[loc]` or `loc[0]`, or a value.
fn parse_operand(c: &mut Cursor) -> Result<Operand, Diagnostic> {
    let start = c.pos;
    // `P1:r0`: a thread named as in its header.
    let named_thread = c.peek() == Some(b'P') && c.peek_at(1).is_some_and(|b| b.is_ascii_digit()) && {
        let save = c.pos;
        c.pos += 1;
        let _ = c.unsigned();
        let colon = {
            let _ = c.skip_trivia();
            c.peek() == Some(b':')
        };
        c.pos = save;
        colon
    };
    if named_thread {
        c.pos += 1;
    }
    let thread_colon = named_thread
        || (c.peek().is_some_and(|b| b.is_ascii_digit()) && {
            let save = c.pos;
            let _ = c.unsigned();
            let colon = {
                let _ = c.skip_trivia();
                c.peek() == Some(b':')
            };
            c.pos = save;
            colon
        });
    if thread_colon {
        let (thread, _) = c.unsigned()?.expect("a thread number was seen");
        c.skip_trivia()?;
        c.eat(":");
        c.skip_trivia()?;
        let Some((name, _)) = c.ident() else {
            return Err(error(
                c.found_span(),
                format!("expected a register name after `{}:`, found {}", &c.text[start..c.pos].trim_end_matches(':').trim(), c.found()),
                "expected a register",
            )
            .with_help(ATOM_EXAMPLE));
        };
        let name = name.to_string();
        // The thread is checked once the whole atom is read (`parse_atom`).
        let thread = usize::try_from(thread).unwrap_or(usize::MAX);
        return Ok(Operand::Term(Term::Register { thread, name }));
    }
    if c.peek().is_some_and(|b| b.is_ascii_digit() || b == b'-' || b == b'+') {
        let (value, _) = c.value("in the condition")?;
        return Ok(Operand::Value(value));
    }
    let name = if c.eat("[") {
        c.skip_trivia()?;
        let Some((name, _)) = c.ident() else {
            return Err(error(c.found_span(), format!("expected a location name after `[`, found {}", c.found()), "expected a location"));
        };
        c.skip_trivia()?;
        if !c.eat("]") {
            return Err(error(c.found_span(), format!("expected `]` after `[{name}`, found {}", c.found()), "expected `]`"));
        }
        name
    } else if let Some((name, _)) = c.ident() {
        let after_name = c.pos;
        c.skip_trivia()?;
        if c.peek() == Some(b'[') {
            let index_start = c.pos;
            c.pos += 1;
            c.skip_trivia()?;
            let index = c.unsigned()?;
            c.skip_trivia()?;
            if !c.eat("]") {
                return Err(error(c.found_span(), format!("expected `]` after the index of `{name}`, found {}", c.found()), "expected `]`"));
            }
            if index.map(|(k, _)| k) != Some(0) {
                return Err(error(span(index_start, c.pos), format!("elements of `{name}` other than the first are not supported"), "an element index")
                    .with_note("litmus locations are single values; `x[0]` is `x`"));
            }
        } else {
            c.pos = after_name;
        }
        name
    } else {
        return Err(error(c.found_span(), format!("expected a condition such as `1:r0=1` or `x=1`, found {}", c.found()), "expected a condition"));
    };
    Ok(Operand::Term(Term::Location { name: name.to_string() }))
}

/// `a = b`, `a == b`, `a != b`, `a < b`, `a <= b`, `a > b` or `a >= b`, where each side is a
/// register, a location or a value.
fn parse_atom(c: &mut Cursor, scope: &Scope) -> Result<CondExpr, Diagnostic> {
    let start = c.pos;
    let left = parse_operand(c)?;
    let term_end = c.pos;
    c.skip_trivia()?;
    let relation = if c.eat("!=") {
        Relation::Ne
    } else if c.eat("==") || c.eat("=") {
        Relation::Eq
    } else if c.eat("<=") {
        Relation::Le
    } else if c.eat(">=") {
        Relation::Ge
    } else if c.eat("<") {
        Relation::Lt
    } else if c.eat(">") {
        Relation::Gt
    } else {
        let term = &c.text[start..term_end];
        return Err(error(c.found_span(), format!("expected `=` and a value after `{term}`, found {}", c.found()), "expected `=`").with_help(ATOM_EXAMPLE));
    };
    c.skip_trivia()?;
    let right = parse_operand(c)?;
    let atom = span(start, c.pos);
    // Registers are checked once the whole atom is read, so the message can show it.
    for operand in [&left, &right] {
        if let Operand::Term(Term::Register { thread, name }) = operand {
            let count = scope.names.threads();
            if *thread >= count {
                let threads = if count == 1 { "only one thread, P0".to_string() } else { format!("only {count} threads, P0 to P{}", count - 1) };
                let named = if *thread == usize::MAX { "a thread".to_string() } else { format!("thread {thread}") };
                return Err(error(atom, format!("the condition names {named}, but the test has {threads}"), "no such thread"));
            }
            scope.names.register(*thread, name, atom)?;
        }
        if let Operand::Term(Term::Location { name }) = operand {
            scope.names.location(name, atom)?;
        }
    }
    Ok(match (left, relation, right) {
        (Operand::Term(term), Relation::Eq | Relation::Ne, Operand::Value(value))
        | (Operand::Value(value), Relation::Eq | Relation::Ne, Operand::Term(term)) => {
            CondExpr::Eq { term, value, negated: relation == Relation::Ne, span: atom }
        }
        (left, relation, right) => CondExpr::Compare { left, relation, right, span: atom },
    })
}

/// A stretch of the litmus text that is not C and is rewritten: what must appear in it, in
/// order, with blanks around.
#[derive(Clone, Debug)]
struct Region {
    start: usize,
    end: usize,
    /// What ends the previous thread's body: `}`, the observation calls and `}`, or the
    /// name of a macro holding them. Empty at the top of the file.
    close: String,
    /// `#define` lines, each on its own line.
    directives: Vec<String>,
    /// The next thread's function head, `void __P1`, right before its parameter list; empty
    /// after the last thread.
    head: String,
}

impl Region {
    /// The region's text, at least `target` bytes long when there is room, newlines first so
    /// the line count stays that of the original (up to `newlines` of them).
    fn layout(&self, at_line_start: bool, after_ident: bool, target: usize, newlines: usize) -> String {
        let mut s = String::new();
        if !self.close.is_empty() {
            if after_ident {
                s.push(' ');
            }
            s.push_str(&self.close);
        }
        if !self.directives.is_empty() {
            if !s.is_empty() || !at_line_start {
                s.push('\n');
            }
            for d in &self.directives {
                s.push_str(d);
                s.push('\n');
            }
        }
        let needs_separator = !s.is_empty() && !s.ends_with('\n') && !self.head.is_empty();
        let gap = target.saturating_sub(s.len() + self.head.len()).max(usize::from(needs_separator));
        let newlines = newlines.saturating_sub(s.matches('\n').count()).min(gap);
        s.extend(std::iter::repeat_n('\n', newlines));
        s.extend(std::iter::repeat_n(' ', gap - newlines));
        s.push_str(&self.head);
        s
    }

    /// Whether the region's content fits in its original length (assuming nothing before it
    /// shifted).
    fn fits(&self, bytes: &[u8]) -> bool {
        let at_line_start = self.start == 0 || bytes.get(self.start - 1) == Some(&b'\n');
        let after_ident = self.start > 0 && bytes.get(self.start - 1).copied().is_some_and(is_ident_byte);
        self.layout(at_line_start, after_ident, 0, 0).len() <= self.end - self.start
    }
}

/// Adds `directive` to `region` if the region still fits its original length with it.
fn add_if_it_fits(region: &mut Region, directive: &str, bytes: &[u8]) -> bool {
    region.directives.push(directive.to_string());
    let fits = region.fits(bytes);
    if !fits {
        region.directives.pop();
    }
    fits
}

/// Builds `kernel_source` (see the module documentation).
fn translate(
    text: &str,
    threads: &[ThreadSyntax],
    registers: &[LitmusRegister],
    locations: &[LitmusLocation],
    placement: &[(usize, usize)],
) -> (String, Vec<(u32, u32, u32)>) {
    let mut segments = Vec::with_capacity(threads.len());
    let bytes = text.as_bytes();
    let n = threads.len();
    let observations = |t: usize| -> String {
        registers.iter().enumerate().filter(|(_, r)| r.thread == t).map(|(slot, r)| format!("__interleave_observe({slot},{});", r.name)).collect()
    };
    // Region 0 is the top of the file up to P0's parameter list; region t + 1 runs from the
    // closing brace of thread t to the parameter list of thread t + 1.
    let mut regions = Vec::with_capacity(n);
    regions.push(Region { start: 0, end: threads[0].params_open, close: String::new(), directives: Vec::new(), head: "void __P0".into() });
    for t in 0..n - 1 {
        regions.push(Region {
            start: threads[t].body_close,
            end: threads[t + 1].params_open,
            close: "}".into(),
            directives: Vec::new(),
            head: format!("void __P{}", t + 1),
        });
    }
    // Macro names must not capture an identifier of the test's own code.
    let used: HashSet<&str> = c_tokens(text, 0, text.len()).iter().filter(|t| t.kind == CKind::Ident).map(|t| tok_text(text, t)).collect();
    for t in 0..n - 1 {
        let calls = observations(t);
        if calls.is_empty() {
            continue;
        }
        let inline = format!("{calls}}}");
        let region = t + 1;
        regions[region].close = inline.clone();
        if regions[region].fits(bytes) {
            continue;
        }
        let mut macro_name = format!("__{t}");
        while used.contains(macro_name.as_str()) {
            macro_name.push('_');
        }
        regions[region].close = macro_name.clone();
        let directive = format!("#define {macro_name} {inline}");
        // The definition goes into the first region before the use that has room for it.
        let defined = regions[region].fits(bytes) && (0..region).any(|r| add_if_it_fits(&mut regions[r], &directive, bytes));
        if !defined {
            // No room for a definition anywhere before: write the calls in place and let the
            // text after them shift.
            regions[region].close = inline;
        }
    }
    let mut last = Region { start: threads[n - 1].body_close, end: text.len(), close: String::new(), directives: Vec::new(), head: String::new() };
    let calls = observations(n - 1);
    last.close = format!("{calls}}}");

    let mut out = String::with_capacity(text.len() + 512);
    let emit = |out: &mut String, r: &Region| {
        // Every region writes at least as much as it replaces once shifted, so the output is
        // never behind the original text.
        let shift = out.len().saturating_sub(r.start);
        let newlines = bytes[r.start..r.end].iter().filter(|&&b| b == b'\n').count();
        let mut target = (r.end - r.start).saturating_sub(shift);
        if r.head.is_empty() {
            // After the last thread, offsets no longer matter but the lines still count.
            target = target.max(r.close.len() + newlines);
        }
        let at_line_start = out.is_empty() || out.ends_with('\n');
        let after_ident = out.as_bytes().last().copied().is_some_and(is_ident_byte);
        out.push_str(&r.layout(at_line_start, after_ident, target, newlines));
    };
    emit(&mut out, &regions[0]);
    for t in 0..n {
        let (start, end) = (threads[t].params_open, threads[t].body_close);
        segments.push((out.len() as u32, start as u32, (end - start) as u32));
        out.push_str(&text[start..end]);
        emit(&mut out, if t + 1 < n { &regions[t + 1] } else { &last });
    }

    // The kernel: one pointer per location; each work-item calls its thread's function with
    // the locations cast to the types the thread declared.
    out.push_str("\n\nkernel void __litmus(");
    let params: Vec<String> = locations
        .iter()
        // A location is one location for every thread, as in herd and Dat3M, even one the
        // threads declare `local` and place in different work-groups (which OpenCL would
        // give a copy each): the kernel passes a global buffer, and the threads' casts keep
        // their declared types.
        .map(|l| format!("global {}* {}", l.elem.name(), l.name))
        .collect();
    out.push_str(&params.join(", "));
    out.push_str(") {\n    uint __litmus_group = get_group_id(0);\n    uint __litmus_item = get_local_id(0);\n");
    for (t, thread) in threads.iter().enumerate() {
        let (g, l) = placement[t];
        let args: Vec<String> = thread.params.iter().map(|p| format!("{}{}", p.cast, p.name)).collect();
        out.push_str(&format!("    {}if (__litmus_group == {g}u && __litmus_item == {l}u) __P{t}({});\n", if t == 0 { "" } else { "else " }, args.join(", ")));
    }
    out.push_str("}\n");
    (out, segments)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Dialect;

    const MP: &str = "OPENCL MP_test
(* message passing,
   two work-groups *)
{ [x]=0; [y]=0; }

P0@wg 0, dev 0 (global int* x, global atomic_int* y) {
  *x = 1;
  atomic_store_explicit(y, 1, memory_order_release, memory_scope_device);
}

P1@wg 1, dev 0 (global int* x, global atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire, memory_scope_device);
  int r1 = *x;
}

exists (1:r0=1 /\\ 1:r1=0)
";

    const SB: &str = "OPENCL SB+scopes
(*
 * Store buffering across two devices, with work-group scopes that do not reach
 * from one device to the other, and a location in local memory.
 *)
{
  [x] = 0;
  [y] = -3;
}

P0@wg 0, dev 0 (global atomic_int* x, global atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_seq_cst, memory_scope_work_group);
  int r0 = atomic_load_explicit(y, memory_order_seq_cst, memory_scope_work_group);
}

P1@wg 0, dev 1 (global atomic_int* x, volatile global int* y, local atomic_int* z) {
  *y = 1; // plain store
  atomic_store_explicit(z, 1, memory_order_relaxed, memory_scope_work_group);
  int r0 = atomic_load_explicit(x, memory_order_seq_cst, memory_scope_device);
}

P2@wg 0, dev 0 (global atomic_int* x) {
  int r2, r3 = 1;
}

~exists (0:r0 = 0 /\\ 1:r0=0)
";

    fn compile(t: &LitmusTest) -> Result<(), Diagnostic> {
        crate::frontend::compile(&t.kernel_source, Dialect::OpenCl, &[]).map(|_| ())
    }

    fn covered<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
        let s = d.span.expect("the diagnostic has a span");
        &text[s.start as usize..s.end as usize]
    }

    fn parse_err(text: &str) -> Diagnostic {
        match parse(text) {
            Ok(t) => panic!("expected an error, parsed {t:?}"),
            Err(d) => {
                assert_eq!(d.code, CODE);
                d
            }
        }
    }

    fn regs(t: &LitmusTest) -> Vec<(usize, &str)> {
        t.registers.iter().map(|r| (r.thread, r.name.as_str())).collect()
    }

    #[test]
    fn message_passing() {
        let t = parse(MP).unwrap();
        assert_eq!(t.name, "MP_test");
        assert_eq!(t.locations.len(), 2);
        assert_eq!(t.locations[1].name, "y");
        assert_eq!(t.locations[1].elem, ElemType::Int);
        assert_eq!(t.threads.len(), 2);
        assert_eq!(&MP[t.threads[1].span.start as usize..t.threads[1].span.end as usize], "P1@wg 1, dev 0");
        assert_eq!(regs(&t), vec![(1, "r0"), (1, "r1")]);
        assert_eq!(t.register_slot(1, "r1"), Some(1));
        assert_eq!(t.register_slot(0, "r1"), None);
        assert_eq!(t.condition.quantifier, LitmusQuantifier::Exists);
        assert_eq!(&MP[t.condition.span.start as usize..t.condition.span.end as usize], "exists (1:r0=1 /\\ 1:r1=0)");
        assert_eq!((t.local_size, t.groups), (1, 2));
        assert_eq!(t.group_device, vec![0, 0]);
        assert_eq!(t.work_item_thread, vec![Some(0), Some(1)]);
        let values = |thread: usize, name: &str| match (thread, name) {
            (1, "r0") => Some(1),
            (1, "r1") => Some(0),
            _ => None,
        };
        assert!(t.condition.holds(&values, &|_| None));
        assert!(!t.condition.holds(&|_, _| Some(1), &|_| None));
        compile(&t).unwrap();
        assert!(t.kernel_source.contains("kernel void __litmus(global int* x, global int* y)"));
        assert!(t.kernel_source.contains("__P1((global int*)x, (global atomic_int*)y)"));
        assert!(t.kernel_source.contains("__interleave_observe(0,r0);__interleave_observe(1,r1);"));
    }

    #[test]
    fn store_buffering_with_scopes_devices_and_local_memory() {
        let t = parse(SB).unwrap();
        let names: Vec<&str> = t.locations.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["x", "y", "z"]);
        assert_eq!(t.locations[1].initial, -3);
        assert_eq!(t.locations[2].space, LitmusSpace::Local);
        assert_eq!(t.locations[2].initial, 0);
        assert_eq!(regs(&t), vec![(0, "r0"), (1, "r0"), (2, "r2"), (2, "r3")]);
        assert_eq!(t.condition.quantifier, LitmusQuantifier::NotExists);
        // (dev 0, wg 0) holds P0 and P2, (dev 1, wg 0) holds P1.
        assert_eq!((t.local_size, t.groups), (2, 2));
        assert_eq!(t.group_device, vec![0, 1]);
        assert_eq!(t.work_item_thread, vec![Some(0), Some(2), Some(1), None]);
        assert_eq!((t.threads[1].device, t.threads[1].work_group), (1, 0));
        compile(&t).unwrap();
        assert!(t.kernel_source.contains("global int* z)"), "a local location is one buffer shared by all threads");
        assert!(t.kernel_source.contains("__P1((global atomic_int*)x, (volatile global int*)y, (local atomic_int*)z)"));
        assert!(t.kernel_source.contains("__litmus_group == 0u && __litmus_item == 1u) __P2((global atomic_int*)x)"));
    }

    #[test]
    fn bodies_and_parameters_keep_their_offsets() {
        for text in [MP, SB] {
            let t = parse(text).unwrap();
            for thread in &t.threads {
                for s in [thread.body, thread.params] {
                    let (a, b) = (s.start as usize, s.end as usize);
                    assert_eq!(&t.kernel_source[a..b], &text[a..b], "{} of {}", thread.name, t.name);
                }
            }
            // Newlines are kept too, so line numbers agree.
            let line = |s: &str, at: Span| s[..at.start as usize].matches('\n').count();
            for thread in &t.threads {
                assert_eq!(line(&t.kernel_source, thread.body), line(text, thread.body), "{} of {}", thread.name, t.name);
            }
        }
    }

    #[test]
    fn a_short_header_shifts_later_threads_but_still_compiles() {
        // No blank space ahead of P0's end for a definition: the calls are written in place.
        let text = "OPENCL s\n{}\nP0@wg 0,dev 0(global atomic_int* x){int r0=1;}\nP1@wg 0,dev 0(global atomic_int* x){int r1=2;}\nexists(0:r0=1)";
        let t = parse(text).unwrap();
        let p0 = t.threads[0].body;
        assert_eq!(&t.kernel_source[p0.start as usize..p0.end as usize], "int r0=1;");
        compile(&t).unwrap();
    }

    #[test]
    fn comments_labels_and_nested_blocks() {
        let text = "// leading comment
(* a (* nested *) comment *)
OPENCL labels
{ x=1; int y = 2; }
// a C comment between items
P0@wg 0, dev 0 (global atomic_int* x, global atomic_int* y) { // trailing
  B1: barrier(CLK_GLOBAL_MEM_FENCE);
  /* int hidden; */
  int a = atomic_load_explicit(x, memory_order_relaxed), *p = 0, b[2], c;
  if (a == 1) { int inner = 2; b[0] = inner; }
  for (int i = 0; i < 2; i++) { c = i; }
  B2: int d = '}';
}
(* between *)
exists (0:a=1 \\/ ~(0:c=1) /\\ x!=2 \\/ [y]=2 /\\ x[0]=1)
";
        assert!(LitmusTest::is_litmus(text));
        let t = parse(text).unwrap();
        assert_eq!(t.locations[0].initial, 1);
        assert_eq!(t.locations[1].initial, 2);
        assert_eq!(regs(&t), vec![(0, "a"), (0, "c"), (0, "d")]);
        let CondExpr::Or(left, right) = &t.condition.expr else { panic!("{:?}", t.condition.expr) };
        assert!(matches!(**right, CondExpr::And(..)));
        let CondExpr::Or(first, second) = &**left else { panic!() };
        assert!(matches!(&**first, CondExpr::Eq { term: Term::Register { thread: 0, .. }, value: 1, negated: false, .. }));
        let CondExpr::And(not, ne) = &**second else { panic!() };
        assert!(matches!(&**not, CondExpr::Not(_)));
        assert!(matches!(&**ne, CondExpr::Eq { negated: true, value: 2, .. }));
        let state = |_: usize, name: &str| Some(if name == "c" { 1 } else { 0 });
        assert!(!t.condition.holds(&state, &|_| Some(1)));
        assert!(t.condition.holds(&state, &|name| Some(if name == "y" { 2 } else { 1 })));
        compile(&t).unwrap();
    }

    #[test]
    fn forall_and_compact_spacing() {
        let text = "OPENCL c {[x]=0;}P0@wg 3,dev 2(global atomic_int* x){int r=1;}forall(0:r=1)";
        let t = parse(text).unwrap();
        assert_eq!(t.condition.quantifier, LitmusQuantifier::Forall);
        assert_eq!((t.threads[0].work_group, t.threads[0].device), (3, 2));
        assert_eq!(t.group_device, vec![2]);
        compile(&t).unwrap();
    }

    #[test]
    fn errors_point_at_the_problem() {
        let d = parse_err("OPENCL t\n{}\nP0 wg 0, dev 0 () {}\nexists (x=1)");
        assert_eq!(d.message, "expected `@wg` after the thread name `P0`, found `wg`");
        assert_eq!(covered("OPENCL t\n{}\nP0 wg 0, dev 0 () {}\nexists (x=1)", &d), "wg");

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { int r0 = *x; }\nP1@wg 0, dev 0 (global int* x) { int r1 = *x; }\nexists (1:r5=1)";
        let d = parse_err(text);
        assert_eq!(d.message, "the condition names register `r5` of thread 1, which P1 does not declare");
        assert_eq!(covered(text, &d), "1:r5=1");

        // A pointer parameter in the condition is an address: its atoms never hold.
        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { int r0 = *x; }\nexists (0:x = 0)";
        let t = parse(text).unwrap();
        assert!(!t.condition.holds(&|_, name| (name == "r0").then_some(0), &|_| Some(0)));

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { }\nexists (2:r0=1)";
        let d = parse_err(text);
        assert_eq!(d.message, "the condition names thread 2, but the test has only one thread, P0");
        assert_eq!(covered(text, &d), "2:r0=1");

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { }\nexists (z=1)";
        assert_eq!(covered(text, &parse_err(text)), "z=1");

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 () { }\nP1@wg 0, dev 0 () { }\nP1@wg 0, dev 0 () { }\nexists (true)";
        let d = parse_err(text);
        assert_eq!(d.message, "thread P1 is declared twice");
        assert_eq!(d.span, Some(Span::new(56, 58)));

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { if (1) { }\nexists (x=1)";
        let d = parse_err(text);
        assert_eq!(d.message, "the body of P0 has no closing `}`");
        assert_eq!(covered(text, &d), "{");

        let text = "OPENCL t\n{ [x]=0; [x]=1; }\nP0@wg 0, dev 0 () { }\nexists (x=1)";
        let d = parse_err(text);
        assert_eq!(d.message, "the location `x` is initialised twice");
        assert_eq!(d.span, Some(Span::new(19, 20)));

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int n) { }\nexists (true)";
        let d = parse_err(text);
        assert_eq!(d.message, "the parameter `n` of P0 is not a pointer");
        assert_eq!(covered(text, &d), "global int n");

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 () { }\n";
        assert_eq!(parse_err(text).message, "the test has no final condition");

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 () { }\nexists (true) extra";
        assert_eq!(covered(text, &parse_err(text)), "extra");

        let text = "OPENCL t\n{ [x]=99999999999999999999; }";
        assert_eq!(covered(text, &parse_err(text)), "99999999999999999999");

        let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (local int* x) { }\nP1@wg 0, dev 0 (global int* x) { }\nexists (x=1)";
        let d = parse_err(text);
        assert_eq!(d.message, "P1 declares `x` in global memory, but P0 declares it in local memory");

        let text = "OPENCL t\n{}\nP1@wg 0, dev 0 () { }\nexists (true)";
        assert_eq!(parse_err(text).message, "expected thread P0 here, found P1");

        let text = "OPENCL t\n(* never closed";
        assert_eq!(covered(text, &parse_err(text)), "(*");

        assert!(!LitmusTest::is_litmus("kernel void k() {}"));
        assert!(!LitmusTest::is_litmus("(* unclosed"));
    }

    #[test]
    fn never_panics_on_truncated_or_odd_input() {
        for text in [MP, SB] {
            for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
                let _ = parse(&text[..end]);
            }
        }
        let odd = [
            "",
            "OPENCL",
            "OPENCL é",
            "OPENCL x\n{ [é]=1; }",
            "OPENCL x\nP0@wg 0, dev 0 (global int* é) {}\nexists(true)",
            "OPENCL x\nP0@wg 0, dev 0 () {}\nexists(((((((",
            "OPENCL x\nP0@wg 0, dev 0 () {}\nexists(0:r=-9223372036854775808)",
            "OPENCL x\nP0@wg 0, dev 0 () {}\nexists(x=-9223372036854775809)",
            "OPENCL x\nP99999999999999999999999@wg",
            "OPENCL x\nP0@wg 4294967296, dev 0 () {}",
            "OPENCL x\nP0@wg 0, dev 0 () { \"}\" '}' /* } */ // }\n}\nexists(true)",
            "OPENCL x\nP0@wg 0, dev 0 (global int* x) { int r0 = \"é\"; }\nexists(0:r0=1)",
        ];
        for text in odd {
            let _ = parse(text);
        }
        // Every byte of a valid test replaced by characters that matter to the reader.
        for (i, _) in MP.char_indices() {
            for replacement in ["{", "}", "(", ")", "(*", "*", "/", "\"", "'", "\n", "P", "9", ":", "=", "~", "é", ""] {
                let mut text = MP.to_string();
                text.replace_range(i..i + 1, replacement);
                if let Ok(t) = parse(&text) {
                    let _ = compile(&t);
                }
            }
        }
        let deep = format!("OPENCL x\nP0@wg 0, dev 0 () {{}}\nexists {}true", "~(".repeat(100_000));
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn limits_on_threads_and_locations() {
        let mut text = String::from("OPENCL many\n{}\n");
        for i in 0..=MAX_THREADS {
            text.push_str(&format!("P{i}@wg 0, dev 0 () {{ }}\n"));
        }
        text.push_str("exists (true)");
        assert!(parse_err(&text).message.contains("at most 64 threads"));
        let init: String = (0..=MAX_LOCATIONS).map(|i| format!("[l{i}]=0;")).collect();
        let text = format!("OPENCL many\n{{{init}}}\nP0@wg 0, dev 0 () {{ }}\nexists (true)");
        assert!(parse_err(&text).message.contains("at most 256 locations"));
    }

    /// The litmus-opencl corpus, when it is present next to the repository.
    #[test]
    fn corpus_parses_and_compiles() {
        let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/litmus-opencl"));
        if !dir.is_dir() {
            return;
        }
        let mut files = Vec::new();
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "litmus") {
                    files.push(path);
                }
            }
        }
        files.sort();
        let (mut parsed, mut compiled, mut bodies, mut exact) = (0, 0, 0, 0);
        let mut failures = Vec::new();
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            assert!(LitmusTest::is_litmus(&text), "{}", path.display());
            let t = match parse(&text) {
                Ok(t) => t,
                Err(d) => {
                    failures.push(format!("{}: parse: {} at {:?}", path.display(), d.message, d.span));
                    continue;
                }
            };
            parsed += 1;
            for thread in &t.threads {
                bodies += 1;
                let s = thread.body;
                if t.kernel_source.get(s.start as usize..s.end as usize) == text.get(s.start as usize..s.end as usize) {
                    exact += 1;
                } else {
                    println!("{}: the body of {} moved", path.display(), thread.name);
                }
            }
            match compile(&t) {
                Ok(()) => compiled += 1,
                Err(d) => {
                    // The compiler may reject the test's own C, but never the translation: the
                    // error must lie in a thread's parameters or body, which keep their offsets.
                    let at = d.span.unwrap_or_default();
                    let inside = t.threads.iter().any(|th| {
                        let in_part = |s: Span| s.start <= at.start && at.end <= s.end;
                        (in_part(th.body) || in_part(th.params))
                            && t.kernel_source.get(th.body.start as usize..th.body.end as usize) == text.get(th.body.start as usize..th.body.end as usize)
                    });
                    let quoted = text.get(at.start as usize..at.end as usize).unwrap_or("");
                    let kind = if inside { "compile (the test's own code)" } else { "compile (THE TRANSLATION)" };
                    failures.push(format!("{}: {kind}: {} at `{quoted}`", path.display(), d.message));
                }
            }
        }
        println!("{} files, {parsed} parse, {compiled} compile; {exact} of {bodies} thread bodies keep their offsets", files.len());
        for f in &failures {
            println!("{f}");
        }
        // The compiler may reject a test's own C (a memory order or scope that OpenCL
        // forbids), never the translation around it.
        let unexpected: Vec<&String> = failures.iter().filter(|f| !f.contains("the test's own code")).collect();
        assert!(unexpected.is_empty(), "{unexpected:#?}");
    }
}
