//! The C preprocessor, over tokens.
//!
//! Directives (`#define`, `#undef`, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`,
//! `#include` of the usual system headers, `#pragma`, `#error`, `#line`, `#warning`) are
//! handled line by line; macros are expanded with the classic hide-set algorithm (Prosser's
//! formulation of C99 6.10.3), so self-referencing macros stop instead of looping.
//!
//! A token produced by a macro keeps the span of the macro's use site, so diagnostics point
//! at the user's line, and remembers the definition in `origin` for a note.

use std::collections::HashMap;
use std::rc::Rc;

use super::lexer::{lex_fragment, Tok, Token};
use crate::diag::{Diagnostic, Span};
use crate::scenario::Dialect;

/// What the preprocessor starts from.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub dialect: Option<Dialect>,
    /// `-D NAME` or `-D NAME=VALUE` definitions, in order.
    pub defines: Vec<(String, String)>,
}

/// Headers that kernels include for host-side or library declarations; including them is a
/// no-op because their contents are built in.
const KNOWN_HEADERS: [&str; 31] = [
    "cuda_runtime.h",
    "cuda.h",
    "device_launch_parameters.h",
    "cuda_runtime_api.h",
    "device_functions.h",
    "sm_20_atomic_functions.h",
    "sm_32_atomic_functions.h",
    "cuda_fp16.h",
    "stdio.h",
    "stdlib.h",
    "assert.h",
    "stdint.h",
    "stddef.h",
    "stdbool.h",
    "math.h",
    "limits.h",
    "float.h",
    "string.h",
    "cstdio",
    "cstdint",
    "cassert",
    "cstdlib",
    "cmath",
    "climits",
    "cfloat",
    "cstring",
    "cstddef",
    "vector_types.h",
    "math_constants.h",
    "opencl-c.h",
    "CL/cl.h",
];

#[derive(Clone, Debug)]
struct Macro {
    /// `None` for an object-like macro.
    params: Option<Vec<String>>,
    variadic: bool,
    body: Vec<Token>,
    /// Where it was defined (empty for predefined and `-D` macros).
    def_span: Span,
}

/// The set of macro names a token may no longer expand (it came out of their expansion).
type HideSet = Rc<Vec<String>>;

#[derive(Clone, Debug)]
struct PpToken {
    token: Token,
    hide: HideSet,
}

fn predefined(dialect: Option<Dialect>) -> Vec<(&'static str, &'static str)> {
    let mut defs = vec![
        ("__LINE__", "0"),
        ("__FILE__", "\"kernel\""),
        ("CHAR_BIT", "8"),
        ("SCHAR_MAX", "127"),
        ("SCHAR_MIN", "(-128)"),
        ("CHAR_MAX", "127"),
        ("CHAR_MIN", "(-128)"),
        ("UCHAR_MAX", "255"),
        ("SHRT_MAX", "32767"),
        ("SHRT_MIN", "(-32768)"),
        ("USHRT_MAX", "65535"),
        ("INT_MAX", "2147483647"),
        ("INT_MIN", "(-2147483647-1)"),
        ("UINT_MAX", "0xffffffffu"),
        ("LONG_MAX", "0x7fffffffffffffffL"),
        ("LONG_MIN", "(-0x7fffffffffffffffL-1)"),
        ("ULONG_MAX", "0xffffffffffffffffUL"),
        ("FLT_MAX", "3.40282347e+38f"),
        ("FLT_MIN", "1.17549435e-38f"),
        ("FLT_EPSILON", "1.1920929e-7f"),
        ("DBL_MAX", "1.7976931348623157e308"),
        ("DBL_MIN", "2.2250738585072014e-308"),
        ("DBL_EPSILON", "2.220446049250313e-16"),
        ("M_PI", "3.14159265358979323846"),
        ("M_PI_F", "3.14159274f"),
        ("M_E", "2.71828182845904523536"),
        ("M_E_F", "2.71828183f"),
    ];
    match dialect {
        Some(Dialect::Cuda) => defs.extend([("__CUDACC__", "1"), ("__NVCC__", "1"), ("__CUDA_ARCH__", "700"), ("warpSize", "32")]),
        _ => defs.extend([
            ("__OPENCL_VERSION__", "200"),
            ("__OPENCL_C_VERSION__", "200"),
            ("CL_VERSION_1_0", "100"),
            ("CL_VERSION_1_1", "110"),
            ("CL_VERSION_1_2", "120"),
            ("CL_VERSION_2_0", "200"),
            ("__ENDIAN_LITTLE__", "1"),
            ("__IMAGE_SUPPORT__", "0"),
            ("__kernel_exec(X, typen)", "__kernel __attribute__((work_group_size_hint(X, 1, 1)))"),
            ("CLK_LOCAL_MEM_FENCE", "1"),
            ("CLK_GLOBAL_MEM_FENCE", "2"),
            ("CLK_IMAGE_MEM_FENCE", "4"),
            ("ATOMIC_VAR_INIT(v)", "(v)"),
            ("ATOMIC_FLAG_INIT", "0"),
            ("MAXFLOAT", "3.40282347e+38f"),
            ("HUGE_VALF", "(1.0f/0.0f)"),
            ("HUGE_VAL", "(1.0/0.0)"),
            ("INFINITY", "(1.0f/0.0f)"),
            ("NAN", "(0.0f/0.0f)"),
            ("FLT_DIG", "6"),
            ("FLT_MANT_DIG", "24"),
            ("DBL_DIG", "15"),
            ("DBL_MANT_DIG", "53"),
            // What `ilogb` returns for 0 and for NaN (the engine's `ilogb` gives these).
            ("FP_ILOGB0", "(-2147483647-1)"),
            ("FP_ILOGBNAN", "2147483647"),
        ]),
    }
    defs
}

