//! Exploration: one scenario under many schedules, the distinct outcomes and findings it shows.
//!
//! Two ways to pick the schedules:
//!
//! - **Seeds** (the scenario's scheduler): run `first_seed`, `first_seed + 1`, ...; each run
//!   is exactly the run `Session::start` makes with that seed (what `interleave run --seed N`
//!   runs), so every outcome and finding comes with the seed that reproduces it. Such runs
//!   make no promises (the relaxed model's load buffering), as a plain run makes none: those
//!   executions are the exhaustive search's.
//! - **Exhaustive**: every execution, up to a bound, enumerated depth-first: at each step
//!   which agent runs, and the step's own decision (which write a relaxed load reads, whether
//!   a weak compare-exchange fails spuriously). Dynamic partial-order reduction (Flanagan and
//!   Godefroid, "Dynamic Partial-Order Reduction for Model Checking Software", POPL 2005)
//!   with sleep sets (Godefroid, 1996) skips schedules that only reorder independent steps:
//!   steps of different agents are dependent when they touch the same memory and one writes,
//!   meet at the same barrier, order each other's sequentially consistent fences, or use the
//!   heap or printf. Each outcome and finding comes with the schedule and decisions that
//!   reproduce it (`--sched manual --schedule ... --choices ...`; a lockstep scenario's with
//!   `--sched lockstep`, which keeps a replay's warps together). A drawn outcome that brings
//!   its agent back to a state it had on the path, with nothing written since and no other
//!   agent stepping between (a weak compare-exchange's spurious failure in a retry loop, a
//!   stale read read again), is not followed: what comes after it comes after that earlier
//!   state too, and following it would retry for ever. With a preemption bound every
//!   schedule within the bound is enumerated, without reduction, since reduction and
//!   preemption bounding do not combine soundly. Lockstep is enumerated without reduction
//!   too: its unit of choice is a warp's instruction, so a step disables steps independent of
//!   it (see `sched::Scheduler::Lockstep`), which reduction assumes never happens; a
//!   preemption there is a switch away from a warp that could go on.

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::exec::Machine;
use crate::ir::{fence, ptr, AtomicOp, Instr};
use crate::report::{BufferReport, Finding, RunStatus};
use crate::scenario::{Number, Scenario};
use crate::session::{Prepared, Session};
use crate::trace::Space;

mod coverage;
mod path_index;
pub mod pct;
pub use coverage::MAX_CLASSES;

/// A distinct final state: the buffers, and a litmus test's registers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The buffers' final values, by parameter name.
    pub values: BTreeMap<String, Vec<Option<Number>>>,
    /// A litmus test's registers, as `"THREAD:NAME"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registers: Option<BTreeMap<String, i64>>,
    /// Whether it satisfies a litmus test's final condition (never, for runs that did not
    /// complete: only a completed run reaches a final state).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
    /// How the runs ending this way stopped when they did not complete: a deadlock, a
    /// livelock, a limit or an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<RunStatus>,
    /// How many runs ended this way.
    pub count: u64,
    /// The first seed that ends this way (under exhaustive exploration, the scenario's seed,
    /// with `schedule` and `choices`).
    pub seed: u64,
    /// Under exhaustive exploration: the agent of each step and the decisions of the steps
    /// that had several options, which replay this outcome with the manual scheduler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<u32>>,
    /// When the first run ending this way had reads the sequentially consistent model would
    /// not allow (relaxed model): the edges that made them (see `crate::why`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<crate::report::Explanation>,
}

/// A finding seen in some run, with the first seed that shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeededFinding {
    #[serde(flatten)]
    pub finding: Finding,
    /// The first seed whose run shows it (under exhaustive exploration, the scenario's seed,
    /// with `schedule` and `choices`).
    pub seed: u64,
    /// In how many runs it appeared (0 for the finding that stopped an exhaustive search,
    /// which is about the search, not a run).
    pub runs: u64,
    /// Under exhaustive exploration: the agent of each step and the decisions of the first
    /// execution that showed it, which replay it with the manual scheduler.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choices: Option<Vec<u32>>,
}

/// What `interleave explore --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exploration {
    pub runs: u64,
    /// Executions explored and dropped because the relaxed model does not allow them (a
    /// promise that was never kept).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub discarded: u64,
    /// Whether every execution (within the preemption bound) was explored: always `false` for
    /// exploration by seeds.
    pub complete: bool,
    pub findings: Vec<SeededFinding>,
    pub outcomes: Vec<Outcome>,
    /// For a litmus test: whether some run satisfied its final condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exists_observed: Option<bool>,
    /// How many of the runs are distinct up to reordering independent steps (distinct
    /// Mazurkiewicz traces, see `coverage`); 0 where unknown (results of older versions).
    #[serde(default)]
    pub distinct_schedules: u64,
    /// Whether more were distinct than the [`MAX_CLASSES`] hashes kept: the count is a lower
    /// bound.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub distinct_schedules_capped: bool,
    /// The runs' trace hashes, sorted, for merging parts of one exploration (the CLI leaves
    /// them out of what it prints).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule_hashes: Vec<u64>,
    /// Exploration by seeds under the PCT scheduler: what its probability bound needs
    /// ([`pct::bound`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pct: Option<pct::PctRuns>,
    /// After an exploration by seeds: how many executions the exhaustive search takes to cover
    /// every one, when it does within [`OFFER_EXECUTIONS`] ([`exhaustive_size`],
    /// [`Explorer::offer_exhaustive`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaustive_offer: Option<u64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Exploration {
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.finding.severity == crate::diag::Severity::Error)
    }

    /// Whether a litmus test's final condition, quantified by `quantifier`, holds over the
    /// completed runs explored: `exists` when some run satisfied its predicate, `~exists` when
    /// none did, `forall` when every one did. Runs that did not complete reached no final
    /// state and count for none of them.
    pub fn condition_holds(&self, quantifier: crate::litmus::LitmusQuantifier) -> bool {
        use crate::litmus::LitmusQuantifier;
        let satisfied = self.outcomes.iter().any(|o| o.exists == Some(true));
        match quantifier {
            LitmusQuantifier::Exists => satisfied,
            LitmusQuantifier::NotExists => !satisfied,
            LitmusQuantifier::Forall => !self.outcomes.iter().any(|o| o.ended.is_none() && o.exists == Some(false)),
        }
    }
}

/// How to explore.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Seeds to run; for exhaustive exploration, the most executions to enumerate.
    pub runs: u64,
    pub first_seed: u64,
    pub exhaustive: bool,
    /// Exhaustive exploration: the most preemptions (switching away from an agent that could
    /// have gone on) in one execution.
    pub max_preemptions: Option<u32>,
}

/// The most executions an exhaustive exploration enumerates when `runs` is 0.
pub const DEFAULT_EXHAUSTIVE_RUNS: u64 = 1_000_000;

fn outcome_key(buffers: &[BufferReport]) -> BTreeMap<String, Vec<Option<Number>>> {
    buffers.iter().map(|b| (b.name.clone(), b.values.clone())).collect()
}

