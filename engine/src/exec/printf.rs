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
        let lanes: usize =
            modifiers.strip_prefix('v').map(|rest| rest.chars().take_while(char::is_ascii_digit).collect::<String>()).and_then(|n| n.parse().ok()).unwrap_or(1);
        let Some(conv) = chars.next() else {
            out.push_str(&spec);
            break;
        };
        spec.push(conv);
        let mut pieces = Vec::new();
        for _ in 0..lanes.max(1) {
            let Some(&(kind, bits)) = next_arg.next() else { break };
            let body = one(conv, kind, bits, Form { precision, alternate: flags.contains('#') }, strings, &spec);
            pieces.push(pad(&body, &flags, &width, conv));
        }
        if pieces.is_empty() {
            out.push_str(&spec);
            continue;
        }
        out.push_str(&pieces.join(","));
    }
    out
}

/// What a conversion specification says besides its conversion, flags and width.
#[derive(Clone, Copy)]
struct Form {
    precision: Option<usize>,
    /// The `#` flag: `0x` before hexadecimal, `0` before octal, a decimal point always and
    /// `%g`'s trailing zeros kept.
    alternate: bool,
}

/// One conversion of one value.
fn one(conv: char, kind: PrintfArg, bits: u64, form: Form, strings: &[String], spec: &str) -> String {
    let Form { precision, alternate } = form;
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
        ('x', PrintfArg::Int(t)) if alternate && unsigned(t, bits) != 0 => format!("{:#x}", unsigned(t, bits)),
        ('X', PrintfArg::Int(t)) if alternate && unsigned(t, bits) != 0 => format!("0X{:X}", unsigned(t, bits)),
        ('o', PrintfArg::Int(t)) if alternate && unsigned(t, bits) != 0 => format!("0{:o}", unsigned(t, bits)),
        ('x', PrintfArg::Int(t)) => format!("{:x}", unsigned(t, bits)),
        ('X', PrintfArg::Int(t)) => format!("{:X}", unsigned(t, bits)),
        ('o', PrintfArg::Int(t)) => format!("{:o}", unsigned(t, bits)),
        ('c', PrintfArg::Int(_)) => char::from(bits as u8).to_string(),
        ('f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A', PrintfArg::Int(t)) => {
            let x = if t == NumTy::F64 { f64::from_bits(bits) } else { signed(t, bits) as f64 };
            if matches!(conv, 'a' | 'A') {
                return hex_float(conv, x, precision);
            }
            let s = float(conv, x, precision.unwrap_or(6), alternate);
            if alternate && matches!(conv, 'f' | 'F') && !s.contains('.') && x.is_finite() {
                return format!("{s}.");
            }
            s
        }
        ('p', _) => format!("0x{:x}", (ptr::alloc(bits) as u64) << 32 | ptr::offset(bits)),
        _ => spec.to_string(),
    }
}

