//! The event log: one record per shared-memory event, stored column by column.
//!
//! The timeline draws straight from these columns, and the trace hash is folded in as each
//! event is pushed, so the hash of a run never needs the whole log in one place.

use serde::{Deserialize, Serialize};

use crate::diag::Span;

/// What a work-item did at a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[repr(u8)]
pub enum EventKind {
    Load,
    Store,
    /// An atomic read-modify-write: `read` is the old value, `written` the new one.
    Atomic,
    Fence,
    /// The work-item arrived at a barrier and waits for its group.
    BarrierArrive,
    /// The last work-item of the group arrived: everyone waiting may go on.
    BarrierRelease,
    Printf,
    /// The work-item returned from the kernel.
    Finish,
    /// The work-item called an async copy (`read` is the element count); with a location, one
    /// element moved by the group's copy engine (`read` is the value moved).
    AsyncCopy,
    /// The work-item waited for async-copy events.
    Wait,
    /// The work-item starts a statement (the statement granularity only).
    Statement,
    /// The work-item promised a relaxed write it will make later (relaxed memory model; the
    /// location and `written` are the promised write).
    Promise,
}

/// An address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Space {
    Global,
    Local,
    Constant,
    Private,
}

/// A memory location: space, allocation and byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    pub space: Space,
    /// Index of the allocation within its space (for local memory, within the group).
    pub alloc: u32,
    pub offset: u64,
}

/// One event, assembled from the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub step: u64,
    /// Linear index of the work-item.
    pub work_item: u32,
    pub kind: EventKind,
    pub location: Option<Location>,
    /// The value read (loads, atomics), as raw bits.
    pub read: u64,
    /// The value written (stores, atomics), as raw bits.
    pub written: u64,
    pub span: Span,
    /// The memory order of an atomic (`crate::ir::order` values); `None` for other events.
    pub order: Option<u8>,
    /// The memory scope of an atomic or a fence (`crate::ir::scope` values).
    pub scope: Option<u8>,
}

/// The columns of the event log. Copying one into another reuses the columns' allocations.
#[derive(Debug, Default)]
pub struct EventLog {
    step: Vec<u64>,
    work_item: Vec<u32>,
    kind: Vec<EventKind>,
    location: Vec<Option<Location>>,
    read: Vec<u64>,
    written: Vec<u64>,
    span: Vec<Span>,
    /// Order and scope, `NONE` where the event has none.
    order: Vec<u8>,
    scope: Vec<u8>,
    hash: u64,
    /// Events are recorded without being folded into the hash (see
    /// [`EventLog::set_hashing`]).
    unhashed: bool,
}

crate::reuse::clone_fields!(EventLog { step, work_item, kind, location, read, written, span, order, scope, hash, unhashed });

/// The `order` and `scope` column value of events that have none.
const NONE: u8 = u8::MAX;

impl EventLog {
    pub fn len(&self) -> usize {
        self.step.len()
    }

    pub fn is_empty(&self) -> bool {
        self.step.is_empty()
    }