/// Whether `o == o` for the comparison `Tally::add` makes: its registers are integers, and
/// its values equal themselves unless one is a NaN.
fn equals_itself(o: &Outcome) -> bool {
    o.values.values().flatten().all(|v| !matches!(v, Some(Number::Float(f)) if f.is_nan()))
}

/// What makes two findings of different runs the same: the kind and the place, and for a
/// data race the unordered pair of its two accesses' places (one run may find the pair's
/// accesses in one order and another run in the other).
pub(crate) type FindingKey = (crate::report::FindingKind, (u32, u32), (u32, u32));

pub(crate) fn finding_key(f: &Finding) -> FindingKey {
    let here = (f.line, f.column);
    match f.related.first() {
        Some(r) if f.kind == crate::report::FindingKind::DataRace => {
            let there = (r.line, r.column);
            (f.kind, here.min(there), here.max(there))
        }
        _ => (f.kind, here, (0, 0)),
    }
}

/// Whether two findings are the same finding of different runs: the same kind at the same
/// place (a data race at the same unordered pair of places).
pub fn same_finding(a: &Finding, b: &Finding) -> bool {
    finding_key(a) == finding_key(b)
}

/// Adds `finding`, seen in `runs` runs, the first with `seed`, to `findings` (explorations
/// of earlier seeds first): one finding per kind and place, a data race per unordered pair
/// of places, counting its runs and keeping the first seed, except that a race benign so far
/// but not in these runs is not benign, and is shown as these runs found it.
pub fn merge_finding(findings: &mut Vec<SeededFinding>, incoming: &SeededFinding) {
    merge_finding_with(findings, &incoming.finding, incoming.seed, incoming.runs, || (incoming.schedule.clone(), incoming.choices.clone()));
}

/// [`merge_finding`] for a finding of one run, whose replay (`schedule`, `choices`) is asked
/// for only when the finding is kept.
fn merge_finding_with(
    findings: &mut Vec<SeededFinding>,
    finding: &Finding,
    seed: u64,
    runs: u64,
    replay: impl FnOnce() -> (Option<Vec<u32>>, Option<Vec<u32>>),
) {
    let key = finding_key(finding);
    match findings.iter_mut().find(|g| finding_key(&g.finding) == key) {
        Some(g) => {
            if g.finding.benign && !finding.benign {
                let (schedule, choices) = replay();
                g.finding = finding.clone();
                g.seed = seed;
                g.schedule = schedule;
                g.choices = choices;
            }
            g.runs += runs;
        }
        None => {
            let (schedule, choices) = replay();
            findings.push(SeededFinding { finding: finding.clone(), seed, runs, schedule, choices });
        }
    }
}

/// Whether an outcome's replay is an interleaving: no read of an older write (which
/// would carry an explanation) and no promise in its schedule.
fn plain(o: &Outcome) -> bool {
    o.explanation.is_none() && o.schedule.as_ref().is_none_or(|s| s.iter().all(|&a| a & crate::exec::PROMISE == 0))
}

/// Splits seeds `first_seed ..` (`runs` of them) into `parts` contiguous ranges, in seed
/// order, as `(first seed, runs)`; the earlier ranges take one more seed when the division
/// leaves a remainder. Seeds wrap around as runs' do. [`merge`] puts their explorations
/// back together: the app's workers and the CLI's threads explore such ranges.
pub fn split_seeds(first_seed: u64, runs: u64, parts: usize) -> Vec<(u64, u64)> {
    let workers = (parts.max(1) as u64).min(runs.max(1));
    let (share, extra) = (runs / workers, runs % workers);
    let mut next = first_seed;
    (0..workers)
        .map(|i| {
            let count = share + u64::from(i < extra);
            let range = (next, count);
            next = next.wrapping_add(count);
            range
        })
        .collect()
}

/// Merges the explorations of consecutive seed ranges, given in seed order, into the one
/// exploration of all the seeds (the app splits a random exploration over workers and merges
/// their parts with this): outcomes are the same final state when their buffers and
/// registers are equal, their counts add up, and the first seed in seed order (with its
/// replay) is kept; findings as the engine merges them ([`merge_finding`]). The order is the engine's: outcomes
/// most frequent first, ties by seed; findings by first appearance.
pub fn merge(parts: &[Exploration]) -> Exploration {
    let mut merged = Exploration {
        runs: 0,
        discarded: 0,
        complete: !parts.is_empty() && parts.iter().all(|p| p.complete),
        findings: Vec::new(),
        outcomes: Vec::new(),
        exists_observed: None,
        distinct_schedules: 0,
        distinct_schedules_capped: false,
        schedule_hashes: Vec::new(),
        pct: None,
        exhaustive_offer: parts.iter().find_map(|p| p.exhaustive_offer),
    };
    let mut classes = coverage::Classes::default();
    // Outcomes by hash, so that merging many distinct outcomes stays linear; equality
    // within a bucket is the engine's own.
    let mut by_hash: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for part in parts {
        merged.runs += part.runs;
        merged.discarded += part.discarded;
        merged.exists_observed = match (merged.exists_observed, part.exists_observed) {
            (Some(a), Some(b)) => Some(a || b),
            (a, b) => a.or(b),
        };
        for outcome in &part.outcomes {
            // An earlier part ran earlier seeds, so an outcome already here keeps its seed,
            // unless only this part reached it in an execution that needs no explanation.
            let bucket = by_hash.entry(outcome_hash(outcome)).or_default();
            match bucket.iter().copied().find(|&i| {
                let known: &Outcome = &merged.outcomes[i];
                known.values == outcome.values && known.registers == outcome.registers && known.ended == outcome.ended
            }) {
                Some(i) => {
                    let known = &mut merged.outcomes[i];
                    known.count += outcome.count;
                    if !plain(known) && plain(outcome) {
                        (known.seed, known.schedule, known.choices, known.explanation) =
                            (outcome.seed, outcome.schedule.clone(), outcome.choices.clone(), None);
                    }
                }
                None => {
                    bucket.push(merged.outcomes.len());
                    merged.outcomes.push(outcome.clone());
                }
            }
        }
        for finding in &part.findings {
            merge_finding(&mut merged.findings, finding);
        }
        classes.union(&part.schedule_hashes, part.distinct_schedules_capped);
        merged.pct = match (merged.pct, part.pct) {
            (Some(a), Some(b)) => Some(pct::PctRuns { longest_run: a.longest_run.max(b.longest_run), ..a }),
            (a, b) => a.or(b),
        };
    }
    merged.distinct_schedules = classes.hashes.len() as u64;
    merged.distinct_schedules_capped = classes.capped;
    merged.schedule_hashes = classes.hashes.into_iter().collect();
    merged.outcomes.sort_by(|a, b| b.count.cmp(&a.count).then(a.seed.cmp(&b.seed)));
    merged
}

