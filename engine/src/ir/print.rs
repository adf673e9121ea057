//! A readable text form of a lowered [`Program`], for people and for tests of the lowering.
//!
//! The form is stable: it depends only on the program (and the source, for line numbers), so
//! a test can compare it with a file. It lists the kernels with their parameters, the
//! `__local` arrays, the program-scope variables with their initial bytes, then each function:
//! its variables as the inspector sees them and its code, one instruction a line.
//!
//! An instruction line is its index, then `dst = operation.type operands` (registers are
//! `rN`, jump targets instruction indices, `%N` a local allocation, `@N` a program-scope
//! variable, `[rN]` the memory at an address), and the `line:col` of its source where that
//! changes from the instruction before. Operation names are the IR's own (`Instr`, `MathOp`,
//! `AtomicOp`, ...) in snake case, so a new operation prints without a change here.

use std::fmt::Write as _;

use super::Space;
use super::{AtomicOp, CollectiveOp, DebugElem, DebugPlace, Function, Instr, MathOp, NumTy, ParamKind, PrintfArg, Program, ScanOp};
use crate::diag::{LineIndex, Span};

/// The text form of `program`; `source` is the text its spans point into.
pub fn print(program: &Program, source: &str) -> String {
    let lines = LineIndex::new(source);
    let at = |span: Span| {
        let (line, col) = lines.line_col(source, span.start);
        format!("{line}:{col}")
    };
    let mut out = String::new();
    for k in &program.kernels {
        let params: Vec<String> = k
            .params
            .iter()
            .map(|p| match &p.kind {
                ParamKind::Pointer { space, .. } => format!("{} {} {}", space_name(*space), p.type_name, p.name),
                ParamKind::Scalar(_) => format!("{} {}", p.type_name, p.name),
                ParamKind::Aggregate { size, align } => format!("{} {} ({size} bytes, align {align})", p.type_name, p.name),
            })
            .collect();
        let name = program.functions.get(k.func as usize).map_or("?", |f| f.name.as_str());
        let _ = write!(out, "kernel {}({}) = fn {} {name}", k.name, params.join(", "), k.func);
        if let Some(([x, y, z], _)) = k.reqd_work_group_size {
            let _ = write!(out, " reqd_work_group_size({x}, {y}, {z})");
        }
        out.push('\n');
    }
    for (i, l) in program.locals.iter().enumerate() {
        let elem = l.elem.map_or(String::new(), |e| format!(" of {}", e.name()));
        let _ = writeln!(out, "local %{i} {}: {} bytes{elem}", l.name, l.size);
    }
    for (i, g) in program.globals.iter().enumerate() {
        let _ = writeln!(out, "global @{i} {}: {}, {} bytes", g.name, space_name(g.space), g.bytes.len());
        if g.bytes.iter().any(|&b| b != 0) {
            let _ = writeln!(out, "  init {}", bytes(&g.bytes));
        }
        for p in &g.pointers {
            let _ = writeln!(out, "  pointer at {} = @{} + {}", p.at, p.target, p.offset);
        }
    }
    if program.uses_heap {
        out.push_str("uses the device heap\n");
    }
    for (id, f) in program.functions.iter().enumerate() {
        out.push('\n');
        function(&mut out, program, id, f, &at);
    }
    out
}

fn function(out: &mut String, program: &Program, id: usize, f: &Function, at: &dyn Fn(Span) -> String) {
    let _ = writeln!(out, "fn {id} {}: {} params, {} registers", f.name, f.num_params, f.num_regs);
    for v in &f.vars {
        let place = match v.place {
            DebugPlace::Regs(r) => format!("in r{r}"),
            DebugPlace::Mem(r) => format!("at [r{r}]"),
        };
        let elem = match v.elem {
            DebugElem::Scalar(e) => e.name(),
            DebugElem::Pointer => "pointer",
            DebugElem::Bytes => "byte",
        };
        // A variable of the function's outermost scope stays in scope to the end.
        let end = if v.end == u32::MAX { "end".to_string() } else { v.end.to_string() };
        let _ = writeln!(out, "  var {}: {} {place} ({} x {elem}) for {}..{end}", v.name, v.type_name, v.count, v.start);
    }
    let mut last = String::new();
    for (pc, instr) in f.code.iter().enumerate() {
        let text = instruction(program, f, instr);
        let here = f.spans.get(pc).map(|s| at(*s)).unwrap_or_default();
        if here != last {
            let _ = writeln!(out, "  {pc:>4}  {text:<48} ; {here}");
            last = here;
        } else {
            let _ = writeln!(out, "  {pc:>4}  {text}");
        }
    }
}

