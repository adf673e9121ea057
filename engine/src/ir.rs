//! The register IR that kernels lower to and work-items execute.
//!
//! Each function is a flat array of [`Instr`] over virtual registers that hold raw 64-bit
//! patterns; the instruction says how to read them ([`NumTy`] for arithmetic, [`ElemType`]
//! for memory). A work-item is plain data (function, program counter, registers), so the
//! scheduler can stop it at any shared-memory event and resume it later.
//!
//! Register conventions: signed 32-bit values are kept sign-extended to 64 bits, unsigned
//! ones zero-extended, `float` as its bits in the low half, and comparisons produce an `int`
//! 0 or 1. Pointers are encoded by [`ptr`].

use crate::diag::Span;
use crate::scenario::ElemType;

mod ordering;
pub mod print;

pub use ordering::{Level, Order, Scope};

/// A register index, relative to the current frame.
pub type Reg = u32;

/// The arithmetic types after C's integer promotions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumTy {
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl NumTy {
    pub fn is_float(self) -> bool {
        matches!(self, NumTy::F32 | NumTy::F64)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, NumTy::I32 | NumTy::I64)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    BitNot,
    /// `!x`: 1 if `x` is zero, else 0.
    LogicalNot,
    Abs,
    /// Floating-point rounding to an integral value: to nearest even, down, up, toward zero.
    RoundEven,
    Floor,
    Ceil,
    Trunc,
}

/// The math, integer and relational built-ins that work lane by lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathOp {
    // Integer.
    AddSat,
    SubSat,
    Hadd,
    Rhadd,
    MulHi,
    Mul24,
    Mad24,
    MadSat,
    AbsDiff,
    Rotate,
    Clz,
    Ctz,
    Popcount,
    /// CUDA's `__ffs`: the 1-based position of the least significant set bit, 0 for none.
    Ffs,
    /// CUDA's `__brev`: the bits in reverse order.
    Brev,
    /// `mul_hi(a, b) + c`.
    MadHi,
    // Common to integers and floats.
    Min,
    Max,
    Clamp,
    Mad,
    /// `c != 0 ? b : a` (`select`; for vectors the lowering first tests each lane's sign bit).
    Select,
    Bitselect,
    // Float.
    Sqrt,
    Rsqrt,
    Cbrt,
    Fabs,
    Floor,
    Ceil,
    Round,
    Trunc,
    Rint,
    Exp,
    Exp2,
    Exp10,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Erfc,
    Tgamma,
    Lgamma,
    SinPi,
    CosPi,
    Pow,
    Powr,
    Pown,
    Rootn,
    Ldexp,
    Fmin,
    Fmax,
    Fmod,
    Hypot,
    Atan2,
    Copysign,
    Fdim,
    Remainder,
    Nextafter,
    Step,
    Fma,
    Mix,
    SmoothStep,
    Sign,
    Degrees,
    Radians,
    /// `acos(x) / pi`, `asin(x) / pi`, `atan(x) / pi`, `atan2(y, x) / pi`, `tan(pi x)`.
    AcosPi,
    AsinPi,
    AtanPi,
    Atan2Pi,
    TanPi,
    /// The unbiased exponent of `x` as a float (`logb`).
    Logb,
    /// The operand of larger (smaller) magnitude; equal magnitudes as `fmax` (`fmin`), with
    /// +0 above -0.
    MaxMag,
    MinMag,
    /// `x / y` and `1 / x` (`native_divide`, `native_recip` and their `half_` forms).
    Divide,
    Recip,
    /// `fract`'s result, `min(x - floor(x), largest value below 1)`; the pointer gets `Floor`.
    Fract,
    /// `modf`'s result, the signed fractional part; the pointer gets `Trunc`.
    Modf,
    /// `frexp`'s mantissa in [0.5, 1) and (an integer) its exponent.
    FrexpMantissa,
    FrexpExponent,
    /// `remquo`'s quotient bits (an integer: the sign of `x / y` and its low 31 bits); the
    /// result is `Remainder`.
    RemquoQuotient,
    /// `lgamma_r`'s sign of gamma(x) (an integer); the result is `Lgamma`.
    LgammaSign,
    /// The unbiased exponent of `x` as an integer (`ilogb`): `INT_MIN` for 0, `INT_MAX` for
    /// infinities and NaN.
    Ilogb,
    /// A value conversion to `ty` (float or double) rounded down (`Floor`), up (`Ceil`) or
    /// toward zero (`Trunc`), from a `long`, `ulong` or `double` operand (`convert_float_rtp`
    /// and the like; narrower integers are widened first, exactly).
    ConvertDirected(ElemType, UnaryOp),
    /// A quiet NaN carrying the operand's low bits in its significand (`nan`); `ty` is the
    /// result's float type and the operand is a `uint` (float) or `ulong` (double).
    Nan,
    // Half-precision storage: the 16 bits of a `half` to a float, and a float to those bits
    // rounded to nearest even, toward zero, toward +infinity or toward -infinity.
    HalfToFloat,
    FloatToHalfRte,
    FloatToHalfRtz,
    FloatToHalfRtp,
    FloatToHalfRtn,
    // Relational (results are integers).
    IsNan,
    IsInf,
    IsFinite,
    IsNormal,
    SignBit,
    IsEqual,
    IsNotEqual,
    IsGreater,
    IsGreaterEqual,
    IsLess,
    IsLessEqual,
    IsLessGreater,
    IsOrdered,
    IsUnordered,
}