fn pp_error(span: Span, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::error("syntax-error", message).with_span(span, label)
}

struct Pp<'s> {
    source: &'s str,
    macros: HashMap<String, Rc<Macro>>,
    /// Nesting of argument pre-expansion, bounded so hostile input cannot overflow the stack.
    depth: u32,
    /// Bound on expansion work, so a macro bomb stops with a diagnostic instead of exhausting
    /// memory.
    budget: usize,
}

const EXPANSION_BUDGET: usize = 2_000_000;
const MAX_EXPANSION_DEPTH: u32 = 200;

/// Runs the preprocessor over the tokens of `source`.
pub fn preprocess(tokens: Vec<Token>, source: &str, config: &Config) -> Result<Vec<Token>, Diagnostic> {
    let mut pp = Pp { source, macros: HashMap::new(), depth: 0, budget: EXPANSION_BUDGET };
    for (head, body) in predefined(config.dialect) {
        pp.define_text(head, body)?;
    }
    for (name, value) in &config.defines {
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            return Err(Diagnostic::error("invalid-option", format!("`{name}` is not a valid macro name in -D {name}={value}"))
                .with_help("a macro name starts with a letter or `_` and has only letters, digits and `_`"));
        }
        let head = name.as_str();
        let value = if value.is_empty() { "1" } else { value.as_str() };
        pp.define_text(head, value).map_err(|d| Diagnostic::error("invalid-option", format!("invalid definition -D {name}={value}: {}", d.message)))?;
    }
    pp.run(tokens)
}

/// One level of `#if` nesting.
struct Cond {
    /// Whether the current branch's lines are kept.
    active: bool,
    /// Whether some branch of this `#if` has been taken already.
    taken: bool,
    /// Whether the enclosing region is active.
    parent_active: bool,
    /// Whether `#else` has been seen.
    seen_else: bool,
    span: Span,
}

impl<'s> Pp<'s> {
    fn define_text(&mut self, head: &str, body: &str) -> Result<(), Diagnostic> {
        let text = format!("{head} {body}");
        let tokens = lex_fragment(&text, Span::default())?;
        let (name, mac) = self.parse_define(&tokens, Span::default())?;
        self.macros.insert(name, Rc::new(mac));
        Ok(())
    }

    fn spelling(&self, t: &Token) -> String {
        match &t.tok {
            Tok::Ident(s) => s.clone(),
            Tok::Punct(p) => (*p).to_string(),
            _ if t.origin.is_none() && (t.span.end as usize) <= self.source.len() && t.span.start < t.span.end => {
                self.source.get(t.span.start as usize..t.span.end as usize).unwrap_or_default().to_string()
            }
            Tok::Int { value, unsigned, long } => {
                format!("{value}{}{}", if *unsigned { "u" } else { "" }, if *long { "l" } else { "" })
            }
            Tok::Float { value, single } => format!("{value:?}{}", if *single { "f" } else { "" }),
            Tok::Char(c) => format!("'{}'", char::from(*c).escape_default()),
            Tok::Str(s) => format!("{s:?}"),
            Tok::Eof => String::new(),
        }
    }