/// One instruction, without its index or source position.
fn instruction(program: &Program, f: &Function, instr: &Instr) -> String {
    let string = |i: u32| program.strings.get(i as usize).map_or_else(|| format!("string {i}"), |s| format!("{s:?}"));
    let pool = |args: u32, argc: u32| -> Vec<u32> { f.arg_pool.iter().skip(args as usize).take(argc as usize).copied().collect() };
    match *instr {
        Instr::Const { dst, bits } => format!("r{dst} = const {}", constant(bits)),
        Instr::Move { dst, src } => format!("r{dst} = r{src}"),
        Instr::Binary { op, ty, dst, lhs, rhs } => format!("r{dst} = {}.{} r{lhs}, r{rhs}", snake(op), num(ty)),
        Instr::Compare { op, ty, dst, lhs, rhs } => format!("r{dst} = cmp.{}.{} r{lhs}, r{rhs}", snake(op), num(ty)),
        Instr::Unary { op, ty, dst, src } => format!("r{dst} = {}.{} r{src}", snake(op), num(ty)),
        Instr::Convert { from, to, dst, src } => format!("r{dst} = convert.{}.{} r{src}", num(from), num(to)),
        Instr::Narrow { ty, dst, src } => format!("r{dst} = narrow.{} r{src}", ty.name()),
        Instr::PtrAdd { dst, ptr, index, scale } => format!("r{dst} = ptr_add r{ptr}, r{index} * {scale}"),
        Instr::PtrDiff { dst, lhs, rhs, scale } => format!("r{dst} = ptr_diff r{lhs}, r{rhs} / {scale}"),
        Instr::Jump { target } => format!("jump {target}"),
        Instr::BranchIf { cond, target } => format!("branch_if r{cond}, {target}"),
        Instr::BranchIfNot { cond, target } => format!("branch_if_not r{cond}, {target}"),
        Instr::Load { ty, dst, addr } => format!("r{dst} = load.{} [r{addr}]", ty.name()),
        Instr::Store { ty, addr, src } => format!("store.{} [r{addr}], r{src}", ty.name()),
        Instr::Atomic { op, ty, dst, addr, operand, operand2, order, scope } => {
            let operands = match op {
                AtomicOp::Load => String::new(),
                AtomicOp::CmpXchg | AtomicOp::CmpXchgWeak => format!(", expected r{operand2}, desired r{operand}"),
                _ => format!(", r{operand}"),
            };
            format!("r{dst} = atomic.{}.{} [r{addr}]{operands} {} {}", snake(op), ty.name(), order.name(), scope.name())
        }
        Instr::Barrier { flags } => format!("barrier r{flags}"),
        Instr::Fence { flags } => format!("fence r{flags}"),
        Instr::NamedBarrier { meeting, resource, members, quorum, arrive } => {
            format!("{} meeting r{meeting}, resource r{resource}, members r{members}, quorum r{quorum}", if arrive { "barrier.arrive" } else { "barrier.sync" })
        }
        Instr::Collective { op, warp, dst, a, b, mask, width } => {
            let mut text = format!("r{dst} = collective.{}.{} r{a}, r{b}", if warp { "warp" } else { "group" }, collective(op));
            if let Some(m) = mask {
                let _ = write!(text, " mask r{m}");
            }
            if let Some(w) = width {
                let _ = write!(text, " width r{w}");
            }
            text
        }
        Instr::Undefined { dst, text } => format!("r{dst} = undefined {}", string(text)),
        Instr::CheckIndex { index, len } => format!("check_index r{index} < {len}"),
        Instr::CasSucceeded { ty, dst, old, expected } => format!("r{dst} = cas_succeeded.{} r{old}, r{expected}", num(ty)),
        Instr::ActiveMask { dst } => format!("r{dst} = active_mask"),
        Instr::Clock { dst } => format!("r{dst} = clock"),
        Instr::Observe { slot, src } => format!("observe {slot}, r{src}"),
        Instr::Malloc { dst, size } => format!("r{dst} = malloc r{size}"),
        Instr::Free { ptr } => format!("free r{ptr}"),
        Instr::AsyncCopy { dst, to, from, count, stride, event, elem_size, to_local } => format!(
            "r{dst} = async_copy.{} to r{to}, from r{from}, count r{count}, stride r{stride}, event r{event}, elem_size {elem_size}",
            if to_local { "to_local" } else { "to_global" }
        ),
        Instr::WaitEvents { count, list } => format!("wait_events r{count}, r{list}"),
        Instr::Assert { cond, text } => format!("assert r{cond}, {}", string(text)),
        Instr::Math { op, ty, dst, a, b, c } => format!("r{dst} = math.{}.{} r{a}, r{b}, r{c}", math(op), ty.name()),
        Instr::CheckOrder { value, allowed, scope, text } => {
            format!("{} r{value} in {allowed:#b}, {}", if scope { "check_scope" } else { "check_order" }, string(text))
        }
        Instr::WorkItem { query, dst, dim } => format!("r{dst} = work_item.{} r{dim}", snake(query)),
        Instr::LocalAddr { dst, index } => {
            let name = program.locals.get(index as usize).map_or("?", |l| l.name.as_str());
            format!("r{dst} = local_addr %{index} {name}")
        }
        Instr::GlobalAddr { dst, index } => {
            let name = program.globals.get(index as usize).map_or("?", |g| g.name.as_str());
            format!("r{dst} = global_addr @{index} {name}")
        }
        Instr::Alloca { dst, size, align, initialised } => {
            format!("r{dst} = alloca {size}, align {align}{}", if initialised { "" } else { ", uninitialised" })
        }
        Instr::Call { func, dst, args, argc } => {
            let name = program.functions.get(func as usize).map_or("?", |g| g.name.as_str());
            let args: Vec<String> = pool(args, argc).iter().map(|r| format!("r{r}")).collect();
            format!("r{dst} = call fn {func} {name}({})", args.join(", "))
        }
        Instr::Return { src: Some(src) } => format!("return r{src}"),
        Instr::Return { src: None } => "return".to_string(),
        Instr::Printf { format, args, argc } => {
            let kinds = f.printf_types.iter().skip(args as usize);
            let args: Vec<String> = pool(args, argc)
                .iter()
                .zip(kinds)
                .map(|(r, k)| match k {
                    PrintfArg::Int(t) => format!("r{r} {}", num(*t)),
                    PrintfArg::Str => format!("r{r} str"),
                    PrintfArg::Ptr => format!("r{r} ptr"),
                    PrintfArg::None => format!("r{r} none"),
                })
                .collect();
            format!("printf {}({})", string(format), args.join(", "))
        }
        Instr::Statement => "statement".to_string(),
    }
}

