//! The final condition: reading it (shared by both dialects, each resolving names through
//! [`ConditionNames`]) and evaluating it over a run's final registers and locations.

use crate::diag::{Diagnostic, Span};

use super::model::{CondExpr, LitmusCondition, LitmusQuantifier, Operand, Relation, Term};
use super::{error, span, Cursor};

/// How deeply the final condition may nest parentheses and negations; deeper input is
/// rejected instead of exhausting the stack.
const MAX_CONDITION_DEPTH: usize = 200;

impl LitmusCondition {
    /// Whether the expression (ignoring the quantifier) holds, given register and location
    /// values. An atom whose value the callbacks do not know is false (and its negation
    /// true).
    pub fn holds(&self, register: &dyn Fn(usize, &str) -> Option<i64>, location: &dyn Fn(&str) -> Option<i64>) -> bool {
        eval(&self.expr, register, location)
    }
}

fn eval(expr: &CondExpr, register: &dyn Fn(usize, &str) -> Option<i64>, location: &dyn Fn(&str) -> Option<i64>) -> bool {
    match expr {
        CondExpr::True => true,
        CondExpr::And(a, b) => eval(a, register, location) && eval(b, register, location),
        CondExpr::Or(a, b) => eval(a, register, location) || eval(b, register, location),
        CondExpr::Not(a) => !eval(a, register, location),
        CondExpr::Eq { term, value, negated, .. } => term_value(term, register, location).is_some_and(|v| (v == *value) != *negated),
        CondExpr::Compare { left, relation, right, .. } => {
            let side = |o: &Operand| match o {
                Operand::Term(t) => term_value(t, register, location),
                Operand::Value(v) => Some(*v),
            };
            let (Some(a), Some(b)) = (side(left), side(right)) else { return false };
            match relation {
                Relation::Eq => a == b,
                Relation::Ne => a != b,
                Relation::Lt => a < b,
                Relation::Le => a <= b,
                Relation::Gt => a > b,
                Relation::Ge => a >= b,
            }
        }
    }
}

fn term_value(term: &Term, register: &dyn Fn(usize, &str) -> Option<i64>, location: &dyn Fn(&str) -> Option<i64>) -> Option<i64> {
    match term {
        Term::Register { thread, name } => register(*thread, name),
        Term::Location { name } => location(name),
    }
}

/// What the final condition's names are resolved against: each dialect declares its
/// registers and locations its own way, and the condition reads them the same way.
pub(crate) trait ConditionNames {
    /// How many threads the test has.
    fn threads(&self) -> usize;
    /// Whether thread `thread` (below [`ConditionNames::threads`]) has a register `name`, or
    /// the diagnostic that says it does not; `atom` is the atom's span.
    fn register(&self, thread: usize, name: &str, atom: Span) -> Result<(), Diagnostic>;
    /// Whether `name` is a location of the test, or the diagnostic that says it is not.
    fn location(&self, name: &str, atom: Span) -> Result<(), Diagnostic>;
    /// What the test may continue with where a condition was expected, for the message when
    /// neither comes.
    fn expected_before_condition(&self) -> String;
}

/// The condition's reader: the names it resolves against and how deep it is.
struct Scope<'a> {
    names: &'a dyn ConditionNames,
    depth: usize,
}

/// `exists (...)`, `~exists (...)` (or `not exists`) or `forall (...)`, read from the cursor
/// with `names` (see [`ConditionNames`]).
pub(crate) fn parse_condition(c: &mut Cursor, names: &dyn ConditionNames) -> Result<LitmusCondition, Diagnostic> {
    let start = c.pos;
    let quantifier = if c.eat("~") || c.eat_word("not") {
        c.skip_trivia()?;
        if !c.eat_word("exists") {
            return Err(error(c.found_span(), format!("expected `exists` after the negation, found {}", c.found()), "expected `exists`"));
        }
        LitmusQuantifier::NotExists
    } else if c.eat_word("exists") {
        LitmusQuantifier::Exists
    } else if c.eat_word("forall") {
        LitmusQuantifier::Forall
    } else if c.at_end() {
        return Err(error(c.found_span(), "the test has no final condition", "expected `exists`, `~exists` or `forall`")
            .with_help("end the test with a condition such as `exists (1:r0=1 /\\ x=1)`"));
    } else {
        return Err(error(c.found_span(), format!("expected {}, found {}", names.expected_before_condition(), c.found()), "unexpected here"));
    };
    let mut scope = Scope { names, depth: 0 };
    let expr = parse_or(c, &mut scope)?;
    Ok(LitmusCondition { quantifier, expr, span: span(start, c.pos) })
}

