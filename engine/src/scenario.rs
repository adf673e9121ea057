//! The scenario: everything that determines a run.
//!
//! Kernel source, dialect, launch geometry, arguments, scheduler, seed and memory model. The
//! same serde structure is what the CLI builds from its flags, what scenario files and share
//! links will carry, and what a worker receives, so two runs of equal scenarios are the same
//! run.

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;

/// Which kernel language the source is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dialect {
    OpenCl,
    Cuda,
    /// An OpenCL litmus test (`.litmus`): threads placed in work-groups and devices, an
    /// initial state and a final condition; see `crate::litmus`.
    Litmus,
}

/// How the next work-item to step is chosen. Every choice comes from the seeded PRNG.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SchedulerKind {
    /// Fixed order, switching to the next runnable work-item every step.
    RoundRobin,
    /// Uniformly random among the runnable work-items.
    Random,
    /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010).
    Pct,
    /// Each work-item runs until it blocks or finishes, in order, as Oclgrind does.
    RunToBlock,
    /// SIMT: the active lanes of a warp advance together.
    Lockstep,
    /// The caller names the work-item of every step (the scenario's `schedule`, then
    /// `Session::step_work_item`).
    Manual,
}

impl SchedulerKind {
    pub const ALL: [(&'static str, SchedulerKind); 6] = [
        ("round-robin", SchedulerKind::RoundRobin),
        ("random", SchedulerKind::Random),
        ("pct", SchedulerKind::Pct),
        ("run-to-block", SchedulerKind::RunToBlock),
        ("lockstep", SchedulerKind::Lockstep),
        ("manual", SchedulerKind::Manual),
    ];

    pub fn parse(text: &str) -> Option<SchedulerKind> {
        SchedulerKind::ALL.iter().find(|(name, _)| *name == text).map(|&(_, kind)| kind)
    }

    pub fn name(self) -> &'static str {
        SchedulerKind::ALL.iter().find(|(_, kind)| *kind == self).map_or("random", |(name, _)| name)
    }

    /// Whether this scheduler follows a scenario's `schedule`: the manual one, step by step,
    /// and lockstep, which takes the warp of each instruction from it (its lanes stay in
    /// lockstep, so a replay keeps the execution model it was found under).
    pub fn follows_schedule(self) -> bool {
        matches!(self, SchedulerKind::Manual | SchedulerKind::Lockstep)
    }

    /// The scheduler that replays a schedule recorded under this one: lockstep itself, every
    /// other one the manual scheduler (they differ only in how they choose).
    pub fn replayed_by(self) -> SchedulerKind {
        if self == SchedulerKind::Lockstep {
            SchedulerKind::Lockstep
        } else {
            SchedulerKind::Manual
        }
    }
}

/// Which memory model decides what a load may read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MemoryModel {
    /// One memory; every access takes effect at its step.
    Sc,
    /// Loads not ordered by happens-before may read older writes.
    Relaxed,
}

/// The NDRange: one to three dimensions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Launch {
    /// Global size per dimension (1 to 3 entries).
    pub global: Vec<u64>,
    /// Work-group size per dimension; `None` lets the engine choose (the whole range, up to
    /// 256 work-items per group).
    pub local: Option<Vec<u64>>,
    /// The global offset per dimension (`get_global_offset`); empty means zero. Global ids
    /// start at the offset.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offset: Vec<u64>,
}

/// Which work-items a scheduler may pick when not every work-group is resident.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Progress {
    /// The occupancy-bound model of real GPUs: a work-group that is not resident does not
    /// start until a resident one finishes, so a resident group that waits for a later group
    /// waits forever.
    #[default]
    OccupancyBound,
    /// Every work-item eventually runs: when the resident work-items can make no progress
    /// (all blocked or spinning), the next waiting work-group is started anyway, as if the
    /// device swapped a resident group out.
    Fair,
}

impl Progress {
    pub const ALL: [(&'static str, Progress); 2] = [("occupancy-bound", Progress::OccupancyBound), ("fair", Progress::Fair)];

    pub fn parse(text: &str) -> Option<Progress> {
        Progress::ALL.iter().find(|(name, _)| *name == text).map(|&(_, p)| p)
    }

    pub fn name(self) -> &'static str {
        Progress::ALL.iter().find(|(_, p)| *p == self).map_or("occupancy-bound", |(name, _)| name)
    }
}

/// What one scheduler step is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Granularity {
    /// One shared-memory event another work-item could observe or change the outcome of,
    /// with the private computation before it folded in. Reads of memory nothing can write
    /// (constant memory, read-only buffers) are no step of their own: they are performed,
    /// and recorded, in the work-item's own step before them, as private computation is (a
    /// read before its first step is that step).
    #[default]
    Observable,
    /// Every shared-memory event, reads of unwritable memory included: what `Observable`
    /// was before it folded those reads, kept so that files and links made with it replay
    /// the same schedules.
    Event,
    /// One source statement (or one event, when a statement has several), for teaching.
    Statement,
}

