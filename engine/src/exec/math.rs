//! The math, integer and relational built-ins, one lane at a time.
//!
//! Floating-point functions come from the `libm` crate (a pure-Rust port of musl's libm) and
//! never from the platform, so a transcendental function returns the same bits natively and
//! in wasm, and a trace hash means the same run everywhere.

use crate::ir::{MathOp, UnaryOp};
use crate::scenario::ElemType;

fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}

fn bits_of(t: ElemType) -> u32 {
    (t.size() * 8) as u32
}

/// Register bits of an integer value of type `t` as an exact integer.
fn int_of(t: ElemType, v: u64) -> i128 {
    match t {
        ElemType::Char => v as i8 as i128,
        ElemType::Short => v as i16 as i128,
        ElemType::Int => v as i32 as i128,
        ElemType::Long => v as i64 as i128,
        ElemType::UChar => v as u8 as i128,
        ElemType::UShort => v as u16 as i128,
        ElemType::UInt => v as u32 as i128,
        _ => v as i128,
    }
}

/// Wraps an exact integer to type `t`, in register form.
fn wrap(t: ElemType, v: i128) -> u64 {
    let v = v as u64;
    match t {
        ElemType::Char => v as i8 as i64 as u64,
        ElemType::Short => v as i16 as i64 as u64,
        ElemType::Int => v as i32 as i64 as u64,
        ElemType::UChar => v as u8 as u64,
        ElemType::UShort => v as u16 as u64,
        ElemType::UInt => v as u32 as u64,
        _ => v,
    }
}

/// A `long`, `ulong` or `double` (register bits `a`, type `from`) converted to `to` (float or
/// double) with a directed rounding: the nearest value, moved one step when it lies on the
/// wrong side of the exact one.
fn convert_directed(from: ElemType, mode: UnaryOp, to: ElemType, a: u64) -> u64 {
    use std::cmp::Ordering;
    let single = to == ElemType::Float;
    // The nearest value (as an f64, exactly) and how it compares with the exact operand.
    let (near, order) = match from {
        ElemType::Double => {
            let x = f64::from_bits(a);
            let near = if single { x as f32 as f64 } else { x };
            (near, near.partial_cmp(&x))
        }
        _ => {
            let exact = if from == ElemType::ULong { a as i128 } else { a as i64 as i128 };
            let near = match (from == ElemType::ULong, single) {
                (true, true) => a as f32 as f64,
                (true, false) => a as f64,
                (false, true) => a as i64 as f32 as f64,
                (false, false) => a as i64 as f64,
            };
            // The nearest value of an integer is an integer below 2^64 in magnitude.
            (near, Some((near as i128).cmp(&exact)))
        }
    };
    let (down, up) = match (mode, order) {
        (UnaryOp::Floor, Some(Ordering::Greater)) => (true, false),
        (UnaryOp::Ceil, Some(Ordering::Less)) => (false, true),
        (UnaryOp::Trunc, Some(Ordering::Greater)) if near > 0.0 => (true, false),
        (UnaryOp::Trunc, Some(Ordering::Less)) if near < 0.0 => (false, true),
        _ => (false, false),
    };
    let target = if down { f64::NEG_INFINITY } else { f64::INFINITY };
    let r = match (down || up, single) {
        (false, _) => near,
        (true, true) => libm::nextafterf(near as f32, target as f32) as f64,
        (true, false) => libm::nextafter(near, target),
    };
    store(single, r)
}

/// The high half of the double-width product of `x` and `y` (register bits `a` and `b`).
/// Two ulongs multiply in `u128`: their product can exceed `i128`.
fn mul_hi(t: ElemType, a: u64, x: i128, b: u64, y: i128) -> i128 {
    if t == ElemType::ULong {
        (((a as u128) * (b as u128)) >> 64) as i128
    } else {
        (x * y) >> bits_of(t)
    }
}

