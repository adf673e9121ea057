//! Same scenario and seed, same trace: natively, run twice, and against pinned hashes that
//! the wasm build (tests/wasm.rs) checks too.

mod common;

#[test]
fn trace_hashes_match_the_pinned_ones() {
    let observed = common::observed();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trace_hashes.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, &observed).expect("write the pinned hashes");
        return;
    }
    assert_eq!(observed, common::EXPECTED, "trace hashes changed (UPDATE_EXPECT=1 re-pins them, which breaks saved links)");
}

#[test]
fn a_scenario_run_twice_gives_the_same_trace() {
    for (name, scenario) in common::scenarios() {
        assert_eq!(common::trace_hash(scenario.clone()), common::trace_hash(scenario), "{name}");
    }
}

#[test]
fn different_seeds_give_different_random_schedules() {
    let hashes: std::collections::BTreeSet<String> = common::scenarios()
        .into_iter()
        .filter(|(name, _)| name.starts_with("count-random"))
        .map(|(_, s)| common::trace_hash(s))
        .collect();
    assert_eq!(hashes.len(), 3);
}
