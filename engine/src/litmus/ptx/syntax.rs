//! The reader of the PTX litmus format: the text to locations, threads with their
//! instructions, and the final condition (see the parent module for the format).

use crate::diag::{Diagnostic, Span};
use crate::ir::{AtomicOp, BinaryOp, CmpOp, NumTy, Order, Scope, UnaryOp};
use crate::litmus::{error, parse_condition, span, ConditionNames, Cursor, LitmusCondition, MAX_LOCATIONS, MAX_THREADS};
use crate::scenario::ElemType;

use super::{Instr, Op, Sem, Value};

/// The code of diagnostics for what the format allows but the engine does not model.
const UNSUPPORTED: &str = "unsupported";

/// The most barriers a CTA has: barrier names and resources are 0 to 15, as in PTX.
pub(super) const BARRIERS: i64 = 16;

/// A test as read.
pub(super) struct Test {
    pub name: String,
    pub locations: Vec<Location>,
    pub threads: Vec<Thread>,
    pub condition: LitmusCondition,
}

pub(super) struct Location {
    pub name: String,
    pub initial: i64,
    pub elem: ElemType,
    /// Its entry in the initial state, or its first use.
    pub span: Span,
    /// The first typed access, which fixed its type: (width in bytes, signed, span).
    typed: Option<(u64, Option<bool>, Span)>,
    /// Where its initial value was given.
    initial_span: Option<Span>,
}

pub(super) struct Register {
    pub name: String,
    pub initial: i64,
    pub span: Span,
}

pub(super) struct Thread {
    pub cta: u32,
    pub gpu: u32,
    /// `P0@cta 0,gpu 0`.
    pub header: Span,
    /// From its first cell to its last (its header when it has none).
    pub body: Span,
    pub registers: Vec<Register>,
    pub instrs: Vec<Instr>,
    /// The meetings its barriers name by a constant, and whether one of them is the
    /// one-operand form (PTX's barrier, which every thread of the CTA must reach).
    pub meetings: Vec<(i64, bool)>,
    /// Labels: name, the instruction they stand before, span.
    labels: Vec<(String, usize, Span)>,
    /// Branches waiting for their label: instruction index, label, span.
    jumps: Vec<(usize, String, Span)>,
}

impl Thread {
    /// The index of register `name`, made (initially 0) on first mention.
    fn register(&mut self, name: &str, at: Span) -> usize {
        match self.registers.iter().position(|r| r.name == name) {
            Some(i) => i,
            None => {
                self.registers.push(Register { name: name.to_string(), initial: 0, span: at });
                self.registers.len() - 1
            }
        }
    }
}

/// Reads the whole test.
pub(super) fn read(text: &str) -> Result<Test, Diagnostic> {
    let mut c = Cursor::new(text);
    c.skip_trivia()?;
    let name = read_name(&mut c)?;
    // Anything quoted between the name and the initial state is a comment.
    loop {
        c.skip_trivia()?;
        if c.peek() != Some(b'"') {
            break;
        }
        let open = c.pos;
        c.pos += 1;
        while c.peek().is_some_and(|b| b != b'"') {
            c.pos += 1;
        }
        if !c.eat("\"") {
            return Err(error(span(open, open + 1), "this quoted comment is never closed", "opened here").with_help("close it with `\"`"));
        }
    }
    if c.peek() != Some(b'{') {
        return Err(error(c.found_span(), format!("expected the initial state `{{ x=0; P0:r0=0; }}`, found {}", c.found()), "expected `{`")
            .with_note("a PTX litmus test gives its initial state after its name, even an empty one `{ }`"));
    }
    let mut reader = Reader { locations: Vec::new(), threads: Vec::new() };
    let register_inits = reader.read_init(&mut c)?;
    c.skip_trivia()?;
    c.eat(";");
    c.skip_trivia()?;
    reader.read_headers(&mut c)?;
    for (thread, name, value, at) in register_inits {
        let Some(t) = reader.threads.get_mut(thread) else {
            let count = reader.threads.len();
            return Err(error(
                at,
                format!("the initial state gives a register of thread P{thread}, but the test has {}", thread_count(count)),
                "no such thread",
            ));
        };
        let index = t.register(&name, at);
        t.registers[index].initial = value;
    }
    reader.read_rows(&mut c)?;
    for t in &mut reader.threads {
        resolve_labels(t)?;
    }
    reader.finish_locations()?;
    c.skip_trivia()?;
    if c.eat_word("locations") {
        // `locations [x; P0:r0;]` says what herd prints; every location and register is
        // reported anyway.
        c.skip_trivia()?;
        let open = c.pos;
        if !c.eat("[") {
            return Err(error(c.found_span(), format!("expected `[` after `locations`, found {}", c.found()), "expected `[`"));
        }
        while !c.at_end() && c.peek() != Some(b']') {
            c.pos += 1;
        }
        if !c.eat("]") {
            return Err(error(span(open, open + 1), "the `locations` list is never closed", "opened here"));
        }
        c.skip_trivia()?;
    }
    if let Some((word @ ("filter" | "final"), at)) = c.peek_ident() {
        return Err(Diagnostic::error(UNSUPPORTED, format!("`{word}` clauses are not supported"))
            .with_span(at, "not supported")
            .with_help("end the test with `exists`, `~exists` or `forall`"));
    }
    let names = Names { threads: &reader.threads, locations: &reader.locations };
    let condition = parse_condition(&mut c, &names)?;
    c.skip_trivia()?;
    c.eat(";");
    c.skip_trivia()?;
    if !c.at_end() {
        return Err(error(c.found_span(), format!("unexpected {} after the final condition", c.found()), "unexpected text")
            .with_note("the final condition ends the test"));
    }
    Ok(Test { name, locations: reader.locations, threads: reader.threads, condition })
}

fn thread_count(count: usize) -> String {
    if count == 1 {
        "only one thread, P0".to_string()
    } else {
        format!("only {count} threads, P0 to P{}", count.saturating_sub(1))
    }
}

/// `PTX <name>`: the name is the run of non-blank characters after the keyword.
fn read_name(c: &mut Cursor) -> Result<String, Diagnostic> {
    let keyword = c.found_span();
    if !(c.eat_word("PTX") || c.eat_word("ptx")) {
        return Err(error(keyword, format!("a PTX litmus test starts with `PTX <name>`, found {}", c.found()), "expected `PTX`"));
    }
    while c.peek().is_some_and(|b| b == b' ' || b == b'\t') {
        c.pos += 1;
    }
    let start = c.pos;
    while c.peek().is_some_and(|b| !b.is_ascii_whitespace()) {
        c.pos += 1;
    }
    if start == c.pos {
        return Err(error(keyword, "expected the test's name after `PTX`", "no name follows").with_help("write the name on the same line, e.g. `PTX MP`"));
    }
    Ok(c.text[start..c.pos].to_string())
}

