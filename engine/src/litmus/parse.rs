//! The OpenCL reader: the header, the initial state, each thread's header, parameters and
//! registers (found by scanning its C body), the shared locations, and the final condition
//! with the OpenCL dialect's names; it hands the pieces to [`super::translate`].

use crate::diag::{Diagnostic, Span};
use crate::scenario::ElemType;

use super::c_text::{c_match, c_tokens, is_ident, is_punct, skip_c_trivia, tok_text, CKind, CToken};
use super::model::{place, LitmusDialect, LitmusLocation, LitmusRegister, LitmusSpace, LitmusTest, LitmusThread};
use super::translate::translate;
use super::{error, parse_condition, span, ConditionNames, Cursor, CODE, MAX_LOCATIONS, MAX_THREADS};

/// A thread as read from the text, before the test is assembled.
pub(super) struct ThreadSyntax {
    pub(super) index: usize,
    pub(super) header: Span,
    pub(super) work_group: u32,
    pub(super) device: u32,
    /// Offset of the `(` of the parameter list.
    pub(super) params_open: usize,
    /// Offset one past the `)` of the parameter list.
    pub(super) params_end: usize,
    pub(super) params: Vec<Param>,
    /// Offset of the body's `{` and of its closing `}`.
    pub(super) body_open: usize,
    pub(super) body_close: usize,
    pub(super) registers: Vec<(String, Span)>,
}

/// A thread parameter: a pointer to a location.
pub(super) struct Param {
    pub(super) name: String,
    pub(super) span: Span,
    pub(super) space: LitmusSpace,
    pub(super) elem: ElemType,
    /// The declared type, as a cast: `(volatile global int*)`.
    pub(super) cast: String,
}

/// An entry of the initial state.
struct InitEntry {
    name: String,
    span: Span,
    value: i64,
    elem: Option<ElemType>,
}

/// Reads an OpenCL litmus test and translates it (see the module documentation).
pub(super) fn parse_opencl(text: &str) -> Result<LitmusTest, Diagnostic> {
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
