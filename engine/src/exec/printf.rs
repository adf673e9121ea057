//! OpenCL / C `printf` formatting of simulated values.

use crate::ir::{ptr, NumTy, PrintfArg};

/// Formats `format` with `args` (each with how to read its register bits). Conversions with
/// too few arguments print as written, so a mistake is visible rather than fatal.
pub fn format(format: &str, args: &[(PrintfArg, u64)], strings: &[String]) -> String {
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    let mut next_arg = args.iter();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.peek() == Some(&'%') {
            chars.next();
            out.push('%');
            continue;
        }
        let mut spec = String::from("%");
        let mut flags = String::new();
        while let Some(&f) = chars.peek() {
            if "-+ #0".contains(f) {
                flags.push(f);
                spec.push(f);
                chars.next();
            } else {
                break;
            }
        }
        let mut width = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(d);
            spec.push(d);
            chars.next();
        }
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            spec.push('.');
            chars.next();
            let mut p = String::new();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                p.push(d);
                spec.push(d);
                chars.next();
            }
            precision = Some(p.parse().unwrap_or(0));
        }
        let mut modifiers = String::new();
        while let Some(&l) = chars.peek().filter(|l| "hlvzjt".contains(**l) || l.is_ascii_digit()) {
            spec.push(l);
            modifiers.push(l);
            chars.next();
        }
        // `%v4f`: a vector of 4, its lanes formatted alike and joined by commas.
        let lanes: usize = modifiers
            .strip_prefix('v')
            .map(|rest| rest.chars().take_while(char::is_ascii_digit).collect::<String>())
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        let Some(conv) = chars.next() else {
            out.push_str(&spec);
            break;
        };
        spec.push(conv);
        let mut pieces = Vec::new();
        for _ in 0..lanes.max(1) {
            let Some(&(kind, bits)) = next_arg.next() else { break };
            pieces.push(pad(&one(conv, kind, bits, precision, strings, &spec), &flags, &width, conv));
        }
        if pieces.is_empty() {
            out.push_str(&spec);
            continue;
        }
        out.push_str(&pieces.join(","));
    }
    out
}

/// One conversion of one value.
fn one(conv: char, kind: PrintfArg, bits: u64, precision: Option<usize>, strings: &[String], spec: &str) -> String {
    match (conv, kind) {
        ('s', PrintfArg::Str) => {
            let s = strings.get(bits as usize).map(String::as_str).unwrap_or("");
            match precision {
                Some(p) => s.chars().take(p).collect(),
                None => s.to_string(),
            }
        }
        ('d' | 'i', PrintfArg::Int(t)) => signed(t, bits).to_string(),
        ('u', PrintfArg::Int(t)) => unsigned(t, bits).to_string(),
        ('x', PrintfArg::Int(t)) => format!("{:x}", unsigned(t, bits)),
        ('X', PrintfArg::Int(t)) => format!("{:X}", unsigned(t, bits)),
        ('o', PrintfArg::Int(t)) => format!("{:o}", unsigned(t, bits)),
        ('c', PrintfArg::Int(_)) => char::from(bits as u8).to_string(),
        ('f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A', PrintfArg::Int(t)) => {
            let x = if t == NumTy::F64 { f64::from_bits(bits) } else { signed(t, bits) as f64 };
            float(conv, x, precision.unwrap_or(6))
        }
        ('p', _) => format!("0x{:x}", (ptr::alloc(bits) as u64) << 32 | ptr::offset(bits)),
        _ => spec.to_string(),
    }
}

/// Applies the `+`, `-` and `0` flags and the field width.
fn pad(body: &str, flags: &str, width: &str, conv: char) -> String {
    let width: usize = width.parse().unwrap_or(0);
    let body = if flags.contains('+') && matches!(conv, 'd' | 'i' | 'f' | 'e' | 'g') && !body.starts_with('-') {
        format!("+{body}")
    } else {
        body.to_string()
    };
    let len = body.chars().count();
    if len >= width {
        return body;
    }
    let fill = width - len;
    if flags.contains('-') {
        format!("{body}{}", " ".repeat(fill))
    } else if flags.contains('0') && conv != 's' {
        let (sign, digits) = if body.starts_with(['-', '+']) { body.split_at(1) } else { ("", body.as_str()) };
        format!("{sign}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}

fn signed(t: NumTy, bits: u64) -> i64 {
    match t {
        NumTy::U32 => bits as u32 as i64,
        NumTy::U64 => bits as i64,
        _ => bits as i64,
    }
}

fn unsigned(t: NumTy, bits: u64) -> u64 {
    match t {
        NumTy::I32 | NumTy::U32 => bits as u32 as u64,
        _ => bits,
    }
}

fn float(conv: char, x: f64, precision: usize) -> String {
    if x.is_nan() {
        return if conv.is_ascii_uppercase() { "NAN".into() } else { "nan".into() };
    }
    if x.is_infinite() {
        let s = if x > 0.0 { "inf" } else { "-inf" };
        return if conv.is_ascii_uppercase() { s.to_uppercase() } else { s.into() };
    }
    match conv {
        'e' | 'E' => {
            let s = format!("{x:.precision$e}");
            // C writes at least two exponent digits with a sign: 1.5e+00.
            let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
            let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |d| ("-", d));
            let out = format!("{mantissa}e{sign}{digits:0>2}");
            if conv == 'E' {
                out.to_uppercase()
            } else {
                out
            }
        }
        'g' | 'G' => {
            let p = precision.max(1);
            let exp = if x == 0.0 { 0 } else { x.abs().log10().floor() as i32 };
            let s = if exp < -4 || exp >= p as i32 {
                float('e', x, p - 1)
            } else {
                let decimals = (p as i32 - 1 - exp).max(0) as usize;
                let s = format!("{x:.decimals$}");
                if s.contains('.') {
                    s.trim_end_matches('0').trim_end_matches('.').to_string()
                } else {
                    s
                }
            };
            if conv == 'G' {
                s.to_uppercase()
            } else {
                s
            }
        }
        _ => format!("{x:.precision$}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_c() {
        let i = |v: i64| (PrintfArg::Int(NumTy::I32), v as u64);
        let f = |v: f64| (PrintfArg::Int(NumTy::F64), v.to_bits());
        assert_eq!(format("%d|%5d|%-3d|%03d", &[i(-4), i(42), i(7), i(5)], &[]), "-4|   42|7  |005");
        assert_eq!(format("%u %x %c %%", &[i(-1), i(255), i(65)], &[]), "4294967295 ff A %");
        assert_eq!(format("%f %.2f %e %g", &[f(1.5), f(2.0), f(1234.5), f(0.0001)], &[]), "1.500000 2.00 1.234500e+03 0.0001");
        assert_eq!(format("%s!", &[(PrintfArg::Str, 0)], &["hi".into()]), "hi!");
        assert_eq!(format("%d %d", &[i(1)], &[]), "1 %d");
        assert_eq!(format("%v3d|%v2hlf", &[i(1), i(-2), i(3), f(0.5), f(2.0)], &[]), "1,-2,3|0.500000,2.000000");
    }
}
