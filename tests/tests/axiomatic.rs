//! Differential test: the engine's exhaustive exploration under `--memory-model relaxed`
//! against the axiomatic checker (`interleave_tests::axiomatic`), on the litmus examples of
//! `static/examples/litmus/` (OpenCL tests under the OpenCL model, PTX tests under the PTX
//! model) and on the generated family (`axiomatic::family`, OpenCL).
//!
//! For each test, the checker gives the outcomes of the consistent executions of the scoped
//! OpenCL 2.0 model and whether one of them has a data race; the engine gives the outcomes
//! of its exhaustive exploration and whether it reported a `data-race`. An outcome is the
//! registers, with the final memory when the condition reads locations (the family's always
//! does). The tests are compared as follows:
//!
//! - the model finds no race: the outcome sets must be equal. An outcome only the engine
//!   shows is `unsound` (the engine allows what the model forbids), one only the model shows
//!   is `incomplete`; a race the engine reports on an OpenCL test is `race-extra` (the PTX
//!   model leaves no racy program undefined, and the checker decides no PTX races);
//! - the model finds a race: the engine must report one (`race-missed` otherwise). The
//!   program's behaviour is then undefined, so differing outcome sets are only recorded
//!   (`racy-outcomes`), with how many outcomes each side alone shows.
//!
//! Each disagreeing test is a line of the expected file beside the data
//! (`tests/data/axiomatic/*.expected`, rewritten by `UPDATE_EXPECT=1`) with its classes and
//! its cause. A cause is automatic where the comparison itself says it: the outcomes of a
//! racy test (`undefined`). Every other disagreement needs an entry in [`KNOWN`] naming its cause, one of [`CAUSES`]; a
//! disagreement without one fails the test even after blessing, and so does an entry of
//! [`KNOWN`] that no longer disagrees.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use interleave_engine::explore::{explore_with, Config};
use interleave_engine::report::FindingKind;
use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};
use interleave_tests::axiomatic::family::{generate, shapes, variant, Plan};
use interleave_tests::axiomatic::opencl::Race;
use interleave_tests::axiomatic::program::{Dialect as ModelDialect, Outcome, Test};
use interleave_tests::axiomatic::{check, front, memories, ptx_front};

/// The family's size: variants per two-thread shape and per three-thread shape.
const PLAN: Plan = Plan { two_threads: 64, three_threads: 2 };

/// The causes of disagreements, each with what it is.
const CAUSES: [(&str, &str); 1] =
    [("undefined", "the model finds a data race, so the test's behaviour is undefined and its outcomes say nothing; listed so that a change shows")];

/// Disagreements whose cause has been found, by test name.
const KNOWN: [(&str, &str); 0] = [];

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
    let racy = model.race != Race::None;
    if racy {
        if !eng.racy {
            classes.push("race-missed");
            let what = match model.race {
                Race::MixedScopes => "atomics of work-group and device scope",
                Race::Atomic => "atomics, a scope leaving out the other work-item",
                _ => "a non-atomic access",
            };
            details.push(format!("the model's race: {what}"));
        }
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
            details.extend(only_model.iter().map(|o| format!("model only: {}", o.show())));
        }
        // The PTX model gives racy programs no undefined behaviour, and the checker decides
        // no races for it: a race the engine reports on a PTX test is a diagnostic the
        // outcomes already account for.
        if eng.racy && test.dialect == ModelDialect::OpenCl {
            classes.push("race-extra");
        }
    }
    if classes.is_empty() {
        return Comparison::Agree;
    }
    let known = KNOWN.iter().find(|(n, _)| *n == name).map(|&(_, c)| c);
    let automatic = if classes == ["racy-outcomes"] { Some("undefined") } else { None };
    Comparison::Disagree { classes, cause: known.or(automatic), details }
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
    for (id, what) in CAUSES {
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

#[test]
fn the_generated_family_agrees_with_the_opencl_model() {
    let shapes = shapes();
    let two = shapes.iter().filter(|s| s.len() == 2).count();
    let family = generate(PLAN);
    // The checker reads the text the engine reads as the test the generator built.
    let mut unread = Vec::new();
    for c in &family {
        match front::parse(&c.text) {
            Ok(t) if t == c.test => {}
            Ok(_) => unread.push(format!("{}: the reader and the generator disagree", c.name)),
            Err(e) => unread.push(format!("{}: {e}", c.name)),
        }
    }
    assert!(unread.is_empty(), "{}", unread.join("\n"));
    let two_cases = family.iter().filter(|c| c.test.threads.len() == 2).count();
    let summary = format!(
        "Family: {} tests: {two_cases} of two threads ({two} shapes x {} variants) and {} of three ({} shapes x {}), duplicate draws kept once",
        family.len(),
        PLAN.two_threads,
        family.len() - two_cases,
        shapes.len() - two,
        PLAN.three_threads
    );
    let cases: Vec<(String, String, Test, bool)> = family.into_iter().map(|c| (c.name, c.text, c.test, true)).collect();
    finish(
        report("The engine's exhaustive relaxed exploration against the axiomatic OpenCL checker (tests/axiomatic.rs)", &cases, &summary),
        "family.expected",
    );
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
        let case = variant(number, v).expect("a shape of that number");
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
