//! Recursive-descent parser from tokens to the [`ast`](super::ast).
//!
//! Precedence climbing for binary operators; everything else follows the C99 grammar, with
//! OpenCL's qualifiers. Declarations are recognised by their leading type word or qualifier.

use super::ast::*;
use super::lexer::{Tok, Token};
use crate::diag::{Diagnostic, Span};
use crate::scenario::Dialect;

/// Words that start a type: the OpenCL C scalar types and their C spellings, and the
/// built-in opaque and atomic types.
const TYPE_WORDS: [&str; 42] = [
    "void",
    "bool",
    "char",
    "uchar",
    "short",
    "ushort",
    "int",
    "uint",
    "long",
    "ulong",
    "float",
    "double",
    "half",
    "size_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "unsigned",
    "signed",
    "_Bool",
    "cl_mem_fence_flags",
    "event_t",
    "memory_order",
    "memory_scope",
    "atomic_int",
    "atomic_uint",
    "atomic_long",
    "atomic_ulong",
    "atomic_float",
    "atomic_double",
    "atomic_flag",
    "atomic_intptr_t",
    "atomic_uintptr_t",
    "atomic_size_t",
    "atomic_ptrdiff_t",
    "image2d_t",
    "image3d_t",
    "sampler_t",
    "queue_t",
    "ndrange_t",
    "clk_event_t",
    "reserve_id_t",
];

/// The scalar element words that vector type names are built from (`float4`, `uchar16`).
const VECTOR_ELEMS: [&str; 11] = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half"];

/// Whether `word` names a built-in type.
pub fn is_type_word(word: &str) -> bool {
    if TYPE_WORDS.contains(&word) {
        return true;
    }
    let digits = word.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let stem = &word[..word.len() - digits.len()];
    matches!(digits, "2" | "3" | "4" | "8" | "16") && VECTOR_ELEMS.contains(&stem)
}

/// Address-space qualifiers. OpenCL's unprefixed spellings are keywords only in OpenCL C; in
/// CUDA `local` or `global` are ordinary names, and `__shared__`, `__constant__` and
/// `__device__` (on variables) name the spaces.
fn space_qualifier(word: &str, cuda: bool) -> Option<AddrSpaceQual> {
    Some(match (word, cuda) {
        ("__global", false) | ("global", false) | ("__device__", true) => AddrSpaceQual::Global,
        ("__local", false) | ("local", false) | ("__shared__", true) => AddrSpaceQual::Local,
        ("__constant", false) | ("constant", false) | ("__constant__", true) => AddrSpaceQual::Constant,
        ("__private", false) | ("private", false) => AddrSpaceQual::Private,
        ("__generic", false) | ("generic", false) => AddrSpaceQual::Generic,
        _ => return None,
    })
}

/// Qualifiers that carry no meaning for the simulation and are accepted silently.
fn is_ignored_qualifier(word: &str) -> bool {
    matches!(
        word,
        "restrict"
            | "__restrict"
            | "__restrict__"
            | "inline"
            | "__inline"
            | "__inline__"
            | "static"
            | "extern"
            | "register"
            | "__host__"
            | "__forceinline__"
            | "__noinline__"
    )
}

fn is_kernel_word(word: &str, cuda: bool) -> bool {
    match cuda {
        false => matches!(word, "__kernel" | "kernel"),
        true => word == "__global__",
    }
}

/// Points a diagnostic at the definition of the macro a token came from, if it did.
fn with_macro_origin(d: Diagnostic, t: &Token) -> Diagnostic {
    match t.origin {
        Some(def) if def != Span::default() => d.with_label(def, "in the expansion of this macro"),
        Some(_) => d.with_note("this token comes from a predefined or -D macro"),
        None => d,
    }
}

pub fn parse(tokens: &[Token], dialect: Dialect) -> Result<TranslationUnit, Diagnostic> {
    let cuda = dialect == Dialect::Cuda;
    let flattened;
    let tokens = if cuda && tokens.iter().any(|t| t.tok == Tok::Punct("::") || matches!(&t.tok, Tok::Ident(w) if w == "namespace")) {
        flattened = without_namespaces(tokens)?;
        &flattened[..]
    } else {
        tokens
    };
    let mut parser = Parser { tokens, pos: 0, depth: 0, typedefs: std::collections::HashSet::new(), cuda, reqd_work_group_size: None, packed: false };
    let mut unit = TranslationUnit::default();
    while !parser.at_eof() {
        if parser.eat_punct(";") {
            continue;
        }
        unit.items.push(parser.item()?);
    }
    Ok(unit)
}

