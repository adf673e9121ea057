//! The C text of a thread's parameter list and body, as the reader sees it: skipping
//! comments and literals, matching brackets, and a token stream just fine enough to find
//! parameters and the declarations of registers.

use super::{is_ident_byte, is_ident_start};

/// Skips C blanks and comments from `pos`; an unclosed `/*` runs to the end.
pub(super) fn skip_c_trivia(bytes: &[u8], mut pos: usize) -> usize {
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
pub(super) fn skip_block_comment(bytes: &[u8], pos: usize) -> usize {
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
pub(super) fn skip_literal(bytes: &[u8], pos: usize) -> usize {
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
pub(super) fn c_match(bytes: &[u8], pos: usize, open: u8, close: u8) -> Option<usize> {
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
pub(super) enum CKind {
    Ident,
    Number,
    Punct,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct CToken {
    pub(super) kind: CKind,
    pub(super) start: usize,
    pub(super) end: usize,
}

/// Tokens of `text[start..end]`, skipping comments, literals and preprocessor lines.
pub(super) fn c_tokens(text: &str, start: usize, end: usize) -> Vec<CToken> {
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

pub(super) fn tok_text<'a>(text: &'a str, t: &CToken) -> &'a str {
    text.get(t.start..t.end).unwrap_or("")
}

pub(super) fn is_punct(text: &str, tokens: &[CToken], i: usize, p: &str) -> bool {
    tokens.get(i).is_some_and(|t| t.kind == CKind::Punct && tok_text(text, t) == p)
}

pub(super) fn is_ident(tokens: &[CToken], i: usize) -> bool {
    tokens.get(i).is_some_and(|t| t.kind == CKind::Ident)
}