    fn run(&mut self, tokens: Vec<Token>) -> Result<Vec<Token>, Diagnostic> {
        let mut out = Vec::new();
        let mut conds: Vec<Cond> = Vec::new();
        let mut i = 0;
        let eof = tokens.last().cloned();
        // Text lines between directives are collected and expanded together, because a macro
        // call's arguments may span lines.
        let mut pending: Vec<Token> = Vec::new();
        while i < tokens.len() {
            let t = &tokens[i];
            if t.tok == Tok::Eof {
                break;
            }
            let active = conds.last().is_none_or(|c| c.active);
            if t.line_start && t.tok == Tok::Punct("#") {
                let mut end = i + 1;
                while end < tokens.len() && !tokens[end].line_start && tokens[end].tok != Tok::Eof {
                    end += 1;
                }
                let line = &tokens[i + 1..end];
                let directive_span = t.span.to(tokens[end - 1].span);
                if !pending.is_empty() {
                    let expanded = self.expand(std::mem::take(&mut pending))?;
                    out.extend(expanded);
                }
                self.directive(line, directive_span, active, &mut conds)?;
                i = end;
                continue;
            }
            if active {
                pending.push(t.clone());
            }
            i += 1;
        }
        if let Some(c) = conds.last() {
            return Err(pp_error(c.span, "unterminated conditional directive", "this `#if` has no `#endif`").with_help("add `#endif`"));
        }
        if !pending.is_empty() {
            out.extend(self.expand(pending)?);
        }
        if let Some(eof) = eof {
            out.push(eof);
        }
        Ok(out)
    }

    fn directive(&mut self, line: &[Token], span: Span, active: bool, conds: &mut Vec<Cond>) -> Result<(), Diagnostic> {
        let Some(first) = line.first() else { return Ok(()) };
        let name = match &first.tok {
            Tok::Ident(n) => n.as_str(),
            // `# 12 "file"` line markers.
            Tok::Int { .. } => return Ok(()),
            _ => return Err(pp_error(first.span, "expected a preprocessor directive", "not a directive")),
        };
        let rest = &line[1..];
        match name {
            "if" | "ifdef" | "ifndef" => {
                let value = if !active {
                    false
                } else if name == "if" {
                    self.eval_condition(rest, span)?
                } else {
                    let Some(Token { tok: Tok::Ident(m), .. }) = rest.first() else {
                        return Err(pp_error(span, format!("`#{name}` needs a macro name"), "here"));
                    };
                    self.macros.contains_key(m) == (name == "ifdef")
                };
                conds.push(Cond { active: active && value, taken: value, parent_active: active, seen_else: false, span });
            }
            "elif" | "else" => {
                let Some(c) = conds.last_mut() else {
                    return Err(pp_error(span, format!("`#{name}` without `#if`"), "no matching `#if`"));
                };
                if c.seen_else {
                    return Err(pp_error(span, format!("`#{name}` after `#else`"), "here").with_label(c.span, "this `#if`"));
                }
                if name == "else" {
                    c.seen_else = true;
                    c.active = c.parent_active && !c.taken;
                    c.taken = true;
                } else {
                    let (parent_active, taken) = (c.parent_active, c.taken);
                    let value = parent_active && !taken && self.eval_condition(rest, span)?;
                    let c = conds.last_mut().expect("checked above");
                    c.active = value;
                    c.taken |= value;
                }
            }
            "endif" => {
                if conds.pop().is_none() {
                    return Err(pp_error(span, "`#endif` without `#if`", "no matching `#if`"));
                }
            }
            _ if !active => {}
            "define" => {
                let (name, mac) = self.parse_define(rest, span)?;
                if name == "defined" {
                    return Err(pp_error(span, "`defined` cannot be defined as a macro", "here"));
                }
                self.macros.insert(name, Rc::new(mac));
            }
            "undef" => {
                if let Some(Token { tok: Tok::Ident(m), .. }) = rest.first() {
                    self.macros.remove(m);
                }
            }
            "include" => {
                let header = self.header_name(rest);
                if KNOWN_HEADERS.iter().any(|h| *h == header) {
                    return Ok(());
                }
                return Err(Diagnostic::error("unsupported", format!("`#include` of `{header}` is not supported"))
                    .with_span(span, "include")
                    .with_note("a kernel must be one self-contained file; standard headers such as stdio.h and cuda_runtime.h are accepted and ignored")
                    .with_help("paste the included definitions into the kernel"));
            }
            "pragma" | "line" | "warning" | "ident" => {}
            "error" => {
                let text = match (rest.first(), rest.last()) {
                    (Some(a), Some(b)) => self.source.get(a.span.start as usize..b.span.end as usize).unwrap_or_default(),
                    _ => "",
                };
                return Err(Diagnostic::error("syntax-error", format!("#error {text}")).with_span(span, "`#error` reached"));
            }
            other => {
                return Err(Diagnostic::error("unsupported", format!("the preprocessor directive `#{other}` is not supported")).with_span(span, "directive"))
            }
        }
        Ok(())
    }

