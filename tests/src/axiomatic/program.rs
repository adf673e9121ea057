//! A litmus test as the checker sees it: locations, threads of statements, a final condition.
//!
//! Both readers ([`super::front`] for OpenCL, [`super::ptx_front`] for PTX) and the generated
//! family ([`super::family`]) build this structure; nothing here knows either text format.
//! Statements are already lowered: every memory access is a statement of its own, and
//! expressions ([`Expr`]) only combine registers and constants, so a thread's events and their
//! dependencies follow from walking its statements.

use std::collections::BTreeMap;

/// Which memory model a test is written for; it decides which orders and scopes make sense.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    OpenCl,
    Ptx,
}

/// The order an access or fence asks for. PTX's `.weak` is [`Order::Plain`], its
/// `fence.sc` is [`Order::SeqCst`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Order {
    /// A non-atomic access (OpenCL) or a weak one (PTX).
    Plain,
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl Order {
    pub fn name(self) -> &'static str {
        match self {
            Order::Plain => "plain",
            Order::Relaxed => "relaxed",
            Order::Acquire => "acquire",
            Order::Release => "release",
            Order::AcqRel => "acq_rel",
            Order::SeqCst => "seq_cst",
        }
    }

    /// The order of the read half of a read-modify-write of this order: the release part
    /// belongs to the write alone, the acquire part to the read alone.
    pub fn read_half(self) -> Order {
        match self {
            Order::AcqRel => Order::Acquire,
            Order::Release => Order::Relaxed,
            o => o,
        }
    }

    /// The order of the write half of a read-modify-write of this order.
    pub fn write_half(self) -> Order {
        match self {
            Order::AcqRel => Order::Release,
            Order::Acquire => Order::Relaxed,
            o => o,
        }
    }
}

/// A synchronisation scope: OpenCL's four and PTX's three.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    WorkItem,
    WorkGroup,
    Device,
    AllSvmDevices,
    Cta,
    Gpu,
    Sys,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::WorkItem => "work_item",
            Scope::WorkGroup => "work_group",
            Scope::Device => "device",
            Scope::AllSvmDevices => "all_svm_devices",
            Scope::Cta => "cta",
            Scope::Gpu => "gpu",
            Scope::Sys => "sys",
        }
    }
}

/// The address space of a location (PTX locations are all global).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Space {
    Global,
    Local,
    /// Neither: a litmus parameter declared without an address space. Dat3M treats such a
    /// location as generic, which no happens-before of the OpenCL model covers.
    Generic,
}

/// Fence flags: which memory a fence or barrier orders (bit set of [`Space`]s).
pub const FLAG_GLOBAL: u8 = 1;
pub const FLAG_LOCAL: u8 = 2;

/// The bit of `space` in fence flags.
pub fn flag_of(space: Space) -> u8 {
    match space {
        Space::Global => FLAG_GLOBAL,
        Space::Local => FLAG_LOCAL,
        Space::Generic => 0,
    }
}

/// A shared location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub name: String,
    pub initial: i64,
    pub space: Space,
    /// Declared with an atomic type. OpenCL orders only atomic locations by modification
    /// order; for PTX every location is "atomic" in this sense.
    pub atomic: bool,
}

/// A register of a thread (index into [`Thread::registers`]).
pub type Reg = usize;

/// A pure expression over registers and constants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Const(i64),
    Reg(Reg),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicAnd,
    LogicOr,
}

/// What a read-modify-write computes from the old value and its operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RmwOp {
    Exchange,
    Add,
    Sub,
    And,
    Or,
    Xor,
    Min,
    Max,
}

impl RmwOp {
    pub fn apply(self, old: i64, operand: i64) -> i64 {
        match self {
            RmwOp::Exchange => operand,
            RmwOp::Add => old.wrapping_add(operand),
            RmwOp::Sub => old.wrapping_sub(operand),
            RmwOp::And => old & operand,
            RmwOp::Or => old | operand,
            RmwOp::Xor => old ^ operand,
            RmwOp::Min => old.min(operand),
            RmwOp::Max => old.max(operand),
        }
    }
}

/// A statement; memory accesses name their location by index into [`Test::locations`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// `reg := value`, no memory event.
    Assign {
        reg: Reg,
        value: Expr,
    },
    Load {
        reg: Reg,
        loc: usize,
        order: Order,
        scope: Option<Scope>,
    },
    Store {
        loc: usize,
        value: Expr,
        order: Order,
        scope: Option<Scope>,
    },
    /// A read-modify-write: reads the old value into `reg` (when given) and writes
    /// `op(old, operand)`.
    Rmw {
        reg: Option<Reg>,
        loc: usize,
        op: RmwOp,
        operand: Expr,
        order: Order,
        scope: Option<Scope>,
    },
    /// A compare-exchange: reads the old value; when it equals `expected`, writes `desired`
    /// (with order `success`), otherwise only reads (with order `failure`). `old` receives the
    /// old value (PTX's `atom.cas` destination, OpenCL's expected variable when it fails) and
    /// `result` whether it succeeded (OpenCL's return value). A weak one may also fail when the
    /// values are equal.
    Cas {
        old: Option<Reg>,
        result: Option<Reg>,
        loc: usize,
        expected: Expr,
        desired: Expr,
        success: Order,
        failure: Order,
        scope: Option<Scope>,
        weak: bool,
    },
    /// A fence; `flags` says which memory it orders (OpenCL), PTX fences order all of it.
    Fence {
        order: Order,
        scope: Option<Scope>,
        flags: u8,
    },
    /// A work-group (OpenCL) or CTA (PTX) barrier. OpenCL barriers have no id (the k-th
    /// barrier of each work-item meets the k-th of the others); PTX ones name one.
    Barrier {
        flags: u8,
        id: Option<i64>,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    /// A jump target (PTX).
    Label(String),
    /// A jump to a later label, when `when` is not 0 (always without it). Jumps go forward
    /// only: the checker runs no loops.
    Goto {
        when: Option<Expr>,
        label: String,
    },
}