/// The condition's names: each thread's registers, and the locations.
struct Names<'a> {
    threads: &'a [Thread],
    locations: &'a [Location],
}

impl ConditionNames for Names<'_> {
    fn threads(&self) -> usize {
        self.threads.len()
    }

    fn register(&self, thread: usize, name: &str, atom: Span) -> Result<(), Diagnostic> {
        let t = &self.threads[thread];
        if t.registers.iter().any(|r| r.name == name) {
            return Ok(());
        }
        let known = if t.registers.is_empty() {
            format!("P{thread} has no registers")
        } else {
            let names: Vec<String> = t.registers.iter().map(|r| format!("`{}`", r.name)).collect();
            format!("the registers of P{thread} are {}", names.join(", "))
        };
        Err(error(atom, format!("the condition names register `{name}` of thread {thread}, which P{thread} neither initialises nor uses"), "unknown register")
            .with_note(known))
    }

    fn location(&self, name: &str, atom: Span) -> Result<(), Diagnostic> {
        if self.locations.iter().any(|l| l.name == name) {
            return Ok(());
        }
        Err(error(atom, format!("the condition names location `{name}`, which the test neither initialises nor uses"), "unknown location"))
    }

    fn expected_before_condition(&self) -> String {
        "another row of instructions or the final condition (`exists`, `~exists` or `forall`)".to_string()
    }
}

/// Whether `name` is a register by its spelling: `r<digits>` (Dat3M's), `p<digits>` (a
/// predicate) or `%<name>` (PTX's).
fn is_register_name(name: &str) -> bool {
    let numbered = |prefix: char| name.strip_prefix(prefix).is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    name.starts_with('%') || numbered('r') || numbered('p')
}

/// An operand as written.
#[derive(Clone, Debug)]
enum Operand {
    /// A name: a register by its spelling, otherwise a location or a label.
    Name(String, Span),
    /// `[x]`: a location.
    Address(String, Span),
    Const(i64, Span),
}

impl Operand {
    fn span(&self) -> Span {
        match self {
            Operand::Name(_, s) | Operand::Address(_, s) | Operand::Const(_, s) => *s,
        }
    }
}

/// The qualifiers of an instruction, sorted by kind.
#[derive(Default)]
struct Quals {
    sem: Option<(String, Span)>,
    scope: Option<(Scope, Span)>,
    /// `.global` (the only state space a location has).
    space: Option<Span>,
    /// Width in bytes, signedness (`None` for `.b32`/`.b64`), span.
    ty: Option<(u64, Option<bool>, Span)>,
    /// The mnemonic's own qualifiers (`add`, `sync`, `eq`, ...), in order.
    rest: Vec<(String, Span)>,
}

impl Quals {
    /// The element type the type qualifier names, if any.
    fn elem(&self) -> Option<ElemType> {
        self.ty.map(|(width, signed, _)| elem_of(width, signed.unwrap_or(true)))
    }

    /// The arithmetic type: the named one, or a signed 64-bit register.
    fn num(&self, unsigned_default: bool) -> NumTy {
        match self.ty {
            Some((4, Some(false), _)) => NumTy::U32,
            Some((4, _, _)) => NumTy::I32,
            Some((_, Some(false), _)) => NumTy::U64,
            Some(_) => NumTy::I64,
            None if unsigned_default => NumTy::U64,
            None => NumTy::I64,
        }
    }

    /// Takes the mnemonic qualifier `word` if present.
    fn take(&mut self, word: &str) -> Option<Span> {
        let i = self.rest.iter().position(|(w, _)| w == word)?;
        Some(self.rest.remove(i).1)
    }

    /// Takes the first mnemonic qualifier that is one of `words`.
    fn take_one_of(&mut self, words: &[&str]) -> Option<(String, Span)> {
        let i = self.rest.iter().position(|(w, _)| words.contains(&w.as_str()))?;
        Some(self.rest.remove(i))
    }
}

fn elem_of(width: u64, signed: bool) -> ElemType {
    match (width, signed) {
        (4, true) => ElemType::Int,
        (4, false) => ElemType::UInt,
        (_, true) => ElemType::Long,
        (_, false) => ElemType::ULong,
    }
}

fn unsupported(at: Span, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(UNSUPPORTED, message).with_span(at, "not supported")
}

/// Everything read so far.
struct Reader {
    locations: Vec<Location>,
    threads: Vec<Thread>,
}

impl Reader {
    /// The index of location `name`, made (initially 0) on first mention.
    fn location(&mut self, name: &str, at: Span) -> Result<usize, Diagnostic> {
        if let Some(i) = self.locations.iter().position(|l| l.name == name) {
            return Ok(i);
        }
        if self.locations.len() >= MAX_LOCATIONS {
            return Err(error(at, format!("a litmus test may have at most {MAX_LOCATIONS} locations"), "one location too many"));
        }
        self.locations.push(Location { name: name.to_string(), initial: 0, elem: ElemType::Int, span: at, typed: None, initial_span: None });
        Ok(self.locations.len() - 1)
    }