fn saturate(t: ElemType, v: i128) -> u64 {
    let (lo, hi) = t.int_range();
    wrap(t, v.clamp(lo, hi))
}

/// The bits of the `half` nearest `x` in the rounding direction of `op`. The `half` crate
/// rounds to nearest even; the directed modes step one unit from there when it went the wrong
/// way.
fn to_half(op: MathOp, x: f32) -> u16 {
    to_half_from(op, x as f64, half::f16::from_f32(x).to_bits())
}

/// [`to_half`] for a double, rounded to half directly. (The `half` crate's own conversion from
/// f64 goes through f32 on some hosts, rounding twice, so it is not used.)
fn double_to_half(op: MathOp, x: f64) -> u16 {
    to_half_from(op, x, half::f16::from_f32(round_to_odd(x)).to_bits())
}

/// `x` as a float rounded to odd: toward zero, with the last bit set when inexact. Float has
/// more than twice half's precision, so rounding this to half gives what rounding `x` itself
/// would.
fn round_to_odd(x: f64) -> f32 {
    let near = x as f32;
    if near.is_nan() || near as f64 == x {
        return near;
    }
    let mut bits = near.to_bits();
    if (near as f64).abs() > x.abs() {
        // One unit toward zero (the sign bit is separate); from infinity, the largest float.
        bits -= 1;
    }
    f32::from_bits(bits | 1)
}

/// The directed roundings of `x` (a float or double, exactly in an `f64`) from `bits`, the
/// half nearest to it.
fn to_half_from(op: MathOp, x: f64, bits: u16) -> u16 {
    let back = half::f16::from_bits(bits).to_f64();
    if x.is_nan() || back == x {
        return bits;
    }
    // One unit toward zero or away from it: the sign bit is separate, so both change the
    // magnitude bits only.
    let (negative, magnitude) = (bits & 0x8000 != 0, bits & 0x7fff);
    let toward_zero = if magnitude == 0 { bits } else { bits - 1 };
    let away = bits + 1;
    match op {
        MathOp::FloatToHalfRtz if back.abs() > x.abs() => toward_zero,
        MathOp::FloatToHalfRtp if back < x => {
            if negative {
                toward_zero
            } else {
                away
            }
        }
        MathOp::FloatToHalfRtn if back > x => {
            if negative {
                away
            } else {
                toward_zero
            }
        }
        _ => bits,
    }
}