    fn header_name(&self, rest: &[Token]) -> String {
        match rest.first().map(|t| &t.tok) {
            Some(Tok::Str(s)) => s.clone(),
            Some(Tok::Punct("<")) => rest[1..].iter().take_while(|t| t.tok != Tok::Punct(">")).map(|t| self.spelling(t)).collect::<String>(),
            _ => rest.iter().map(|t| self.spelling(t)).collect(),
        }
    }

    fn parse_define(&self, line: &[Token], span: Span) -> Result<(String, Macro), Diagnostic> {
        let Some(Token { tok: Tok::Ident(name), span: name_span, .. }) = line.first() else {
            return Err(pp_error(span, "`#define` needs a macro name", "here"));
        };
        let mut body_start = 1;
        let mut params = None;
        let mut variadic = false;
        if let Some(open) = line.get(1) {
            if open.tok == Tok::Punct("(") && !open.space_before {
                let mut names = Vec::new();
                let mut k = 2;
                loop {
                    match line.get(k).map(|t| &t.tok) {
                        Some(Tok::Punct(")")) => break,
                        Some(Tok::Ident(p)) => names.push(p.clone()),
                        Some(Tok::Punct("...")) => {
                            variadic = true;
                            names.push("__VA_ARGS__".into());
                        }
                        _ => return Err(pp_error(*name_span, format!("invalid parameter list of macro `{name}`"), "here")),
                    }
                    k += 1;
                    match line.get(k).map(|t| &t.tok) {
                        Some(Tok::Punct(",")) => k += 1,
                        Some(Tok::Punct(")")) => break,
                        _ => return Err(pp_error(*name_span, format!("invalid parameter list of macro `{name}`"), "here")),
                    }
                }
                params = Some(names);
                body_start = k + 1;
            }
        }
        let body = line.get(body_start..).unwrap_or_default().to_vec();
        Ok((name.clone(), Macro { params, variadic, body, def_span: span }))
    }

    fn eval_condition(&mut self, line: &[Token], span: Span) -> Result<bool, Diagnostic> {
        // `defined X` and `defined(X)` are resolved before expansion, as the standard says.
        let mut resolved = Vec::new();
        let mut k = 0;
        while k < line.len() {
            if line[k].tok == Tok::Ident("defined".into()) {
                let (name, next) = match (line.get(k + 1).map(|t| &t.tok), line.get(k + 2).map(|t| &t.tok)) {
                    (Some(Tok::Ident(n)), _) => (n.clone(), k + 2),
                    (Some(Tok::Punct("(")), Some(Tok::Ident(n))) if line.get(k + 3).map(|t| &t.tok) == Some(&Tok::Punct(")")) => (n.clone(), k + 4),
                    _ => return Err(pp_error(line[k].span, "`defined` needs a macro name", "here")),
                };
                let value = self.macros.contains_key(&name) as u64;
                resolved.push(Token { tok: Tok::Int { value, unsigned: false, long: false }, ..line[k].clone() });
                k = next;
            } else {
                resolved.push(line[k].clone());
                k += 1;
            }
        }
        let expanded = self.expand(resolved)?;
        let mut eval = CondEval { tokens: &expanded, pos: 0, span };
        let value = eval.ternary()?;
        if eval.pos < expanded.len() {
            return Err(pp_error(expanded[eval.pos].span, "unexpected token in `#if` condition", "here"));
        }
        Ok(value != 0)
    }

