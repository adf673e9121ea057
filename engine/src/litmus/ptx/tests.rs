use super::*;
use crate::diag::Diagnostic;
use crate::explore::{explore_with, Config};
use crate::litmus::{dialect, parse as parse_any, CondExpr, LitmusQuantifier};
use crate::scenario::{Dialect, MemoryModel, Scenario};

const MP: &str = "PTX MP-gpu
\"Message passing: release and acquire at gpu scope synchronise\"
{
x=0;
y=0;
P1:r1=0; P1:r2=0;
}
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
 st.weak x, 1           | ld.acquire.gpu r1, y   ;
 st.release.gpu y, 1    | ld.weak r2, x          ;
exists
(P1:r1 == 1 /\\ P1:r2 != 1)
";

fn parse_err(text: &str) -> Diagnostic {
    match parse(text) {
        Ok(t) => panic!("expected an error, parsed {t:?}"),
        Err(d) => d,
    }
}

fn covered<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    let s = d.span.expect("the diagnostic has a span");
    &text[s.start as usize..s.end as usize]
}

/// Explores `text` exhaustively under `model`; the verdict on its quantified condition.
fn verdict(text: &str, model: MemoryModel) -> bool {
    let test = parse(text).unwrap();
    let mut s = Scenario::new(text, "t.litmus", Dialect::Litmus);
    s.memory_model = model;
    let e = explore_with(&s, Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None }).unwrap();
    assert!(e.complete, "the exploration covered every execution");
    e.condition_holds(test.condition.quantifier)
}

#[test]
fn the_first_word_says_the_dialect() {
    assert_eq!(dialect(MP), Some(LitmusDialect::Ptx));
    assert_eq!(dialect("// ARGS: --exhaustive\n(* c *) ptx t {}"), Some(LitmusDialect::Ptx));
    assert_eq!(dialect("OPENCL MP\n{}"), Some(LitmusDialect::OpenCl));
    assert_eq!(dialect("PTXX t"), None);
    assert_eq!(dialect("__global__ void k() {} // PTX"), None);
    assert!(parse_any(MP).is_ok_and(|t| t.dialect == LitmusDialect::Ptx));
}

#[test]
fn message_passing_reads_into_threads_registers_and_a_condition() {
    let t = parse(MP).unwrap();
    assert_eq!(t.name, "MP-gpu");
    let names: Vec<&str> = t.locations.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["x", "y"]);
    assert_eq!(t.threads.len(), 2);
    assert_eq!((t.threads[1].work_group, t.threads[1].device), (1, 0));
    assert_eq!(covered(MP, &Diagnostic::error("x", "").with_span(t.threads[1].span, "")), "P1@cta 1,gpu 0");
    let regs: Vec<(usize, &str)> = t.registers.iter().map(|r| (r.thread, r.name.as_str())).collect();
    assert_eq!(regs, [(1, "r1"), (1, "r2")]);
    assert_eq!(t.condition.quantifier, LitmusQuantifier::Exists);
    assert!(matches!(t.condition.expr, CondExpr::And(..)));
    assert_eq!((t.local_size, t.groups), (1, 2));
    let code = t.ptx.as_ref().unwrap();
    let spans: Vec<&str> = code.threads[1].instrs.iter().map(|i| &MP[i.span.start as usize..i.span.end as usize]).collect();
    assert_eq!(spans, ["ld.acquire.gpu r1, y", "ld.weak r2, x"]);
    assert_eq!(code.threads[0].instrs[0].op, Op::Store { loc: 0, src: Value::Const(1), sem: Sem::Weak, ty: None });
    assert_eq!(
        code.threads[0].instrs[1].op,
        Op::Store { loc: 1, src: Value::Const(1), sem: Sem::Strong { order: crate::ir::Order::Release, scope: crate::ir::Scope::Device }, ty: None }
    );
}

#[test]
fn the_lowered_program_runs_each_instruction_with_its_span() {
    let t = parse(MP).unwrap();
    let program = crate::frontend::compile_litmus(&t, &[], crate::lower::Options::default()).unwrap();
    let f = &program.functions[0];
    assert_eq!(program.kernels[0].name, "__litmus");
    assert_eq!(program.kernels[0].params.len(), 2);
    // Every memory access carries the span of its own cell.
    for (instr, span) in f.code.iter().zip(&f.spans) {
        let text = &MP[span.start as usize..span.end as usize];
        match instr {
            crate::ir::Instr::Load { .. } => assert_eq!(text, "ld.weak r2, x"),
            crate::ir::Instr::Store { .. } => assert_eq!(text, "st.weak x, 1"),
            crate::ir::Instr::Atomic { .. } => assert!(text == "st.release.gpu y, 1" || text == "ld.acquire.gpu r1, y", "{text}"),
            _ => {}
        }
    }
}

