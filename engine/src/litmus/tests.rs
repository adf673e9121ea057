//! Tests of the OpenCL litmus reader and its translation.

use super::*;
use crate::scenario::{Dialect, ElemType};

const MP: &str = "OPENCL MP_test
(* message passing,
   two work-groups *)
{ [x]=0; [y]=0; }

P0@wg 0, dev 0 (global int* x, global atomic_int* y) {
  *x = 1;
  atomic_store_explicit(y, 1, memory_order_release, memory_scope_device);
}

P1@wg 1, dev 0 (global int* x, global atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire, memory_scope_device);
  int r1 = *x;
}

exists (1:r0=1 /\\ 1:r1=0)
";

const SB: &str = "OPENCL SB+scopes
(*
 * Store buffering across two devices, with work-group scopes that do not reach
 * from one device to the other, and a location in local memory.
 *)
{
  [x] = 0;
  [y] = -3;
}

P0@wg 0, dev 0 (global atomic_int* x, global atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_seq_cst, memory_scope_work_group);
  int r0 = atomic_load_explicit(y, memory_order_seq_cst, memory_scope_work_group);
}

P1@wg 0, dev 1 (global atomic_int* x, volatile global int* y, local atomic_int* z) {
  *y = 1; // plain store
  atomic_store_explicit(z, 1, memory_order_relaxed, memory_scope_work_group);
  int r0 = atomic_load_explicit(x, memory_order_seq_cst, memory_scope_device);
}

P2@wg 0, dev 0 (global atomic_int* x) {
  int r2, r3 = 1;
}

~exists (0:r0 = 0 /\\ 1:r0=0)
";

fn compile(t: &LitmusTest) -> Result<(), Diagnostic> {
    crate::frontend::compile(&t.kernel_source, Dialect::OpenCl, &[]).map(|_| ())
}

fn covered<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    let s = d.span.expect("the diagnostic has a span");
    &text[s.start as usize..s.end as usize]
}

fn parse_err(text: &str) -> Diagnostic {
    match parse(text) {
        Ok(t) => panic!("expected an error, parsed {t:?}"),
        Err(d) => {
            assert_eq!(d.code, CODE);
            d
        }
    }
}

fn regs(t: &LitmusTest) -> Vec<(usize, &str)> {
    t.registers.iter().map(|r| (r.thread, r.name.as_str())).collect()
}

#[test]
fn message_passing() {
    let t = parse(MP).unwrap();
    assert_eq!(t.name, "MP_test");
    assert_eq!(t.locations.len(), 2);
    assert_eq!(t.locations[1].name, "y");
    assert_eq!(t.locations[1].elem, ElemType::Int);
    assert_eq!(t.threads.len(), 2);
    assert_eq!(&MP[t.threads[1].span.start as usize..t.threads[1].span.end as usize], "P1@wg 1, dev 0");
    assert_eq!(regs(&t), vec![(1, "r0"), (1, "r1")]);
    assert_eq!(t.register_slot(1, "r1"), Some(1));
    assert_eq!(t.register_slot(0, "r1"), None);
    assert_eq!(t.condition.quantifier, LitmusQuantifier::Exists);
    assert_eq!(&MP[t.condition.span.start as usize..t.condition.span.end as usize], "exists (1:r0=1 /\\ 1:r1=0)");
    assert_eq!((t.local_size, t.groups), (1, 2));
    assert_eq!(t.group_device, vec![0, 0]);
    assert_eq!(t.work_item_thread, vec![Some(0), Some(1)]);
    let values = |thread: usize, name: &str| match (thread, name) {
        (1, "r0") => Some(1),
        (1, "r1") => Some(0),
        _ => None,
    };
    assert!(t.condition.holds(&values, &|_| None));
    assert!(!t.condition.holds(&|_, _| Some(1), &|_| None));
    compile(&t).unwrap();
    assert!(t.kernel_source.contains("kernel void __litmus(global int* x, global int* y)"));
    assert!(t.kernel_source.contains("__P1((global int*)x, (global atomic_int*)y)"));
    assert!(t.kernel_source.contains("__interleave_observe(0,r0);__interleave_observe(1,r1);"));
}

