//! The generated families of small litmus tests, one in OpenCL and one in PTX, each test as
//! litmus text (what the engine reads) and as a [`Test`] (what the checker reads).
//!
//! **Shapes.** A thread is one or two accesses, each a load or a store of `x` or `y`: 20
//! thread shapes. A test shape is two or three thread shapes. Shapes equal up to the order
//! of their threads or to swapping `x` and `y` are generated once, and only shapes in which
//! some location is stored by one thread and accessed by another are kept (the others show
//! nothing about the memory model). Every such shape is in both families.
//!
//! **Variants.** Each shape comes in a fixed number of variants. In each, every access gets
//! an order, equally likely: plain, relaxed, acquire for a load or release for a store, or
//! seq_cst under OpenCL; `.weak`, `.relaxed`, or `.acquire` or `.release` under PTX, which
//! has no seq_cst access. Every thread of two accesses gets, one time in three, a fence
//! between them: `atomic_work_item_fence` on global memory, acquire, release, acq_rel or
//! seq_cst, under OpenCL; `fence.acq_rel` or `fence.sc` under PTX. Every atomic and fence
//! gets a scope: under OpenCL work-group scope for all of them in a third of the variants,
//! device scope for all in another third, and in the last third work-group or device scope
//! for each on its own; under PTX `.cta`, `.gpu` or `.sys` for all in a quarter each, and
//! any of the three for each in the last quarter.
//! These draws come from a splitmix64 stream seeded by the shape's number and the variant's,
//! so a family is the same on every run. The placement does not depend on the draws. Under
//! OpenCL two threads share one work-group in even variants and sit in two in odd ones;
//! three threads go through all in one group, `P0 P1 | P2`, `P0 | P1 P2` and `P0 P2 | P1`,
//! in turn. Under PTX two threads go through one CTA, two CTAs of one GPU and two GPUs in
//! turn (the system scope differs from the GPU scope only across GPUs); three threads through
//! the four placements above in CTAs of one GPU, then three CTAs with the third on a second
//! GPU.
//!
//! Under OpenCL a location is declared `atomic_int` when some access to it is atomic, `int`
//! otherwise. The k-th store to a location writes k, and a thread's loads go to `r0`, `r1`.
//! The outcome of a test is its registers and the final values of `x` and `y` (its condition
//! names both).

use super::program::{Condition, Dialect, Expr, Location, Order, Prop, Quantifier, Register, Scope, Space, Stmt, Term, Test, Thread, FLAG_GLOBAL, FLAG_LOCAL};

/// An access of a shape: a load (`false`) or store (`true`) of location 0 (`x`) or 1 (`y`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Access {
    pub store: bool,
    pub loc: usize,
}

/// A test shape: each thread's accesses.
pub type Shape = Vec<Vec<Access>>;

/// A generated test.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    /// The litmus text the engine reads.
    pub text: String,
    /// The same test, built directly.
    pub test: Test,
}

/// How many variants each shape gets.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub two_threads: usize,
    pub three_threads: usize,
}

fn thread_shapes() -> Vec<Vec<Access>> {
    let accesses: Vec<Access> = [false, true].iter().flat_map(|&store| (0..2).map(move |loc| Access { store, loc })).collect();
    let mut out: Vec<Vec<Access>> = accesses.iter().map(|&a| vec![a]).collect();
    for &a in &accesses {
        for &b in &accesses {
            out.push(vec![a, b]);
        }
    }
    out
}

/// The canonical form of a shape: threads sorted, under whichever naming of the locations
/// gives the smaller form.
fn canonical(shape: &Shape) -> Shape {
    let swap = |s: &Shape| -> Shape { s.iter().map(|t| t.iter().map(|a| Access { store: a.store, loc: 1 - a.loc }).collect()).collect() };
    let sorted = |mut s: Shape| {
        s.sort();
        s
    };
    let a = sorted(shape.clone());
    let b = sorted(swap(shape));
    a.min(b)
}

/// Whether some location is stored by one thread and accessed by another.
fn communicates(shape: &Shape) -> bool {
    shape.iter().enumerate().any(|(i, t)| t.iter().any(|a| a.store && shape.iter().enumerate().any(|(j, u)| j != i && u.iter().any(|b| b.loc == a.loc))))
}

