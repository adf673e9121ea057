//! The cursor over a litmus text's parts outside the C code (header, initial state, thread
//! headers, final condition), shared by both dialects' readers.

use crate::diag::{Diagnostic, Span};

use super::{error, is_ident_byte, is_ident_start, span};

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