/// Read-modify-write operations of the atomic built-ins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    /// `old + 1`
    Inc,
    /// `old - 1`
    Dec,
    Min,
    Max,
    And,
    Or,
    Xor,
    /// Compare-and-exchange: `operand2` is the expected value, `operand` the new one.
    CmpXchg,
    /// Weak compare-and-exchange: as `CmpXchg`, but when the values are equal it may still
    /// fail, as LL/SC hardware does; the seed decides, and the work-item's `spurious` flag
    /// tells [`Instr::CasSucceeded`] what happened.
    CmpXchgWeak,
    /// An atomic load: the value is unchanged.
    Load,
    /// An atomic store of `operand`.
    Store,
    /// CUDA's `atomicInc`: `old >= operand ? 0 : old + 1`.
    IncWrap,
    /// CUDA's `atomicDec`: `(old == 0 || old > operand) ? operand : old - 1`.
    DecWrap,
}

impl AtomicOp {
    /// Every operation, in the order of [`AtomicOp::index`].
    pub const ALL: [AtomicOp; 16] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Xchg,
        AtomicOp::Inc,
        AtomicOp::Dec,
        AtomicOp::Min,
        AtomicOp::Max,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::CmpXchg,
        AtomicOp::CmpXchgWeak,
        AtomicOp::Load,
        AtomicOp::Store,
        AtomicOp::IncWrap,
        AtomicOp::DecWrap,
    ];

    /// A number from 0 to 15 for the event log, which keeps it in four bits.
    pub fn index(self) -> u8 {
        AtomicOp::ALL.iter().position(|&op| op == self).unwrap_or(0) as u8
    }
}

/// Bits of a fence's or barrier's flags register beyond `cl_mem_fence_flags` (1 = local,
/// 2 = global): the scope the fence orders, for CUDA's `__threadfence*`.
pub mod fence {
    pub const LOCAL: u64 = 1;
    pub const GLOBAL: u64 = 2;
    pub const SCOPE_GROUP: u64 = 0x100;
    pub const SCOPE_DEVICE: u64 = 0x200;
    pub const SCOPE_SYSTEM: u64 = 0x400;
    /// Set by `atomic_work_item_fence`, whose memory order is in bits 16..24 (a relaxed
    /// order is 0, so the bit tells it from a fence that names no order).
    pub const ORDERED: u64 = 0x100_0000;
    /// The flags of a scope level (beside the memory flags) for a fence that names a scope.
    pub fn scope_bits(level: super::Level) -> u64 {
        match level {
            super::Level::Group => SCOPE_GROUP,
            super::Level::Device => SCOPE_DEVICE,
            super::Level::System => SCOPE_SYSTEM,
        }
    }

    /// The flags of an `atomic_work_item_fence`-style fence with `order`, beside its scope's.
    pub fn order_bits(order: super::Order) -> u64 {
        ORDERED | (order.value() as u64) << 16
    }