/// One thread and where it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    /// Its work-group (OpenCL) or CTA (PTX).
    pub group: u32,
    /// Its device (OpenCL) or GPU (PTX).
    pub device: u32,
    /// Register names with their initial values and whether the outcome shows them (the
    /// registers a test declares; temporaries the readers make are not shown).
    pub registers: Vec<Register>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    pub name: String,
    pub initial: i64,
    pub observed: bool,
}

/// How the final condition is quantified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    Exists,
    NotExists,
    Forall,
}

/// A term of the final condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Register { thread: usize, name: String },
    Location(String),
    Const(i64),
}

/// A proposition over the final state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prop {
    True,
    And(Box<Prop>, Box<Prop>),
    Or(Box<Prop>, Box<Prop>),
    Not(Box<Prop>),
    /// `left == right`, or `left != right` when `negated`.
    Compare {
        left: Term,
        right: Term,
        negated: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub quantifier: Quantifier,
    pub prop: Prop,
}

/// A whole litmus test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    pub name: String,
    pub dialect: Dialect,
    pub locations: Vec<Location>,
    pub threads: Vec<Thread>,
    pub condition: Condition,
}

/// A final state: every observed register (as `"THREAD:NAME"`) and, when the test's outcome
/// includes memory, the final value of every location.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Outcome {
    pub registers: BTreeMap<String, i64>,
    pub locations: BTreeMap<String, i64>,
}

impl Outcome {
    /// `1:r0=1 1:r1=0 | x=1 y=1`, the form expectations print.
    pub fn show(&self) -> String {
        let regs: Vec<String> = self.registers.iter().map(|(r, v)| format!("{r}={v}")).collect();
        let locs: Vec<String> = self.locations.iter().map(|(l, v)| format!("{l}={v}")).collect();
        if locs.is_empty() {
            regs.join(" ")
        } else {
            format!("{} | {}", regs.join(" "), locs.join(" "))
        }
    }
}

impl Prop {
    /// Whether the proposition holds in `outcome`. A term the outcome does not have makes
    /// its comparison false.
    pub fn holds(&self, outcome: &Outcome) -> bool {
        match self {
            Prop::True => true,
            Prop::And(a, b) => a.holds(outcome) && b.holds(outcome),
            Prop::Or(a, b) => a.holds(outcome) || b.holds(outcome),
            Prop::Not(a) => !a.holds(outcome),
            Prop::Compare { left, right, negated } => {
                let value = |t: &Term| match t {
                    Term::Register { thread, name } => outcome.registers.get(&format!("{thread}:{name}")).copied(),
                    Term::Location(l) => outcome.locations.get(l).copied(),
                    Term::Const(c) => Some(*c),
                };
                match (value(left), value(right)) {
                    (Some(a), Some(b)) => (a == b) != *negated,
                    _ => false,
                }
            }
        }
    }

    /// Whether some comparison reads a location's final value.
    pub fn mentions_locations(&self) -> bool {
        match self {
            Prop::True => false,
            Prop::And(a, b) | Prop::Or(a, b) => a.mentions_locations() || b.mentions_locations(),
            Prop::Not(a) => a.mentions_locations(),
            Prop::Compare { left, right, .. } => matches!(left, Term::Location(_)) || matches!(right, Term::Location(_)),
        }
    }
}

impl Condition {
    /// The condition's verdict over a set of allowed outcomes: for `exists`, whether some
    /// outcome satisfies it; for `~exists`, whether none does; for `forall`, whether all do.
    pub fn verdict<'a>(&self, outcomes: impl IntoIterator<Item = &'a Outcome>) -> bool {
        let mut any = false;
        let mut all = true;
        for o in outcomes {
            let h = self.prop.holds(o);
            any |= h;
            all &= h;
        }
        match self.quantifier {
            Quantifier::Exists => any,
            Quantifier::NotExists => !any,
            Quantifier::Forall => all,
        }
    }
}

/// Evaluates a pure expression; comparisons and logical operators give 0 or 1, as in C.
pub fn eval(e: &Expr, regs: &[i64]) -> i64 {
    match e {
        Expr::Const(c) => *c,
        Expr::Reg(r) => regs[*r],
        Expr::Not(a) => i64::from(eval(a, regs) == 0),
        Expr::Binary(op, a, b) => {
            let (x, y) = (eval(a, regs), eval(b, regs));
            match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::And => x & y,
                BinOp::Or => x | y,
                BinOp::Xor => x ^ y,
                BinOp::Eq => i64::from(x == y),
                BinOp::Ne => i64::from(x != y),
                BinOp::Lt => i64::from(x < y),
                BinOp::Le => i64::from(x <= y),
                BinOp::Gt => i64::from(x > y),
                BinOp::Ge => i64::from(x >= y),
                BinOp::LogicAnd => i64::from(x != 0 && y != 0),
                BinOp::LogicOr => i64::from(x != 0 || y != 0),
            }
        }
    }
}

/// The registers an expression reads.
pub fn regs_of(e: &Expr, out: &mut Vec<Reg>) {
    match e {
        Expr::Const(_) => {}
        Expr::Reg(r) => out.push(*r),
        Expr::Not(a) => regs_of(a, out),
        Expr::Binary(_, a, b) => {
            regs_of(a, out);
            regs_of(b, out);
        }
    }
}
