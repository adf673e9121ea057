//! Candidate executions of a test: its events, program order, reads-from and coherence.
//!
//! A test becomes executions in three steps:
//!
//! 1. **Values.** Each location gets a domain of values it may hold: its initial value and
//!    whatever the threads can write, found by running every thread with reads drawn from
//!    the domains until nothing new is written (bounded by the number of writes, since no
//!    loop runs twice).
//! 2. **Traces.** Each thread is run on its own with each read returning each value of its
//!    location's domain; a run is a trace: the events it performs (reads with the value
//!    they assumed, writes with the value they computed, fences, barriers), its final
//!    registers, and the data and control dependencies of each event on earlier reads.
//! 3. **Executions.** One trace per thread, plus an initial write per location, is a set of
//!    events. Reads-from maps each read to a write of the same location *with the value
//!    the read assumed*; coherence orders the writes of each location after its initial
//!    write, totally (OpenCL) or partially (PTX, where only morally strong writes must be
//!    ordered). Every such choice is a candidate execution, handed to a model's predicate.
//!
//! **No thin air.** A candidate in which reads-from, data dependencies and control
//! dependencies form a cycle is not an execution: its values, or the very events that
//! produce them, would justify themselves. PTX states this as an axiom (`NoThinAir`); the
//! C11 and OpenCL axioms leave it out and only ask, in a note, that implementations not
//! produce such values, so Dat3M's symbolic encoding of the OpenCL model lets a test like
//! `r = y; x = r || r = x; y = r` end with `x == y == 42`, and `if (x) y = 1 || if (y) x = 1`
//! end with both set. The checker forbids both, as the engine does, under either model.
//! Load buffering without dependencies stays allowed. With the cycle ruled out, drawing
//! read values from the domains finds every value an execution can have: each value is
//! computed along an acyclic chain of reads and writes, which the domains' rounds follow.

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use super::program::{eval, regs_of, Expr, Order, Outcome, Reg, RmwOp, Scope, Stmt, Test};
use super::relation::{bit, members, Rel, Set, MAX_EVENTS};

/// What an event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Read,
    Write,
    Fence,
    Barrier,
}

/// One event of an execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The thread, or `None` for a location's initial write.
    pub thread: Option<usize>,
    pub kind: Kind,
    pub loc: Option<usize>,
    pub value: i64,
    pub order: Order,
    pub scope: Option<Scope>,
    /// For fences and barriers, the memory they order ([`super::program::FLAG_GLOBAL`] ...).
    pub flags: u8,
    /// For barriers: which meeting it is (an OpenCL work-item's k-th barrier, a PTX id).
    pub barrier: i64,
    /// Part of a read-modify-write (a successful compare-exchange included).
    pub rmw: bool,
}

/// The most writes of one location (besides its initial value) whose partial coherence orders
/// are enumerated: 4 writes have 219 of them, 5 have 4,231.
pub const PARTIAL_COHERENCE_MAX_WRITES: usize = 4;

/// How coherence orders the writes of a location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coherence {
    /// A total order (OpenCL, and C11 generally).
    Total,
    /// Any strict partial order; the model itself says which pairs must be ordered (PTX).
    Partial,
}

/// A candidate execution.
pub struct Execution<'t> {
    pub test: &'t Test,
    pub events: Vec<Event>,
    /// Program order: strict, transitive, within each thread.
    pub po: Rel,
    /// Reads-from: write to read.
    pub rf: Rel,
    /// Coherence: strict and transitive, within each location, initial writes first.
    pub co: Rel,
    /// Read half to write half of each read-modify-write.
    pub rmw: Rel,
    /// Read to the events whose value it feeds (data) or whose execution it decides (control).
    pub data: Rel,
    pub ctrl: Rel,
    /// Pairs of events of one thread (initial writes belong to none).
    pub same_thread: Rel,
    /// Pairs of memory events (initial writes included) of one location.
    pub same_loc: Rel,
    pub reads: Set,
    pub writes: Set,
    pub fences: Set,
    pub barriers: Set,
    pub init: Set,
    /// Each thread's final registers.
    registers: Vec<Vec<i64>>,
}

