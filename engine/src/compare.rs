//! Which execution model a bug needs: one kernel explored under each model the engine has,
//! and which findings and outcomes appear under which.
//!
//! A *model* is a scenario's execution settings with everything else kept: the scheduler
//! (independent work-items, under the scenario's own scheduler unless that is lockstep or
//! manual, then random; or lockstep warps of 32 and of 64 work-items), the memory model
//! (sequentially consistent or relaxed), and residency (all groups, or 1 to
//! [`MAX_RESIDENT_STEPS`] resident groups, fewer than the launch has, under the
//! occupancy-bound and under the fair progress model). The models are
//! the independent one under each memory model, lockstep under sequential consistency, and
//! each residency under sequential consistency with independent work-items: every model but
//! the first changes one setting, so a difference between two columns has one cause.
//!
//! Each model runs `runs` seeds from the scenario's own (an exploration by seeds, as
//! `interleave explore` runs it, so each cell's first seed reproduces it with `run`). A model
//! the launch or dialect cannot honour (CUDA's warps are 32 threads; residency with one
//! work-group; a setting the engine refuses) is skipped with the reason. Findings are the
//! same across models when their kind and place are (`explore::same_finding`); outcomes when
//! their values are.
//!
//! [`Comparer`] runs a number of executions at a time, like `explore::Explorer`; [`compare`]
//! runs it to the end. Deterministic: the same scenario and runs give the same matrix.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::explore::{self, Exploration, Explorer};
use crate::report::Finding;
use crate::scenario::{Dialect, MemoryModel, Number, Progress, Scenario, SchedulerKind};
use crate::session::{Prepared, Session};

/// The seeds each model runs by default.
pub const DEFAULT_RUNS: u64 = 100;

/// The most resident-group counts compared (1, 2, ... up to this, below the launch's groups).
pub const MAX_RESIDENT_STEPS: u32 = 3;

/// One execution model: a column of the matrix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Model {
    /// For people: `independent, sc`, `lockstep warps of 32`, `occupancy-bound, 1 resident`.
    pub name: String,
    pub scheduler: SchedulerKind,
    pub warp_size: u32,
    pub memory_model: MemoryModel,
    /// At most this many groups resident at once (`None`: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resident_groups: Option<u32>,
    pub progress: Progress,
    /// Why the model was not run, when it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

impl Model {
    /// The scenario this model runs: `base` with the model's settings.
    pub fn scenario(&self, base: &Scenario) -> Scenario {
        let mut s = base.clone();
        s.scheduler = self.scheduler;
        s.warp_size = self.warp_size;
        s.memory_model = self.memory_model;
        s.max_resident_groups = self.resident_groups;
        s.progress = self.progress;
        s.schedule = Vec::new();
        s.choices = Vec::new();
        s
    }
}

/// A finding and, per model, in how many runs it appeared and the first seed that shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingRow {
    /// As first seen (by the first model that showed it).
    #[serde(flatten)]
    pub finding: Finding,
    /// Per model, in the order of `models`: runs that showed it (`null` for a skipped model).
    pub counts: Vec<Option<u64>>,
    /// Per model: the first seed that shows it (`null` where none did).
    pub seeds: Vec<Option<u64>>,
}

/// A final state and, per model, how many runs ended in it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeRow {
    pub values: BTreeMap<String, Vec<Option<Number>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registers: Option<BTreeMap<String, i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
    pub counts: Vec<Option<u64>>,
    pub seeds: Vec<Option<u64>>,
}

/// What `interleave compare --json` prints: the models (columns) and the rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Seeds each model ran, from `first_seed`.
    pub runs: u64,
    pub first_seed: u64,
    pub models: Vec<Model>,
    pub findings: Vec<FindingRow>,
    pub outcomes: Vec<OutcomeRow>,
}

impl Comparison {
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.finding.severity == crate::diag::Severity::Error)
    }
}

