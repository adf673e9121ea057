//! Execution: work-items as resumable state machines over simulated memory.
//!
//! A [`Machine`] holds everything a run changes: memory (global, constant, each group's local
//! memory, each work-item's private memory), the work-items (function, program counter,
//! registers, call stack) and the work-groups' barrier state. [`Machine::perform`] carries out
//! one work-item's pending shared-memory event and then runs its private computation up to
//! the next one, so every step is exactly one event another work-item could observe.
//!
//! Nothing here chooses anything: which work-item steps is the scheduler's decision.

mod interp;
mod launch;
mod math;
pub mod printf;

use crate::diag::Span;
use crate::ir::{CollectiveOp, Instr, Program, Reg};
use crate::report::{FindingKind, PrintfLine};
use crate::scenario::Access;
use crate::trace::{Event, EventKind, EventLog, Location};

pub use launch::{launch, Geometry};

/// One allocation of global, constant or local memory.
#[derive(Clone, Debug)]
pub struct Alloc {
    /// What the kernel calls it (parameter or variable name).
    pub name: String,
    pub bytes: Vec<u8>,
    /// Which bytes have been written, for buffers that start uninitialised; `None` when every
    /// byte is initialised.
    pub init: Option<Vec<bool>>,
    pub access: Access,
}

/// Where a work-item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Stopped before a shared-memory event; the scheduler may step it.
    Ready,
    /// Waiting for the rest of its work-group at a barrier.
    AtBarrier,
    Finished,
    /// Stopped by an error it cannot continue from.
    Faulted,
    /// In `wait_group_events`, until the copies of its events are complete.
    Waiting,
}

/// A caller's frame, saved while a helper function runs.
#[derive(Clone, Debug)]
pub struct Frame {
    pub func: u32,
    /// Where to continue in the caller (the instruction after the call).
    pub pc: u32,
    pub base: u32,
    /// The caller's register that receives the return value.
    pub dst: Reg,
    /// The caller's private-memory top, restored on return.
    pub private_top: u32,
}

/// One simulated work-item: plain data, cheap to clone.
#[derive(Clone, Debug)]
pub struct WorkItem {
    pub func: u32,
    pub pc: u32,
    /// Index of the current frame's register 0 in `regs`.
    pub base: u32,
    pub frames: Vec<Frame>,
    pub regs: Vec<u64>,
    pub private: Vec<u8>,
    pub status: Status,
    /// Linear index of the work-group.
    pub group: u32,
    /// How many async copies this work-item has called (its next call joins copy number
    /// `copies_called` of its group).
    pub copies_called: u32,
    /// Events it received from async copies and has not waited for yet.
    pub unwaited: Vec<u64>,
    /// The events it waits for while `Waiting`.
    pub waiting_for: Vec<u64>,
    /// Index of its warp in `Machine::warps`.
    pub warp: u32,
    /// Instructions executed before the current stretch (the `clock()` counter).
    pub cycles: u64,
}

/// One asynchronous copy of a work-group, started by the first work-item that called it.
#[derive(Clone, Debug)]
pub struct AsyncCopy {
    pub to: u64,
    pub from: u64,
    pub count: u64,
    /// In elements, on the global side.
    pub stride: u64,
    pub elem_size: u32,
    pub to_local: bool,
    pub event: u64,
    /// Elements copied so far.
    pub done: u64,
    /// The work-item whose call started it.
    pub issuer: u32,
    pub span: Span,
}

/// A work-item waiting at a barrier or collective: where, and the values it brought.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub wi: u32,
    pub func: u32,
    pub pc: u32,
    pub a: u64,
    pub b: u64,
}

/// The meeting point of a work-group's barriers and collectives, or of a warp's.
#[derive(Clone, Debug, Default)]
pub struct Rendezvous {
    /// Members that have not finished.
    pub unfinished: u32,
    /// Members waiting, in arrival order.
    pub waiting: Vec<Arrival>,
    /// The first member that returned normally and where, so a barrier that others then
    /// wait at can name it: every member must reach every barrier.
    pub first_finished: Option<(u32, Span)>,
}

/// Which rendezvous: a work-group's or a warp's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Group(usize),
    Warp(usize),
}

/// One warp (CUDA) or sub-group (OpenCL): consecutive work-items of a group.
#[derive(Clone, Debug)]
pub struct Warp {
    /// Linear index of its first work-item (lane 0).
    pub first: u32,
    pub rendezvous: Rendezvous,
    /// A bit per lane that has not finished (`__activemask`).
    pub active: u64,
}