impl Execution<'_> {
    /// The number of events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether there are no events (never: every location has an initial write, and a test
    /// has a location).
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The events that access memory (reads and writes, initial writes included).
    pub fn memory(&self) -> Set {
        self.reads | self.writes
    }

    /// The events for which `f` holds.
    pub fn set(&self, f: impl Fn(&Event) -> bool) -> Set {
        self.events.iter().enumerate().filter(|(_, e)| f(e)).fold(0, |s, (i, _)| s | bit(i))
    }

    /// From-reads: a read to the writes coherence-after the one it read.
    pub fn fr(&self) -> Rel {
        self.rf.inverse().seq(&self.co)
    }

    /// The outcomes this execution shows: its observed registers and, with `memory`, each
    /// location's final value. Under a partial coherence a location may have several
    /// coherence-last writes; each is a possible final value.
    pub fn outcomes(&self, memory: bool) -> Vec<Outcome> {
        let mut registers = BTreeMap::new();
        for (t, thread) in self.test.threads.iter().enumerate() {
            for (r, reg) in thread.registers.iter().enumerate() {
                if reg.observed {
                    registers.insert(format!("{t}:{}", reg.name), self.registers[t][r]);
                }
            }
        }
        let mut outcomes = vec![Outcome { registers, locations: BTreeMap::new() }];
        if !memory {
            return outcomes;
        }
        for (l, loc) in self.test.locations.iter().enumerate() {
            let writes = self.writes & self.set(|e| e.loc == Some(l));
            let last: BTreeSet<i64> = members(writes).filter(|&w| self.co.row(w) & writes == 0).map(|w| self.events[w].value).collect();
            let mut next = Vec::new();
            for o in &outcomes {
                for &v in &last {
                    let mut o = o.clone();
                    o.locations.insert(loc.name.clone(), v);
                    next.push(o);
                }
            }
            outcomes = next;
        }
        outcomes
    }
}

/// A thread's event before it is placed in an execution.
#[derive(Clone, Debug)]
struct Local {
    event: Event,
    /// The read half of a read-modify-write's write half (index in the trace).
    rmw_read: Option<usize>,
    /// Earlier reads of the trace (by trace index) this event's value depends on.
    data: u64,
    /// Earlier reads a branch before this event depends on.
    ctrl: u64,
}

/// One run of a thread on its own.
#[derive(Clone, Debug)]
struct Trace {
    events: Vec<Local>,
    registers: Vec<i64>,
}

/// A statement list flattened into straight-line code with forward jumps.
#[derive(Clone, Debug)]
enum Instr {
    Do(Stmt),
    /// Jump to the target when the condition is 0.
    Unless(Expr, usize),
    Jump(usize),
}

fn flatten(stmts: &[Stmt], out: &mut Vec<Instr>, labels: &mut Vec<(String, usize)>, gotos: &mut Vec<(usize, String)>) {
    for s in stmts {
        match s {
            Stmt::Label(name) => labels.push((name.clone(), out.len())),
            Stmt::Goto { when, label } => {
                gotos.push((out.len(), label.clone()));
                match when {
                    // Jumps when the condition is not 0, that is when its negation is 0; the
                    // target is filled in once the labels are known.
                    Some(c) => out.push(Instr::Unless(Expr::Not(Box::new(c.clone())), usize::MAX)),
                    None => out.push(Instr::Jump(usize::MAX)),
                }
            }
            Stmt::If { cond, then, otherwise } => {
                let branch = out.len();
                out.push(Instr::Unless(cond.clone(), 0));
                flatten(then, out, labels, gotos);
                if otherwise.is_empty() {
                    let end = out.len();
                    out[branch] = Instr::Unless(cond.clone(), end);
                } else {
                    let jump = out.len();
                    out.push(Instr::Jump(0));
                    let start = out.len();
                    out[branch] = Instr::Unless(cond.clone(), start);
                    flatten(otherwise, out, labels, gotos);
                    let end = out.len();
                    out[jump] = Instr::Jump(end);
                }
            }
            s => out.push(Instr::Do(s.clone())),
        }
    }
}

