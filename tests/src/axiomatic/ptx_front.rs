//! A reader of PTX litmus tests (the Dat3M format) into [`Test`], for the PTX model's tests.
//!
//! The format: a header `PTX <name>`, quoted comment lines, an initial state
//! `{ x=0; P1:r1=0; }`, a row of thread headers `P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;`, rows of
//! one instruction per thread separated by `|` and ended by `;`, and a final condition. The
//! instructions read: `ld` and `st` (`.weak`, or `.relaxed`, `.acquire` or `.release` with a
//! scope `.cta`, `.gpu` or `.sys`), `ld r, <constant>` (a register move), `atom.<sem>.<scope>.<op>`
//! (`add`, `sub`, `exch`, `cas`, `and`, `or`, `xor`, `min`, `max`), `red.<sem>.<scope>.<op>`,
//! `fence.sc.<scope>` and `fence.acq_rel.<scope>`, `bar.cta.sync <id>`, `add`, `sub` and `mov`
//! on registers, labels, and forward branches `beq`, `bne` and `goto`.
//!
//! What it refuses, with the reason: backward jumps (loops), barriers that name a thread
//! count or a register id, `bar.cta.arrive`, and proxy or alias declarations.

use super::front::parse_condition;
use super::program::{BinOp, Dialect, Expr, Location, Order, Register, RmwOp, Scope, Space, Stmt, Test, Thread, FLAG_GLOBAL, FLAG_LOCAL};

/// Reads a PTX litmus test.
pub fn parse(text: &str) -> Result<Test, String> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default().trim();
    let name = header.strip_prefix("PTX").ok_or("the first line is not `PTX <name>`")?.trim().to_string();
    let rest: Vec<&str> = lines.filter(|l| !l.trim_start().starts_with('"')).collect();
    let rest = rest.join("\n");
    let open = rest.find('{').ok_or("no initial state `{ ... }`")?;
    let close = rest[open..].find('}').ok_or("the initial state is never closed")? + open;
    let init = &rest[open + 1..close];
    let body = &rest[close + 1..];

    // The table runs up to the quantifier of the condition.
    let cond_at = ["~exists", "exists", "forall"].iter().filter_map(|q| find_word(body, q)).min().ok_or("no final condition")?;
    let table = &body[..cond_at];
    let mut rows = table.split(';').map(str::trim).filter(|r| !r.is_empty());
    let headers: Vec<&str> = rows.next().ok_or("no thread headers")?.split('|').map(str::trim).collect();
    let mut threads = Vec::new();
    let mut numbers = Vec::new();
    for h in &headers {
        let (number, group, device) = thread_header(h)?;
        numbers.push(number);
        threads.push(Thread { group, device, registers: Vec::new(), body: Vec::new() });
    }

    let mut locations: Vec<Location> = Vec::new();
    // The initial state: locations, and registers' initial values.
    let mut reg_init: Vec<(usize, String, i64)> = Vec::new();
    for entry in init.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let (lhs, rhs) = entry.split_once('=').ok_or(format!("`{entry}` is not `name=value`"))?;
        let value: i64 = rhs.trim().parse().map_err(|_| format!("`{entry}`: the value is not a number"))?;
        let lhs = lhs.trim();
        if let Some((t, r)) = lhs.split_once(':') {
            let n: usize = t.trim().trim_start_matches('P').parse().map_err(|_| format!("`{entry}`: no such thread"))?;
            let t = numbers.iter().position(|&m| m == n).ok_or(format!("`{entry}`: no such thread"))?;
            reg_init.push((t, r.trim().to_string(), value));
        } else {
            if lhs.contains(char::is_whitespace) {
                return Err(format!("`{entry}`: declarations with types, proxies and aliases are not supported"));
            }
            locations.push(Location { name: lhs.to_string(), initial: value, space: Space::Global, atomic: true });
        }
    }
    for (t, r, v) in reg_init {
        let i = register(&mut threads[t], &r);
        threads[t].registers[i].initial = v;
    }

    for row in rows {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        if cells.len() > threads.len() {
            return Err(format!("the row `{row}` has more cells than there are threads"));
        }
        for (t, cell) in cells.iter().enumerate() {
            if !cell.is_empty() {
                instruction(cell, &mut threads[t], &mut locations)?;
            }
        }
    }
    let condition = parse_condition(&body[cond_at..], &numbers)?;
    Ok(Test { name, dialect: Dialect::Ptx, locations, threads, condition })
}

/// The offset of `word` in `text` as a whole word.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let boundary = |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '~'));
        if boundary(before) && boundary(after) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// `P0@cta 0,gpu 0`: the thread's number, CTA and GPU.
