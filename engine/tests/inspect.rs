//! Data-driven tests of the inspector's views. Each `tests/data/inspect/NAME.toml` is a
//! scenario file with its kernel inline, plus an `[inspect]` table naming the step to stop at
//! and the work-item whose call stack to show; `NAME.expected` beside it holds the views
//! rendered as text. `UPDATE_EXPECT=1 cargo test` rewrites the expectations. Native only: the
//! scenarios and their expectations are read from disk.
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write;
use std::path::Path;

use interleave_engine::scenario::{self, Scenario};
use interleave_engine::session::Session;

/// Runs one scenario to its inspection point and renders every view.
fn observe(text: &str) -> String {
    let mut table: toml::Table = text.parse().expect("the test file is TOML");
    let inspect = table.remove("inspect").and_then(|v| v.as_table().cloned()).expect("an [inspect] table");
    let step = inspect.get("step").and_then(|v| v.as_integer()).expect("inspect.step") as u64;
    let work_item = inspect.get("work_item").and_then(|v| v.as_integer()).expect("inspect.work_item") as usize;
    let scenario: Scenario = scenario::from_toml(&toml::to_string(&table).expect("re-encodes"), |_| unreachable!("inline source")).expect("a valid scenario");
    let source = scenario.source.clone();
    let mut session = Session::new(scenario).expect("compiles and launches");
    session.seek(step);
    let mut out = String::new();
    let _ = writeln!(out, "step {} status {}", session.steps(), session.status().as_str());
    let _ = writeln!(out, "work-item {work_item}: {}", session.work_item(work_item).status.as_str());
    for frame in session.call_stack(work_item) {
        let at = &source[frame.span.start as usize..frame.span.end as usize];
        let _ = writeln!(out, "  in {} at `{at}`", frame.function);
        for v in frame.variables {
            let _ = writeln!(out, "    {} {} = {}", v.type_name, v.name, v.value);
        }
    }
    for b in session.barriers() {
        let _ = writeln!(out, "barrier of group {}: {:?} of {} arrived", b.group, b.arrived, b.expected);
    }
    for (which, name) in session.memories() {
        let view = session.memory(which).expect("a listed memory");
        let cells: Vec<String> = view
            .elements
            .iter()
            .map(|e| match (&e.value, e.last_writer) {
                (None, _) => "uninit".to_string(),
                (Some(v), None) => v.clone(),
                (Some(v), Some((wi, step))) => format!("{v} (wi {wi} @{step})"),
            })
            .collect();
        let group = which.group.map(|g| format!(" of group {g}")).unwrap_or_default();
        let _ = writeln!(out, "{:?} `{name}`{group} ({}): [{}]", which.space, view.elem, cells.join(", "));
        for (element, read) in session.stale_reads_of(which) {
            let from = read.written_at.map_or("the initial contents".to_string(), |s| format!("@{s}"));
            let _ = writeln!(out, "  [{element}] stale: wi {:?} @{} read {} from {from}, newer @{:?}", read.work_item, read.step, read.value, read.newer_at);
        }
    }
    out
}

#[test]
fn views_match_their_expectations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/inspect");
    let mut failures = Vec::new();
    let mut inputs: Vec<_> = std::fs::read_dir(&dir).expect("the inspect folder").filter_map(|e| e.ok()).map(|e| e.path()).collect();
    inputs.sort();
    let mut checked = 0;
    for input in inputs.iter().filter(|p| p.extension().is_some_and(|e| e == "toml")) {
        let actual = observe(&std::fs::read_to_string(input).expect("readable"));
        checked += 1;
        if let Err(e) = interleave_expect::check(&actual, &input.with_extension("expected")) {
            failures.push(e);
        }
    }
    assert!(checked >= 2, "only {checked} inspector tests found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
