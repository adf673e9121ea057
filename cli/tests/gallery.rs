//! The examples gallery through the real `interleave` binary.
//!
//! `static/examples/gallery.toml` lists the gallery's entries and their variants; each variant
//! names a scenario file and how it is checked (`run`, or `explore` with a number of runs or
//! exhaustively). The test runs that command on every variant from the workspace root and
//! compares its exit status, stdout and stderr with `NAME.expected` beside the scenario, and
//! the kinds of finding it printed with the variant's `findings`. It also fails when the
//! manifest and the folder disagree: a scenario file that no entry names, a named file that
//! does not exist, or an expectation without its variant. `UPDATE_EXPECT=1 cargo test`
//! rewrites the expectations (never the manifest's `findings`, which say what the example is
//! for).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use interleave_engine::gallery::{self, Entry};
use interleave_engine::scenario;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn examples() -> PathBuf {
    workspace().join("static/examples")
}

/// The manifest, read by the engine's reader (the one the app uses), which enforces the
/// format's rules: ids and files named once, a check with the right options, known finding
/// kinds.
fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(examples().join("gallery.toml")).expect("static/examples/gallery.toml is readable");
    gallery::read(&text).unwrap_or_else(|d| panic!("gallery.toml: {} at {:?}", d.message, d.span))
}

/// Runs the CLI and renders everything it did as text.
fn observe(args: &[String]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_interleave")).current_dir(workspace()).args(args).output().expect("the CLI starts");
    format!(
        "$ interleave {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        output.status.code().map_or("signal".to_string(), |c| c.to_string()),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The kinds of the findings in a rendered output (`error[KIND]: ...` headers).
fn finding_kinds(output: &str) -> BTreeSet<String> {
    output
        .lines()
        .filter_map(|line| {
            let rest = ["error[", "warning[", "note["].iter().find_map(|p| line.strip_prefix(p))?;
            Some(rest.split_once("]:")?.0.to_string())
        })
        .collect()
}

/// The file names in `static/examples` (not its subfolders) that end in `suffix`.
fn files_ending(suffix: &str) -> BTreeSet<String> {
    std::fs::read_dir(examples())
        .expect("the examples folder")
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(suffix))
        .collect()
}

#[test]
fn every_gallery_example_gives_its_expected_findings_and_outcomes() {
    let manifest = manifest();
    assert!(manifest.len() >= 14, "the gallery has {} entries", manifest.len());
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in &manifest {
        for variant in &entry.variants {
            let args = variant.arguments(&format!("static/examples/{}", variant.scenario));
            let actual = observe(&args);
            let expect = examples().join(variant.scenario.replace(".toml", ".expected"));
            if let Err(message) = interleave_expect::check(&actual, &expect) {
                failures.push(message);
            }
            let wanted: BTreeSet<String> = variant.findings.iter().map(|kind| kind.as_str().to_string()).collect();
            let seen = finding_kinds(&actual);
            if seen != wanted {
                failures.push(format!("{} ({}): findings {seen:?}, the manifest says {wanted:?}", variant.scenario, entry.id));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{} of {checked} gallery variants failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_manifest_and_the_folder_agree() {
    // The reader has checked that every entry has variants and that ids and files are named
    // once; what is left is that the manifest and the folder name the same files.
    let named: BTreeSet<String> = manifest().into_iter().flat_map(|entry| entry.variants.into_iter().map(|v| v.scenario)).collect();
    let mut scenarios = files_ending(".toml");
    scenarios.remove("gallery.toml");
    assert_eq!(named, scenarios, "the scenario files of gallery.toml and of static/examples differ");
    let expectations: BTreeSet<String> = files_ending(".expected");
    let wanted: BTreeSet<String> = named.iter().map(|n| n.replace(".toml", ".expected")).collect();
    assert_eq!(expectations, wanted, "the .expected files of static/examples and the manifest's variants differ");
}

#[test]
fn every_gallery_scenario_has_a_title_description_and_lesson() {
    for entry in manifest() {
        for variant in entry.variants {
            let text = std::fs::read_to_string(examples().join(&variant.scenario)).unwrap_or_else(|e| panic!("{}: {e}", variant.scenario));
            let read_source = |file: &str| {
                std::fs::read_to_string(examples().join(file))
                    .map(|source| (source, file.to_string()))
                    .map_err(|e| interleave_engine::diag::Diagnostic::error("invalid-input", format!("{file}: {e}")))
            };
            let scenario = scenario::from_toml(&text, read_source).unwrap_or_else(|d| panic!("{}: {}", variant.scenario, d.message));
            for (field, value) in [("title", &scenario.title), ("description", &scenario.description), ("lesson", &scenario.lesson)] {
                assert!(!value.trim().is_empty(), "{}: no `{field}`", variant.scenario);
            }
            assert_eq!(scenario.description.trim().lines().count(), 2, "{}: the description is two lines", variant.scenario);
        }
    }
}
