//! Tokens of OpenCL C and CUDA, with their spans.

use crate::diag::{Diagnostic, Span};

/// The kind of a token. Keywords are identifiers here; the parser decides what they mean,
/// because OpenCL and CUDA reserve different words.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    /// An integer literal: its value and whether it had `u` / `l` suffixes.
    Int {
        value: u64,
        unsigned: bool,
        long: bool,
    },
    /// A floating literal: its value and whether it had the `f` suffix (single precision).
    Float {
        value: f64,
        single: bool,
    },
    Char(u8),
    Str(String),
    Punct(&'static str),
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    /// Where the token is in the user's source; for a token made by a macro, the macro's use.
    pub span: Span,
    /// The first token of a source line (where a `#` starts a directive).
    pub line_start: bool,
    /// Whitespace or a comment came before it (`#define F(x)` versus `#define F (x)`).
    pub space_before: bool,
    /// For a token made by a macro: the span of the macro's definition.
    pub origin: Option<Span>,
}

impl Token {
    pub fn new(tok: Tok, span: Span) -> Token {
        Token { tok, span, line_start: false, space_before: false, origin: None }
    }
}

/// Punctuators, longest first so that maximal munch is a linear scan.
const PUNCTS: [&str; 50] = [
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "::", "+", "-", "*",
    "/", "%", "<", ">", "=", "!", "~", "&", "|", "^", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "##", "#", "@",
];

fn error(span: Span, message: impl Into<String>, label: &str) -> Diagnostic {
    Diagnostic::error("syntax-error", message).with_span(span, label)
}

