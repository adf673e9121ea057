//! The event log: one record per shared-memory event, stored column by column.
//!
//! The timeline draws straight from these columns, and the trace hash is folded in as each
//! event is pushed, so the hash of a run never needs the whole log in one place.

use std::cell::Cell;

use serde::{Deserialize, Serialize};

use crate::diag::Span;
/// The address spaces and atomic operations are the IR's; events name them too (an atomic's
/// operation through [`EventLog::atomic_op`]), and so do the views built on the log.
pub use crate::ir::{AtomicOp, Space};
use crate::ir::{Order, Scope};

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
    /// location, `written` and the span are the promised write's, not where the work-item
    /// stands when it promises).
    Promise,
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
    /// The value written (stores, atomics), as raw bits. An atomic load writes nothing and
    /// shows the value memory holds after it, which under the relaxed model may be newer than
    /// the value it read: tell loads by [`EventLog::atomic_op`], not by the two values.
    pub written: u64,
    pub span: Span,
    /// The memory order of an atomic; `None` for other events.
    pub order: Option<Order>,
    /// The memory scope of an atomic or a fence.
    pub scope: Option<Scope>,
}

impl Event {
    /// Whether this atomic, of operation `op`, left the value it found: a load always does,
    /// though under the relaxed model it may have read an older value than the one memory
    /// holds, which `written` shows; another atomic when it wrote what it read.
    pub fn leaves_value(&self, op: Option<AtomicOp>) -> bool {
        self.read == self.written || op == Some(AtomicOp::Load)
    }
}

/// The columns of the event log. Copying one into another reuses the columns' allocations.
///
/// A run of a million steps keeps a million events, so each column is as narrow as its
/// values allow, and the rare value that is wider goes to a side table ([`Overflow`]) by event
/// index: steps fit 32 bits (the step limit's maximum is far below); a location is packed into
/// 32 bits the way pointers are (space, allocation, offset), into 64 when its buffer is
/// larger than 32 MiB or its allocation beyond the 32nd; a value read or written keeps its low
/// 32 bits, and its high half is the low half's zero or sign extension for every value of 32
/// bits or fewer; spans are interned (an event's span is its instruction's, and a kernel has
/// few instructions) and their indices kept in 16 bits. An event costs 26 bytes rather than
/// 63; [`EventLog::get`] assembles it whole again.
///
/// The columns may hold more rows than the log has events: after a seek backwards
/// ([`EventLog::move_to`]) the rows past its length are the events the run is known to make
/// next, and the events it makes again are checked against them and counted rather than
/// written anew, so a seek never copies the log.
#[derive(Debug, Default)]
pub struct EventLog {
    /// The number of events: the rows before it are the log, the rows from it on its known
    /// future (the same as `step.len()` when there is none).
    len: usize,
    step: Vec<u32>,
    work_item: Vec<u32>,
    kind: Vec<EventKind>,
    /// Locations packed into 32 bits ([`pack`]); one that needs more is in `wide_location`.
    location: Vec<u32>,
    /// Locations packed into 64 bits ([`pack_wide`]) that do not pack into 32; the rare one that
    /// does not pack into 64 either is in `spilled`.
    wide_location: Overflow<u64>,
    spilled: Overflow<Location>,
    /// The low halves of the values read and written.
    read: Vec<u32>,
    written: Vec<u32>,
    /// How each value's high half follows ([`Extension`]): the read value's in the low two
    /// bits, the written value's in the two above.
    extension: Vec<u8>,
    /// The high halves that are neither extension of their low half.
    read_high: Overflow<u32>,
    written_high: Overflow<u32>,
    /// Index of each event's span in `spans`, or [`WIDE_SPAN`] for an index kept in
    /// `wide_span` (a kernel of more than 65,534 distinct event sites).
    span: Vec<u16>,
    wide_span: Overflow<u32>,
    /// The distinct spans, in the order first seen; forgetting events keeps them, so an
    /// index stays valid for the log's whole life.
    spans: SpanTable,
    /// Order and scope as their OpenCL values ([`Order::value`], [`Scope::value`]), `NONE`
    /// where the event has none. An atomic's order column also holds
    /// its operation ([`EventLog::atomic_op`]): orders take three bits, and the operation's
    /// index plus one the five above them, so an event costs no extra byte for it.
    order: Vec<u8>,
    scope: Vec<u8>,
    hash: u64,
    /// Events are recorded without being folded into the hash (see
    /// [`EventLog::set_hashing`]).
    unhashed: bool,
    /// Events are counted and hashed, and only atomics kept ([`EventLog::forget_events`]):
    /// then `pushed` counts every event and `kept_at` is each kept one's index.
    forgetting: bool,
    pushed: usize,
    kept_at: Vec<u32>,
    /// Whether something asked a forgetting log for an event it did not keep.
    missed: Cell<bool>,
}

crate::reuse::clone_fields!(EventLog {
    len,
    step,
    work_item,
    kind,
    location,
    wide_location,
    spilled,
    read,
    written,
    extension,
    read_high,
    written_high,
    span,
    wide_span,
    spans,
    order,
    scope,
    hash,
    unhashed,
    forgetting,
    pushed,
    kept_at,
    missed
});