    /// `{ x=0; y=1; P1:r0=0; }`: the locations, and the registers' values by thread number
    /// (checked once the threads are known).
    fn read_init(&mut self, c: &mut Cursor) -> Result<Vec<(usize, String, i64, Span)>, Diagnostic> {
        let open = c.pos;
        c.pos += 1;
        let mut registers = Vec::new();
        loop {
            c.skip_trivia()?;
            if c.eat("}") {
                return Ok(registers);
            }
            if c.at_end() {
                return Err(error(span(open, open + 1), "the initial state is never closed", "opened here").with_help("close it with `}`"));
            }
            if c.eat(";") {
                continue;
            }
            let start = c.pos;
            let thread = thread_prefix(c)?;
            let Some((name, name_span)) = c.ident() else {
                return Err(error(
                    c.found_span(),
                    format!("expected a location or a register such as `P0:r0` in the initial state, found {}", c.found()),
                    "expected a name",
                )
                .with_help("write the initial state as `{ x=0; P1:r0=0; }`"));
            };
            c.skip_trivia()?;
            if c.peek() == Some(b'@') {
                return Err(unsupported(span(start, c.pos + 1), "proxies (`x @ texture aliases y`) are not supported")
                    .with_note("every location is plain global memory"));
            }
            if !c.eat("=") {
                return Err(error(
                    c.found_span(),
                    format!("expected `=` and a value after `{}`, found {}", &c.text[start..name_span.end as usize], c.found()),
                    "expected `=`",
                ));
            }
            c.skip_trivia()?;
            if c.peek() == Some(b'&') || c.peek_ident().is_some() {
                let what = if thread.is_some() { "registers holding the address of a location" } else { "locations holding the address of another" };
                let mut end = c.pos;
                while c.bytes.get(end).is_some_and(|&b| b != b';' && b != b'}' && b != b'\n') {
                    end += 1;
                }
                return Err(
                    unsupported(span(start, end), format!("{what} are not supported")).with_note("PTX litmus instructions name their locations directly")
                );
            }
            let (value, value_span) = c.value(&format!("for `{}`", &c.text[start..name_span.end as usize]))?;
            let entry = span(start, value_span.end as usize);
            match thread {
                Some(t) => {
                    if registers.iter().any(|(th, n, _, _): &(usize, String, i64, Span)| *th == t && n == name) {
                        return Err(error(entry, format!("the register `{name}` of P{t} is initialised twice"), "initialised again here"));
                    }
                    registers.push((t, name.to_string(), value, entry));
                }
                None => {
                    if let Some(first) = self.locations.iter().find(|l| l.name == name) {
                        return Err(error(name_span, format!("the location `{name}` is initialised twice"), "initialised again here")
                            .with_label(first.span, "first initialised here"));
                    }
                    let index = self.location(name, name_span)?;
                    self.locations[index].initial = value;
                    self.locations[index].initial_span = Some(entry);
                }
            }
            c.skip_trivia()?;
            if !c.eat(";") && c.peek() != Some(b'}') {
                return Err(error(c.found_span(), format!("expected `;` or `}}` after the initial value, found {}", c.found()), "expected `;`"));
            }
        }
    }

    /// ` P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;`
    fn read_headers(&mut self, c: &mut Cursor) -> Result<(), Diagnostic> {
        let help = "the table of threads starts with a row of headers such as `P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;`";
        loop {
            c.skip_trivia()?;
            let start = c.pos;
            let expected = self.threads.len();
            if !(c.peek() == Some(b'P') && c.peek_at(1).is_some_and(|b| b.is_ascii_digit())) {
                return Err(error(c.found_span(), format!("expected the header of thread P{expected}, found {}", c.found()), "expected a thread header")
                    .with_help(help));
            }
            c.pos += 1;
            let (number, digits) = c.unsigned()?.expect("a digit follows");
            let name_span = span(start, digits.end as usize);
            if number != expected as u64 {
                return Err(error(name_span, format!("expected thread P{expected} here, found P{number}"), format!("expected P{expected}"))
                    .with_note("threads are numbered P0, P1, ... from left to right"));
            }
            if expected >= MAX_THREADS {
                return Err(error(name_span, format!("a litmus test may have at most {MAX_THREADS} threads"), "one thread too many"));
            }
            c.skip_trivia()?;
            if !(c.eat("@") && {
                let _ = c.skip_trivia();
                c.eat_word("cta")
            }) {
                return Err(error(c.found_span(), format!("expected `@cta` after `P{number}`, found {}", c.found()), "expected `@cta`").with_help(help));
            }
            c.skip_trivia()?;
            let cta = header_number(c, &format!("the CTA number of P{number}"))?;
            c.skip_trivia()?;
            if !(c.eat(",") && {
                let _ = c.skip_trivia();
                c.eat_word("gpu")
            }) {
                return Err(
                    error(c.found_span(), format!("expected `, gpu <n>` after the CTA of P{number}, found {}", c.found()), "expected `, gpu`").with_help(help)
                );
            }
            c.skip_trivia()?;
            let gpu = header_number(c, &format!("the GPU number of P{number}"))?;
            let header = span(start, c.pos);
            self.threads.push(Thread {
                cta,
                gpu,
                header,
                body: header,
                registers: Vec::new(),
                instrs: Vec::new(),
                meetings: Vec::new(),
                labels: Vec::new(),
                jumps: Vec::new(),
            });
            c.skip_trivia()?;
            if c.eat("|") {
                continue;
            }
            if c.eat(";") {
                return Ok(());
            }
            return Err(error(
                c.found_span(),
                format!("expected `|` and another thread, or `;` to end the row of headers, found {}", c.found()),
                "expected `|` or `;`",
            ));
        }
    }

    /// The rows of instructions, up to the final condition.
    fn read_rows(&mut self, c: &mut Cursor) -> Result<(), Diagnostic> {
        loop {
            c.skip_trivia()?;
            if c.at_end() || c.peek() == Some(b'~') {
                return Ok(());
            }
            if c.peek_ident().is_some_and(|(w, _)| matches!(w, "exists" | "forall" | "not" | "locations" | "filter" | "final")) {
                return Ok(());
            }
            let mut column = 0;
            loop {
                self.read_cell(c, column)?;
                c.skip_trivia()?;
                if c.eat(";") {
                    break;
                }
                if c.peek() == Some(b'|') {
                    let bar = c.found_span();
                    c.pos += 1;
                    column += 1;
                    if column >= self.threads.len() {
                        return Err(error(bar, format!("this row has more cells than the test has threads ({})", self.threads.len()), "one cell too many"));
                    }
                    continue;
                }
                return Err(error(c.found_span(), format!("expected `|` or `;` after the instruction, found {}", c.found()), "expected `|` or `;`")
                    .with_note("each cell holds one instruction; a row ends with `;`"));
            }
        }
    }

    /// One cell of column `column`: labels, then at most one instruction.
    fn read_cell(&mut self, c: &mut Cursor, column: usize) -> Result<(), Diagnostic> {
        loop {
            c.skip_trivia()?;
            if c.at_end() || matches!(c.peek(), Some(b'|' | b';')) {
                return Ok(());
            }
            // `LC00:`
            if let Some((word, at)) = c.peek_ident() {
                let save = c.pos;
                c.pos = at.end as usize;
                c.skip_trivia()?;
                if c.peek() == Some(b':') {
                    c.pos += 1;
                    let t = &mut self.threads[column];
                    if let Some((_, _, first)) = t.labels.iter().find(|(l, _, _)| l == word) {
                        return Err(
                            error(at, format!("P{column} defines the label `{word}` twice"), "defined again here").with_label(*first, "first defined here")
                        );
                    }
                    let index = t.instrs.len();
                    t.labels.push((word.to_string(), index, at));
                    extend_body(t, at);
                    continue;
                }
                c.pos = save;
            }
            let instr = self.read_instr(c, column)?;
            let t = &mut self.threads[column];
            extend_body(t, instr.span);
            t.instrs.push(instr);
            return Ok(());
        }
    }