/// C++ namespaces in CUDA code, flattened: `namespace N { ... }` keeps its declarations at
/// file scope, `using namespace N;` and `using N::x;` go, and a qualified name `N::M::x` (or
/// `::x`) is its last part. Names are then one file-wide scope, so two namespaces may not
/// declare the same name; that case is rare in kernel code and reported as a redefinition.
fn without_namespaces(tokens: &[Token]) -> Result<Vec<Token>, Diagnostic> {
    let ident = |t: Option<&Token>| matches!(t.map(|t| &t.tok), Some(Tok::Ident(_)));
    let is = |t: Option<&Token>, p: &str| matches!(t.map(|t| &t.tok), Some(Tok::Punct(q)) if *q == p);
    let word = |t: Option<&Token>, w: &str| matches!(t.map(|t| &t.tok), Some(Tok::Ident(x)) if x == w);
    let mut out = Vec::with_capacity(tokens.len());
    // For each open brace: the `namespace` keyword it belongs to, if any (its closing brace
    // goes too).
    let mut braces: Vec<Option<Span>> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if word(Some(t), "namespace") && (is(tokens.get(i + 1), "{") || (ident(tokens.get(i + 1)) && is(tokens.get(i + 2), "{"))) {
            i += if is(tokens.get(i + 1), "{") { 2 } else { 3 };
            braces.push(Some(t.span));
            continue;
        }
        if word(Some(t), "using") {
            // `using namespace N;` or `using N::x;`: nothing to declare once names are flat.
            let start = t.span;
            while i < tokens.len() && !is(tokens.get(i), ";") {
                i += 1;
            }
            if i == tokens.len() {
                return Err(Diagnostic::error("syntax-error", "expected `;` after a using-declaration").with_span(start, "this `using`"));
            }
            i += 1;
            continue;
        }
        if is(Some(t), "::") && ident(tokens.get(i + 1)) {
            // `::x` or the `::` of `N::x`, whose `N` was dropped below.
            i += 1;
            continue;
        }
        if ident(Some(t)) && is(tokens.get(i + 1), "::") && ident(tokens.get(i + 2)) {
            i += 2;
            continue;
        }
        match &t.tok {
            Tok::Punct("{") => braces.push(None),
            Tok::Punct("}") => {
                if let Some(Some(_)) = braces.pop() {
                    i += 1;
                    continue;
                }
            }
            _ => {}
        }
        out.push(t.clone());
        i += 1;
    }
    if let Some(open) = braces.into_iter().flatten().next() {
        return Err(Diagnostic::error("syntax-error", "unclosed namespace").with_span(open, "this namespace is never closed").with_help("add the missing `}`"));
    }
    Ok(out)
}

struct Parser<'t> {
    tokens: &'t [Token],
    pos: usize,
    /// Names declared with `typedef` so far: they start declarations.
    typedefs: std::collections::HashSet<String>,
    /// Parsing CUDA: its keywords, C++ casts and `nullptr`.
    cuda: bool,
    /// The last `reqd_work_group_size` attribute seen, for the function being parsed.
    reqd_work_group_size: Option<Vec<Expr>>,
    /// Whether a `packed` attribute was seen since the last struct took it.
    packed: bool,
    /// Nesting depth of expressions and statements, bounded so hostile input cannot overflow
    /// the host's stack.
    depth: u32,
}

const MAX_DEPTH: u32 = 200;

impl<'t> Parser<'t> {
    fn peek(&self) -> &'t Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> &'t Token {
        &self.tokens[(self.pos + n).min(self.tokens.len() - 1)]
    }

    fn at_eof(&self) -> bool {
        self.peek().tok == Tok::Eof
    }