impl Granularity {
    pub const ALL: [(&'static str, Granularity); 3] =
        [("observable", Granularity::Observable), ("event", Granularity::Event), ("statement", Granularity::Statement)];

    pub fn parse(text: &str) -> Option<Granularity> {
        Granularity::ALL.iter().find(|(name, _)| *name == text).map(|&(_, g)| g)
    }

    pub fn name(self) -> &'static str {
        Granularity::ALL.iter().find(|(_, g)| *g == self).map_or("observable", |(name, _)| name)
    }

    /// What one step is, in words (the launch panel's choices and summary).
    pub fn label(self) -> &'static str {
        match self {
            Granularity::Observable => "per observable event",
            Granularity::Event => "every event",
            Granularity::Statement => "per statement",
        }
    }
}

/// The scalar element types that buffers and scalar arguments can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElemType {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Float,
    Double,
}

impl ElemType {
    pub const ALL: [ElemType; 11] = [
        ElemType::Bool,
        ElemType::Char,
        ElemType::UChar,
        ElemType::Short,
        ElemType::UShort,
        ElemType::Int,
        ElemType::UInt,
        ElemType::Long,
        ElemType::ULong,
        ElemType::Float,
        ElemType::Double,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ElemType::Bool => "bool",
            ElemType::Char => "char",
            ElemType::UChar => "uchar",
            ElemType::Short => "short",
            ElemType::UShort => "ushort",
            ElemType::Int => "int",
            ElemType::UInt => "uint",
            ElemType::Long => "long",
            ElemType::ULong => "ulong",
            ElemType::Float => "float",
            ElemType::Double => "double",
        }
    }

    pub fn parse(text: &str) -> Option<ElemType> {
        ElemType::ALL.into_iter().find(|t| t.name() == text)
    }

    pub fn size(self) -> u64 {
        match self {
            ElemType::Bool | ElemType::Char | ElemType::UChar => 1,
            ElemType::Short | ElemType::UShort => 2,
            ElemType::Int | ElemType::UInt | ElemType::Float => 4,
            ElemType::Long | ElemType::ULong | ElemType::Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, ElemType::Float | ElemType::Double)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, ElemType::Char | ElemType::Short | ElemType::Int | ElemType::Long)
    }

    /// The smallest and largest integer values of the type (for floats, those of `long`,
    /// the widest integer a float converts to).
    pub fn int_range(self) -> (i128, i128) {
        match self {
            ElemType::Bool => (0, 1),
            ElemType::Char => (i8::MIN as i128, i8::MAX as i128),
            ElemType::UChar => (0, u8::MAX as i128),
            ElemType::Short => (i16::MIN as i128, i16::MAX as i128),
            ElemType::UShort => (0, u16::MAX as i128),
            ElemType::Int => (i32::MIN as i128, i32::MAX as i128),
            ElemType::UInt => (0, u32::MAX as i128),
            ElemType::Long | ElemType::Float | ElemType::Double => (i64::MIN as i128, i64::MAX as i128),
            ElemType::ULong => (0, u64::MAX as i128),
        }
    }

    /// Reads a value of this type from the little-endian bytes at the start of `bytes` into
    /// register form (signed integers sign-extended to 64 bits, `bool` as 0 or 1).
    // Always inlined: a load, a store and every element of a buffer's report go through it,
    // and inlined where the type is known the arms fold to one.
    #[inline(always)]
    pub fn decode(self, bytes: &[u8]) -> u64 {
        // One arm per width, so that each copy has a constant length and compiles to a single
        // load rather than a call to `memcpy` (buffers of a million elements go through here).
        let raw = match self.size() {
            1 => bytes[0] as u64,
            2 => u16::from_le_bytes(fixed(bytes)) as u64,
            4 => u32::from_le_bytes(fixed(bytes)) as u64,
            _ => u64::from_le_bytes(fixed(bytes)),
        };
        match self {
            ElemType::Bool => (raw != 0) as u64,
            ElemType::Char => raw as i8 as i64 as u64,
            ElemType::Short => raw as i16 as i64 as u64,
            ElemType::Int => raw as i32 as i64 as u64,
            _ => raw,
        }
    }

    /// Writes register value `v` of this type as little-endian bytes at the start of `bytes`.
    #[inline(always)]
    pub fn encode(self, v: u64, bytes: &mut [u8]) {
        let v = if self == ElemType::Bool { (v != 0) as u64 } else { v };
        // Constant-length copies, as in `decode`.
        match self.size() {
            1 => bytes[0] = v as u8,
            2 => bytes[..2].copy_from_slice(&(v as u16).to_le_bytes()),
            4 => bytes[..4].copy_from_slice(&(v as u32).to_le_bytes()),
            _ => bytes[..8].copy_from_slice(&v.to_le_bytes()),
        }
    }
}