    /// The fence's memory order and scope level for the memory models: an explicit order, or
    /// sequentially consistent for CUDA's `__threadfence*` (which name a scope), or acq_rel at
    /// work-group scope for OpenCL 1.x's `mem_fence`. The flags are a value the program
    /// computes, so bits 16..24 may hold a number that is no memory order: such a fence
    /// orders nothing, as a relaxed one.
    pub fn order_and_level(flags: u64) -> (super::Order, super::Level) {
        let level = if flags & SCOPE_SYSTEM != 0 {
            super::Level::System
        } else if flags & SCOPE_DEVICE != 0 {
            super::Level::Device
        } else {
            super::Level::Group
        };
        let order = if flags & ORDERED != 0 {
            super::Order::from_value(((flags >> 16) & 0xff) as u8).unwrap_or(super::Order::Relaxed)
        } else if flags & (SCOPE_GROUP | SCOPE_DEVICE | SCOPE_SYSTEM) != 0 {
            super::Order::SeqCst
        } else {
            super::Order::AcqRel
        };
        (order, level)
    }
}

/// What a collective computes from the values its participants bring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectiveOp {
    /// Only synchronises (`__syncwarp`).
    Sync,
    /// How many brought a non-zero value (`__syncthreads_count`).
    Count,
    /// Whether all brought non-zero values (`__syncthreads_and`, `__all`).
    All,
    /// Whether any brought a non-zero value (`__syncthreads_or`, `__any`).
    Any,
    /// A bit per lane whose value is non-zero (`__ballot`).
    Ballot,
    /// The value of lane `b` (`__shfl_sync`).
    Shfl,
    /// The value of lane `lane - b`, or one's own (`__shfl_up_sync`).
    ShflUp,
    /// The value of lane `lane + b`, or one's own (`__shfl_down_sync`).
    ShflDown,
    /// The value of lane `lane ^ b` (`__shfl_xor_sync`).
    ShflXor,
    /// The value `a` of the member whose id is `b`: the local linear id in a work-group, the
    /// lane in a sub-group. Every member must name the same one (`work_group_broadcast`,
    /// `sub_group_broadcast`).
    Broadcast(NumTy),
    /// Every member's `a` combined with the operator in id order, so a floating-point sum
    /// does not depend on arrival order (`work_group_reduce_*`, `sub_group_reduce_*`).
    Reduce(ScanOp, NumTy),
    /// The members' `a` combined in id order up to and including one's own
    /// (`work_group_scan_inclusive_*`, `sub_group_scan_inclusive_*`).
    ScanInclusive(ScanOp, NumTy),
    /// The members' `a` combined in id order up to but excluding one's own, starting from the
    /// operator's identity (`work_group_scan_exclusive_*`, `sub_group_scan_exclusive_*`).
    ScanExclusive(ScanOp, NumTy),
}

/// The operator of an OpenCL reduction or scan collective.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanOp {
    /// Wrapping addition for integers, IEEE addition for floats; identity 0.
    Add,
    /// Identity: the type's largest value, `+INFINITY` for floats.
    Min,
    /// Identity: the type's smallest value, `-INFINITY` for floats.
    Max,
}

/// Work-item and NDRange queries (`get_global_id` and friends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    GlobalId,
    LocalId,
    GroupId,
    GlobalSize,
    LocalSize,
    EnqueuedLocalSize,
    NumGroups,
    GlobalOffset,
    WorkDim,
    GlobalLinearId,
    LocalLinearId,
    /// Sub-groups are the scenario's warps: `warp_size` consecutive work-items of a group by
    /// local linear id, the last one smaller when the group size is not a multiple.
    SubGroupSize,
    MaxSubGroupSize,
    NumSubGroups,
    EnqueuedNumSubGroups,
    SubGroupId,
    SubGroupLocalId,
}

