//! The generated family of small OpenCL litmus tests, each as litmus text (what the engine
//! reads) and as a [`Test`] (what the checker reads).
//!
//! **Shapes.** A thread is one or two accesses, each a load or a store of `x` or `y`: 20
//! thread shapes. A test shape is two or three thread shapes. Shapes equal up to the order
//! of their threads or to swapping `x` and `y` are generated once, and only shapes in which
//! some location is stored by one thread and accessed by another are kept (the others show
//! nothing about the memory model). Every such shape is in the family.
//!
//! **Variants.** Each shape comes in a fixed number of variants. In each, every access gets
//! an order (plain, relaxed, acquire for a load or release for a store, or seq_cst, equally
//! likely); every thread of two accesses gets, one time in three, a fence between them
//! (`atomic_work_item_fence` on global memory, acquire, release, acq_rel or seq_cst); and
//! every atomic and fence a scope: work-group scope for all of them in a third of the
//! variants, device scope for all in another third, and in the last third work-group or
//! device scope for each on its own.
//! These draws come from a splitmix64 stream seeded by the shape's number and the variant's,
//! so the family is the same on every run. The placement does not depend on the draws: two
//! threads share one work-group in even variants and sit in two in odd ones; three threads
//! go through all in one group, `P0 P1 | P2`, `P0 | P1 P2` and `P0 P2 | P1`, in turn.
//!
//! A location is declared `atomic_int` when some access to it is atomic, `int` otherwise; the
//! k-th store to a location writes k, and a thread's loads go to `r0`, `r1`. The outcome of a
//! test is its registers and the final values of `x` and `y` (its condition names both).

use super::program::{Condition, Dialect, Expr, Location, Order, Prop, Quantifier, Register, Scope, Space, Stmt, Term, Test, Thread, FLAG_GLOBAL};

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

fn scope_letter(s: Scope) -> char {
    if s == Scope::WorkGroup {
        'g'
    } else {
        'd'
    }
}

