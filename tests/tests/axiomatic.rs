//! Differential test: the engine's exhaustive exploration under `--memory-model relaxed`
//! against the axiomatic checker (`interleave_tests::axiomatic`), on the litmus examples of
//! `static/examples/litmus/` (OpenCL tests under the OpenCL model, PTX tests under the PTX
//! model) and on the generated families (`axiomatic::family`, one in OpenCL and one in PTX).
//!
//! For each test, the checker gives the outcomes of the consistent executions of its model
//! and whether one of them has a data race; the engine gives the outcomes of its exhaustive
//! exploration and whether it reported a `data-race`. An outcome is the registers, with the
//! final memory when the condition reads locations (the families' always do). The tests are
//! compared as follows:
//!
//! - the model finds a race and the engine reports none: `race-missed`; the engine reports
//!   one the model does not find: `race-extra`;
//! - an OpenCL test the model finds racy has undefined behaviour, so differing outcome sets
//!   are only recorded (`racy-outcomes`), with how many outcomes each side alone shows;
//! - otherwise (a race-free OpenCL test, and every PTX test: the PTX model leaves no racy
//!   program undefined) the outcome sets must be equal. An outcome only the engine shows is
//!   `unsound` (the engine allows what the model forbids), one only the model shows is
//!   `incomplete`.
//!
//! Each disagreeing test is a line of the expected file beside the data
//! (`tests/data/axiomatic/*.expected`, rewritten by `UPDATE_EXPECT=1`) with its classes and
//! its cause. A cause is automatic where the comparison itself says it: the outcomes of a
//! racy OpenCL test (`undefined`), and PTX outcomes that only partial coherence orders allow
//! (`partial-coherence`: the checker with total coherence orders allows nothing the engine
//! misses). Every other disagreement needs an entry in [`KNOWN`] naming its cause, one of [`CAUSES`]; a
//! disagreement without one fails the test even after blessing, and so does an entry of
//! [`KNOWN`] that no longer disagrees.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use interleave_engine::explore::{explore_with, Config};
use interleave_engine::report::FindingKind;
use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};
use interleave_tests::axiomatic::execution::PARTIAL_COHERENCE_MAX_WRITES;
use interleave_tests::axiomatic::family::{generate, shapes, variant, Case, Plan};
use interleave_tests::axiomatic::opencl::Race;
use interleave_tests::axiomatic::program::{Dialect as ModelDialect, Outcome, Stmt, Test};
use interleave_tests::axiomatic::{check, check_with, front, memories, ptx_front, Coherence};

/// The family's size: variants per two-thread shape and per three-thread shape.
const PLAN: Plan = Plan { two_threads: 64, three_threads: 2 };

/// The PTX family's size, alike.
const PTX_PLAN: Plan = Plan { two_threads: 64, three_threads: 1 };

/// The causes of disagreements, each with what it is.
const CAUSES: [(&str, &str); 3] = [
    ("undefined", "the model finds a data race, so the test's behaviour is undefined and its outcomes say nothing; listed so that a change shows"),
    (
        "partial-coherence",
        "PTX orders two writes of a location in coherence order only when they are morally strong or causality orders them, and the final value may be either of two unordered ones; the engine keeps one order per location, as the hardware's memory does, and shows what total orders allow",
    ),
    (
        "observed-published",
        "(PTX) a release publishes what its work-item's reads that observe nothing read (`.weak` reads, reads of `.weak` writes or of writes whose scope leaves them out), so an acquirer's later accesses follow those writes in coherence order, where the model orders them only through causality; the engine publishes them so that no write the acquirer promised can have been read by them (the Causality axiom)",
    ),
];