#[test]
fn store_buffering_with_scopes_devices_and_local_memory() {
    let t = parse(SB).unwrap();
    let names: Vec<&str> = t.locations.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["x", "y", "z"]);
    assert_eq!(t.locations[1].initial, -3);
    assert_eq!(t.locations[2].space, LitmusSpace::Local);
    assert_eq!(t.locations[2].initial, 0);
    assert_eq!(regs(&t), vec![(0, "r0"), (1, "r0"), (2, "r2"), (2, "r3")]);
    assert_eq!(t.condition.quantifier, LitmusQuantifier::NotExists);
    // (dev 0, wg 0) holds P0 and P2, (dev 1, wg 0) holds P1.
    assert_eq!((t.local_size, t.groups), (2, 2));
    assert_eq!(t.group_device, vec![0, 1]);
    assert_eq!(t.work_item_thread, vec![Some(0), Some(2), Some(1), None]);
    assert_eq!((t.threads[1].device, t.threads[1].work_group), (1, 0));
    compile(&t).unwrap();
    assert!(t.kernel_source.contains("global int* z)"), "a local location is one buffer shared by all threads");
    assert!(t.kernel_source.contains("__P1((global atomic_int*)x, (volatile global int*)y, (local atomic_int*)z)"));
    assert!(t.kernel_source.contains("__litmus_group == 0u && __litmus_item == 1u) __P2((global atomic_int*)x)"));
}

#[test]
fn bodies_and_parameters_keep_their_offsets() {
    for text in [MP, SB] {
        let t = parse(text).unwrap();
        for thread in &t.threads {
            for s in [thread.body, thread.params] {
                let (a, b) = (s.start as usize, s.end as usize);
                assert_eq!(&t.kernel_source[a..b], &text[a..b], "{} of {}", thread.name, t.name);
            }
        }
        // Newlines are kept too, so line numbers agree.
        let line = |s: &str, at: Span| s[..at.start as usize].matches('\n').count();
        for thread in &t.threads {
            assert_eq!(line(&t.kernel_source, thread.body), line(text, thread.body), "{} of {}", thread.name, t.name);
        }
    }
}

#[test]
fn a_short_header_shifts_later_threads_but_still_compiles() {
    // No blank space ahead of P0's end for a definition: the calls are written in place.
    let text = "OPENCL s\n{}\nP0@wg 0,dev 0(global atomic_int* x){int r0=1;}\nP1@wg 0,dev 0(global atomic_int* x){int r1=2;}\nexists(0:r0=1)";
    let t = parse(text).unwrap();
    let p0 = t.threads[0].body;
    assert_eq!(&t.kernel_source[p0.start as usize..p0.end as usize], "int r0=1;");
    compile(&t).unwrap();
}

#[test]
fn comments_labels_and_nested_blocks() {
    let text = "// leading comment
(* a (* nested *) comment *)
OPENCL labels
{ x=1; int y = 2; }
// a C comment between items
P0@wg 0, dev 0 (global atomic_int* x, global atomic_int* y) { // trailing
  B1: barrier(CLK_GLOBAL_MEM_FENCE);
  /* int hidden; */
  int a = atomic_load_explicit(x, memory_order_relaxed), *p = 0, b[2], c;
  if (a == 1) { int inner = 2; b[0] = inner; }
  for (int i = 0; i < 2; i++) { c = i; }
  B2: int d = '}';
}
(* between *)
exists (0:a=1 \\/ ~(0:c=1) /\\ x!=2 \\/ [y]=2 /\\ x[0]=1)
";
    assert!(LitmusTest::is_litmus(text));
    let t = parse(text).unwrap();
    assert_eq!(t.locations[0].initial, 1);
    assert_eq!(t.locations[1].initial, 2);
    assert_eq!(regs(&t), vec![(0, "a"), (0, "c"), (0, "d")]);
    let CondExpr::Or(left, right) = &t.condition.expr else { panic!("{:?}", t.condition.expr) };
    assert!(matches!(**right, CondExpr::And(..)));
    let CondExpr::Or(first, second) = &**left else { panic!() };
    assert!(matches!(&**first, CondExpr::Eq { term: Term::Register { thread: 0, .. }, value: 1, negated: false, .. }));
    let CondExpr::And(not, ne) = &**second else { panic!() };
    assert!(matches!(&**not, CondExpr::Not(_)));
    assert!(matches!(&**ne, CondExpr::Eq { negated: true, value: 2, .. }));
    let state = |_: usize, name: &str| Some(if name == "c" { 1 } else { 0 });
    assert!(!t.condition.holds(&state, &|_| Some(1)));
    assert!(t.condition.holds(&state, &|name| Some(if name == "y" { 2 } else { 1 })));
    compile(&t).unwrap();
}