/// The models compared for `base`, whose launch has `groups` work-groups.
pub fn models(base: &Scenario, groups: u32) -> Vec<Model> {
    let independent = match base.scheduler {
        SchedulerKind::Lockstep | SchedulerKind::Manual => SchedulerKind::Random,
        other => other,
    };
    let model = |name: String, scheduler, warp_size, memory_model, resident_groups, progress| Model {
        name,
        scheduler,
        warp_size,
        memory_model,
        resident_groups,
        progress,
        skipped: None,
    };
    let all = Progress::OccupancyBound;
    let mut out = vec![
        model("independent, sc".to_string(), independent, base.warp_size, MemoryModel::Sc, None, all),
        model("independent, relaxed".to_string(), independent, base.warp_size, MemoryModel::Relaxed, None, all),
    ];
    for warp in [32, 64] {
        let mut m = model(format!("lockstep warps of {warp}"), SchedulerKind::Lockstep, warp, MemoryModel::Sc, None, all);
        if warp != 32 && base.dialect == Dialect::Cuda {
            m.skipped = Some("CUDA's warps are 32 threads (warpSize); a warp of 64 is no CUDA device".to_string());
        }
        out.push(m);
    }
    for progress in [Progress::OccupancyBound, Progress::Fair] {
        if groups <= 1 {
            let mut m = model(format!("{}, 1 resident", progress.name()), independent, base.warp_size, MemoryModel::Sc, Some(1), progress);
            m.skipped = Some("the launch has one work-group, which is always resident".to_string());
            out.push(m);
            continue;
        }
        for r in 1..groups.min(MAX_RESIDENT_STEPS + 1) {
            out.push(model(format!("{}, {r} resident", progress.name()), independent, base.warp_size, MemoryModel::Sc, Some(r), progress));
        }
    }
    out
}

/// Explores `base` under every model, `runs` seeds each (0 for [`DEFAULT_RUNS`]).
pub fn compare(base: &Scenario, runs: u64) -> Result<Comparison, Vec<Diagnostic>> {
    let mut comparer = Comparer::new(base, runs)?;
    while !comparer.advance(u64::MAX)? {}
    Ok(comparer.result())
}

/// A comparison in progress, one model after another, a number of executions at a time.
pub struct Comparer {
    base: Scenario,
    runs: u64,
    models: Vec<Model>,
    /// Each model's exploration, once run (`None` for a skipped one).
    done: Vec<Option<Exploration>>,
    /// The model being explored.
    current: Option<Explorer>,
}

impl Comparer {
    /// Compiles and launches the scenario once (for its number of work-groups); nothing is
    /// explored yet.
    pub fn new(base: &Scenario, runs: u64) -> Result<Comparer, Vec<Diagnostic>> {
        let runs = if runs == 0 { DEFAULT_RUNS } else { runs };
        crate::limits::EXPLORATION_RUNS.check(runs).map_err(|d| vec![d])?;
        let mut prepared = Prepared::new(base.clone())?;
        prepared.history = false;
        let groups = Session::start(&prepared, base.seed)?.group_count() as u32;
        let models = models(base, groups);
        Ok(Comparer { base: base.clone(), runs, models, done: Vec::new(), current: None })
    }

    /// The models, in column order.
    pub fn models(&self) -> &[Model] {
        &self.models
    }

    /// Executions run so far, over every model.
    pub fn executions(&self) -> u64 {
        let done: u64 = self.done.iter().flatten().map(|e| e.runs + e.discarded).sum();
        done + self.current.as_ref().map_or(0, Explorer::executions)
    }

    /// The most executions the comparison runs: `runs` per model not skipped (a model found
    /// to be refused only when it starts still counts until then).
    pub fn budget(&self) -> u64 {
        self.runs * self.models.iter().filter(|m| m.skipped.is_none()).count() as u64
    }

    /// Runs up to `executions` more executions; `Ok(true)` once every model is done.
    pub fn advance(&mut self, executions: u64) -> Result<bool, Vec<Diagnostic>> {
        let mut left = executions;
        while self.done.len() < self.models.len() {
            if left == 0 {
                return Ok(false);
            }
            let i = self.done.len();
            if self.models[i].skipped.is_some() {
                self.done.push(None);
                continue;
            }
            let explorer = match &mut self.current {
                Some(e) => e,
                None => {
                    let scenario = self.models[i].scenario(&self.base);
                    let config = explore::Config { runs: self.runs, first_seed: self.base.seed, exhaustive: false, max_preemptions: None };
                    match Explorer::new(&scenario, config) {
                        Ok(e) => self.current.insert(e),
                        Err(diagnostics) => {
                            // A setting the engine refuses for this kernel: the model is skipped,
                            // with the engine's reason.
                            let reason = diagnostics.first().map_or_else(|| "the engine refuses it".to_string(), |d| d.message.clone());
                            self.models[i].skipped = Some(reason);
                            self.done.push(None);
                            continue;
                        }
                    }
                }
            };
            let before = explorer.executions();
            let over = explorer.advance(left)?;
            left = left.saturating_sub(explorer.executions() - before);
            if over {
                let result = explorer.result();
                self.current = None;
                self.done.push(Some(result));
            }
        }
        Ok(true)
    }