/// Disagreements whose cause has been found, by test name.
const KNOWN: [(&str, &str); 8] = [
    ("Rxas.Rxrs|Rxrs.Fqs.Wxrs|Wxp.Fss.Ryrs@00.00.00", "observed-published"),
    ("Rxac.Fqc.Rxp|Rxp.Wxlc|Wxp.Wyp@00.00.00", "observed-published"),
    ("Rxp.Wxlc|Rxag.Fqs.Wxrc|Rxp.Wxlg@00.00.00", "observed-published"),
    ("Rxp.Wxlc|Rxac.Fsc.Wxlc|Wxrc.Fqc.Ryrc@00.00.00", "observed-published"),
    ("Rxrc.Wxlc|Rxac.Wxrc|Wxp.Wylc@00.00.00", "observed-published"),
    ("Rxp.Wxlc|Rxac.Wxp|Wyp.Fsc.Wxrc@00.00.00", "observed-published"),
    ("Rxp.Fqg.Wyrg|Ryas.Wxls|Wxlc.Fqg.Wxp@00.00.00", "observed-published"),
    ("Rxrs.Fqs.Wyp|Ryrs.Wxls|Wxp.Wyp@00.00.00", "observed-published"),
];

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What the engine's exhaustive exploration found.
struct Engine {
    outcomes: BTreeSet<Outcome>,
    racy: bool,
}

