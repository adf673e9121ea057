//! Read-only views of a run for the inspector: a work-item's call stack with its variables,
//! the contents of every memory with the last writer of each element, and who has arrived at
//! each barrier.
//!
//! Everything here reads the machine and the event log and changes nothing; nothing here is
//! on the interpreter's path. The last writer of an element is found by scanning the event
//! log backwards when the view is asked for, so keeping it costs the run nothing.

use serde::Serialize;

use crate::exec::{Alloc, Machine};
use crate::ir::{ptr, DebugElem, DebugPlace, DebugVar, Function};
use crate::scenario::ElemType;
use crate::trace::{EventKind, EventLog, Space};

/// One frame of a work-item's call stack, innermost first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameView {
    pub function: String,
    /// The byte span of the frame's current position: the next event for the innermost frame,
    /// the call for the others.
    pub span: crate::diag::Span,
    pub variables: Vec<VariableView>,
}

/// A variable in scope and its value, formatted as C would print it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariableView {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub value: String,
}

/// Which memory a [`MemoryView`] shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MemoryRef {
    pub space: Space,
    /// The work-group, for local memory.
    pub group: Option<u32>,
    /// The allocation's index within its space (within the group, for local memory).
    pub alloc: u32,
}

/// The contents of one allocation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemoryView {
    pub memory: MemoryRef,
    pub name: String,
    /// The element type the contents are shown in.
    #[serde(rename = "type")]
    pub elem: String,
    pub elements: Vec<ElementView>,
    /// Elements beyond the ones shown (views stop at [`MAX_ELEMENTS`]).
    pub more: u64,
}

/// One element of a memory view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElementView {
    /// `None` while uninitialised.
    pub value: Option<String>,
    /// The linear index of the work-item that wrote it last and the step, if any did.
    pub last_writer: Option<(u32, u64)>,
}

/// One work-group's barrier: who is waiting there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BarrierView {
    pub group: u32,
    /// Linear indices of the work-items waiting, in arrival order.
    pub arrived: Vec<u32>,
    /// Members that have not finished: the barrier opens when all of them have arrived.
    pub expected: u32,
}

/// The most elements one memory view lists.
pub const MAX_ELEMENTS: u64 = 4096;

/// The most elements a variable's value lists before it is cut with "...".
const MAX_SHOWN: u32 = 16;

/// The call stack of work-item `wi`, innermost frame first.
pub fn call_stack(machine: &Machine, wi: u32) -> Vec<FrameView> {
    let item = &machine.items[wi as usize];
    let program = &machine.program;
    let mut frames = Vec::new();
    // The innermost frame is where the work-item is; each saved caller frame is at its call,
    // one before the instruction it resumes at, and the immediate caller was saved last.
    let mut at = vec![(item.func, item.position(), item.base)];
    at.extend(item.frames().iter().rev().map(|f| (f.func, f.pc.saturating_sub(1), f.base)));
    for (func, pc, base) in at {
        let Some(function) = program.functions.get(func as usize) else { continue };
        let span = function.spans.get(pc as usize).copied().unwrap_or_default();
        frames.push(FrameView { function: function.name.clone(), span, variables: variables(machine, wi, function, pc, base) });
    }
    frames
}

/// The variables of `function` in scope at `pc`, for the frame whose registers start at `base`.
fn variables(machine: &Machine, wi: u32, function: &Function, pc: u32, base: u32) -> Vec<VariableView> {
    let mut out: Vec<VariableView> = Vec::new();
    // A later declaration of the same name shadows an earlier one.
    for v in function.vars.iter().rev().filter(|v| v.start <= pc && pc < v.end) {
        if out.iter().any(|o| o.name == v.name) {
            continue;
        }
        out.push(VariableView { name: v.name.clone(), type_name: v.type_name.clone(), value: value_of(machine, wi, machine.regs_of(wi), base, v) });
    }
    out.reverse();
    out
}

