//! A reader of OpenCL litmus tests (the herd/Dat3M format) into [`Test`], written for the
//! checker alone.
//!
//! It covers the subset the project's litmus examples and the generated family use: an
//! initial state `{ [x]=0; }`, threads `P<i>@wg <w>, dev <d> (params) { body }` whose
//! parameters are `global` or `local` pointers to `int` or `atomic_int`, and bodies of `int`
//! declarations, assignments, `if`/`else`, plain loads and stores through the parameters,
//! `atomic_load`, `atomic_store`, `atomic_exchange`, `atomic_fetch_<op>` and
//! `atomic_compare_exchange_{strong,weak}` (each also `_explicit` with an order and an
//! optional scope), `atomic_work_item_fence` and `barrier`. The final condition is
//! `exists`, `~exists` or `forall` over `<thread>:<register>` and location atoms combined
//! with `/\`, `\/`, `~` and parentheses.
//!
//! Registers are the `int` variables declared at the top level of a body, as the engine
//! observes them; a variable declared in a nested block is a local the outcome leaves out.
//! A location is non-atomic when some thread declares it without an atomic type (as Dat3M
//! decides), and lives in the address space its first declaration names (generic when that
//! names none, as in Dat3M).

use std::collections::BTreeMap;

use super::program::{
    BinOp, Condition, Dialect, Expr, Location, Order, Prop, Quantifier, Register, RmwOp, Scope, Space, Stmt, Term, Test, Thread, FLAG_GLOBAL, FLAG_LOCAL,
};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Int(i64),
    Punct(&'static str),
}

const PUNCTS: [&str; 29] =
    ["/\\", "\\/", "==", "!=", "<=", ">=", "&&", "||", "{", "}", "(", ")", "[", "]", ";", ",", "*", "&", "=", "<", ">", "+", "-", "!", "~", ":", "@", "|", "^"];

/// Splits the text after the header line into tokens, each with its line number. `(* *)`
/// comments (which nest) are recognised outside braces only, where `(*x)` cannot be C.
fn lex(text: &str, first_line: usize) -> Result<Vec<(Tok, usize)>, String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut line = first_line;
    let mut depth = 0usize;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if depth == 0 && text[i..].starts_with("(*") {
            let mut nest = 0;
            loop {
                if i >= b.len() {
                    return Err(format!("line {line}: a comment is never closed"));
                }
                if text[i..].starts_with("(*") {
                    nest += 1;
                    i += 2;
                } else if text[i..].starts_with("*)") {
                    nest -= 1;
                    i += 2;
                    if nest == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with("/*") {
            let end = text[i + 2..].find("*/").ok_or(format!("line {line}: a comment is never closed"))?;
            line += text[i..i + 2 + end].matches('\n').count();
            i += end + 4;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Word(text[start..i].to_string()), line));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let lit = &text[start..i];
            let v = match lit.strip_prefix("0x") {
                Some(h) => i64::from_str_radix(h, 16),
                None => lit.parse(),
            }
            .map_err(|_| format!("line {line}: `{lit}` is not a number"))?;
            out.push((Tok::Int(v), line));
        } else if let Some(p) = PUNCTS.iter().find(|p| text[i..].starts_with(**p)) {
            match *p {
                "{" => depth += 1,
                "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
            out.push((Tok::Punct(p), line));
            i += p.len();
        } else {
            return Err(format!("line {line}: unexpected character `{}`", &text[i..].chars().next().unwrap_or(' ')));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.0)
    }

    fn line(&self) -> usize {
        self.toks.get(self.pos).or(self.toks.last()).map_or(0, |t| t.1)
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        let found = match self.peek() {
            Some(Tok::Word(w)) => format!("`{w}`"),
            Some(Tok::Int(v)) => format!("`{v}`"),
            Some(Tok::Punct(p)) => format!("`{p}`"),
            None => "the end".to_string(),
        };
        Err(format!("line {}: expected {what}, found {found}", self.line()))
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Result<(), String> {
        if self.eat(p) {
            Ok(())
        } else {
            self.err(&format!("`{p}`"))
        }
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(v)) if v == w)
    }

    fn word(&mut self) -> Result<String, String> {
        match self.peek().cloned() {
            Some(Tok::Word(w)) => {
                self.pos += 1;
                Ok(w)
            }
            _ => self.err("a name"),
        }
    }

    /// A signed integer.
    fn int(&mut self) -> Result<i64, String> {
        let negative = self.eat("-");
        match self.peek().cloned() {
            Some(Tok::Int(v)) => {
                self.pos += 1;
                Ok(if negative { -v } else { v })
            }
            _ => self.err("an integer"),
        }
    }
}