/// A constant's bits: small integers (sign-extended ones included) in decimal, anything else
/// (large values, float bits) in hexadecimal.
fn constant(bits: u64) -> String {
    let signed = bits as i64;
    if (-65_536..=65_536).contains(&signed) {
        signed.to_string()
    } else {
        format!("{bits:#x}")
    }
}

/// Up to 64 bytes in hexadecimal, then how many there are in all.
fn bytes(b: &[u8]) -> String {
    let shown: Vec<String> = b.iter().take(64).map(|x| format!("{x:02x}")).collect();
    let mut text = shown.join(" ");
    if b.len() > 64 {
        let _ = write!(text, " ... ({} bytes in all)", b.len());
    }
    text
}

fn num(t: NumTy) -> &'static str {
    match t {
        NumTy::I32 => "i32",
        NumTy::U32 => "u32",
        NumTy::I64 => "i64",
        NumTy::U64 => "u64",
        NumTy::F32 => "f32",
        NumTy::F64 => "f64",
    }
}

fn space_name(s: Space) -> &'static str {
    match s {
        Space::Global => "global",
        Space::Local => "local",
        Space::Constant => "constant",
        Space::Private => "private",
    }
}

fn collective(op: CollectiveOp) -> String {
    let scan = |s: ScanOp| snake(s);
    match op {
        CollectiveOp::Broadcast(t) => format!("broadcast.{}", num(t)),
        CollectiveOp::Reduce(s, t) => format!("reduce_{}.{}", scan(s), num(t)),
        CollectiveOp::ScanInclusive(s, t) => format!("scan_inclusive_{}.{}", scan(s), num(t)),
        CollectiveOp::ScanExclusive(s, t) => format!("scan_exclusive_{}.{}", scan(s), num(t)),
        other => snake(other),
    }
}

fn math(op: MathOp) -> String {
    match op {
        MathOp::ConvertDirected(e, rounding) => format!("convert_directed.{}.{}", e.name(), snake(rounding)),
        other => snake(other),
    }
}

/// A unit variant's name in snake case (`CmpXchgWeak` is `cmp_xchg_weak`, `Mul24` is `mul24`).
fn snake(variant: impl std::fmt::Debug) -> String {
    let name = format!("{variant:?}");
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_snake_case() {
        assert_eq!(snake(AtomicOp::CmpXchgWeak), "cmp_xchg_weak");
        assert_eq!(snake(MathOp::Mul24), "mul24");
        assert_eq!(snake(MathOp::FloatToHalfRte), "float_to_half_rte");
    }

    #[test]
    fn constants_are_decimal_when_small() {
        assert_eq!(constant(5), "5");
        assert_eq!(constant(u64::MAX), "-1");
        assert_eq!(constant(0x3f80_0000), "0x3f800000");
    }
}