/// The variant `variant` of shape number `number`.
fn case(number: usize, shape: &Shape, variant: usize) -> Case {
    let mut rng = Stream((number as u64) << 16 | variant as u64);
    // One scope for the whole test, or each its own.
    let scopes: &[Scope] = match rng.below(3) {
        0 => &[Scope::WorkGroup],
        1 => &[Scope::Device],
        _ => &[Scope::WorkGroup, Scope::Device],
    };
    let scope = |rng: &mut Stream| scopes[rng.below(scopes.len() as u64) as usize];
    let threads: Vec<Vec<Op>> = shape
        .iter()
        .map(|accesses| {
            let mut ops = Vec::new();
            for (k, &access) in accesses.iter().enumerate() {
                if k == 1 && rng.below(3) == 0 {
                    let order = [Order::Acquire, Order::Release, Order::AcqRel, Order::SeqCst][rng.below(4) as usize];
                    ops.push(Op::Fence { order, scope: scope(&mut rng) });
                }
                let order = match rng.below(4) {
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
    let groups: Vec<u32> = match shape.len() {
        2 => vec![0, (variant % 2) as u32],
        _ => [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]][variant % 4].to_vec(),
    };

    let atomic: Vec<bool> = (0..2)
        .map(|l| threads.iter().flatten().any(|op| matches!(op, Op::Access { access, order, .. } if access.loc == l && *order != Order::Plain)))
        .collect();

    // The name: each thread's operations, then the work-group of each thread.
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
    for g in &groups {
        name.push_str(&g.to_string());
    }

    let mut text = format!("OPENCL {name}\n\n{{ [x]=0; [y]=0; }}\n");
    let params: Vec<String> = (0..2).map(|l| format!("global {}* {}", if atomic[l] { "atomic_int" } else { "int" }, LOCS[l])).collect();
    let params = params.join(", ");
    let mut stores = [0i64; 2];
    let mut test_threads = Vec::new();
    let mut condition: Option<Prop> = None;
    let mut conj = |p: Prop| {
        condition = Some(match condition.take() {
            None => p,
            Some(c) => Prop::And(Box::new(c), Box::new(p)),
        })
    };
    for (t, ops) in threads.iter().enumerate() {
        text.push_str(&format!("\nP{t}@wg {}, dev 0 ({params}) {{\n", groups[t]));
        let mut registers = Vec::new();
        let mut body = Vec::new();
        for op in ops {
            match *op {
                Op::Fence { order, scope } => {
                    text.push_str(&format!("  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_{}, memory_scope_{});\n", order.name(), scope.name()));
                    body.push(Stmt::Fence { order, scope: Some(scope), flags: FLAG_GLOBAL });
                }
                Op::Access { access, order, scope } => {
                    let loc = LOCS[access.loc];
                    let explicit = |o: Order, s: Option<Scope>| format!("memory_order_{}, memory_scope_{}", o.name(), s.expect("an atomic has a scope").name());
                    if access.store {
                        stores[access.loc] += 1;
                        let v = stores[access.loc];
                        if order == Order::Plain {
                            text.push_str(&format!("  *{loc} = {v};\n"));
                        } else {
                            text.push_str(&format!("  atomic_store_explicit({loc}, {v}, {});\n", explicit(order, scope)));
                        }
                        body.push(Stmt::Store { loc: access.loc, value: Expr::Const(v), order, scope });
                    } else {
                        let r = registers.len();
                        let reg = format!("r{r}");
                        if order == Order::Plain {
                            text.push_str(&format!("  int {reg} = *{loc};\n"));
                        } else {
                            text.push_str(&format!("  int {reg} = atomic_load_explicit({loc}, {});\n", explicit(order, scope)));
                        }
                        registers.push(Register { name: reg.clone(), initial: 0, observed: true });
                        body.push(Stmt::Load { reg: r, loc: access.loc, order, scope });
                        conj(Prop::Compare { left: Term::Register { thread: t, name: reg }, right: Term::Const(0), negated: false });
                    }
                }
            }
        }
        text.push_str("}\n");
        test_threads.push(Thread { group: groups[t], device: 0, registers, body });
    }
    for l in LOCS {
        conj(Prop::Compare { left: Term::Location(l.to_string()), right: Term::Const(0), negated: false });
    }
    let prop = condition.expect("the condition names the locations");
    text.push_str(&format!("\nexists ({})\n", show(&prop)));
    let locations = (0..2).map(|l| Location { name: LOCS[l].to_string(), initial: 0, space: Space::Global, atomic: atomic[l] }).collect();
    let test =
        Test { name: name.clone(), dialect: Dialect::OpenCl, locations, threads: test_threads, condition: Condition { quantifier: Quantifier::Exists, prop } };
    Case { name, text, test }
}

/// A conjunction of comparisons with constants, in the litmus syntax.
fn show(p: &Prop) -> String {
    match p {
        Prop::And(a, b) => format!("{} /\\ {}", show(a), show(b)),
        Prop::Compare { left, right, .. } => {
            let term = |t: &Term| match t {
                Term::Register { thread, name } => format!("{thread}:{name}"),
                Term::Location(l) => l.clone(),
                Term::Const(c) => c.to_string(),
            };
            format!("{}={}", term(left), term(right))
        }
        _ => unreachable!("generated conditions are conjunctions of comparisons"),
    }
}

/// Variant `v` of shape `number` (as [`shapes`] numbers them); `None` past the last shape.
pub fn variant(number: usize, v: usize) -> Option<Case> {
    shapes().get(number).map(|shape| case(number, shape, v))
}

/// The whole family under `plan`, in shape order, then variant order.
pub fn generate(plan: Plan) -> Vec<Case> {
    let mut out = Vec::new();
    for (number, shape) in shapes().iter().enumerate() {
        let variants = if shape.len() == 2 { plan.two_threads } else { plan.three_threads };
        for v in 0..variants {
            let c = case(number, shape, v);
            // Two variants may draw the same test; it is kept once.
            if !out.iter().any(|o: &Case| o.name == c.name) {
                out.push(c);
            }
        }
    }
    out
}