    /// A guard, an opcode with its qualifiers, and its operands.
    fn read_instr(&mut self, c: &mut Cursor, column: usize) -> Result<Instr, Diagnostic> {
        let start = c.pos;
        let guard = if c.eat("@") {
            let negated = c.eat("!");
            let Some((name, at)) = register_token(c) else {
                return Err(error(c.found_span(), format!("expected a predicate register after `@`, found {}", c.found()), "expected a register"));
            };
            c.skip_trivia()?;
            Some((self.threads[column].register(&name, at), negated))
        } else {
            None
        };
        let Some((mnemonic, mnemonic_span)) = c.ident() else {
            return Err(error(c.found_span(), format!("expected an instruction, found {}", c.found()), "expected an instruction"));
        };
        let mut parts: Vec<(String, Span)> = Vec::new();
        while c.peek() == Some(b'.') && c.peek_at(1).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            c.pos += 1;
            let part_start = c.pos;
            while c.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
                c.pos += 1;
            }
            parts.push((c.text[part_start..c.pos].to_string(), span(part_start, c.pos)));
        }
        let opcode = span(mnemonic_span.start as usize, c.pos);
        let mut operands = Vec::new();
        loop {
            c.skip_trivia()?;
            if c.at_end() || matches!(c.peek(), Some(b'|' | b';')) {
                break;
            }
            if !operands.is_empty() && !c.eat(",") {
                return Err(error(c.found_span(), format!("expected `,` between operands, found {}", c.found()), "expected `,`"));
            }
            c.skip_trivia()?;
            operands.push(read_operand(c)?);
        }
        let end = operands.last().map_or(opcode.end as usize, |o| o.span().end as usize);
        let whole = span(start, end);
        let op = self.build(column, mnemonic, mnemonic_span, opcode, parts, operands, whole)?;
        Ok(Instr { op, guard, span: whole })
    }

    /// Sorts `parts` into [`Quals`]; a state space or type the engine cannot model is refused.
    fn quals(&self, opcode: &str, parts: Vec<(String, Span)>) -> Result<Quals, Diagnostic> {
        let mut q = Quals::default();
        for (word, at) in parts {
            let duplicate = |what: &str| error(at, format!("`{opcode}` names {what} twice"), "named again here");
            match word.as_str() {
                "weak" | "relaxed" | "acquire" | "release" | "acq_rel" | "sc" | "volatile" | "mmio" => {
                    if q.sem.is_some() {
                        return Err(duplicate("a memory order"));
                    }
                    q.sem = Some((word, at));
                }
                "cta" | "gpu" | "sys" => {
                    if q.scope.is_some() {
                        return Err(duplicate("a scope"));
                    }
                    let s = match word.as_str() {
                        "cta" => Scope::WorkGroup,
                        "gpu" => Scope::Device,
                        _ => Scope::System,
                    };
                    q.scope = Some((s, at));
                }
                "cluster" => {
                    return Err(unsupported(at, format!("the `.cluster` scope of `{opcode}` is not supported"))
                        .with_note("a litmus thread gives only its CTA and GPU; use `.cta`, `.gpu` or `.sys`"))
                }
                "global" => {
                    if q.space.is_some() {
                        return Err(duplicate("a state space"));
                    }
                    q.space = Some(at);
                }
                "shared" | "local" | "const" | "param" | "shared::cta" | "shared::cluster" => {
                    return Err(
                        unsupported(at, format!("the `.{word}` state space of `{opcode}` is not supported")).with_note("litmus locations are in global memory")
                    )
                }
                "b32" | "s32" | "u32" | "b64" | "s64" | "u64" => {
                    if q.ty.is_some() {
                        return Err(duplicate("a type"));
                    }
                    let width = if word.ends_with("32") { 4 } else { 8 };
                    let signed = match word.as_bytes()[0] {
                        b's' => Some(true),
                        b'u' => Some(false),
                        _ => None,
                    };
                    q.ty = Some((width, signed, at));
                }
                "b8" | "b16" | "s8" | "s16" | "u8" | "u16" | "f16" | "f16x2" | "bf16" | "f32" | "f64" | "pred" | "b128" | "v2" | "v4" | "v8" => {
                    return Err(unsupported(at, format!("the `.{word}` type of `{opcode}` is not supported"))
                        .with_note("litmus values are 32- or 64-bit integers (`.b32`, `.s32`, `.u32`, `.b64`, `.s64`, `.u64`)"))
                }
                _ => q.rest.push((word, at)),
            }
        }
        Ok(q)
    }

    /// Turns a read instruction into an [`Op`].
    #[allow(clippy::too_many_arguments)]
    fn build(
        &mut self,
        column: usize,
        mnemonic: &str,
        mnemonic_span: Span,
        opcode: Span,
        parts: Vec<(String, Span)>,
        operands: Vec<Operand>,
        whole: Span,
    ) -> Result<Op, Diagnostic> {
        let name = {
            let mut s = mnemonic.to_string();
            for (p, _) in &parts {
                s.push('.');
                s.push_str(p);
            }
            s
        };
        if matches!(mnemonic, "tld" | "suld" | "sust" | "suatom" | "sured" | "cold" | "tex" | "tld4") {
            return Err(unsupported(opcode, format!("`{name}` is not supported: texture, surface and constant proxies are not modelled"))
                .with_note("every location is plain global memory, accessed through the generic proxy"));
        }
        let mut q = self.quals(&name, parts)?;
        let op = match mnemonic {
            "ld" => self.load(column, &name, &mut q, &operands, whole)?,
            "st" => self.store(column, &name, &mut q, &operands, whole)?,
            "atom" | "red" => self.atomic(column, mnemonic, &name, &mut q, &operands, whole)?,
            "fence" | "membar" => fence(mnemonic, &name, &mut q, opcode)?,
            "bar" | "barrier" => self.barrier(column, &name, &mut q, &operands, opcode, whole)?,
            "mov" => {
                let (dst, src) = two(&name, &operands, whole)?;
                Op::Move { dst: self.dst(column, dst)?, src: self.value(column, src, &name)? }
            }
            "add" | "sub" | "mul" | "div" | "rem" | "and" | "or" | "xor" | "min" | "max" => {
                if mnemonic == "mul" {
                    if let Some((w, at)) = q.take_one_of(&["hi", "wide"]) {
                        return Err(unsupported(at, format!("`mul.{w}` is not supported")).with_help("use `mul` or `mul.lo`"));
                    }
                    q.take("lo");
                }
                let [dst, a, b] = operands_n::<3>(&name, &operands, whole)?;
                let op = match mnemonic {
                    "add" => BinaryOp::Add,
                    "sub" => BinaryOp::Sub,
                    "mul" => BinaryOp::Mul,
                    "div" => BinaryOp::Div,
                    "rem" => BinaryOp::Rem,
                    "and" => BinaryOp::And,
                    "or" => BinaryOp::Or,
                    "xor" => BinaryOp::Xor,
                    "min" => BinaryOp::Min,
                    _ => BinaryOp::Max,
                };
                // Addition, subtraction and multiplication wrap (PTX has no signed overflow):
                // they are computed unsigned, and a signed 32-bit result is sign-extended.
                let wraps = matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::And | BinaryOp::Or | BinaryOp::Xor);
                let ty = q.num(false);
                let (ty, narrow) = if wraps {
                    match ty {
                        NumTy::I32 => (NumTy::U32, Some(ElemType::Int)),
                        NumTy::I64 => (NumTy::U64, None),
                        other => (other, None),
                    }
                } else {
                    (ty, None)
                };
                Op::Binary { op, ty, dst: self.dst(column, dst)?, a: self.value(column, a, &name)?, b: self.value(column, b, &name)?, narrow }
            }
            "neg" | "not" => {
                let (dst, a) = two(&name, &operands, whole)?;
                let ty = q.num(false);
                let narrow = (ty == NumTy::I32).then_some(ElemType::Int);
                let op = if mnemonic == "neg" { UnaryOp::Neg } else { UnaryOp::BitNot };
                Op::Unary { op, ty, dst: self.dst(column, dst)?, a: self.value(column, a, &name)?, narrow }
            }
            "setp" => {
                let Some((cmp, at)) = q.take_one_of(&["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"]) else {
                    return Err(error(opcode, format!("`{name}` names no comparison"), "expected e.g. `setp.eq`")
                        .with_help("compare with `.eq`, `.ne`, `.lt`, `.le`, `.gt`, `.ge` (or `.lo`, `.ls`, `.hi`, `.hs` unsigned)"));
                };
                let _ = at;
                let unsigned = matches!(cmp.as_str(), "lo" | "ls" | "hi" | "hs");
                let op = match cmp.as_str() {
                    "eq" => CmpOp::Eq,
                    "ne" => CmpOp::Ne,
                    "lt" | "lo" => CmpOp::Lt,
                    "le" | "ls" => CmpOp::Le,
                    "gt" | "hi" => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                let ty = match (q.num(unsigned), unsigned) {
                    (NumTy::I32, true) => NumTy::U32,
                    (NumTy::I64, true) => NumTy::U64,
                    (t, _) => t,
                };
                let [dst, a, b] = operands_n::<3>(&name, &operands, whole)?;
                Op::Compare { op, ty, dst: self.dst(column, dst)?, a: self.value(column, a, &name)?, b: self.value(column, b, &name)? }
            }
            "beq" | "bne" | "blt" | "ble" | "bgt" | "bge" => {
                let [a, b, label] = operands_n::<3>(&name, &operands, whole)?;
                let op = match mnemonic {
                    "beq" => CmpOp::Eq,
                    "bne" => CmpOp::Ne,
                    "blt" => CmpOp::Lt,
                    "ble" => CmpOp::Le,
                    "bgt" => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                let cond = Some((op, NumTy::I64, self.value(column, a, &name)?, self.value(column, b, &name)?));
                self.jump(column, label, &name)?;
                Op::Branch { cond, target: 0 }
            }
            "goto" | "bra" => {
                if mnemonic == "bra" {
                    q.take("uni");
                }
                let [label] = operands_n::<1>(&name, &operands, whole)?;
                self.jump(column, label, &name)?;
                Op::Branch { cond: None, target: 0 }
            }
            "ret" | "exit" => {
                operands_n::<0>(&name, &operands, whole)?;
                Op::Exit
            }
            "cp" | "ldu" | "prefetch" | "cvta" | "isspacep" | "mbarrier" | "vote" | "shfl" | "match" | "redux" | "activemask" | "atom2" => {
                return Err(unsupported(opcode, format!("`{name}` is not supported in litmus tests")));
            }
            _ => {
                return Err(unsupported(mnemonic_span, format!("`{name}` is not supported: it is not an instruction this reader knows"))
                    .with_help("litmus threads use `ld`, `st`, `atom`, `red`, `fence`, `bar`, `mov`, arithmetic, `setp` and branches"))
            }
        };
        // Whatever qualifier is left is one the instruction does not take.
        if let Some((word, at)) = q.rest.first() {
            return Err(error(*at, format!("`{name}` does not take the qualifier `.{word}`"), "unexpected qualifier"));
        }
        if let Some((_, at)) = q.sem {
            return Err(error(at, format!("`{name}` takes no memory order"), "unexpected"));
        }
        if let Some((_, at)) = q.scope {
            return Err(error(at, format!("`{name}` takes no scope"), "unexpected"));
        }
        let memory = matches!(op, Op::Load { .. } | Op::Store { .. } | Op::Atomic { .. });
        if let Some(at) = q.space.filter(|_| !memory) {
            return Err(error(at, format!("`{name}` takes no state space"), "unexpected"));
        }
        let typed = memory || matches!(op, Op::Binary { .. } | Op::Unary { .. } | Op::Compare { .. } | Op::Move { .. });
        if let Some((_, _, at)) = q.ty.filter(|_| !typed) {
            return Err(error(at, format!("`{name}` takes no type"), "unexpected"));
        }
        Ok(op)
    }

    fn dst(&mut self, column: usize, o: &Operand) -> Result<usize, Diagnostic> {
        match o {
            Operand::Name(n, at) if is_register_name(n) => Ok(self.threads[column].register(n, *at)),
            other => Err(error(other.span(), "expected a register here (`r0`, `r1`, ... or `%name`)", "not a register")),
        }
    }

    fn value(&mut self, column: usize, o: &Operand, name: &str) -> Result<Value, Diagnostic> {
        match o {
            Operand::Const(v, _) => Ok(Value::Const(*v)),
            Operand::Name(n, at) if is_register_name(n) => Ok(Value::Reg(self.threads[column].register(n, *at))),
            Operand::Name(n, at) | Operand::Address(n, at) => {
                Err(unsupported(*at, format!("`{name}` uses the address of `{n}` as a value, which is not supported"))
                    .with_note("values are registers (`r0`, `%r1`) or integer constants; registers holding addresses are not modelled"))
            }
        }
    }

    /// The location a memory operand names.
    fn loc(&mut self, o: &Operand, name: &str) -> Result<usize, Diagnostic> {
        match o {
            Operand::Name(n, at) | Operand::Address(n, at) if !is_register_name(n) => self.location(n, *at),
            Operand::Name(n, at) | Operand::Address(n, at) => {
                Err(unsupported(*at, format!("`{name}` reaches memory through the register `{n}`, which is not supported"))
                    .with_note("instructions name their location directly, e.g. `ld.weak r0, x`"))
            }
            Operand::Const(_, at) => Err(error(*at, format!("`{name}` needs a location here, found a constant"), "expected a location")),
        }
    }

    /// Records a typed access of location `loc`: the first fixes its width and signedness.
    fn typed(&mut self, loc: usize, q: &Quals, name: &str) -> Result<Option<ElemType>, Diagnostic> {
        let Some((width, signed, at)) = q.ty else { return Ok(None) };
        let l = &mut self.locations[loc];
        match l.typed {
            None => l.typed = Some((width, signed, at)),
            Some((w, s, first)) => {
                if w != width {
                    return Err(error(
                        at,
                        format!("`{name}` accesses `{}` with {} bits, but it was accessed with {} bits before", l.name, width * 8, w * 8),
                        "another width",
                    )
                    .with_label(first, "first typed here")
                    .with_note("accesses of different sizes to one location are not supported"));
                }
                if s.is_none() {
                    l.typed = Some((w, signed, first));
                }
            }
        }
        Ok(q.elem())
    }

    /// The semantics of an access from its qualifiers: `allowed` are the words it may have,
    /// `default` the one it has without any, `default_scope` the scope of a strong access
    /// that names none (without one, it must name one).
    fn sem(&self, q: &mut Quals, name: &str, allowed: &[&str], default: &str, default_scope: Option<Scope>) -> Result<Sem, Diagnostic> {
        let (word, at) = q.sem.take().map_or((default.to_string(), None), |(w, s)| (w, Some(s)));
        if !allowed.contains(&word.as_str()) {
            let at = at.unwrap_or_default();
            let list: Vec<String> = allowed.iter().map(|w| format!("`.{w}`")).collect();
            return Err(if word == "mmio" {
                unsupported(at, format!("`{name}`: `.mmio` operations are not supported"))
            } else {
                error(at, format!("`{name}` cannot be `.{word}`"), "not allowed here").with_note(format!("it takes {}", list.join(", ")))
            });
        }
        let scope = q.scope.take();
        let order = match word.as_str() {
            "weak" => {
                if let Some((_, s)) = scope {
                    return Err(error(s, format!("`{name}`: a weak access has no scope"), "unexpected scope")
                        .with_help("drop the scope, or make the access `.relaxed`"));
                }
                return Ok(Sem::Weak);
            }
            "relaxed" | "volatile" => Order::Relaxed,
            "acquire" => Order::Acquire,
            "release" => Order::Release,
            "acq_rel" => Order::AcqRel,
            _ => Order::SeqCst,
        };
        if word == "volatile" {
            // A volatile access is a relaxed one at system scope.
            if let Some((_, s)) = scope {
                return Err(error(s, format!("`{name}`: a volatile access has no scope"), "unexpected scope"));
            }
            return Ok(Sem::Strong { order, scope: Scope::System });
        }
        match scope.map(|(s, _)| s).or(default_scope) {
            Some(scope) => Ok(Sem::Strong { order, scope }),
            None => Err(error(at.unwrap_or_default(), format!("`{name}` needs a scope"), "no scope")
                .with_help(format!("write `.{word}.cta`, `.{word}.gpu` or `.{word}.sys`"))),
        }
    }

    fn load(&mut self, column: usize, name: &str, q: &mut Quals, operands: &[Operand], whole: Span) -> Result<Op, Diagnostic> {
        let (dst, src) = two(name, operands, whole)?;
        // Dat3M's `ld r, v` with no order sets a register.
        if q.sem.is_none() && (matches!(src, Operand::Const(..)) || matches!(src, Operand::Name(n, _) if is_register_name(n))) {
            return Ok(Op::Move { dst: self.dst(column, dst)?, src: self.value(column, src, name)? });
        }
        let sem = self.sem(q, name, &["weak", "relaxed", "acquire", "volatile"], "weak", None)?;
        let dst = self.dst(column, dst)?;
        let loc = self.loc(src, name)?;
        let ty = self.typed(loc, q, name)?;
        Ok(Op::Load { dst, loc, sem, ty })
    }

    fn store(&mut self, column: usize, name: &str, q: &mut Quals, operands: &[Operand], whole: Span) -> Result<Op, Diagnostic> {
        let (dst, src) = two(name, operands, whole)?;
        let sem = self.sem(q, name, &["weak", "relaxed", "release", "volatile"], "weak", None)?;
        let loc = self.loc(dst, name)?;
        let src = self.value(column, src, name)?;
        let ty = self.typed(loc, q, name)?;
        Ok(Op::Store { loc, src, sem, ty })
    }

    fn atomic(&mut self, column: usize, mnemonic: &str, name: &str, q: &mut Quals, operands: &[Operand], whole: Span) -> Result<Op, Diagnostic> {
        let ops = ["add", "sub", "inc", "dec", "min", "max", "and", "or", "xor", "exch", "cas", "mul", "div"];
        let Some((op_word, op_at)) = q.take_one_of(&ops) else {
            return Err(error(whole, format!("`{name}` names no operation"), "expected e.g. `.add`")
                .with_help("`atom` and `red` take `.add`, `.sub`, `.inc`, `.dec`, `.min`, `.max`, `.and`, `.or`, `.xor` (and `atom` `.exch`, `.cas`)"));
        };
        let op = match op_word.as_str() {
            "add" => AtomicOp::Add,
            "sub" => AtomicOp::Sub,
            "inc" => AtomicOp::IncWrap,
            "dec" => AtomicOp::DecWrap,
            "min" => AtomicOp::Min,
            "max" => AtomicOp::Max,
            "and" => AtomicOp::And,
            "or" => AtomicOp::Or,
            "xor" => AtomicOp::Xor,
            "exch" if mnemonic == "atom" => AtomicOp::Xchg,
            "cas" if mnemonic == "atom" => AtomicOp::CmpXchg,
            "exch" | "cas" => return Err(error(op_at, format!("`red` has no `.{op_word}`: a reduction returns nothing"), "use `atom`")),
            _ => {
                return Err(unsupported(op_at, format!("`{name}` is not supported: PTX atomics have no `.{op_word}`"))
                    .with_note("`atom` and `red` add, subtract, increment, decrement, take the minimum or maximum, or combine bits"))
            }
        };
        // Dat3M's format lets a reduction acquire too; PTX's `red` is relaxed or release.
        // Not `.weak`, which is not among the words allowed, so the access is strong.
        let (order, scope) = match self.sem(q, name, &["relaxed", "acquire", "release", "acq_rel"], "relaxed", Some(Scope::Device))? {
            Sem::Strong { order, scope } => (order, scope),
            Sem::Weak => (Order::Relaxed, Scope::Device),
        };
        let expected_operands = match (mnemonic, op) {
            ("atom", AtomicOp::CmpXchg) => 4,
            ("atom", _) => 3,
            _ => 2,
        };
        if operands.len() != expected_operands {
            return Err(arity(name, expected_operands, operands.len(), whole));
        }
        let (dst, rest) = if mnemonic == "atom" { (Some(self.dst(column, &operands[0])?), &operands[1..]) } else { (None, operands) };
        let loc = self.loc(&rest[0], name)?;
        let ty = self.typed(loc, q, name)?;
        let (operand, operand2) = if op == AtomicOp::CmpXchg {
            (self.value(column, &rest[2], name)?, self.value(column, &rest[1], name)?)
        } else {
            (self.value(column, &rest[1], name)?, Value::Const(0))
        };
        Ok(Op::Atomic { op, dst, loc, operand, operand2, order, scope, ty })
    }

    fn barrier(&mut self, column: usize, name: &str, q: &mut Quals, operands: &[Operand], opcode: Span, whole: Span) -> Result<Op, Diagnostic> {
        if let Some((w, at)) = q.take_one_of(&["red", "warp"]) {
            return Err(
                unsupported(at, format!("`{name}` is not supported: `.{w}` barriers are not modelled")).with_help("use `bar.cta.sync` or `bar.cta.arrive`")
            );
        }
        // `.cta` is the only scope a barrier has.
        if let Some((s, at)) = q.scope.take() {
            if s != Scope::WorkGroup {
                return Err(error(at, format!("`{name}`: a barrier belongs to its CTA"), "not `.cta`"));
            }
        }
        q.take("aligned");
        let arrive = match q.take_one_of(&["sync", "arrive"]) {
            Some((w, _)) => w == "arrive",
            None => return Err(error(opcode, format!("`{name}` says neither `.sync` nor `.arrive`"), "expected `.sync` or `.arrive`")),
        };
        if operands.is_empty() || operands.len() > 3 {
            return Err(error(
                whole,
                format!("`{name}` takes one to three operands (barrier, resource, thread count), found {}", operands.len()),
                "wrong operands",
            ));
        }
        let mut values = Vec::with_capacity(3);
        for o in operands {
            values.push(self.value(column, o, name)?);
        }
        for (k, (v, o)) in values.iter().zip(operands).enumerate() {
            if let Value::Const(n) = v {
                let bad = if k < 2 { !(0..BARRIERS).contains(n) } else { *n < 1 || *n > MAX_THREADS as i64 };
                if bad {
                    let what = if k < 2 { format!("a barrier is numbered 0 to {}", BARRIERS - 1) } else { format!("a thread count is 1 to {MAX_THREADS}") };
                    return Err(error(o.span(), format!("`{name}`: {what}, found {n}"), "out of range"));
                }
            }
        }
        let meeting = values[0];
        if values.len() > 1 && !matches!(meeting, Value::Const(_)) {
            return Err(error(
                operands[0].span(),
                format!("`{name}`: with a resource, the first operand names the meeting and must be a constant"),
                "not a constant",
            )
            .with_note("`bar.cta.sync a, b` is meeting `a` on barrier resource `b`, as in Dat3M's format"));
        }
        if let Value::Const(n) = meeting {
            let t = &mut self.threads[column];
            let one = values.len() == 1;
            match t.meetings.iter_mut().find(|m| m.0 == n) {
                Some(m) => m.1 |= one,
                None => t.meetings.push((n, one)),
            }
        }
        Ok(Op::Barrier { meeting, resource: *values.get(1).unwrap_or(&meeting), members: 0, quorum: values.get(2).copied(), arrive })
    }

    /// Records a branch of the instruction about to be added to `column` to `label`.
    fn jump(&mut self, column: usize, label: &Operand, name: &str) -> Result<(), Diagnostic> {
        let Operand::Name(l, at) = label else {
            return Err(error(label.span(), format!("`{name}` needs a label here"), "expected a label"));
        };
        let t = &mut self.threads[column];
        let index = t.instrs.len();
        t.jumps.push((index, l.clone(), *at));
        Ok(())
    }

    /// Checks each location's initial value against its type, and sets the type.
    fn finish_locations(&mut self) -> Result<(), Diagnostic> {
        for l in &mut self.locations {
            let (width, signed) = l.typed.map_or((4, true), |(w, s, _)| (w, s.unwrap_or(true)));
            l.elem = elem_of(width, signed);
            let fits = match l.elem {
                ElemType::Int => i32::try_from(l.initial).is_ok(),
                ElemType::UInt => u32::try_from(l.initial).is_ok(),
                ElemType::ULong => l.initial >= 0,
                _ => true,
            };
            if !fits {
                return Err(error(
                    l.initial_span.unwrap_or(l.span),
                    format!("the initial value of `{}` does not fit its type, {}", l.name, l.elem.name()),
                    "out of range",
                )
                .with_help("give the location a 64-bit type with a typed access such as `ld.weak.s64`"));
            }
        }
        Ok(())
    }
}