#[test]
fn scopes_decide_whether_release_and_acquire_synchronise() {
    // Release and acquire at gpu scope synchronise across CTAs.
    assert!(!verdict(MP, MemoryModel::Relaxed));
    assert!(!verdict(MP, MemoryModel::Sc));
    // At cta scope they do not.
    let cta = MP.replace("st.release.gpu y, 1 ", "st.release.cta y, 1 ").replace("ld.acquire.gpu r1, y", "ld.acquire.cta r1, y");
    assert!(verdict(&cta, MemoryModel::Relaxed));
    assert!(!verdict(&cta, MemoryModel::Sc));
    // Unless both threads are in the same CTA.
    let same = cta.replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 0");
    assert!(!verdict(&same, MemoryModel::Relaxed));
}

const SB_FENCES: &str = "PTX SB+fences
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0      ;
 st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;
 fence.sc.sys        | fence.sc.gpu        ;
 ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;
exists (P0:r0 == 0 /\\ P1:r1 == 0)
";

#[test]
fn sc_fences_whose_scopes_include_each_other_forbid_store_buffering() {
    // A system fence and a gpu fence on one GPU are morally strong.
    assert!(!verdict(SB_FENCES, MemoryModel::Relaxed));
    // Across GPUs the gpu fence does not reach the other thread.
    assert!(verdict(
        &SB_FENCES.replace("P1@cta 1,gpu 0", "P1@cta 1,gpu 1").replace("ld.relaxed.gpu", "ld.relaxed.sys").replace("st.relaxed.gpu", "st.relaxed.sys"),
        MemoryModel::Relaxed
    ));
    // Acquire-release fences do not forbid it.
    assert!(verdict(&SB_FENCES.replace("fence.sc", "fence.acq_rel"), MemoryModel::Relaxed));
}

#[test]
fn barriers_meet_by_name_synchronise_by_resource_and_count_arrivals() {
    let sb = |bar0: &str, bar1: &str| {
        format!(
            "PTX SB+bar\n{{ x=0; y=0; }}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n {bar0} | {bar1} ;\n ld.weak r0, y | ld.weak r1, x ;\nforall (P0:r0 == 1 \\/ P1:r1 == 1)"
        )
    };
    // One barrier synchronises both threads.
    assert!(verdict(&sb("bar.cta.sync 1", "bar.cta.sync 1"), MemoryModel::Relaxed));
    // Two barriers of the CTA never meet: no execution completes, so the assertion holds.
    assert!(verdict(&sb("bar.cta.sync 1", "bar.cta.sync 2"), MemoryModel::Relaxed));
    // One meeting, two resources: the threads meet but do not synchronise.
    assert!(!verdict(&sb("bar.cta.sync 1, 1", "bar.cta.sync 1, 2"), MemoryModel::Relaxed));
    assert!(verdict(&sb("bar.cta.sync 1, 3", "bar.cta.sync 1, 3"), MemoryModel::Relaxed));
    // Across CTAs a barrier synchronises nobody.
    assert!(!verdict(&sb("bar.cta.sync 1", "bar.cta.sync 1").replace("P1@cta 0", "P1@cta 1"), MemoryModel::Relaxed));
    // An arrival releases, and the thread that syncs acquires.
    let pc = "PTX PC\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | bar.cta.sync 0 ;\n bar.cta.arrive 0 | ld.weak r0, x ;\nexists (P1:r0 == 0)";
    assert!(!verdict(pc, MemoryModel::Relaxed));
    // A count of 2 of 3: the third passes late, after the other two.
    let quorum = "PTX Q\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n ld.weak r0, x | bar.cta.sync 1, 1, 2 | bar.cta.sync 1, 1, 2 ;\n bar.cta.sync 1, 1, 2 | st.weak x, 1 | ;\nexists (P0:r0 == 1)";
    assert!(verdict(quorum, MemoryModel::Relaxed));
    // A late arrival meets as many earlier arrivals as the count asks, not all: P0 may meet
    // P2 alone, and miss what P1 did before its barrier...
    let late = "PTX late\n{ x=0; y=0; z=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 | bar.cta.sync 1, 1, 2 ;\n st.weak z, 1 | bar.cta.sync 1, 1, 2 | ;\n bar.cta.sync 1, 1, 2 | ld.weak r0, x | ;\n ld.weak r0, y | ld.weak r1, z | ;\nexists (P0:r0 == 0 /\\ P1:r0 == 0 /\\ P1:r1 == 0)";
    assert!(verdict(late, MemoryModel::Relaxed));
    // ...but it meets one of them: a late reader sees one of the two stores.
    let one = "PTX one\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n st.weak x, 1 | bar.cta.sync 1, 1, 2 | st.weak y, 1 ;\n bar.cta.sync 1, 1, 2 | ld.weak r0, x | bar.cta.sync 1, 1, 2 ;\n | ld.weak r1, y | ;\nexists (P1:r0 == 0 /\\ P1:r1 == 0)";
    assert!(!verdict(one, MemoryModel::Relaxed));
    let t = parse(quorum).unwrap();
    let Op::Barrier { members, quorum, .. } = &t.ptx.as_ref().unwrap().threads[0].instrs[1].op else { panic!() };
    assert_eq!((*members, *quorum), (0b111, Some(Value::Const(2))));
}