/// A thread parameter as declared.
struct Param {
    name: String,
    space: Space,
    atomic: bool,
}

/// What a thread's body refers to while it is read.
struct Body<'a> {
    /// Location index by parameter name.
    params: &'a BTreeMap<String, usize>,
    registers: Vec<Register>,
    /// Barrier labels (`B1: barrier(...)`) of the whole test; a label's index is its id.
    labels: Vec<String>,
    /// Register index by name, innermost block last.
    scopes: Vec<BTreeMap<String, usize>>,
    temps: usize,
}

impl Body<'_> {
    fn register(&self, name: &str) -> Option<usize> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn declare(&mut self, name: &str) -> usize {
        let observed = self.scopes.len() == 1;
        self.registers.push(Register { name: name.to_string(), initial: 0, observed });
        let r = self.registers.len() - 1;
        self.scopes.last_mut().expect("a scope").insert(name.to_string(), r);
        r
    }

    /// A register for an intermediate value; the outcome does not show it.
    fn temp(&mut self) -> usize {
        self.temps += 1;
        self.registers.push(Register { name: format!("#t{}", self.temps), initial: 0, observed: false });
        self.registers.len() - 1
    }
}

/// Reads an OpenCL litmus test.
pub fn parse(text: &str) -> Result<Test, String> {
    let header_end = text.find('\n').unwrap_or(text.len());
    let header = text[..header_end].trim();
    let name = header.strip_prefix("OPENCL").ok_or("the first line is not `OPENCL <name>`")?.trim().to_string();
    let mut p = Parser { toks: lex(&text[header_end..], 1)?, pos: 0 };

    // The initial state.
    let mut initial: Vec<(String, i64)> = Vec::new();
    if p.eat("{") {
        while !p.eat("}") {
            let bracketed = p.eat("[");
            let loc = p.word()?;
            if bracketed {
                p.expect("]")?;
            }
            p.expect("=")?;
            let v = p.int()?;
            initial.push((loc, v));
            if !p.eat(";") && !p.is("}") {
                return p.err("`;`");
            }
        }
    }

    // Threads.
    struct Raw {
        number: usize,
        group: u32,
        device: u32,
        params: Vec<Param>,
        start: usize,
    }
    let mut raw: Vec<Raw> = Vec::new();
    while matches!(p.peek(), Some(Tok::Word(w)) if w.starts_with('P') && w[1..].parse::<usize>().is_ok()) {
        let w = p.word()?;
        let number: usize = w[1..].parse().map_err(|_| format!("`{w}` is not a thread name"))?;
        let (mut group, mut device) = (0, 0);
        if p.eat("@") {
            if !p.is_word("wg") {
                return p.err("`wg`");
            }
            p.pos += 1;
            group = u32::try_from(p.int()?).map_err(|_| "a work-group is not negative")?;
            p.expect(",")?;
            if !p.is_word("dev") {
                return p.err("`dev`");
            }
            p.pos += 1;
            device = u32::try_from(p.int()?).map_err(|_| "a device is not negative")?;
        }
        p.expect("(")?;
        let mut params = Vec::new();
        while !p.eat(")") {
            let mut space = Space::Generic;
            let mut atomic = false;
            while let Some(Tok::Word(w)) = p.peek() {
                match w.as_str() {
                    "global" | "__global" => space = Space::Global,
                    "local" | "__local" => space = Space::Local,
                    "volatile" | "const" | "int" | "unsigned" | "uint" | "long" => {}
                    "atomic_int" | "atomic_uint" | "atomic_long" => atomic = true,
                    _ => break,
                }
                p.pos += 1;
            }
            p.expect("*")?;
            let name = p.word()?;
            params.push(Param { name, space, atomic });
            if !p.eat(",") && !p.is(")") {
                return p.err("`,` or `)`");
            }
        }
        // The body is read once every location is known.
        let start = p.pos;
        p.expect("{")?;
        let mut depth = 1;
        while depth > 0 {
            match p.peek() {
                None => return p.err("`}`"),
                Some(Tok::Punct("{")) => depth += 1,
                Some(Tok::Punct("}")) => depth -= 1,
                _ => {}
            }
            p.pos += 1;
        }
        raw.push(Raw { number, group, device, params, start });
    }
    if raw.is_empty() {
        return p.err("a thread `P0`");
    }
    let condition_at = p.pos;

    // Locations: the initial state's, then those only parameters name.
    let mut locations: Vec<Location> = Vec::new();
    let index = |locations: &Vec<Location>, n: &str| locations.iter().position(|l| l.name == n);
    for (n, v) in &initial {
        if index(&locations, n).is_none() {
            locations.push(Location { name: n.clone(), initial: *v, space: Space::Global, atomic: true });
        }
    }
    let mut declared = vec![false; 0];
    for r in &raw {
        for prm in &r.params {
            let l = match index(&locations, &prm.name) {
                Some(l) => l,
                None => {
                    locations.push(Location { name: prm.name.clone(), initial: 0, space: prm.space, atomic: true });
                    locations.len() - 1
                }
            };
            declared.resize(locations.len(), false);
            if !declared[l] {
                declared[l] = true;
                locations[l].space = prm.space;
            }
            if !prm.atomic {
                locations[l].atomic = false;
            }
        }
    }

    // Bodies.
    let mut threads = Vec::new();
    let numbers: Vec<usize> = raw.iter().map(|r| r.number).collect();
    let mut labels = Vec::new();
    for r in &raw {
        let params: BTreeMap<String, usize> = r.params.iter().map(|prm| (prm.name.clone(), index(&locations, &prm.name).expect("declared"))).collect();
        let mut body = Body { params: &params, registers: Vec::new(), labels, scopes: vec![BTreeMap::new()], temps: 0 };
        p.pos = r.start;
        p.expect("{")?;
        let mut stmts = Vec::new();
        while !p.eat("}") {
            statement(&mut p, &mut body, &mut stmts)?;
        }
        labels = body.labels;
        threads.push(Thread { group: r.group, device: r.device, registers: body.registers, body: stmts });
    }

    p.pos = condition_at;
    let condition = condition(&mut p, &numbers)?;
    if p.peek().is_some() {
        return p.err("the end of the test");
    }
    Ok(Test { name, dialect: Dialect::OpenCl, locations, threads, condition })
}