fn parse_or(c: &mut Cursor, scope: &mut Scope) -> Result<CondExpr, Diagnostic> {
    let mut left = parse_and(c, scope)?;
    loop {
        // Blanks after the last operand are not part of the condition's span.
        let end = c.pos;
        c.skip_trivia()?;
        if !c.eat("\\/") {
            c.pos = end;
            return Ok(left);
        }
        let right = parse_and(c, scope)?;
        left = CondExpr::Or(Box::new(left), Box::new(right));
    }
}

fn parse_and(c: &mut Cursor, scope: &mut Scope) -> Result<CondExpr, Diagnostic> {
    let mut left = parse_unary(c, scope)?;
    loop {
        let end = c.pos;
        c.skip_trivia()?;
        if !c.eat("/\\") {
            c.pos = end;
            return Ok(left);
        }
        let right = parse_unary(c, scope)?;
        left = CondExpr::And(Box::new(left), Box::new(right));
    }
}

fn parse_unary(c: &mut Cursor, scope: &mut Scope) -> Result<CondExpr, Diagnostic> {
    c.skip_trivia()?;
    if scope.depth >= MAX_CONDITION_DEPTH {
        return Err(error(c.found_span(), format!("the condition nests more than {MAX_CONDITION_DEPTH} levels deep"), "too deep"));
    }
    let open = c.pos;
    if c.eat("~") || c.eat_word("not") {
        scope.depth += 1;
        let inner = parse_unary(c, scope)?;
        scope.depth -= 1;
        return Ok(CondExpr::Not(Box::new(inner)));
    }
    if c.eat("(") {
        scope.depth += 1;
        let inner = parse_or(c, scope)?;
        scope.depth -= 1;
        c.skip_trivia()?;
        if !c.eat(")") {
            return Err(error(c.found_span(), format!("expected `)` in the condition, found {}", c.found()), "expected `)`")
                .with_label(span(open, open + 1), "to close this"));
        }
        return Ok(inner);
    }
    if c.eat_word("true") {
        return Ok(CondExpr::True);
    }
    if c.eat_word("false") {
        return Ok(CondExpr::Not(Box::new(CondExpr::True)));
    }
    parse_atom(c, scope)
}

const ATOM_EXAMPLE: &str = "a condition atom looks like `1:r0=1` (a register of P1, also written `P1:r0`) or `x=1` (a location)";