/// Every shape of the family, two-thread ones first, each in canonical form, in a fixed order.
pub fn shapes() -> Vec<Shape> {
    let ts = thread_shapes();
    let mut out: Vec<Shape> = Vec::new();
    for threads in [2, 3] {
        let mut found: Vec<Shape> = Vec::new();
        let mut index = vec![0usize; threads];
        loop {
            // Non-decreasing indices give each multiset of thread shapes once.
            if index.windows(2).all(|w| w[0] <= w[1]) {
                let shape: Shape = index.iter().map(|&i| ts[i].clone()).collect();
                let c = canonical(&shape);
                if communicates(&c) && !found.contains(&c) {
                    found.push(c);
                }
            }
            let mut k = 0;
            loop {
                if k == threads {
                    break;
                }
                index[k] += 1;
                if index[k] < ts.len() {
                    break;
                }
                index[k] = 0;
                k += 1;
            }
            if k == threads {
                break;
            }
        }
        found.sort();
        out.extend(found);
    }
    out
}

/// A splitmix64 stream.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One access or fence of a generated thread.
#[derive(Clone, Copy, Debug)]
enum Op {
    Access { access: Access, order: Order, scope: Option<Scope> },
    Fence { order: Order, scope: Scope },
}

const LOCS: [&str; 2] = ["x", "y"];

fn order_letter(o: Order) -> char {
    match o {
        Order::Plain => 'p',
        Order::Relaxed => 'r',
        Order::Acquire => 'a',
        Order::Release => 'l',
        Order::AcqRel => 'q',
        Order::SeqCst => 's',
    }
}

/// The orders, scopes and placement of the variant `variant` of shape number `number`, drawn
/// for `dialect`: each thread's operations and each thread's (work-group or CTA, device or
/// GPU).
fn draw(dialect: Dialect, number: usize, shape: &Shape, variant: usize) -> (Vec<Vec<Op>>, Vec<(u32, u32)>) {
    let mut rng = Stream((number as u64) << 16 | variant as u64);
    // One scope for the whole test, or each its own.
    let scopes: &[Scope] = match dialect {
        Dialect::OpenCl => match rng.below(3) {
            0 => &[Scope::WorkGroup],
            1 => &[Scope::Device],
            _ => &[Scope::WorkGroup, Scope::Device],
        },
        Dialect::Ptx => match rng.below(4) {
            0 => &[Scope::Cta],
            1 => &[Scope::Gpu],
            2 => &[Scope::Sys],
            _ => &[Scope::Cta, Scope::Gpu, Scope::Sys],
        },
    };
    let scope = |rng: &mut Stream| scopes[rng.below(scopes.len() as u64) as usize];
    let threads: Vec<Vec<Op>> = shape
        .iter()
        .map(|accesses| {
            let mut ops = Vec::new();
            for (k, &access) in accesses.iter().enumerate() {
                if k == 1 && rng.below(3) == 0 {
                    let order = match dialect {
                        Dialect::OpenCl => [Order::Acquire, Order::Release, Order::AcqRel, Order::SeqCst][rng.below(4) as usize],
                        // PTX has `fence.acq_rel` and `fence.sc`.
                        Dialect::Ptx => [Order::AcqRel, Order::SeqCst][rng.below(2) as usize],
                    };
                    ops.push(Op::Fence { order, scope: scope(&mut rng) });
                }
                // PTX has no seq_cst access: its orders are weak, relaxed, and acquire or
                // release.
                let choices = match dialect {
                    Dialect::OpenCl => 4,
                    Dialect::Ptx => 3,
                };
                let order = match rng.below(choices) {
                    0 => Order::Plain,
                    1 => Order::Relaxed,
                    2 if access.store => Order::Release,
                    2 => Order::Acquire,
                    _ => Order::SeqCst,
                };
                let scope = (order != Order::Plain).then(|| scope(&mut rng));
                ops.push(Op::Access { access, order, scope });
            }
            ops
        })
        .collect();
    let places: Vec<(u32, u32)> = match (dialect, shape.len()) {
        (Dialect::OpenCl, 2) => vec![(0, 0), ((variant % 2) as u32, 0)],
        (Dialect::OpenCl, _) => [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]][variant % 4].iter().map(|&g| (g, 0)).collect(),
        // PTX's system scope differs from its GPU scope only across GPUs.
        (Dialect::Ptx, 2) => [[(0, 0), (0, 0)], [(0, 0), (1, 0)], [(0, 0), (1, 1)]][variant % 3].to_vec(),
        (Dialect::Ptx, _) => [[(0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (1, 0)], [(0, 0), (1, 0), (1, 0)], [(0, 0), (1, 0), (0, 0)], [(0, 0), (1, 0), (2, 1)]]
            [variant % 5]
            .to_vec(),
    };
    (threads, places)
}