    /// The matrix so far (models not yet run have no counts).
    pub fn result(&self) -> Comparison {
        let n = self.models.len();
        let mut findings: Vec<FindingRow> = Vec::new();
        let mut outcomes: Vec<OutcomeRow> = Vec::new();
        for (i, e) in self.done.iter().enumerate() {
            let Some(e) = e else { continue };
            for f in &e.findings {
                let row = match findings.iter_mut().position(|r| explore::same_finding(&r.finding, &f.finding)) {
                    Some(k) => &mut findings[k],
                    None => {
                        findings.push(FindingRow { finding: f.finding.clone(), counts: vec![None; n], seeds: vec![None; n] });
                        findings.last_mut().expect("just pushed")
                    }
                };
                row.counts[i] = Some(f.runs);
                row.seeds[i] = Some(f.seed);
            }
            for o in &e.outcomes {
                let row = match outcomes.iter_mut().position(|r| r.values == o.values && r.registers == o.registers) {
                    Some(k) => &mut outcomes[k],
                    None => {
                        let (values, registers, exists) = (o.values.clone(), o.registers.clone(), o.exists);
                        outcomes.push(OutcomeRow { values, registers, exists, counts: vec![None; n], seeds: vec![None; n] });
                        outcomes.last_mut().expect("just pushed")
                    }
                };
                row.counts[i] = Some(row.counts[i].unwrap_or(0) + o.count);
                row.seeds[i] = Some(row.seeds[i].map_or(o.seed, |s: u64| s.min(o.seed)));
            }
        }
        // A model that ran shows 0 where it did not see a row; a skipped one stays `null`.
        for (i, e) in self.done.iter().enumerate() {
            if e.is_some() {
                for c in findings.iter_mut().map(|r| &mut r.counts[i]).chain(outcomes.iter_mut().map(|r| &mut r.counts[i])) {
                    c.get_or_insert(0);
                }
            }
        }
        Comparison { runs: self.runs, first_seed: self.base.seed, models: self.models.clone(), findings, outcomes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ArgBinding;

    /// A plain counter races under independent work-items, whatever the memory model, and not
    /// in lockstep, where the four lanes of one warp run the load and then the store together
    /// and a warp's instruction orders its lanes (the warp-synchronous model); a launch of one
    /// group skips residency with the reason.
    #[test]
    fn a_race_needs_independent_work_items_and_one_group_skips_residency() {
        let mut s = Scenario::new("__kernel void f(__global int *c) { c[0] = c[0] + 1; }", "f.cl", Dialect::OpenCl);
        s.launch.global = vec![4];
        s.args = vec![ArgBinding::parse("c=int[1]:fill=0").unwrap()];
        let c = compare(&s, 10).unwrap();
        assert_eq!(c.models.len(), 6);
        assert!(c.models.iter().filter(|m| m.resident_groups.is_some()).all(|m| m.skipped.is_some()));
        let race = c.findings.iter().find(|r| r.finding.kind == crate::report::FindingKind::DataRace).expect("a race");
        for (m, count) in c.models.iter().zip(&race.counts) {
            assert_eq!(count.is_some(), m.skipped.is_none(), "{}", m.name);
            if m.skipped.is_none() {
                let expected = if m.scheduler == SchedulerKind::Lockstep { 0 } else { 10 };
                assert_eq!(*count, Some(expected), "{}", m.name);
            }
        }
    }

    /// Progress counts every execution of every model run, and ends at the budget.
    #[test]
    fn progress_counts_the_executions_of_every_model() {
        let mut s = Scenario::new("__kernel void f(__global int *c) { c[0] = c[0] + 1; }", "f.cl", Dialect::OpenCl);
        s.launch.global = vec![4];
        s.args = vec![ArgBinding::parse("c=int[1]:fill=0").unwrap()];
        let mut comparer = Comparer::new(&s, 5).unwrap();
        assert_eq!(comparer.executions(), 0);
        assert!(!comparer.advance(7).unwrap());
        assert_eq!(comparer.executions(), 7);
        while !comparer.advance(3).unwrap() {}
        assert_eq!(comparer.executions(), comparer.budget());
        assert_eq!(comparer.budget(), 5 * comparer.models().iter().filter(|m| m.skipped.is_none()).count() as u64);
    }
}