fn thread_header(h: &str) -> Result<(usize, u32, u32), String> {
    let (p, place) = h.split_once('@').ok_or(format!("`{h}` is not `P<i>@cta <c>,gpu <g>`"))?;
    let number: usize = p.trim().trim_start_matches('P').parse().map_err(|_| format!("`{h}`: not a thread name"))?;
    let (mut cta, mut gpu) = (0, 0);
    for part in place.split(',') {
        let mut words = part.split_whitespace();
        match (words.next(), words.next().and_then(|v| v.parse::<u32>().ok())) {
            (Some("cta"), Some(v)) => cta = v,
            (Some("gpu"), Some(v)) => gpu = v,
            _ => return Err(format!("`{h}`: not `cta <c>,gpu <g>`")),
        }
    }
    Ok((number, cta, gpu))
}

fn register(t: &mut Thread, name: &str) -> usize {
    match t.registers.iter().position(|r| r.name == name) {
        Some(i) => i,
        None => {
            t.registers.push(Register { name: name.to_string(), initial: 0, observed: true });
            t.registers.len() - 1
        }
    }
}

fn is_register(s: &str) -> bool {
    s.starts_with('r') && s.len() > 1 && s[1..].chars().all(|c| c.is_ascii_digit())
}

/// A register or a constant.
fn operand(s: &str, t: &mut Thread) -> Result<Expr, String> {
    let s = s.trim();
    if is_register(s) {
        Ok(Expr::Reg(register(t, s)))
    } else {
        s.parse().map(Expr::Const).map_err(|_| format!("`{s}` is neither a register nor a number"))
    }
}

fn location(s: &str, locations: &mut Vec<Location>) -> Result<usize, String> {
    let s = s.trim();
    if s.is_empty() || !s.chars().all(|c| c.is_alphanumeric() || c == '_') || is_register(s) {
        return Err(format!("`{s}` is not a location"));
    }
    Ok(match locations.iter().position(|l| l.name == s) {
        Some(i) => i,
        None => {
            locations.push(Location { name: s.to_string(), initial: 0, space: Space::Global, atomic: true });
            locations.len() - 1
        }
    })
}

/// The semantics and scope of an access: `.weak` (or none) has no scope.
fn sem_scope(parts: &[&str], what: &str) -> Result<(Order, Option<Scope>), String> {
    let mut order = Order::Plain;
    let mut scope = None;
    for p in parts {
        match *p {
            "weak" => order = Order::Plain,
            "relaxed" => order = Order::Relaxed,
            "acquire" => order = Order::Acquire,
            "release" => order = Order::Release,
            "acq_rel" => order = Order::AcqRel,
            "sc" => order = Order::SeqCst,
            "cta" => scope = Some(Scope::Cta),
            "gpu" => scope = Some(Scope::Gpu),
            "sys" => scope = Some(Scope::Sys),
            other => return Err(format!("`{what}`: unknown qualifier `.{other}`")),
        }
    }
    if order != Order::Plain && scope.is_none() {
        return Err(format!("`{what}`: a strong operation names its scope"));
    }
    Ok((order, scope))
}

fn rmw_op(name: &str) -> Option<RmwOp> {
    Some(match name {
        "add" => RmwOp::Add,
        "sub" => RmwOp::Sub,
        "exch" => RmwOp::Exchange,
        "and" => RmwOp::And,
        "or" => RmwOp::Or,
        "xor" => RmwOp::Xor,
        "min" => RmwOp::Min,
        "max" => RmwOp::Max,
        _ => return None,
    })
}