/// One statement of a body, lowered into `out`.
fn statement(p: &mut Parser, b: &mut Body, out: &mut Vec<Stmt>) -> Result<(), String> {
    if p.eat(";") {
        return Ok(());
    }
    if p.eat("{") {
        b.scopes.push(BTreeMap::new());
        while !p.eat("}") {
            statement(p, b, out)?;
        }
        b.scopes.pop();
        return Ok(());
    }
    if p.is_word("if") {
        p.pos += 1;
        p.expect("(")?;
        let cond = expr(p, b, out)?;
        p.expect(")")?;
        let mut then = Vec::new();
        b.scopes.push(BTreeMap::new());
        statement(p, b, &mut then)?;
        b.scopes.pop();
        let mut otherwise = Vec::new();
        if p.is_word("else") {
            p.pos += 1;
            b.scopes.push(BTreeMap::new());
            statement(p, b, &mut otherwise)?;
            b.scopes.pop();
        }
        out.push(Stmt::If { cond, then, otherwise });
        return Ok(());
    }
    if ["int", "long", "unsigned", "uint", "bool"].iter().any(|t| p.is_word(t)) {
        while ["int", "long", "unsigned", "uint", "bool"].iter().any(|t| p.is_word(t)) {
            p.pos += 1;
        }
        loop {
            let name = p.word()?;
            let r = b.declare(&name);
            if p.eat("=") {
                assign(p, b, r, out)?;
            }
            if !p.eat(",") {
                break;
            }
        }
        return p.expect(";");
    }
    if p.eat("*") {
        let loc = location(p, b)?;
        p.expect("=")?;
        let value = expr(p, b, out)?;
        out.push(Stmt::Store { loc, value, order: Order::Plain, scope: None });
        return p.expect(";");
    }
    if let (Some(Tok::Word(label)), Some(Tok::Punct(":"))) = (p.peek().cloned(), p.peek_at(1)) {
        // A labelled barrier: work-items meet at the barriers of one label.
        p.pos += 2;
        if !(p.is_word("barrier") || p.is_word("work_group_barrier")) {
            return p.err("a barrier after a label");
        }
        let name = p.word()?;
        call_statement(p, b, &name, out)?;
        let id = match b.labels.iter().position(|l| *l == label) {
            Some(i) => i,
            None => {
                b.labels.push(label);
                b.labels.len() - 1
            }
        };
        if let Some(Stmt::Barrier { id: slot, .. }) = out.last_mut() {
            *slot = Some(id as i64);
        }
        return p.expect(";");
    }
    if let (Some(Tok::Word(name)), Some(Tok::Punct("="))) = (p.peek().cloned(), p.peek_at(1)) {
        let reg = b.register(&name).ok_or(format!("line {}: `{name}` is not a register", p.line()))?;
        p.pos += 2;
        assign(p, b, reg, out)?;
        return p.expect(";");
    }
    if let Some(Tok::Word(name)) = p.peek().cloned() {
        if p.peek_at(1) == Some(&Tok::Punct("(")) {
            p.pos += 1;
            if !call_statement(p, b, &name, out)? {
                // A call whose value nobody uses (a read-modify-write, a load).
                p.pos -= 1;
                expr(p, b, out)?;
            }
            return p.expect(";");
        }
    }
    p.err("a statement")
}