/// One IR instruction. Those marked *event* are scheduling points when they touch shared
/// memory; all others are private computation that runs between events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Instr {
    /// `dst = bits`
    Const {
        dst: Reg,
        bits: u64,
    },
    Move {
        dst: Reg,
        src: Reg,
    },
    Binary {
        op: BinaryOp,
        ty: NumTy,
        dst: Reg,
        lhs: Reg,
        rhs: Reg,
    },
    Compare {
        op: CmpOp,
        ty: NumTy,
        dst: Reg,
        lhs: Reg,
        rhs: Reg,
    },
    Unary {
        op: UnaryOp,
        ty: NumTy,
        dst: Reg,
        src: Reg,
    },
    Convert {
        from: NumTy,
        to: NumTy,
        dst: Reg,
        src: Reg,
    },
    /// Reinterprets the low bits of a register as `ty` in register form: narrows an integer
    /// to `char`, `short` or `bool` and widens it back, or re-canonicalises bits after `as_T`.
    Narrow {
        ty: ElemType,
        dst: Reg,
        src: Reg,
    },
    /// `dst = ptr + index * scale` (index is a signed 64-bit integer).
    PtrAdd {
        dst: Reg,
        ptr: Reg,
        index: Reg,
        scale: u32,
    },
    /// `dst = (a - b) / scale`, the element distance of two pointers.
    PtrDiff {
        dst: Reg,
        lhs: Reg,
        rhs: Reg,
        scale: u32,
    },
    Jump {
        target: u32,
    },
    BranchIf {
        cond: Reg,
        target: u32,
    },
    BranchIfNot {
        cond: Reg,
        target: u32,
    },
    /// *Event* (unless private): `dst = *addr`.
    Load {
        ty: ElemType,
        dst: Reg,
        addr: Reg,
    },
    /// *Event* (unless private): `*addr = src`.
    Store {
        ty: ElemType,
        addr: Reg,
        src: Reg,
    },
    /// *Event*: atomic read-modify-write; `dst` receives the old value, with the order and
    /// scope it was written with.
    Atomic {
        op: AtomicOp,
        ty: ElemType,
        dst: Reg,
        addr: Reg,
        operand: Reg,
        operand2: Reg,
        order: Order,
        scope: Scope,
    },
    /// *Event*: work-group barrier with `cl_mem_fence_flags` in `flags`.
    Barrier {
        flags: Reg,
    },
    /// *Event*: a memory fence with `cl_mem_fence_flags` in `flags`.
    Fence {
        flags: Reg,
    },
    /// *Event*: arrival at a named barrier of the work-group (a PTX litmus test's `bar.sync`
    /// and `bar.arrive`; see `exec::named_barrier`). `meeting` names the meeting and
    /// `resource` the barrier resource: the arrivals with the same resource synchronise.
    /// `members` is the bit mask of the local ids that take part; `quorum` is 0 for a meeting
    /// that waits for every member, or the thread count after which it is open. With `arrive`
    /// the work-item counts itself in and goes on at once.
    NamedBarrier {
        meeting: Reg,
        resource: Reg,
        members: Reg,
        quorum: Reg,
        arrive: bool,
    },
    /// *Event*: arrival at a collective of the work-group (`warp` false; it is also a
    /// barrier) or of the warp. Every participant brings `a` and `b`; when all have arrived,
    /// each receives `op`'s result in `dst`. A warp collective with a `mask` (CUDA's `_sync`
    /// forms) is one of the lanes the mask names only; without one, every member takes part.
    /// `width` is a shuffle's segment width (the warp size when absent).
    Collective {
        op: CollectiveOp,
        warp: bool,
        dst: Reg,
        a: Reg,
        b: Reg,
        mask: Option<Reg>,
        width: Option<Reg>,
    },
    /// A call of a function that is declared but has no body (its name is string `text`):
    /// `dst` = 0 and an `undefined-function` warning.
    Undefined {
        dst: Reg,
        text: u32,
    },
    /// An `out-of-bounds` finding when the signed index in `index` is not below `len`: a
    /// subscript of an array object past its declared size (the access still goes ahead, as
    /// the hardware's would).
    CheckIndex {
        index: Reg,
        len: u64,
    },
    /// `dst` = whether the compare-exchange that returned `old` succeeded: `old` equals
    /// `expected` (compared as `ty`) and the exchange did not fail spuriously.
    CasSucceeded {
        ty: NumTy,
        dst: Reg,
        old: Reg,
        expected: Reg,
    },
    /// `dst` = a mask of the lanes of this work-item's warp that have not finished.
    ActiveMask {
        dst: Reg,
    },
    /// `dst` = the instructions this work-item has executed so far (a simulated clock).
    Clock {
        dst: Reg,
    },
    /// Records `src` as the work-item's observation number `slot` (a litmus test's register
    /// at the end of its thread). Private: no other work-item can see it.
    Observe {
        slot: u32,
        src: Reg,
    },
    /// *Event*: `dst` = `size` bytes from the device heap, 16-byte aligned, or NULL.
    Malloc {
        dst: Reg,
        size: Reg,
    },
    /// *Event*: returns a block of the device heap.
    Free {
        ptr: Reg,
    },
    /// *Event*: this work-item's call of `async_work_group_(strided_)copy`. The first call of
    /// a group starts the copy; its `count` elements of `elem_size` bytes then move as steps
    /// of the group's copy engine. `stride` (in elements) applies to the global side;
    /// `to_local` gives the direction. `dst` receives the event handle; `event` is the one
    /// passed in (0 for a new one).
    AsyncCopy {
        dst: Reg,
        to: Reg,
        from: Reg,
        count: Reg,
        stride: Reg,
        event: Reg,
        elem_size: u32,
        to_local: bool,
    },
    /// *Event*: `wait_group_events(count, list)`: blocks until the copies of those events are
    /// complete.
    WaitEvents {
        count: Reg,
        list: Reg,
    },
    /// Stops the work-item with an `assertion-failed` finding when `cond` is zero; the
    /// message is `strings[text]` (the function and the asserted expression).
    Assert {
        cond: Reg,
        text: u32,
    },
    /// `dst = op(a, b, c)` on one lane of element type `ty` (unused operands are ignored).
    Math {
        op: MathOp,
        ty: ElemType,
        dst: Reg,
        a: Reg,
        b: Reg,
        c: Reg,
    },
    /// Checks a memory order (`scope` false) or scope computed at run time: when bit
    /// `value` of `allowed` is clear, an `invalid-memory-order` finding. `text` names the
    /// operation (`strings[text]`).
    CheckOrder {
        value: Reg,
        allowed: u8,
        scope: bool,
        text: u32,
    },
    /// `dst = query(dim)`.
    WorkItem {
        query: Query,
        dst: Reg,
        dim: Reg,
    },
    /// `dst` = a pointer to this work-group's copy of local allocation `index`.
    LocalAddr {
        dst: Reg,
        index: u32,
    },
    /// `dst` = a pointer to program-scope variable `index` (see [`Program::globals`]).
    GlobalAddr {
        dst: Reg,
        index: u32,
    },
    /// Reserves `size` bytes of private memory for the rest of the call; `dst` = its address.
    /// The bytes count as written when `initialised` (a variable with an initialiser, a
    /// parameter copy, a temporary), so only variables declared without a value are reported
    /// when read first.
    Alloca {
        dst: Reg,
        size: u32,
        align: u32,
        initialised: bool,
    },
    /// Calls `func` with the registers `arg_pool[args..args + argc]` as arguments.
    Call {
        func: u32,
        dst: Reg,
        args: u32,
        argc: u32,
    },
    Return {
        src: Option<Reg>,
    },
    /// *Event*: `printf` with format string `format` and the argument registers
    /// `arg_pool[args..args + argc]`, whose types are `printf_types[args..args + argc]`.
    Printf {
        format: u32,
        args: u32,
        argc: u32,
    },
    /// *Event*: the start of a statement, emitted only for the statement granularity, where
    /// every statement is a step of its own.
    Statement,
}