    fn bump(&mut self) -> &'t Token {
        let t = self.peek();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn prev_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek().tok, Tok::Punct(q) if q == p)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn ident_is(&self, word: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(w) if w == word)
    }

    fn describe(tok: &Tok) -> String {
        match tok {
            Tok::Ident(w) => format!("`{w}`"),
            Tok::Int { .. } | Tok::Float { .. } => "a number".into(),
            Tok::Char(_) => "a character literal".into(),
            Tok::Str(_) => "a string".into(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the file".into(),
        }
    }

    fn error_here(&self, expected: &str) -> Diagnostic {
        let t = self.peek();
        let d = Diagnostic::error("syntax-error", format!("expected {expected}, found {}", Self::describe(&t.tok)))
            .with_span(t.span, format!("expected {expected}"));
        with_macro_origin(d, t)
    }

    fn expect_punct(&mut self, p: &str) -> Result<Span, Diagnostic> {
        if self.is_punct(p) {
            Ok(self.bump().span)
        } else {
            let mut d = self.error_here(&format!("`{p}`"));
            if p == ";" && self.pos > 0 {
                // A missing semicolon is best shown right after the previous token.
                let after = self.prev_span().end;
                d = Diagnostic::error("syntax-error", format!("expected `;`, found {}", Self::describe(&self.peek().tok)))
                    .with_span(Span::new(after, after), "expected `;` here")
                    .with_label(self.peek().span, "unexpected token")
                    .with_help("add `;` at the end of the statement");
                d = with_macro_origin(d, self.peek());
            }
            Err(d)
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Span), Diagnostic> {
        match &self.peek().tok {
            Tok::Ident(w) => {
                let span = self.bump().span;
                Ok((w.clone(), span))
            }
            _ => Err(self.error_here(what)),
        }
    }

    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error("unsupported", "the code is nested too deeply")
                .with_span(self.peek().span, "nesting limit reached here")
                .with_note(format!("expressions and statements may nest at most {MAX_DEPTH} levels deep")));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Whether the current token starts a type (and so a declaration or a cast).
    fn starts_type(&self) -> bool {
        match &self.peek().tok {
            Tok::Ident(w) => self.is_type_start(w),
            _ => false,
        }
    }

    fn is_type_start(&self, w: &str) -> bool {
        is_type_word(w)
            || (self.cuda && matches!(w, "dim3" | "auto" | "longlong2" | "ulonglong2"))
            || self.typedefs.contains(w)
            || space_qualifier(w, self.cuda).is_some()
            || matches!(w, "const" | "volatile" | "struct" | "union" | "enum" | "typedef")
            || (self.cuda && w == "constexpr")
            || (!self.cuda && w == "pipe")
            || is_ignored_qualifier(w)
    }

    fn skip_attributes(&mut self) -> Result<(), Diagnostic> {
        // CUDA's `__launch_bounds__(threads[, blocks])` is an occupancy hint for the compiler,
        // written where GNU attributes go; it changes no result, so it is skipped like them.
        while self.ident_is("__attribute__") || (self.cuda && self.ident_is("__launch_bounds__")) {
            self.bump();
            // `reqd_work_group_size` changes what a launch may do, so it is kept; other
            // attributes (hints, alignment, packing) do not change results and are skipped.
            if matches!(self.peek_at(2).tok, Tok::Ident(ref w) if w == "reqd_work_group_size")
                && self.is_punct("(")
                && matches!(self.peek_at(1).tok, Tok::Punct("("))
            {
                self.bump();
                self.bump();
                self.bump();
                self.expect_punct("(")?;
                let mut dims = Vec::new();
                while !self.is_punct(")") {
                    dims.push(self.assignment()?);
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct(")")?;
                self.expect_punct(")")?;
                self.expect_punct(")")?;
                self.reqd_work_group_size = Some(dims);
                continue;
            }
            let open = self.expect_punct("(")?;
            let mut level = 1;
            while level > 0 {
                if self.at_eof() {
                    return Err(Diagnostic::error("syntax-error", "unterminated `__attribute__`").with_span(open, "this parenthesis is never closed"));
                }
                match &self.bump().tok {
                    Tok::Punct("(") => level += 1,
                    Tok::Punct(")") => level -= 1,
                    // Packing changes a struct's layout, so it is remembered for the struct.
                    Tok::Ident(w) if w == "packed" || w == "__packed__" => self.packed = true,
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn type_spec(&mut self) -> Result<TypeSpec, Diagnostic> {
        let start = self.peek().span;
        let mut spec = TypeSpec { words: Vec::new(), tag: None, space: None, is_const: false, is_volatile: false, span: start };
        loop {
            self.skip_attributes()?;
            let Tok::Ident(w) = &self.peek().tok else { break };
            if let Some(space) = space_qualifier(w, self.cuda) {
                spec.space = Some(space);
            } else if w == "const" || (self.cuda && w == "constexpr") {
                spec.is_const = true;
            } else if w == "volatile" {
                spec.is_volatile = true;
            } else if is_ignored_qualifier(w) {
            } else if w == "pipe" && !self.cuda {
                return Err(Diagnostic::error("unsupported", "pipes are not supported")
                    .with_span(self.peek().span, "pipe")
                    .with_help("pass the data through a __global buffer"));
            } else if matches!(w.as_str(), "struct" | "union" | "enum") && spec.words.is_empty() && spec.tag.is_none() {
                spec.tag = Some(Box::new(self.tag_spec()?));
                continue;
            } else if (is_type_word(w) || (self.cuda && matches!(w.as_str(), "dim3" | "auto"))) && spec.tag.is_none() {
                spec.words.push(w.clone());
            } else if self.typedefs.contains(w) && spec.words.is_empty() && spec.tag.is_none() {
                spec.words.push(w.clone());
                self.bump();
                // A typedef name is a complete type: what follows is the declarator.
                self.skip_qualifiers(&mut spec);
                break;
            } else {
                break;
            }
            self.bump();
        }
        if spec.words.is_empty() && spec.tag.is_none() {
            return Err(self.error_here("a type"));
        }
        spec.span = start.to(self.prev_span());
        Ok(spec)
    }

    fn skip_qualifiers(&mut self, spec: &mut TypeSpec) {
        let level = self.qualifiers();
        spec.space = level.space.or(spec.space);
        spec.is_const |= level.is_const;
        spec.is_volatile |= level.is_volatile;
    }

    /// The address-space, `const` and `volatile` qualifiers at the current position.
    fn qualifiers(&mut self) -> PointerLevel {
        let mut level = PointerLevel { space: None, is_const: false, is_volatile: false };
        while let Tok::Ident(w) = &self.peek().tok {
            if let Some(space) = space_qualifier(w, self.cuda) {
                level.space = Some(space);
            } else if w == "const" {
                level.is_const = true;
            } else if w == "volatile" {
                level.is_volatile = true;
            } else if !is_ignored_qualifier(w) {
                break;
            }
            self.bump();
        }
        level
    }

    /// `struct NAME`, `struct NAME { fields }`, `union { ... }`, `enum NAME { A, B = 2 }`.
    fn tag_spec(&mut self) -> Result<TagSpec, Diagnostic> {
        let start = self.bump().span;
        self.packed = false;
        let kind = match &self.tokens[self.pos - 1].tok {
            Tok::Ident(w) if w == "struct" => TagKind::Struct,
            Tok::Ident(w) if w == "union" => TagKind::Union,
            _ => TagKind::Enum,
        };
        self.skip_attributes()?;
        let name = match &self.peek().tok {
            Tok::Ident(n) => {
                let n = n.clone();
                self.bump();
                Some(n)
            }
            _ => None,
        };
        let mut bases = Vec::new();
        if self.is_punct(":") && kind != TagKind::Enum {
            if !self.cuda {
                return Err(Diagnostic::error("unsupported", "struct inheritance is C++, not OpenCL C")
                    .with_span(self.peek().span, "base class list")
                    .with_help("copy the base's members into the struct"));
            }
            self.bump();
            loop {
                if matches!(&self.peek().tok, Tok::Ident(w) if matches!(w.as_str(), "public" | "private" | "protected")) {
                    self.bump();
                }
                if self.ident_is("virtual") {
                    return Err(Diagnostic::error("unsupported", "virtual inheritance is not supported").with_span(self.peek().span, "virtual"));
                }
                bases.push(self.ident("a base struct name")?);
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        let mut tag = TagSpec { kind, name, fields: None, enumerators: None, bases, packed: false, span: start };
        if self.eat_punct("{") {
            self.enter()?;
            if kind == TagKind::Enum {
                let mut items = Vec::new();
                while !self.is_punct("}") {
                    let (name, span) = self.ident("an enumerator name")?;
                    let value = if self.eat_punct("=") { Some(self.ternary()?) } else { None };
                    items.push(Enumerator { name, span, value });
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                tag.enumerators = Some(items);
            } else {
                let mut fields = Vec::new();
                while !self.is_punct("}") {
                    if self.at_eof() {
                        return Err(
                            Diagnostic::error("syntax-error", "unclosed struct or union definition").with_span(start, "this definition is never closed")
                        );
                    }
                    let base = self.type_spec()?;
                    loop {
                        let pointers = self.pointer_levels();
                        let (name, span) = self.ident("a field name")?;
                        let arrays = self.array_dims()?;
                        if self.is_punct(":") {
                            return Err(Diagnostic::error("unsupported", "bit-fields are not supported").with_span(self.peek().span, "bit-field width"));
                        }
                        fields.push(Field { name, span, ty: TypeExpr { base: base.clone(), pointers, arrays } });
                        if !self.eat_punct(",") {
                            break;
                        }
                    }
                    self.expect_punct(";")?;
                }
                tag.fields = Some(fields);
            }
            self.expect_punct("}")?;
            self.leave();
            self.skip_attributes()?;
            tag.packed = std::mem::take(&mut self.packed);
        } else if tag.name.is_none() {
            return Err(self.error_here("a name or `{` after `struct`, `union` or `enum`"));
        }
        tag.span = start.to(self.prev_span());
        // In C++ (CUDA) a struct's tag is also a type name.
        if self.cuda && kind != TagKind::Enum {
            if let Some(n) = &tag.name {
                self.typedefs.insert(n.clone());
            }
        }
        Ok(tag)
    }

    fn pointer_levels(&mut self) -> Vec<PointerLevel> {
        let mut levels = Vec::new();
        while self.eat_punct("*") {
            let level = self.qualifiers();
            levels.push(level);
        }
        levels
    }

    fn array_dims(&mut self) -> Result<Vec<Option<Expr>>, Diagnostic> {
        let mut dims = Vec::new();
        while self.eat_punct("[") {
            if self.eat_punct("]") {
                dims.push(None);
            } else {
                let e = self.assignment()?;
                self.expect_punct("]")?;
                dims.push(Some(e));
            }
        }
        Ok(dims)
    }

    /// A top-level item: a function, a program-scope variable, a typedef or a tag definition.
    fn item(&mut self) -> Result<Item, Diagnostic> {
        let start = self.peek().span;
        self.reqd_work_group_size = None;
        let mut template_params = Vec::new();
        if self.ident_is("typedef") {
            return match self.declaration()?.kind {
                StmtKind::Typedef(decls) => Ok(Item::Typedef(decls)),
                _ => Err(self.error_here("a typedef")),
            };
        }
        let mut is_kernel = false;
        loop {
            self.skip_attributes()?;
            match &self.peek().tok {
                Tok::Ident(w) if is_kernel_word(w, self.cuda) => {
                    is_kernel = true;
                    self.bump();
                }
                Tok::Ident(w) if w == "template" && self.cuda => {
                    template_params = self.template_header()?;
                }
                Tok::Ident(w) if w == "template" => {
                    return Err(Diagnostic::error("unsupported", "templates are C++, not OpenCL C").with_span(self.peek().span, "template"));
                }
                Tok::Ident(w) if self.cuda && matches!(w.as_str(), "texture" | "surface") => {
                    return Err(Diagnostic::error("unsupported", format!("CUDA {w} references are not supported"))
                        .with_span(self.peek().span, format!("{w} reference"))
                        .with_help("read the data through a pointer to global memory"));
                }
                _ => break,
            }
        }
        if !self.starts_type() {
            return Err(self.error_here("a function or declaration"));
        }
        let base = self.type_spec()?;
        if self.is_punct(";") && base.tag.is_some() {
            self.bump();
            return Ok(Item::Tag(base));
        }
        let pointers = self.pointer_levels();
        self.skip_attributes()?;
        self.refuse_declarator_forms()?;
        let (name, name_span) = self.ident("a name")?;
        if !self.is_punct("(") {
            // A program-scope variable: finish its declarator, then any further ones.
            let arrays = self.array_dims()?;
            let init = if self.eat_punct("=") { Some(self.initializer()?) } else { None };
            let mut decls = vec![VarDecl { name, name_span, ty: TypeExpr { base: base.clone(), pointers, arrays }, init }];
            while self.eat_punct(",") {
                decls.push(self.declarator(&base)?);
            }
            self.expect_punct(";")?;
            return Ok(Item::Global(decls, start.to(self.prev_span())));
        }
        self.expect_punct("(")?;
        let mut params = Vec::new();
        if !(self.ident_is("void") && matches!(self.peek_at(1).tok, Tok::Punct(")"))) {
            while !self.is_punct(")") {
                if self.is_punct("...") {
                    return Err(Diagnostic::error("unsupported", "variadic functions are not supported").with_span(self.peek().span, "`...`"));
                }
                let pbase = self.type_spec()?;
                let ppointers = self.pointer_levels();
                let is_ref = self.cuda && self.eat_punct("&");
                self.refuse_declarator_forms()?;
                // Parameter names may be left out in a prototype.
                let (pname, pspan) = match &self.peek().tok {
                    Tok::Ident(_) => self.ident("a parameter name")?,
                    _ => (String::new(), self.peek().span),
                };
                let arrays = self.array_dims()?;
                params.push(Param { name: pname, name_span: pspan, ty: TypeExpr { base: pbase, pointers: ppointers, arrays }, is_ref });
                if !self.eat_punct(",") {
                    break;
                }
            }
        } else {
            self.bump();
        }
        self.expect_punct(")")?;
        self.skip_attributes()?;
        let ret = TypeExpr { base, pointers, arrays: Vec::new() };
        if self.eat_punct(";") {
            let reqd_work_group_size = self.reqd_work_group_size.take();
            let span = start.to(self.prev_span());
            let f = Function { name, name_span, is_kernel, ret, params, body: None, reqd_work_group_size, template_params, span };
            return Ok(Item::Function(f));
        }
        if !self.is_punct("{") {
            return Err(self.error_here("`{` to start the function body"));
        }
        let body = match self.statement()?.kind {
            StmtKind::Block(stmts) => stmts,
            _ => Vec::new(),
        };
        let reqd_work_group_size = self.reqd_work_group_size.take();
        Ok(Item::Function(Function {
            name,
            name_span,
            is_kernel,
            ret,
            params,
            body: Some(body),
            reqd_work_group_size,
            template_params,
            span: start.to(self.prev_span()),
        }))
    }

    /// Refuses declarator forms outside the supported language with a clear diagnostic.
    fn refuse_declarator_forms(&self) -> Result<(), Diagnostic> {
        if self.is_punct("&") || self.is_punct("&&") {
            return Err(Diagnostic::error("unsupported", "C++ references are not supported")
                .with_span(self.peek().span, "reference")
                .with_help("pass a pointer instead"));
        }
        // `T (*p)[N]`, a pointer to an array, as opposed to `T (*f)(args)`.
        let array_pointer =
            matches!(self.peek_at(2).tok, Tok::Ident(_)) && matches!(self.peek_at(3).tok, Tok::Punct(")")) && matches!(self.peek_at(4).tok, Tok::Punct("["));
        if self.is_punct("(") && matches!(self.peek_at(1).tok, Tok::Punct("*")) && array_pointer {
            return Err(Diagnostic::error("unsupported", "pointers to arrays are not supported")
                .with_span(self.peek().span, "pointer-to-array declarator")
                .with_help("use a plain pointer and index it as p[i * N + j], or declare a parameter as T p[][N]"));
        }
        if self.is_punct("(") && matches!(self.peek_at(1).tok, Tok::Punct("*")) {
            return Err(Diagnostic::error("unsupported", "function pointers are not supported")
                .with_span(self.peek().span, "function pointer declarator")
                .with_note("OpenCL C has no function pointers; call the function directly"));
        }
        Ok(())
    }

    /// `template <typename T, class U>`: the type parameters, which then parse as type names.
    fn template_header(&mut self) -> Result<Vec<String>, Diagnostic> {
        let start = self.bump().span;
        self.expect_punct("<")?;
        let mut names = Vec::new();
        loop {
            if !(self.ident_is("typename") || self.ident_is("class")) {
                return Err(Diagnostic::error("unsupported", "only type parameters (`typename T`) are supported in templates")
                    .with_span(self.peek().span, "template parameter"));
            }
            self.bump();
            let (name, _) = self.ident("a template parameter name")?;
            self.typedefs.insert(name.clone());
            names.push(name);
            if !self.eat_punct(",") {
                break;
            }
        }
        if !self.eat_punct(">") {
            return Err(self.error_here("`>` to close the template parameters").with_label(start, "template"));
        }
        Ok(names)
    }

    fn declarator(&mut self, base: &TypeSpec) -> Result<VarDecl, Diagnostic> {
        let pointers = self.pointer_levels();
        self.refuse_declarator_forms()?;
        let (name, name_span) = self.ident("a variable name")?;
        let arrays = self.array_dims()?;
        let init = if self.eat_punct("=") { Some(self.initializer()?) } else { None };
        Ok(VarDecl { name, name_span, ty: TypeExpr { base: base.clone(), pointers, arrays }, init })
    }

    fn declaration(&mut self) -> Result<Stmt, Diagnostic> {
        let start = self.peek().span;
        let is_typedef = self.ident_is("typedef");
        if is_typedef {
            self.bump();
        }
        let base = self.type_spec()?;
        if base.tag.is_some() && self.is_punct(";") && !is_typedef {
            self.bump();
            return Ok(Stmt { kind: StmtKind::Tag(base), span: start.to(self.prev_span()) });
        }
        let mut decls = Vec::new();
        loop {
            decls.push(self.declarator(&base)?);
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(";")?;
        let kind = if is_typedef {
            for d in &decls {
                self.typedefs.insert(d.name.clone());
            }
            StmtKind::Typedef(decls)
        } else {
            StmtKind::Decl(decls)
        };
        Ok(Stmt { kind, span: start.to(self.prev_span()) })
    }

    fn initializer(&mut self) -> Result<Initializer, Diagnostic> {
        if self.is_punct("{") {
            let open = self.bump().span;
            self.enter()?;
            let mut items = Vec::new();
            while !self.is_punct("}") {
                items.push(self.list_item()?);
                if !self.eat_punct(",") {
                    break;
                }
            }
            self.expect_punct("}")?;
            self.leave();
            return Ok(Initializer::List(items, open.to(self.prev_span())));
        }
        Ok(Initializer::Expr(self.assignment()?))
    }

    /// An item of an initialiser list: an initialiser, or designators (`.m`, `[i]`), `=` and
    /// an initialiser. No expression starts with `.` or `[`, so they always begin a designator.
    fn list_item(&mut self) -> Result<Initializer, Diagnostic> {
        let start = self.peek().span;
        let mut designators = Vec::new();
        loop {
            if self.eat_punct(".") {
                let (name, span) = self.ident("a member name")?;
                designators.push(Designator::Member(name, span));
            } else if self.eat_punct("[") {
                designators.push(Designator::Index(self.ternary()?));
                self.expect_punct("]")?;
            } else {
                break;
            }
        }
        if designators.is_empty() {
            return self.initializer();
        }
        self.expect_punct("=")?;
        let value = self.initializer()?;
        Ok(Initializer::Designated(designators, Box::new(value), start.to(self.prev_span())))
    }

    fn statement(&mut self) -> Result<Stmt, Diagnostic> {
        self.enter()?;
        let stmt = self.statement_inner();
        self.leave();
        stmt
    }

    fn statement_inner(&mut self) -> Result<Stmt, Diagnostic> {
        let start = self.peek().span;
        let done = |p: &Self, kind| Ok(Stmt { kind, span: start.to(p.prev_span()) });
        if self.eat_punct("{") {
            let mut stmts = Vec::new();
            while !self.is_punct("}") {
                if self.at_eof() {
                    return Err(Diagnostic::error("syntax-error", "unclosed `{`")
                        .with_span(start, "this block is never closed")
                        .with_help("add the missing `}`"));
                }
                stmts.push(self.statement()?);
            }
            self.bump();
            return done(self, StmtKind::Block(stmts));
        }
        if self.eat_punct(";") {
            return done(self, StmtKind::Empty);
        }
        if self.starts_type() {
            return self.declaration();
        }
        let Tok::Ident(word) = &self.peek().tok else {
            let e = self.expression()?;
            self.expect_punct(";")?;
            return done(self, StmtKind::Expr(e));
        };
        match word.as_str() {
            "if" => {
                self.bump();
                self.expect_punct("(")?;
                let cond = self.expression()?;
                self.expect_punct(")")?;
                let then = Box::new(self.statement()?);
                let otherwise = if self.ident_is("else") {
                    self.bump();
                    Some(Box::new(self.statement()?))
                } else {
                    None
                };
                done(self, StmtKind::If(cond, then, otherwise))
            }
            "while" => {
                self.bump();
                self.expect_punct("(")?;
                let cond = self.expression()?;
                self.expect_punct(")")?;
                let body = Box::new(self.statement()?);
                done(self, StmtKind::While(cond, body))
            }
            "do" => {
                self.bump();
                let body = Box::new(self.statement()?);
                if !self.ident_is("while") {
                    return Err(self.error_here("`while` after the `do` body"));
                }
                self.bump();
                self.expect_punct("(")?;
                let cond = self.expression()?;
                self.expect_punct(")")?;
                self.expect_punct(";")?;
                done(self, StmtKind::DoWhile(body, cond))
            }
            "for" => {
                self.bump();
                self.expect_punct("(")?;
                let init = if self.eat_punct(";") {
                    None
                } else if self.starts_type() {
                    Some(Box::new(self.declaration()?))
                } else {
                    let s = self.peek().span;
                    let e = self.expression()?;
                    self.expect_punct(";")?;
                    Some(Box::new(Stmt { kind: StmtKind::Expr(e), span: s.to(self.prev_span()) }))
                };
                let cond = if self.is_punct(";") { None } else { Some(self.expression()?) };
                self.expect_punct(";")?;
                let step = if self.is_punct(")") { None } else { Some(self.expression()?) };
                self.expect_punct(")")?;
                let body = Box::new(self.statement()?);
                done(self, StmtKind::For(init, cond, step, body))
            }
            "return" => {
                self.bump();
                let value = if self.is_punct(";") { None } else { Some(self.expression()?) };
                self.expect_punct(";")?;
                done(self, StmtKind::Return(value))
            }
            "break" | "continue" => {
                let is_break = word == "break";
                self.bump();
                self.expect_punct(";")?;
                done(self, if is_break { StmtKind::Break } else { StmtKind::Continue })
            }
            "switch" => {
                self.bump();
                self.expect_punct("(")?;
                let value = self.expression()?;
                self.expect_punct(")")?;
                let body = self.statement()?;
                let stmts = match body.kind {
                    StmtKind::Block(stmts) => stmts,
                    _ => vec![body],
                };
                done(self, StmtKind::Switch(value, stmts))
            }
            "case" => {
                self.bump();
                let value = self.ternary()?;
                self.expect_punct(":")?;
                done(self, StmtKind::Case(value))
            }
            "default" if matches!(self.peek_at(1).tok, Tok::Punct(":")) => {
                self.bump();
                self.bump();
                done(self, StmtKind::Default)
            }
            "asm" | "__asm__" | "__asm" => Err(Diagnostic::error("unsupported", "inline assembly (PTX) is not supported")
                .with_span(self.peek().span, "inline assembly")
                .with_help("write the operation in CUDA C")),
            "goto" => {
                self.bump();
                let (name, name_span) = self.ident("a label after `goto`")?;
                self.expect_punct(";")?;
                done(self, StmtKind::Goto(name, name_span))
            }
            // A label (`done:`, or `B1: barrier(...)` as litmus tests name their barriers),
            // kept with the statement it labels, so that `if (c) L: s;` stays one statement.
            // Before `}` it labels nothing, and before a declaration it stands alone, so that
            // the declaration stays in the block's scope.
            _ if matches!(self.peek_at(1).tok, Tok::Punct(":")) => {
                let (name, name_span) = self.ident("a label")?;
                self.bump();
                let label = Stmt { kind: StmtKind::Label(name, name_span), span: start.to(self.prev_span()) };
                if self.is_punct("}") || self.starts_type() {
                    return Ok(label);
                }
                let statement = self.statement()?;
                done(self, StmtKind::Block(vec![label, statement]))
            }
            _ => {
                let e = self.expression()?;
                self.expect_punct(";")?;
                done(self, StmtKind::Expr(e))
            }
        }
    }

    fn expression(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.assignment()?;
        while self.eat_punct(",") {
            let rhs = self.assignment()?;
            let span = e.span.to(rhs.span);
            e = Expr { kind: ExprKind::Comma(Box::new(e), Box::new(rhs)), span };
        }
        Ok(e)
    }

    fn assignment(&mut self) -> Result<Expr, Diagnostic> {
        self.enter()?;
        let lhs = self.ternary()?;
        let op = match &self.peek().tok {
            Tok::Punct(p) => match *p {
                "=" => Some(None),
                "+=" => Some(Some(BinOp::Add)),
                "-=" => Some(Some(BinOp::Sub)),
                "*=" => Some(Some(BinOp::Mul)),
                "/=" => Some(Some(BinOp::Div)),
                "%=" => Some(Some(BinOp::Rem)),
                "<<=" => Some(Some(BinOp::Shl)),
                ">>=" => Some(Some(BinOp::Shr)),
                "&=" => Some(Some(BinOp::BitAnd)),
                "|=" => Some(Some(BinOp::BitOr)),
                "^=" => Some(Some(BinOp::BitXor)),
                _ => None,
            },
            _ => None,
        };
        let result = match op {
            Some(op) => {
                self.bump();
                let rhs = self.assignment()?;
                let span = lhs.span.to(rhs.span);
                Ok(Expr { kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span })
            }
            None => Ok(lhs),
        };
        self.leave();
        result
    }

    fn ternary(&mut self) -> Result<Expr, Diagnostic> {
        let cond = self.binary(0)?;
        if !self.eat_punct("?") {
            return Ok(cond);
        }
        let then = self.expression()?;
        self.expect_punct(":")?;
        let otherwise = self.assignment()?;
        let span = cond.span.to(otherwise.span);
        Ok(Expr { kind: ExprKind::Ternary(Box::new(cond), Box::new(then), Box::new(otherwise)), span })
    }

    fn binary_op(&self) -> Option<(BinOp, u8)> {
        let Tok::Punct(p) = self.peek().tok else { return None };
        Some(match p {
            "||" => (BinOp::LogOr, 1),
            "&&" => (BinOp::LogAnd, 2),
            "|" => (BinOp::BitOr, 3),
            "^" => (BinOp::BitXor, 4),
            "&" => (BinOp::BitAnd, 5),
            "==" => (BinOp::Eq, 6),
            "!=" => (BinOp::Ne, 6),
            "<" => (BinOp::Lt, 7),
            "<=" => (BinOp::Le, 7),
            ">" => (BinOp::Gt, 7),
            ">=" => (BinOp::Ge, 7),
            "<<" => (BinOp::Shl, 8),
            ">>" => (BinOp::Shr, 8),
            "+" => (BinOp::Add, 9),
            "-" => (BinOp::Sub, 9),
            "*" => (BinOp::Mul, 10),
            "/" => (BinOp::Div, 10),
            "%" => (BinOp::Rem, 10),
            _ => return None,
        })
    }

    fn binary(&mut self, min_prec: u8) -> Result<Expr, Diagnostic> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = self.binary_op() {
            if prec <= min_prec {
                break;
            }
            self.bump();
            self.enter()?;
            let rhs = self.binary(prec)?;
            self.leave();
            let span = lhs.span.to(rhs.span);
            lhs = Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span };
        }
        Ok(lhs)
    }

    /// Whether `(` at the current position opens a cast: `(` followed by a type.
    fn at_cast(&self) -> bool {
        if !self.is_punct("(") {
            return false;
        }
        match &self.peek_at(1).tok {
            Tok::Ident(w) => self.is_type_start(w) && w != "typedef",
            _ => false,
        }
    }

    fn type_expr_abstract(&mut self) -> Result<TypeExpr, Diagnostic> {
        let base = self.type_spec()?;
        let pointers = self.pointer_levels();
        let arrays = self.array_dims()?;
        Ok(TypeExpr { base, pointers, arrays })
    }

    fn unary(&mut self) -> Result<Expr, Diagnostic> {
        self.enter()?;
        let e = self.unary_inner();
        self.leave();
        e
    }

    fn unary_inner(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.peek().span;
        if self.at_cast() {
            self.bump();
            let ty = self.type_expr_abstract()?;
            self.expect_punct(")")?;
            if self.is_punct("{") {
                let Initializer::List(items, _) = self.initializer()? else { return Err(self.error_here("`{`")) };
                return Ok(Expr { kind: ExprKind::CompoundLiteral(Box::new(ty), items), span: start.to(self.prev_span()) });
            }
            let operand = self.unary()?;
            let span = start.to(operand.span);
            return Ok(Expr { kind: ExprKind::Cast(Box::new(ty), Box::new(operand)), span });
        }
        // `vec_step(unsigned int)` names a type the way sizeof does; the type travels to the
        // built-in as a `SizeofType` operand. `vec_step(x)` is an ordinary call.
        if self.ident_is("vec_step")
            && matches!(self.peek_at(1).tok, Tok::Punct("("))
            && matches!(&self.peek_at(2).tok, Tok::Ident(w) if self.is_type_start(w) && w != "typedef")
        {
            let callee = Expr { kind: ExprKind::Ident("vec_step".into()), span: self.bump().span };
            self.bump();
            let type_start = self.peek().span;
            let ty = self.type_expr_abstract()?;
            let type_span = type_start.to(self.prev_span());
            self.expect_punct(")")?;
            let operand = Expr { kind: ExprKind::SizeofType(Box::new(ty)), span: type_span };
            return Ok(Expr { kind: ExprKind::Call(Box::new(callee), vec![operand]), span: start.to(self.prev_span()) });
        }
        if self.ident_is("sizeof") {
            self.bump();
            if self.at_cast() {
                self.bump();
                let ty = self.type_expr_abstract()?;
                self.expect_punct(")")?;
                return Ok(Expr { kind: ExprKind::SizeofType(Box::new(ty)), span: start.to(self.prev_span()) });
            }
            let operand = self.unary()?;
            let span = start.to(operand.span);
            return Ok(Expr { kind: ExprKind::SizeofExpr(Box::new(operand)), span });
        }
        let op = match self.peek().tok {
            Tok::Punct("-") => Some(UnOp::Neg),
            Tok::Punct("+") => Some(UnOp::Plus),
            Tok::Punct("!") => Some(UnOp::Not),
            Tok::Punct("~") => Some(UnOp::BitNot),
            Tok::Punct("*") => Some(UnOp::Deref),
            Tok::Punct("&") => Some(UnOp::AddrOf),
            Tok::Punct("++") => Some(UnOp::PreInc),
            Tok::Punct("--") => Some(UnOp::PreDec),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let operand = self.unary()?;
            let span = start.to(operand.span);
            return Ok(Expr { kind: ExprKind::Unary(op, Box::new(operand)), span });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.primary()?;
        loop {
            if self.eat_punct("(") {
                let mut args = Vec::new();
                while !self.is_punct(")") {
                    args.push(self.assignment()?);
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                self.expect_punct(")")?;
                let span = e.span.to(self.prev_span());
                e = Expr { kind: ExprKind::Call(Box::new(e), args), span };
            } else if self.eat_punct("[") {
                let index = self.expression()?;
                self.expect_punct("]")?;
                let span = e.span.to(self.prev_span());
                e = Expr { kind: ExprKind::Index(Box::new(e), Box::new(index)), span };
            } else if self.is_punct(".") || self.is_punct("->") {
                let arrow = self.is_punct("->");
                self.bump();
                let (field, fspan) = self.ident("a field name")?;
                let span = e.span.to(fspan);
                e = Expr { kind: ExprKind::Member(Box::new(e), field, arrow), span };
            } else if self.is_punct("++") || self.is_punct("--") {
                let op = if self.is_punct("++") { UnOp::PostInc } else { UnOp::PostDec };
                self.bump();
                let span = e.span.to(self.prev_span());
                e = Expr { kind: ExprKind::Unary(op, Box::new(e)), span };
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, Diagnostic> {
        let t = self.peek();
        if let Tok::Ident(w) = &t.tok {
            if self.cuda && matches!(w.as_str(), "static_cast" | "reinterpret_cast" | "const_cast") {
                // `static_cast<T>(e)` is a C cast written the C++ way.
                let start = self.bump().span;
                self.expect_punct("<")?;
                let ty = self.type_expr_abstract()?;
                self.expect_punct(">")?;
                self.expect_punct("(")?;
                let operand = self.expression()?;
                self.expect_punct(")")?;
                return Ok(Expr { kind: ExprKind::Cast(Box::new(ty), Box::new(operand)), span: start.to(self.prev_span()) });
            }
            if self.cuda && w == "dynamic_cast" {
                return Err(Diagnostic::error("unsupported", "`dynamic_cast` is not supported").with_span(t.span, "dynamic_cast"));
            }
        }
        let kind = match &t.tok {
            Tok::Ident(w) => ExprKind::Ident(w.clone()),
            Tok::Int { value, unsigned, long } => ExprKind::Int { value: *value, unsigned: *unsigned, long: *long },
            Tok::Float { value, single } => ExprKind::Float { value: *value, single: *single },
            Tok::Char(c) => ExprKind::Char(*c),
            Tok::Str(s) => {
                let mut text = s.clone();
                let mut span = t.span;
                self.bump();
                // Adjacent string literals concatenate, as in C.
                while let Tok::Str(more) = &self.peek().tok {
                    text.push_str(more);
                    span = span.to(self.bump().span);
                }
                return Ok(Expr { kind: ExprKind::Str(text), span });
            }
            Tok::Punct("(") => {
                let open = self.bump().span;
                let inner = self.expression()?;
                self.expect_punct(")")?;
                return Ok(Expr { kind: inner.kind, span: open.to(self.prev_span()) });
            }
            _ => return Err(self.error_here("an expression")),
        };
        let span = self.bump().span;
        Ok(Expr { kind, span })
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex;
    use super::*;

    fn parse_expr(text: &str) -> Expr {
        let src = format!("void f() {{ {text}; }}");
        let unit = parse(&lex(&src).unwrap(), Dialect::OpenCl).unwrap();
        let Some(Item::Function(f)) = unit.items.first() else { panic!("not a function: {unit:?}") };
        match &f.body.as_ref().unwrap()[0].kind {
            StmtKind::Expr(e) => e.clone(),
            other => panic!("not an expression: {other:?}"),
        }
    }

    fn shape(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Ident(n) => n.clone(),
            ExprKind::Int { value, .. } => value.to_string(),
            ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", shape(a), shape(b)),
            ExprKind::Assign(op, a, b) => format!("({} ={op:?} {})", shape(a), shape(b)),
            ExprKind::Unary(op, a) => format!("({op:?} {})", shape(a)),
            ExprKind::Ternary(a, b, c) => format!("({} ? {} : {})", shape(a), shape(b), shape(c)),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn precedence_and_associativity_follow_c() {
        assert_eq!(shape(&parse_expr("a + b * c - d")), "((a Add (b Mul c)) Sub d)");
        assert_eq!(shape(&parse_expr("a = b = c")), "(a =None (b =None c))");
        assert_eq!(shape(&parse_expr("a < b == c && d || e")), "((((a Lt b) Eq c) LogAnd d) LogOr e)");
        assert_eq!(shape(&parse_expr("-a++ ? 1 : 2")), "((Neg (PostInc a)) ? 1 : 2)");
        assert_eq!(shape(&parse_expr("a << 1 & 3")), "((a Shl 1) BitAnd 3)");
    }

    #[test]
    fn missing_semicolon_points_after_the_statement() {
        let src = "void f() { int a = 1\n a = 2; }";
        let err = parse(&lex(src).unwrap(), Dialect::OpenCl).unwrap_err();
        assert_eq!(err.code, "syntax-error");
        assert_eq!(err.span, Some(Span::new(20, 20)));
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let src = format!("void f() {{ x = {}1{}; }}", "(".repeat(5000), ")".repeat(5000));
        let err = parse(&lex(&src).unwrap(), Dialect::OpenCl).unwrap_err();
        assert_eq!(err.code, "unsupported");
    }
}