/// `reg = <expression>`, after the `=`. A value read by one access goes straight into the
/// register instead of through an intermediate one.
fn assign(p: &mut Parser, b: &mut Body, reg: usize, out: &mut Vec<Stmt>) -> Result<(), String> {
    let before = (out.len(), b.registers.len());
    let value = expr(p, b, out)?;
    let temp = before.1;
    if out.len() == before.0 + 1 && b.registers.len() == before.1 + 1 && value == Expr::Reg(temp) {
        let target = match out.last_mut() {
            Some(Stmt::Load { reg: r, .. }) => Some(r),
            Some(Stmt::Rmw { reg: Some(r), .. }) => Some(r),
            _ => None,
        };
        if let Some(r) = target {
            if *r == temp {
                *r = reg;
                b.registers.pop();
                return Ok(());
            }
        }
    }
    out.push(Stmt::Assign { reg, value });
    Ok(())
}

/// Calls that are statements only: stores, fences, barriers. `false` for any other call.
fn call_statement(p: &mut Parser, b: &mut Body, name: &str, out: &mut Vec<Stmt>) -> Result<bool, String> {
    match name {
        "atomic_store" | "atomic_store_explicit" => {
            p.expect("(")?;
            let loc = location(p, b)?;
            p.expect(",")?;
            let value = expr(p, b, out)?;
            let (order, scope) = if name == "atomic_store" { (Order::SeqCst, Scope::Device) } else { order_and_scope(p)? };
            p.expect(")")?;
            out.push(Stmt::Store { loc, value, order, scope: Some(scope) });
            Ok(true)
        }
        "atomic_work_item_fence" => {
            p.expect("(")?;
            let flags = fence_flags(p)?;
            let (order, scope) = order_and_scope(p)?;
            p.expect(")")?;
            out.push(Stmt::Fence { order, scope: Some(scope), flags });
            Ok(true)
        }
        "barrier" | "work_group_barrier" => {
            p.expect("(")?;
            let flags = fence_flags(p)?;
            if p.eat(",") {
                let s = scope(p)?;
                if s != Scope::WorkGroup {
                    return Err(format!("line {}: only work-group barriers are supported", p.line()));
                }
            }
            p.expect(")")?;
            out.push(Stmt::Barrier { flags, id: None });
            Ok(true)
        }
        _ => Ok(false),
    }
}

