//! The axiomatic checker's PTX predicate on its own: classic shapes with the verdicts the PTX
//! model gives them, and Dat3M's PTX litmus tests with their `expected.csv` when the corpus
//! is checked out beside the repository (`../shared/corpus/litmus-ptx`; without it, that
//! part prints a note and checks nothing).

use std::path::PathBuf;

use interleave_tests::axiomatic::{check, ptx_front};

/// Whether the condition of the PTX test `text` holds as its quantifier says, under the model.
fn verdict(text: &str) -> Result<bool, String> {
    let test = ptx_front::parse(text)?;
    let memory = test.condition.prop.mentions_locations();
    let v = check(&test, memory)?;
    Ok(test.condition.verdict(&v.outcomes))
}

/// A two- or more-thread test in the PTX litmus format: `rows` are the instruction rows,
/// `places` the `cta,gpu` of each thread.
fn litmus(name: &str, places: &[(u32, u32)], rows: &[&[&str]], condition: &str) -> String {
    let mut text = format!("PTX {name}\n{{\nx=0;\ny=0;\n}}\n");
    let headers: Vec<String> = places.iter().enumerate().map(|(i, (c, g))| format!("P{i}@cta {c},gpu {g}")).collect();
    text.push_str(&format!(" {} ;\n", headers.join(" | ")));
    for row in rows {
        let cells: Vec<String> = (0..places.len()).map(|i| row.get(i).copied().unwrap_or("").to_string()).collect();
        text.push_str(&format!(" {} ;\n", cells.join(" | ")));
    }
    text.push_str(condition);
    text.push('\n');
    text
}

const SAME_CTA: [(u32, u32); 2] = [(0, 0), (0, 0)];
const TWO_CTAS: [(u32, u32); 2] = [(0, 0), (1, 0)];

