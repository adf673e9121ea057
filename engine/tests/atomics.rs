//! Every atomic of both dialects on every type its standard defines it for, checked against a
//! sequential model: one work-item performs one atomic on generated operands, and the value it
//! got back and the value left in memory must be what plain Rust arithmetic (written here,
//! independently of the engine) says. Operands travel as bit patterns through integer buffers,
//! so no decimal rounding stands between the generator and the kernel. Native only: the
//! property-test generator is not built for wasm.
#![cfg(not(target_arch = "wasm32"))]

use interleave_engine::report::RunStatus;
use interleave_engine::scenario::{ArgBinding, Dialect, Number, Scenario};
use interleave_engine::session::Session;
use interleave_engine::why;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// The element type an atomic works on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum T {
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl T {
    fn width(self) -> u32 {
        match self {
            T::U16 => 16,
            T::I32 | T::U32 | T::F32 => 32,
            T::I64 | T::U64 | T::F64 => 64,
        }
    }

    fn mask(self) -> u64 {
        if self.width() == 64 {
            u64::MAX
        } else {
            (1u64 << self.width()) - 1
        }
    }

    fn opencl(self) -> &'static str {
        match self {
            T::U16 => "ushort",
            T::I32 => "int",
            T::U32 => "uint",
            T::I64 => "long",
            T::U64 => "ulong",
            T::F32 => "float",
            T::F64 => "double",
        }
    }

    fn cuda(self) -> &'static str {
        match self {
            T::U16 => "unsigned short",
            T::I32 => "int",
            T::U32 => "unsigned int",
            T::I64 => "long long",
            T::U64 => "unsigned long long",
            T::F32 => "float",
            T::F64 => "double",
        }
    }

    /// The bits as a signed number of this width.
    fn signed(self, v: u64) -> i64 {
        match self.width() {
            16 => v as u16 as i16 as i64,
            32 => v as u32 as i32 as i64,
            _ => v as i64,
        }
    }
}

/// What the atomic does, in the model's terms.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Add,
    Sub,
    Xchg,
    Min,
    Max,
    And,
    Or,
    Xor,
    /// Compare with `a`, store `b` when equal.
    Cas,
    /// OpenCL's `atomic_inc` / `atomic_dec`: plus or minus one, wrapping.
    Inc,
    Dec,
    /// CUDA's `atomicInc(x, a)`: `old >= a ? 0 : old + 1`.
    IncWrap,
    /// CUDA's `atomicDec(x, a)`: `(old == 0 || old > a) ? a : old - 1`.
    DecWrap,
    /// OpenCL 2.0's `atomic_compare_exchange_strong(x, &e, b)` with `e = a`: reports through
    /// `e` and its result.
    CompareExchange,
    /// `atomic_flag_test_and_set`: returns whether it was set, sets it.
    TestAndSet,
}