/// Splits `text` into tokens, ending with [`Tok::Eof`].
///
/// Preprocessor directives are not interpreted here: a `#` that starts a line is a token like
/// any other, flagged `line_start`, and the [`preprocess`](super::preprocess) pass acts on it.
pub fn lex(text: &str) -> Result<Vec<Token>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0usize;
    let mut line_start = true;
    let mut space_before = false;
    let push = |tokens: &mut Vec<Token>, tok, start: usize, end: usize, line_start: &mut bool, space_before: &mut bool| {
        tokens.push(Token { tok, span: Span::new(start as u32, end as u32), line_start: *line_start, space_before: *space_before, origin: None });
        *line_start = false;
        *space_before = false;
    };
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line_start = true;
            space_before = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            space_before = true;
            i += 1;
            continue;
        }
        if c == b'\\' && (bytes.get(i + 1) == Some(&b'\n') || (bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n'))) {
            // A line continuation joins two physical lines into one logical line.
            i += if bytes[i + 1] == b'\r' { 3 } else { 2 };
            space_before = true;
            continue;
        }
        if text[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            space_before = true;
            continue;
        }
        if text[i..].starts_with("/*") {
            let start = i;
            match text[i + 2..].find("*/") {
                Some(end) => i += end + 4,
                None => {
                    return Err(error(Span::new(start as u32, start as u32 + 2), "unterminated block comment", "this comment is never closed")
                        .with_help("close it with `*/`"))
                }
            }
            space_before = true;
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$') {
                i += 1;
            }
            push(&mut tokens, Tok::Ident(text[start..i].to_string()), start, i, &mut line_start, &mut space_before);
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let (tok, end) = lex_number(text, start)?;
            i = end;
            push(&mut tokens, tok, start, i, &mut line_start, &mut space_before);
            continue;
        }
        if c == b'\'' || c == b'"' {
            let (tok, end) = lex_quoted(text, start)?;
            i = end;
            push(&mut tokens, tok, start, i, &mut line_start, &mut space_before);
            continue;
        }
        match PUNCTS.iter().find(|p| text[i..].starts_with(**p)) {
            Some(p) => {
                i += p.len();
                push(&mut tokens, Tok::Punct(p), start, i, &mut line_start, &mut space_before);
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
    tokens.push(Token { tok: Tok::Eof, span: Span::new(end, end), line_start: true, space_before, origin: None });
    Ok(tokens)
}

/// Lexes text that is not in the user's source (a `-D` value, the result of `##`): every
/// token gets `span`, and there is no end-of-file token.
pub fn lex_fragment(text: &str, span: Span) -> Result<Vec<Token>, Diagnostic> {
    let mut tokens = lex(text).map_err(|d| Diagnostic { span: Some(span), ..d })?;
    tokens.pop();
    for t in &mut tokens {
        t.span = span;
    }
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
    if is_hex {
        if let Some(literal) = lex_hex_float(text, start, i)? {
            return Ok(literal);
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
    let bad_suffix = || error(span, format!("invalid suffix `{}` on a number", &text[digits_end..i]), "invalid number");
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
    // C99 6.4.4.1: a hexadecimal or octal constant takes the first of int, unsigned int, long,
    // unsigned long that holds it (a decimal one skips the unsigned types), so 0x80000000 is an
    // unsigned int and 0xFFFFFFFFFFFFFFFF an unsigned long.
    let octal_or_hex = is_hex || (digits.len() > 1 && digits.starts_with('0'));
    let unsigned = unsigned || value > i64::MAX as u64 || (octal_or_hex && !long && value > i32::MAX as u64 && value <= u32::MAX as u64);
    Ok((Tok::Int { value, unsigned, long }, i))
}

/// A hexadecimal floating constant (C99 6.4.4.2, which OpenCL C keeps): `0x1.8p1` is 1.5 x 2^1.
/// `integer_end` is where the hex digits after `0x` stop. Without a `.` or a binary exponent
/// there, the number is an integer and this gives none.
fn lex_hex_float(text: &str, start: usize, integer_end: usize) -> Result<Option<(Tok, usize)>, Diagnostic> {
    let bytes = text.as_bytes();
    let mut i = integer_end;
    let mut fraction_digits = 0i64;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
            i += 1;
            fraction_digits += 1;
        }
    }
    if !matches!(bytes.get(i), Some(b'p' | b'P')) {
        if i == integer_end {
            return Ok(None);
        }
        let span = Span::new(start as u32, i as u32);
        return Err(
            error(span, "a hexadecimal floating constant needs a binary exponent", "here").with_help("write it as 0x1.8p0, with `p` and a power of two")
        );
    }
    i += 1;
    let exponent_start = i;
    if matches!(bytes.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let span = || Span::new(start as u32, i as u32);
    if i == digits_start || (integer_end == start + 2 && fraction_digits == 0) {
        return Err(error(span(), "malformed hexadecimal floating constant", "here"));
    }
    // The exponent saturates: anything beyond a few thousand gives zero or infinity anyway.
    let exponent = text[exponent_start..i].parse::<i64>().unwrap_or(if bytes[exponent_start] == b'-' { -100_000 } else { 100_000 });
    // The significand's hex digits as one integer, keeping the first 30 significant ones
    // (120 bits, beyond any double's precision) and counting the rest as scale.
    let mut significand: u128 = 0;
    let mut scale = exponent.clamp(-100_000, 100_000) - 4 * fraction_digits;
    let mut kept = 0;
    for c in text[start + 2..exponent_start - 1].bytes().filter(|c| *c != b'.') {
        let digit = (c as char).to_digit(16).unwrap_or(0) as u128;
        if kept < 30 {
            significand = significand * 16 + digit;
            if significand != 0 {
                kept += 1;
            }
        } else {
            scale += 4;
        }
    }
    // One rounding: the 120-bit integer to the nearest double can only be inexact when it has
    // more than 53 significant bits, and scalbn scales by a power of two exactly (rounding
    // once more only into the subnormal range).
    let value = libm::scalbn(significand as f64, scale.clamp(-4_000, 4_000) as i32);
    let suffix_start = i;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    let single = match text[suffix_start..i].to_ascii_lowercase().as_str() {
        "" | "l" => false,
        "f" | "h" => true,
        other => {
            return Err(error(Span::new(start as u32, i as u32), format!("invalid suffix `{other}` on a number"), "invalid number"));
        }
    };
    Ok(Some((Tok::Float { value, single }, i)))
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
                b'a' => 7,
                b'b' => 8,
                b'f' => 12,
                b'v' => 11,
                b'?' => b'?',
                // Up to three octal digits: `\0`, `\101` ('A'); a value past 255 keeps its
                // low byte, as a char does.
                b'0'..=b'7' => {
                    let mut value = u32::from(e - b'0');
                    let octal_start = i;
                    while i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) && i - octal_start < 2 {
                        value = value * 8 + u32::from(bytes[i] - b'0');
                        i += 1;
                    }
                    value as u8
                }
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
    fn character_escapes_are_c_escapes() {
        assert_eq!(
            kinds(r"'\101' '\0' '\x41' '\n' '\'' '\7' '\b' '\f' '\v' '\?'"),
            vec![
                Tok::Char(b'A'),
                Tok::Char(0),
                Tok::Char(b'A'),
                Tok::Char(b'\n'),
                Tok::Char(b'\''),
                Tok::Char(7),
                Tok::Char(8),
                Tok::Char(12),
                Tok::Char(11),
                Tok::Char(b'?'),
                Tok::Eof
            ]
        );
        assert_eq!(kinds(r#""\1011\x41""#), vec![Tok::Str("A1A".into()), Tok::Eof]);
    }

    #[test]
    fn hexadecimal_floating_constants_are_exact() {
        assert_eq!(
            kinds("0x1.8p1 0x1p-2f 0x.8P+1 0xAp0 0x1.fffffep127f 0x1p-1074"),
            vec![
                Tok::Float { value: 3.0, single: false },
                Tok::Float { value: 0.25, single: true },
                Tok::Float { value: 1.0, single: false },
                Tok::Float { value: 10.0, single: false },
                Tok::Float { value: f32::MAX as f64, single: true },
                Tok::Float { value: f64::from_bits(1), single: false },
                Tok::Eof
            ]
        );
        for bad in ["0x1.8", "0x1p", "0x.p1", "0x1p2q"] {
            assert!(lex(bad).is_err(), "{bad}");
        }
        // Without `.` or `p`, a hex number is still an integer.
        assert_eq!(kinds("0x1F"), vec![Tok::Int { value: 31, unsigned: false, long: false }, Tok::Eof]);
    }

    #[test]
    fn hexadecimal_and_octal_constants_past_int_are_unsigned() {
        assert_eq!(
            kinds("0x80000000 020000000000 2147483648 0x100000000 0xFFFFFFFFFFFFFFFF 0x80000000L"),
            vec![
                Tok::Int { value: 0x8000_0000, unsigned: true, long: false },
                Tok::Int { value: 0x8000_0000, unsigned: true, long: false },
                Tok::Int { value: 0x8000_0000, unsigned: false, long: false },
                Tok::Int { value: 0x1_0000_0000, unsigned: false, long: false },
                Tok::Int { value: u64::MAX, unsigned: true, long: false },
                Tok::Int { value: 0x8000_0000, unsigned: false, long: true },
                Tok::Eof
            ]
        );
    }

    #[test]
    fn directives_are_tokens_that_start_a_line() {
        let tokens = lex("#define N 4\nx # y").unwrap();
        assert!(tokens[0].line_start && tokens[0].tok == Tok::Punct("#"));
        assert!(tokens[4].line_start && tokens[4].tok == Tok::Ident("x".into()));
        assert!(!tokens[5].line_start && tokens[5].tok == Tok::Punct("#"));
    }
}