fn instruction(cell: &str, t: &mut Thread, locations: &mut Vec<Location>) -> Result<(), String> {
    if let Some(label) = cell.strip_suffix(':') {
        t.body.push(Stmt::Label(label.trim().to_string()));
        return Ok(());
    }
    let (op, args) = cell.split_once(char::is_whitespace).unwrap_or((cell, ""));
    let args: Vec<&str> = if args.trim().is_empty() { Vec::new() } else { args.split(',').map(str::trim).collect() };
    let mut parts = op.split('.');
    let head = parts.next().unwrap_or_default();
    let quals: Vec<&str> = parts.collect();
    let need = |n: usize| if args.len() == n { Ok(()) } else { Err(format!("`{cell}`: expected {n} operands")) };
    match head {
        "ld" => {
            need(2)?;
            let reg = register(t, args[0]);
            if quals.is_empty() && args[1].parse::<i64>().is_ok() {
                let value = operand(args[1], t)?;
                t.body.push(Stmt::Assign { reg, value });
                return Ok(());
            }
            let (order, scope) = sem_scope(&quals, cell)?;
            let loc = location(args[1], locations)?;
            t.body.push(Stmt::Load { reg, loc, order, scope });
        }
        "st" => {
            need(2)?;
            let (order, scope) = sem_scope(&quals, cell)?;
            let loc = location(args[0], locations)?;
            let value = operand(args[1], t)?;
            t.body.push(Stmt::Store { loc, value, order, scope });
        }
        "atom" | "red" => {
            let (op_name, quals) = quals.split_last().ok_or(format!("`{cell}`: no operation"))?;
            let (order, scope) = sem_scope(quals, cell)?;
            let order = if order == Order::Plain { Order::Relaxed } else { order };
            let scope = scope.or(Some(Scope::Gpu));
            let (reg, rest) = if head == "atom" {
                let (r, rest) = args.split_first().ok_or(format!("`{cell}`: no destination"))?;
                (Some(register(t, r)), rest)
            } else {
                (None, &args[..])
            };
            if *op_name == "cas" {
                if rest.len() != 3 {
                    return Err(format!("`{cell}`: expected a location, a compare value and a new value"));
                }
                let loc = location(rest[0], locations)?;
                let expected = operand(rest[1], t)?;
                let desired = operand(rest[2], t)?;
                t.body.push(Stmt::Cas { old: reg, result: None, loc, expected, desired, success: order, failure: order, scope, weak: false });
            } else {
                let op = rmw_op(op_name).ok_or(format!("`{cell}`: unknown operation `{op_name}`"))?;
                if rest.len() != 2 {
                    return Err(format!("`{cell}`: expected a location and an operand"));
                }
                let loc = location(rest[0], locations)?;
                let operand = operand(rest[1], t)?;
                t.body.push(Stmt::Rmw { reg, loc, op, operand, order, scope });
            }
        }
        "fence" | "membar" => {
            need(0)?;
            let (order, scope) = if head == "membar" {
                let scope = match quals.as_slice() {
                    ["cta"] => Scope::Cta,
                    ["gl"] => Scope::Gpu,
                    ["sys"] => Scope::Sys,
                    _ => return Err(format!("`{cell}`: unknown membar")),
                };
                (Order::SeqCst, Some(scope))
            } else {
                sem_scope(&quals, cell)?
            };
            if !matches!(order, Order::SeqCst | Order::AcqRel) {
                return Err(format!("`{cell}`: only fence.sc and fence.acq_rel are supported"));
            }
            t.body.push(Stmt::Fence { order, scope, flags: FLAG_GLOBAL | FLAG_LOCAL });
        }
        "bar" | "barrier" => {
            if !(quals == ["cta", "sync"] || quals == ["sync"]) {
                return Err(format!("`{cell}`: only bar.cta.sync is supported"));
            }
            if args.len() != 1 {
                return Err(format!("`{cell}`: barriers that name a thread count are out of the checker's reach"));
            }
            let id: i64 = args[0].parse().map_err(|_| format!("`{cell}`: a barrier id given by a register is out of the checker's reach"))?;
            t.body.push(Stmt::Barrier { flags: FLAG_GLOBAL | FLAG_LOCAL, id: Some(id) });
        }
        "add" | "sub" | "mul" | "and" | "or" | "xor" => {
            need(3)?;
            let reg = register(t, args[0]);
            let op = match head {
                "add" => BinOp::Add,
                "sub" => BinOp::Sub,
                "mul" => BinOp::Mul,
                "and" => BinOp::And,
                "or" => BinOp::Or,
                _ => BinOp::Xor,
            };
            let value = Expr::Binary(op, Box::new(operand(args[1], t)?), Box::new(operand(args[2], t)?));
            t.body.push(Stmt::Assign { reg, value });
        }
        "mov" => {
            need(2)?;
            let reg = register(t, args[0]);
            let value = operand(args[1], t)?;
            t.body.push(Stmt::Assign { reg, value });
        }
        "beq" | "bne" => {
            need(3)?;
            let (a, b) = (operand(args[0], t)?, operand(args[1], t)?);
            let op = if head == "beq" { BinOp::Eq } else { BinOp::Ne };
            t.body.push(Stmt::Goto { when: Some(Expr::Binary(op, Box::new(a), Box::new(b))), label: args[2].to_string() });
        }
        "goto" => {
            need(1)?;
            t.body.push(Stmt::Goto { when: None, label: args[0].to_string() });
        }
        _ => return Err(format!("`{cell}`: unknown instruction")),
    }
    Ok(())
}
