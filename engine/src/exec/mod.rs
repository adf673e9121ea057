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
use crate::ir::{Program, Reg};
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

/// Barrier state of one work-group.
#[derive(Clone, Debug)]
pub struct Group {
    /// Linear index of its first work-item.
    pub first: u32,
    /// Work-items that have not finished.
    pub unfinished: u32,
    /// Work-items waiting at a barrier, with the barrier each is at (function, pc).
    pub waiting: Vec<(u32, u32, u32)>,
    /// The first work-item that returned normally and where, so a barrier that others then
    /// wait at can name it: every work-item of a group must reach every barrier.
    pub first_finished: Option<(u32, Span)>,
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
    pub items: Vec<WorkItem>,
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
        if wi as usize >= self.items.len() {
            interp::copy_element(self, wi as usize - self.items.len());
            return;
        }
        interp::perform_event(self, wi);
        if self.items[wi as usize].status == Status::Ready {
            interp::run_private(self, wi);
        }
    }

    /// Called when a work-item leaves its group's barrier accounting (finished or faulted).
    fn leave_group(&mut self, wi: u32, finished_at: Option<Span>) {
        let g = self.items[wi as usize].group as usize;
        if let Some(span) = finished_at {
            self.check_copies_at_finish(wi, g, span);
        }
        let group = &mut self.groups[g];
        group.unfinished -= 1;
        if let (None, Some(span)) = (group.first_finished, finished_at) {
            group.first_finished = Some((wi, span));
        }
        if !group.waiting.is_empty() && group.waiting.len() as u32 == group.unfinished {
            self.release_barrier(g, wi);
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

    /// Lets every work-item waiting at group `g`'s barrier go on.
    fn release_barrier(&mut self, g: usize, by: u32) {
        let waiting = std::mem::take(&mut self.groups[g].waiting);
        let (first_wi, func, pc) = waiting[0];
        let span = self.program.functions[func as usize].spans[pc as usize];
        if let Some((finished, finish_span)) = self.groups[g].first_finished {
            let count = waiting.len();
            self.fault(Fault {
                kind: FindingKind::BarrierDivergence,
                message: format!(
                    "barrier divergence: {count} work-item{} of a group waited at this barrier, but work-item {finished} of the same group finished without reaching it",
                    if count == 1 { "" } else { "s" }
                ),
                span,
                work_item: first_wi,
                step: self.step,
                related: vec![(finish_span, Some(finished), format!("work-item {finished} finished here"))],
            });
        }
        if let Some(&(other, ofunc, opc)) = waiting.iter().find(|w| (w.1, w.2) != (func, pc)) {
            let other_span = self.program.functions[ofunc as usize].spans[opc as usize];
            self.fault(Fault {
                kind: FindingKind::BarrierDivergence,
                message: "barrier divergence: work-items of one group reached different barriers".into(),
                span,
                work_item: first_wi,
                step: self.step,
                related: vec![(other_span, Some(other), format!("work-item {other} waited at this barrier instead"))],
            });
        }
        self.event(by, EventKind::BarrierRelease, None, waiting.len() as u64, 0, span);
        for &(w, _, _) in &waiting {
            self.set_status(w, Status::Ready);
        }
        for &(w, _, _) in &waiting {
            if self.items[w as usize].status == Status::Ready {
                interp::run_private(self, w);
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