/// A hash on which equal outcomes (buffers and registers equal as the engine compares them)
/// agree: floats hash by value, with both zeros alike.
fn outcome_hash(outcome: &Outcome) -> u64 {
    let mut hasher = DefaultHasher::new();
    for (name, values) in &outcome.values {
        name.hash(&mut hasher);
        values.len().hash(&mut hasher);
        for value in values {
            match value {
                None => 0u8.hash(&mut hasher),
                Some(Number::Int(v)) => (1u8, v).hash(&mut hasher),
                Some(Number::UInt(v)) => (2u8, v).hash(&mut hasher),
                Some(Number::Float(v)) => {
                    let bits = if *v == 0.0 { 0 } else { v.to_bits() };
                    (3u8, bits).hash(&mut hasher)
                }
            }
        }
    }
    outcome.registers.hash(&mut hasher);
    hasher.finish()
}

/// Gathers outcomes and findings run by run.
#[derive(Default)]
struct Tally {
    runs: u64,
    /// Executions the model does not allow (a promise left unkept), not counted in `runs`.
    discarded: u64,
    outcomes: Vec<Outcome>,
    findings: Vec<SeededFinding>,
    /// The raw final states seen so far (`Session::outcome_key`), each with the index of its
    /// outcome: most runs end in a state seen before, and are counted from this alone.
    known: BTreeMap<Vec<u64>, usize>,
    /// The key of the run being added, kept for its allocation.
    key: Vec<u64>,
    /// The runs' distinct trace hashes, and the run being hashed.
    classes: coverage::Classes,
    foata: coverage::Foata,
    /// Exploration by seeds under PCT: its runs so far, for the bound.
    pct: Option<pct::PctRuns>,
}

impl Tally {
    /// An outcome's replay is its first execution, unless that one read an older write (and
    /// so carries an explanation of why it may) or made a promise, and this later one,
    /// `session`, reached the same outcome without either, as an interleaving: then this one
    /// is kept. An outcome the sequentially consistent model allows is thus never shown with
    /// an explanation of a relaxed execution once an interleaving reaching it has been seen
    /// (in an exhaustive search, always).
    fn prefer_plain(&mut self, i: usize, session: &Session, seed: u64, replay: &impl Fn() -> Option<(Vec<u32>, Vec<u32>)>) {
        let o = &mut self.outcomes[i];
        let weak = &session.machine().weak;
        if plain(o) || !weak.stale.is_empty() || weak.promises_made > 0 {
            return;
        }
        let (schedule, choices) = replay().map_or((None, None), |(s, c)| (Some(s), Some(c)));
        (o.seed, o.schedule, o.choices, o.explanation) = (seed, schedule, choices, None);
    }

    /// Counts a finished run; `replay` gives its schedule and decisions, asked for only when
    /// the run shows a new outcome or finding, or a better replay of a known outcome.
    /// The run's trace is in `foata`.
    fn add(&mut self, session: &Session, seed: u64, replay: impl Fn() -> Option<(Vec<u32>, Vec<u32>)>) {
        self.runs += 1;
        let class = self.foata.hash();
        self.classes.add(class);
        session.outcome_key(&mut self.key);
        // How the run ended is part of its outcome: a run that hung reached no final state.
        let status = session.status();
        let ended = (status != RunStatus::Completed).then_some(status);
        self.key.push(match ended {
            None => 0,
            Some(s) => 1 + s as u64,
        });
        if let Some(&i) = self.known.get(self.key.as_slice()) {
            self.outcomes[i].count += 1;
            self.prefer_plain(i, session, seed, &replay);
        } else {
            let (buffers, registers, exists, _) = session.outcome();
            let values = outcome_key(&buffers);
            let i = match self.outcomes.iter().position(|o| o.values == values && o.registers == registers && o.ended == ended) {
                Some(i) => {
                    self.outcomes[i].count += 1;
                    self.prefer_plain(i, session, seed, &replay);
                    i
                }
                None => {
                    let (schedule, choices) = match replay() {
                        Some((s, c)) => (Some(s), Some(c)),
                        None => (None, None),
                    };
                    let explanation = crate::why::outcome(session);
                    self.outcomes.push(Outcome { values, registers, exists, ended, count: 1, seed, schedule, choices, explanation });
                    self.outcomes.len() - 1
                }
            };
            // Another run ending in this state has this outcome, found as above, unless the
            // outcome is not equal to itself (a NaN among its values): such an outcome
            // matches nothing, and each run showing it is listed apart, as before.
            if equals_itself(&self.outcomes[i]) {
                self.known.insert(self.key.clone(), i);
            }
        }
        // A run counts once for each finding, even if it reported it twice.
        let mut seen_in_run: Vec<FindingKey> = Vec::new();
        for (k, f) in session.findings().iter().enumerate() {
            let key = finding_key(f);
            if seen_in_run.contains(&key) {
                continue;
            }
            seen_in_run.push(key);
            // The explanation is worked out only for the run whose finding is kept.
            let kept = match self.findings.iter().find(|g| finding_key(&g.finding) == key) {
                Some(g) => g.finding.benign && !f.benign,
                None => true,
            };
            let explained;
            let f = if kept && f.explanation.is_none() {
                explained = Finding { explanation: crate::why::finding(session, k), ..f.clone() };
                &explained
            } else {
                f
            };
            merge_finding_with(&mut self.findings, f, seed, 1, || replay().map_or((None, None), |(s, c)| (Some(s), Some(c))));
        }
    }

    /// The exploration's results so far (the tally goes on unchanged).
    fn finish(&self, complete: bool, litmus: bool) -> Exploration {
        let mut outcomes = self.outcomes.clone();
        outcomes.sort_by(|a, b| b.count.cmp(&a.count).then(a.seed.cmp(&b.seed)));
        let exists_observed = litmus.then(|| outcomes.iter().any(|o| o.exists == Some(true)));
        Exploration {
            runs: self.runs,
            discarded: self.discarded,
            complete,
            findings: self.findings.clone(),
            outcomes,
            exists_observed,
            distinct_schedules: self.classes.hashes.len() as u64,
            distinct_schedules_capped: self.classes.capped,
            schedule_hashes: self.classes.hashes.iter().copied().collect(),
            pct: self.pct.filter(|_| self.runs > 0),
            exhaustive_offer: None,
        }
    }
}

/// Runs `scenario` under seeds `first_seed`, `first_seed + 1`, ... `runs` times. Outcomes are
/// listed most frequent first (ties by first seed); findings by first seed, then position.
pub fn explore(scenario: &Scenario, first_seed: u64, runs: u64) -> Result<Exploration, Vec<Diagnostic>> {
    explore_with(scenario, Config { runs, first_seed, exhaustive: false, max_preemptions: None })
}

/// Explores `scenario` as `config` says.
pub fn explore_with(scenario: &Scenario, config: Config) -> Result<Exploration, Vec<Diagnostic>> {
    let mut explorer = Explorer::new(scenario, config)?;
    while !explorer.advance(u64::MAX)? {}
    Ok(explorer.result())
}