/// A thread's statements as straight-line code, its gotos resolved to forward targets.
fn compile(body: &[Stmt]) -> Result<Vec<Instr>, String> {
    let mut code = Vec::new();
    let (mut labels, mut gotos) = (Vec::new(), Vec::new());
    flatten(body, &mut code, &mut labels, &mut gotos);
    for (at, label) in gotos {
        let target = labels.iter().find(|(l, _)| *l == label).map(|&(_, t)| t).ok_or(format!("no label `{label}`"))?;
        if target <= at {
            return Err(format!("the jump to `{label}` goes backwards: loops are out of the checker's reach"));
        }
        code[at] = match &code[at] {
            Instr::Unless(c, _) => Instr::Unless(c.clone(), target),
            _ => Instr::Jump(target),
        };
    }
    Ok(code)
}

/// The state of a thread run in progress.
#[derive(Clone)]
struct Run {
    pc: usize,
    regs: Vec<i64>,
    /// Per register, the reads (trace indices) its value depends on.
    deps: Vec<u64>,
    ctrl: u64,
    events: Vec<Local>,
    barriers: i64,
}

fn deps_of(e: &Expr, deps: &[u64]) -> u64 {
    let mut regs: Vec<Reg> = Vec::new();
    regs_of(e, &mut regs);
    regs.iter().fold(0, |d, &r| d | deps[r])
}