/// Sign-preserving flush of a subnormal single to zero.
fn flush(x: f32) -> f32 {
    if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// The model: from memory's old bits and the operands, the bits the atomic returns and the
/// bits it leaves in memory.
fn model(op: Op, t: T, old: u64, a: u64, b: u64) -> (u64, u64) {
    let m = t.mask();
    let (old, a, b) = (old & m, a & m, b & m);
    let new = match op {
        Op::Add => match t {
            // PTX's atom.add.f32: round to nearest even, subnormals in and out flushed.
            T::F32 => flush(flush(f32::from_bits(old as u32)) + flush(f32::from_bits(a as u32))).to_bits() as u64,
            T::F64 => (f64::from_bits(old) + f64::from_bits(a)).to_bits(),
            _ => old.wrapping_add(a),
        },
        Op::Sub => old.wrapping_sub(a),
        Op::Xchg => a,
        Op::Min | Op::Max => {
            let less = if matches!(t, T::I32 | T::I64) { t.signed(a) < t.signed(old) } else { a < old };
            if less == (op == Op::Min) {
                a
            } else {
                old
            }
        }
        Op::And => old & a,
        Op::Or => old | a,
        Op::Xor => old ^ a,
        Op::Cas | Op::CompareExchange => {
            if old == a {
                b
            } else {
                old
            }
        }
        Op::Inc => old.wrapping_add(1),
        Op::Dec => old.wrapping_sub(1),
        Op::IncWrap => {
            if old >= a {
                0
            } else {
                old + 1
            }
        }
        Op::DecWrap => {
            if old == 0 || old > a {
                a
            } else {
                old - 1
            }
        }
        Op::TestAndSet => 1,
    };
    (old, new & m)
}

#[derive(Clone, Copy, Debug)]
enum Api {
    Cuda,
    OpenCl1,
    OpenCl2,
}

/// One built-in on one type.
#[derive(Clone, Debug)]
struct Case {
    api: Api,
    name: &'static str,
    op: Op,
    t: T,
}

/// The operands' and results' bits as `T`'s values and back, in the case's dialect: each a
/// pattern with `$` where the converted expression goes.
fn conversions(case: &Case) -> (String, String) {
    let t = case.t;
    match case.api {
        Api::Cuda => {
            let from = match t {
                T::F32 => "__uint_as_float($)".to_string(),
                T::F64 => "__longlong_as_double((long long)$)".to_string(),
                _ => format!("({})$", t.cuda()),
            };
            let to = match t {
                T::F32 => "__float_as_uint($)",
                T::F64 => "(unsigned long long)__double_as_longlong($)",
                T::U16 | T::I32 | T::U32 => "(unsigned int)$",
                _ => "(unsigned long long)$",
            };
            (from, to.to_string())
        }
        Api::OpenCl1 | Api::OpenCl2 => {
            let bits = if t.width() == 64 { "ulong" } else { "uint" };
            (format!("as_{}($)", t.opencl()), format!("as_{bits}($)"))
        }
    }
}

/// The one-work-item kernel of `case`: `x[0]` starts as `bits[0]`, the atomic runs with
/// operands `bits[1]` and `bits[2]`, and `out` receives what it returned, what memory holds
/// after it, and for a C11 compare-exchange its result.
fn kernel(case: &Case) -> String {
    let t = case.t;
    let (from, to) = conversions(case);
    let convert = |pattern: &str, v: &str| pattern.replace('$', v);
    let name = case.name;
    match case.api {
        Api::Cuda => {
            let bits = if t.width() == 64 { "unsigned long long" } else { "unsigned int" };
            let call = match case.op {
                Op::Cas => format!("{name}(x, a, b)"),
                _ => format!("{name}(x, a)"),
            };
            format!(
                "__global__ void k({ty} *x, {bits} *bits, {bits} *out)\n{{\n    x[0] = {x0};\n    {ty} a = {a};\n    {ty} b = {b};\n    {ty} old = {call};\n    out[0] = {old};\n    out[1] = {now};\n}}\n",
                ty = t.cuda(),
                x0 = convert(&from, "bits[0]"),
                a = convert(&from, "bits[1]"),
                b = convert(&from, "bits[2]"),
                old = convert(&to, "old"),
                now = convert(&to, "x[0]"),
            )
        }
        Api::OpenCl1 => {
            let bits = if t.width() == 64 { "ulong" } else { "uint" };
            let call = match case.op {
                Op::Cas => format!("{name}(x, a, b)"),
                Op::Inc | Op::Dec => format!("{name}(x)"),
                _ => format!("{name}(x, a)"),
            };
            format!(
                "__kernel void k(__global {ty} *x, __global {bits} *bits, __global {bits} *out)\n{{\n    x[0] = {x0};\n    {ty} a = {a};\n    {ty} b = {b};\n    {ty} old = {call};\n    out[0] = {old};\n    out[1] = {now};\n}}\n",
                ty = t.opencl(),
                x0 = convert(&from, "bits[0]"),
                a = convert(&from, "bits[1]"),
                b = convert(&from, "bits[2]"),
                old = convert(&to, "old"),
                now = convert(&to, "x[0]"),
            )
        }
        Api::OpenCl2 => {
            let bits = if t.width() == 64 { "ulong" } else { "uint" };
            let object = if case.op == Op::TestAndSet { "atomic_flag".to_string() } else { format!("atomic_{}", t.opencl()) };
            let body = match case.op {
                Op::CompareExchange => format!(
                    "    {ty} e = a;\n    int ok = {name}(x, &e, b);\n    out[0] = {e};\n    out[2] = ({bits})ok;\n",
                    ty = t.opencl(),
                    e = convert(&to, "e"),
                ),
                Op::TestAndSet => format!("    out[0] = ({bits}){name}(x);\n"),
                _ => format!("    {ty} old = {name}(x, a);\n    out[0] = {old};\n", ty = t.opencl(), old = convert(&to, "old")),
            };
            format!(
                "__kernel void k(__global {object} *x, __global {bits} *bits, __global {bits} *out)\n{{\n    atomic_store_explicit(x, {x0}, memory_order_relaxed);\n    {ty} a = {a};\n    {ty} b = {b};\n{body}    {ty} now = atomic_load(x);\n    out[1] = {now};\n}}\n",
                ty = t.opencl(),
                x0 = convert(&from, "bits[0]"),
                a = convert(&from, "bits[1]"),
                b = convert(&from, "bits[2]"),
                now = convert(&to, "now"),
            )
        }
    }
}

/// Every case: each built-in on each type its dialect defines it for.
fn cases() -> Vec<Case> {
    use Op::*;
    use T::*;
    let mut all = Vec::new();
    let mut add = |api: Api, name: &'static str, op: Op, types: &[T]| {
        for &t in types {
            all.push(Case { api, name, op, t });
        }
    };
    // CUDA C++ Programming Guide, "Atomic Functions".
    add(Api::Cuda, "atomicAdd", Add, &[I32, U32, U64, F32, F64]);
    add(Api::Cuda, "atomicSub", Sub, &[I32, U32]);
    add(Api::Cuda, "atomicExch", Xchg, &[I32, U32, U64, F32]);
    add(Api::Cuda, "atomicMin", Min, &[I32, U32, I64, U64]);
    add(Api::Cuda, "atomicMax", Max, &[I32, U32, I64, U64]);
    add(Api::Cuda, "atomicInc", IncWrap, &[U32]);
    add(Api::Cuda, "atomicDec", DecWrap, &[U32]);
    add(Api::Cuda, "atomicCAS", Cas, &[I32, U32, U64, U16]);
    add(Api::Cuda, "atomicAnd", And, &[I32, U32, U64]);
    add(Api::Cuda, "atomicOr", Or, &[I32, U32, U64]);
    add(Api::Cuda, "atomicXor", Xor, &[I32, U32, U64]);
    add(Api::Cuda, "atomicAdd_block", Add, &[I32, F64]);
    add(Api::Cuda, "atomicCAS_system", Cas, &[U64]);
    // OpenCL 1.x: the 32-bit atomic_* functions (and the float exchange), and the 64-bit
    // atom_* functions of cl_khr_int64_base_atomics and _extended_atomics.
    for (name, op) in [
        ("add", Add),
        ("sub", Sub),
        ("xchg", Xchg),
        ("min", Min),
        ("max", Max),
        ("and", And),
        ("or", Or),
        ("xor", Xor),
        ("inc", Inc),
        ("dec", Dec),
        ("cmpxchg", Cas),
    ] {
        let name32: &'static str = Box::leak(format!("atomic_{name}").into_boxed_str());
        let old32: &'static str = Box::leak(format!("atom_{name}").into_boxed_str());
        add(Api::OpenCl1, name32, op, &[I32, U32]);
        add(Api::OpenCl1, old32, op, &[I32, U32, I64, U64]);
    }
    add(Api::OpenCl1, "atomic_xchg", Xchg, &[F32]);
    // OpenCL 2.0: atomic_fetch_* on the integer atomics, exchange and compare-exchange on
    // every atomic type, and the flag.
    for (name, op) in [
        ("atomic_fetch_add", Add),
        ("atomic_fetch_sub", Sub),
        ("atomic_fetch_or", Or),
        ("atomic_fetch_xor", Xor),
        ("atomic_fetch_and", And),
        ("atomic_fetch_min", Min),
        ("atomic_fetch_max", Max),
    ] {
        add(Api::OpenCl2, name, op, &[I32, U32, I64, U64]);
    }
    add(Api::OpenCl2, "atomic_exchange", Xchg, &[I32, U32, I64, U64, F32, F64]);
    add(Api::OpenCl2, "atomic_compare_exchange_strong", CompareExchange, &[I32, U32, I64, U64, F32, F64]);
    add(Api::OpenCl2, "atomic_flag_test_and_set", TestAndSet, &[I32]);
    all
}