/// The entries of a column that did not fit it, by event index, in the order the events were
/// pushed (so a lookup is a binary search). Indices fit 32 bits: the history limit's maximum
/// is far below (`crate::limits::HISTORY_EVENTS`).
#[derive(Clone, Debug)]
struct Overflow<T> {
    at: Vec<u32>,
    value: Vec<T>,
}

impl<T> Default for Overflow<T> {
    fn default() -> Self {
        Overflow { at: Vec::new(), value: Vec::new() }
    }
}

impl<T: Copy> Overflow<T> {
    /// Records `value` for event `index`, which comes after every event recorded so far.
    fn push(&mut self, index: usize, value: T) {
        debug_assert!(self.at.last().is_none_or(|&last| (last as usize) < index));
        self.at.push(index as u32);
        self.value.push(value);
    }

    fn get(&self, index: usize) -> Option<T> {
        let i = self.at.binary_search(&(index as u32)).ok()?;
        Some(self.value[i])
    }

    /// The position of the first entry at or after event `index`.
    fn position(&self, index: usize) -> usize {
        self.at.partition_point(|&at| (at as usize) < index)
    }

    fn truncate(&mut self, len: usize) {
        let keep = self.position(len);
        self.at.truncate(keep);
        self.value.truncate(keep);
    }
}

/// How a value's high 32 bits follow from its low 32: zero for a value of 32 bits or fewer
/// (unsigned integers, floats, small signed ones), copies of bit 31 for a negative signed one
/// (registers hold those sign-extended), and anything else kept in an [`Overflow`] (64-bit
/// values).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Extension {
    Zero = 0,
    Sign = 1,
    Stored = 2,
}

const EXTENSION_MASK: u8 = 0b11;

/// Where each value's two bits sit in the `extension` column.
const READ_SHIFT: u8 = 0;
const WRITTEN_SHIFT: u8 = 2;

impl Extension {
    fn of(value: u64) -> Extension {
        let low = value as u32;
        if value == low as u64 {
            Extension::Zero
        } else if value == low as i32 as i64 as u64 {
            Extension::Sign
        } else {
            Extension::Stored
        }
    }

    fn from_bits(bits: u8) -> Extension {
        match bits & EXTENSION_MASK {
            0 => Extension::Zero,
            1 => Extension::Sign,
            _ => Extension::Stored,
        }
    }
}

/// The value whose low half is `low`, extended as `extension` says (`stored` gives a stored
/// high half).
fn widen(low: u32, extension: Extension, stored: impl FnOnce() -> Option<u32>) -> u64 {
    match extension {
        Extension::Zero => low as u64,
        Extension::Sign => low as i32 as i64 as u64,
        Extension::Stored => (stored().unwrap_or(0) as u64) << 32 | low as u64,
    }
}

/// The `order` and `scope` column value of events that have none.
const NONE: u8 = u8::MAX;

/// The bits of the order column that hold the memory order (OpenCL's `memory_order` values
/// are at most 5); an atomic's operation is above them.
const ORDER_BITS: u32 = 3;
const ORDER_MASK: u8 = (1 << ORDER_BITS) - 1;

/// The span column's mark of an index kept in `wide_span`.
const WIDE_SPAN: u16 = u16::MAX;

/// The 32-bit packed location of an event that has none, and the mark of one kept in
/// `wide_location`: both are private-memory locations no event has (allocation 31 at an
/// offset near 2^25), and a location that packs to either is stored wide.
const NO_LOCATION: u32 = u32::MAX;
const WIDE: u32 = u32::MAX - 1;

/// Bits of a 32-bit packed location's offset and allocation: buffers up to 32 MiB, the first
/// 32 allocations of a space, which is nearly every kernel's every buffer.
const OFFSET_BITS: u32 = 25;
const ALLOC_BITS: u32 = 5;

/// The same for a 64-bit packed location, as in a pointer (`crate::ir::ptr`), and its mark of
/// one kept in `spilled` (allocation 2^22 - 1 at an offset near 2^40).
const WIDE_OFFSET_BITS: u32 = 40;
const WIDE_ALLOC_BITS: u32 = 22;
const SPILLED: u64 = u64::MAX;

/// A location as 32 bits: 2 of space, 5 of allocation, 25 of offset; `None` when it does not
/// fit or collides with a mark.
fn pack(loc: Location) -> Option<u32> {
    if loc.alloc >= 1 << ALLOC_BITS || loc.offset >= 1 << OFFSET_BITS {
        return None;
    }
    let word = (loc.space as u32) << (OFFSET_BITS + ALLOC_BITS) | loc.alloc << OFFSET_BITS | loc.offset as u32;
    (word != NO_LOCATION && word != WIDE).then_some(word)
}