/// The first `N` bytes of `bytes` (which has at least `N`, or this panics as slicing would).
#[inline]
fn fixed<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[..N]);
    out
}

/// A number written in an argument spec, kept as written so that integers stay exact.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Number {
    Int(i64),
    UInt(u64),
    Float(f64),
}

impl Number {
    pub fn parse(text: &str) -> Option<Number> {
        let text = text.trim();
        if let Ok(v) = text.parse::<i64>() {
            return Some(Number::Int(v));
        }
        if let Ok(v) = text.parse::<u64>() {
            return Some(Number::UInt(v));
        }
        if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            return u64::from_str_radix(hex, 16).ok().map(Number::UInt);
        }
        let v = text.parse::<f64>().ok()?;
        v.is_finite().then_some(Number::Float(v))
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(v) => v as f64,
            Number::UInt(v) => v as f64,
            Number::Float(v) => v,
        }
    }

    /// The value as integer bits, wrapping like a C conversion (floats truncate toward zero).
    pub fn as_i64_wrapping(self) -> i64 {
        match self {
            Number::Int(v) => v,
            Number::UInt(v) => v as i64,
            Number::Float(v) => v as i64,
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(v) => write!(f, "{v}"),
            Number::UInt(v) => write!(f, "{v}"),
            Number::Float(v) => write!(f, "{v:?}"),
        }
    }
}

/// Initial contents of a global buffer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum BufferInit {
    Zeros,
    Fill {
        value: Number,
    },
    Range {
        start: Number,
        step: Number,
    },
    Values {
        values: Vec<Number>,
    },
    /// Filled from the seeded PRNG.
    Random,
    /// Never written: reading it is an `uninitialized-read`.
    Uninit,
}

/// How a kernel may access a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Access {
    ReadWrite,
    ReadOnly,
    WriteOnly,
}

/// The value bound to one kernel parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum ArgSpec {
    Buffer { elem: ElemType, len: u64, init: BufferInit, access: Access },
    Local { bytes: u64 },
    Scalar { ty: ElemType, value: Number },
    Null,
}

/// A parameter name with its value. It is stored as its `NAME=SPEC` text (the command line's
/// syntax), which scenario files and links keep readable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ArgBinding {
    pub name: String,
    pub spec: ArgSpec,
}

impl TryFrom<String> for ArgBinding {
    type Error = String;

    fn try_from(text: String) -> Result<ArgBinding, String> {
        ArgBinding::parse(&text).map_err(|d| d.message)
    }
}

impl From<ArgBinding> for String {
    fn from(binding: ArgBinding) -> String {
        binding.to_string()
    }
}

impl std::fmt::Display for ArgBinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}=", self.name)?;
        match &self.spec {
            ArgSpec::Null => write!(f, "null"),
            ArgSpec::Local { bytes } => write!(f, "local:{bytes}"),
            ArgSpec::Scalar { ty, value } => write!(f, "{}:{value}", ty.name()),
            ArgSpec::Buffer { elem, len, init, access } => {
                write!(f, "{}[{len}]", elem.name())?;
                match init {
                    BufferInit::Zeros => {}
                    BufferInit::Fill { value } => write!(f, ":fill={value}")?,
                    BufferInit::Range { start, step } => write!(f, ":range={start}:{step}")?,
                    BufferInit::Values { values } => {
                        let list: Vec<String> = values.iter().map(Number::to_string).collect();
                        write!(f, ":values={}", list.join(","))?
                    }
                    BufferInit::Random => write!(f, ":random")?,
                    BufferInit::Uninit => write!(f, ":uninit")?,
                }
                match access {
                    Access::ReadWrite => Ok(()),
                    Access::ReadOnly => write!(f, ":ro"),
                    Access::WriteOnly => write!(f, ":wo"),
                }
            }
        }
    }
}

impl ArgBinding {
    /// Parses the CLI form `NAME=SPEC`, for example `data=int[16]:range=0:1`,
    /// `out=int[4]:fill=0`, `n=int:7`, `buf=float[3]:values=1,2,3`, `tmp=local:256`,
    /// `src=float[64]:random:ro`, `p=null`.
    pub fn parse(text: &str) -> Result<ArgBinding, Diagnostic> {
        let bad = |why: String| {
            Diagnostic::error("invalid-argument", format!("invalid argument `{text}`: {why}")).with_help(
                "write NAME=TYPE[LEN][:fill=V|:range=START:STEP|:values=A,B,..|:random|:uninit][:ro|:wo], \
                     NAME=TYPE:VALUE, NAME=local:BYTES or NAME=null",
            )
        };
        let (name, spec) = text.split_once('=').ok_or_else(|| bad("expected NAME=SPEC".into()))?;
        let name = name.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad(format!("`{name}` is not a parameter name")));
        }
        let spec = parse_spec(spec.trim()).map_err(bad)?;
        Ok(ArgBinding { name: name.to_string(), spec })
    }
}