#[test]
fn forall_and_compact_spacing() {
    let text = "OPENCL c {[x]=0;}P0@wg 3,dev 2(global atomic_int* x){int r=1;}forall(0:r=1)";
    let t = parse(text).unwrap();
    assert_eq!(t.condition.quantifier, LitmusQuantifier::Forall);
    assert_eq!((t.threads[0].work_group, t.threads[0].device), (3, 2));
    assert_eq!(t.group_device, vec![2]);
    compile(&t).unwrap();
}

#[test]
fn errors_point_at_the_problem() {
    let d = parse_err("OPENCL t\n{}\nP0 wg 0, dev 0 () {}\nexists (x=1)");
    assert_eq!(d.message, "expected `@wg` after the thread name `P0`, found `wg`");
    assert_eq!(covered("OPENCL t\n{}\nP0 wg 0, dev 0 () {}\nexists (x=1)", &d), "wg");

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { int r0 = *x; }\nP1@wg 0, dev 0 (global int* x) { int r1 = *x; }\nexists (1:r5=1)";
    let d = parse_err(text);
    assert_eq!(d.message, "the condition names register `r5` of thread 1, which P1 does not declare");
    assert_eq!(covered(text, &d), "1:r5=1");

    // A pointer parameter in the condition is an address: its atoms never hold.
    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { int r0 = *x; }\nexists (0:x = 0)";
    let t = parse(text).unwrap();
    assert!(!t.condition.holds(&|_, name| (name == "r0").then_some(0), &|_| Some(0)));

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { }\nexists (2:r0=1)";
    let d = parse_err(text);
    assert_eq!(d.message, "the condition names thread 2, but the test has only one thread, P0");
    assert_eq!(covered(text, &d), "2:r0=1");

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { }\nexists (z=1)";
    assert_eq!(covered(text, &parse_err(text)), "z=1");

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 () { }\nP1@wg 0, dev 0 () { }\nP1@wg 0, dev 0 () { }\nexists (true)";
    let d = parse_err(text);
    assert_eq!(d.message, "thread P1 is declared twice");
    assert_eq!(d.span, Some(Span::new(56, 58)));

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int* x) { if (1) { }\nexists (x=1)";
    let d = parse_err(text);
    assert_eq!(d.message, "the body of P0 has no closing `}`");
    assert_eq!(covered(text, &d), "{");

    let text = "OPENCL t\n{ [x]=0; [x]=1; }\nP0@wg 0, dev 0 () { }\nexists (x=1)";
    let d = parse_err(text);
    assert_eq!(d.message, "the location `x` is initialised twice");
    assert_eq!(d.span, Some(Span::new(19, 20)));

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (global int n) { }\nexists (true)";
    let d = parse_err(text);
    assert_eq!(d.message, "the parameter `n` of P0 is not a pointer");
    assert_eq!(covered(text, &d), "global int n");

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 () { }\n";
    assert_eq!(parse_err(text).message, "the test has no final condition");

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 () { }\nexists (true) extra";
    assert_eq!(covered(text, &parse_err(text)), "extra");

    let text = "OPENCL t\n{ [x]=99999999999999999999; }";
    assert_eq!(covered(text, &parse_err(text)), "99999999999999999999");

    let text = "OPENCL t\n{}\nP0@wg 0, dev 0 (local int* x) { }\nP1@wg 0, dev 0 (global int* x) { }\nexists (x=1)";
    let d = parse_err(text);
    assert_eq!(d.message, "P1 declares `x` in global memory, but P0 declares it in local memory");

    let text = "OPENCL t\n{}\nP1@wg 0, dev 0 () { }\nexists (true)";
    assert_eq!(parse_err(text).message, "expected thread P0 here, found P1");

    let text = "OPENCL t\n(* never closed";
    assert_eq!(covered(text, &parse_err(text)), "(*");

    assert!(!LitmusTest::is_litmus("kernel void k() {}"));
    assert!(!LitmusTest::is_litmus("(* unclosed"));
}