fn value_of(machine: &Machine, wi: u32, regs: &[u64], base: u32, v: &DebugVar) -> String {
    let count = v.count.min(MAX_SHOWN);
    let cut = if v.count > MAX_SHOWN { ", ..." } else { "" };
    let reg = |r: u32| regs.get((base + r) as usize).copied().unwrap_or(0);
    match v.place {
        DebugPlace::Regs(r) => {
            let parts: Vec<String> = (0..count).map(|k| element(machine, v.elem, reg(r + k))).collect();
            if v.count == 1 {
                parts.concat()
            } else {
                format!("({}{cut})", parts.join(", "))
            }
        }
        DebugPlace::Mem(r) => {
            let address = reg(r);
            let size = match v.elem {
                DebugElem::Scalar(t) => t.size(),
                DebugElem::Pointer => 8,
                DebugElem::Bytes => 1,
            };
            let parts: Vec<String> = (0..count as u64)
                .map(|k| match read(machine, wi, ptr::add(address, (k * size) as i64), size) {
                    Some(bits) => element(machine, v.elem, bits),
                    None => "?".into(),
                })
                .collect();
            if v.count == 1 && v.elem != DebugElem::Bytes {
                parts.concat()
            } else {
                format!("{{{}{cut}}}", parts.join(", "))
            }
        }
    }
}

/// Reads `size` bytes at `p` as seen by work-item `wi` (its private memory, its group's local
/// memory, or global and constant memory).
fn read(machine: &Machine, wi: u32, p: u64, size: u64) -> Option<u64> {
    let at = ptr::offset(p) as usize;
    let bytes: &[u8] = match ptr::space(p) {
        Space::Private => machine.private_of(wi),
        Space::Local => {
            let g = machine.items[wi as usize].group as usize;
            &machine.groups[g].local.get(ptr::alloc(p) as usize)?.bytes
        }
        Space::Global => &machine.global.get(ptr::alloc(p) as usize)?.bytes,
        Space::Constant => &machine.constant.get(ptr::alloc(p) as usize)?.bytes,
    };
    let slice = bytes.get(at..at.checked_add(size as usize)?)?;
    let mut buf = [0u8; 8];
    buf[..slice.len()].copy_from_slice(slice);
    Some(u64::from_le_bytes(buf))
}

fn element(machine: &Machine, elem: DebugElem, bits: u64) -> String {
    match elem {
        DebugElem::Scalar(t) => format_scalar(t, bits),
        DebugElem::Pointer => pointer(machine, bits),
        DebugElem::Bytes => format!("{:#04x}", bits & 0xff),
    }
}

/// A pointer as the name of what it points into and a byte offset: `&data[+16]`.
fn pointer(machine: &Machine, p: u64) -> String {
    if p == 0 {
        return "NULL".into();
    }
    let (space, alloc, offset) = (ptr::space(p), ptr::alloc(p) as usize, ptr::offset(p));
    let name = match space {
        Space::Global => machine.global.get(alloc).map(|a| a.name.clone()),
        Space::Constant => machine.constant.get(alloc).map(|a| a.name.clone()),
        Space::Local => machine.groups.first().and_then(|g| g.local.get(alloc)).map(|a| a.name.clone()),
        Space::Private => Some("private".into()),
    };
    match name {
        Some(name) => format!("&{name}[+{offset}]"),
        None => format!("{p:#x}"),
    }
}

/// A scalar as C would print it: integers in decimal, floats in the shortest form that reads
/// back the same.
pub fn format_scalar(t: ElemType, bits: u64) -> String {
    let v = t.decode(&bits.to_le_bytes());
    match t {
        ElemType::Float => format!("{}", f32::from_bits(v as u32)),
        ElemType::Double => format!("{}", f64::from_bits(v)),
        ElemType::Bool => (v != 0).to_string(),
        _ if t.is_signed() => (v as i64).to_string(),
        _ => v.to_string(),
    }
}