/// Evaluates `op` on one lane of element type `t`.
pub fn eval(op: MathOp, t: ElemType, a: u64, b: u64, c: u64) -> u64 {
    match op {
        MathOp::HalfToFloat => return (half::f16::from_bits(a as u16).to_f32()).to_bits() as u64,
        MathOp::FloatToHalfRte | MathOp::FloatToHalfRtz | MathOp::FloatToHalfRtp | MathOp::FloatToHalfRtn => {
            if t == ElemType::Double {
                return double_to_half(op, f64::from_bits(a)) as u64;
            }
            return to_half(op, f32::from_bits(a as u32)) as u64;
        }
        MathOp::ConvertDirected(from, mode) => return convert_directed(from, mode, t, a),
        MathOp::Nan => {
            // A quiet NaN (top significand bit set) with the operand's low bits below it.
            return if t == ElemType::Double { 0x7ff8_0000_0000_0000 | (a & 0x0007_ffff_ffff_ffff) } else { 0x7fc0_0000 | (a & 0x003f_ffff) };
        }
        _ => {}
    }
    if t.is_float() {
        return float(op, t, a, b, c);
    }
    let (x, y, z) = (int_of(t, a), int_of(t, b), int_of(t, c));
    let bits = bits_of(t);
    match op {
        MathOp::AddSat => saturate(t, x + y),
        MathOp::SubSat => saturate(t, x - y),
        MathOp::Hadd => wrap(t, (x + y) >> 1),
        MathOp::Rhadd => wrap(t, (x + y + 1) >> 1),
        MathOp::MulHi => wrap(t, mul_hi(t, a, x, b, y)),
        MathOp::MadHi => wrap(t, mul_hi(t, a, x, b, y).wrapping_add(z)),
        MathOp::Mad24 | MathOp::Mad => wrap(t, x.wrapping_mul(y).wrapping_add(z)),
        MathOp::Mul24 => wrap(t, x.wrapping_mul(y)),
        MathOp::MadSat if t == ElemType::ULong => {
            // The product of two ulongs plus a third stays below 2^128, but not below 2^127.
            let exact = (a as u128) * (b as u128) + (c as u128);
            u64::try_from(exact).unwrap_or(u64::MAX)
        }
        MathOp::MadSat => saturate(t, x * y + z),
        MathOp::AbsDiff => wrap(t, (x - y).abs()),
        MathOp::Clamp => wrap(t, x.max(y).min(z)),
        MathOp::Rotate => {
            let n = (y.rem_euclid(bits as i128)) as u32;
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            let u = (x as u64) & mask;
            let r = if n == 0 { u } else { ((u << n) | (u >> (bits - n))) & mask };
            wrap(t, r as i128)
        }
        MathOp::Clz => {
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            let u = (x as u64) & mask;
            wrap(t, (u.leading_zeros() - (64 - bits)) as i128)
        }
        MathOp::Ctz => {
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            let u = (x as u64) & mask;
            wrap(t, if u == 0 { bits as i128 } else { u.trailing_zeros() as i128 })
        }
        MathOp::Popcount => {
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            wrap(t, ((x as u64) & mask).count_ones() as i128)
        }
        MathOp::Ffs => {
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            let u = (x as u64) & mask;
            wrap(t, if u == 0 { 0 } else { u.trailing_zeros() as i128 + 1 })
        }
        MathOp::Brev => {
            // Reversed as 64 bits, the value's own bits end up at the top: shift them down.
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            wrap(t, (((x as u64) & mask).reverse_bits() >> (64 - bits)) as i128)
        }
        MathOp::Min => wrap(t, x.min(y)),
        MathOp::Max => wrap(t, x.max(y)),
        MathOp::Select => {
            if c != 0 {
                b
            } else {
                a
            }
        }
        MathOp::Bitselect => wrap(t, (x & !z) | (y & z)),
        // Float-only operations never reach here with an integer type (the lowering checks).
        _ => a,
    }
}

fn float(op: MathOp, t: ElemType, a: u64, b: u64, c: u64) -> u64 {
    let single = t == ElemType::Float;
    let (x, y, z) = if single { (f32_of(a) as f64, f32_of(b) as f64, f32_of(c) as f64) } else { (f64_of(a), f64_of(b), f64_of(c)) };
    // Relational results are integers: 1 / 0 here, -1 / 0 for vectors (the lowering negates).
    let truth = |v: bool| v as u64;
    let r = match op {
        MathOp::IsNan => return truth(x.is_nan()),
        MathOp::IsInf => return truth(x.is_infinite()),
        MathOp::IsFinite => return truth(x.is_finite()),
        MathOp::IsNormal => return truth(x.is_normal()),
        MathOp::SignBit => return truth(x.is_sign_negative()),
        // Comparisons of the exact values (both widen without rounding); any comparison with
        // NaN is false except `isnotequal` and `isunordered`.
        MathOp::IsEqual => return truth(x == y),
        MathOp::IsNotEqual => return truth(x != y),
        MathOp::IsGreater => return truth(x > y),
        MathOp::IsGreaterEqual => return truth(x >= y),
        MathOp::IsLess => return truth(x < y),
        MathOp::IsLessEqual => return truth(x <= y),
        // The specification's `(x < y) || (x > y)`, which is false when either is NaN; clippy's
        // suggestion `x != y` would be true there.
        #[allow(clippy::double_comparisons)]
        MathOp::IsLessGreater => return truth(x < y || x > y),
        MathOp::IsOrdered => return truth(!x.is_nan() && !y.is_nan()),
        MathOp::IsUnordered => return truth(x.is_nan() || y.is_nan()),
        // Integer results, in the register form of an `int`.
        MathOp::Ilogb => return ilogb(single, x) as i64 as u64,
        MathOp::FrexpExponent => {
            let e = if single { libm::frexpf(x as f32).1 } else { libm::frexp(x).1 };
            return e as i64 as u64;
        }
        MathOp::RemquoQuotient => {
            let q = if single { libm::remquof(x as f32, y as f32).1 } else { libm::remquo(x, y).1 };
            return q as i64 as u64;
        }
        MathOp::LgammaSign => {
            let sign = if single { libm::lgammaf_r(x as f32).1 } else { libm::lgamma_r(x).1 };
            return sign as i64 as u64;
        }
        MathOp::Select => return if c != 0 { b } else { a },
        MathOp::Bitselect => return (a & !c) | (b & c),
        MathOp::Pown => {
            let n = b as i32 as i64;
            return store(single, pow(single, x, n as f64));
        }
        MathOp::Rootn => {
            let n = b as i32 as f64;
            return store(single, pow(single, x, 1.0 / n));
        }
        MathOp::Ldexp => {
            let n = b as i32;
            return store(single, if single { libm::ldexpf(x as f32, n) as f64 } else { libm::ldexp(x, n) });
        }
        _ => op_float(op, single, x, y, z),
    };
    store(single, r)
}

