//! Same scenario and seed, same trace: natively, run twice, and against pinned hashes that
//! the wasm build (tests/wasm.rs) checks too; a thousand generated kernels (each with its own
//! launch, scheduler, seed, granularity and memory model) against a pinned file of their
//! hashes, and again after a round trip through a share link. The pinned files are compared
//! (and re-pinned by `UPDATE_EXPECT=1`) natively; the wasm build reads the same files through
//! `common` and compares with them in the browser.

mod common;

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn trace_hashes_match_the_pinned_ones() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/trace_hashes.txt");
    if let Err(e) = interleave_expect::check(&common::observed(), &path) {
        panic!("{e}\nthe trace hashes changed; re-pinning them breaks saved links");
    }
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

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn generated_kernels_match_their_pinned_hashes() {
    let observed = common::generated_kernel_hashes(false);
    assert_eq!(observed.lines().count() as u64, common::GENERATED_KERNELS);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/generated_hashes.txt");
    if let Err(e) = interleave_expect::check(&observed, &path) {
        panic!("{e}\nthe generated kernels' trace hashes changed");
    }
}

#[test]
fn a_generated_kernel_reopened_from_its_link_gives_the_same_trace() {
    assert_eq!(common::generated_kernel_hashes(true), common::generated_kernel_hashes(false));
}