fn location(p: &mut Parser, b: &Body) -> Result<usize, String> {
    let name = p.word()?;
    b.params.get(&name).copied().ok_or(format!("line {}: `{name}` is not a parameter of this thread", p.line()))
}

fn fence_flags(p: &mut Parser) -> Result<u8, String> {
    let mut flags = 0;
    loop {
        match p.word()?.as_str() {
            "CLK_GLOBAL_MEM_FENCE" => flags |= FLAG_GLOBAL,
            "CLK_LOCAL_MEM_FENCE" => flags |= FLAG_LOCAL,
            f => return Err(format!("line {}: unknown fence flag `{f}`", p.line())),
        }
        if !p.eat("|") {
            return Ok(flags);
        }
    }
}

fn order(p: &mut Parser) -> Result<Order, String> {
    match p.word()?.as_str() {
        "memory_order_relaxed" => Ok(Order::Relaxed),
        "memory_order_acquire" => Ok(Order::Acquire),
        "memory_order_release" => Ok(Order::Release),
        "memory_order_acq_rel" => Ok(Order::AcqRel),
        "memory_order_seq_cst" => Ok(Order::SeqCst),
        o => Err(format!("line {}: unknown memory order `{o}`", p.line())),
    }
}

fn scope(p: &mut Parser) -> Result<Scope, String> {
    match p.word()?.as_str() {
        "memory_scope_work_item" => Ok(Scope::WorkItem),
        "memory_scope_work_group" => Ok(Scope::WorkGroup),
        "memory_scope_device" => Ok(Scope::Device),
        "memory_scope_all_svm_devices" | "memory_scope_all_devices" => Ok(Scope::AllSvmDevices),
        s => Err(format!("line {}: unknown memory scope `{s}`", p.line())),
    }
}

/// `, order` and an optional `, scope` (device scope when left out).
fn order_and_scope(p: &mut Parser) -> Result<(Order, Scope), String> {
    p.expect(",")?;
    let o = order(p)?;
    let s = if p.eat(",") { scope(p)? } else { Scope::Device };
    Ok((o, s))
}

fn rmw_op(name: &str) -> Option<RmwOp> {
    let op = name.strip_prefix("atomic_")?;
    let op = op.strip_suffix("_explicit").unwrap_or(op);
    Some(match op {
        "exchange" => RmwOp::Exchange,
        "fetch_add" => RmwOp::Add,
        "fetch_sub" => RmwOp::Sub,
        "fetch_and" => RmwOp::And,
        "fetch_or" => RmwOp::Or,
        "fetch_xor" => RmwOp::Xor,
        "fetch_min" => RmwOp::Min,
        "fetch_max" => RmwOp::Max,
        _ => return None,
    })
}

/// An expression; its memory accesses go into `out` in evaluation order (left to right).
fn expr(p: &mut Parser, b: &mut Body, out: &mut Vec<Stmt>) -> Result<Expr, String> {
    binary(p, b, out, 0)
}

const LEVELS: [&[(&str, BinOp)]; 6] = [
    &[("||", BinOp::LogicOr)],
    &[("&&", BinOp::LogicAnd)],
    &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
    &[("<=", BinOp::Le), (">=", BinOp::Ge), ("<", BinOp::Lt), (">", BinOp::Gt)],
    &[("+", BinOp::Add), ("-", BinOp::Sub)],
    &[("*", BinOp::Mul)],
];

fn binary(p: &mut Parser, b: &mut Body, out: &mut Vec<Stmt>, level: usize) -> Result<Expr, String> {
    if level == LEVELS.len() {
        return unary(p, b, out);
    }
    let mut left = binary(p, b, out, level + 1)?;
    'outer: loop {
        for (tok, op) in LEVELS[level] {
            if p.eat(tok) {
                // `&&` and `||` evaluate both sides here; litmus conditions have no side
                // effects on their right.
                let right = binary(p, b, out, level + 1)?;
                left = Expr::Binary(*op, Box::new(left), Box::new(right));
                continue 'outer;
            }
        }
        return Ok(left);
    }
}

