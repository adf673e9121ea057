//! Tokens of OpenCL C and CUDA, with their spans.

use crate::diag::{Diagnostic, Span};

/// The kind of a token. Keywords are identifiers here; the parser decides what they mean,
/// because OpenCL and CUDA reserve different words.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// An integer literal: its value and whether it had `u` / `l` suffixes.
    Int { value: u64, unsigned: bool, long: bool },
    /// A floating literal: its value and whether it had the `f` suffix (single precision).
    Float { value: f64, single: bool },
    Char(u8),
    Str(String),
    Punct(&'static str),
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Punctuators, longest first so that maximal munch is a linear scan.
const PUNCTS: [&str; 49] = [
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=",
    "*=", "/=", "%=", "&=", "|=", "^=", "::", "+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&",
    "|", "^", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "#", "@",
];

fn error(span: Span, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::error("syntax-error", message).with_span(span, label)
}

/// Splits `text` into tokens, ending with [`Tok::Eof`].
///
/// Preprocessor lines are not expanded here: `#pragma` lines are skipped (OpenCL's
/// `OPENCL EXTENSION` pragmas and unroll hints do not change semantics), and any other
/// directive is refused with an `unsupported` diagnostic.
pub fn lex(text: &str) -> Result<Vec<Token>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0usize;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
            i += 2;
            continue;
        }
        if text[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if text[i..].starts_with("/*") {
            let start = i;
            match text[i + 2..].find("*/") {
                Some(end) => i += end + 4,
                None => {
                    return Err(error(
                        Span::new(start as u32, start as u32 + 2),
                        "unterminated block comment",
                        "this comment is never closed",
                    )
                    .with_help("close it with `*/`"))
                }
            }
            continue;
        }
        let start = i;
        if c == b'#' && line_start {
            let mut end = i;
            while end < bytes.len() && bytes[end] != b'\n' {
                end += 1;
            }
            let directive = text[i + 1..end].trim_start();
            let name: String = directive.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if name == "pragma" || name.is_empty() {
                i = end;
                continue;
            }
            return Err(Diagnostic::error(
                "unsupported",
                format!("the preprocessor directive `#{name}` is not supported yet"),
            )
            .with_span(Span::new(start as u32, end as u32), "directive")
            .with_help("expand the macro by hand; `#pragma` lines are accepted and ignored"));
        }
        line_start = false;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push(Token { tok: Tok::Ident(text[start..i].to_string()), span: Span::new(start as u32, i as u32) });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let (tok, end) = lex_number(text, start)?;
            i = end;
            tokens.push(Token { tok, span: Span::new(start as u32, i as u32) });
            continue;
        }
        if c == b'\'' || c == b'"' {
            let (tok, end) = lex_quoted(text, start)?;
            i = end;
            tokens.push(Token { tok, span: Span::new(start as u32, i as u32) });
            continue;
        }
        match PUNCTS.iter().find(|p| text[i..].starts_with(**p)) {
            Some(p) => {
                i += p.len();
                tokens.push(Token { tok: Tok::Punct(p), span: Span::new(start as u32, i as u32) });
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                let end = i + ch.len_utf8();
                return Err(error(
                    Span::new(start as u32, end as u32),
                    format!("unexpected character `{}`", ch.escape_default()),
                    "not part of OpenCL C or CUDA",
                ));
            }
        }
    }
    let end = text.len() as u32;
    tokens.push(Token { tok: Tok::Eof, span: Span::new(end, end) });
    Ok(tokens)
}