/// Barrier state, local memory and async copies of one work-group.
#[derive(Clone, Debug)]
pub struct Group {
    /// Linear index of its first work-item.
    pub first: u32,
    pub rendezvous: Rendezvous,
    pub local: Vec<Alloc>,
    /// Its async copies in call order; the copy engine works through them in order.
    pub copies: Vec<AsyncCopy>,
}

/// A problem a work-item ran into, before it is placed in the user's source.
#[derive(Clone, Debug)]
pub struct Fault {
    pub kind: FindingKind,
    pub message: String,
    pub span: Span,
    pub work_item: u32,
    pub step: u64,
    /// Other locations involved: span, work-item and message.
    pub related: Vec<(Span, Option<u32>, String)>,
}

/// Limits that keep a hostile or mistaken kernel from hanging the host.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Instructions a work-item may run between two events.
    pub instructions_per_step: u64,
    /// Call depth of helper functions.
    pub call_depth: u32,
    /// Bytes of printf output.
    pub printf_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { instructions_per_step: 10_000_000, call_depth: 256, printf_bytes: 1 << 20 }
    }
}

/// The whole mutable state of a run.
#[derive(Clone, Debug)]
pub struct Machine {
    pub program: std::rc::Rc<Program>,
    pub geometry: Geometry,
    /// Global allocations; index 0 is the null allocation and is never valid.
    pub global: Vec<Alloc>,
    pub constant: Vec<Alloc>,
    /// The pointer to each program-scope variable, by its index in `Program::globals`.
    pub program_globals: Vec<u64>,
    pub groups: Vec<Group>,
    pub warps: Vec<Warp>,
    pub items: Vec<WorkItem>,
    /// The device heap for `malloc`: its global allocation and the blocks handed out
    /// (offset to length), when the program uses one.
    pub heap: Option<(u32, std::collections::BTreeMap<u64, u64>)>,
    /// Agents that may step, in no particular but deterministic order. Agents are the
    /// work-items (`0..items.len()`) followed by one async-copy engine per work-group
    /// (`items.len() + group`), ready while its group has copy elements to move.
    pub ready: Vec<u32>,
    /// Position of each agent in `ready`, or `u32::MAX`.
    pub ready_pos: Vec<u32>,
    pub log: EventLog,
    pub faults: Vec<Fault>,
    /// Faults already reported, by kind and source position, so a loop reports once.
    reported: std::collections::BTreeSet<(FindingKind, u32, u32)>,
    pub printf: Vec<PrintfLine>,
    printf_bytes: usize,
    pub limits: Limits,
    /// The step being performed; stamped on events and faults.
    pub step: u64,
    /// Set when a work-item exceeded `instructions_per_step`; the run must stop.
    pub runaway: Option<u32>,
    /// Work-items per warp.
    pub warp_size: u32,
    /// Whether the last step released a barrier or collective (run-to-block then starts
    /// again from the lowest work-item, as Oclgrind does).
    pub released: bool,
}

impl Machine {
    pub fn set_status(&mut self, wi: u32, status: Status) {
        let was_ready = self.items[wi as usize].status == Status::Ready;
        self.items[wi as usize].status = status;
        self.set_ready(wi, was_ready, status == Status::Ready);
    }

    /// The agent index of group `g`'s copy engine.
    pub fn copy_engine(&self, g: usize) -> u32 {
        (self.items.len() + g) as u32
    }

    pub(crate) fn set_ready(&mut self, wi: u32, was_ready: bool, is_ready: bool) {
        if was_ready && !is_ready {
            let pos = self.ready_pos[wi as usize];
            let last = self.ready.pop().unwrap_or(wi);
            if last != wi {
                self.ready[pos as usize] = last;
                self.ready_pos[last as usize] = pos;
            }
            self.ready_pos[wi as usize] = u32::MAX;
        } else if !was_ready && is_ready {
            self.ready_pos[wi as usize] = self.ready.len() as u32;
            self.ready.push(wi);
        }
    }

    /// Records a fault unless the same kind was already reported at the same place.
    pub fn fault(&mut self, fault: Fault) {
        if self.reported.insert((fault.kind, fault.span.start, fault.span.end)) {
            self.faults.push(fault);
        }
    }

    fn event(&mut self, wi: u32, kind: EventKind, location: Option<Location>, read: u64, written: u64, span: Span) {
        self.log.push(Event { step: self.step, work_item: wi, kind, location, read, written, span });
    }

