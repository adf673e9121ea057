//! Same scenario and seed, same trace: natively, run twice, and against pinned hashes that
//! the wasm build (tests/wasm.rs) checks too; a thousand generated kernels (each with its own
//! launch, scheduler, seed, granularity and memory model) against a pinned file of their
//! hashes, and again after a round trip through a share link.

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
    let hashes: std::collections::BTreeSet<String> =
        common::scenarios().into_iter().filter(|(name, _)| name.starts_with("count-random")).map(|(_, s)| common::trace_hash(s)).collect();
    assert_eq!(hashes.len(), 3);
}

#[test]
fn generated_kernels_match_their_pinned_hashes() {
    let observed = common::generated_kernel_hashes(false);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/generated_hashes.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, &observed).expect("write the pinned hashes");
        return;
    }
    assert_eq!(observed.lines().count() as u64, common::GENERATED_KERNELS);
    assert_eq!(observed, common::GENERATED_HASHES, "generated kernels' trace hashes changed (UPDATE_EXPECT=1 re-pins them)");
}

#[test]
fn a_generated_kernel_reopened_from_its_link_gives_the_same_trace() {
    assert_eq!(common::generated_kernel_hashes(true), common::generated_kernel_hashes(false));
}
