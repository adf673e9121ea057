//! Exploration: one scenario under many seeds, the distinct outcomes and findings it shows.
//!
//! Each run is an ordinary session with the seed replaced, so every outcome and finding comes
//! with the seed that reproduces it exactly.

use serde::{Deserialize, Serialize};

use crate::report::{BufferReport, Finding};
use crate::scenario::{Number, Scenario};
use crate::session::Session;

/// A distinct final state of the buffers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The buffers' final values, by parameter name.
    pub values: std::collections::BTreeMap<String, Vec<Option<Number>>>,
    /// How many runs ended this way.
    pub count: u64,
    /// The first seed that ends this way.
    pub seed: u64,
}

/// A finding seen in some run, with the first seed that shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeededFinding {
    #[serde(flatten)]
    pub finding: Finding,
    pub seed: u64,
    /// In how many runs it appeared.
    pub runs: u64,
}

/// What `interleave explore --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exploration {
    pub runs: u64,
    pub findings: Vec<SeededFinding>,
    pub outcomes: Vec<Outcome>,
}

impl Exploration {
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.finding.severity == crate::diag::Severity::Error)
    }
}

fn outcome_key(buffers: &[BufferReport]) -> std::collections::BTreeMap<String, Vec<Option<Number>>> {
    buffers.iter().map(|b| (b.name.clone(), b.values.clone())).collect()
}

/// Runs `scenario` under seeds `first_seed`, `first_seed + 1`, ... `runs` times. Outcomes are
/// listed most frequent first (ties by first seed); findings by first seed, then position.
pub fn explore(scenario: &Scenario, first_seed: u64, runs: u64) -> Result<Exploration, Vec<crate::diag::Diagnostic>> {
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut findings: Vec<SeededFinding> = Vec::new();
    for k in 0..runs {
        let seed = first_seed.wrapping_add(k);
        let mut s = scenario.clone();
        s.seed = seed;
        let mut session = Session::new(s)?;
        session.run(u64::MAX);
        let report = session.report();
        let values = outcome_key(&report.buffers);
        match outcomes.iter_mut().find(|o| o.values == values) {
            Some(o) => o.count += 1,
            None => outcomes.push(Outcome { values, count: 1, seed }),
        }
        // A run counts once for each kind and place, even if it reported it twice (two race
        // pairs that share their later access).
        let mut seen_in_run: Vec<(crate::report::FindingKind, u32, u32)> = Vec::new();
        for f in report.findings {
            let key = (f.kind, f.line, f.column);
            if seen_in_run.contains(&key) {
                continue;
            }
            seen_in_run.push(key);
            let same = |g: &SeededFinding| g.finding.kind == f.kind && (g.finding.line, g.finding.column) == (f.line, f.column);
            match findings.iter_mut().find(|g| same(g)) {
                Some(g) => g.runs += 1,
                None => findings.push(SeededFinding { finding: f, seed, runs: 1 }),
            }
        }
    }
    outcomes.sort_by(|a, b| b.count.cmp(&a.count).then(a.seed.cmp(&b.seed)));
    Ok(Exploration { runs, findings, outcomes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{ArgBinding, Dialect};

    #[test]
    fn lost_updates_show_several_outcomes_and_each_reproduces() {
        let mut s = Scenario::new(
            "__kernel void f(__global int *c) { c[0] = c[0] + 1; atomic_inc(&c[1]); }",
            "f.cl",
            Dialect::OpenCl,
        );
        s.launch.global = vec![8];
        s.args = vec![ArgBinding::parse("c=int[2]").unwrap()];
        let e = explore(&s, 0, 50).unwrap();
        assert_eq!(e.runs, 50);
        assert_eq!(e.outcomes.iter().map(|o| o.count).sum::<u64>(), 50);
        assert!(e.outcomes.len() > 1, "lost updates should give several outcomes");
        for o in &e.outcomes {
            assert_eq!(o.values["c"][1], Some(Number::Int(8)), "the atomic counter never loses an update");
            let mut again = s.clone();
            again.seed = o.seed;
            let mut session = Session::new(again).unwrap();
            session.run(u64::MAX);
            assert_eq!(outcome_key(&session.report().buffers), o.values, "seed {} reproduces its outcome", o.seed);
        }
    }
}
