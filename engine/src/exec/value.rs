//! Values in register form: the arithmetic, comparisons and conversions of the IR's number
//! types and the new value of an atomic read-modify-write (their encoding in memory is
//! [`ElemType::encode`]'s).
//! The interpreter and the collective operations compute through these, so a value is the
//! same whichever path computed it.

use crate::ir::{AtomicOp, BinaryOp, CmpOp, NumTy, UnaryOp};
use crate::scenario::ElemType;

#[inline]
pub(super) fn canon_int(ty: NumTy, v: u64) -> u64 {
    match ty {
        NumTy::I32 => v as i32 as i64 as u64,
        NumTy::U32 | NumTy::F32 => v as u32 as u64,
        _ => v,
    }
}

#[inline]
pub(super) fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

#[inline]
pub(super) fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}

/// Evaluates a binary operation; `None` for an integer division by zero.
#[inline]
pub(super) fn binary(op: BinaryOp, ty: NumTy, a: u64, b: u64) -> Option<u64> {
    Some(match ty {
        NumTy::F32 => {
            let (x, y) = (f32_of(a), f32_of(b));
            let r = match op {
                BinaryOp::Add => x + y,
                BinaryOp::Sub => x - y,
                BinaryOp::Mul => x * y,
                BinaryOp::Div => x / y,
                BinaryOp::Rem => x % y,
                BinaryOp::Min => x.min(y),
                BinaryOp::Max => x.max(y),
                _ => 0.0,
            };
            r.to_bits() as u64
        }
        NumTy::F64 => {
            let (x, y) = (f64_of(a), f64_of(b));
            let r = match op {
                BinaryOp::Add => x + y,
                BinaryOp::Sub => x - y,
                BinaryOp::Mul => x * y,
                BinaryOp::Div => x / y,
                BinaryOp::Rem => x % y,
                BinaryOp::Min => x.min(y),
                BinaryOp::Max => x.max(y),
                _ => 0.0,
            };
            r.to_bits()
        }
        NumTy::I32 | NumTy::I64 => {
            let bits = if ty == NumTy::I32 { 32 } else { 64 };
            let (x, y) = (a as i64, b as i64);
            let r = match op {
                BinaryOp::Add => x.wrapping_add(y),
                BinaryOp::Sub => x.wrapping_sub(y),
                BinaryOp::Mul => x.wrapping_mul(y),
                BinaryOp::Div | BinaryOp::Rem if y == 0 => return None,
                BinaryOp::Div if bits == 32 => (x as i32).wrapping_div(y as i32) as i64,
                BinaryOp::Rem if bits == 32 => (x as i32).wrapping_rem(y as i32) as i64,
                BinaryOp::Div => x.wrapping_div(y),
                BinaryOp::Rem => x.wrapping_rem(y),
                // OpenCL C defines shifts by the low bits of the count.
                BinaryOp::Shl => x.wrapping_shl((y as u32) & (bits - 1)),
                BinaryOp::Shr if bits == 32 => ((x as i32) >> ((y as u32) & 31)) as i64,
                BinaryOp::Shr => x >> ((y as u32) & 63),
                BinaryOp::And => x & y,
                BinaryOp::Or => x | y,
                BinaryOp::Xor => x ^ y,
                BinaryOp::Min => x.min(y),
                BinaryOp::Max => x.max(y),
            };
            canon_int(ty, r as u64)
        }
        NumTy::U32 | NumTy::U64 => {
            let bits = if ty == NumTy::U32 { 32 } else { 64 };
            let (x, y) = (a, b);
            let r = match op {
                BinaryOp::Add => x.wrapping_add(y),
                BinaryOp::Sub => x.wrapping_sub(y),
                BinaryOp::Mul => x.wrapping_mul(y),
                BinaryOp::Div | BinaryOp::Rem if canon_int(ty, y) == 0 => return None,
                BinaryOp::Div => canon_int(ty, x) / canon_int(ty, y),
                BinaryOp::Rem => canon_int(ty, x) % canon_int(ty, y),
                BinaryOp::Shl => x.wrapping_shl((y as u32) & (bits - 1)),
                BinaryOp::Shr => canon_int(ty, x) >> ((y as u32) & (bits - 1)),
                BinaryOp::And => x & y,
                BinaryOp::Or => x | y,
                BinaryOp::Xor => x ^ y,
                BinaryOp::Min => canon_int(ty, x).min(canon_int(ty, y)),
                BinaryOp::Max => canon_int(ty, x).max(canon_int(ty, y)),
            };
            canon_int(ty, r)
        }
    })
}

pub(super) fn round(op: UnaryOp, x: f64) -> f64 {
    match op {
        UnaryOp::RoundEven => x.round_ties_even(),
        UnaryOp::Floor => x.floor(),
        UnaryOp::Ceil => x.ceil(),
        _ => x.trunc(),
    }
}

#[inline]
pub(super) fn compare(op: CmpOp, ty: NumTy, a: u64, b: u64) -> bool {
    use std::cmp::Ordering;
    // Integers compare directly (as 64-bit values, signed or not), without an `Ordering`.
    match ty {
        NumTy::I32 | NumTy::I64 => return int_compare(op, a as i64, b as i64),
        NumTy::U32 | NumTy::U64 => return int_compare(op, a, b),
        _ => {}
    }
    let ord = match ty {
        NumTy::F32 => f32_of(a).partial_cmp(&f32_of(b)),
        NumTy::F64 => f64_of(a).partial_cmp(&f64_of(b)),
        NumTy::I32 | NumTy::I64 => Some((a as i64).cmp(&(b as i64))),
        NumTy::U32 | NumTy::U64 => Some(a.cmp(&b)),
    };
    match (op, ord) {
        (CmpOp::Ne, None) => true,
        (_, None) => false,
        (CmpOp::Eq, Some(o)) => o == Ordering::Equal,
        (CmpOp::Ne, Some(o)) => o != Ordering::Equal,
        (CmpOp::Lt, Some(o)) => o == Ordering::Less,
        (CmpOp::Le, Some(o)) => o != Ordering::Greater,
        (CmpOp::Gt, Some(o)) => o == Ordering::Greater,
        (CmpOp::Ge, Some(o)) => o != Ordering::Less,
    }
}

