//! The math, integer and relational built-ins, one lane at a time.
//!
//! Floating-point functions come from the `libm` crate (a pure-Rust port of musl's libm) and
//! never from the platform, so a transcendental function returns the same bits natively and
//! in wasm, and a trace hash means the same run everywhere.

use crate::ir::MathOp;
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

fn saturate(t: ElemType, v: i128) -> u64 {
    let (lo, hi) = t.int_range();
    wrap(t, v.clamp(lo, hi))
}

/// The bits of the `half` nearest `x` in the rounding direction of `op`. The `half` crate
/// rounds to nearest even; the directed modes step one unit from there when it went the wrong
/// way.
fn to_half(op: MathOp, x: f32) -> u16 {
    let bits = half::f16::from_f32(x).to_bits();
    let back = half::f16::from_bits(bits).to_f32();
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
            return to_half(op, f32::from_bits(a as u32)) as u64;
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
        MathOp::MulHi => wrap(t, (x * y) >> bits),
        MathOp::Mad24 | MathOp::Mad => wrap(t, x.wrapping_mul(y).wrapping_add(z)),
        MathOp::Mul24 => wrap(t, x.wrapping_mul(y)),
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
    let (x, y, z) = if single {
        (f32_of(a) as f64, f32_of(b) as f64, f32_of(c) as f64)
    } else {
        (f64_of(a), f64_of(b), f64_of(c))
    };
    // Relational results are integers: 1 / 0 here, -1 / 0 for vectors (the lowering negates).
    let truth = |v: bool| v as u64;
    let r = match op {
        MathOp::IsNan => return truth(x.is_nan()),
        MathOp::IsInf => return truth(x.is_infinite()),
        MathOp::IsFinite => return truth(x.is_finite()),
        MathOp::IsNormal => return truth(x.is_normal()),
        MathOp::SignBit => return truth(x.is_sign_negative()),
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
        _ => x,
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
}