/// Each classic shape with whether its weak outcome is allowed by the PTX model.
fn classics() -> Vec<(&'static str, String, bool)> {
    let mp_weak = "exists (P1:r0 == 1 /\\ P1:r1 == 0)";
    let sb_weak = "exists (P0:r0 == 0 /\\ P1:r1 == 0)";
    vec![
        // Message passing: weak accesses alone do not order anything.
        ("MP weak", litmus("MP", &TWO_CTAS, &[&["st.weak x, 1", "ld.weak r0, y"], &["st.weak y, 1", "ld.weak r1, x"]], mp_weak), true),
        // Release/acquire at CTA scope orders the data within a CTA...
        (
            "MP rel/acq cta, one CTA",
            litmus("MP", &SAME_CTA, &[&["st.weak x, 1", "ld.acquire.cta r0, y"], &["st.release.cta y, 1", "ld.weak r1, x"]], mp_weak),
            false,
        ),
        // ...but not across CTAs, where the two are not morally strong.
        (
            "MP rel/acq cta, two CTAs",
            litmus("MP", &TWO_CTAS, &[&["st.weak x, 1", "ld.acquire.cta r0, y"], &["st.release.cta y, 1", "ld.weak r1, x"]], mp_weak),
            true,
        ),
        // GPU scope covers both CTAs.
        (
            "MP rel/acq gpu, two CTAs",
            litmus("MP", &TWO_CTAS, &[&["st.weak x, 1", "ld.acquire.gpu r0, y"], &["st.release.gpu y, 1", "ld.weak r1, x"]], mp_weak),
            false,
        ),
        // Fences with relaxed flag accesses form release and acquire patterns.
        (
            "MP fence.acq_rel gpu",
            litmus(
                "MP",
                &TWO_CTAS,
                &[&["st.weak x, 1", "ld.relaxed.gpu r0, y"], &["fence.acq_rel.gpu", "fence.acq_rel.gpu"], &["st.relaxed.gpu y, 1", "ld.weak r1, x"]],
                mp_weak,
            ),
            false,
        ),
        // A weak flag breaks the pattern: the observation must be morally strong.
        (
            "MP fence.acq_rel gpu, weak flag",
            litmus(
                "MP",
                &TWO_CTAS,
                &[&["st.weak x, 1", "ld.weak r0, y"], &["fence.acq_rel.gpu", "fence.acq_rel.gpu"], &["st.weak y, 1", "ld.weak r1, x"]],
                mp_weak,
            ),
            true,
        ),
        // Store buffering: relaxed accesses, and acq_rel fences, allow it.
        (
            "SB relaxed",
            litmus("SB", &TWO_CTAS, &[&["st.relaxed.gpu x, 1", "st.relaxed.gpu y, 1"], &["ld.relaxed.gpu r0, y", "ld.relaxed.gpu r1, x"]], sb_weak),
            true,
        ),
        (
            "SB fence.acq_rel",
            litmus(
                "SB",
                &TWO_CTAS,
                &[
                    &["st.relaxed.gpu x, 1", "st.relaxed.gpu y, 1"],
                    &["fence.acq_rel.gpu", "fence.acq_rel.gpu"],
                    &["ld.relaxed.gpu r0, y", "ld.relaxed.gpu r1, x"],
                ],
                sb_weak,
            ),
            true,
        ),
        // sc fences whose scopes cover both threads forbid it...
        (
            "SB fence.sc gpu",
            litmus("SB", &TWO_CTAS, &[&["st.weak x, 1", "st.weak y, 1"], &["fence.sc.gpu", "fence.sc.gpu"], &["ld.weak r0, y", "ld.weak r1, x"]], sb_weak),
            false,
        ),
        // ...and CTA-scoped ones across CTAs do not.
        (
            "SB fence.sc cta, two CTAs",
            litmus("SB", &TWO_CTAS, &[&["st.weak x, 1", "st.weak y, 1"], &["fence.sc.cta", "fence.sc.cta"], &["ld.weak r0, y", "ld.weak r1, x"]], sb_weak),
            true,
        ),
        (
            "SB fence.sc cta, one CTA",
            litmus("SB", &SAME_CTA, &[&["st.weak x, 1", "st.weak y, 1"], &["fence.sc.cta", "fence.sc.cta"], &["ld.weak r0, y", "ld.weak r1, x"]], sb_weak),
            false,
        ),
        // Load buffering is allowed without dependencies...
        (
            "LB relaxed",
            litmus(
                "LB",
                &TWO_CTAS,
                &[&["ld.relaxed.gpu r0, x", "ld.relaxed.gpu r1, y"], &["st.relaxed.gpu y, 1", "st.relaxed.gpu x, 1"]],
                "exists (P0:r0 == 1 /\\ P1:r1 == 1)",
            ),
            true,
        ),
        // ...and forbidden when each store depends on the load before it (no thin air).
        (
            "LB data dependencies",
            litmus(
                "LB",
                &TWO_CTAS,
                &[&["ld.relaxed.gpu r0, x", "ld.relaxed.gpu r1, y"], &["st.relaxed.gpu y, r0", "st.relaxed.gpu x, r1"]],
                "exists (P0:r0 == 1 /\\ P1:r1 == 1)",
            ),
            false,
        ),
        // Coherence of read-read pairs holds for morally strong accesses...
        (
            "CoRR relaxed",
            litmus("CoRR", &TWO_CTAS, &[&["st.relaxed.gpu x, 1", "ld.relaxed.gpu r0, x"], &["", "ld.relaxed.gpu r1, x"]], "exists (P1:r0 == 1 /\\ P1:r1 == 0)"),
            false,
        ),
        // ...but not for weak reads of a write that is not morally strong with them.
        ("CoRR weak", litmus("CoRR", &TWO_CTAS, &[&["st.weak x, 1", "ld.weak r0, x"], &["", "ld.weak r1, x"]], "exists (P1:r0 == 1 /\\ P1:r1 == 0)"), true),
        // IRIW with gpu-scoped sc fences between the reads: the readers agree.
        (
            "IRIW fence.sc gpu",
            litmus(
                "IRIW",
                &[(0, 0), (1, 0), (2, 0), (3, 0)],
                &[
                    &["st.relaxed.gpu x, 1", "st.relaxed.gpu y, 1", "ld.relaxed.gpu r0, x", "ld.relaxed.gpu r0, y"],
                    &["", "", "fence.sc.gpu", "fence.sc.gpu"],
                    &["", "", "ld.relaxed.gpu r1, y", "ld.relaxed.gpu r1, x"],
                ],
                "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)",
            ),
            false,
        ),
        // With acq_rel fences they may disagree.
        (
            "IRIW fence.acq_rel gpu",
            litmus(
                "IRIW",
                &[(0, 0), (1, 0), (2, 0), (3, 0)],
                &[
                    &["st.relaxed.gpu x, 1", "st.relaxed.gpu y, 1", "ld.relaxed.gpu r0, x", "ld.relaxed.gpu r0, y"],
                    &["", "", "fence.acq_rel.gpu", "fence.acq_rel.gpu"],
                    &["", "", "ld.relaxed.gpu r1, y", "ld.relaxed.gpu r1, x"],
                ],
                "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)",
            ),
            true,
        ),
    ]
}

#[test]
fn classic_shapes_get_the_ptx_models_verdicts() {
    let mut wrong = Vec::new();
    for (what, text, allowed) in classics() {
        match verdict(&text) {
            Ok(v) if v == allowed => {}
            Ok(v) => wrong.push(format!("{what}: the checker says the weak outcome is {}, the model {}", allowed_word(v), allowed_word(allowed))),
            Err(e) => wrong.push(format!("{what}: {e}\n{text}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn allowed_word(b: bool) -> &'static str {
    if b {
        "allowed"
    } else {
        "forbidden"
    }
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/litmus-ptx")
}

#[test]
fn dat3m_ptx_litmus_tests_get_their_expected_verdicts() {
    let dir = corpus();
    let Ok(csv) = std::fs::read_to_string(dir.join("expected.csv")) else {
        println!("note: {} is absent; the PTX corpus is not checked", dir.display());
        return;
    };
    let mut agree = 0;
    let mut skipped = Vec::new();
    let mut wrong = Vec::new();
    for line in csv.lines().filter(|l| !l.trim().is_empty()) {
        let (file, expected) = line.split_once(',').expect("`file,verdict` lines");
        let expected = expected.trim() == "1";
        let text = std::fs::read_to_string(dir.join(file)).expect("a listed test exists");
        match verdict(&text) {
            Ok(v) if v == expected => agree += 1,
            Ok(v) => wrong.push(format!("{file}: the checker says {v}, expected.csv {expected}")),
            Err(e) => skipped.push(format!("{file}: {e}")),
        }
    }
    println!("PTX corpus: {agree} agree, {} out of the checker's reach:\n  {}", skipped.len(), skipped.join("\n  "));
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