/// Every trace of thread `t`, reads returning the values of `domains`.
fn traces(test: &Test, t: usize, domains: &[BTreeSet<i64>]) -> Result<Vec<Trace>, String> {
    let thread = &test.threads[t];
    let code = compile(&thread.body)?;
    let start = Run {
        pc: 0,
        regs: thread.registers.iter().map(|r| r.initial).collect(),
        deps: vec![0; thread.registers.len()],
        ctrl: 0,
        events: Vec::new(),
        barriers: 0,
    };
    let mut done = Vec::new();
    let mut work = vec![start];
    let event = |run: &Run, kind: Kind, loc: Option<usize>, value: i64, order: Order, scope: Option<Scope>| Event {
        thread: Some(t),
        kind,
        loc,
        value,
        order,
        scope,
        flags: 0,
        barrier: run.barriers,
        rmw: false,
    };
    while let Some(mut run) = work.pop() {
        if run.events.len() >= MAX_EVENTS {
            return Err(format!("thread {t} performs more than {MAX_EVENTS} events"));
        }
        let Some(instr) = code.get(run.pc).cloned() else {
            done.push(Trace { events: run.events, registers: run.regs });
            continue;
        };
        run.pc += 1;
        match instr {
            Instr::Jump(target) => {
                run.pc = target;
                work.push(run);
            }
            Instr::Unless(cond, target) => {
                run.ctrl |= deps_of(&cond, &run.deps);
                if eval(&cond, &run.regs) == 0 {
                    run.pc = target;
                }
                work.push(run);
            }
            Instr::Do(Stmt::If { .. } | Stmt::Label(_) | Stmt::Goto { .. }) => unreachable!("flattened"),
            Instr::Do(Stmt::Assign { reg, value }) => {
                run.deps[reg] = deps_of(&value, &run.deps);
                run.regs[reg] = eval(&value, &run.regs);
                work.push(run);
            }
            Instr::Do(Stmt::Fence { order, scope, flags }) => {
                let mut e = event(&run, Kind::Fence, None, 0, order, scope);
                e.flags = flags;
                run.events.push(Local { event: e, rmw_read: None, data: 0, ctrl: run.ctrl });
                work.push(run);
            }
            Instr::Do(Stmt::Barrier { flags, id }) => {
                let mut e = event(&run, Kind::Barrier, None, 0, Order::Plain, None);
                e.flags = flags;
                if let Some(id) = id {
                    e.barrier = id;
                } else {
                    run.barriers += 1;
                }
                run.events.push(Local { event: e, rmw_read: None, data: 0, ctrl: run.ctrl });
                work.push(run);
            }
            Instr::Do(Stmt::Store { loc, value, order, scope }) => {
                let v = eval(&value, &run.regs);
                let data = deps_of(&value, &run.deps);
                let e = event(&run, Kind::Write, Some(loc), v, order, scope);
                run.events.push(Local { event: e, rmw_read: None, data, ctrl: run.ctrl });
                work.push(run);
            }
            Instr::Do(Stmt::Load { reg, loc, order, scope }) => {
                for &v in &domains[loc] {
                    let mut next = run.clone();
                    let i = next.events.len();
                    let e = event(&next, Kind::Read, Some(loc), v, order, scope);
                    next.events.push(Local { event: e, rmw_read: None, data: 0, ctrl: next.ctrl });
                    next.regs[reg] = v;
                    next.deps[reg] = 1 << i;
                    work.push(next);
                }
            }
            Instr::Do(Stmt::Rmw { reg, loc, op, operand, order, scope }) => {
                let k = eval(&operand, &run.regs);
                let kdeps = deps_of(&operand, &run.deps);
                for &v in &domains[loc] {
                    let mut next = run.clone();
                    let i = next.events.len();
                    let mut r = event(&next, Kind::Read, Some(loc), v, order.read_half(), scope);
                    r.rmw = true;
                    next.events.push(Local { event: r, rmw_read: None, data: 0, ctrl: next.ctrl });
                    let mut w = event(&next, Kind::Write, Some(loc), op.apply(v, k), order.write_half(), scope);
                    w.rmw = true;
                    // The written value depends on the old value (except for an exchange)
                    // and on the operand.
                    let own = if op == RmwOp::Exchange { 0 } else { 1 << i };
                    next.events.push(Local { event: w, rmw_read: Some(i), data: own | kdeps, ctrl: next.ctrl });
                    if let Some(reg) = reg {
                        next.regs[reg] = v;
                        next.deps[reg] = 1 << i;
                    }
                    work.push(next);
                }
            }
            Instr::Do(Stmt::Cas { old, result, loc, expected, desired, success, failure, scope, weak }) => {
                let want = eval(&expected, &run.regs);
                let put = eval(&desired, &run.regs);
                let put_deps = deps_of(&desired, &run.deps);
                for &v in &domains[loc] {
                    // A weak compare-exchange may fail even when the values are equal.
                    let outcomes: &[bool] = if v == want && weak {
                        &[true, false]
                    } else if v == want {
                        &[true]
                    } else {
                        &[false]
                    };
                    for &succeeds in outcomes {
                        let mut next = run.clone();
                        let i = next.events.len();
                        let order = if succeeds { success } else { failure };
                        let mut r = event(&next, Kind::Read, Some(loc), v, order.read_half(), scope);
                        r.rmw = succeeds;
                        next.events.push(Local { event: r, rmw_read: None, data: 0, ctrl: next.ctrl });
                        if succeeds {
                            let mut w = event(&next, Kind::Write, Some(loc), put, order.write_half(), scope);
                            w.rmw = true;
                            next.events.push(Local { event: w, rmw_read: Some(i), data: put_deps, ctrl: next.ctrl | (1 << i) });
                        }
                        if let Some(reg) = old {
                            next.regs[reg] = v;
                            next.deps[reg] = 1 << i;
                        }
                        if let Some(reg) = result {
                            next.regs[reg] = i64::from(succeeds);
                            next.deps[reg] = 1 << i;
                        }
                        work.push(next);
                    }
                }
            }
        }
    }
    Ok(done)
}

/// The values each location may hold (see the module documentation).
fn domains(test: &Test) -> Result<Vec<BTreeSet<i64>>, String> {
    let mut doms: Vec<BTreeSet<i64>> = test.locations.iter().map(|l| BTreeSet::from([l.initial])).collect();
    // Each round lets values flow through one more write; a value of a real execution flows
    // through at most every write once.
    let rounds = 2 + count_writes(test);
    for _ in 0..rounds {
        let mut next = doms.clone();
        for t in 0..test.threads.len() {
            for trace in traces(test, t, &doms)? {
                for l in &trace.events {
                    if l.event.kind == Kind::Write {
                        next[l.event.loc.expect("a write has a location")].insert(l.event.value);
                    }
                }
            }
        }
        if next == doms {
            return Ok(doms);
        }
        doms = next;
    }
    Ok(doms)
}