/// Bit patterns worth trying for `t`: the edges of its range, small numbers (so that
/// compare-exchanges succeed and wrap-around bounds bite), the special floats, and any bits.
fn operand(t: T) -> BoxedStrategy<u64> {
    let specials: Vec<u64> = match t {
        T::F32 => [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.25,
            1.0e-40,
            -1.0e-40,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            3.0e38,
        ]
        .iter()
        .map(|f| f.to_bits() as u64)
        .chain([0x0000_0001, 0x807f_ffff, 0x7fc0_0001])
        .collect(),
        T::F64 => [0.0f64, -0.0, 1.0, -1.0, 0.25, 1.0e-310, -1.0e-310, f64::MIN_POSITIVE, f64::MAX, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 2.2e307]
            .iter()
            .map(|f| f.to_bits())
            .chain([0x0000_0000_0000_0001, 0x7ff8_0000_0000_0001])
            .collect(),
        _ => {
            let m = t.mask();
            vec![0, 1, 2, m, m - 1, m >> 1, (m >> 1) + 1, (m >> 1) - 1]
        }
    };
    let m = t.mask();
    prop_oneof![
        3 => any::<u64>().prop_map(move |v| v & m),
        2 => 0u64..6,
        3 => proptest::sample::select(specials),
    ]
    .boxed()
}

