//! Findings and the run report: the `interleave run --json` contract.
//!
//! Field names and kind strings here are a public interface (other tools parse them), so they
//! change only by addition.

use serde::{Deserialize, Serialize};

use crate::diag::{Severity, Span};

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
    AssertionFailed,
    LockMisuse,
    InvalidMemoryOrder,
    ScopeMismatch,
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
            FindingKind::AssertionFailed => "assertion-failed",
            FindingKind::LockMisuse => "lock-misuse",
            FindingKind::InvalidMemoryOrder => "invalid-memory-order",
            FindingKind::ScopeMismatch => "scope-mismatch",
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
    /// For a data race: every racing write stored the value already there (a warning).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub benign: bool,
    /// For a data race: on how many 4-byte words it was seen.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub addresses: Option<u64>,
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
}

impl Report {
    /// Whether any finding is an error (the CLI then exits with status 1).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }
}