    /// Carries out agent `wi`'s next step: a work-item's pending event (after which it runs
    /// to its next one), or one element of a group's async copy.
    pub fn perform(&mut self, wi: u32) {
        self.released = false;
        if wi as usize >= self.items.len() {
            interp::copy_element(self, wi as usize - self.items.len());
            return;
        }
        interp::perform_event(self, wi);
        if self.items[wi as usize].status == Status::Ready {
            interp::run_private(self, wi);
        }
    }

    /// Called when a work-item leaves its group's and warp's accounting (finished or faulted).
    fn leave_group(&mut self, wi: u32, finished_at: Option<Span>) {
        let g = self.items[wi as usize].group as usize;
        if let Some(span) = finished_at {
            self.check_copies_at_finish(wi, g, span);
        }
        let w = self.items[wi as usize].warp as usize;
        let lane = wi - self.warps[w].first;
        self.warps[w].active &= !(1u64 << (lane % 64));
        for scope in [Scope::Group(g), Scope::Warp(w)] {
            let r = self.rendezvous(scope);
            r.unfinished -= 1;
            if let (None, Some(span)) = (r.first_finished, finished_at) {
                r.first_finished = Some((wi, span));
            }
            if !r.waiting.is_empty() && r.waiting.len() as u32 == r.unfinished {
                self.release(scope, wi);
            }
        }
    }

    pub fn rendezvous(&mut self, scope: Scope) -> &mut Rendezvous {
        match scope {
            Scope::Group(g) => &mut self.groups[g].rendezvous,
            Scope::Warp(w) => &mut self.warps[w].rendezvous,
        }
    }

    /// A finishing work-item must have joined every copy of its group and waited for its
    /// events.
    fn check_copies_at_finish(&mut self, wi: u32, g: usize, span: Span) {
        let called = self.items[wi as usize].copies_called as usize;
        if let Some(copy) = self.groups[g].copies.get(called) {
            let (issuer, copy_span) = (copy.issuer, copy.span);
            self.fault(Fault {
                kind: FindingKind::AsyncCopyDivergence,
                message: format!(
                    "async copy divergence: work-item {wi} finished without calling the async copy that work-item {issuer} of its group called"
                ),
                span: copy_span,
                work_item: issuer,
                step: self.step,
                related: vec![(span, Some(wi), format!("work-item {wi} finished here"))],
            });
        }
        if !self.items[wi as usize].unwaited.is_empty() {
            self.fault(Fault {
                kind: FindingKind::UnwaitedEvent,
                message: format!("work-item {wi} finished without waiting for the events of its async copies"),
                span,
                work_item: wi,
                step: self.step,
                related: Vec::new(),
            });
        }
    }