/// One side of a comparison: `i:reg` or `Pi:reg`, `loc`, `[loc]` or `loc[0]`, or a value.
fn parse_operand(c: &mut Cursor) -> Result<Operand, Diagnostic> {
    let start = c.pos;
    // `P1:r0`: a thread named as in its header.
    let named_thread = c.peek() == Some(b'P') && c.peek_at(1).is_some_and(|b| b.is_ascii_digit()) && {
        let save = c.pos;
        c.pos += 1;
        let _ = c.unsigned();
        let colon = {
            let _ = c.skip_trivia();
            c.peek() == Some(b':')
        };
        c.pos = save;
        colon
    };
    if named_thread {
        c.pos += 1;
    }
    let thread_colon = named_thread
        || (c.peek().is_some_and(|b| b.is_ascii_digit()) && {
            let save = c.pos;
            let _ = c.unsigned();
            let colon = {
                let _ = c.skip_trivia();
                c.peek() == Some(b':')
            };
            c.pos = save;
            colon
        });
    if thread_colon {
        let (thread, _) = c.unsigned()?.expect("a thread number was seen");
        c.skip_trivia()?;
        c.eat(":");
        c.skip_trivia()?;
        let Some((name, _)) = c.ident() else {
            return Err(error(
                c.found_span(),
                format!("expected a register name after `{}:`, found {}", &c.text[start..c.pos].trim_end_matches(':').trim(), c.found()),
                "expected a register",
            )
            .with_help(ATOM_EXAMPLE));
        };
        let name = name.to_string();
        // The thread is checked once the whole atom is read (`parse_atom`).
        let thread = usize::try_from(thread).unwrap_or(usize::MAX);
        return Ok(Operand::Term(Term::Register { thread, name }));
    }
    if c.peek().is_some_and(|b| b.is_ascii_digit() || b == b'-' || b == b'+') {
        let (value, _) = c.value("in the condition")?;
        return Ok(Operand::Value(value));
    }
    let name = if c.eat("[") {
        c.skip_trivia()?;
        let Some((name, _)) = c.ident() else {
            return Err(error(c.found_span(), format!("expected a location name after `[`, found {}", c.found()), "expected a location"));
        };
        c.skip_trivia()?;
        if !c.eat("]") {
            return Err(error(c.found_span(), format!("expected `]` after `[{name}`, found {}", c.found()), "expected `]`"));
        }
        name
    } else if let Some((name, _)) = c.ident() {
        let after_name = c.pos;
        c.skip_trivia()?;
        if c.peek() == Some(b'[') {
            let index_start = c.pos;
            c.pos += 1;
            c.skip_trivia()?;
            let index = c.unsigned()?;
            c.skip_trivia()?;
            if !c.eat("]") {
                return Err(error(c.found_span(), format!("expected `]` after the index of `{name}`, found {}", c.found()), "expected `]`"));
            }
            if index.map(|(k, _)| k) != Some(0) {
                return Err(error(span(index_start, c.pos), format!("elements of `{name}` other than the first are not supported"), "an element index")
                    .with_note("litmus locations are single values; `x[0]` is `x`"));
            }
        } else {
            c.pos = after_name;
        }
        name
    } else {
        return Err(error(c.found_span(), format!("expected a condition such as `1:r0=1` or `x=1`, found {}", c.found()), "expected a condition"));
    };
    Ok(Operand::Term(Term::Location { name: name.to_string() }))
}

/// `a = b`, `a == b`, `a != b`, `a < b`, `a <= b`, `a > b` or `a >= b`, where each side is a
/// register, a location or a value.
fn parse_atom(c: &mut Cursor, scope: &Scope) -> Result<CondExpr, Diagnostic> {
    let start = c.pos;
    let left = parse_operand(c)?;
    let term_end = c.pos;
    c.skip_trivia()?;
    let relation = if c.eat("!=") {
        Relation::Ne
    } else if c.eat("==") || c.eat("=") {
        Relation::Eq
    } else if c.eat("<=") {
        Relation::Le
    } else if c.eat(">=") {
        Relation::Ge
    } else if c.eat("<") {
        Relation::Lt
    } else if c.eat(">") {
        Relation::Gt
    } else {
        let term = &c.text[start..term_end];
        return Err(error(c.found_span(), format!("expected `=` and a value after `{term}`, found {}", c.found()), "expected `=`").with_help(ATOM_EXAMPLE));
    };
    c.skip_trivia()?;
    let right = parse_operand(c)?;
    let atom = span(start, c.pos);
    // Registers are checked once the whole atom is read, so the message can show it.
    for operand in [&left, &right] {
        if let Operand::Term(Term::Register { thread, name }) = operand {
            let count = scope.names.threads();
            if *thread >= count {
                let threads = if count == 1 { "only one thread, P0".to_string() } else { format!("only {count} threads, P0 to P{}", count - 1) };
                let named = if *thread == usize::MAX { "a thread".to_string() } else { format!("thread {thread}") };
                return Err(error(atom, format!("the condition names {named}, but the test has {threads}"), "no such thread"));
            }
            scope.names.register(*thread, name, atom)?;
        }
        if let Operand::Term(Term::Location { name }) = operand {
            scope.names.location(name, atom)?;
        }
    }
    Ok(match (left, relation, right) {
        (Operand::Term(term), Relation::Eq | Relation::Ne, Operand::Value(value))
        | (Operand::Value(value), Relation::Eq | Relation::Ne, Operand::Term(term)) => {
            CondExpr::Eq { term, value, negated: relation == Relation::Ne, span: atom }
        }
        (left, relation, right) => CondExpr::Compare { left, relation, right, span: atom },
    })
}