    pub fn get(&self, index: usize) -> Option<Event> {
        Some(Event {
            step: *self.step.get(index)?,
            work_item: self.work_item[index],
            kind: self.kind[index],
            location: self.location[index],
            read: self.read[index],
            written: self.written[index],
            span: self.span[index],
            order: Some(self.order[index]).filter(|&o| o != NONE),
            scope: Some(self.scope[index]).filter(|&o| o != NONE),
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = Event> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The step column, for drawing without assembling events.
    pub fn steps(&self) -> &[u64] {
        &self.step
    }

    /// The work-item column.
    pub fn work_items(&self) -> &[u32] {
        &self.work_item
    }

    /// The kind column.
    pub fn kinds(&self) -> &[EventKind] {
        &self.kind
    }

    /// The running hash of every event pushed so far (meaningless in a log that does not
    /// hash).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether pushing an event folds it into the hash (by default it does). An exploration
    /// compares runs by their final states and never reads a trace hash, and hashing each
    /// event was a tenth of a run's time, so its sessions turn it off.
    pub fn set_hashing(&mut self, on: bool) {
        self.unhashed = !on;
    }

    /// Forgets every event after the first `len`, whose running hash was `hash`.
    pub fn truncate(&mut self, len: usize, hash: u64) {
        self.step.truncate(len);
        self.work_item.truncate(len);
        self.kind.truncate(len);
        self.location.truncate(len);
        self.read.truncate(len);
        self.written.truncate(len);
        self.span.truncate(len);
        self.order.truncate(len);
        self.scope.truncate(len);
        self.hash = hash;
    }

    /// Moves the events from `at` on into a new log (whose hash is meaningless) and keeps
    /// the first `at`, whose running hash was `hash`.
    pub fn split_off(&mut self, at: usize, hash: u64) -> EventLog {
        let tail = EventLog {
            step: self.step.split_off(at.min(self.step.len())),
            work_item: self.work_item.split_off(at.min(self.work_item.len())),
            kind: self.kind.split_off(at.min(self.kind.len())),
            location: self.location.split_off(at.min(self.location.len())),
            read: self.read.split_off(at.min(self.read.len())),
            written: self.written.split_off(at.min(self.written.len())),
            span: self.span.split_off(at.min(self.span.len())),
            order: self.order.split_off(at.min(self.order.len())),
            scope: self.scope.split_off(at.min(self.scope.len())),
            hash: 0,
            unhashed: self.unhashed,
        };
        self.hash = hash;
        tail
    }

    /// Appends events `range` of `other` and sets the running hash to `hash`, the hash those
    /// events were known to lead to.
    pub fn extend_from(&mut self, other: &EventLog, range: std::ops::Range<usize>, hash: u64) {
        self.step.extend_from_slice(&other.step[range.clone()]);
        self.work_item.extend_from_slice(&other.work_item[range.clone()]);
        self.kind.extend_from_slice(&other.kind[range.clone()]);
        self.location.extend_from_slice(&other.location[range.clone()]);
        self.read.extend_from_slice(&other.read[range.clone()]);
        self.written.extend_from_slice(&other.written[range.clone()]);
        self.span.extend_from_slice(&other.span[range.clone()]);
        self.order.extend_from_slice(&other.order[range.clone()]);
        self.scope.extend_from_slice(&other.scope[range]);
        self.hash = hash;
    }

    pub fn push(&mut self, event: Event) {
        if !self.unhashed {
            self.fold(&event);
        }
        self.step.push(event.step);
        self.work_item.push(event.work_item);
        self.kind.push(event.kind);
        self.location.push(event.location);
        self.read.push(event.read);
        self.written.push(event.written);
        self.span.push(event.span);
        self.order.push(event.order.unwrap_or(NONE));
        self.scope.push(event.scope.unwrap_or(NONE));
    }

    /// Folds `event` into the running hash.
    fn fold(&mut self, event: &Event) {
        // Every field goes into the hash in a fixed little-endian layout, so the digest is the
        // same on every platform.
        let mut bytes = [0u8; 56];
        bytes[0..8].copy_from_slice(&event.step.to_le_bytes());
        bytes[8..12].copy_from_slice(&event.work_item.to_le_bytes());
        bytes[12] = event.kind as u8;
        if let Some(loc) = event.location {
            bytes[13] = loc.space as u8 + 1;
            bytes[14..18].copy_from_slice(&loc.alloc.to_le_bytes());
            bytes[18..26].copy_from_slice(&loc.offset.to_le_bytes());
        }
        bytes[26..34].copy_from_slice(&event.read.to_le_bytes());
        bytes[34..42].copy_from_slice(&event.written.to_le_bytes());
        bytes[42..46].copy_from_slice(&event.span.start.to_le_bytes());
        bytes[46..50].copy_from_slice(&event.span.end.to_le_bytes());
        bytes[50] = event.order.map_or(0, |o| o + 1);
        bytes[51] = event.scope.map_or(0, |s| s + 1);
        self.hash = xxhash_rust::xxh3::xxh3_64_with_seed(&bytes, self.hash);
    }
}