/// A location as 64 bits: 2 of space, 22 of allocation, 40 of offset; `None` when it does not
/// fit or collides with the mark.
fn pack_wide(loc: Location) -> Option<u64> {
    if loc.alloc >= 1 << WIDE_ALLOC_BITS || loc.offset >= 1 << WIDE_OFFSET_BITS {
        return None;
    }
    let word = (loc.space as u64) << (WIDE_OFFSET_BITS + WIDE_ALLOC_BITS) | (loc.alloc as u64) << WIDE_OFFSET_BITS | loc.offset;
    (word != SPILLED).then_some(word)
}

fn space_of(bits: u64) -> Space {
    match bits {
        0 => Space::Global,
        1 => Space::Local,
        2 => Space::Constant,
        _ => Space::Private,
    }
}

fn unpack(word: u32) -> Location {
    Location {
        space: space_of((word >> (OFFSET_BITS + ALLOC_BITS)) as u64),
        alloc: (word >> OFFSET_BITS) & ((1 << ALLOC_BITS) - 1),
        offset: (word & ((1 << OFFSET_BITS) - 1)) as u64,
    }
}

fn unpack_wide(word: u64) -> Location {
    Location {
        space: space_of(word >> (WIDE_OFFSET_BITS + WIDE_ALLOC_BITS)),
        alloc: ((word >> WIDE_OFFSET_BITS) & ((1 << WIDE_ALLOC_BITS) - 1)) as u32,
        offset: word & ((1 << WIDE_OFFSET_BITS) - 1),
    }
}

/// Distinct spans and their indices. Lookups go through a small direct-mapped cache first, as
/// a run's events come from a handful of instructions.
#[derive(Debug, Default)]
struct SpanTable {
    spans: Vec<Span>,
    /// The index of each span, by `(start, end)`. Only looked up, never iterated.
    index: rustc_hash::FxHashMap<(u32, u32), u32>,
    /// `(span, index)` by a hash of the span, made on the first lookup; a slot is trusted only
    /// when `spans` agrees, so a stale or empty one is harmless.
    cache: Vec<(Span, u32)>,
}

// Copied field by field into the table's own allocations (see `crate::reuse`). A hash map's
// own `clone_from` may give up its table for one of the source's size, and the launched
// machine's, which every explored run is restored from, is empty: an empty source clears
// the map instead, which keeps its table for the run's first event.
impl Clone for SpanTable {
    fn clone(&self) -> SpanTable {
        let SpanTable { spans, index, cache } = self;
        SpanTable { spans: spans.clone(), index: index.clone(), cache: cache.clone() }
    }

    fn clone_from(&mut self, source: &SpanTable) {
        let SpanTable { spans, index, cache } = source;
        self.spans.clone_from(spans);
        if index.is_empty() {
            self.index.clear();
        } else {
            self.index.clone_from(index);
        }
        self.cache.clone_from(cache);
    }
}

/// Slots of the span cache.
const SPAN_CACHE: usize = 64;

impl SpanTable {
    fn get(&self, index: u32) -> Span {
        self.spans.get(index as usize).copied().unwrap_or(Span { start: 0, end: 0 })
    }

    fn intern(&mut self, span: Span) -> u32 {
        let slot = (span.start.wrapping_mul(31) ^ span.end) as usize % SPAN_CACHE;
        if let Some(&(cached, index)) = self.cache.get(slot) {
            if cached == span && self.spans.get(index as usize) == Some(&span) {
                return index;
            }
        }
        let index = *self.index.entry((span.start, span.end)).or_insert_with(|| {
            self.spans.push(span);
            self.spans.len() as u32 - 1
        });
        if self.cache.is_empty() {
            // Into the vector a restored machine kept (`resize` reuses its capacity).
            self.cache.resize(SPAN_CACHE, (Span { start: u32::MAX, end: u32::MAX }, u32::MAX));
        }
        self.cache[slot] = (span, index);
        index
    }
}

impl EventLog {
    pub fn len(&self) -> usize {
        if self.forgetting {
            self.pushed
        } else {
            self.len
        }
    }

    /// The number of rows of the columns: the events and the known future after them.
    fn rows(&self) -> usize {
        self.step.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// From now on, counts and hashes every event but keeps only atomics: a run that nobody
    /// steps through or looks into (the command line's) then records no event it will not
    /// read, and a read of one it did not keep is noticed ([`EventLog::missed`]), so that
    /// the run can start over keeping them. The trace hash is the same either way. The
    /// events already kept stay.
    pub fn forget_events(&mut self) {
        if !self.forgetting {
            self.forget_future();
            self.kept_at = (0..self.len as u32).collect();
            self.pushed = self.len;
            self.forgetting = true;
        }
    }

    /// Whether this log forgets events ([`EventLog::forget_events`]).
    pub fn forgets(&self) -> bool {
        self.forgetting
    }

    /// Whether this log forgets events ([`EventLog::forget_events`]) and something asked
    /// for one it did not keep, or for a column of them: what it was told may be wrong.
    pub fn missed(&self) -> bool {
        self.missed.get()
    }

    /// Notes that something asked for what a forgetting log does not keep; `true` when the
    /// log forgets.
    fn miss(&self) -> bool {
        if self.forgetting {
            self.missed.set(true);
        }
        self.forgetting
    }

    /// Every atomic event, with its index and its operation ([`EventLog::atomic_op`]),
    /// whether or not the log forgets events ([`EventLog::forget_events`]); asking for them
    /// never counts as a miss.
    pub fn atomics(&self) -> impl Iterator<Item = (usize, Event, Option<crate::ir::AtomicOp>)> + '_ {
        self.atomics_from(0)
    }