    /// Fully macro-expands a token list.
    fn expand(&mut self, tokens: Vec<Token>) -> Result<Vec<Token>, Diagnostic> {
        let tokens = tokens.into_iter().map(|token| PpToken { token, hide: Rc::new(Vec::new()) }).collect();
        Ok(self.expand_pp(tokens)?.into_iter().map(|pt| pt.token).collect())
    }

    /// Expands tokens that carry hide sets. Arguments are pre-expanded with their own hide
    /// sets, so a macro that reaches itself through another macro's argument stops.
    fn expand_pp(&mut self, tokens: Vec<PpToken>) -> Result<Vec<PpToken>, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_EXPANSION_DEPTH {
            let span = tokens.first().map_or(Span::default(), |t| t.token.span);
            return Err(Diagnostic::error("unsupported", "macro arguments are nested too deeply")
                .with_span(span, "while expanding this")
                .with_note(format!("macro calls may nest at most {MAX_EXPANSION_DEPTH} levels in arguments")));
        }
        let result = self.expand_loop(tokens);
        self.depth -= 1;
        result
    }

    fn expand_loop(&mut self, tokens: Vec<PpToken>) -> Result<Vec<PpToken>, Diagnostic> {
        let mut input: std::collections::VecDeque<PpToken> = tokens.into();
        let mut out = Vec::new();
        while let Some(pt) = input.pop_front() {
            if self.budget == 0 {
                return Err(Diagnostic::error("unsupported", "macro expansion is too large")
                    .with_span(pt.token.span, "while expanding this")
                    .with_note(format!("expansion stops after {EXPANSION_BUDGET} tokens")));
            }
            self.budget -= 1;
            let Tok::Ident(name) = &pt.token.tok else {
                out.push(pt);
                continue;
            };
            if name == "__LINE__" {
                let line = self.source[..(pt.token.span.start as usize).min(self.source.len())].matches('\n').count() as u64 + 1;
                let token = Token { tok: Tok::Int { value: line, unsigned: false, long: false }, ..pt.token };
                out.push(PpToken { token, hide: pt.hide });
                continue;
            }
            let Some(mac) = self.macros.get(name).cloned() else {
                out.push(pt);
                continue;
            };
            if pt.hide.iter().any(|h| h == name) {
                out.push(pt);
                continue;
            }
            let use_span = pt.token.span;
            let replacement = match &mac.params {
                None => self.substitute(&mac, &[], use_span, &union(&pt.hide, std::slice::from_ref(name)))?,
                Some(params) => {
                    // A function-like macro name not followed by `(` is an ordinary identifier.
                    if input.front().map(|t| &t.token.tok) != Some(&Tok::Punct("(")) {
                        out.push(pt);
                        continue;
                    }
                    let (args, close) = collect_args(&mut input, use_span, name)?;
                    let args = normalize_args(args, params.len(), mac.variadic, name, use_span)?;
                    // The hide set of the expansion: the name's and the closing parenthesis's
                    // in common, plus the macro itself.
                    let common: Vec<String> = pt.hide.iter().filter(|h| close.hide.contains(h)).cloned().collect();
                    let hide = union(&Rc::new(common), std::slice::from_ref(name));
                    self.substitute(&mac, &args, use_span.to(close.token.span), &hide)?
                }
            };
            for t in replacement.into_iter().rev() {
                input.push_front(t);
            }
        }
        Ok(out)
    }

    /// The body of `mac` with parameters replaced, `#` and `##` applied, placed at `use_span`,
    /// every token hidden from the macros in `hide`.
    fn substitute(&mut self, mac: &Macro, args: &[Vec<PpToken>], use_span: Span, hide: &HideSet) -> Result<Vec<PpToken>, Diagnostic> {
        let params = mac.params.as_deref().unwrap_or_default();
        let param_index = |t: &Token| match &t.tok {
            Tok::Ident(n) => params.iter().position(|p| p == n),
            _ => None,
        };
        let place = |t: &Token| Token { span: use_span, origin: Some(mac.def_span), ..t.clone() };
        let body_token = |t: &Token| PpToken { token: place(t), hide: hide.clone() };
        let arg_token = |a: &PpToken| PpToken { token: if a.token.origin.is_some() { a.token.clone() } else { place(&a.token) }, hide: union(&a.hide, hide) };
        let mut out: Vec<PpToken> = Vec::new();
        let body = &mac.body;
        let mut k = 0;
        while k < body.len() {
            let t = &body[k];
            // `# param`: the argument's spelling as a string literal.
            if t.tok == Tok::Punct("#") && mac.params.is_some() {
                if let Some(idx) = body.get(k + 1).and_then(&param_index) {
                    let text: Vec<String> = args[idx].iter().map(|a| self.spelling(&a.token)).collect();
                    out.push(body_token(&Token { tok: Tok::Str(text.join(" ")), ..t.clone() }));
                    k += 2;
                    continue;
                }
            }
            let next_is_paste = body.get(k + 1).is_some_and(|n| n.tok == Tok::Punct("##"));
            let prev_is_paste = k > 0 && body[k - 1].tok == Tok::Punct("##");
            if t.tok == Tok::Punct("##") {
                // Paste the last emitted token with the next operand.
                let Some(rhs) = body.get(k + 1) else { break };
                let rhs_tokens: Vec<PpToken> = match param_index(rhs) {
                    Some(idx) => args[idx].iter().map(arg_token).collect(),
                    None => vec![body_token(rhs)],
                };
                let lhs = out.pop();
                let mut rhs_iter = rhs_tokens.into_iter();
                let first_rhs = rhs_iter.next();
                match (lhs, first_rhs) {
                    (Some(l), Some(r)) => {
                        let text = format!("{}{}", self.spelling(&l.token), self.spelling(&r.token));
                        let pasted = lex_fragment(&text, use_span)?;
                        if pasted.len() != 1 {
                            return Err(pp_error(use_span, format!("pasting `{text}` does not give one valid token"), "in this macro")
                                .with_label(mac.def_span, "macro defined here"));
                        }
                        out.push(body_token(&pasted[0]));
                    }
                    (Some(l), None) => out.push(l),
                    (None, Some(r)) => out.push(r),
                    (None, None) => {}
                }
                out.extend(rhs_iter);
                k += 2;
                continue;
            }
            match param_index(t) {
                Some(idx) if next_is_paste || prev_is_paste => out.extend(args[idx].iter().map(arg_token)),
                Some(idx) => {
                    let expanded = self.expand_pp(args[idx].clone())?;
                    out.extend(expanded.iter().map(arg_token));
                }
                None => out.push(body_token(t)),
            }
            k += 1;
        }
        Ok(out)
    }
}