fn unary(p: &mut Parser, b: &mut Body, out: &mut Vec<Stmt>) -> Result<Expr, String> {
    if p.eat("!") {
        return Ok(Expr::Not(Box::new(unary(p, b, out)?)));
    }
    if p.eat("-") {
        let e = unary(p, b, out)?;
        return Ok(Expr::Binary(BinOp::Sub, Box::new(Expr::Const(0)), Box::new(e)));
    }
    if p.eat("*") {
        let loc = location(p, b)?;
        let reg = b.temp();
        out.push(Stmt::Load { reg, loc, order: Order::Plain, scope: None });
        return Ok(Expr::Reg(reg));
    }
    if p.eat("(") {
        let e = expr(p, b, out)?;
        p.expect(")")?;
        return Ok(e);
    }
    match p.peek().cloned() {
        Some(Tok::Int(v)) => {
            p.pos += 1;
            Ok(Expr::Const(v))
        }
        Some(Tok::Word(name)) if p.peek_at(1) == Some(&Tok::Punct("(")) => {
            p.pos += 2;
            let e = call(p, b, &name, out)?;
            p.expect(")")?;
            Ok(e)
        }
        Some(Tok::Word(name)) => {
            p.pos += 1;
            match name.as_str() {
                "true" => Ok(Expr::Const(1)),
                "false" => Ok(Expr::Const(0)),
                _ => b.register(&name).map(Expr::Reg).ok_or(format!("line {}: `{name}` is not a register", p.line())),
            }
        }
        _ => p.err("an expression"),
    }
}

/// A call with a value, after its `(`; the caller reads the `)`.
fn call(p: &mut Parser, b: &mut Body, name: &str, out: &mut Vec<Stmt>) -> Result<Expr, String> {
    let explicit = name.ends_with("_explicit");
    let default = (Order::SeqCst, Scope::Device);
    if name == "atomic_load" || name == "atomic_load_explicit" {
        let loc = location(p, b)?;
        let (order, scope) = if explicit { order_and_scope(p)? } else { default };
        let reg = b.temp();
        out.push(Stmt::Load { reg, loc, order, scope: Some(scope) });
        return Ok(Expr::Reg(reg));
    }
    if let Some(op) = rmw_op(name) {
        let loc = location(p, b)?;
        p.expect(",")?;
        let operand = expr(p, b, out)?;
        let (order, scope) = if explicit { order_and_scope(p)? } else { default };
        let reg = b.temp();
        out.push(Stmt::Rmw { reg: Some(reg), loc, op, operand, order, scope: Some(scope) });
        return Ok(Expr::Reg(reg));
    }
    if let Some(strength) = name.strip_prefix("atomic_compare_exchange_") {
        let weak = match strength.strip_suffix("_explicit").unwrap_or(strength) {
            "strong" => false,
            "weak" => true,
            _ => return Err(format!("line {}: unknown function `{name}`", p.line())),
        };
        let loc = location(p, b)?;
        p.expect(",")?;
        // The expected value is a variable (`&e`) or a location the test shares (`one`),
        // read before the exchange and written back when it fails.
        let (expected, in_memory) = if p.eat("&") {
            let var = p.word()?;
            (b.register(&var).ok_or(format!("line {}: `{var}` is not a register", p.line()))?, None)
        } else {
            let at = location(p, b)?;
            let e = b.temp();
            out.push(Stmt::Load { reg: e, loc: at, order: Order::Plain, scope: None });
            (e, Some(at))
        };
        p.expect(",")?;
        let desired = expr(p, b, out)?;
        let (success, failure, scope) = if explicit {
            p.expect(",")?;
            let s = order(p)?;
            p.expect(",")?;
            let f = order(p)?;
            let sc = if p.eat(",") { scope(p)? } else { Scope::Device };
            (s, f, sc)
        } else {
            (Order::SeqCst, Order::SeqCst, Scope::Device)
        };
        // On failure the expected variable receives the value found; on success it holds
        // that value already, so it receives the old value either way.
        let result = b.temp();
        out.push(Stmt::Cas {
            old: Some(expected),
            result: Some(result),
            loc,
            expected: Expr::Reg(expected),
            desired,
            success,
            failure,
            scope: Some(scope),
            weak,
        });
        if let Some(at) = in_memory {
            out.push(Stmt::If {
                cond: Expr::Not(Box::new(Expr::Reg(result))),
                then: vec![Stmt::Store { loc: at, value: Expr::Reg(expected), order: Order::Plain, scope: None }],
                otherwise: Vec::new(),
            });
        }
        return Ok(Expr::Reg(result));
    }
    Err(format!("line {}: unknown function `{name}`", p.line()))
}