/// The most executions an exhaustive search is given when offered after an exploration by
/// seeds: enough for small scenarios, and quick.
pub const OFFER_EXECUTIONS: u64 = 2_000;

/// The most work an offered search may do, in steps of bookkeeping along its path (each step
/// it takes compares the new state with every state on the path, and each new state checks
/// every enabled agent's next step against every step on the path). Executions alone do not
/// bound it: one execution of a large launch is a path of thousands of steps with a thousand
/// agents enabled at each, which would take minutes before the first execution counts. About
/// a tenth of a second natively.
const OFFER_WORK: u64 = 20_000_000;

/// Whether an exhaustive exploration of `scenario` covers every execution within
/// [`OFFER_EXECUTIONS`], and if so in how many: what an exploration by seeds that cannot be
/// complete offers instead. The budget decides, not a guess at the scenario's size.
pub fn exhaustive_size(scenario: &Scenario) -> Option<u64> {
    let mut explorer = Explorer::new(scenario, Config { runs: 0, first_seed: scenario.seed, exhaustive: false, max_preemptions: None }).ok()?;
    explorer.offer_exhaustive();
    while !explorer.advance(u64::MAX).ok()? {}
    explorer.result().exhaustive_offer
}

/// An exploration in progress, advanced a number of executions at a time (the app's worker
/// reports progress between chunks and can stop at any of them).
pub struct Explorer {
    prepared: Prepared,
    config: Config,
    litmus: bool,
    tally: Tally,
    state: State,
    /// Exploration by seeds: the session and scratch space each run reuses.
    runner: Runner,
    /// The exhaustive search tried after the seeds, when asked for.
    offer: Option<Offer>,
}

/// The exhaustive search offered after an exploration by seeds.
enum Offer {
    Pending,
    Searching(Box<Explorer>),
    /// How many executions cover everything, if the budget was enough.
    Found(Option<u64>),
}

enum State {
    /// The next seed to run, as an offset from the first.
    Seeds {
        next: u64,
    },
    Exhaustive(Box<Search>),
    Done {
        complete: bool,
    },
}

/// The exhaustive search's path and bookkeeping.
struct Search {
    stack: Vec<Node>,
    agents: usize,
    budget: u64,
    reduce: bool,
    /// The machine every certifying solo run of the search copies its state into (lent to
    /// the session that needs it), so that those runs reuse one machine's allocations.
    solo: Option<Box<Machine>>,
    /// The most bytes the states on the path may hold (the scenario's memory limit): a path
    /// keeps a copy of the machine and its events at every step, so a long execution (a spin
    /// that never ends before the step limit) would otherwise exhaust the host.
    max_bytes: u64,
    /// Work the search may still do ([`OFFER_WORK`] for an offered search, unbounded for one
    /// asked for); when it runs out, the search ends incomplete.
    work_left: u64,
    /// The path's steps by what they touch, for finding the races of each new state.
    path: path_index::PathIndex,
    /// Scratch for finding a race's initials ([`add_sources`]).
    initials: Initials,
}

/// What [`add_sources`] reuses from one call to the next: the steps it looks at, by what they
/// touch, and the agents seen among them.
#[derive(Debug, Default)]
struct Initials {
    steps: path_index::PathIndex,
    seen: rustc_hash::FxHashSet<u32>,
}

/// About how many bytes of the host one event of a recorded log takes (its columns; see
/// `crate::trace`), for the size of a state on the exhaustive search's path.
const EVENT_BYTES: u64 = 40;

/// About how many bytes of the host a state on the path holds: its machine and its events.
fn state_bytes(session: &Session) -> u64 {
    let m = session.machine();
    (m.heap_bytes() as u64).saturating_add((m.log.len() as u64).saturating_mul(EVENT_BYTES))
}

impl Explorer {
    /// Compiles the scenario; nothing runs yet.
    pub fn new(scenario: &Scenario, config: Config) -> Result<Explorer, Vec<Diagnostic>> {
        // Zero runs means the default for an exhaustive exploration; otherwise the count is
        // bounded like every other resource (see `crate::limits`).
        if config.runs != 0 {
            crate::limits::EXPLORATION_RUNS.check(config.runs).map_err(|d| vec![d])?;
        }
        let mut prepared = Prepared::new(scenario.clone())?;
        prepared.history = false;
        // Runs are told apart by their final states; nothing reads their trace hashes.
        prepared.trace_hash = false;
        prepared.keep_launch();
        let litmus = prepared.litmus.is_some();
        let state = if config.exhaustive {
            let root = Session::start(&prepared, prepared.scenario.seed)?;
            let agents = root.machine().items.len() + root.machine().groups.len();
            let budget = if config.runs == 0 { DEFAULT_EXHAUSTIVE_RUNS } else { config.runs };
            let mut solo = None;
            let lockstep = root.lockstep();
            let stack = vec![node(root, Vec::new(), 0, None, 0, &mut solo)];
            let max_bytes = prepared.scenario.max_memory_bytes;
            // Partial-order reduction assumes that a step never disables an independent one.
            // Lockstep breaks that (an instruction begun holds every other warp back until it
            // ends, and a lane that loops back holds its warp's lanes back), so its executions
            // are enumerated without it.
            let reduce = config.max_preemptions.is_none() && !lockstep;
            State::Exhaustive(Box::new(Search {
                stack,
                agents,
                budget,
                reduce,
                solo,
                max_bytes,
                work_left: u64::MAX,
                path: Default::default(),
                initials: Default::default(),
            }))
        } else {
            State::Seeds { next: 0 }
        };
        let mut tally = Tally::default();
        if !config.exhaustive && prepared.scenario.scheduler == crate::scenario::SchedulerKind::Pct {
            let depth = prepared.scenario.pct_depth;
            tally.pct = Some(pct::PctRuns { agents: 0, depth, change_steps: 0, longest_run: 0 });
        }
        Ok(Explorer { prepared, config, litmus, tally, state, runner: Runner::default(), offer: None })
    }

    /// Once the seeds are run, tries the exhaustive search within [`OFFER_EXECUTIONS`] (in
    /// the same chunks, so that a worker stays responsive) and reports in `exhaustive_offer`
    /// whether it covers everything. Only for exploration by seeds.
    pub fn offer_exhaustive(&mut self) {
        if !self.config.exhaustive {
            self.offer = Some(Offer::Pending);
        }
    }