fn parse_spec(spec: &str) -> Result<ArgSpec, String> {
    if spec == "null" {
        return Ok(ArgSpec::Null);
    }
    let mut parts = spec.split(':');
    let head = parts.next().unwrap_or_default();
    if head == "local" {
        let bytes = parts.next().ok_or("`local` needs a size in bytes, e.g. local:256")?;
        let bytes = bytes.parse::<u64>().map_err(|_| format!("`{bytes}` is not a byte count"))?;
        if let Some(extra) = parts.next() {
            return Err(format!("unexpected `{extra}` after the local size"));
        }
        return Ok(ArgSpec::Local { bytes });
    }
    if let Some((ty, rest)) = head.split_once('[') {
        let elem = ElemType::parse(ty).ok_or_else(|| format!("unknown element type `{ty}`"))?;
        let len = rest.strip_suffix(']').ok_or("missing `]` after the length")?;
        let len = len.parse::<u64>().map_err(|_| format!("`{len}` is not a length"))?;
        let mut init = BufferInit::Zeros;
        let mut access = Access::ReadWrite;
        while let Some(part) = parts.next() {
            match part {
                "ro" => access = Access::ReadOnly,
                "wo" => access = Access::WriteOnly,
                "random" => init = BufferInit::Random,
                "uninit" | "noinit" => init = BufferInit::Uninit,
                "zeros" => init = BufferInit::Zeros,
                _ => {
                    let (key, value) = part.split_once('=').ok_or_else(|| format!("unknown option `{part}`"))?;
                    let number = |t: &str| Number::parse(t).ok_or_else(|| format!("`{t}` is not a number"));
                    init = match key {
                        "fill" => BufferInit::Fill { value: number(value)? },
                        "range" => {
                            let step = parts.next().unwrap_or("1");
                            BufferInit::Range { start: number(value)?, step: number(step)? }
                        }
                        "values" => BufferInit::Values { values: value.split(',').map(number).collect::<Result<_, _>>()? },
                        _ => return Err(format!("unknown option `{key}`")),
                    };
                }
            }
        }
        return Ok(ArgSpec::Buffer { elem, len, init, access });
    }
    let ty = ElemType::parse(head).ok_or_else(|| format!("unknown type `{head}`"))?;
    let value = parts.next().ok_or_else(|| format!("a scalar needs a value, e.g. {head}:7"))?;
    let value = Number::parse(value).ok_or_else(|| format!("`{value}` is not a number"))?;
    Ok(ArgSpec::Scalar { ty, value })
}

fn default_instructions_per_step() -> u64 {
    crate::limits::INSTRUCTIONS_PER_STEP.default
}

fn default_true() -> bool {
    true
}

fn default_pct_depth() -> u32 {
    3
}

fn default_warp_size() -> u32 {
    32
}

fn default_heap_bytes() -> u64 {
    8 << 20
}