/// The letter of a scope in a test's name.
fn scope_letter(s: Scope) -> char {
    match s {
        Scope::WorkGroup => 'g',
        Scope::Cta => 'c',
        Scope::Gpu => 'g',
        Scope::Sys => 's',
        _ => 'd',
    }
}

/// The name of a test: each thread's operations, then the place of each thread (its
/// work-group under OpenCL, which all on one device; its CTA and GPU under PTX).
fn name(dialect: Dialect, threads: &[Vec<Op>], places: &[(u32, u32)]) -> String {
    let mut name = String::new();
    for (t, ops) in threads.iter().enumerate() {
        if t > 0 {
            name.push('|');
        }
        let parts: Vec<String> = ops
            .iter()
            .map(|op| match *op {
                Op::Access { access, order, scope } => {
                    let mut s = format!("{}{}{}", if access.store { 'W' } else { 'R' }, LOCS[access.loc], order_letter(order));
                    if let Some(sc) = scope {
                        s.push(scope_letter(sc));
                    }
                    s
                }
                Op::Fence { order, scope } => format!("F{}{}", order_letter(order), scope_letter(scope)),
            })
            .collect();
        name.push_str(&parts.join("."));
    }
    name.push('@');
    let places: Vec<String> = match dialect {
        Dialect::OpenCl => places.iter().map(|&(g, _)| g.to_string()).collect(),
        Dialect::Ptx => vec![places.iter().map(|&(c, g)| format!("{c}{g}")).collect::<Vec<_>>().join(".")],
    };
    name.push_str(&places.concat());
    name
}

/// The variant `variant` of shape number `number`, in `dialect`.
fn case(dialect: Dialect, number: usize, shape: &Shape, variant: usize) -> Case {
    let (threads, places) = draw(dialect, number, shape, variant);
    let name = name(dialect, &threads, &places);
    // Under OpenCL a location is declared `atomic_int` when some access to it is atomic,
    // `int` otherwise; PTX declares no types.
    let atomic: Vec<bool> = (0..2)
        .map(|l| {
            dialect == Dialect::Ptx
                || threads.iter().flatten().any(|op| matches!(op, Op::Access { access, order, .. } if access.loc == l && *order != Order::Plain))
        })
        .collect();

    let mut stores = [0i64; 2];
    let mut test_threads = Vec::new();
    let mut condition: Option<Prop> = None;
    let mut conj = |p: Prop| {
        condition = Some(match condition.take() {
            None => p,
            Some(c) => Prop::And(Box::new(c), Box::new(p)),
        })
    };
    // Each thread's statements, as data and as lines of text.
    let mut lines: Vec<Vec<String>> = Vec::new();
    for (t, ops) in threads.iter().enumerate() {
        let mut registers = Vec::new();
        let mut body = Vec::new();
        let mut text = Vec::new();
        for op in ops {
            match *op {
                Op::Fence { order, scope } => {
                    text.push(match dialect {
                        Dialect::OpenCl => {
                            format!("atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_{}, memory_scope_{});", order.name(), scope.name())
                        }
                        Dialect::Ptx => format!("fence.{}.{}", if order == Order::SeqCst { "sc" } else { "acq_rel" }, scope.name()),
                    });
                    let flags = match dialect {
                        Dialect::OpenCl => FLAG_GLOBAL,
                        Dialect::Ptx => FLAG_GLOBAL | FLAG_LOCAL,
                    };
                    body.push(Stmt::Fence { order, scope: Some(scope), flags });
                }
                Op::Access { access, order, scope } => {
                    let loc = LOCS[access.loc];
                    let explicit = |o: Order, s: Option<Scope>| format!("memory_order_{}, memory_scope_{}", o.name(), s.expect("an atomic has a scope").name());
                    let ptx = |o: Order, s: Option<Scope>| match s {
                        None => "weak".to_string(),
                        Some(s) => format!("{}.{}", o.name(), s.name()),
                    };
                    if access.store {
                        stores[access.loc] += 1;
                        let v = stores[access.loc];
                        text.push(match (dialect, order) {
                            (Dialect::OpenCl, Order::Plain) => format!("*{loc} = {v};"),
                            (Dialect::OpenCl, _) => format!("atomic_store_explicit({loc}, {v}, {});", explicit(order, scope)),
                            (Dialect::Ptx, _) => format!("st.{} {loc}, {v}", ptx(order, scope)),
                        });
                        body.push(Stmt::Store { loc: access.loc, value: Expr::Const(v), order, scope });
                    } else {
                        let r = registers.len();
                        let reg = format!("r{r}");
                        text.push(match (dialect, order) {
                            (Dialect::OpenCl, Order::Plain) => format!("int {reg} = *{loc};"),
                            (Dialect::OpenCl, _) => format!("int {reg} = atomic_load_explicit({loc}, {});", explicit(order, scope)),
                            (Dialect::Ptx, _) => format!("ld.{} {reg}, {loc}", ptx(order, scope)),
                        });
                        registers.push(Register { name: reg.clone(), initial: 0, observed: true });
                        body.push(Stmt::Load { reg: r, loc: access.loc, order, scope });
                        conj(Prop::Compare { left: Term::Register { thread: t, name: reg }, right: Term::Const(0), negated: false });
                    }
                }
            }
        }
        lines.push(text);
        test_threads.push(Thread { group: places[t].0, device: places[t].1, registers, body });
    }
    for l in LOCS {
        conj(Prop::Compare { left: Term::Location(l.to_string()), right: Term::Const(0), negated: false });
    }
    let prop = condition.expect("the condition names the locations");
    let text = match dialect {
        Dialect::OpenCl => {
            let mut text = format!("OPENCL {name}\n\n{{ [x]=0; [y]=0; }}\n");
            let params: Vec<String> = (0..2).map(|l| format!("global {}* {}", if atomic[l] { "atomic_int" } else { "int" }, LOCS[l])).collect();
            let params = params.join(", ");
            for (t, body) in lines.iter().enumerate() {
                text.push_str(&format!("\nP{t}@wg {}, dev 0 ({params}) {{\n", places[t].0));
                for line in body {
                    text.push_str(&format!("  {line}\n"));
                }
                text.push_str("}\n");
            }
            text.push_str(&format!("\nexists ({})\n", show(&prop, "=", "")));
            text
        }
        Dialect::Ptx => {
            // A table: a row of thread headers, then a row per instruction, a thread with
            // fewer instructions leaving its cell empty.
            let mut text = format!("PTX {name}\n{{\nx=0;\ny=0;\n}}\n");
            let headers: Vec<String> = places.iter().enumerate().map(|(t, (c, g))| format!("P{t}@cta {c},gpu {g}")).collect();
            text.push_str(&format!(" {} ;\n", headers.join(" | ")));
            let rows = lines.iter().map(Vec::len).max().unwrap_or(0);
            for row in 0..rows {
                let cells: Vec<&str> = lines.iter().map(|l| l.get(row).map_or("", String::as_str)).collect();
                text.push_str(&format!(" {} ;\n", cells.join(" | ")));
            }
            text.push_str(&format!("exists\n({})\n", show(&prop, " == ", "P")));
            text
        }
    };
    let locations = (0..2).map(|l| Location { name: LOCS[l].to_string(), initial: 0, space: Space::Global, atomic: atomic[l] }).collect();
    let test = Test { name: name.clone(), dialect, locations, threads: test_threads, condition: Condition { quantifier: Quantifier::Exists, prop } };
    Case { name, text, test }
}