/// Runs `case` on `(init, a, b)` and compares with the model.
fn check(case: &Case, init: u64, a: u64, b: u64) -> Result<(), TestCaseError> {
    let t = case.t;
    // A test-and-set starts from 0 or 1 only: an atomic_flag holds nothing else.
    let init = if case.op == Op::TestAndSet { init & 1 } else { init };
    let dialect = if matches!(case.api, Api::Cuda) { Dialect::Cuda } else { Dialect::OpenCl };
    let file = if matches!(case.api, Api::Cuda) { "k.cu" } else { "k.cl" };
    let source = kernel(case);
    let mut s = Scenario::new(source.clone(), file, dialect);
    s.launch.global = vec![1];
    s.launch.local = Some(vec![1]);
    let (elem, bits) = match t.width() {
        16 => ("ushort", "uint"),
        32 => (t.opencl(), "uint"),
        _ => (t.opencl(), "ulong"),
    };
    let x = if case.op == Op::TestAndSet { "int".to_string() } else { elem.to_string() };
    let m = t.mask();
    s.args = [format!("x={x}[1]"), format!("bits={bits}[3]:values={:#x},{:#x},{:#x}", init & m, a & m, b & m), format!("out={bits}[3]:fill=0")]
        .iter()
        .map(|a| ArgBinding::parse(a).unwrap_or_else(|e| panic!("{a}: {e:?}")))
        .collect();
    let mut session = Session::new(s).map_err(|d| TestCaseError::fail(format!("{case:?} does not compile: {d:?}\n{source}")))?;
    session.run(u64::MAX);
    prop_assert_eq!(session.status(), RunStatus::Completed, "{:?}: {:?}\n{}", case, session.findings(), source);
    let report = why::report(&session);
    let out: Vec<u64> = report.buffers[2]
        .values
        .iter()
        .map(|v| match v {
            Some(Number::UInt(u)) => *u,
            Some(Number::Int(i)) => *i as u64,
            other => panic!("{case:?}: out holds {other:?}"),
        })
        .collect();
    let (old, new) = model(case.op, t, init, a, b);
    let same = |got: u64, want: u64| {
        let nan = |v: u64| match t {
            T::F32 => f32::from_bits(v as u32).is_nan(),
            T::F64 => f64::from_bits(v).is_nan(),
            _ => false,
        };
        // The model computes arithmetic NaNs with Rust's payload; a NaN is a NaN.
        got == want || (case.op == Op::Add && nan(got) && nan(want))
    };
    let context = format!("{} on {} with x = {init:#x}, a = {a:#x}, b = {b:#x}", case.name, t.opencl());
    match case.op {
        Op::CompareExchange => {
            let won = old == (a & m);
            let expected = if won { a & m } else { old };
            prop_assert_eq!(out[0], expected, "{}: the expected value afterwards", context);
            prop_assert_eq!(out[2], won as u64, "{}: the result", context);
        }
        Op::TestAndSet => prop_assert_eq!(out[0], (old != 0) as u64, "{}: the result", context),
        _ => prop_assert!(same(out[0], old), "{}: returned {:#x}, the model {:#x}", context, out[0], old),
    }
    prop_assert!(same(out[1], new), "{}: memory holds {:#x}, the model {:#x}", context, out[1], new);
    Ok(())
}

#[test]
fn every_atomic_on_every_type_agrees_with_a_sequential_model() {
    let mut failures = Vec::new();
    for case in cases() {
        let mut runner = TestRunner::new(Config { cases: 64, failure_persistence: None, ..Config::default() });
        let t = case.t;
        // The compare-exchanges also get the old value as their comparand, so they succeed.
        let strategy = (operand(t), operand(t), operand(t), any::<bool>());
        let result = runner.run(&strategy, |(init, a, b, equal)| {
            let a = if equal && matches!(case.op, Op::Cas | Op::CompareExchange) { init } else { a };
            check(&case, init, a, b)
        });
        if let Err(e) = result {
            failures.push(format!("{case:?}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} atomics disagree with the model:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_atomics_cuda_does_not_define_are_refused() {
    for (ty, call) in [
        ("float", "atomicSub(x, 1.0f)"),
        ("long long", "atomicAdd(x, 1)"),
        ("double", "atomicExch(x, 1.0)"),
        ("int", "atomicInc(x, 1)"),
        ("float", "atomicCAS(x, 0, 1)"),
    ] {
        let source = format!("__global__ void k({ty} *x) {{ {call}; }}\n");
        let mut s = Scenario::new(source.clone(), "k.cu", Dialect::Cuda);
        s.args = vec![ArgBinding::parse("x=int[1]").unwrap()];
        let diagnostics = Session::new(s).err().unwrap_or_else(|| panic!("{source} compiled"));
        assert!(diagnostics[0].message.contains("does not work on"), "{source}: {diagnostics:?}");
        assert!(diagnostics[0].notes.iter().any(|n| n.starts_with("CUDA defines it for")), "{source}: {diagnostics:?}");
    }
}