fn store(single: bool, r: f64) -> u64 {
    if single {
        (r as f32).to_bits() as u64
    } else {
        r.to_bits()
    }
}

fn pow(single: bool, x: f64, y: f64) -> f64 {
    if single {
        libm::powf(x as f32, y as f32) as f64
    } else {
        libm::pow(x, y)
    }
}

/// Unary and binary float functions, computed in the lane's own precision.
fn op_float(op: MathOp, single: bool, x: f64, y: f64, z: f64) -> f64 {
    macro_rules! f1 {
        ($f32:ident, $f64:ident) => {
            if single {
                libm::$f32(x as f32) as f64
            } else {
                libm::$f64(x)
            }
        };
    }
    macro_rules! f2 {
        ($f32:ident, $f64:ident) => {
            if single {
                libm::$f32(x as f32, y as f32) as f64
            } else {
                libm::$f64(x, y)
            }
        };
    }
    let pi = std::f64::consts::PI;
    match op {
        MathOp::Sqrt => f1!(sqrtf, sqrt),
        MathOp::Rsqrt => 1.0 / f1!(sqrtf, sqrt),
        MathOp::Cbrt => f1!(cbrtf, cbrt),
        MathOp::Fabs => x.abs(),
        MathOp::Floor => f1!(floorf, floor),
        MathOp::Ceil => f1!(ceilf, ceil),
        MathOp::Round => f1!(roundf, round),
        MathOp::Trunc => f1!(truncf, trunc),
        MathOp::Rint => f1!(rintf, rint),
        MathOp::Exp => f1!(expf, exp),
        MathOp::Exp2 => f1!(exp2f, exp2),
        MathOp::Exp10 => f1!(exp10f, exp10),
        MathOp::Expm1 => f1!(expm1f, expm1),
        MathOp::Log => f1!(logf, log),
        MathOp::Log2 => f1!(log2f, log2),
        MathOp::Log10 => f1!(log10f, log10),
        MathOp::Log1p => f1!(log1pf, log1p),
        MathOp::Sin => f1!(sinf, sin),
        MathOp::Cos => f1!(cosf, cos),
        MathOp::Tan => f1!(tanf, tan),
        MathOp::Asin => f1!(asinf, asin),
        MathOp::Acos => f1!(acosf, acos),
        MathOp::Atan => f1!(atanf, atan),
        MathOp::Sinh => f1!(sinhf, sinh),
        MathOp::Cosh => f1!(coshf, cosh),
        MathOp::Tanh => f1!(tanhf, tanh),
        MathOp::Asinh => f1!(asinhf, asinh),
        MathOp::Acosh => f1!(acoshf, acosh),
        MathOp::Atanh => f1!(atanhf, atanh),
        MathOp::Erf => f1!(erff, erf),
        MathOp::Erfc => f1!(erfcf, erfc),
        MathOp::Tgamma => f1!(tgammaf, tgamma),
        MathOp::Lgamma => f1!(lgammaf, lgamma),
        MathOp::SinPi => op_float(MathOp::Sin, single, x * pi, 0.0, 0.0),
        MathOp::CosPi => op_float(MathOp::Cos, single, x * pi, 0.0, 0.0),
        MathOp::Pow | MathOp::Powr => pow(single, x, y),
        MathOp::Min | MathOp::Fmin => f2!(fminf, fmin),
        MathOp::Max | MathOp::Fmax => f2!(fmaxf, fmax),
        MathOp::Fmod => f2!(fmodf, fmod),
        MathOp::Hypot => f2!(hypotf, hypot),
        MathOp::Atan2 => f2!(atan2f, atan2),
        MathOp::Copysign => f2!(copysignf, copysign),
        MathOp::Fdim => f2!(fdimf, fdim),
        MathOp::Remainder => f2!(remainderf, remainder),
        MathOp::Nextafter => f2!(nextafterf, nextafter),
        MathOp::Step => {
            if y < x {
                0.0
            } else {
                1.0
            }
        }
        MathOp::Mad => x * y + z,
        MathOp::Fma => {
            if single {
                libm::fmaf(x as f32, y as f32, z as f32) as f64
            } else {
                libm::fma(x, y, z)
            }
        }
        MathOp::Mix => x + (y - x) * z,
        MathOp::Clamp => x.max(y).min(z),
        MathOp::SmoothStep => {
            let t = ((z - x) / (y - x)).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        }
        MathOp::Sign => {
            if x.is_nan() {
                0.0
            } else if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }
        }
        MathOp::Degrees => x * (180.0 / pi),
        MathOp::Radians => x * (pi / 180.0),
        // The `pi` forms are computed in double precision and rounded once, so that exact
        // cases such as acospi(-1) = 1 and atanpi(1) = 0.25 come out exact for floats too.
        MathOp::AcosPi => libm::acos(x) / pi,
        MathOp::AsinPi => libm::asin(x) / pi,
        MathOp::AtanPi => libm::atan(x) / pi,
        MathOp::Atan2Pi => libm::atan2(x, y) / pi,
        MathOp::TanPi => tanpi(x),
        MathOp::Logb => {
            if x.is_nan() {
                x
            } else if x.is_infinite() {
                f64::INFINITY
            } else if x == 0.0 {
                f64::NEG_INFINITY
            } else {
                ilogb(single, x) as f64
            }
        }
        MathOp::MaxMag => by_magnitude(x, y, true),
        MathOp::MinMag => by_magnitude(x, y, false),
        // A single division rounded to float is the float division: double has more than
        // twice float's precision, so rounding twice cannot differ from rounding once.
        MathOp::Divide => x / y,
        MathOp::Recip => 1.0 / x,
        MathOp::Fract => fract(single, x),
        MathOp::Modf => {
            if single {
                libm::modff(x as f32).0 as f64
            } else {
                libm::modf(x).0
            }
        }
        MathOp::FrexpMantissa => {
            if single {
                libm::frexpf(x as f32).0 as f64
            } else {
                libm::frexp(x).0
            }
        }
        _ => x,
    }
}