#[inline]
fn int_compare<T: Ord>(op: CmpOp, x: T, y: T) -> bool {
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

#[inline]
pub(super) fn convert(from: NumTy, to: NumTy, v: u64) -> u64 {
    // First to a wide intermediate that is exact for the source, then to the target, with
    // Rust's saturating float-to-int casts (deterministic where C leaves it undefined).
    match from {
        NumTy::F32 | NumTy::F64 => {
            let x = if from == NumTy::F32 { f32_of(v) as f64 } else { f64_of(v) };
            match to {
                NumTy::F32 => (x as f32).to_bits() as u64,
                NumTy::F64 => x.to_bits(),
                NumTy::I32 => x as i32 as i64 as u64,
                NumTy::U32 => x as u32 as u64,
                NumTy::I64 => x as i64 as u64,
                NumTy::U64 => x as u64,
            }
        }
        _ => {
            let signed = from.is_signed();
            match to {
                NumTy::F32 => (if signed { v as i64 as f32 } else { v as f32 }).to_bits() as u64,
                NumTy::F64 => (if signed { v as i64 as f64 } else { v as f64 }).to_bits(),
                _ => canon_int(to, v),
            }
        }
    }
}

/// Whether a signed `op` on register values `a` and `b` of type `ty` overflows.
#[inline]
pub(super) fn signed_overflow(op: BinaryOp, ty: NumTy, a: u64, b: u64) -> bool {
    match ty {
        NumTy::I32 => {
            let (x, y) = (a as i32, b as i32);
            match op {
                BinaryOp::Add => x.checked_add(y).is_none(),
                BinaryOp::Sub => x.checked_sub(y).is_none(),
                BinaryOp::Mul => x.checked_mul(y).is_none(),
                _ => false,
            }
        }
        NumTy::I64 => {
            let (x, y) = (a as i64, b as i64);
            match op {
                BinaryOp::Add => x.checked_add(y).is_none(),
                BinaryOp::Sub => x.checked_sub(y).is_none(),
                BinaryOp::Mul => x.checked_mul(y).is_none(),
                _ => false,
            }
        }
        _ => false,
    }
}

/// The new value of an atomic read-modify-write.
pub(super) fn atomic(op: AtomicOp, ty: ElemType, old: u64, x: u64, expected: u64) -> u64 {
    // Registers of `ty` in memory's form: the arithmetic must be the type's own (a `double`
    // added as an integer adds bit patterns); the narrow unsigned types compare and exchange
    // only, which their zero-extended bits do as `ulong`.
    let nt = match ty {
        ElemType::Int => NumTy::I32,
        ElemType::UInt => NumTy::U32,
        ElemType::Long => NumTy::I64,
        ElemType::Float => NumTy::F32,
        ElemType::Double => NumTy::F64,
        _ => NumTy::U64,
    };
    let bin = |op| binary(op, nt, old, x).unwrap_or(old);
    match op {
        // Only CUDA adds floats atomically (OpenCL C has no float read-modify-write but the
        // exchanges), and PTX's `atom.add.f32` flushes subnormal inputs and results to zero.
        AtomicOp::Add if nt == NumTy::F32 => add_f32_ftz(old, x),
        AtomicOp::Add => bin(BinaryOp::Add),
        AtomicOp::Sub => bin(BinaryOp::Sub),
        AtomicOp::Xchg | AtomicOp::Store => x,
        AtomicOp::Load => old,
        AtomicOp::Inc => binary(BinaryOp::Add, nt, old, 1).unwrap_or(old),
        AtomicOp::Dec => binary(BinaryOp::Sub, nt, old, 1).unwrap_or(old),
        AtomicOp::Min => bin(BinaryOp::Min),
        AtomicOp::Max => bin(BinaryOp::Max),
        AtomicOp::And => bin(BinaryOp::And),
        AtomicOp::Or => bin(BinaryOp::Or),
        AtomicOp::Xor => bin(BinaryOp::Xor),
        AtomicOp::CmpXchg | AtomicOp::CmpXchgWeak => {
            if canon_int(nt, old) == canon_int(nt, expected) {
                x
            } else {
                old
            }
        }
        AtomicOp::IncWrap => {
            if canon_int(nt, old) >= canon_int(nt, x) {
                0
            } else {
                canon_int(nt, old.wrapping_add(1))
            }
        }
        AtomicOp::DecWrap => {
            let (o, v) = (canon_int(nt, old), canon_int(nt, x));
            if o == 0 || o > v {
                v
            } else {
                canon_int(nt, o.wrapping_sub(1))
            }
        }
    }
}

/// `a + b` in single precision as PTX's `atom.add.f32` computes it: rounded to nearest even,
/// with subnormal inputs and results flushed to zero of the same sign.
pub(super) fn add_f32_ftz(a: u64, b: u64) -> u64 {
    let flush = |x: f32| if x.is_subnormal() { f32::from_bits(x.to_bits() & 0x8000_0000) } else { x };
    flush(flush(f32_of(a)) + flush(f32_of(b))).to_bits() as u64
}