fn count_writes(test: &Test) -> usize {
    fn count(stmts: &[Stmt]) -> usize {
        stmts
            .iter()
            .map(|s| match s {
                Stmt::Store { .. } | Stmt::Rmw { .. } | Stmt::Cas { .. } => 1,
                Stmt::If { then, otherwise, .. } => count(then) + count(otherwise),
                _ => 0,
            })
            .sum()
    }
    test.threads.iter().map(|t| count(&t.body)).sum()
}

/// Calls `visit` with every candidate execution of `test` (see the module documentation);
/// returns how many there were.
pub fn for_each(test: &Test, coherence: Coherence, visit: &mut dyn FnMut(&Execution)) -> Result<u64, String> {
    let doms = domains(test)?;
    let mut per_thread = Vec::new();
    for t in 0..test.threads.len() {
        per_thread.push(traces(test, t, &doms)?);
    }
    let mut count = 0;
    let mut choice = vec![0usize; per_thread.len()];
    if per_thread.iter().any(|t| t.is_empty()) {
        return Ok(0);
    }
    loop {
        let chosen: Vec<&Trace> = choice.iter().enumerate().map(|(t, &i)| &per_thread[t][i]).collect();
        count += with_traces(test, &chosen, coherence, visit)?;
        // The next combination of traces, odometer style.
        let mut t = 0;
        loop {
            if t == choice.len() {
                return Ok(count);
            }
            choice[t] += 1;
            if choice[t] < per_thread[t].len() {
                break;
            }
            choice[t] = 0;
            t += 1;
        }
    }
}

/// The candidate executions made of one trace per thread.
fn with_traces(test: &Test, traces: &[&Trace], coherence: Coherence, visit: &mut dyn FnMut(&Execution)) -> Result<u64, String> {
    let nlocs = test.locations.len();
    let mut events: Vec<Event> = test
        .locations
        .iter()
        .enumerate()
        .map(|(l, loc)| Event {
            thread: None,
            kind: Kind::Write,
            loc: Some(l),
            value: loc.initial,
            order: Order::Plain,
            scope: None,
            flags: 0,
            barrier: 0,
            rmw: false,
        })
        .collect();
    let mut base = Vec::new();
    for trace in traces {
        base.push(events.len());
        events.extend(trace.events.iter().map(|l| l.event.clone()));
    }
    let n = events.len();
    if n > MAX_EVENTS {
        return Err(format!("an execution of {} has {n} events, more than {MAX_EVENTS}", test.name));
    }
    let mut po = Rel::empty(n);
    let mut rmw = Rel::empty(n);
    let mut data = Rel::empty(n);
    let mut ctrl = Rel::empty(n);
    for (t, trace) in traces.iter().enumerate() {
        let b = base[t];
        for (i, l) in trace.events.iter().enumerate() {
            for j in 0..i {
                po.add(b + j, b + i);
            }
            if let Some(r) = l.rmw_read {
                rmw.add(b + r, b + i);
            }
            for d in members(l.data) {
                data.add(b + d, b + i);
            }
            for d in members(l.ctrl) {
                ctrl.add(b + d, b + i);
            }
        }
    }
    let same_thread = Rel::from_fn(n, |a, b| events[a].thread.is_some() && events[a].thread == events[b].thread);
    let same_loc = Rel::from_fn(n, |a, b| events[a].loc.is_some() && events[a].loc == events[b].loc);
    let of = |k: Kind| events.iter().enumerate().filter(|(_, e)| e.kind == k).fold(0, |s, (i, _)| s | bit(i));
    let init: Set = (0..nlocs).fold(0, |s, l| s | bit(l));
    let reads = of(Kind::Read);
    let writes = of(Kind::Write);

    // Reads-from candidates: the writes of the read's location with the read's value.
    let read_list: Vec<usize> = members(reads).collect();
    let mut sources: Vec<Vec<usize>> = Vec::new();
    for &r in &read_list {
        let s: Vec<usize> = members(writes).filter(|&w| events[w].loc == events[r].loc && events[w].value == events[r].value).collect();
        if s.is_empty() {
            return Ok(0);
        }
        sources.push(s);
    }
    // Coherence candidates, per location.
    let mut orders: Vec<Vec<Rel>> = Vec::new();
    for l in 0..nlocs {
        let ws: Vec<usize> = members(writes & !init).filter(|&w| events[w].loc == Some(l)).collect();
        orders.push(coherence_orders(n, l, &ws, coherence)?);
    }

    let (fences, barriers) = (of(Kind::Fence), of(Kind::Barrier));
    let mut x = Execution {
        test,
        events,
        po,
        rf: Rel::empty(n),
        co: Rel::empty(n),
        rmw,
        data,
        ctrl,
        same_thread,
        same_loc,
        reads,
        writes,
        fences,
        barriers,
        init,
        registers: traces.iter().map(|t| t.registers.clone()).collect(),
    };
    let mut count = 0;
    let mut rf_choice = vec![0usize; read_list.len()];
    loop {
        let mut rf = Rel::empty(n);
        for (k, &r) in read_list.iter().enumerate() {
            rf.add(sources[k][rf_choice[k]], r);
        }
        // No value out of thin air (see the module documentation).
        if rf.union(&x.data).union(&x.ctrl).acyclic() {
            x.rf = rf;
            let mut co_choice = vec![0usize; nlocs];
            loop {
                let mut co = Rel::empty(n);
                for l in 0..nlocs {
                    co = co.union(&orders[l][co_choice[l]]);
                }
                x.co = co;
                count += 1;
                visit(&x);
                if !advance(&mut co_choice, |l| orders[l].len()) {
                    break;
                }
            }
        }
        if !advance(&mut rf_choice, |k| sources[k].len()) {
            return Ok(count);
        }
    }
}

