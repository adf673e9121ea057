//! Shrinking a failure on the page, the parts that are plain data: the scenario a shrink
//! starts from, the reduction in words, and the work-items a shrunk run's failure involves.
//!
//! The shrink itself is the engine's `shrink::Shrinker`, run in a worker ([`crate::task`]);
//! which edges order what is the engine's `why`. Here is only what the page makes of them.

use std::collections::BTreeSet;

use interleave_engine::explore::{self, Outcome};
use interleave_engine::report::Finding;
use interleave_engine::scenario::Scenario;
use interleave_engine::session::Session;
use interleave_engine::shrink::Shrunk;
use interleave_engine::why;

/// The scenario whose own run shows an explored `outcome`: `explored` (the exploration's
/// scenario) with the outcome's replay, or its first seed.
pub fn outcome_scenario(explored: &Scenario, outcome: &Outcome) -> Scenario {
    match &outcome.schedule {
        Some(schedule) => explored.replaying(schedule, outcome.choices.as_deref().unwrap_or_default()),
        None => Scenario { seed: outcome.seed, ..explored.clone() },
    }
}

/// The reduction a shrink made, for the status line: `41 → 12 steps, 3 → 1 preemptions
/// (230 executions)`, with whether fewer preemptions are proven impossible.
pub fn reduction(shrunk: &Shrunk) -> String {
    let after = &shrunk.after;
    let plural = |n: u64, word: &str| if n == 1 { format!("{n} {word}") } else { format!("{n} {word}s") };
    let (steps, preemptions) = match &shrunk.before {
        Some(before) => (format!("{} → {} steps", before.steps, after.steps), format!("{} → {} preemptions", before.preemptions, after.preemptions)),
        None => (plural(after.steps, "step"), plural(u64::from(after.preemptions), "preemption")),
    };
    let mut text = format!("{steps}, {preemptions} ({} executions", interleave_engine::limits::thousands(shrunk.executions));
    if let Some(proof) = interleave_engine::shrink::proof(shrunk) {
        text.push_str("; ");
        text.push_str(&proof);
    } else if shrunk.budget_exhausted {
        text.push_str("; the budget ran out, so a smaller one may exist");
    }
    text.push(')');
    text
}

/// The work-items (linear indices) a run's failure involves: for `target`, those of the
/// run's finding of the same kind and place (its own, its related places' and its
/// explanation's accesses); for an outcome (`None`), the accesses of the reads the relaxed
/// model let read an older write. Empty when the run does not say.
pub fn involved(session: &Session, target: Option<&Finding>) -> BTreeSet<usize> {
    let mut ids: Vec<[u64; 3]> = Vec::new();
    match target {
        Some(target) => {
            let found = session.findings().iter().enumerate().find(|(_, f)| explore::same_finding(f, target));
            if let Some((k, finding)) = found {
                ids.extend(finding.work_item);
                ids.extend(finding.related.iter().filter_map(|r| r.work_item));
                if let Some(explanation) = why::finding(session, k) {
                    ids.extend(explanation.accesses.iter().map(|a| a.work_item));
                }
            }
        }
        None => {
            if let Some(explanation) = why::outcome(session) {
                ids.extend(explanation.accesses.iter().map(|a| a.work_item));
            }
        }
    }
    (0..session.work_item_count()).filter(|&i| ids.contains(&session.work_item(i).global_id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::scenario::{ArgBinding, Dialect};
    use interleave_engine::shrink::{self, Pick};

    /// Eight work-items, two of which race on one counter.
    fn racy() -> Scenario {
        let source = "__kernel void k(__global int *c) { int i = get_global_id(0); if (i == 2 || i == 5) { c[0] = c[0] + 1; } }";
        let mut s = Scenario::new(source, "k.cl", Dialect::OpenCl);
        s.launch.global = vec![8];
        s.args = vec![ArgBinding::parse("c=int[1]:fill=0").unwrap()];
        s
    }

    #[test]
    fn a_race_involves_its_two_work_items_only() {
        let mut session = Session::new(racy()).unwrap();
        session.run(u64::MAX);
        let race = session.findings().iter().find(|f| f.kind.as_str() == "data-race").expect("a race").clone();
        assert_eq!(involved(&session, Some(&race)), BTreeSet::from([2, 5]));
        // No outcome explanation under sequential consistency: nothing to focus on.
        assert!(involved(&session, None).is_empty());
    }

    #[test]
    fn the_reduction_reads_before_and_after() {
        let shrunk = shrink::shrink(&racy(), Pick::FirstError, shrink::Config { budget: 200 }).unwrap();
        let text = reduction(&shrunk);
        let before = shrunk.before.as_ref().expect("the run as given shows it");
        assert!(
            text.starts_with(&format!("{} → {} steps, {} → {} preemptions", before.steps, shrunk.after.steps, before.preemptions, shrunk.after.preemptions)),
            "{text}"
        );
        assert!(shrunk.after.steps <= before.steps);
    }
}