/// A lowered function.
#[derive(Clone, Debug, Default)]
pub struct Function {
    pub name: String,
    pub code: Vec<Instr>,
    /// The source span of each instruction (same length as `code`).
    pub spans: Vec<Span>,
    /// Registers the function needs, parameters first.
    pub num_regs: u32,
    pub num_params: u32,
    /// Argument registers of calls and printfs, referenced by index.
    pub arg_pool: Vec<Reg>,
    /// How printf formats each argument of `arg_pool` (same length).
    pub printf_types: Vec<PrintfArg>,
    /// The source variables and where they live, for the inspector; nothing executes them.
    pub vars: Vec<DebugVar>,
}

/// A source variable of a function: where its value is while it is in scope.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugVar {
    pub name: String,
    /// Its C type, as messages spell it.
    pub type_name: String,
    pub place: DebugPlace,
    /// How to read the value: the element type and how many elements.
    pub elem: DebugElem,
    pub count: u32,
    /// The instructions `start..end` during which it is in scope.
    pub start: u32,
    pub end: u32,
}

/// Where a variable's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugPlace {
    /// In consecutive registers from this one (a vector takes one per element).
    Regs(Reg),
    /// In memory at the address this register holds (arrays, structs, variables whose
    /// address is taken).
    Mem(Reg),
}

