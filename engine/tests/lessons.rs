//! Data-driven tests of the tutorial's lessons. For every `static/tutorial/NAME.toml`, the
//! check fails on the starting scenario and passes with the reference solution; both verdicts
//! are written as text and compared with `NAME.expected` beside the lesson, so a change in
//! what a check says is seen in review. `UPDATE_EXPECT=1 cargo test --test lessons` rewrites
//! the expectations. Native only: the lessons and their expectations are read from disk.
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write;
use std::path::{Path, PathBuf};

use interleave_engine::lesson::{self, Lesson, Verdict};

fn lesson_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../static/tutorial");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the tutorial folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

fn render(out: &mut String, label: &str, verdict: &Verdict) {
    let _ = writeln!(out, "{label}: {} ({} runs)", if verdict.passed { "passes" } else { "fails" }, verdict.runs);
    for r in &verdict.results {
        let _ = writeln!(out, "  [{}] {}", if r.passed { "ok" } else { "no" }, r.message);
        // What the learner reads under a failed expectation: the engine's account of why.
        if let Some(why) = &r.why {
            let _ = writeln!(out, "      why: {}", why.missing);
        }
    }
}

/// The verdicts of the starting scenario and of the solution, as text; a problem with the
/// lesson itself (it does not parse, compile, fail first and pass solved) is an `Err`.
fn check(text: &str) -> Result<String, String> {
    let lesson: Lesson = lesson::parse(text).map_err(|d| format!("{}: {}", d.code, d.message))?;
    let starting = lesson::check(&lesson, &lesson.scenario).map_err(|d| format!("the starting scenario: {:?}", d[0].message))?;
    let solved = lesson::check(&lesson, &lesson::solved(&lesson)).map_err(|d| format!("the solution: {:?}", d[0].message))?;
    let mut out = String::new();
    let _ = writeln!(out, "{} — {}", lesson.id, lesson.title);
    render(&mut out, "starting", &starting);
    render(&mut out, "solution", &solved);
    if starting.passed {
        return Err(format!("the check passes on the starting scenario:\n{out}"));
    }
    if !solved.passed {
        return Err(format!("the check fails on the reference solution:\n{out}"));
    }
    if lesson.hints.is_empty() || lesson.prose.is_empty() {
        return Err("a lesson has prose and at least one hint".into());
    }
    Ok(out)
}

#[test]
fn every_lesson_fails_as_it_starts_and_passes_solved() {
    let files = lesson_files();
    assert!(files.len() >= 14, "one lesson per concept of the gallery, found {}", files.len());
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable lesson");
        let id = lesson::parse(&text).map(|l| l.id).unwrap_or_default();
        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        if id != stem {
            failures.push(format!("{}: the id `{id}` is not the file's name", file.display()));
        }
        let actual = match check(&text) {
            Ok(actual) => actual,
            Err(problem) => {
                failures.push(format!("{}: {problem}", file.display()));
                continue;
            }
        };
        if let Err(e) = interleave_expect::check(&actual, &file.with_extension("expected")) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