    /// Runs up to `executions` more executions; `Ok(true)` once the exploration is over.
    pub fn advance(&mut self, executions: u64) -> Result<bool, Vec<Diagnostic>> {
        let pause = self.executions().saturating_add(executions);
        loop {
            match &mut self.offer {
                Some(Offer::Pending) if matches!(self.state, State::Done { .. }) => {
                    let config = Config { runs: OFFER_EXECUTIONS, first_seed: self.prepared.scenario.seed, exhaustive: true, max_preemptions: None };
                    self.offer = Some(match Explorer::new(&self.prepared.scenario, config) {
                        Ok(mut search) => {
                            if let State::Exhaustive(s) = &mut search.state {
                                s.work_left = OFFER_WORK;
                            }
                            Offer::Searching(Box::new(search))
                        }
                        Err(_) => Offer::Found(None),
                    });
                    continue;
                }
                Some(Offer::Searching(search)) => {
                    // A search that fails says nothing: no offer.
                    let over = search.advance(executions).unwrap_or(true);
                    if !over {
                        return Ok(false);
                    }
                    let e = search.result();
                    self.offer = Some(Offer::Found(e.complete.then_some(e.runs + e.discarded)));
                    return Ok(true);
                }
                _ => {}
            }
            match &mut self.state {
                State::Done { .. } if matches!(self.offer, Some(Offer::Pending)) => continue,
                State::Done { .. } => return Ok(true),
                State::Seeds { next } if *next >= self.config.runs => self.state = State::Done { complete: false },
                State::Seeds { next } => {
                    let seed = self.config.first_seed.wrapping_add(*next);
                    *next += 1;
                    run_seed(&self.prepared, seed, &mut self.tally, &mut self.runner)?;
                    if self.executions() >= pause {
                        return Ok(false);
                    }
                }
                State::Exhaustive(s) => match search(s, &mut self.tally, self.prepared.scenario.seed, self.config.max_preemptions, pause) {
                    Some(complete) => self.state = State::Done { complete },
                    None => return Ok(false),
                },
            }
        }
    }

    /// Executions run so far, discarded ones included.
    pub fn executions(&self) -> u64 {
        self.tally.runs + self.tally.discarded
    }

    /// The most executions the exploration will run.
    pub fn budget(&self) -> u64 {
        match &self.state {
            State::Exhaustive(s) => s.budget,
            _ => self.config.runs,
        }
    }

    /// The results so far (all of them once `advance` said the exploration is over).
    pub fn result(&self) -> Exploration {
        let complete = matches!(self.state, State::Done { complete: true });
        let exhaustive_offer = match &self.offer {
            Some(Offer::Found(found)) => *found,
            _ => None,
        };
        Exploration { exhaustive_offer, ..self.tally.finish(complete, self.litmus) }
    }
}

/// What exploration by seeds keeps from one run to the next, so that once the first runs
/// have sized it a run allocates next to nothing: the session, restarted in place (see
/// `Session::restart`).
#[derive(Default)]
struct Runner {
    session: Option<Session>,
}

/// One run under `seed`, tallied: the run `Session::start` makes with that seed, to its end,
/// and nothing else, so that `interleave run --seed N` (and the app's run of an explored seed)
/// reproduces what the tally reports for seed N.
fn run_seed(prepared: &Prepared, seed: u64, tally: &mut Tally, runner: &mut Runner) -> Result<(), Vec<Diagnostic>> {
    let session = match &mut runner.session {
        Some(session) => {
            session.restart(prepared, seed)?;
            session
        }
        None => runner.session.insert(Session::start(prepared, seed)?),
    };
    // Each step's footprint and label are read from the state before it, as the exhaustive
    // search reads them, for the run's trace hash.
    let foata = &mut tally.foata;
    foata.clear();
    let mut before = (0, Footprint::Nothing, (0, 0), 0);
    while session.step_seen(|s, agent| before = (agent, footprint(s, agent), instruction(s, agent), s.machine().weak.made.len())) {
        // The step's decisions are part of what it is; they are known once it ran.
        let (agent, fp, (func, pc), made) = before;
        let decisions = session.machine().weak.made.get(made..).unwrap_or(&[]);
        foata.push(agent, fp, coverage::label(func, pc, decisions));
    }
    if let Some(p) = &mut tally.pct {
        let m = session.machine();
        p.agents = m.ready_pos.len() as u64;
        p.change_steps = crate::sched::pct_change_steps(m.items.len(), prepared.scenario.max_steps);
        p.longest_run = p.longest_run.max(session.steps());
    }
    // Only a manual schedule's promise steps can leave a promise unkept here.
    if !session.consistent() {
        tally.discarded += 1;
        return Ok(());
    }
    tally.add(session, seed, || None);
    Ok(())
}

/// Marks a promise step in a schedule.
const PROMISE: u32 = crate::exec::PROMISE;
/// The most promises one execution makes.
const MAX_PROMISES: u32 = 2;
/// Launches up to this many work-items make promises (each needs a solo run to certify).
const MAX_PROMISING_ITEMS: usize = 64;

/// Whether `agent` could promise a write that another agent is about to read: a promise
/// matters only to a read, and one made just before that read gives every outcome an earlier
/// one could. `enabled` and `reads` are scratch vectors the caller keeps.
fn useful_promise(session: &mut Session, agent: u32, enabled: &mut Vec<u32>, reads: &mut Vec<Footprint>) -> bool {
    let m = session.machine();
    if agent as usize >= m.items.len() || m.weak.agents.get(agent as usize).is_some_and(|x| x.promise.is_some()) {
        return false;
    }
    session.enabled_into(enabled);
    reads.clear();
    // A promise made before a release fence is of use to agents within the fence's scope
    // too, as long as they do not acquire by a fence afterwards (see `Weak::release_point`).
    reads.extend(enabled.iter().copied().filter(|&b| b != agent).map(|b| footprint(session, b)).filter(|f| matches!(f, Footprint::Memory { .. })));
    if reads.is_empty() {
        return false;
    }
    session.promise_candidates(agent).iter().any(|c| {
        let (space, owner, alloc, start) = c.key;
        let write = Footprint::Memory { space, owner, alloc, start, end: start + c.size as u64, write: true };
        reads.iter().any(|&r| dependent(r, write))
    })
}

/// Whether executions of this session may make promises.
fn promising(session: &Session) -> bool {
    session.machine().weak.enabled && session.machine().items.len() <= MAX_PROMISING_ITEMS
}

/// What a step touches, for deciding which steps commute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Footprint {
    /// Nothing another agent's step depends on (a relaxed or acquire-release fence, a
    /// statement step): it commutes with everything.
    Nothing,
    /// Shared memory: (space, owning group for local memory, allocation), a byte range, and
    /// whether it writes.
    Memory {
        space: u8,
        owner: u32,
        alloc: u32,
        start: u64,
        end: u64,
        write: bool,
    },
    /// A barrier, collective or async copy of a work-group.
    Group(u32),
    /// A sequentially consistent fence.
    ScFence,
    /// `malloc` or `free`.
    Heap,
    Printf,
    /// Unknown or engine-internal: depends on everything.
    Everything,
}

fn dependent(a: Footprint, b: Footprint) -> bool {
    use Footprint::*;
    match (a, b) {
        (Nothing, _) | (_, Nothing) => false,
        (Everything, _) | (_, Everything) => true,
        (Memory { space, owner, alloc, start, end, write }, Memory { space: s2, owner: o2, alloc: a2, start: st2, end: e2, write: w2 }) => {
            (write || w2) && (space, owner, alloc) == (s2, o2, a2) && start < e2 && st2 < end
        }
        (Group(g), Group(h)) => g == h,
        (ScFence, ScFence) | (Heap, Heap) | (Printf, Printf) => true,
        _ => false,
    }
}