fn lex_number(text: &str, start: usize) -> Result<(Tok, usize), Diagnostic> {
    let bytes = text.as_bytes();
    let mut i = start;
    let is_hex = text[start..].starts_with("0x") || text[start..].starts_with("0X");
    if is_hex {
        i += 2;
        while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
            i += 1;
        }
    } else {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
    }
    let mut is_float = false;
    if !is_hex && i < bytes.len() && bytes[i] == b'.' {
        is_float = true;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
    }
    if !is_hex && i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        let mut j = i + 1;
        if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
            j += 1;
        }
        if j < bytes.len() && bytes[j].is_ascii_digit() {
            is_float = true;
            i = j;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        }
    }
    let digits_end = i;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    let suffix = text[digits_end..i].to_ascii_lowercase();
    let span = Span::new(start as u32, i as u32);
    let bad_suffix = || {
        error(span, format!("invalid suffix `{}` on a number", &text[digits_end..i]), "invalid number")
    };
    if is_float {
        let single = match suffix.as_str() {
            "" => false,
            "f" => true,
            "h" => true,
            _ => return Err(bad_suffix()),
        };
        let value: f64 = text[start..digits_end].parse().map_err(|_| bad_suffix())?;
        return Ok((Tok::Float { value, single }, i));
    }
    let (unsigned, long) = match suffix.as_str() {
        "" => (false, false),
        "u" => (true, false),
        "l" | "ll" => (false, true),
        "ul" | "lu" | "ull" | "llu" => (true, true),
        _ => return Err(bad_suffix()),
    };
    let digits = &text[start..digits_end];
    let parsed = if is_hex {
        u64::from_str_radix(&digits[2..], 16)
    } else if digits.len() > 1 && digits.starts_with('0') {
        u64::from_str_radix(&digits[1..], 8)
    } else {
        digits.parse::<u64>()
    };
    let value = parsed.map_err(|_| error(span, "integer literal is too large or malformed", "here"))?;
    Ok((Tok::Int { value, unsigned, long }, i))
}

fn lex_quoted(text: &str, start: usize) -> Result<(Tok, usize), Diagnostic> {
    let bytes = text.as_bytes();
    let quote = bytes[start];
    let mut i = start + 1;
    let mut out = Vec::new();
    loop {
        let Some(&c) = bytes.get(i) else {
            let span = Span::new(start as u32, start as u32 + 1);
            return Err(error(span, "unterminated literal", "this quote is never closed"));
        };
        if c == b'\n' {
            let span = Span::new(start as u32, i as u32);
            return Err(error(span, "unterminated literal", "the line ends before the closing quote"));
        }
        i += 1;
        if c == quote {
            break;
        }
        if c == b'\\' {
            let Some(&e) = bytes.get(i) else { continue };
            i += 1;
            out.push(match e {
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                b'0' => 0,
                b'a' => 7,
                b'\\' => b'\\',
                b'\'' => b'\'',
                b'"' => b'"',
                b'x' => {
                    let hex_start = i;
                    while i < bytes.len() && bytes[i].is_ascii_hexdigit() && i - hex_start < 2 {
                        i += 1;
                    }
                    u8::from_str_radix(&text[hex_start..i], 16).unwrap_or(0)
                }
                other => other,
            });
        } else {
            out.push(c);
        }
    }
    let span = Span::new(start as u32, i as u32);
    if quote == b'\'' {
        if out.len() != 1 {
            return Err(error(span, "a character literal holds exactly one character", "here"));
        }
        return Ok((Tok::Char(out[0]), i));
    }
    Ok((Tok::Str(String::from_utf8_lossy(&out).into_owned()), i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        lex(text).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_keep_their_suffixes() {
        assert_eq!(
            kinds("1u 0x10 07 2.5f 1e3 3UL"),
            vec![
                Tok::Int { value: 1, unsigned: true, long: false },
                Tok::Int { value: 16, unsigned: false, long: false },
                Tok::Int { value: 7, unsigned: false, long: false },
                Tok::Float { value: 2.5, single: true },
                Tok::Float { value: 1000.0, single: false },
                Tok::Int { value: 3, unsigned: true, long: true },
                Tok::Eof
            ]
        );
    }

    #[test]
    fn pragmas_are_skipped_and_other_directives_refused() {
        assert_eq!(kinds("#pragma unroll\nx").len(), 2);
        let err = lex("#define N 4\n").unwrap_err();
        assert_eq!(err.code, "unsupported");
    }
}
