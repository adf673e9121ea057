//! Share links: every example and litmus test survives `encode` then `decode` as the same
//! scenario and the same trace, and the committed links of every released format version
//! (`tests/data/links/v*.txt`) keep opening to the trace each was made with.

mod common;

use interleave_engine::link::{decode, encode, url, Link, LinkView};
use interleave_engine::scenario::{Dialect, MemoryModel, Scenario};

fn round_trip(scenario: Scenario, view: LinkView) {
    let link = Link { scenario, view };
    let text = encode(&link);
    assert_eq!(encode(&link), text, "{}: encoding is deterministic", link.scenario.file_name);
    let back = decode(&url("http://127.0.0.1:8080/", &link)).unwrap_or_else(|d| panic!("{}: {}", link.scenario.file_name, d.message));
    assert_eq!(back, link, "{}", link.scenario.file_name);
    let hash = common::trace_hash(link.scenario.clone());
    assert!(!hash.starts_with("diagnostics"), "{}: {hash}", link.scenario.file_name);
    assert_eq!(common::trace_hash(back.scenario), hash, "{}", link.scenario.file_name);
}

#[test]
fn every_example_round_trips() {
    for (file, _, _) in common::EXAMPLES {
        round_trip(common::example(file), LinkView { step: Some(3), selected: Some(1), panel: Some("memory".into()) });
    }
}

#[test]
fn a_description_and_a_lesson_ride_along_without_changing_the_run() {
    let mut plain = common::example("count.toml");
    plain.description.clear();
    plain.lesson.clear();
    let mut described = plain.clone();
    described.description = "Two lines:\nthe second one.".into();
    described.lesson = "Atomics do not lose updates.".into();
    round_trip(described.clone(), LinkView::default());
    assert_eq!(common::trace_hash(described), common::trace_hash(plain));
}

#[test]
fn every_litmus_example_round_trips() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/examples/litmus");
    let mut count = 0;
    for entry in std::fs::read_dir(dir).expect("the litmus examples") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "litmus") {
            let text = std::fs::read_to_string(&path).expect("a readable litmus test");
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            let mut scenario = Scenario::new(text, name, Dialect::Litmus);
            scenario.memory_model = MemoryModel::Relaxed;
            scenario.seed = 7;
            round_trip(scenario, LinkView::default());
            count += 1;
        }
    }
    assert!(count >= 5, "{count} litmus examples");
}

#[test]
fn released_links_keep_opening() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/links");
    let mut versions = 0;
    for entry in std::fs::read_dir(dir).expect("the link fixtures") {
        let path = entry.expect("a directory entry").path();
        let text = std::fs::read_to_string(&path).expect("a readable fixture");
        let mut links = 0;
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let (hash, link) = line.split_once(' ').expect("`HASH LINK` lines");
            let decoded = decode(link).unwrap_or_else(|d| panic!("{}: {}: {}", path.display(), d.code, d.message));
            assert_eq!(common::trace_hash(decoded.scenario), hash, "{}: {link}", path.display());
            links += 1;
        }
        assert!(links >= 3, "{}", path.display());
        versions += 1;
    }
    assert!(versions >= 1);
}