/// What `agent`'s next step touches, read from its pending instruction.
fn footprint(session: &Session, agent: u32) -> Footprint {
    let m = session.machine();
    let Some(item) = m.items.get(agent as usize) else { return Footprint::Everything };
    let Some(func) = m.program.functions.get(item.func as usize) else { return Footprint::Everything };
    let Some(&instr) = func.code.get(item.pc as usize) else { return Footprint::Everything };
    let regs = m.regs_of(agent);
    let reg = |r: u32| regs.get(item.base as usize + r as usize).copied().unwrap_or(0);
    let memory = |addr: u32, size: u64, write: bool| {
        let p = reg(addr);
        let space = ptr::space(p);
        let owner = if space == Space::Local { item.group } else { 0 };
        let start = ptr::offset(p);
        Footprint::Memory { space: space as u8, owner, alloc: ptr::alloc(p), start, end: start.saturating_add(size.max(1)), write }
    };
    match instr {
        Instr::Load { ty, addr, .. } => memory(addr, ty.size(), false),
        Instr::Store { ty, addr, .. } => memory(addr, ty.size(), true),
        Instr::Atomic { op, ty, addr, .. } => memory(addr, ty.size(), op != AtomicOp::Load),
        Instr::Fence { flags } => {
            let (order, _) = fence::order_and_level(reg(flags));
            if order == crate::ir::Order::SeqCst {
                Footprint::ScFence
            } else {
                Footprint::Nothing
            }
        }
        Instr::Barrier { .. } | Instr::NamedBarrier { .. } | Instr::Collective { .. } | Instr::AsyncCopy { .. } | Instr::WaitEvents { .. } => {
            Footprint::Group(item.group)
        }
        Instr::Malloc { .. } | Instr::Free { .. } => Footprint::Heap,
        Instr::Printf { .. } => Footprint::Printf,
        Instr::Statement => Footprint::Nothing,
        _ => Footprint::Everything,
    }
}

/// One state on the exploration's current path.
struct Node {
    session: Session,
    /// Agents that can step, and the promise steps (`agent | PROMISE`) that can be made.
    enabled: Vec<u32>,
    promises: Vec<u32>,
    /// Agents still to run from here, and those already run (with all their decisions).
    backtrack: Vec<u32>,
    /// Whether every enabled agent is in `backtrack` (which only grows): then no race can add
    /// another ([`add_sources`]).
    all_backtracked: bool,
    done: Vec<u32>,
    /// Agents whose next step need not run from here, with what that step touches.
    sleep: Vec<(u32, Footprint)>,
    /// The step taken from here: agent, decision, options, what it touched.
    taken: Option<(u32, u32, u32, Footprint)>,
    /// Preemptions on the path up to here, and the agent of the step into here.
    preemptions: u32,
    last_agent: Option<u32>,
    /// For the step taken from here: for each agent, how many of its steps on the path happen
    /// before it or are it (a vector clock over path positions: 1 + index of the latest one).
    clock: Vec<u32>,
    /// About how many bytes of the host this state holds (`state_bytes`).
    bytes: u64,
}

/// The search's state for `session`; `solo` is the search's machine for certifying runs.
fn node(
    mut session: Session,
    sleep: Vec<(u32, Footprint)>,
    preemptions: u32,
    last_agent: Option<u32>,
    promises_made: u32,
    solo: &mut Option<Box<Machine>>,
) -> Node {
    let enabled = session.enabled();
    let mut promises = Vec::new();
    // A promise is made between lockstep instructions, never inside one.
    if promising(&session) && promises_made < MAX_PROMISES && session.forced().is_none() {
        let (mut scratch, mut reads) = (Vec::new(), Vec::new());
        session.swap_solo(solo);
        for &a in &enabled {
            if useful_promise(&mut session, a, &mut scratch, &mut reads) {
                promises.push(a | PROMISE);
            }
        }
        session.swap_solo(solo);
    }
    let bytes = state_bytes(&session);
    Node {
        session,
        enabled,
        promises,
        backtrack: Vec::new(),
        all_backtracked: false,
        done: Vec::new(),
        sleep,
        taken: None,
        preemptions,
        last_agent,
        clock: Vec::new(),
        bytes,
    }
}