/// `ilogb`: the unbiased exponent (of the normalised value, for subnormals); `INT_MIN` for
/// zero and `INT_MAX` for infinities and NaN, the values of `FP_ILOGB0` and `FP_ILOGBNAN` in
/// OpenCL's headers.
fn ilogb(single: bool, x: f64) -> i32 {
    if x == 0.0 {
        i32::MIN
    } else if !x.is_finite() {
        i32::MAX
    } else if single {
        libm::ilogbf(x as f32)
    } else {
        libm::ilogb(x)
    }
}

/// `maxmag` (`larger`) or `minmag`: the operand of larger (smaller) magnitude; a NaN loses to
/// a number, and of two equal magnitudes the positive one is larger (so +0 beats -0).
fn by_magnitude(x: f64, y: f64, larger: bool) -> f64 {
    if x.is_nan() {
        return y;
    }
    if y.is_nan() {
        return x;
    }
    let (ax, ay) = (x.abs(), y.abs());
    if ax != ay {
        return if (ax > ay) == larger { x } else { y };
    }
    if x.is_sign_negative() == larger {
        y
    } else {
        x
    }
}

/// `tanpi(x)` = tan(pi x), with the exact values the specification gives at integers and
/// half-integers: tan has period 1, so only the exact fraction of `x` matters.
fn tanpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let whole = libm::floor(x);
    // Both are in the same binade or the fraction is small: the subtraction is exact.
    let frac = x - whole;
    let odd = libm::fmod(whole, 2.0).abs() == 1.0;
    if frac == 0.0 {
        // An even integer gives a zero of x's sign, an odd one the opposite.
        return if odd { libm::copysign(0.0, -x) } else { libm::copysign(0.0, x) };
    }
    if frac == 0.5 {
        return if odd { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    // The nearer representative in (-0.5, 0.5) keeps the argument of tan small.
    let r = if frac > 0.5 { frac - 1.0 } else { frac };
    if r.abs() == 0.25 {
        // tan(pi / 4) is exactly 1, which the rounded product pi * 0.25 would miss.
        return libm::copysign(1.0, r);
    }
    libm::tan(std::f64::consts::PI * r)
}

/// `fract(x)`: `x - floor(x)`, below 1 even where that difference rounds up to 1 (tiny
/// negative `x`); zeros and NaN return themselves and infinities a zero of their sign.
fn fract(single: bool, x: f64) -> f64 {
    if x.is_nan() || x == 0.0 {
        return x;
    }
    if x.is_infinite() {
        return libm::copysign(0.0, x);
    }
    // `x - floor(x)` is exact in double for a float `x`; rounding it gives the float result.
    let diff = x - libm::floor(x);
    if single {
        let below_one = f32::from_bits(0x3f7f_ffff) as f64;
        (diff as f32 as f64).min(below_one)
    } else {
        diff.min(f64::from_bits(0x3fef_ffff_ffff_ffff))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn half_bits(op: MathOp, x: f32) -> u16 {
        to_half(op, x)
    }

    #[test]
    fn float_to_half_rounds_in_each_direction() {
        // 1 + 2^-11 lies halfway between two halves: 1.0 (0x3c00) and 1 + 2^-10 (0x3c01).
        let x = 1.0 + 2f32.powi(-11);
        assert_eq!(half_bits(MathOp::FloatToHalfRte, x), 0x3c00);
        assert_eq!(half_bits(MathOp::FloatToHalfRtz, x), 0x3c00);
        assert_eq!(half_bits(MathOp::FloatToHalfRtp, x), 0x3c01);
        assert_eq!(half_bits(MathOp::FloatToHalfRtn, x), 0x3c00);
        assert_eq!(half_bits(MathOp::FloatToHalfRtn, -x), 0xbc01);
        assert_eq!(half_bits(MathOp::FloatToHalfRtp, -x), 0xbc00);
        // Beyond the largest half (65504): infinity to nearest, the largest half toward zero.
        assert_eq!(half_bits(MathOp::FloatToHalfRte, 1e6), 0x7c00);
        assert_eq!(half_bits(MathOp::FloatToHalfRtz, 1e6), 0x7bff);
        assert_eq!(half_bits(MathOp::FloatToHalfRtn, -1e6), 0xfc00);
        assert_eq!(half_bits(MathOp::FloatToHalfRtp, -1e6), 0xfbff);
        assert_eq!(eval(MathOp::HalfToFloat, ElemType::Float, 0x3c00, 0, 0), 1.0f32.to_bits() as u64);
    }

    /// Property tests, natively only: proptest is not built for wasm.
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;

        const HALF_MODES: [MathOp; 4] = [MathOp::FloatToHalfRte, MathOp::FloatToHalfRtz, MathOp::FloatToHalfRtp, MathOp::FloatToHalfRtn];

        fn directed(from: ElemType, mode: UnaryOp, bits: u64) -> f64 {
            f32::from_bits(convert_directed(from, mode, ElemType::Float, bits) as u32) as f64
        }

        proptest::proptest! {
            /// A float stored as a double rounds to the same half as the float itself.
            #[test]
            fn doubles_round_to_half_as_the_same_float_does(bits in proptest::prelude::any::<u32>()) {
                let x = f32::from_bits(bits);
                for op in HALF_MODES {
                    proptest::prop_assert_eq!(double_to_half(op, x as f64), to_half(op, x));
                }
            }

            /// Rounding a double down and up to float brackets it, toward zero is one of the two,
            /// and the nearest float is one of the two.
            #[test]
            fn directed_double_to_float_brackets_the_value(bits in proptest::prelude::any::<u64>()) {
                let x = f64::from_bits(bits);
                proptest::prop_assume!(!x.is_nan());
                let (down, up) = (directed(ElemType::Double, UnaryOp::Floor, bits), directed(ElemType::Double, UnaryOp::Ceil, bits));
                proptest::prop_assert!(down <= x && x <= up);
                let zero = directed(ElemType::Double, UnaryOp::Trunc, bits);
                proptest::prop_assert_eq!(zero, if x < 0.0 { up } else { down });
                let near = x as f32 as f64;
                proptest::prop_assert!(near == down || near == up);
            }

            /// The same for a long.
            #[test]
            fn directed_long_to_float_brackets_the_value(v in proptest::prelude::any::<i64>()) {
                let bits = v as u64;
                let (down, up) = (directed(ElemType::Long, UnaryOp::Floor, bits), directed(ElemType::Long, UnaryOp::Ceil, bits));
                proptest::prop_assert!((down as i128) <= v as i128 && v as i128 <= up as i128);
                let near = v as f32 as f64;
                proptest::prop_assert!(near == down || near == up);
            }

            /// maxmag and minmag each return an operand, the larger magnitude and the smaller.
            #[test]
            fn maxmag_and_minmag_split_the_operands(a in proptest::prelude::any::<f32>(), b in proptest::prelude::any::<f32>()) {
                proptest::prop_assume!(!a.is_nan() && !b.is_nan());
                let (x, y) = (a as f64, b as f64);
                let (big, small) = (by_magnitude(x, y, true), by_magnitude(x, y, false));
                proptest::prop_assert!(big.to_bits() == x.to_bits() || big.to_bits() == y.to_bits());
                proptest::prop_assert!(small.to_bits() == x.to_bits() || small.to_bits() == y.to_bits());
                proptest::prop_assert!(big.abs() >= small.abs());
            }

            /// fract stays in [0, 1), and tanpi has period 1 (up to the sign of its zeros and
            /// infinities, which the specification ties to the parity of the integer part).
            #[test]
            fn fract_is_below_one_and_tanpi_has_period_one(a in -1.0e6f32..1.0e6f32) {
                let x = a as f64;
                let f = fract(true, x);
                proptest::prop_assert!((0.0..1.0).contains(&f));
                if x - libm::floor(x) != 0.5 {
                    proptest::prop_assert_eq!(tanpi(x), tanpi(x + 1.0));
                }
            }
        }
    }
}