    /// How far [`EventLog::atomics_from`] reads: a reader that comes back for the atomics
    /// pushed since it last looked starts there.
    pub fn atomics_end(&self) -> usize {
        if self.forgetting {
            self.rows()
        } else {
            self.len
        }
    }

    /// [`EventLog::atomics`] from row `start` of the log's columns (0, or an earlier
    /// [`EventLog::atomics_end`]) to its end.
    pub fn atomics_from(&self, start: usize) -> impl Iterator<Item = (usize, Event, Option<crate::ir::AtomicOp>)> + '_ {
        (start..self.atomics_end()).filter(|&k| self.kind[k] == EventKind::Atomic).filter_map(|k| {
            let index = if self.forgetting { *self.kept_at.get(k)? as usize } else { k };
            Some((index, self.at(k)?, self.op_at(k)))
        })
    }

    /// The operation of atomic event `index` (`None` for other events, and for an atomic
    /// pushed without one). Not part of [`Event`] nor of the trace hash: the hash of a run is
    /// what it was before the log kept operations.
    pub fn atomic_op(&self, index: usize) -> Option<crate::ir::AtomicOp> {
        if self.miss() || index >= self.len {
            return None;
        }
        self.op_at(index)
    }

    /// The operation of the event in row `index` of the columns.
    fn op_at(&self, index: usize) -> Option<crate::ir::AtomicOp> {
        let column = *self.order.get(index)?;
        let op = (column != NONE).then_some(column >> ORDER_BITS)?;
        crate::ir::AtomicOp::ALL.get(op.checked_sub(1)? as usize).copied()
    }

    /// Event `index`; `None` past the end, and in a log that forgets events
    /// ([`EventLog::forget_events`]), which notes the miss.
    pub fn get(&self, index: usize) -> Option<Event> {
        if self.miss() || index >= self.len {
            return None;
        }
        self.at(index)
    }

    /// Event `index`'s location alone, as [`EventLog::get`] gives it (`None` past the end and,
    /// noting the miss, in a log that forgets events): for scans that look for one location
    /// without assembling every event they pass.
    pub fn location_of(&self, index: usize) -> Option<Location> {
        if self.miss() || index >= self.len {
            return None;
        }
        self.location(index)
    }

    /// The event in row `index` of the columns (of the known future too, past the length).
    fn at(&self, index: usize) -> Option<Event> {
        Some(Event {
            step: *self.step.get(index)? as u64,
            work_item: self.work_item[index],
            kind: self.kind[index],
            location: self.location(index),
            read: self.value(index, READ_SHIFT),
            written: self.value(index, WRITTEN_SHIFT),
            span: self.spans.get(self.span_index(index)),
            order: Some(self.order[index]).filter(|&o| o != NONE).and_then(|o| Order::from_value(o & ORDER_MASK)),
            scope: Some(self.scope[index]).filter(|&o| o != NONE).and_then(Scope::from_value),
        })
    }

    /// Whether row `row` of the columns holds `event`: what `self.at(row) == Some(event)`
    /// says, read from the packed columns without assembling the row's event (a replay asks
    /// it for every event it makes).
    fn row_is(&self, row: usize, event: &Event) -> bool {
        let location = match event.location {
            None => self.location[row] == NO_LOCATION,
            Some(loc) => match pack(loc) {
                Some(word) => self.location[row] == word,
                None => self.location(row) == Some(loc),
            },
        };
        let order = match (self.order[row], event.order) {
            (NONE, None) => true,
            (stored, Some(order)) => stored != NONE && stored & ORDER_MASK == order.value(),
            _ => false,
        };
        let (read, written) = (Extension::of(event.read), Extension::of(event.written));
        let high = |extension: Extension, table: &Overflow<u32>, value: u64| extension != Extension::Stored || table.get(row) == Some((value >> 32) as u32);
        self.step[row] as u64 == event.step
            && self.work_item[row] == event.work_item
            && self.kind[row] == event.kind
            && location
            && self.read[row] == event.read as u32
            && self.written[row] == event.written as u32
            && self.extension[row] == (read as u8) << READ_SHIFT | (written as u8) << WRITTEN_SHIFT
            && high(read, &self.read_high, event.read)
            && high(written, &self.written_high, event.written)
            && self.spans.get(self.span_index(row)) == event.span
            && order
            && self.scope[row] == event.scope.map_or(NONE, Scope::value)
    }

    /// Event `index`'s index in the span table.
    fn span_index(&self, index: usize) -> u32 {
        match self.span[index] {
            WIDE_SPAN => self.wide_span.get(index).unwrap_or(u32::MAX),
            narrow => narrow as u32,
        }
    }

    /// Appends an event's span index to the span column.
    fn push_span_index(&mut self, id: u32) {
        match u16::try_from(id) {
            Ok(narrow) if narrow != WIDE_SPAN => self.span.push(narrow),
            _ => {
                self.wide_span.push(self.span.len(), id);
                self.span.push(WIDE_SPAN);
            }
        }
    }

    fn location(&self, index: usize) -> Option<Location> {
        match self.location[index] {
            NO_LOCATION => None,
            WIDE => match self.wide_location.get(index)? {
                SPILLED => self.spilled.get(index),
                word => Some(unpack_wide(word)),
            },
            word => Some(unpack(word)),
        }
    }

    /// Event `index`'s value read ([`READ_SHIFT`]) or written ([`WRITTEN_SHIFT`]), whole.
    fn value(&self, index: usize, shift: u8) -> u64 {
        let extension = Extension::from_bits(self.extension[index] >> shift);
        let (low, high) = if shift == READ_SHIFT { (&self.read, &self.read_high) } else { (&self.written, &self.written_high) };
        widen(low[index], extension, || high.get(index))
    }

    pub fn iter(&self) -> impl Iterator<Item = Event> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The step column, for drawing without assembling events (empty, and a miss, in a log
    /// that forgets events).
    pub fn steps(&self) -> &[u32] {
        if self.miss() {
            return &[];
        }
        &self.step[..self.len]
    }

    /// The work-item column (as [`EventLog::steps`]).
    pub fn work_items(&self) -> &[u32] {
        if self.miss() {
            return &[];
        }
        &self.work_item[..self.len]
    }

    /// The kind column (as [`EventLog::steps`]).
    pub fn kinds(&self) -> &[EventKind] {
        if self.miss() {
            return &[];
        }
        &self.kind[..self.len]
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

    /// Makes the log its first `len` events, whose running hash was `hash`, keeping the rows
    /// after them as the known future: backwards, the events from `len` on become the future;
    /// forwards, `len` may reach into the future. `false` (and no change) when the log
    /// forgets events or `len` is past the known future.
    pub fn move_to(&mut self, len: usize, hash: u64) -> bool {
        if self.forgetting || len > self.rows() {
            return false;
        }
        self.len = len;
        self.hash = hash;
        true
    }

    /// Drops the known future: the run is about to make, or has just made, events other than
    /// those recorded (a step chosen by hand, a fork, a replayed event that differs).
    pub fn forget_future(&mut self) {
        let len = self.len;
        if self.forgetting || self.rows() == len {
            return;
        }
        self.step.truncate(len);
        self.work_item.truncate(len);
        self.kind.truncate(len);
        self.location.truncate(len);
        self.wide_location.truncate(len);
        self.spilled.truncate(len);
        self.read.truncate(len);
        self.written.truncate(len);
        self.extension.truncate(len);
        self.read_high.truncate(len);
        self.written_high.truncate(len);
        self.span.truncate(len);
        self.wide_span.truncate(len);
        self.order.truncate(len);
        self.scope.truncate(len);
    }

    /// Pushes an atomic event with its operation (see [`EventLog::atomic_op`]).
    pub fn push_atomic(&mut self, event: Event, op: crate::ir::AtomicOp) {
        if !self.push_kept(event) {
            return;
        }
        // The row just pushed or, replaying the known future, the row just counted (written
        // again rather than trusted: the operation is not part of what replaying compares).
        let row = if self.forgetting { self.rows() - 1 } else { self.len - 1 };
        let order = &mut self.order[row];
        if *order != NONE {
            *order = (*order & ORDER_MASK) | (op.index() + 1) << ORDER_BITS;
        }
    }

    pub fn push(&mut self, event: Event) {
        self.push_kept(event);
    }

    /// Pushes `event`; `false` when the log forgot it.
    fn push_kept(&mut self, event: Event) -> bool {
        if !self.unhashed {
            self.fold(&event);
        }
        if self.forgetting {
            let index = self.pushed;
            self.pushed += 1;
            if event.kind != EventKind::Atomic {
                return false;
            }
            // Indices fit 32 bits: the history limit's maximum is far below.
            self.kept_at.push(index as u32);
        } else {
            if self.len < self.rows() {
                // A seek replays the recorded decisions from a snapshot, so the run makes
                // again the events it made before, which are counted rather than written.
                // Should it make another (its path changed), the future is forgotten there
                // and the run goes on recording.
                if self.row_is(self.len, &event) {
                    self.len += 1;
                    return true;
                }
                self.forget_future();
            }
            self.len += 1;
        }
        // The step limit's hard maximum is far below 2^32 (`crate::limits::STEPS`).
        self.step.push(event.step as u32);
        self.work_item.push(event.work_item);
        self.kind.push(event.kind);
        let index = self.location.len();
        let word = match event.location {
            None => NO_LOCATION,
            Some(loc) => pack(loc).unwrap_or_else(|| {
                let wide = pack_wide(loc).unwrap_or_else(|| {
                    self.spilled.push(index, loc);
                    SPILLED
                });
                self.wide_location.push(index, wide);
                WIDE
            }),
        };
        self.location.push(word);
        let (read, written) = (Extension::of(event.read), Extension::of(event.written));
        if read == Extension::Stored {
            self.read_high.push(index, (event.read >> 32) as u32);
        }
        if written == Extension::Stored {
            self.written_high.push(index, (event.written >> 32) as u32);
        }
        self.read.push(event.read as u32);
        self.written.push(event.written as u32);
        self.extension.push((read as u8) << READ_SHIFT | (written as u8) << WRITTEN_SHIFT);
        let span = self.spans.intern(event.span);
        self.push_span_index(span);
        self.order.push(event.order.map_or(NONE, Order::value));
        self.scope.push(event.scope.map_or(NONE, Scope::value));
        true
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
        // Order and scope as their OpenCL values, plus one (0 for none).
        bytes[50] = event.order.map_or(0, |o| o.value() + 1);
        bytes[51] = event.scope.map_or(0, |s| s.value() + 1);
        self.hash = xxhash_rust::xxh3::xxh3_64_with_seed(&bytes, self.hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(step: u64, location: Option<Location>, span: (u32, u32)) -> Event {
        Event {
            step,
            work_item: step as u32 % 3,
            kind: EventKind::Load,
            location,
            read: step * 7,
            written: 0,
            span: Span { start: span.0, end: span.1 },
            order: None,
            scope: Some(Scope::WorkGroup),
        }
    }

    /// A log that forgets events hashes and counts them as one that keeps them does, gives
    /// the same atomics with their indices and operations, and notes every other read as a
    /// miss.
    #[test]
    fn a_forgetting_log_keeps_the_hash_the_count_and_the_atomics() {
        let kinds = [EventKind::Load, EventKind::Atomic, EventKind::Store, EventKind::Atomic, EventKind::Finish];
        let events: Vec<Event> = (0..40)
            .map(|i| Event {
                kind: kinds[i as usize % kinds.len()],
                written: i * 3,
                order: Some(Order::Relaxed),
                ..event(i, Some(Location { space: Space::Global, alloc: 1, offset: 4 * (i % 4) }), (i as u32, 20))
            })
            .collect();
        let ops = crate::ir::AtomicOp::ALL;
        let fill = |log: &mut EventLog, range: std::ops::Range<usize>| {
            for (i, &e) in events[range.clone()].iter().enumerate() {
                match e.kind {
                    EventKind::Atomic => log.push_atomic(e, ops[(range.start + i) % ops.len()]),
                    _ => log.push(e),
                }
            }
        };
        let mut keeping = EventLog::default();
        fill(&mut keeping, 0..40);
        let mut forgetting = EventLog::default();
        // Forgetting from the tenth event on: the atomics before stay too.
        fill(&mut forgetting, 0..10);
        forgetting.forget_events();
        fill(&mut forgetting, 10..40);
        assert_eq!((forgetting.len(), forgetting.hash()), (keeping.len(), keeping.hash()));
        let atomics: Vec<_> = keeping.atomics().collect();
        assert_eq!(atomics.len(), 16);
        assert_eq!(forgetting.atomics().collect::<Vec<_>>(), atomics);
        assert!(atomics.iter().all(|&(i, e, op)| keeping.get(i) == Some(e) && keeping.atomic_op(i) == op));
        assert!(!forgetting.missed() && !keeping.missed());
        assert_eq!(forgetting.kinds(), &[] as &[EventKind]);
        assert!(forgetting.missed());
        let mut again = EventLog::default();
        again.forget_events();
        fill(&mut again, 0..40);
        assert_eq!(again.get(1), None);
        assert!(again.missed());
        assert_eq!(again.atomics().collect::<Vec<_>>(), atomics);
        assert!(!keeping.missed() && keeping.kinds().len() == 40);
    }

    /// Locations at the edges of both packings and of their marks, with values of every
    /// width, come back as pushed across moving back and forth, replaying and forgetting the future, and
    /// so does every span.
    #[test]
    fn events_come_back_as_pushed() {
        let locations = [
            None,
            Some(Location { space: Space::Global, alloc: 3, offset: 12 }),
            Some(Location { space: Space::Global, alloc: 31, offset: (1 << 25) - 1 }),
            Some(Location { space: Space::Global, alloc: 32, offset: 0 }),
            Some(Location { space: Space::Local, alloc: 0, offset: 1 << 25 }),
            // The 32-bit marks' own locations.
            Some(Location { space: Space::Private, alloc: 31, offset: (1 << 25) - 1 }),
            Some(Location { space: Space::Private, alloc: 31, offset: (1 << 25) - 2 }),
            Some(Location { space: Space::Local, alloc: 0, offset: (1 << 40) - 1 }),
            // The 64-bit mark's own location, and one that packs into no word.
            Some(Location { space: Space::Private, alloc: (1 << 22) - 1, offset: (1 << 40) - 1 }),
            Some(Location { space: Space::Private, alloc: (1 << 22) - 1, offset: (1 << 40) - 2 }),
            Some(Location { space: Space::Constant, alloc: 1 << 22, offset: 1 << 41 }),
        ];
        let values = [0, 7, u32::MAX as u64, u64::MAX, -5i64 as u64, i32::MIN as i64 as u64, 1 << 31, 1 << 32, 1.5f64.to_bits(), u64::MAX - 1];
        let events: Vec<Event> = (0..60)
            .map(|i| Event {
                read: values[i as usize % values.len()],
                written: values[(i as usize * 3 + 1) % values.len()],
                ..event(i, locations[i as usize % locations.len()], (i as u32 % 5, 9))
            })
            .collect();
        let mut log = EventLog::default();
        for &e in &events {
            log.push(e);
        }
        assert_eq!(log.iter().collect::<Vec<_>>(), events);
        assert!(log.move_to(25, 0));
        assert_eq!(log.iter().collect::<Vec<_>>(), events[..25]);
        assert_eq!(log.get(25), None);
        for &e in &events[25..45] {
            log.push(e);
        }
        assert_eq!(log.iter().collect::<Vec<_>>(), events[..45]);
        assert!(log.move_to(50, 0));
        assert_eq!(log.iter().collect::<Vec<_>>(), events[..50]);
        assert!(log.move_to(10, 0));
        log.forget_future();
        assert_eq!(log.iter().collect::<Vec<_>>(), events[..10]);
        assert!(!log.move_to(11, 0), "the known future is forgotten");
        log.push(events[40]);
        assert_eq!(log.get(10), Some(events[40]));
    }

    /// An event other than the recorded one ends the known future there: it is recorded,
    /// and the future's later events are gone.
    #[test]
    fn an_event_off_the_recorded_path_forgets_the_future() {
        let mut log = EventLog::default();
        let events: Vec<Event> = (0..4).map(|i| event(i, None, (0, 1))).collect();
        for &e in &events {
            log.push(e);
        }
        assert!(log.move_to(1, 0));
        log.push(events[1]);
        let other = Event { read: 99, ..events[2] };
        log.push(other);
        assert_eq!(log.iter().collect::<Vec<_>>(), vec![events[0], events[1], other]);
        assert!(!log.move_to(4, 0), "the rest of the old future is gone");
    }

    /// An atomic's operation survives moving back before it and replaying it.
    #[test]
    fn a_replayed_atomic_keeps_its_operation() {
        let mut log = EventLog::default();
        let atomic = Event { kind: EventKind::Atomic, order: Some(Order::Relaxed), ..event(0, None, (0, 1)) };
        log.push_atomic(atomic, crate::ir::AtomicOp::Add);
        log.push(event(1, None, (0, 1)));
        assert!(log.move_to(0, 0));
        assert_eq!(log.atomic_op(0), None);
        log.push_atomic(atomic, crate::ir::AtomicOp::Add);
        assert_eq!(log.atomic_op(0), Some(crate::ir::AtomicOp::Add));
        assert_eq!(log.len(), 1);
    }

    /// Events whose values are of 32 bits or fewer, zero- or sign-extended, and whose buffers
    /// are the first 32 of at most 32 MiB cost 26 bytes, with nothing in the side tables.
    #[test]
    fn narrow_events_take_no_side_table() {
        let mut log = EventLog::default();
        for (i, value) in [0, 1, u32::MAX as u64, u64::MAX, i32::MIN as i64 as u64, 0.5f32.to_bits() as u64].into_iter().enumerate() {
            let location = Location { space: Space::Global, alloc: 31, offset: (1 << 25) - 4 };
            log.push(Event { read: value, written: value, ..event(i as u64, Some(location), (0, 1)) });
        }
        assert!(log.wide_location.at.is_empty() && log.spilled.at.is_empty() && log.wide_span.at.is_empty());
        assert!(log.read_high.at.is_empty() && log.written_high.at.is_empty());
    }

    /// A log of more distinct spans than the span column's 16 bits hold, the mark's own index
    /// among them, reads every span back, across moving back, replaying and forgetting the future.
    #[test]
    fn spans_past_sixteen_bits_come_back() {
        let events: Vec<Event> = (0..70_000u64).map(|i| event(i, None, (i as u32, i as u32 + 1))).collect();
        let mut log = EventLog::default();
        for &e in &events {
            log.push(e);
        }
        assert!(!log.wide_span.at.is_empty());
        assert_eq!(log.get(65_535), Some(events[65_535]));
        assert_eq!(log.iter().collect::<Vec<_>>(), events);
        assert!(log.move_to(60_000, 0));
        assert_eq!(log.iter().collect::<Vec<_>>(), events[..60_000]);
        for &e in &events[60_000..68_000] {
            log.push(e);
        }
        assert_eq!(log.iter().collect::<Vec<_>>(), events[..68_000]);
        assert!(log.move_to(66_000, 0));
        log.forget_future();
        assert_eq!(log.iter().collect::<Vec<_>>(), events[..66_000]);
        log.push(events[69_999]);
        assert_eq!(log.get(66_000), Some(events[69_999]));
    }

    /// Property tests, natively only: proptest is not built for wasm.
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        /// Values around each width's edges and anything at all.
        fn value() -> impl Strategy<Value = u64> {
            prop_oneof![any::<u8>().prop_map(u64::from), any::<u32>().prop_map(u64::from), any::<i32>().prop_map(|v| v as i64 as u64), any::<u64>()]
        }

        fn location() -> impl Strategy<Value = Option<Location>> {
            let space = prop_oneof![Just(Space::Global), Just(Space::Local), Just(Space::Constant), Just(Space::Private)];
            let alloc = prop_oneof![0u32..40, (1u32 << 22) - 2..(1 << 22) + 2];
            let offset = prop_oneof![0u64..64, (1u64 << 25) - 4..(1 << 25) + 4, (1u64 << 40) - 4..(1 << 40) + 4];
            proptest::option::of((space, alloc, offset).prop_map(|(space, alloc, offset)| Location { space, alloc, offset }))
        }

        fn order() -> impl Strategy<Value = Option<Order>> {
            proptest::option::of(prop_oneof![Just(Order::Relaxed), Just(Order::Acquire), Just(Order::Release), Just(Order::AcqRel), Just(Order::SeqCst)])
        }

        fn scope() -> impl Strategy<Value = Option<Scope>> {
            proptest::option::of(prop_oneof![Just(Scope::WorkItem), Just(Scope::SubGroup), Just(Scope::WorkGroup), Just(Scope::Device), Just(Scope::System)])
        }

        fn events() -> impl Strategy<Value = Vec<Event>> {
            proptest::collection::vec((location(), value(), value(), order(), scope()), 0..80).prop_map(|fields| {
                fields
                    .into_iter()
                    .enumerate()
                    .map(|(i, (location, read, written, order, scope))| Event { read, written, order, scope, ..event(i as u64, location, (i as u32 % 7, 20)) })
                    .collect()
            })
        }

        proptest::proptest! {
            /// Whatever is pushed, and wherever the log moves back, replays, moves forwards and
            /// forgets its future, each event reads back as it was pushed, and the columns are the
            /// events' own.
            #[test]
            fn a_log_reads_back_what_was_pushed(events in events(), cuts in (0usize..100, 0usize..100, 0usize..100, 0usize..100)) {
                let mut log = EventLog::default();
                for &e in &events {
                    log.push(e);
                }
                prop_assert_eq!(log.iter().collect::<Vec<_>>(), events.clone());
                // What a replay compares: a row is an event exactly when the event is the
                // row's, here against the row's own event with one field taken from another.
                for (i, &e) in events.iter().enumerate() {
                    let other = events[(i * 7 + cuts.0) % events.len()];
                    let variants = [
                        e,
                        Event { step: other.step, ..e },
                        Event { work_item: other.work_item, ..e },
                        Event { kind: EventKind::Atomic, ..e },
                        Event { location: other.location, ..e },
                        Event { read: other.read, ..e },
                        Event { written: other.written, ..e },
                        // The high halves alone (kept apart from a 64-bit value's low half).
                        Event { read: e.read ^ 1 << 40, ..e },
                        Event { written: e.written ^ 1 << 40, ..e },
                        Event { span: Span { start: e.span.start + 1, ..e.span }, ..e },
                        Event { order: Some(Order::Acquire), ..e },
                        Event { scope: None, ..e },
                    ];
                    for v in variants {
                        prop_assert_eq!(log.row_is(i, &v), v == e, "row {} against {:?}", i, v);
                    }
                }
                let at = cuts.0.min(events.len());
                prop_assert!(log.move_to(at, 0));
                prop_assert_eq!(log.iter().collect::<Vec<_>>(), &events[..at]);
                prop_assert_eq!(log.steps().len(), at);
                // Replaying part of the known future, then moving forwards into the rest.
                let replayed = at + cuts.1.min(events.len() - at);
                for &e in &events[at..replayed] {
                    log.push(e);
                }
                prop_assert_eq!(log.iter().collect::<Vec<_>>(), &events[..replayed]);
                let forward = replayed + cuts.2.min(events.len() - replayed);
                prop_assert!(log.move_to(forward, 0));
                prop_assert!(!log.move_to(events.len() + 1, 0));
                prop_assert_eq!(log.len(), forward);
                let mut expected = events[..forward].to_vec();
                prop_assert_eq!(log.iter().collect::<Vec<_>>(), expected.clone());
                let len = cuts.3.min(log.len());
                prop_assert!(log.move_to(len, 0));
                log.forget_future();
                expected.truncate(len);
                prop_assert_eq!(log.iter().collect::<Vec<_>>(), expected.clone());
                // Pushing after forgetting the future keeps the side tables in event order.
                for &e in events.iter().rev().take(5) {
                    log.push(e);
                    expected.push(e);
                }
                prop_assert_eq!(log.iter().collect::<Vec<_>>(), expected.clone());
                prop_assert_eq!(log.kinds().len(), expected.len());
                prop_assert_eq!(log.work_items(), expected.iter().map(|e| e.work_item).collect::<Vec<_>>());
            }
        }
    }
}