/// Enumerates executions depth-first (see the module documentation) until the space is
/// covered or the tally reaches `pause` executions. Returns whether the search is over, and if
/// so whether it covered everything: `None` when it paused.
fn search(search: &mut Search, tally: &mut Tally, seed: u64, max_preemptions: Option<u32>, pause: u64) -> Option<bool> {
    let (budget, reduce, agents, max_bytes) = (search.budget, search.reduce, search.agents, search.max_bytes);
    let stack = &mut search.stack;
    let solo = &mut search.solo;
    let path = &mut search.path;
    let initials = &mut search.initials;
    let work_left = &mut search.work_left;
    // Charges `work` to the search's allowance; false once it is spent.
    let mut charge = |work: u64| match work_left.checked_sub(work) {
        Some(left) => {
            *work_left = left;
            true
        }
        None => false,
    };
    // What the states on the path hold, kept up to date as they are pushed and popped.
    let mut held: u64 = stack.iter().map(|n| n.bytes).sum();
    while let Some(top) = stack.last_mut() {
        if top.taken.is_none() && top.backtrack.is_empty() {
            // A new state: a finished execution, or the choice of its first step.
            if top.enabled.is_empty() {
                let leaf = &stack[stack.len() - 1].session;
                if leaf.status() != RunStatus::Running {
                    if leaf.consistent() {
                        path_class(stack, &mut tally.foata);
                        tally.add(leaf, seed, || Some(path_replay(stack)));
                    } else {
                        tally.discarded += 1;
                    }
                }
                let executions = tally.runs + tally.discarded;
                if executions >= budget {
                    return Some(stack.iter().all(|n| pending(n, reduce).is_none()));
                }
                held -= stack.pop().map_or(0, |n| n.bytes);
                if executions >= pause {
                    return None;
                }
                continue;
            }
            if reduce {
                let enabled = stack.last().map_or(0, |n| n.enabled.len()) as u64;
                if !charge((stack.len() as u64).saturating_mul(enabled)) {
                    return Some(false);
                }
                add_backtrack_points(stack, agents, path, initials);
            }
            let top = stack.last_mut().expect("the stack is not empty here");
            let first = if reduce { top.enabled.iter().copied().find(|p| !top.sleep.iter().any(|(q, _)| q == p)) } else { top.enabled.first().copied() };
            // Promises are never reduced away: each is tried wherever it can be made.
            let promises = top.promises.clone();
            match first {
                Some(p) => {
                    if reduce {
                        top.backtrack.push(p);
                    } else {
                        top.backtrack.clone_from(&top.enabled);
                    }
                    top.backtrack.extend(promises.iter().copied().filter(|q| !top.sleep.iter().any(|(s, _)| s == q)));
                }
                None => {
                    // Every enabled agent sleeps: the executions from here were covered.
                    held -= stack.pop().map_or(0, |n| n.bytes);
                    continue;
                }
            }
        }
        // The next step from the top state: another decision of the same agent, or the next
        // agent to backtrack to.
        let top = stack.last_mut().expect("the stack is not empty here");
        let next = match pending(top, reduce) {
            Some(step) => step,
            None => {
                held -= stack.pop().map_or(0, |n| n.bytes);
                continue;
            }
        };
        let (agent, choice) = next;
        if let Some((prev, _, _, fp)) = top.taken {
            if prev != agent {
                // All of `prev`'s decisions are done: it sleeps for the siblings after it.
                top.done.push(prev);
                if reduce {
                    top.sleep.push((prev, fp));
                }
            }
        }
        let preempts = match top.last_agent {
            Some(last) => {
                let (unit, session) = (top.session.unit(last), &top.session);
                unit != session.unit(agent) && top.enabled.iter().any(|&a| session.unit(a) == unit)
            }
            None => false,
        };
        let preemptions = top.preemptions + preempts as u32;
        if max_preemptions.is_some_and(|k| preemptions > k) {
            // Beyond the bound: this branch is not part of the space.
            top.taken = Some((agent, 0, 1, Footprint::Everything));
            continue;
        }
        if !charge(stack.len() as u64) {
            return Some(false);
        }
        let top = stack.last_mut().expect("the stack is not empty here");
        let fp = footprint(&top.session, agent);
        let mut child = top.session.fork();
        child.swap_solo(solo);
        let (options, _) = child.step_agent(agent, choice);
        child.swap_solo(solo);
        top.taken = Some((agent, choice, options, fp));
        if (choice != 0 || agent & crate::exec::PROMISE != 0) && repeats(stack, &child, agent & !crate::exec::PROMISE) {
            // A drawn outcome that led back to where the agent was (a weak compare-exchange
            // that failed spuriously and is retried, a stale read that is read again, a
            // promise step that could promise nothing): every execution after it is one of
            // those from that earlier state, where the step's other options and the other
            // agents' steps are explored anyway. Following it would retry for ever.
            continue;
        }
        let top = stack.last_mut().expect("the stack is not empty here");
        let sleep: Vec<(u32, Footprint)> = if reduce { top.sleep.iter().copied().filter(|&(_, q)| !dependent(q, fp)).collect() } else { Vec::new() };
        let clock = step_clock(stack, agent, fp, agents);
        let top = stack.last_mut().expect("the stack is not empty here");
        top.clock = clock;
        let last_agent = Some(agent);
        let promises_made = child.machine().weak.promises_made;
        let child = node(child, sleep, preemptions, last_agent, promises_made, solo);
        if held.saturating_add(child.bytes) > max_bytes {
            // The path cannot go deeper within the memory limit: the search ends here,
            // incomplete, and says why rather than exhausting the host.
            tally.findings.push(path_too_large(stack.len() as u64, held.saturating_add(child.bytes), max_bytes, seed));
            return Some(false);
        }
        held += child.bytes;
        stack.push(child);
    }
    Some(true)
}

/// Whether the step into `after` brought `agent` back to a state it had on the path: before
/// this step, or before one of the steps it took in a row just before, with no other agent
/// stepping in between. Then the whole machine is as it was there but for the agent's view
/// of the relaxed model, which only narrows what it may read.
fn repeats(stack: &[Node], after: &Session, agent: u32) -> bool {
    for i in (0..stack.len()).rev() {
        if stack[i].session.machine().write_epoch != after.machine().write_epoch {
            return false;
        }
        if stutters(&stack[i].session, after, agent) {
            return true;
        }
        if i == 0 || !matches!(stack[i - 1].taken, Some((a, ..)) if a == agent) {
            return false;
        }
    }
    false
}

/// Whether `agent`'s step from `before` to `after` left it exactly as it was (program
/// counter, registers, call frames, private memory, status) with shared memory unchanged. Its
/// weak model view may have moved on, which only narrows what it may read later.
fn stutters(before: &Session, after: &Session, agent: u32) -> bool {
    let (m0, m1) = (before.machine(), after.machine());
    let (Some(a), Some(b)) = (m0.items.get(agent as usize), m1.items.get(agent as usize)) else { return false };
    let same_rare = match (a.rare.as_deref(), b.rare.as_deref()) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            x.private == y.private
                && x.private_init == y.private_init
                && x.copies_called == y.copies_called
                && x.unwaited == y.unwaited
                && x.waiting_for == y.waiting_for
                && x.observed == y.observed
                && x.frames.len() == y.frames.len()
                && x.frames.iter().zip(&y.frames).all(|(f, g)| (f.func, f.pc, f.base, f.dst, f.private_top) == (g.func, g.pc, g.base, g.dst, g.private_top))
        }
        _ => false,
    };
    m0.write_epoch == m1.write_epoch && a.status == b.status && (a.func, a.pc, a.base) == (b.func, b.pc, b.base) && a.regs == b.regs && same_rare
}

/// The finding that ends an exhaustive search whose path of `steps` steps would hold `bytes`,
/// more than the memory limit `max`.
fn path_too_large(steps: u64, bytes: u64, max: u64, seed: u64) -> SeededFinding {
    let what = format!(
        "exhaustive exploration stopped: one execution reached {} steps, and the states its search keeps for them would hold {} bytes (a long execution, such as a spin that only the step limit ends)",
        crate::limits::thousands(steps),
        crate::limits::thousands(bytes)
    );
    let finding = Finding {
        kind: crate::report::FindingKind::StepLimit,
        severity: crate::diag::Severity::Error,
        message: crate::limits::MEMORY_BYTES.exceeded(max, &what),
        line: 0,
        column: 0,
        work_item: None,
        step: Some(steps),
        related: Vec::new(),
        race: None,
        memory: None,
        benign: false,
        addresses: None,
        explanation: None,
        span: None,
    };
    // No run showed it: it is about the search.
    SeededFinding { finding, seed, runs: 0, schedule: None, choices: None }
}

/// The next (agent, decision) to run from `n`, if any.
fn pending(n: &Node, reduce: bool) -> Option<(u32, u32)> {
    if let Some((agent, choice, options, _)) = n.taken {
        if choice + 1 < options {
            return Some((agent, choice + 1));
        }
        let done = |p: u32| p == agent || n.done.contains(&p) || (reduce && n.sleep.iter().any(|&(q, _)| q == p));
        return n.backtrack.iter().copied().find(|&p| !done(p)).map(|p| (p, 0));
    }
    n.backtrack.first().map(|&p| (p, 0))
}