#[test]
fn labels_branches_arithmetic_and_guards() {
    let text = "PTX loop
{ x=0; P0:r1=3; }
 P0@cta 0,gpu 0          ;
 LC00:                   ;
 sub r1, r1, 1           ;
 setp.gt.s32 p1, r1, 0   ;
 @p1 bra LC00            ;
 add.s32 r2, r1, 2147483647 ;
 add.s32 r2, r2, 1       ;
 bne r1, 0, LC01         ;
 st.relaxed.gpu x, r2    ;
 LC01: mov r3, 7         ;
forall (P0:r1 == 0 /\\ P0:r2 == -2147483648 /\\ x == -2147483648 /\\ P0:r3 == 7)
";
    assert!(verdict(text, MemoryModel::Sc), "a 32-bit addition wraps");
}

#[test]
fn read_modify_writes_and_reductions_are_atomic() {
    let text = "PTX atoms
{ x=5; c=0; }
 P0@cta 0,gpu 0                     | P1@cta 1,gpu 0                  ;
 atom.acq_rel.gpu.cas r0, x, 5, 7   | atom.relaxed.sys.exch r1, x, 9  ;
 red.release.gpu.add c, 2           | red.add c, 3                    ;
 atom.inc.u32 r2, c, 100            | atom.max r3, x, 1               ;
forall (c == 6 /\\ (x == 9 \\/ x == 7))
";
    assert!(verdict(text, MemoryModel::Relaxed));
    assert!(verdict(text, MemoryModel::Sc));
}