/// Steps an odometer of choices; `false` once it wraps around.
fn advance(choice: &mut [usize], size: impl Fn(usize) -> usize) -> bool {
    for (k, c) in choice.iter_mut().enumerate() {
        *c += 1;
        if *c < size(k) {
            return true;
        }
        *c = 0;
    }
    false
}

/// The coherence orders of location `l` (initial write `l`) over its other writes `ws`.
fn coherence_orders(n: usize, l: usize, ws: &[usize], coherence: Coherence) -> Result<Vec<Rel>, String> {
    let with_init = |mut r: Rel| {
        for &w in ws {
            r.add(l, w);
        }
        r
    };
    match coherence {
        Coherence::Total => {
            let mut out = Vec::new();
            let mut perm: Vec<usize> = ws.to_vec();
            permutations(&mut perm, 0, &mut |p| {
                let mut r = Rel::empty(n);
                for i in 0..p.len() {
                    for j in i + 1..p.len() {
                        r.add(p[i], p[j]);
                    }
                }
                out.push(with_init(r));
            });
            Ok(out)
        }
        Coherence::Partial => {
            // Every strict partial order: each subset of ordered pairs that is
            // antisymmetric and transitive.
            if ws.len() > PARTIAL_COHERENCE_MAX_WRITES {
                return Err(format!("{} writes to one location are too many for a partial coherence order", ws.len()));
            }
            let pairs: Vec<(usize, usize)> = ws.iter().flat_map(|&a| ws.iter().filter(move |&&b| b != a).map(move |&b| (a, b))).collect();
            let mut out = Vec::new();
            for mask in 0u32..(1u32 << pairs.len()) {
                let mut r = Rel::empty(n);
                for (k, &(a, b)) in pairs.iter().enumerate() {
                    if mask & (1 << k) != 0 {
                        r.add(a, b);
                    }
                }
                if r.inter(&r.inverse()).is_empty() && r.seq(&r).minus(&r).is_empty() {
                    out.push(with_init(r));
                }
            }
            Ok(out)
        }
    }
}

fn permutations(v: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permutations(v, k + 1, f);
        v.swap(k, i);
    }
}