    /// Lets every member waiting at a rendezvous go on, giving each the result of the
    /// collective it waited at.
    fn release(&mut self, scope: Scope, by: u32) {
        let waiting = std::mem::take(&mut self.rendezvous(scope).waiting);
        let first = waiting[0];
        let span = self.program.functions[first.func as usize].spans[first.pc as usize];
        let what = if matches!(scope, Scope::Warp(_)) { "warp" } else { "group" };
        let at = match self.program.functions[first.func as usize].code[first.pc as usize] {
            Instr::Collective { .. } => "at this collective",
            _ => "at this barrier",
        };
        if let Some((finished, finish_span)) = self.rendezvous(scope).first_finished {
            let count = waiting.len();
            self.fault(Fault {
                kind: FindingKind::BarrierDivergence,
                message: format!(
                    "barrier divergence: {count} work-item{} of a {what} waited {at}, but work-item {finished} of the same {what} finished without reaching it",
                    if count == 1 { "" } else { "s" }
                ),
                span,
                work_item: first.wi,
                step: self.step,
                related: vec![(finish_span, Some(finished), format!("work-item {finished} finished here"))],
            });
        }
        if let Some(other) = waiting.iter().find(|w| (w.func, w.pc) != (first.func, first.pc)) {
            let other_span = self.program.functions[other.func as usize].spans[other.pc as usize];
            self.fault(Fault {
                kind: FindingKind::BarrierDivergence,
                message: format!("barrier divergence: work-items of one {what} reached different barriers or collectives"),
                span,
                work_item: first.wi,
                step: self.step,
                related: vec![(other_span, Some(other.wi), format!("work-item {} waited here instead", other.wi))],
            });
        }
        self.event(by, EventKind::BarrierRelease, None, waiting.len() as u64, 0, span);
        self.released = true;
        if let Instr::Collective { op, dst, .. } = self.program.functions[first.func as usize].code[first.pc as usize] {
            let lane_of = |m: &Machine, wi: u32| wi - m.warps[m.items[wi as usize].warp as usize].first;
            let lanes: Vec<(u32, u64)> = waiting.iter().map(|w| (lane_of(self, w.wi), w.a)).collect();
            let value_of_lane = |lane: u32| lanes.iter().find(|(l, _)| *l == lane).map(|(_, v)| *v);
            for w in &waiting {
                let lane = lane_of(self, w.wi);
                let result = match op {
                    CollectiveOp::Sync => 0,
                    CollectiveOp::Count => waiting.iter().filter(|x| x.a != 0).count() as u64,
                    CollectiveOp::All => waiting.iter().all(|x| x.a != 0) as u64,
                    CollectiveOp::Any => waiting.iter().any(|x| x.a != 0) as u64,
                    CollectiveOp::Ballot => lanes.iter().filter(|(_, v)| *v != 0).fold(0u64, |m, (l, _)| m | 1u64 << (l % 64)),
                    CollectiveOp::Shfl => value_of_lane(w.b as u32 % self.warp_size).unwrap_or(w.a),
                    CollectiveOp::ShflUp => lane.checked_sub(w.b as u32).and_then(value_of_lane).unwrap_or(w.a),
                    CollectiveOp::ShflDown => lane.checked_add(w.b as u32).and_then(value_of_lane).unwrap_or(w.a),
                    CollectiveOp::ShflXor => value_of_lane(lane ^ w.b as u32).unwrap_or(w.a),
                };
                let item = &mut self.items[w.wi as usize];
                let base = item.base as usize;
                item.regs[base + dst as usize] = result;
            }
        }
        for w in &waiting {
            self.set_status(w.wi, Status::Ready);
        }
        for w in &waiting {
            if self.items[w.wi as usize].status == Status::Ready {
                interp::run_private(self, w.wi);
            }
        }
    }
}

impl Machine {
    /// Appends printf output, up to the printf limit.
    fn record_printf(&mut self, wi: u32, text: String, span: Span) {
        if self.printf_bytes >= self.limits.printf_bytes {
            return;
        }
        self.printf_bytes += text.len();
        if self.printf_bytes >= self.limits.printf_bytes {
            let limit = self.limits.printf_bytes;
            self.fault(Fault {
                kind: FindingKind::StepLimit,
                message: format!("printf output reached the limit of {limit} bytes; later output is dropped"),
                span,
                work_item: wi,
                step: self.step,
                related: Vec::new(),
            });
        }
        let g = self.items[wi as usize].group;
        let local = wi - self.groups[g as usize].first;
        let work_item = self.geometry.global_id(g, local);
        self.printf.push(PrintfLine { work_item, text });
    }
}

/// Decodes little-endian bytes of `ty` into register form.
pub fn decode_value(ty: crate::scenario::ElemType, bytes: &[u8]) -> u64 {
    interp::decode(ty, bytes)
}

/// Encodes a register value of `ty` as little-endian bytes.
pub fn encode_value(ty: crate::scenario::ElemType, bits: u64, bytes: &mut [u8]) {
    interp::encode(ty, bits, bytes)
}

impl Machine {
    /// Hands out `size` bytes of the device heap, 16-byte aligned and first-fit, or NULL.
    pub fn heap_alloc(&mut self, size: u64) -> u64 {
        let Some((alloc, blocks)) = self.heap.as_mut() else { return 0 };
        let capacity = self.global[*alloc as usize].bytes.len() as u64;
        let size = size.max(1).div_ceil(16) * 16;
        let mut at = 0u64;
        for (&start, &len) in blocks.iter() {
            if start.saturating_sub(at) >= size {
                break;
            }
            at = (start + len).div_ceil(16) * 16;
        }
        if at.checked_add(size).is_none_or(|end| end > capacity) {
            return 0;
        }
        blocks.insert(at, size);
        crate::ir::ptr::make(crate::trace::Space::Global, *alloc, at)
    }

    /// Returns a block to the device heap; `false` if `p` is not the start of a live block.
    pub fn heap_free(&mut self, p: u64) -> bool {
        let Some((alloc, blocks)) = self.heap.as_mut() else { return false };
        crate::ir::ptr::alloc(p) == *alloc && blocks.remove(&crate::ir::ptr::offset(p)).is_some()
    }
}