fn extend_body(t: &mut Thread, at: Span) {
    t.body = if t.body == t.header { at } else { Span::new(t.body.start.min(at.start), t.body.end.max(at.end)) };
}

/// Points each branch of `t` at its label.
fn resolve_labels(t: &mut Thread) -> Result<(), Diagnostic> {
    for (index, label, at) in std::mem::take(&mut t.jumps) {
        let Some(target) = t.labels.iter().find(|(l, _, _)| *l == label).map(|&(_, target, _)| target) else {
            let known: Vec<String> = t.labels.iter().map(|(l, _, _)| format!("`{l}`")).collect();
            let mut d = error(at, format!("the label `{label}` is not defined in this thread"), "unknown label");
            if !known.is_empty() {
                d = d.with_note(format!("its labels are {}", known.join(", ")));
            }
            return Err(d);
        };
        if let Some(Instr { op: Op::Branch { target: t0, .. }, .. }) = t.instrs.get_mut(index) {
            *t0 = target;
        }
    }
    Ok(())
}

/// `P1:` or `1:` before a register name in the initial state; `None` for a location.
fn thread_prefix(c: &mut Cursor) -> Result<Option<usize>, Diagnostic> {
    let save = c.pos;
    let named = c.peek() == Some(b'P') && c.peek_at(1).is_some_and(|b| b.is_ascii_digit());
    if named {
        c.pos += 1;
    }
    if !c.peek().is_some_and(|b| b.is_ascii_digit()) {
        c.pos = save;
        return Ok(None);
    }
    let Some((n, digits)) = c.unsigned()? else {
        c.pos = save;
        return Ok(None);
    };
    c.skip_trivia()?;
    if !c.eat(":") {
        if named {
            // A location whose name starts with `P` and a digit (`P0x`) is not a register.
            c.pos = save;
            return Ok(None);
        }
        return Err(error(digits, "expected `:` and a register name after the thread number", "expected `:`"));
    }
    c.skip_trivia()?;
    Ok(Some(usize::try_from(n).unwrap_or(usize::MAX)))
}

