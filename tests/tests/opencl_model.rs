//! The axiomatic checker's OpenCL predicate on its own: Dat3M's OpenCL litmus tests with
//! their `expected.csv` (whether the condition is reachable) and `data-race-free.csv`, when
//! the corpus is checked out beside the repository (`../shared/corpus/litmus-opencl`;
//! without it, the test prints a note and checks nothing).

use std::path::PathBuf;

/// The tests whose verdict the checker gives differently from Dat3M on purpose: each ends
/// with values, or stores, that justify themselves through a cycle of reads-from and
/// dependencies (`r = y; x = r` against `r = x; y = r` ending with 42, or `if (x) y = 1`
/// against `if (y) x = 1` ending with both set). The OpenCL axioms admit such executions and
/// Dat3M's symbolic values find them; the checker rules out thin air, as the C11 and OpenCL
/// specifications ask in a note and as the engine does (see `axiomatic::execution`).
/// `example7b`'s race is in that execution only.
const THIN_AIR: [&str; 5] = [
    "herd/thinair.litmus",
    "overhauling/example7b.litmus",
    "portedFromC11/auto/roachmotel2.litmus",
    "portedFromC11/auto/seq2.litmus",
    "portedFromC11/auto/strengthen2.litmus",
];

use interleave_tests::axiomatic::opencl::Race;
use interleave_tests::axiomatic::{check, front};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/litmus-opencl")
}

#[test]
fn dat3m_opencl_litmus_tests_get_their_expected_verdicts() {
    let dir = corpus();
    let (Ok(expected), Ok(race_free)) = (std::fs::read_to_string(dir.join("expected.csv")), std::fs::read_to_string(dir.join("data-race-free.csv"))) else {
        println!("note: {} is absent; the OpenCL corpus is not checked", dir.display());
        return;
    };
    let race_free: Vec<(&str, bool)> = race_free.lines().filter_map(|l| l.split_once(',')).map(|(f, v)| (f, v.trim() == "1")).collect();
    let mut agree = 0;
    let mut skipped = Vec::new();
    let mut wrong = Vec::new();
    let mut thin_air = Vec::new();
    for line in expected.lines().filter(|l| !l.trim().is_empty()) {
        let (file, want) = line.split_once(',').expect("`file,verdict` lines");
        let want = want.trim() == "1";
        let text = std::fs::read_to_string(dir.join(file)).expect("a listed test exists");
        let result = front::parse(&text).and_then(|t| {
            let memory = t.condition.prop.mentions_locations();
            check(&t, memory).map(|v| (t.condition.verdict(&v.outcomes), v.race))
        });
        match result {
            Ok((got, race)) if THIN_AIR.contains(&file) => {
                if got == want {
                    wrong.push(format!("{file}: now agrees with Dat3M; take it off THIN_AIR"));
                } else if got || race != Race::None {
                    wrong.push(format!("{file}: expected the thin-air execution to be ruled out, the checker says {got} (race {race:?})"));
                }
                thin_air.push(file);
            }
            Ok((got, race)) => {
                let mut ok = got == want;
                if !ok {
                    wrong.push(format!("{file}: the checker says {got}, expected.csv {want}"));
                }
                if let Some(&(_, free)) = race_free.iter().find(|(f, _)| *f == file) {
                    if free != (race == Race::None) {
                        ok = false;
                        wrong.push(format!("{file}: the checker finds race {race:?}, data-race-free.csv says {free}"));
                    }
                }
                if ok {
                    agree += 1;
                }
            }
            Err(e) => skipped.push(format!("{file}: {e}")),
        }
    }
    println!(
        "OpenCL corpus: {agree} agree, {} differ on thin air as documented, {} out of the checker's reach:\n  {}",
        thin_air.len(),
        skipped.len(),
        skipped.join("\n  ")
    );
    assert_eq!(thin_air.len(), THIN_AIR.len(), "every test of THIN_AIR is in expected.csv");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