/// How the elements of a variable read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugElem {
    Scalar(ElemType),
    /// A pointer (shown as its space, allocation and offset).
    Pointer,
    /// Bytes whose layout the inspector does not break down (a struct).
    Bytes,
}

/// How a printf argument is read from its register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrintfArg {
    Int(NumTy),
    Str,
    Ptr,
    None,
}

/// A kernel parameter, as the launcher needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelParam {
    pub name: String,
    pub span: Span,
    pub kind: ParamKind,
    /// The parameter's type as C spells it, for listings.
    pub type_name: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// A pointer into `space` whose elements are `elem` (`None` for `void*`).
    Pointer {
        space: Space,
        elem: Option<ElemType>,
        is_const: bool,
    },
    Scalar(ElemType),
    /// A struct or vector passed by value: `size` bytes that each work-item gets a private
    /// copy of.
    Aggregate {
        size: u64,
        align: u64,
    },
}

/// A kernel entry point.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub func: u32,
    pub params: Vec<KernelParam>,
    /// The work-group size `reqd_work_group_size` demands, with the attribute's span.
    pub reqd_work_group_size: Option<([u64; 3], Span)>,
}

/// A `__local` array declared inside a kernel: one copy per work-group.
#[derive(Clone, Debug)]
pub struct LocalDecl {
    pub name: String,
    pub size: u64,
    /// The scalar type of its elements, when it is a scalar or an array of scalars (for the
    /// memory view).
    pub elem: Option<ElemType>,
}

/// A program-scope variable in global or constant memory, with its initial bytes.
#[derive(Clone, Debug)]
pub struct GlobalDecl {
    pub name: String,
    pub space: Space,
    pub bytes: Vec<u8>,
    /// Pointers among the initial bytes (`global int *p = &g;`), whose values depend on where
    /// the launch places the variables they point to: filled in by the launch.
    pub pointers: Vec<GlobalPointer>,
}

/// A pointer in a program-scope variable's initial bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalPointer {
    /// Where the pointer's 8 bytes start in the variable.
    pub at: u32,
    /// The program-scope variable it points into, as its index in [`Program::globals`].
    pub target: u32,
    /// Its byte offset in that variable.
    pub offset: i64,
}

/// A whole lowered program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Whether any function calls `malloc` (the launch then reserves the device heap).
    pub uses_heap: bool,
    pub functions: Vec<Function>,
    pub kernels: Vec<Kernel>,
    pub locals: Vec<LocalDecl>,
    pub globals: Vec<GlobalDecl>,
    pub strings: Vec<String>,
    /// Warnings about the source that do not stop it from running, in source order of
    /// discovery.
    pub warnings: Vec<crate::diag::Diagnostic>,
    /// The program follows the PTX memory model (CUDA C++ and PTX litmus tests), not OpenCL's:
    /// which accesses synchronise and which reads are ordered by coherence.
    pub ptx: bool,
}

/// An address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Space {
    Global,
    Local,
    Constant,
    Private,
}

/// Pointer encoding in a 64-bit register: 2 bits of address space, 22 bits of allocation and
/// 40 bits of byte offset. Allocation 0 of the global space is the null pointer.
pub mod ptr {
    use super::Space;

    pub const OFFSET_BITS: u32 = 40;
    pub const ALLOC_BITS: u32 = 22;
    pub const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
    pub const ALLOC_MASK: u64 = (1 << ALLOC_BITS) - 1;

    pub fn make(space: Space, alloc: u32, offset: u64) -> u64 {
        ((space as u64) << 62) | ((alloc as u64 & ALLOC_MASK) << OFFSET_BITS) | (offset & OFFSET_MASK)
    }

    pub fn space(p: u64) -> Space {
        match p >> 62 {
            0 => Space::Global,
            1 => Space::Local,
            2 => Space::Constant,
            _ => Space::Private,
        }
    }

    pub fn alloc(p: u64) -> u32 {
        ((p >> OFFSET_BITS) & ALLOC_MASK) as u32
    }

    pub fn offset(p: u64) -> u64 {
        p & OFFSET_MASK
    }

    /// Moves a pointer by `delta` bytes within its allocation's offset field (wrapping, so a
    /// pointer that strays out of bounds is caught at its use, not here).
    pub fn add(p: u64, delta: i64) -> u64 {
        (p & !OFFSET_MASK) | (offset(p).wrapping_add(delta as u64) & OFFSET_MASK)
    }
}