/// A register written `%name` or a plain name, for a guard.
fn register_token(c: &mut Cursor) -> Option<(String, Span)> {
    let start = c.pos;
    if c.eat("%") {
        let (_, s) = c.ident()?;
        return Some((c.text[start..s.end as usize].to_string(), span(start, s.end as usize)));
    }
    c.ident().map(|(n, s)| (n.to_string(), s))
}

fn read_operand(c: &mut Cursor) -> Result<Operand, Diagnostic> {
    let start = c.pos;
    if c.peek() == Some(b'%') {
        let Some((name, at)) = register_token(c) else {
            return Err(error(c.found_span(), format!("expected a register name after `%`, found {}", c.found()), "expected a name"));
        };
        return Ok(Operand::Name(name, at));
    }
    if c.eat("[") {
        c.skip_trivia()?;
        let Some((name, _)) = c.ident() else {
            return Err(error(c.found_span(), format!("expected a location after `[`, found {}", c.found()), "expected a location"));
        };
        let name = name.to_string();
        c.skip_trivia()?;
        if c.peek() == Some(b'+') || c.peek() == Some(b'-') {
            return Err(unsupported(c.found_span(), "addresses with an offset are not supported").with_note("each location is one value: name it directly"));
        }
        if !c.eat("]") {
            return Err(error(c.found_span(), format!("expected `]` after `[{name}`, found {}", c.found()), "expected `]`"));
        }
        return Ok(Operand::Address(name, span(start, c.pos)));
    }
    if c.peek().is_some_and(|b| b.is_ascii_digit() || b == b'-' || b == b'+') {
        let (v, s) = c.value("as an operand")?;
        return Ok(Operand::Const(v, s));
    }
    match c.ident() {
        Some((name, at)) => Ok(Operand::Name(name.to_string(), at)),
        None => Err(error(c.found_span(), format!("expected an operand (a register, a location or a constant), found {}", c.found()), "expected an operand")),
    }
}