fn engine(name: &str, text: &str, test: &Test, memory: bool) -> Result<Engine, String> {
    let mut s = Scenario::new(text, name, Dialect::Litmus);
    s.memory_model = MemoryModel::Relaxed;
    let config = Config { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None };
    let e = explore_with(&s, config).map_err(|d| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; "))?;
    if !e.complete {
        return Err(format!("the exploration stopped after {} executions", e.runs));
    }
    let mut outcomes = BTreeSet::new();
    for o in &e.outcomes {
        let registers = o.registers.clone().ok_or("an outcome without registers")?;
        let mut locations = BTreeMap::new();
        if memory {
            for l in &test.locations {
                let v = o.values.get(&l.name).and_then(|v| v.first().copied().flatten()).ok_or(format!("no final value of `{}`", l.name))?;
                locations.insert(l.name.clone(), v.as_i64_wrapping());
            }
        }
        outcomes.insert(Outcome { registers, locations });
    }
    let racy = e.findings.iter().any(|f| f.finding.kind == FindingKind::DataRace);
    Ok(Engine { outcomes, racy })
}

/// How one test compares.
enum Comparison {
    Agree,
    /// Classes, cause, and the lines that detail them.
    Disagree {
        classes: Vec<&'static str>,
        cause: Option<&'static str>,
        details: Vec<String>,
    },
    /// The checker or the engine could not run it.
    Failed(String),
}

fn compare(name: &str, text: &str, test: &Test, memory: bool) -> Comparison {
    let model = match check(test, memory) {
        Ok(v) => v,
        Err(e) => return Comparison::Failed(format!("the checker: {e}")),
    };
    let eng = match engine(name, text, test, memory) {
        Ok(e) => e,
        Err(e) => return Comparison::Failed(format!("the engine: {e}")),
    };
    let only_engine: Vec<&Outcome> = eng.outcomes.difference(&model.outcomes).collect();
    let only_model: Vec<&Outcome> = model.outcomes.difference(&eng.outcomes).collect();
    let mut classes = Vec::new();
    let mut details = Vec::new();
    // The PTX model leaves no racy program undefined: it allows what its axioms allow, race
    // or not, so an outcome it forbids is unsound in a racy test too.
    let racy = model.race != Race::None;
    let undefined = racy && test.dialect == ModelDialect::OpenCl;
    if racy && !eng.racy {
        classes.push("race-missed");
        let what = match model.race {
            Race::MixedScopes => "atomics of work-group and device scope",
            Race::Atomic => "atomics, a scope leaving out the other work-item",
            _ => "a non-atomic (PTX: `.weak`) access",
        };
        details.push(format!("the model's race: {what}"));
    }
    if undefined {
        if !only_engine.is_empty() || !only_model.is_empty() {
            classes.push("racy-outcomes");
            details.push(format!("outcomes only the engine shows: {}, only the model: {}", only_engine.len(), only_model.len()));
        }
    } else {
        if !only_engine.is_empty() {
            classes.push("unsound");
            details.extend(only_engine.iter().map(|o| format!("engine only: {}", o.show())));
        }
        if !only_model.is_empty() {
            classes.push("incomplete");
            if partial_coherence(test, memory, &eng.outcomes) {
                details.push(format!("outcomes only the model shows: {}, each needing two writes of a location left unordered", only_model.len()));
            } else {
                details.extend(only_model.iter().map(|o| format!("model only: {}", o.show())));
            }
        }
        if eng.racy && !racy {
            classes.push("race-extra");
        }
    }
    if classes.is_empty() {
        return Comparison::Agree;
    }
    let known = KNOWN.iter().find(|(n, _)| *n == name).map(|&(_, c)| c);
    let automatic = if classes == ["racy-outcomes"] {
        Some("undefined")
    } else if classes == ["incomplete"] && partial_coherence(test, memory, &eng.outcomes) {
        Some("partial-coherence")
    } else {
        None
    };
    Comparison::Disagree { classes, cause: known.or(automatic), details }
}

/// Whether every outcome of `test` the engine misses needs a partial coherence order: the PTX
/// model with total coherence orders only allows nothing beyond `engine`.
fn partial_coherence(test: &Test, memory: bool, engine: &BTreeSet<Outcome>) -> bool {
    test.dialect == ModelDialect::Ptx && check_with(test, memory, Coherence::Total).is_ok_and(|total| total.outcomes.is_subset(engine))
}

/// Compares every test, two at a time, and writes the report; returns it with the problems
/// that fail the test whatever the expected file says.
fn report(title: &str, cases: &[(String, String, Test, bool)], summary: &str) -> (String, Vec<String>) {
    // Two workers take every other test (the costly three-thread tests come last, so halves
    // would leave one worker with most of the work).
    const WORKERS: usize = 2;
    let mut results: Vec<Option<Comparison>> = (0..cases.len()).map(|_| None).collect();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|k| {
                s.spawn(move || {
                    cases
                        .iter()
                        .enumerate()
                        .skip(k)
                        .step_by(WORKERS)
                        .map(|(i, (name, text, test, memory))| (i, compare(name, text, test, *memory)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for w in workers {
            for (i, r) in w.join().expect("a comparison panicked") {
                results[i] = Some(r);
            }
        }
    });
    let results: Vec<Comparison> = results.into_iter().map(|r| r.expect("every test compared")).collect();
    let mut problems = Vec::new();
    let mut lines = Vec::new();
    let mut agree = 0;
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut disagreeing = BTreeSet::new();
    for ((name, _, _, _), r) in cases.iter().zip(&results) {
        match r {
            Comparison::Agree => agree += 1,
            Comparison::Failed(e) => problems.push(format!("{name}: {e}")),
            Comparison::Disagree { classes, cause, details } => {
                disagreeing.insert(name.as_str());
                for c in classes {
                    *counts.entry(c).or_default() += 1;
                }
                let cause = match cause {
                    Some(c) => *c,
                    None => {
                        problems.push(format!("{name}: {} without a known cause ({}); find it and add it to KNOWN", classes.join(", "), details.join("; ")));
                        "UNEXPLAINED"
                    }
                };
                lines.push(format!("{name}: {}: {cause}", classes.join(", ")));
                lines.extend(details.iter().map(|d| format!("    {d}")));
            }
        }
    }
    for (name, _) in KNOWN {
        if cases.iter().any(|c| c.0 == name) && !disagreeing.contains(name) {
            problems.push(format!("{name} agrees now; take it off KNOWN"));
        }
    }
    let mut out = format!("# {title}\n# {summary}\n# Agree: {agree}. Disagree: {}", disagreeing.len());
    let classes: Vec<String> = counts.iter().map(|(c, n)| format!("{c} {n}")).collect();
    if !classes.is_empty() {
        out.push_str(&format!(" ({})", classes.join(", ")));
    }
    out.push_str(".\n# Causes:\n");
    // Those this report names.
    for (id, what) in CAUSES.iter().filter(|(id, _)| lines.iter().any(|l| l.ends_with(&format!(": {id}")))) {
        out.push_str(&format!("#   {id}: {what}\n"));
    }
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    (out, problems)
}

fn expected_file(name: &str) -> PathBuf {
    workspace().join("tests/data/axiomatic").join(name)
}

fn finish(report: (String, Vec<String>), file: &str) {
    let (actual, mut problems) = report;
    if let Err(e) = interleave_expect::check(&actual, &expected_file(file)) {
        problems.push(e);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_litmus_examples_agree_with_their_models() {
    let dir = workspace().join("static/examples/litmus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the litmus examples")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    let mut beyond = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a readable example");
        let name = f.file_name().expect("a file name").to_string_lossy().into_owned();
        // Each dialect's tests go to its own reader and model.
        let parsed = if text.trim_start().starts_with("PTX") { ptx_front::parse(&text) } else { front::parse(&text) };
        let test = match parsed {
            Ok(test) => test,
            // Named in the report, so that one falling out of reach shows.
            Err(e) if e.contains("out of the checker's reach") => {
                beyond.push(format!("{name} ({e})"));
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        let memory = test.condition.prop.mentions_locations();
        cases.push((name, text, test, memory));
    }
    let mut summary = format!("Litmus examples of static/examples/litmus: {}", cases.len());
    for b in &beyond {
        summary.push_str(&format!("\n# Out of the checker's reach: {b}"));
    }
    finish(
        report(
            "The engine's exhaustive relaxed exploration against the axiomatic checker, OpenCL or PTX model by the test's dialect (tests/axiomatic.rs)",
            &cases,
            &summary,
        ),
        "litmus_examples.expected",
    );
}

/// Checks that `parse` reads each case's text as the test the generator built (the checker
/// reads what the engine reads), then compares the family and describes it as `title`
/// (`beyond`: cases left out, and why) against the expected file `file`.
fn compare_family(family: Vec<Case>, plan: Plan, parse: fn(&str) -> Result<Test, String>, title: &str, beyond: &str, file: &str) {
    let mut unread = Vec::new();
    for c in &family {
        match parse(&c.text) {
            Ok(t) if t == c.test => {}
            Ok(t) => unread.push(format!("{}: the reader and the generator disagree:\n{t:?}\n{:?}", c.name, c.test)),
            Err(e) => unread.push(format!("{}: {e}\n{}", c.name, c.text)),
        }
    }
    assert!(unread.is_empty(), "{}", unread.join("\n"));
    let shapes = shapes();
    let two = shapes.iter().filter(|s| s.len() == 2).count();
    let two_cases = family.iter().filter(|c| c.test.threads.len() == 2).count();
    let summary = format!(
        "{title}: {} tests: {two_cases} of two threads ({two} shapes x {} variants) and {} of three ({} shapes x {}), duplicate draws kept once{beyond}",
        family.len(),
        plan.two_threads,
        family.len() - two_cases,
        shapes.len() - two,
        plan.three_threads
    );
    let model = match family.first().map(|c| c.test.dialect) {
        Some(ModelDialect::Ptx) => "PTX",
        _ => "OpenCL",
    };
    let cases: Vec<(String, String, Test, bool)> = family.into_iter().map(|c| (c.name, c.text, c.test, true)).collect();
    finish(report(&format!("The engine's exhaustive relaxed exploration against the axiomatic {model} checker (tests/axiomatic.rs)"), &cases, &summary), file);
}

#[test]
fn the_generated_family_agrees_with_the_opencl_model() {
    compare_family(generate(ModelDialect::OpenCl, PLAN), PLAN, front::parse, "Family", "", "family.expected");
}

#[test]
fn the_generated_ptx_family_agrees_with_the_ptx_model() {
    let (family, beyond): (Vec<_>, Vec<_>) = generate(ModelDialect::Ptx, PTX_PLAN).into_iter().partition(|c| {
        // Under PTX the checker enumerates partial coherence orders, of at most so many writes.
        (0..c.test.locations.len()).all(|l| {
            let writes = c.test.threads.iter().flat_map(|t| &t.body).filter(|s| matches!(s, Stmt::Store { loc, .. } if *loc == l)).count();
            writes <= PARTIAL_COHERENCE_MAX_WRITES
        })
    });
    let beyond = format!(", and {} left out with more writes of one location than the checker orders partially", beyond.len());
    compare_family(family, PTX_PLAN, ptx_front::parse, "PTX family", &beyond, "ptx_family.expected");
}

/// Variants of the family beyond [`PLAN`] that once disagreed with the model, by shape number
/// and variant, each with the name it must still have (so that a change to the generator
/// shows): each must agree now.
/// - `Wxlg.Fsg.Ryag|Wysg.Rxsg@00`: store buffering where one side is a release store, a
///   seq_cst fence and an acquire load, the other a seq_cst store and a seq_cst load. The
///   engine let the seq_cst load read past the write the fence followed.
/// - Four tests whose release and acquire name different scopes within one work-group (a
///   device fence or atomic against a work-group one): OpenCL's inclusive scopes name the same
///   scope, so they do not synchronise, and the outcome the synchronisation forbids is allowed.
///   The engine synchronised them as PTX does.
/// - Three tests where one side reads, relaxed, a write the other makes after a seq_cst fence,
///   and then a seq_cst access orders the reader before that fence. Only a promise of the
///   write gives the outcome, and the promise had to pass the fence: the engine allowed that
///   only when nobody within the fence's scope had read it, where only a reader that acquires
///   by a fence afterwards (or took the write's release at once) learns what the fence adds.
/// - `Wxsd.Rysd|Wysd.Fsg.Rxad@00`: store buffering where one side's seq_cst fence is of
///   work-group scope and every seq_cst access of device scope. The fence is in another SC
///   order than the other side's store, so the acquire load after it may read what preceded
///   the store. The engine kept every SC operation in one order and let the fence learn the
///   store.
const ONCE_DISAGREED: [(usize, usize, &str); 9] = [
    (68, 506, "Wxlg.Fsg.Ryag|Wysg.Rxsg@00"),
    (28, 494, "Rxag.Fsg.Ryrg|Wylg.Fqd.Wxrg@00"),
    (50, 112, "Rxsd.Wyrg|Wysg.Flg.Wxrd@00"),
    (50, 498, "Rxsg.Wyrd|Wyld.Fqd.Wxrg@00"),
    (50, 562, "Rxsd.Wyrd|Wysd.Flg.Wxrd@00"),
    (28, 65, "Rxrd.Rysd|Wyrd.Fsd.Wxld@01"),
    (50, 178, "Rxrg.Wysg|Wylg.Fsg.Wxlg@00"),
    (50, 255, "Rxrd.Wysd|Wysd.Fsd.Wxld@01"),
    (68, 346, "Wxsd.Rysd|Wysd.Fsg.Rxad@00"),
];

#[test]
fn variants_that_once_disagreed_agree_with_the_opencl_model() {
    for (number, v, name) in ONCE_DISAGREED {
        let case = variant(ModelDialect::OpenCl, number, v).expect("a shape of that number");
        assert_eq!(case.name, name, "shape {number} variant {v}");
        match compare(&case.name, &case.text, &case.test, true) {
            Comparison::Agree => {}
            Comparison::Disagree { classes, details, .. } => panic!("{name}: {} ({})", classes.join(", "), details.join("; ")),
            Comparison::Failed(e) => panic!("{name}: {e}"),
        }
    }
}

#[test]
fn message_passing_across_memories_agrees_with_the_opencl_model() {
    let tests = memories::generate();
    let mut cases = Vec::new();
    for (name, text) in tests {
        let test = front::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        cases.push((name, text, test, false));
    }
    let summary = format!(
        "Message passing across memories (axiomatic::memories): {} tests: data and flag each global or local, every order of the flag's store and load, each alone or beside a fence naming global memory, local memory or both; and a barrier before the flag naming either or both",
        cases.len()
    );
    finish(
        report("The engine's exhaustive relaxed exploration against the axiomatic OpenCL checker (tests/axiomatic.rs)", &cases, &summary),
        "memories.expected",
    );
}