/// Everything that determines a run. Equal scenarios give equal traces. Missing fields take
/// the defaults of [`Scenario::new`], so a scenario file names only what it changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    /// A short name for people (the examples gallery shows it); no effect on the run.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// What the scenario shows, in a sentence or two, for people (the gallery's card); no
    /// effect on the run.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The lesson the scenario teaches, for people (the gallery's card); no effect on the run.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub lesson: String,
    /// The kernel source text.
    pub source: String,
    /// In a scenario file, the kernel's file instead of an inline `source`, relative to the
    /// scenario file; [`from_toml`] reports it and the caller reads it. Never serialised:
    /// a scenario that is passed on carries its source.
    #[serde(skip_serializing)]
    pub source_file: Option<String>,
    /// The name diagnostics use for the source (a file name, or `kernel.cl` in the app).
    pub file_name: String,
    pub dialect: Dialect,
    /// Which kernel to launch; `None` when the source has exactly one.
    pub kernel: Option<String>,
    /// Preprocessor definitions, `NAME` or `NAME=VALUE`, as given with `-D`.
    #[serde(default)]
    pub defines: Vec<String>,
    pub launch: Launch,
    pub args: Vec<ArgBinding>,
    pub scheduler: SchedulerKind,
    pub seed: u64,
    /// The run stops with a `step-limit` finding after this many steps
    /// ([`crate::limits::STEPS`]).
    pub max_steps: u64,
    /// A work-item may run this many instructions between two shared-memory events before the
    /// run stops with a `step-limit` finding (an endless private loop).
    #[serde(default = "default_instructions_per_step")]
    pub max_instructions_per_step: u64,
    /// Work-items per warp (CUDA) or sub-group (OpenCL).
    #[serde(default = "default_warp_size")]
    pub warp_size: u32,
    /// Bytes of the heap that device `malloc` allocates from.
    #[serde(default = "default_heap_bytes")]
    pub heap_bytes: u64,
    pub memory_model: MemoryModel,
    /// Elements of the buffer given to a pointer parameter that has no argument; `None` means
    /// 4 x the number of work-items, at least 1024.
    pub default_buffer_elements: Option<u64>,
    /// The buffers the report lists, by parameter name; empty for all of them.
    #[serde(default)]
    pub report_buffers: Vec<String>,
    /// How many work-groups may be resident (started and not finished) at once; `None` for
    /// all of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_resident_groups: Option<u32>,
    /// What happens to work-groups that are not resident.
    pub progress: Progress,
    /// The depth of the PCT scheduler: the bug depth it targets (it makes `depth - 1`
    /// priority changes).
    #[serde(default = "default_pct_depth")]
    pub pct_depth: u32,
    /// What one step is.
    pub granularity: Granularity,
    /// For the manual scheduler: the work-item (linear index) of each step, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub schedule: Vec<u32>,
    /// The decision of each step that had several options, in order: which write a relaxed
    /// load reads (0 is the latest, 1 the one before, ...) and whether a weak
    /// compare-exchange fails spuriously (1). Later decisions come from the seed. With a
    /// manual `schedule`, this replays an execution the exhaustive explorer found.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<u32>,
    /// Whether to look for data races (they cost time and memory; off, none are reported).
    #[serde(default = "default_true")]
    pub race_detection: bool,
    /// The most work-items the launch may have (see [`crate::limits::WORK_ITEMS`]). Like the
    /// other limits below, left out of a file or link when it has its default.
    #[serde(default = "default_max_work_items", skip_serializing_if = "is_default_max_work_items")]
    pub max_work_items: u64,
    /// The most bytes of memory the launch may allocate ([`crate::limits::MEMORY_BYTES`]).
    #[serde(default = "default_max_memory_bytes", skip_serializing_if = "is_default_max_memory_bytes")]
    pub max_memory_bytes: u64,
    /// The most bytes of printf output the run keeps ([`crate::limits::PRINTF_BYTES`]).
    #[serde(default = "default_max_printf_bytes", skip_serializing_if = "is_default_max_printf_bytes")]
    pub max_printf_bytes: u64,
    /// The most events the run's history keeps ([`crate::limits::HISTORY_EVENTS`]).
    #[serde(default = "default_max_history_events", skip_serializing_if = "is_default_max_history_events")]
    pub max_history_events: u64,
}

fn default_max_work_items() -> u64 {
    crate::limits::WORK_ITEMS.default
}

fn is_default_max_work_items(value: &u64) -> bool {
    *value == crate::limits::WORK_ITEMS.default
}

fn default_max_memory_bytes() -> u64 {
    crate::limits::MEMORY_BYTES.default
}

fn is_default_max_memory_bytes(value: &u64) -> bool {
    *value == crate::limits::MEMORY_BYTES.default
}

fn default_max_printf_bytes() -> u64 {
    crate::limits::PRINTF_BYTES.default
}

fn is_default_max_printf_bytes(value: &u64) -> bool {
    *value == crate::limits::PRINTF_BYTES.default
}

fn default_max_history_events() -> u64 {
    crate::limits::HISTORY_EVENTS.default
}

fn is_default_max_history_events(value: &u64) -> bool {
    *value == crate::limits::HISTORY_EVENTS.default
}

impl Default for Scenario {
    fn default() -> Scenario {
        Scenario::new("", "kernel.cl", Dialect::OpenCl)
    }
}

impl Scenario {
    /// A scenario with the defaults the CLI and the app start from.
    pub fn new(source: impl Into<String>, file_name: impl Into<String>, dialect: Dialect) -> Scenario {
        Scenario {
            title: String::new(),
            description: String::new(),
            lesson: String::new(),
            source_file: None,
            source: source.into(),
            file_name: file_name.into(),
            dialect,
            kernel: None,
            defines: Vec::new(),
            launch: Launch { global: vec![1], local: None, offset: Vec::new() },
            args: Vec::new(),
            scheduler: SchedulerKind::Random,
            seed: 0,
            max_steps: crate::limits::STEPS.default,
            max_instructions_per_step: default_instructions_per_step(),
            warp_size: default_warp_size(),
            heap_bytes: default_heap_bytes(),
            memory_model: MemoryModel::Sc,
            default_buffer_elements: None,
            report_buffers: Vec::new(),
            max_resident_groups: None,
            progress: Progress::OccupancyBound,
            pct_depth: default_pct_depth(),
            granularity: Granularity::Observable,
            schedule: Vec::new(),
            choices: Vec::new(),
            race_detection: true,
            max_work_items: default_max_work_items(),
            max_memory_bytes: default_max_memory_bytes(),
            max_printf_bytes: default_max_printf_bytes(),
            max_history_events: default_max_history_events(),
        }
    }