/// Every memory of the run: global buffers (and program-scope variables and the heap),
/// constant memory, and each group's local memory.
pub fn memories(machine: &Machine) -> Vec<(MemoryRef, String)> {
    let mut out = Vec::new();
    // Index 0 of global and constant memory is the null allocation.
    for (k, a) in machine.global.iter().enumerate().skip(1) {
        out.push((MemoryRef { space: Space::Global, group: None, alloc: k as u32 }, a.name.clone()));
    }
    for (k, a) in machine.constant.iter().enumerate().skip(1) {
        out.push((MemoryRef { space: Space::Constant, group: None, alloc: k as u32 }, a.name.clone()));
    }
    for (g, group) in machine.groups.iter().enumerate() {
        for (k, a) in group.local.iter().enumerate() {
            out.push((MemoryRef { space: Space::Local, group: Some(g as u32), alloc: k as u32 }, a.name.clone()));
        }
    }
    out
}

/// The allocation `which` names, if there is one.
pub(crate) fn alloc_of(machine: &Machine, which: MemoryRef) -> Option<&Alloc> {
    match which.space {
        Space::Global => machine.global.get(which.alloc as usize),
        Space::Constant => machine.constant.get(which.alloc as usize),
        Space::Local => machine.groups.get(which.group? as usize)?.local.get(which.alloc as usize),
        Space::Private => None,
    }
}

/// The bytes of one element of `alloc` as a view shows them, and how many elements a view
/// shows (at most [`MAX_ELEMENTS`]).
pub(crate) fn elements_shown(alloc: &Alloc) -> (u64, u64) {
    let size = alloc.elem.unwrap_or(ElemType::UChar).size().max(1);
    (size, (alloc.bytes.len() as u64 / size).min(MAX_ELEMENTS))
}

/// The contents of one memory, with the last writer of each element; `None` if there is no
/// such memory.
pub fn memory(machine: &Machine, which: MemoryRef) -> Option<MemoryView> {
    let alloc = alloc_of(machine, which)?;
    let elem = alloc.elem.unwrap_or(ElemType::UChar);
    let (size, shown) = elements_shown(alloc);
    let writers = last_writers(machine, &machine.log, which, size, shown);
    let elements = (0..shown)
        .map(|k| {
            let at = (k * size) as usize;
            let init = alloc.init.as_ref().is_none_or(|bits| bits[at..at + size as usize].iter().all(|&b| b));
            ElementView { value: init.then(|| format_scalar(elem, elem.decode(&alloc.bytes[at..]))), last_writer: writers[k as usize] }
        })
        .collect();
    Some(MemoryView { memory: which, name: alloc.name.clone(), elem: elem.name().to_string(), elements, more: alloc.bytes.len() as u64 / size - shown })
}

/// The last write event of each of the first `count` elements of `which`.
fn last_writers(machine: &Machine, log: &EventLog, which: MemoryRef, size: u64, count: u64) -> Vec<Option<(u32, u64)>> {
    let mut out = vec![None; count as usize];
    let mut missing = count;
    // The view is read at every frame of a running page, and an element nobody writes (a
    // read-only input, an output not written yet) sends the scan through the whole log: the
    // kind and location columns are looked at first, so that only this memory's writes are
    // assembled.
    let (kinds, work_items) = (log.kinds(), log.work_items());
    for index in (0..kinds.len()).rev() {
        if missing == 0 {
            break;
        }
        if !matches!(kinds[index], EventKind::Store | EventKind::Atomic | EventKind::AsyncCopy) {
            continue;
        }
        let Some(loc) = log.location_of(index).filter(|loc| loc.space == which.space && loc.alloc == which.alloc) else { continue };
        if which.space == Space::Local && Some(machine.items[work_items[index] as usize].group) != which.group {
            continue;
        }
        let Some(e) = log.get(index) else { continue };
        // An atomic that left the value as it was (a load among them) did not write.
        if e.kind == EventKind::Atomic && e.leaves_value(log.atomic_op(index)) {
            continue;
        }
        let k = loc.offset / size;
        if let Some(slot) = out.get_mut(k as usize).filter(|s| s.is_none()) {
            *slot = Some((e.work_item, e.step));
            missing -= 1;
        }
    }
    out
}

/// Every work-group's barrier and who is waiting at it.
pub fn barriers(machine: &Machine) -> Vec<BarrierView> {
    machine
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| BarrierView {
            group: g as u32,
            arrived: group.rendezvous.waiting.iter().map(|a| a.wi).collect(),
            expected: group.rendezvous.unfinished,
        })
        .collect()
}
