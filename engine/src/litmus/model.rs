//! The litmus test as the engine holds it, whichever dialect it was read from: its
//! locations, threads, registers and final condition, the kernel that runs it, and where
//! its threads are placed in the launch.

use std::collections::BTreeMap;

use crate::diag::Span;
use crate::scenario::ElemType;

use super::dialect;

/// A parsed litmus test and the kernel that runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusTest {
    pub name: String,
    /// In initial-state order, then every location a thread declares as a parameter that the
    /// initial state did not list (initial value 0).
    pub locations: Vec<LitmusLocation>,
    /// In file order, which is also numbering order (`P0`, `P1`, ...).
    pub threads: Vec<LitmusThread>,
    /// Every register, in thread order then declaration order; a register's slot (the first
    /// argument of its `__interleave_observe` call) is its index here.
    pub registers: Vec<LitmusRegister>,
    pub condition: LitmusCondition,
    /// OpenCL C source that runs the test (see the module documentation).
    pub kernel_source: String,
    /// Where the test's own text sits in `kernel_source`: (offset there, offset in the
    /// test, length), for each thread's parameters and body.
    pub segments: Vec<(u32, u32, u32)>,
    /// Work-items per work-group of the launch, and the number of work-groups.
    pub local_size: u64,
    pub groups: u64,
    /// The device of each work-group (index = linear work-group id).
    pub group_device: Vec<u32>,
    /// The thread each work-item runs (index = linear global id), or `None` for padding
    /// work-items.
    pub work_item_thread: Vec<Option<usize>>,
    pub dialect: LitmusDialect,
    /// A PTX test's instructions, which lower to the IR directly (`kernel_source` is empty).
    pub ptx: Option<std::rc::Rc<super::ptx::PtxCode>>,
}

/// Where a test's threads run: work-groups are the distinct (device, work-group) pairs in
/// that order, a pair's threads taking local ids in file order, and every group as large as
/// the largest (the others padded with work-items that run no thread).
pub(crate) struct Placement {
    pub local_size: u64,
    pub groups: u64,
    pub group_device: Vec<u32>,
    pub work_item_thread: Vec<Option<usize>>,
    /// Each thread's (group, local id).
    pub of_thread: Vec<(usize, usize)>,
}

/// The placement of threads that run in the given (work-group, device) pairs.
pub(crate) fn place(threads: &[(u32, u32)]) -> Placement {
    let mut pairs: BTreeMap<(u32, u32), Vec<usize>> = BTreeMap::new();
    for (t, &(group, device)) in threads.iter().enumerate() {
        pairs.entry((device, group)).or_default().push(t);
    }
    let local_size = pairs.values().map(Vec::len).max().unwrap_or(1);
    let mut of_thread = vec![(0usize, 0usize); threads.len()];
    let mut work_item_thread = vec![None; pairs.len() * local_size];
    let mut group_device = Vec::with_capacity(pairs.len());
    for (g, ((device, _), members)) in pairs.iter().enumerate() {
        group_device.push(*device);
        for (l, &t) in members.iter().enumerate() {
            of_thread[t] = (g, l);
            work_item_thread[g * local_size + l] = Some(t);
        }
    }
    Placement { local_size: local_size as u64, groups: pairs.len() as u64, group_device, work_item_thread, of_thread }
}

/// Which memory a location lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitmusSpace {
    Global,
    Local,
}

/// A shared location: a kernel parameter of `__litmus`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusLocation {
    pub name: String,
    pub initial: i64,
    pub space: LitmusSpace,
    /// The element type of the first thread parameter that declares it (`atomic_int` and
    /// `int` are both [`ElemType::Int`]); `Int` when no thread declares it.
    pub elem: ElemType,
    /// The name in the initial state, or in the first parameter list that declares it.
    pub span: Span,
}

/// One thread (`P0@wg 0, dev 0 (...) { ... }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusThread {
    /// `P0`, `P1`, ...
    pub name: String,
    pub work_group: u32,
    pub device: u32,
    /// The header `P0@wg 0, dev 0`.
    pub span: Span,
    /// The parameter list, parentheses included.
    pub params: Span,
    /// The body between its braces (braces excluded).
    pub body: Span,
}

/// A register: an integer variable declared at the top level of a thread's body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusRegister {
    /// Index into [`LitmusTest::threads`].
    pub thread: usize,
    pub name: String,
    /// The name in its declaration.
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitmusQuantifier {
    Exists,
    NotExists,
    Forall,
}

/// The final condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitmusCondition {
    pub quantifier: LitmusQuantifier,
    pub expr: CondExpr,
    /// From the quantifier to the end of the expression.
    pub span: Span,
}

/// A proposition over the final state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CondExpr {
    True,
    And(Box<CondExpr>, Box<CondExpr>),
    Or(Box<CondExpr>, Box<CondExpr>),
    Not(Box<CondExpr>),
    /// `term=value`, or `term!=value` when `negated`.
    Eq {
        term: Term,
        value: i64,
        negated: bool,
        span: Span,
    },
    /// Any other comparison: two terms (`P0:r1 == P0:r2`), or an order (`x >= 2`).
    Compare {
        left: Operand,
        relation: Relation,
        right: Operand,
        span: Span,
    },
}

/// One side of a [`CondExpr::Compare`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    Term(Term),
    Value(i64),
}

/// How the two sides of a [`CondExpr::Compare`] compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// What an atom of the condition reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    /// `thread` is an index into [`LitmusTest::threads`].
    Register {
        thread: usize,
        name: String,
    },
    Location {
        name: String,
    },
}

impl LitmusTest {
    /// The span in the test's text of a span in `kernel_source`: exact inside a thread's own
    /// text (which the translation copies, usually to the same offset); generated text maps to
    /// the end of the thread before it.
    pub fn source_span(&self, span: Span) -> Span {
        let map = |offset: u32| -> u32 {
            let mut best = 0;
            for &(out, text, len) in &self.segments {
                if offset >= out && offset <= out + len {
                    return text + (offset - out);
                }
                if offset > out + len {
                    best = text + len;
                }
            }
            best
        };
        let start = map(span.start);
        Span::new(start, map(span.end).max(start))
    }

    /// Whether the translation kept every thread at its offset (then spans need no mapping).
    pub fn offsets_kept(&self) -> bool {
        self.segments.iter().all(|&(out, text, _)| out == text)
    }

    /// The observation slot of register `name` of thread `thread`.
    pub fn register_slot(&self, thread: usize, name: &str) -> Option<u32> {
        let index = self.registers.iter().position(|r| r.thread == thread && r.name == name)?;
        u32::try_from(index).ok()
    }

    /// Whether `text` looks like a litmus test of either dialect (see [`dialect`]).
    pub fn is_litmus(text: &str) -> bool {
        dialect(text).is_some()
    }
}

/// The dialects a litmus test is written in; the first word of the test says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LitmusDialect {
    /// `OPENCL <name>`: threads are OpenCL C functions, under the OpenCL 2.0 model.
    OpenCl,
    /// `PTX <name>`: a table of PTX instructions, under the PTX model (see [`super::ptx`]).
    Ptx,
}