    /// The command-line options that replay `schedule` with `choices` under this scenario's
    /// replaying scheduler: `--sched manual --schedule 0,1,1 --choices 1`.
    pub fn replay_options(&self, schedule: &[u32], choices: &[u32]) -> String {
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let choices = if choices.is_empty() { String::new() } else { format!(" --choices {}", list(choices)) };
        format!("--sched {} --schedule {}{choices}", self.scheduler.replayed_by().name(), list(schedule))
    }

    /// This scenario replaying `schedule` with `choices` (as an exploration or a shrink
    /// reports them), under the scheduler that follows it ([`SchedulerKind::replayed_by`]).
    pub fn replaying(&self, schedule: &[u32], choices: &[u32]) -> Scenario {
        let mut replay = self.clone();
        replay.scheduler = self.scheduler.replayed_by();
        replay.schedule = schedule.to_vec();
        replay.choices = choices.to_vec();
        replay
    }
}

/// The warp (sub-group) sizes the engine simulates.
pub const WARP_SIZES: std::ops::RangeInclusive<u32> = 1..=64;

/// The PCT depths the scheduler honours (it draws `depth - 1` priority change points).
pub const PCT_DEPTHS: std::ops::RangeInclusive<u32> = 1..=64;

/// Checks a warp (sub-group) size: one of [`WARP_SIZES`]. Part of [`Scenario::check`], and
/// what the app's launch panel says beside the field.
pub fn check_warp_size(warp_size: u32) -> Result<(), Diagnostic> {
    if WARP_SIZES.contains(&warp_size) {
        return Ok(());
    }
    Err(Diagnostic::error("invalid-option", format!("a warp of {warp_size} work-items is not supported")).with_help(format!(
        "choose a warp size (`--warp-size`, `warp_size`) from {} to {}",
        WARP_SIZES.start(),
        WARP_SIZES.end()
    )))
}

/// Checks a PCT depth: one of [`PCT_DEPTHS`]. Part of [`Scenario::check`].
pub fn check_pct_depth(depth: u32) -> Result<(), Diagnostic> {
    if PCT_DEPTHS.contains(&depth) {
        return Ok(());
    }
    Err(Diagnostic::error("invalid-option", format!("a PCT depth of {depth} is not supported")).with_help(format!(
        "choose a depth (`--pct-depth`, `pct_depth`) from {} to {}",
        PCT_DEPTHS.start(),
        PCT_DEPTHS.end()
    )))
}

/// Checks the number of resident work-groups (`None`: all of them). Part of
/// [`Scenario::check`].
pub fn check_resident_groups(groups: Option<u32>) -> Result<(), Diagnostic> {
    if groups != Some(0) {
        return Ok(());
    }
    Err(Diagnostic::error("invalid-option", "at least one work-group must be resident")
        .with_help("leave the resident groups (`--resident-groups`, `max_resident_groups`) out to make every work-group resident"))
}

/// Reads a list of one to three whole numbers separated by commas, `x` or blank space
/// (`8`, `8,2`, `4x4x2`, `8 2 1`): the one syntax of NDRange, grid, block and offset sizes,
/// read the same way by the CLI's flags and the app's launch panel. Zeros are read (an offset
/// may be 0); [`parse_sizes`] refuses them for sizes.
pub fn parse_dims(text: &str) -> Result<Vec<u64>, String> {
    let parts: Vec<&str> = text.split(|c: char| c == ',' || c == 'x' || c.is_whitespace()).filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        return Err("enter a size, e.g. 8 or 8,2".into());
    }
    if parts.len() > 3 {
        return Err("at most three dimensions".into());
    }
    parts.iter().map(|part| part.parse::<u64>().map_err(|_| format!("`{part}` is not a whole number"))).collect()
}

/// Reads sizes ([`parse_dims`]) that are all at least 1, as a global, local, grid or block
/// size must be.
pub fn parse_sizes(text: &str) -> Result<Vec<u64>, String> {
    let sizes = parse_dims(text)?;
    if sizes.contains(&0) {
        return Err("sizes must be at least 1".into());
    }
    Ok(sizes)
}

/// The settings a litmus test makes itself, by scenario field: it places its threads in
/// work-groups (the launch), names its kernel and gives each location its buffer (the
/// arguments), so a scenario of a litmus test leaves them at their defaults.
pub const LITMUS_PLACES: [&str; 4] = ["kernel", "launch", "args", "default_buffer_elements"];

