//! The axiomatic checker's OpenCL predicate on its own: classic shapes with the verdicts the
//! scoped OpenCL model gives them, and Dat3M's OpenCL litmus tests with their `expected.csv`
//! (whether the condition is reachable) and `data-race-free.csv`, when the corpus is checked
//! out beside the repository (`../shared/corpus/litmus-opencl`; without it, that part prints
//! a note and checks nothing).

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

/// A test of two threads on `x` and `y`, each `(work-group, body)`, with the condition.
fn litmus(x: &str, y: &str, threads: &[(u32, &str)], condition: &str) -> String {
    let mut text = "OPENCL T\n{ [x]=0; [y]=0; }\n".to_string();
    for (i, (group, body)) in threads.iter().enumerate() {
        text.push_str(&format!("P{i}@wg {group}, dev 0 (global {x}* x, global {y}* y) {{\n{body}\n}}\n"));
    }
    text.push_str(condition);
    text
}

const MP: &str = "exists (1:r0=1 /\\ 1:r1=0)";
const SB: &str = "exists (0:r0=0 /\\ 1:r0=0)";

/// Each shape with whether its condition is reachable and the worst race of its executions.
fn classics() -> Vec<(&'static str, String, bool, Race)> {
    let rlx = "memory_order_relaxed";
    let sc_dev = "memory_order_seq_cst, memory_scope_device";
    let mp_flag = |store: &str, load: &str, groups: (u32, u32)| {
        litmus(
            "int",
            "atomic_int",
            &[
                (groups.0, &format!("*x = 1;\natomic_store_explicit(y, 1, {store});")),
                (groups.1, &format!("int r0 = atomic_load_explicit(y, {load});\nint r1 = -1;\nif (r0 == 1) {{ r1 = *x; }}")),
            ],
            MP,
        )
    };
    let sb = |t0: &str, t1: &str, groups: (u32, u32)| litmus("atomic_int", "atomic_int", &[(groups.0, t0), (groups.1, t1)], SB);
    vec![
        (
            "MP relaxed",
            litmus(
                "atomic_int",
                "atomic_int",
                &[
                    (0, &format!("atomic_store_explicit(x, 1, {rlx});\natomic_store_explicit(y, 1, {rlx});")),
                    (1, &format!("int r0 = atomic_load_explicit(y, {rlx});\nint r1 = atomic_load_explicit(x, {rlx});")),
                ],
                MP,
            ),
            true,
            Race::None,
        ),
        (
            "MP release/acquire, device scope, two groups",
            mp_flag("memory_order_release, memory_scope_device", "memory_order_acquire, memory_scope_device", (0, 1)),
            false,
            Race::None,
        ),
        (
            "MP release/acquire, work-group scope, two groups",
            mp_flag("memory_order_release, memory_scope_work_group", "memory_order_acquire, memory_scope_work_group", (0, 1)),
            true,
            Race::NonAtomic,
        ),
        (
            "MP release/acquire, work-group scope, one group",
            mp_flag("memory_order_release, memory_scope_work_group", "memory_order_acquire, memory_scope_work_group", (0, 0)),
            false,
            Race::None,
        ),
        // Inclusive scopes name the same scope on both sides: no synchronisation.
        (
            "MP release at work-group, acquire at device scope, one group",
            mp_flag("memory_order_release, memory_scope_work_group", "memory_order_acquire, memory_scope_device", (0, 0)),
            true,
            Race::NonAtomic,
        ),
        (
            "SB seq_cst",
            sb(
                &format!("atomic_store_explicit(x, 1, {sc_dev});\nint r0 = atomic_load_explicit(y, {sc_dev});"),
                &format!("atomic_store_explicit(y, 1, {sc_dev});\nint r0 = atomic_load_explicit(x, {sc_dev});"),
                (0, 1),
            ),
            false,
            Race::None,
        ),
        // The SC order covers inclusive scopes only, and the accesses race.
        (
            "SB seq_cst, work-group scope, two groups",
            sb(
                "atomic_store_explicit(x, 1, memory_order_seq_cst, memory_scope_work_group);\nint r0 = atomic_load_explicit(y, memory_order_seq_cst, memory_scope_work_group);",
                "atomic_store_explicit(y, 1, memory_order_seq_cst, memory_scope_work_group);\nint r0 = atomic_load_explicit(x, memory_order_seq_cst, memory_scope_work_group);",
                (0, 1),
            ),
            true,
            Race::Atomic,
        ),
        (
            "SB relaxed with seq_cst fences",
            sb(
                &format!("atomic_store_explicit(x, 1, {rlx});\natomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, {sc_dev});\nint r0 = atomic_load_explicit(y, {rlx});"),
                &format!("atomic_store_explicit(y, 1, {rlx});\natomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, {sc_dev});\nint r0 = atomic_load_explicit(x, {rlx});"),
                (0, 1),
            ),
            false,
            Race::None,
        ),
        // A seq_cst fence orders the relaxed load after it against seq_cst accesses.
        (
            "SB seq_cst accesses against a seq_cst fence and a relaxed load",
            sb(
                &format!("atomic_store_explicit(x, 1, {sc_dev});\nint r0 = atomic_load_explicit(y, {sc_dev});"),
                &format!("atomic_store_explicit(y, 1, {sc_dev});\natomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, {sc_dev});\nint r0 = atomic_load_explicit(x, {rlx});"),
                (0, 0),
            ),
            false,
            Race::None,
        ),
        (
            "LB relaxed",
            litmus(
                "atomic_int",
                "atomic_int",
                &[
                    (0, &format!("int r0 = atomic_load_explicit(x, {rlx});\natomic_store_explicit(y, 1, {rlx});")),
                    (1, &format!("int r0 = atomic_load_explicit(y, {rlx});\natomic_store_explicit(x, 1, {rlx});")),
                ],
                "exists (0:r0=1 /\\ 1:r0=1)",
            ),
            true,
            Race::None,
        ),
        // No value out of thin air.
        (
            "LB copying values",
            litmus(
                "atomic_int",
                "atomic_int",
                &[
                    (0, &format!("int r0 = atomic_load_explicit(x, {rlx});\natomic_store_explicit(y, r0, {rlx});")),
                    (1, &format!("int r0 = atomic_load_explicit(y, {rlx});\natomic_store_explicit(x, r0, {rlx});")),
                ],
                "exists (x=42 /\\ y=42)",
            ),
            false,
            Race::None,
        ),
        (
            "2+2W relaxed",
            litmus(
                "atomic_int",
                "atomic_int",
                &[
                    (0, &format!("atomic_store_explicit(x, 2, {rlx});\natomic_store_explicit(y, 1, {rlx});")),
                    (1, &format!("atomic_store_explicit(y, 2, {rlx});\natomic_store_explicit(x, 1, {rlx});")),
                ],
                "exists (x=2 /\\ y=2)",
            ),
            true,
            Race::None,
        ),
        (
            "CoRR relaxed",
            litmus(
                "atomic_int",
                "atomic_int",
                &[
                    (0, &format!("atomic_store_explicit(x, 1, {rlx});")),
                    (1, &format!("int r0 = atomic_load_explicit(x, {rlx});\nint r1 = atomic_load_explicit(x, {rlx});")),
                ],
                "exists (1:r0=1 /\\ 1:r1=0)",
            ),
            false,
            Race::None,
        ),
        (
            "MP through a barrier fencing global memory",
            litmus("int", "int", &[(0, "*x = 1;\nbarrier(CLK_GLOBAL_MEM_FENCE);"), (0, "barrier(CLK_GLOBAL_MEM_FENCE);\nint r0 = 1;\nint r1 = *x;")], MP),
            false,
            Race::None,
        ),
        (
            "MP through a barrier fencing local memory only",
            litmus("int", "int", &[(0, "*x = 1;\nbarrier(CLK_LOCAL_MEM_FENCE);"), (0, "barrier(CLK_LOCAL_MEM_FENCE);\nint r0 = 1;\nint r1 = *x;")], MP),
            true,
            Race::NonAtomic,
        ),
    ]
}

#[test]
fn classic_shapes_get_the_opencl_models_verdicts() {
    let mut wrong = Vec::new();
    for (what, text, reachable, race) in classics() {
        match front::parse(&text).and_then(|t| {
            let memory = t.condition.prop.mentions_locations();
            check(&t, memory).map(|v| (t.condition.verdict(&v.outcomes), v.race))
        }) {
            Ok(got) if got == (reachable, race) => {}
            Ok(got) => wrong.push(format!("{what}: the checker says {got:?}, the model ({reachable}, {race:?})")),
            Err(e) => wrong.push(format!("{what}: {e}\n{text}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

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