/// `a` with the names of `b` added.
fn union(a: &HideSet, b: &[String]) -> HideSet {
    let mut out = (**a).clone();
    for n in b {
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    Rc::new(out)
}

/// Collects a macro call's arguments, with their hide sets, and the closing parenthesis.
fn collect_args(input: &mut std::collections::VecDeque<PpToken>, use_span: Span, name: &str) -> Result<(Vec<Vec<PpToken>>, PpToken), Diagnostic> {
    input.pop_front();
    let mut args = vec![Vec::new()];
    let mut depth = 0;
    loop {
        let Some(pt) = input.pop_front() else {
            return Err(pp_error(use_span, format!("unterminated call of macro `{name}`"), "the `(` is never closed"));
        };
        match pt.token.tok {
            Tok::Punct("(") => depth += 1,
            Tok::Punct(")") if depth == 0 => return Ok((args, pt)),
            Tok::Punct(")") => depth -= 1,
            Tok::Punct(",") if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        args.last_mut().expect("never empty").push(pt);
    }
}

fn normalize_args(mut args: Vec<Vec<PpToken>>, n: usize, variadic: bool, name: &str, span: Span) -> Result<Vec<Vec<PpToken>>, Diagnostic> {
    if n == 0 && args.len() == 1 && args[0].is_empty() {
        return Ok(Vec::new());
    }
    if variadic && args.len() >= n {
        // Everything from the last named parameter on is `__VA_ARGS__`, commas included.
        let rest: Vec<Vec<PpToken>> = args.split_off(n - 1);
        let mut joined = Vec::new();
        for (i, a) in rest.into_iter().enumerate() {
            if i > 0 {
                joined.push(PpToken { token: Token::new(Tok::Punct(","), span), hide: Rc::new(Vec::new()) });
            }
            joined.extend(a);
        }
        args.push(joined);
    }
    if variadic && args.len() == n - 1 {
        args.push(Vec::new());
    }
    if args.len() != n {
        return Err(pp_error(span, format!("macro `{name}` takes {n} argument(s), but {} were given", args.len()), "in this call"));
    }
    Ok(args)
}

/// Evaluates `#if` expressions over 64-bit integers; identifiers left after expansion are 0.
struct CondEval<'t> {
    tokens: &'t [Token],
    pos: usize,
    span: Span,
}

impl CondEval<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }

    fn error(&self, message: &str) -> Diagnostic {
        let span = self.tokens.get(self.pos).map_or(self.span, |t| t.span);
        pp_error(span, format!("invalid `#if` condition: {message}"), "here")
    }

    fn ternary(&mut self) -> Result<i64, Diagnostic> {
        let c = self.binary(0)?;
        if self.peek() == Some(&Tok::Punct("?")) {
            self.pos += 1;
            let a = self.ternary()?;
            if self.peek() != Some(&Tok::Punct(":")) {
                return Err(self.error("expected `:`"));
            }
            self.pos += 1;
            let b = self.ternary()?;
            return Ok(if c != 0 { a } else { b });
        }
        Ok(c)
    }

    fn binary(&mut self, min: u8) -> Result<i64, Diagnostic> {
        let mut lhs = self.unary()?;
        while let Some(Tok::Punct(p)) = self.peek() {
            let prec = match *p {
                "||" => 1,
                "&&" => 2,
                "|" => 3,
                "^" => 4,
                "&" => 5,
                "==" | "!=" => 6,
                "<" | ">" | "<=" | ">=" => 7,
                "<<" | ">>" => 8,
                "+" | "-" => 9,
                "*" | "/" | "%" => 10,
                _ => break,
            };
            if prec <= min {
                break;
            }
            let op = *p;
            self.pos += 1;
            let rhs = self.binary(prec)?;
            lhs = match op {
                "||" => (lhs != 0 || rhs != 0) as i64,
                "&&" => (lhs != 0 && rhs != 0) as i64,
                "|" => lhs | rhs,
                "^" => lhs ^ rhs,
                "&" => lhs & rhs,
                "==" => (lhs == rhs) as i64,
                "!=" => (lhs != rhs) as i64,
                "<" => (lhs < rhs) as i64,
                ">" => (lhs > rhs) as i64,
                "<=" => (lhs <= rhs) as i64,
                ">=" => (lhs >= rhs) as i64,
                "<<" => lhs.wrapping_shl(rhs as u32),
                ">>" => lhs.wrapping_shr(rhs as u32),
                "+" => lhs.wrapping_add(rhs),
                "-" => lhs.wrapping_sub(rhs),
                "*" => lhs.wrapping_mul(rhs),
                "/" | "%" if rhs == 0 => return Err(self.error("division by zero")),
                "/" => lhs.wrapping_div(rhs),
                _ => lhs.wrapping_rem(rhs),
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<i64, Diagnostic> {
        let Some(tok) = self.peek().cloned() else { return Err(self.error("expected a value")) };
        self.pos += 1;
        Ok(match tok {
            Tok::Int { value, .. } => value as i64,
            Tok::Char(c) => c as i64,
            Tok::Ident(_) => 0,
            Tok::Punct("!") => (self.unary()? == 0) as i64,
            Tok::Punct("~") => !self.unary()?,
            Tok::Punct("-") => self.unary()?.wrapping_neg(),
            Tok::Punct("+") => self.unary()?,
            Tok::Punct("(") => {
                let v = self.ternary()?;
                if self.peek() != Some(&Tok::Punct(")")) {
                    return Err(self.error("expected `)`"));
                }
                self.pos += 1;
                v
            }
            _ => {
                self.pos -= 1;
                return Err(self.error("expected a value"));
            }
        })
    }
}