/// The diagnostic for `given` (a flag, or a scenario field) set on a litmus test, which makes
/// that setting itself ([`LITMUS_PLACES`]).
pub fn refused_for_litmus(given: &str) -> Diagnostic {
    Diagnostic::error(
        "invalid-option",
        format!("{given} cannot be used with a litmus test: the test places its threads in work-groups and gives each location its buffer itself"),
    )
    .with_help("leave it out; a test's thread headers (`P0@wg 0, dev 0`) and initial state say where its threads run and what its locations hold")
}

impl Scenario {
    /// Checks every limit the scenario sets ([`crate::limits`]); each value out of range is
    /// one diagnostic.
    pub fn check_limits(&self) -> Result<(), Vec<Diagnostic>> {
        use crate::limits::{HISTORY_EVENTS, INSTRUCTIONS_PER_STEP, MEMORY_BYTES, PRINTF_BYTES, STEPS, WORK_ITEMS};
        let values = [
            (STEPS, self.max_steps),
            (INSTRUCTIONS_PER_STEP, self.max_instructions_per_step),
            (WORK_ITEMS, self.max_work_items),
            (MEMORY_BYTES, self.max_memory_bytes),
            (PRINTF_BYTES, self.max_printf_bytes),
            (HISTORY_EVENTS, self.max_history_events),
        ];
        let errors: Vec<Diagnostic> = values.iter().filter_map(|(limit, value)| limit.check(*value).err()).collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// Checks every setting the engine must honour as given: limits within their ranges
    /// ([`Scenario::check_limits`]), a warp size and PCT depth it simulates, at least one
    /// resident group, a `schedule` only for the manual scheduler (no other follows it), no
    /// global offset for CUDA (which has none), and for a litmus test none of the settings
    /// the test makes itself. A value out of range is
    /// refused, never clamped; each problem is one diagnostic.
    pub fn check(&self) -> Result<(), Vec<Diagnostic>> {
        let mut errors = self.check_limits().err().unwrap_or_default();
        let invalid = |message: String, help: &str| Diagnostic::error("invalid-option", message).with_help(help);
        errors.extend(check_warp_size(self.warp_size).err());
        errors.extend(check_pct_depth(self.pct_depth).err());
        errors.extend(check_resident_groups(self.max_resident_groups).err());
        if !self.schedule.is_empty() && !self.scheduler.follows_schedule() {
            errors.push(invalid(
                format!("a schedule is followed only by the manual and lockstep schedulers, and this scenario uses `{}`", self.scheduler.name()),
                "choose the manual scheduler (`--sched manual`, `scheduler = \"manual\"`), or lockstep to keep warps together, or leave the schedule out",
            ));
        }
        if self.dialect == Dialect::Cuda && self.launch.offset.iter().any(|&o| o != 0) {
            errors.push(invalid(
                "CUDA has no global offset: block and thread indices always start at 0".into(),
                "leave the offset (`--offset`, `launch.offset`) out, or add it to the index in the kernel",
            ));
        }
        if self.dialect == Dialect::Litmus {
            let plain = Scenario::new("", "", Dialect::Litmus);
            let set = [
                self.kernel != plain.kernel,
                self.launch != plain.launch,
                self.args != plain.args,
                self.default_buffer_elements != plain.default_buffer_elements,
            ];
            for (field, set) in LITMUS_PLACES.iter().zip(set) {
                if set {
                    errors.push(refused_for_litmus(&format!("`{field}`")));
                }
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }
}

/// Reads a scenario file (TOML, the serialised [`Scenario`]; every field optional). When it
/// names a `source_file`, `read_source` is asked for that file's text (a path relative to the
/// scenario file); it answers with the text and the name diagnostics should use for it.
/// Without a `dialect`, a `.cu` source file means CUDA.
pub fn from_toml(text: &str, read_source: impl FnOnce(&str) -> Result<(String, String), Diagnostic>) -> Result<Scenario, Diagnostic> {
    let mut scenario: Scenario = toml::from_str(text).map_err(|e| {
        let d = Diagnostic::error("invalid-input", format!("invalid scenario file: {}", e.message().trim_end()));
        match e.span() {
            Some(r) => d.with_span(crate::diag::Span::new(r.start as u32, r.end as u32), "here"),
            None => d,
        }
    })?;
    if let Some(file) = scenario.source_file.take() {
        if !scenario.source.is_empty() {
            return Err(Diagnostic::error("invalid-input", "a scenario file gives either `source` or `source_file`, not both"));
        }
        let (source, name) = read_source(&file)?;
        scenario.source = source;
        if scenario.file_name == Scenario::default().file_name {
            scenario.file_name = name;
        }
        let dialect_given = toml::from_str::<DialectGiven>(text).is_ok_and(|given| given.dialect.is_some());
        if !dialect_given && file.ends_with(".cu") {
            scenario.dialect = Dialect::Cuda;
        }
    }
    Ok(scenario)
}

/// Whether a scenario file names its `dialect`, whatever the value. A struct of one field
/// rather than a `toml::Table`: reading a whole table would bring TOML's generic value and
/// date types into the page's wasm for this one question.
#[derive(Deserialize)]
struct DialectGiven {
    dialect: Option<serde::de::IgnoredAny>,
}

/// Writes `scenario` as a scenario file with its source inline, which [`from_toml`] reads back
/// to an equal scenario. TOML integers are signed 64-bit, so a seed or count above
/// `i64::MAX` cannot be written; that is an error rather than a different number.
pub fn to_toml(scenario: &Scenario) -> Result<String, Diagnostic> {
    toml::to_string(scenario).map_err(|e| Diagnostic::error("invalid-input", format!("this scenario cannot be written as TOML: {}", e.to_string().trim_end())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_one_to_three_whole_numbers_in_one_syntax() {
        assert_eq!(parse_sizes("8"), Ok(vec![8]));
        assert_eq!(parse_sizes(" 8, 2 "), Ok(vec![8, 2]));
        assert_eq!(parse_sizes("4x4x2"), Ok(vec![4, 4, 2]));
        assert_eq!(parse_sizes("8 2 1"), Ok(vec![8, 2, 1]));
        for bad in ["0", "abc", "", "1,1,1,1", "-1"] {
            assert!(parse_sizes(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_dims("0, 4"), Ok(vec![0, 4]));
    }

    #[test]
    fn each_setting_check_is_part_of_the_scenario_check() {
        let mut scenario = Scenario { warp_size: 65, pct_depth: 0, max_resident_groups: Some(0), ..Scenario::default() };
        let errors = scenario.check().unwrap_err();
        let expected: Vec<Diagnostic> = [check_warp_size(65), check_pct_depth(0), check_resident_groups(Some(0))].into_iter().filter_map(Result::err).collect();
        assert_eq!(errors.len(), 3);
        assert!(expected.iter().all(|d| errors.iter().any(|e| e.message == d.message)));
        scenario.warp_size = *WARP_SIZES.end();
        scenario.pct_depth = *PCT_DEPTHS.start();
        scenario.max_resident_groups = None;
        assert!(scenario.check().is_ok());
    }

    #[test]
    fn a_cu_source_file_means_cuda_unless_the_file_names_a_dialect() {
        let read = |_: &str| Ok(("__global__ void k(int *p) { p[0] = 1; }\n".to_string(), "k.cu".to_string()));
        let dialect = |text: &str| from_toml(text, read).map(|s| s.dialect).map_err(|d| d.message);
        assert_eq!(dialect("source_file = \"k.cu\"\n"), Ok(Dialect::Cuda));
        assert_eq!(dialect("source_file = \"k.cu\"\ndialect = \"opencl\"\n"), Ok(Dialect::OpenCl));
        assert_eq!(dialect("dialect = \"cuda\"\nsource_file = \"k.cl\"\n"), Ok(Dialect::Cuda));
        assert_eq!(dialect("source_file = \"k.cl\"\n"), Ok(Dialect::OpenCl));
    }

    #[test]
    fn arg_specs_from_the_cli_contract_parse() {
        let parse = |t: &str| ArgBinding::parse(t).map(|b| b.spec).map_err(|d| d.message);
        assert_eq!(
            parse("data=int[16]:range=0:1"),
            Ok(ArgSpec::Buffer {
                elem: ElemType::Int,
                len: 16,
                init: BufferInit::Range { start: Number::Int(0), step: Number::Int(1) },
                access: Access::ReadWrite
            })
        );
        assert_eq!(parse("n=int:7"), Ok(ArgSpec::Scalar { ty: ElemType::Int, value: Number::Int(7) }));
        assert_eq!(parse("tmp=local:256"), Ok(ArgSpec::Local { bytes: 256 }));
        assert!(matches!(parse("buf=float[3]:values=1,2.5,3:ro"), Ok(ArgSpec::Buffer { init: BufferInit::Values { .. }, access: Access::ReadOnly, .. })));
        assert!(parse("x=quux[3]").unwrap_err().contains("unknown element type `quux`"));
        // The text form round-trips through the parser.
        for text in [
            "d=int[16]:range=0:1:ro",
            "o=float[4]:values=1.5,-2,3:wo",
            "n=ulong:7",
            "t=local:256",
            "p=null",
            "r=char[8]:random",
            "u=int[2]:uninit",
            "f=double[3]:fill=0.25",
        ] {
            let binding = ArgBinding::parse(text).unwrap();
            assert_eq!(ArgBinding::parse(&binding.to_string()), Ok(binding), "{text}");
        }
        assert!(parse("=int:1").is_err());
        assert!(parse("n=int").is_err());
    }
}