/// Applies the `+`, `-` and `0` flags and the field width.
fn pad(body: &str, flags: &str, width: &str, conv: char) -> String {
    let width: usize = width.parse().unwrap_or(0);
    let signed_conversion = matches!(conv, 'd' | 'i' | 'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A');
    let body = if signed_conversion && !body.starts_with('-') && flags.contains('+') {
        format!("+{body}")
    } else if signed_conversion && !body.starts_with('-') && flags.contains(' ') {
        format!(" {body}")
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
    } else if flags.contains('0') && !matches!(conv, 's' | 'c') {
        // Zeros go after the sign and after a `0x` prefix.
        let sign = if body.starts_with(['-', '+', ' ']) { 1 } else { 0 };
        let prefix = if body[sign..].starts_with("0x") || body[sign..].starts_with("0X") { sign + 2 } else { sign };
        let (head, digits) = body.split_at(prefix);
        format!("{head}{}{digits}", "0".repeat(fill))
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

/// `%a`: the value in hexadecimal, `0x1.8p+1`, exact when no precision is given, otherwise
/// rounded to that many hexadecimal digits (to nearest, ties to even).
fn hex_float(conv: char, x: f64, precision: Option<usize>) -> String {
    let upper = conv == 'A';
    if !x.is_finite() {
        return float(if upper { 'F' } else { 'f' }, x, 0, false);
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let bits = x.to_bits();
    let raw_exponent = ((bits >> 52) & 0x7ff) as i64;
    let mut fraction = bits & ((1u64 << 52) - 1);
    // Zero and subnormals have a leading 0 and the smallest exponent (zero's is 0).
    let (mut lead, exponent) = match (raw_exponent, fraction) {
        (0, 0) => (0u64, 0i64),
        (0, _) => (0, -1022),
        _ => (1, raw_exponent - 1023),
    };
    let digits = match precision {
        None => {
            let mut d = 13;
            while d > 0 && fraction & 0xf == 0 {
                fraction >>= 4;
                d -= 1;
            }
            d
        }
        Some(p) if p < 13 => {
            // Rounded with the leading digit, whose parity breaks a tie at precision 0 and which
            // a carry may raise to 2.
            let drop = 4 * (13 - p) as u32;
            let full = (lead << 52) | fraction;
            let (kept, rest, half) = (full >> drop, full & ((1u64 << drop) - 1), 1u64 << (drop - 1));
            let rounded = kept + u64::from(rest > half || (rest == half && kept & 1 == 1));
            lead = rounded >> (4 * p);
            fraction = rounded & ((1u64 << (4 * p)) - 1);
            p
        }
        Some(p) => {
            let p = p.min(64);
            let shown = format!("{fraction:013x}{}", "0".repeat(p - 13));
            let text = format!("{sign}0x{lead}.{shown}p{exponent:+}");
            return if upper { text.to_uppercase() } else { text };
        }
    };
    let text = if digits == 0 { format!("{sign}0x{lead}p{exponent:+}") } else { format!("{sign}0x{lead}.{fraction:0digits$x}p{exponent:+}") };
    if upper {
        text.to_uppercase()
    } else {
        text
    }
}

fn float(conv: char, x: f64, precision: usize, alternate: bool) -> String {
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
            // C11 7.21.6.1: X is the exponent `%e` would show at precision P - 1 (after its
            // rounding, so 0.0000999999 counts as 1.00000e-04); f style when P > X >= -4.
            let p = precision.max(1);
            let e_style = float('e', x, p - 1, false);
            let exp: i32 = e_style.rsplit_once('e').and_then(|(_, e)| e.parse().ok()).unwrap_or(0);
            let trim = |s: String| if alternate || !s.contains('.') { s } else { s.trim_end_matches('0').trim_end_matches('.').to_string() };
            let s = if exp < -4 || exp >= p as i32 {
                let (mantissa, exponent) = e_style.split_once('e').unwrap_or((&e_style, "+00"));
                format!("{}e{exponent}", trim(mantissa.to_string()))
            } else {
                let decimals = (p as i32 - 1 - exp).max(0) as usize;
                trim(format!("{x:.decimals$}"))
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

    /// Expected strings are what glibc's printf writes for the same format and value (checked
    /// with a C program).
    #[test]
    fn flags_and_the_rarer_conversions_format_like_c() {
        let i = |v: i64| (PrintfArg::Int(NumTy::I32), v as u64);
        let f = |v: f64| (PrintfArg::Int(NumTy::F64), v.to_bits());
        let cases: &[(&str, (PrintfArg, u64), &str)] = &[
            ("%#x", i(255), "0xff"),
            ("%#X", i(255), "0XFF"),
            ("%#o", i(8), "010"),
            ("%#x", i(0), "0"),
            ("%#08x", i(255), "0x0000ff"),
            ("% d", i(5), " 5"),
            ("% d", i(-5), "-5"),
            ("%+.1e", f(2.0), "+2.0e+00"),
            ("%g", f(0.0001f32 as f64), "0.0001"),
            ("%g", f(0.00001), "1e-05"),
            ("%g", f(123456789.0), "1.23457e+08"),
            ("%g", f(100000.0), "100000"),
            ("%g", f(1e6), "1e+06"),
            ("%#g", f(1.5), "1.50000"),
            ("%G", f(1e-10), "1E-10"),
            ("%#.0f", f(3.0), "3."),
            ("%a", f(1.5), "0x1.8p+0"),
            ("%a", f(-0.1), "-0x1.999999999999ap-4"),
            ("%a", f(0.0), "0x0p+0"),
            ("%.1a", f(1.0 + 3.0 / 32.0), "0x1.2p+0"),
            ("%.0a", f(1.5), "0x2p+0"),
            ("%A", f(255.0), "0X1.FEP+7"),
            ("%a", f(f64::from_bits(1)), "0x0.0000000000001p-1022"),
            ("%05c", i(65), "    A"),
        ];
        for (spec, arg, expected) in cases {
            assert_eq!(format(spec, &[*arg], &[]), *expected, "{spec}");
        }
    }
}