#[test]
fn never_panics_on_truncated_or_odd_input() {
    for text in [MP, SB] {
        for end in (0..=text.len()).filter(|&e| text.is_char_boundary(e)) {
            let _ = parse(&text[..end]);
        }
    }
    let odd = [
        "",
        "OPENCL",
        "OPENCL é",
        "OPENCL x\n{ [é]=1; }",
        "OPENCL x\nP0@wg 0, dev 0 (global int* é) {}\nexists(true)",
        "OPENCL x\nP0@wg 0, dev 0 () {}\nexists(((((((",
        "OPENCL x\nP0@wg 0, dev 0 () {}\nexists(0:r=-9223372036854775808)",
        "OPENCL x\nP0@wg 0, dev 0 () {}\nexists(x=-9223372036854775809)",
        "OPENCL x\nP99999999999999999999999@wg",
        "OPENCL x\nP0@wg 4294967296, dev 0 () {}",
        "OPENCL x\nP0@wg 0, dev 0 () { \"}\" '}' /* } */ // }\n}\nexists(true)",
        "OPENCL x\nP0@wg 0, dev 0 (global int* x) { int r0 = \"é\"; }\nexists(0:r0=1)",
    ];
    for text in odd {
        let _ = parse(text);
    }
    // Every byte of a valid test replaced by characters that matter to the reader.
    for (i, _) in MP.char_indices() {
        for replacement in ["{", "}", "(", ")", "(*", "*", "/", "\"", "'", "\n", "P", "9", ":", "=", "~", "é", ""] {
            let mut text = MP.to_string();
            text.replace_range(i..i + 1, replacement);
            if let Ok(t) = parse(&text) {
                let _ = compile(&t);
            }
        }
    }
    let deep = format!("OPENCL x\nP0@wg 0, dev 0 () {{}}\nexists {}true", "~(".repeat(100_000));
    assert!(parse(&deep).is_err());
}

#[test]
fn limits_on_threads_and_locations() {
    let mut text = String::from("OPENCL many\n{}\n");
    for i in 0..=MAX_THREADS {
        text.push_str(&format!("P{i}@wg 0, dev 0 () {{ }}\n"));
    }
    text.push_str("exists (true)");
    assert!(parse_err(&text).message.contains("at most 64 threads"));
    let init: String = (0..=MAX_LOCATIONS).map(|i| format!("[l{i}]=0;")).collect();
    let text = format!("OPENCL many\n{{{init}}}\nP0@wg 0, dev 0 () {{ }}\nexists (true)");
    assert!(parse_err(&text).message.contains("at most 256 locations"));
}

/// The litmus-opencl corpus, when it is present next to the repository.
#[test]
fn corpus_parses_and_compiles() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/litmus-opencl"));
    if !dir.is_dir() {
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "litmus") {
                files.push(path);
            }
        }
    }
    files.sort();
    let (mut parsed, mut compiled, mut bodies, mut exact) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(LitmusTest::is_litmus(&text), "{}", path.display());
        let t = match parse(&text) {
            Ok(t) => t,
            Err(d) => {
                failures.push(format!("{}: parse: {} at {:?}", path.display(), d.message, d.span));
                continue;
            }
        };
        parsed += 1;
        for thread in &t.threads {
            bodies += 1;
            let s = thread.body;
            if t.kernel_source.get(s.start as usize..s.end as usize) == text.get(s.start as usize..s.end as usize) {
                exact += 1;
            } else {
                println!("{}: the body of {} moved", path.display(), thread.name);
            }
        }
        match compile(&t) {
            Ok(()) => compiled += 1,
            Err(d) => {
                // The compiler may reject the test's own C, but never the translation: the
                // error must lie in a thread's parameters or body, which keep their offsets.
                let at = d.span.unwrap_or_default();
                let inside = t.threads.iter().any(|th| {
                    let in_part = |s: Span| s.start <= at.start && at.end <= s.end;
                    (in_part(th.body) || in_part(th.params))
                        && t.kernel_source.get(th.body.start as usize..th.body.end as usize) == text.get(th.body.start as usize..th.body.end as usize)
                });
                let quoted = text.get(at.start as usize..at.end as usize).unwrap_or("");
                let kind = if inside { "compile (the test's own code)" } else { "compile (THE TRANSLATION)" };
                failures.push(format!("{}: {kind}: {} at `{quoted}`", path.display(), d.message));
            }
        }
    }
    println!("{} files, {parsed} parse, {compiled} compile; {exact} of {bodies} thread bodies keep their offsets", files.len());
    for f in &failures {
        println!("{f}");
    }
    // The compiler may reject a test's own C (a memory order or scope that OpenCL
    // forbids), never the translation around it.
    let unexpected: Vec<&String> = failures.iter().filter(|f| !f.contains("the test's own code")).collect();
    assert!(unexpected.is_empty(), "{unexpected:#?}");
}