fn header_number(c: &mut Cursor, what: &str) -> Result<u32, Diagnostic> {
    match c.unsigned()? {
        Some((v, s)) => u32::try_from(v).map_err(|_| error(s, format!("{what} is too large"), "too large")),
        None => Err(error(c.found_span(), format!("expected {what}, found {}", c.found()), "expected a number")),
    }
}

fn arity(name: &str, expected: usize, found: usize, whole: Span) -> Diagnostic {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    error(whole, format!("`{name}` takes {expected} operand{}, found {found}", plural(expected)), "wrong number of operands")
}

fn operands_n<'a, const N: usize>(name: &str, operands: &'a [Operand], whole: Span) -> Result<[&'a Operand; N], Diagnostic> {
    if operands.len() != N {
        return Err(arity(name, N, operands.len(), whole));
    }
    Ok(std::array::from_fn(|i| &operands[i]))
}

fn two<'a>(name: &str, operands: &'a [Operand], whole: Span) -> Result<(&'a Operand, &'a Operand), Diagnostic> {
    let [a, b] = operands_n::<2>(name, operands, whole)?;
    Ok((a, b))
}

/// `fence{.sc|.acq_rel}.scope`, `membar.{cta,gl,sys}`.
fn fence(mnemonic: &str, name: &str, q: &mut Quals, opcode: Span) -> Result<Op, Diagnostic> {
    if mnemonic == "membar" {
        // `membar` is `fence.sc` at its level.
        let scope = match (q.take_one_of(&["gl"]), q.scope.take()) {
            (Some(_), None) => Scope::Device,
            (None, Some((s, _))) => s,
            _ => return Err(error(opcode, format!("`{name}` needs one level: `.cta`, `.gl` or `.sys`"), "expected a level")),
        };
        return Ok(Op::Fence { order: Order::SeqCst, scope });
    }
    if let Some((w, at)) = q.take_one_of(&["proxy", "mbarrier_init", "op_restrict"]) {
        return Err(unsupported(at, format!("`{name}` is not supported: `fence.{w}` orders proxies, which are not modelled")));
    }
    let order = match q.sem.take() {
        None => Order::AcqRel,
        Some((w, _)) if w == "sc" => Order::SeqCst,
        Some((w, _)) if w == "acq_rel" => Order::AcqRel,
        Some((w, at)) => return Err(error(at, format!("`{name}`: a fence is `.sc` or `.acq_rel`, not `.{w}`"), "not a fence order")),
    };
    let Some((scope, _)) = q.scope.take() else {
        return Err(error(opcode, format!("`{name}` needs a scope"), "no scope").with_help("write e.g. `fence.sc.gpu` or `fence.acq_rel.cta`"));
    };
    Ok(Op::Fence { order, scope })
}