/// A conjunction of comparisons with constants, in the litmus syntax: `eq` between the two
/// sides, `thread` before a thread's number (OpenCL's `0:r0=0`, PTX's `P0:r0 == 0`).
fn show(p: &Prop, eq: &str, thread: &str) -> String {
    match p {
        Prop::And(a, b) => format!("{} /\\ {}", show(a, eq, thread), show(b, eq, thread)),
        Prop::Compare { left, right, .. } => {
            let term = |t: &Term| match t {
                Term::Register { thread: n, name } => format!("{thread}{n}:{name}"),
                Term::Location(l) => l.clone(),
                Term::Const(c) => c.to_string(),
            };
            format!("{}{eq}{}", term(left), term(right))
        }
        _ => unreachable!("generated conditions are conjunctions of comparisons"),
    }
}

/// Variant `v` of shape `number` (as [`shapes`] numbers them) in `dialect`; `None` past the
/// last shape.
pub fn variant(dialect: Dialect, number: usize, v: usize) -> Option<Case> {
    shapes().get(number).map(|shape| case(dialect, number, shape, v))
}

/// The whole family in `dialect` under `plan`, in shape order, then variant order.
pub fn generate(dialect: Dialect, plan: Plan) -> Vec<Case> {
    let mut out = Vec::new();
    for (number, shape) in shapes().iter().enumerate() {
        let variants = if shape.len() == 2 { plan.two_threads } else { plan.three_threads };
        for v in 0..variants {
            let c = case(dialect, number, shape, v);
            // Two variants may draw the same test; it is kept once.
            if !out.iter().any(|o: &Case| o.name == c.name) {
                out.push(c);
            }
        }
    }
    out
}
