//! Findings and the run report: the `interleave run --json` contract.
//!
//! Field names and kind strings here are a public interface (other tools parse them), so they
//! change only by addition.

use serde::{Deserialize, Serialize};

use crate::diag::{Severity, Span};

mod explanation;
pub use explanation::{Access, Edge, EdgeKind, Explanation, Point};

/// What a finding is about. The serialized strings are stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    DataRace,
    BarrierDivergence,
    AsyncCopyDivergence,
    Deadlock,
    Livelock,
    OutOfBounds,
    NullDereference,
    UninitializedRead,
    ReadOnlyWrite,
    WriteOnlyRead,
    InvalidWaitEvent,
    UnwaitedEvent,
    MisalignedAccess,
    DivisionByZero,
    /// A signed integer addition, subtraction or multiplication overflowed (undefined in C;
    /// the engine wraps). A warning: hashes and random generators often do it on purpose.
    SignedOverflow,
    /// A call of a function declared without a body: it did nothing and returned 0 (a
    /// warning).
    UndefinedFunction,
    /// A warp shuffle read a lane that did not take part in it, or was given a width CUDA
    /// does not define: the value is undefined (the engine gives the lane its own value). A
    /// warning: a reduction over part of a warp often computes such values and never uses
    /// them.
    UndefinedValue,
    AssertionFailed,
    LockMisuse,
    InvalidMemoryOrder,
    ScopeMismatch,
    /// The race detector forgot accesses of a word that more accesses than it keeps touched
    /// at once, unordered (a warning: a race with them may go unreported).
    RaceDetectionLimit,
    StepLimit,
    SyntaxError,
    TypeError,
    Unsupported,
}

impl FindingKind {
    /// The stable kind string, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::DataRace => "data-race",
            FindingKind::BarrierDivergence => "barrier-divergence",
            FindingKind::AsyncCopyDivergence => "async-copy-divergence",
            FindingKind::Deadlock => "deadlock",
            FindingKind::Livelock => "livelock",
            FindingKind::OutOfBounds => "out-of-bounds",
            FindingKind::NullDereference => "null-dereference",
            FindingKind::UninitializedRead => "uninitialized-read",
            FindingKind::ReadOnlyWrite => "read-only-write",
            FindingKind::WriteOnlyRead => "write-only-read",
            FindingKind::InvalidWaitEvent => "invalid-wait-event",
            FindingKind::UnwaitedEvent => "unwaited-event",
            FindingKind::MisalignedAccess => "misaligned-access",
            FindingKind::DivisionByZero => "division-by-zero",
            FindingKind::SignedOverflow => "signed-overflow",
            FindingKind::UndefinedFunction => "undefined-function",
            FindingKind::UndefinedValue => "undefined-value",
            FindingKind::AssertionFailed => "assertion-failed",
            FindingKind::LockMisuse => "lock-misuse",
            FindingKind::InvalidMemoryOrder => "invalid-memory-order",
            FindingKind::ScopeMismatch => "scope-mismatch",
            FindingKind::RaceDetectionLimit => "race-detection-limit",
            FindingKind::StepLimit => "step-limit",
            FindingKind::SyntaxError => "syntax-error",
            FindingKind::TypeError => "type-error",
            FindingKind::Unsupported => "unsupported",
        }
    }
}

/// Another location that belongs to a finding (the other access of a race, the other barrier).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Related {
    pub line: u32,
    pub column: u32,
    pub work_item: Option<[u64; 3]>,
    pub step: Option<u64>,
    pub message: String,
    #[serde(skip)]
    pub span: Option<Span>,
}

/// Which accesses of a data race conflict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceKind {
    ReadWrite,
    WriteWrite,
}

/// Which memory a data race is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RaceMemory {
    Global,
    Local,
}

/// Something wrong that a run found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub kind: FindingKind,
    pub severity: Severity,
    pub message: String,
    /// 1-based line in the user's source (0 when the finding has no location).
    pub line: u32,
    /// 1-based column in the user's source (0 when the finding has no location).
    pub column: u32,
    /// Global id of the work-item involved, if one is.
    pub work_item: Option<[u64; 3]>,
    /// The step at which the finding was made, if it belongs to one.
    pub step: Option<u64>,
    pub related: Vec<Related>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub race: Option<RaceKind>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub memory: Option<RaceMemory>,
    /// For a data race: its order cannot matter, as the racing writes store the same value, or
    /// the racing read reads the same value either way (a warning).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub benign: bool,
    /// For a data race: on how many 4-byte words it was seen.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub addresses: Option<u64>,
    /// For a data race: the accesses, the edges between them that the run shows and the one
    /// missing (see `crate::why`); filled in by `why::report` and by explorations.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub explanation: Option<Explanation>,
    /// The primary location as a byte range, for the app's editor.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// How a run ended (or `running` while it has not).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunStatus {
    Running,
    Completed,
    Deadlock,
    Livelock,
    StepLimit,
    Error,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Completed => "completed",
            RunStatus::Deadlock => "deadlock",
            RunStatus::Livelock => "livelock",
            RunStatus::StepLimit => "step-limit",
            RunStatus::Error => "error",
        }
    }
}