#[test]
fn problems_are_diagnostics_that_point_at_them() {
    let d = parse_err("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n ld.global.f32 r1, x ;\nexists (P0:r0 == 1)");
    assert_eq!(d.code, "unsupported");
    assert!(d.message.contains("`.f32`"), "{}", d.message);
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n atom.relaxed.gpu.mul r0, x, 2 ;\nexists (P0:r0 == 1)";
    let d = parse_err(text);
    assert_eq!((d.code.as_str(), covered(text, &d)), ("unsupported", "mul"));
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n tld r0, x ;\nexists (P0:r0 == 1)";
    let d = parse_err(text);
    assert_eq!((d.code.as_str(), covered(text, &d)), ("unsupported", "tld"));
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n frobnicate r0, x ;\nexists (P0:r0 == 1)";
    let d = parse_err(text);
    assert_eq!((d.code.as_str(), covered(text, &d)), ("unsupported", "frobnicate"));
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed r0, x ;\nexists (P0:r0 == 1)";
    let d = parse_err(text);
    assert_eq!(d.message, "`ld.relaxed` needs a scope");
    assert_eq!(covered(text, &d), "relaxed");
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.release.gpu r0, x ;\nexists (P0:r0 == 1)";
    assert_eq!(covered(text, &parse_err(text)), "release");
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n bra LC09 ;\nexists (x == 1)";
    let d = parse_err(text);
    assert_eq!((d.message.as_str(), covered(text, &d)), ("the label `LC09` is not defined in this thread", "LC09"));
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r5 == 1)";
    let d = parse_err(text);
    assert_eq!(covered(text, &d), "P0:r5 == 1");
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x | ld.weak r1, x ;\nexists (P0:r0 == 1)";
    assert_eq!(covered(text, &parse_err(text)), "|");
    let text = "PTX t\n{ x=0; P3:r0=1; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)";
    assert_eq!(covered(text, &parse_err(text)), "P3:r0=1");
    let text = "PTX t\n{ x=&y; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)";
    assert_eq!(parse_err(text).code, "unsupported");
    let text = "PTX t\n{ x=0; }\n P1@cta 0,gpu 0 ;\nexists (x == 1)";
    assert_eq!(parse_err(text).message, "expected thread P0 here, found P1");
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n bar.cta.sync 16 ;\nexists (x == 1)";
    assert_eq!(covered(text, &parse_err(text)), "16");
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n";
    assert_eq!(parse_err(text).message, "the test has no final condition");
    let text = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nfilter (x == 0)\nexists (x == 1)";
    assert_eq!(parse_err(text).code, "unsupported");
    let text = "PTX t\n{ x=99999999999; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (x == 1)";
    assert!(parse_err(text).message.contains("does not fit"));
    // A 64-bit type makes room for it.
    assert!(parse("PTX t\n{ x=99999999999; }\n P0@cta 0,gpu 0 ;\n ld.weak.s64 r0, x ;\nexists (x == 1)").is_ok());
}

#[test]
fn never_panics_on_truncated_or_odd_input() {
    for end in (0..=MP.len()).filter(|&e| MP.is_char_boundary(e)) {
        let _ = parse(&MP[..end]);
    }
    for (i, _) in MP.char_indices() {
        for replacement in ["{", "}", "|", ";", ":", "@", "%", "[", ".", ",", "-", "9", "r", "P", "é", "\"", "(*", ""] {
            let mut text = MP.to_string();
            text.replace_range(i..i + 1, replacement);
            if let Ok(t) = parse(&text) {
                let _ = crate::frontend::compile_litmus(&t, &[], crate::lower::Options::default());
            }
        }
    }
}

/// Mutants of a test with barriers of every form, branches and atomics run without panicking.
#[test]
fn mutated_tests_run_without_panicking() {
    const BARRIERS: &str = "PTX mix
{ x=0; y=0; P0:r2=1; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 1,gpu 0     ;
 st.weak x, 1         | bar.cta.sync 1, 1, 2 | atom.add r0, y, 1  ;
 bar.cta.sync 1, r2   | bar.cta.arrive 0     | LC00:              ;
 bar.cta.sync 1, 1, 2 | ld.weak r1, x        | ld.relaxed.gpu r1, y ;
 bar.cta.sync 0       | bar.cta.sync 1, 1    | beq r1, 0, LC00    ;
exists (P1:r1 == 0)
";
    let mut ran = 0;
    for (i, _) in BARRIERS.char_indices() {
        for replacement in ["0", "2", "|", ";", "", "r2", "9"] {
            let mut text = BARRIERS.to_string();
            text.replace_range(i..i + 1, replacement);
            if parse(&text).is_err() {
                continue;
            }
            let mut s = Scenario::new(text.as_str(), "m.litmus", Dialect::Litmus);
            s.memory_model = MemoryModel::Relaxed;
            s.max_steps = 300;
            let _ = crate::explore::explore(&s, 0, 3);
            ran += 1;
        }
    }
    assert!(ran > 100, "only {ran} mutants parsed");
}

/// The litmus-ptx corpus, when it is present next to the repository: every test reads, and
/// every instruction's span is a whole instruction of its file.
#[test]
fn corpus_parses() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/corpus/litmus-ptx"));
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
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(dialect(&text), Some(LitmusDialect::Ptx), "{}", path.display());
        match parse_any(&text) {
            Ok(t) => {
                for thread in &t.ptx.as_ref().unwrap().threads {
                    for i in &thread.instrs {
                        let cell = &text[i.span.start as usize..i.span.end as usize];
                        assert!(!cell.contains('|') && !cell.contains(';') && cell.trim() == cell, "{}: `{cell}`", path.display());
                    }
                }
            }
            Err(d) => failures.push(format!("{}: {} at {:?}", path.display(), d.message, d.span)),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