/// The final condition.
fn condition(p: &mut Parser, numbers: &[usize]) -> Result<Condition, String> {
    let quantifier = if p.eat("~") {
        if !p.is_word("exists") {
            return p.err("`exists`");
        }
        p.pos += 1;
        Quantifier::NotExists
    } else if p.is_word("exists") {
        p.pos += 1;
        Quantifier::Exists
    } else if p.is_word("forall") {
        p.pos += 1;
        Quantifier::Forall
    } else {
        return p.err("`exists`, `~exists` or `forall`");
    };
    let prop = disjunction(p, numbers)?;
    Ok(Condition { quantifier, prop })
}

fn disjunction(p: &mut Parser, numbers: &[usize]) -> Result<Prop, String> {
    let mut left = conjunction(p, numbers)?;
    while p.eat("\\/") {
        let right = conjunction(p, numbers)?;
        left = Prop::Or(Box::new(left), Box::new(right));
    }
    Ok(left)
}

fn conjunction(p: &mut Parser, numbers: &[usize]) -> Result<Prop, String> {
    let mut left = atom(p, numbers)?;
    while p.eat("/\\") {
        let right = atom(p, numbers)?;
        left = Prop::And(Box::new(left), Box::new(right));
    }
    Ok(left)
}

fn atom(p: &mut Parser, numbers: &[usize]) -> Result<Prop, String> {
    if p.eat("~") {
        return Ok(Prop::Not(Box::new(atom(p, numbers)?)));
    }
    if p.eat("(") {
        let inner = disjunction(p, numbers)?;
        p.expect(")")?;
        return Ok(inner);
    }
    if p.is_word("true") {
        p.pos += 1;
        return Ok(Prop::True);
    }
    let left = term(p, numbers)?;
    let negated = if p.eat("!=") {
        true
    } else if p.eat("==") || p.eat("=") {
        false
    } else {
        return p.err("`=` or `!=`");
    };
    let right = term(p, numbers)?;
    Ok(Prop::Compare { left, right, negated })
}

fn term(p: &mut Parser, numbers: &[usize]) -> Result<Term, String> {
    let thread_of = |p: &Parser, n: usize| numbers.iter().position(|&m| m == n).ok_or(format!("line {}: there is no thread {n}", p.line()));
    match p.peek().cloned() {
        Some(Tok::Int(n)) if p.peek_at(1) == Some(&Tok::Punct(":")) => {
            p.pos += 2;
            let thread = thread_of(p, usize::try_from(n).map_err(|_| "a thread number is not negative")?)?;
            Ok(Term::Register { thread, name: p.word()? })
        }
        Some(Tok::Word(w)) if p.peek_at(1) == Some(&Tok::Punct(":")) && w.starts_with('P') => {
            p.pos += 2;
            let n: usize = w[1..].parse().map_err(|_| format!("line {}: `{w}` is not a thread", p.line()))?;
            let thread = thread_of(p, n)?;
            Ok(Term::Register { thread, name: p.word()? })
        }
        Some(Tok::Word(_)) => Ok(Term::Location(p.word()?)),
        Some(Tok::Punct("[")) => {
            p.pos += 1;
            let l = p.word()?;
            p.expect("]")?;
            Ok(Term::Location(l))
        }
        _ => Ok(Term::Const(p.int()?)),
    }
}

/// Reads a final condition on its own: the PTX format writes its conditions the same way.
/// `numbers` are the threads' numbers in file order.
pub(super) fn parse_condition(text: &str, numbers: &[usize]) -> Result<Condition, String> {
    let mut p = Parser { toks: lex(text, 1)?, pos: 0 };
    let c = condition(&mut p, numbers)?;
    if p.peek().is_some() {
        return p.err("the end of the condition");
    }
    Ok(c)
}