/// The final contents of one global buffer, as numbers of the parameter's element type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BufferReport {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    /// One entry per element; `null` for an element that was never initialised.
    pub values: Vec<Option<crate::scenario::Number>>,
}

/// One line of printf output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrintfLine {
    pub work_item: [u64; 3],
    pub text: String,
}

/// What a step did to a lock, in its timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LockAction {
    /// The work-item took the lock (it turned it from 0 to non-zero, or stored non-zero into
    /// it with a plain store).
    Acquire,
    /// The work-item set the lock back to 0.
    Release,
    /// The work-item found the lock held and started to wait: a failed acquire or a poll (the
    /// event log cannot tell them apart, and both mean it spins until the lock changes).
    Attempt,
}

/// One change of a lock's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockEvent {
    pub step: u64,
    /// Global id of the work-item that acted.
    pub work_item: [u64; 3],
    pub what: LockAction,
    /// Who holds the lock after this step: the latest work-item to acquire it, while it is set.
    pub holder: Option<[u64; 3]>,
    /// How many work-items are waiting for it after this step.
    pub waiters: u32,
    /// Where in the source the work-item acted, for the app's editor.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// One lock the run used: a location its events show being taken and given back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockReport {
    /// What the kernel calls it: `lock` for a variable, `locks[0]` for a buffer element, with
    /// the work-group for local memory.
    pub location: String,
    /// How many times a work-item took it.
    pub acquisitions: u64,
    /// Acquire attempts that found it held at least once: acquisitions that had to wait, and
    /// waits still going on when the run stopped.
    pub contended: u64,
    /// The most work-items that held it at once; more than 1 means mutual exclusion failed.
    pub max_holders: u64,
    /// Its address in the event log's terms, for views that match it against events.
    #[serde(skip)]
    pub address: Option<crate::trace::Location>,
    /// The linear index of the work-group whose local memory holds it (`None` for global
    /// memory).
    #[serde(skip)]
    pub group: Option<u32>,
    /// Its changes of state in step order, the first `crate::locks::MAX_TIMELINE` of them. The
    /// app reads it through `Session::locks`; the JSON report leaves it out so that a long run
    /// does not carry one entry per acquisition.
    #[serde(skip)]
    pub timeline: Vec<LockEvent>,
    /// How many changes of state did not fit in the timeline.
    #[serde(skip)]
    pub timeline_omitted: u64,
}

/// A load that read an older write than the latest, under the relaxed memory model.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StaleReadView {
    /// The load's step and work-item.
    pub step: u64,
    pub work_item: [u64; 3],
    /// The location as the kernel names it (`x`, `data[3]`).
    pub location: String,
    /// The value it read (register bits).
    pub value: u64,
    /// The step of the write it read; `None` for the initial contents.
    pub written_at: Option<u64>,
    /// The step of the latest write, which this work-item could not see yet.
    pub newer_at: Option<u64>,
    /// The edges that let it read the older write (see `crate::why`), in the report only, and
    /// there for a run's first `why::EXPLAINED_STALE_READS` stale reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explanation>,
}

/// What `interleave run --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub status: RunStatus,
    pub steps: u64,
    /// Hex digest of the whole event trace: equal traces have equal hashes.
    pub trace_hash: String,
    pub findings: Vec<Finding>,
    pub buffers: Vec<BufferReport>,
    pub printf: Vec<PrintfLine>,
    /// Every lock the run's events show (see `crate::locks`), always present, in the order the
    /// locks were first used.
    #[serde(default)]
    pub locks: Vec<LockReport>,
    /// For a litmus test: each thread's registers at its end, as `"THREAD:NAME": value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registers: Option<std::collections::BTreeMap<String, i64>>,
    /// For a litmus test: whether this run satisfied the final condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
    /// Under the relaxed memory model: the loads that read an older write than the latest.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stale_reads: Vec<StaleReadView>,
    /// Warnings about the source that did not stop it from running (a legacy warp vote),
    /// left out when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<SourceWarning>,
    /// Why a run that follows a schedule (`--sched manual` or lockstep with `--schedule`)
    /// stopped before it ended: the schedule ran out, or its next step names a work-item that
    /// cannot step there. Left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_stop: Option<String>,
}

/// A compiler warning in the report: what the diagnostic says, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceWarning {
    /// The diagnostic's stable code, e.g. `deprecated-warp-vote`.
    pub code: String,
    pub message: String,
    /// 1-based line and column of its primary span (0 when it has none).
    pub line: u32,
    pub column: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Report {
    /// Whether any finding is an error (the CLI then exits with status 1).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }
}