/// The vector clock of a step by `agent` touching `fp` after the path in `stack` (whose last
/// node is the state it starts from).
fn step_clock(stack: &[Node], agent: u32, fp: Footprint, agents: usize) -> Vec<u32> {
    let mut clock = vec![0u32; agents];
    let here = stack.len() - 1;
    for n in &stack[..here] {
        let Some((a, _, _, f)) = n.taken else { continue };
        if a == agent || dependent(f, fp) {
            for (c, &d) in clock.iter_mut().zip(&n.clock) {
                *c = (*c).max(d);
            }
        }
    }
    if let Some(c) = clock.get_mut(agent as usize) {
        *c = here as u32 + 1;
    }
    clock
}

/// Flanagan and Godefroid's update: for each agent `p` that could step from the newest state,
/// the latest step on the path that is dependent with `p`'s next step, by another agent, and
/// does not happen before anything `p` did, may be reordered after it: `p` (or, if `p` could
/// not run there, every agent that could) is added to the backtrack set of the state before
/// that step.
fn add_backtrack_points(stack: &mut [Node], agents: usize, path: &mut path_index::PathIndex, initials: &mut Initials) {
    let here = stack.len() - 1;
    path.sync(stack[..here].iter().map(|n| n.taken.map_or((u32::MAX, Footprint::Nothing), |(a, _, _, f)| (a, f))));
    let mut candidates = Vec::new();
    // The clock of each agent's latest step on the path.
    let mut latest: Vec<Option<usize>> = vec![None; agents];
    for (i, n) in stack[..here].iter().enumerate() {
        if let Some((a, ..)) = n.taken {
            if let Some(slot) = latest.get_mut(a as usize) {
                *slot = Some(i);
            }
        }
    }
    // Every race: an earlier step `i` and an enabled agent `p` with its next step's footprint.
    let mut races: Vec<(usize, u32, Footprint)> = Vec::new();
    let enabled = stack[here].enabled.clone();
    for p in enabled {
        let fp = footprint(&stack[here].session, p);
        if fp == Footprint::Nothing {
            continue;
        }
        let p_clock = latest.get(p as usize).copied().flatten().map(|i| &stack[i].clock[..]);
        let happens_before_p = |i: usize, a: u32| p_clock.is_some_and(|c| c.get(a as usize).is_some_and(|&v| v as usize > i));
        // Every earlier step that races with `p`'s next one: dependent, of another agent, and
        // not known to `p`. Reordering it after `p`'s step may give another outcome. Only the
        // steps the index lists as touching what `p`'s does can be dependent.
        path.candidates(fp, &mut candidates);
        races.extend(
            candidates
                .iter()
                .map(|&i| i as usize)
                .filter(|&i| {
                    let (a, f) = path.steps()[i];
                    a != p && dependent(f, fp) && !happens_before_p(i, a)
                })
                .map(|i| (i, p, fp)),
        );
    }
    // A race changes only the backtrack set of its own step, so the races of one step are
    // handled together (in the order of their agents, as found), sharing what they have in
    // common: the steps after it.
    races.sort_by_key(|&(i, ..)| i);
    for same_step in races.chunk_by(|x, y| x.0 == y.0) {
        add_sources(stack, same_step[0].0, here, same_step.iter().map(|&(_, p, fp)| (p, fp)), initials);
    }
}

/// Abdulla et al.'s source sets ("Optimal Dynamic Partial Order Reduction", POPL 2014): to
/// reverse the race between step `i` and `p`'s next step, for each `(p, fp)` of `races` in
/// turn, some agent that can start the reversed order from the state before `i` must run
/// there: an *initial* of the steps after `i` that do not depend on it, followed by `p`'s
/// step. One is added unless one is already scheduled there; a sleeping one has been covered
/// already.
fn add_sources(stack: &mut [Node], i: usize, here: usize, races: impl Iterator<Item = (u32, Footprint)>, scratch: &mut Initials) {
    // With every enabled agent scheduled there already, whatever the initials are, one is
    // scheduled (and nothing is added) or none is enabled (and all of them are, again).
    if stack[i].all_backtracked {
        return;
    }
    let Some((a_i, ..)) = stack[i].taken else { return };
    // The steps after `i` that do not happen after it, and their initials: agents whose first
    // step among them depends on nothing before it there. The steps are looked up by what they
    // touch: a scan of all of them for each made this quadratic in the path's length.
    let mut initials: Vec<u32> = Vec::new();
    scratch.steps.clear();
    scratch.seen.clear();
    for n in &stack[i + 1..here] {
        let Some((a, _, _, f)) = n.taken else { continue };
        let after_i = n.clock.get(a_i as usize).is_some_and(|&c| c as usize > i);
        if !after_i {
            if scratch.seen.insert(a) && !scratch.steps.any_dependent(f) {
                initials.push(a);
            }
            scratch.steps.push((a, f));
        }
    }
    let n = &mut stack[i];
    let scheduled = |n: &Node, q: u32| n.backtrack.contains(&q) || n.sleep.iter().any(|&(s, _)| s == q);
    // Whether one of `initials` is scheduled (or sleeps): updated as agents are added.
    let mut covered = initials.iter().any(|&q| scheduled(n, q));
    for (p, fp) in races {
        if covered || n.all_backtracked {
            return;
        }
        // With `p`'s step after them, `p` is one more initial if it is not among them and its
        // step depends on none of them.
        let p_last = !scratch.seen.contains(&p) && !scratch.steps.any_dependent(fp);
        if p_last && scheduled(n, p) {
            continue;
        }
        let pick = if p_last || initials.contains(&p) { p } else { initials.first().copied().unwrap_or(p) };
        if n.enabled.contains(&pick) {
            n.backtrack.push(pick);
            covered |= initials.contains(&pick);
        } else {
            for q in n.enabled.clone() {
                if !n.backtrack.contains(&q) {
                    n.backtrack.push(q);
                }
            }
            n.all_backtracked = true;
        }
    }
}

/// The instruction `agent` steps next (function and position), part of its step's label.
fn instruction(session: &Session, agent: u32) -> (u32, u32) {
    session.machine().items.get(agent as usize).map_or((u32::MAX, u32::MAX), |i| (i.func, i.pc))
}

/// Hashes the current path's steps into `foata`, as a run by seed is hashed.
fn path_class(stack: &[Node], foata: &mut coverage::Foata) {
    foata.clear();
    for n in stack {
        if let Some((agent, choice, options, _)) = n.taken {
            let decisions = [choice];
            let (func, pc) = instruction(&n.session, agent);
            let label = coverage::label(func, pc, if options > 1 { &decisions } else { &[] });
            foata.push(agent, footprint(&n.session, agent), label);
        }
    }
}

/// The schedule and decisions of the current path.
fn path_replay(stack: &[Node]) -> (Vec<u32>, Vec<u32>) {
    let mut schedule = Vec::new();
    let mut choices = Vec::new();
    for n in stack {
        if let Some((agent, choice, options, _)) = n.taken {
            schedule.push(agent);
            if options > 1 {
                choices.push(choice);
            }
        }
    }
    (schedule, choices)
}

#[cfg(test)]
mod tests;
