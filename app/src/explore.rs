//! Schedule exploration, the parts that are plain data: the messages the page and its
//! workers exchange, how a random exploration is split over workers and merged back, the
//! settings the Explore panel validates, and the wording of outcomes.
//!
//! The exploration itself is the engine's `Explorer`; it runs in Web Workers (see
//! [`crate::worker`] for the worker's side and [`crate::pool`] for the page's). Everything
//! here is pure, so it is tested natively, including the law that matters most: a random
//! exploration split over several workers and merged gives exactly what one worker running
//! every seed in order gives.

use std::collections::BTreeSet;
use std::rc::Rc;

use interleave_engine::compare::Comparison;
use interleave_engine::diag::Diagnostic;
use interleave_engine::explore::{Config, Exploration, Outcome};
use interleave_engine::limits::thousands;
use interleave_engine::scenario::{Number, Scenario, SchedulerKind};
use interleave_engine::shrink::{Pick, Shrunk};
use serde::{Deserialize, Serialize};

/// Where the page finds the worker's script (`static/explore-worker.js`): Trunk copies it next
/// to `index.html`, without a content hash, because the page names it at run time.
pub const WORKER_URL: &str = "./explore-worker.js";

/// Random exploration runs this many seeds unless the user asks for another number.
pub const DEFAULT_RUNS: u64 = 1000;
/// The most seeds one random exploration may run: about a minute of a small kernel.
pub const MAX_RUNS: u64 = interleave_engine::limits::EXPLORATION_RUNS.max;
/// A preemption bound above this explores as much as no bound, only slower.
pub const MAX_PREEMPTIONS: u32 = 1000;
/// The most workers a random exploration starts, whatever the browser reports.
pub const MAX_WORKERS: usize = 16;
/// Fewer seeds than this per worker do not repay starting a worker (loading its glue and
/// instantiating the page's module takes longer than running them).
pub const MIN_RUNS_PER_WORKER: u64 = 200;
/// A random exploration is cut into about this many jobs per worker, which the workers take
/// one after the other: a worker that gets less of the machine (the page and the browser use
/// it too) then does fewer jobs, instead of finishing its half long after the other.
pub const JOBS_PER_WORKER: u64 = 8;
/// Fewer seeds than this per job do not repay a job's own cost (the request, building the
/// explorer, the results message and their merging).
pub const MIN_RUNS_PER_JOB: u64 = 2000;

/// How the Explore panel picks executions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExploreMode {
    /// Seeds `seed`, `seed + 1`, ... under the launch panel's scheduler.
    Random,
    /// Every execution, with partial-order reduction (or every schedule within a preemption
    /// bound).
    Exhaustive,
}

impl ExploreMode {
    pub fn as_str(self) -> &'static str {
        match self {
            ExploreMode::Random => "random",
            ExploreMode::Exhaustive => "exhaustive",
        }
    }
}

/// One worker's share of an exploration: the engine's [`Config`], which is not a serde type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    pub runs: u64,
    pub first_seed: u64,
    pub exhaustive: bool,
    pub max_preemptions: Option<u32>,
    /// After the seeds, try the exhaustive search within the engine's small budget and say
    /// whether it covers every execution (`Explorer::offer_exhaustive`): one job of a random
    /// exploration asks.
    #[serde(default)]
    pub offer: bool,
}

impl Job {
    pub fn config(self) -> Config {
        Config { runs: self.runs, first_seed: self.first_seed, exhaustive: self.exhaustive, max_preemptions: self.max_preemptions }
    }
}

/// What the page tells a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// One request per worker: boxing the scenario would save nothing worth its noise.
#[allow(clippy::large_enum_variant)]
pub enum ToWorker {
    /// Explore `scenario` as `job` says, reporting progress as it goes.
    Explore { scenario: Scenario, job: Job },
    /// Shrink the failure `pick` of `scenario`'s own run (the engine's `shrink::Shrinker`)
    /// within `budget` executions (0 for the engine's default).
    Shrink { scenario: Scenario, pick: ShrinkPick, budget: u64 },
    /// Explore `scenario` under every execution model, `runs` seeds each (the engine's
    /// `compare::Comparer`).
    Compare { scenario: Scenario, runs: u64 },
    /// Stop at the end of the current chunk and report what was found so far.
    Stop,
}

/// What a worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The worker's WebAssembly is running and listening; messages sent before this are lost.
    Ready,
    Progress {
        executions: u64,
        budget: u64,
    },
    /// The exploration is over: finished, or `stopped` early when asked to.
    Done {
        exploration: Exploration,
        stopped: bool,
    },
    /// The scenario cannot be explored (it does not compile or cannot launch).
    Failed {
        diagnostics: Vec<Diagnostic>,
    },
    /// A shrink is over (finished, or stopped with the smallest schedule so far).
    Shrunk {
        shrunk: Shrunk,
    },
    /// A comparison is over (finished, or stopped with the models run so far).
    Compared {
        comparison: Comparison,
    },
}

/// Which failure a shrink keeps: the engine's `shrink::Pick`, as a message can carry it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShrinkPick {
    /// The run's finding at this index (from 0, in the order the run reports them).
    Finding(usize),
    /// Buffers (or a litmus test's registers) ending with these values.
    Outcome(Vec<(String, Vec<Option<Number>>)>),
}

impl ShrinkPick {
    pub fn pick(&self) -> Pick {
        match self {
            ShrinkPick::Finding(index) => Pick::Finding(index + 1),
            ShrinkPick::Outcome(terms) => Pick::Outcome(terms.clone()),
        }
    }

    /// The outcome `outcome` as a shrink's target: a litmus test's registers (what its
    /// condition reads), or else every buffer's values.
    pub fn outcome(outcome: &Outcome) -> ShrinkPick {
        match &outcome.registers {
            Some(registers) => ShrinkPick::Outcome(registers.iter().map(|(name, value)| (name.clone(), vec![Some(Number::Int(*value))])).collect()),
            None => ShrinkPick::Outcome(outcome.values.iter().map(|(name, values)| (name.clone(), values.clone())).collect()),
        }
    }
}

impl ToWorker {
    pub fn encode(&self) -> String {
        // Serialising these types cannot fail: every map key is a string.
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn decode(text: &str) -> Result<ToWorker, String> {
        // From bytes, as every JSON reader of the page does (the engine's share links too):
        // serde_json's parser is generic over its input, and one input type compiles it, and
        // each type's reading, once instead of twice.
        serde_json::from_slice(text.as_bytes()).map_err(|e| e.to_string())
    }
}

impl FromWorker {
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn decode(text: &str) -> Result<FromWorker, String> {
        // From bytes: see `ToWorker::decode`.
        serde_json::from_slice(text.as_bytes()).map_err(|e| e.to_string())
    }
}

/// What one worker reported, as the page passes it to the reducer.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerEvent {
    Progress {
        executions: u64,
        budget: u64,
    },
    Done {
        exploration: Rc<Exploration>,
        stopped: bool,
    },
    Failed {
        diagnostics: Vec<Diagnostic>,
    },
    /// The worker could not load, or stopped without answering (a message it could not read,
    /// a trap in its WebAssembly).
    Crashed {
        message: String,
    },
}

/// The Explore panel's settings, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    pub mode: ExploreMode,
    pub runs: u64,
    pub max_preemptions: Option<u32>,
}

/// Parses the number of seeds of a random exploration.
pub fn parse_runs(text: &str) -> Result<u64, String> {
    let text: String = text.trim().chars().filter(|c| *c != ',' && *c != '_').collect();
    match text.parse::<u64>() {
        Ok(0) => Err("run at least one seed".into()),
        Ok(n) if n > MAX_RUNS => Err(format!("at most {} seeds", thousands(MAX_RUNS))),
        Ok(n) => Ok(n),
        Err(_) => Err("the number of runs is a whole number, e.g. 1000".into()),
    }
}

/// Parses the preemption bound of an exhaustive exploration: empty for none.
pub fn parse_preemptions(text: &str) -> Result<Option<u32>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<u32>() {
        Ok(n) if n <= MAX_PREEMPTIONS => Ok(Some(n)),
        _ => Err(format!("a whole number from 0 to {MAX_PREEMPTIONS}, or empty for no bound")),
    }
}

/// How many workers a random exploration of `runs` seeds uses on a browser that reports
/// `hardware` logical processors (0 when it reports none).
pub fn worker_count(runs: u64, hardware: usize) -> usize {
    let by_work = (runs / MIN_RUNS_PER_WORKER).max(1);
    hardware.clamp(1, MAX_WORKERS).min(usize::try_from(by_work).unwrap_or(MAX_WORKERS))
}

/// How many jobs a random exploration of `runs` seeds over `workers` workers is cut into: at
/// least one per worker, [`JOBS_PER_WORKER`] per worker when the seeds are enough for jobs of
/// [`MIN_RUNS_PER_JOB`].
pub fn job_count(runs: u64, workers: usize) -> usize {
    let workers = workers.max(1) as u64;
    let jobs = (runs / MIN_RUNS_PER_JOB).clamp(workers, workers * JOBS_PER_WORKER);
    usize::try_from(jobs).unwrap_or(usize::MAX)
}

/// The scenario a worker explores: the launch panel's, without a replay (a manual schedule
/// would make every seed run the same execution); random exploration keeps the panel's
/// scheduler unless it is the manual one.
pub fn exploration_scenario(scenario: &Scenario) -> Scenario {
    let mut scenario = scenario.clone();
    if scenario.scheduler == SchedulerKind::Manual {
        scenario.scheduler = SchedulerKind::Random;
    }
    scenario.schedule.clear();
    scenario.choices.clear();
    scenario
}

/// Whether two scenarios run the same program on the same launch under the same memory
/// model, whatever their seed, scheduler or replay: the outcomes explored for one are then
/// outcomes of the other.
pub fn same_program(a: &Scenario, b: &Scenario) -> bool {
    let strip = |s: &Scenario| {
        let mut s = s.clone();
        s.seed = 0;
        s.scheduler = SchedulerKind::Random;
        s.schedule.clear();
        s.choices.clear();
        s
    };
    strip(a) == strip(b)
}

/// Elements of a buffer a chart label shows; the table's tooltip shows more.
const LABEL_ELEMENTS: usize = 8;
const DESCRIPTION_ELEMENTS: usize = 64;

fn number(value: &Option<Number>) -> String {
    match value {
        Some(Number::Int(v)) => v.to_string(),
        Some(Number::UInt(v)) => v.to_string(),
        Some(Number::Float(v)) => v.to_string(),
        // An element nothing was written to, or a value JSON cannot carry (NaN).
        None => "?".into(),
    }
}

/// `x=1` for a one-element buffer (a litmus location), `out=[1,2,…]` otherwise.
fn buffer(name: &str, values: &[Option<Number>], limit: usize) -> String {
    if values.len() == 1 {
        return format!("{name}={}", number(&values[0]));
    }
    let shown: Vec<String> = values.iter().take(limit).map(number).collect();
    let more = if values.len() > limit { ",…" } else { "" };
    format!("{name}=[{}{more}]", shown.join(","))
}

fn registers(outcome: &Outcome) -> Vec<String> {
    outcome.registers.iter().flatten().map(|(name, value)| format!("{name}={value}")).collect()
}

/// A short label for each outcome of `exploration`: a litmus test's registers, and the
/// buffers whose final values differ between outcomes (every buffer when none differ and
/// there are no registers), so that labels say what tells the outcomes apart.
pub fn outcome_labels(exploration: &Exploration) -> Vec<String> {
    let outcomes = &exploration.outcomes;
    // Found once: comparing every outcome with every other for each label would be
    // quadratic in the number of outcomes.
    let varying: BTreeSet<&str> = match outcomes.first() {
        Some(first) => outcomes
            .iter()
            .flat_map(|o| o.values.iter())
            .filter(|(name, values)| first.values.get(*name) != Some(*values))
            .map(|(name, _)| name.as_str())
            .chain(first.values.keys().filter(|name| outcomes.iter().any(|o| !o.values.contains_key(*name))).map(String::as_str))
            .collect(),
        None => BTreeSet::new(),
    };
    outcomes
        .iter()
        .map(|outcome| {
            let mut parts = registers(outcome);
            let varying: Vec<String> =
                outcome.values.iter().filter(|(name, _)| varying.contains(name.as_str())).map(|(name, values)| buffer(name, values, LABEL_ELEMENTS)).collect();
            parts.extend(varying);
            if parts.is_empty() {
                parts = outcome.values.iter().map(|(name, values)| buffer(name, values, LABEL_ELEMENTS)).collect();
            }
            if parts.is_empty() {
                "(no buffers)".into()
            } else {
                parts.join(" ")
            }
        })
        .collect()
}

/// How many runs of a random exploration were distinct up to reordering independent steps,
/// "at least" when the engine stopped counting; `None` for an exhaustive one (one execution
/// per class) and for results that did not count them.
pub fn distinct_schedules_text(exploration: &Exploration) -> Option<String> {
    if exploration.complete || exploration.distinct_schedules == 0 {
        return None;
    }
    let at_least = if exploration.distinct_schedules_capped { "at least " } else { "" };
    Some(format!("{at_least}{} of {} runs", thousands(exploration.distinct_schedules), thousands(exploration.runs)))
}

/// Everything an outcome holds, for its tooltip: registers, then every buffer.
pub fn describe_outcome(outcome: &Outcome) -> String {
    let mut parts = registers(outcome);
    parts.extend(outcome.values.iter().map(|(name, values)| buffer(name, values, DESCRIPTION_ELEMENTS)));
    parts.join(" ")
}

/// A litmus test's registers as the status line shows them: `1:r0=1 1:r1=0`.
pub fn registers_text(registers: &std::collections::BTreeMap<String, i64>) -> String {
    registers.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join(" ")
}

/// The outcome under a pixel row of the histogram: bars are drawn top to bottom, most
/// frequent first, evenly over the plotting area's rows `top..bottom`.
pub fn bar_at(y: f64, top: f64, bottom: f64, bars: usize) -> Option<usize> {
    if bars == 0 || bottom <= top || y < top || y >= bottom {
        return None;
    }
    let index = ((y - top) / (bottom - top) * bars as f64).floor() as usize;
    Some(index.min(bars - 1))
}

/// Each chunk of executions a worker runs aims at this many milliseconds: short enough that
/// a Stop is answered at once, long enough that the time between chunks does not matter.
pub const CHUNK_MS: f64 = 10.0;
/// The most executions in one chunk.
pub const MAX_CHUNK: u64 = 1 << 20;

/// The size of the next chunk, from how long the last one (`executions` of them) took. A
/// clock that showed no time passing (it ticks in whole milliseconds) doubles the chunk; the
/// size at most doubles at once, so one quick execution cannot make a chunk huge.
pub fn next_chunk(executions: u64, elapsed_ms: f64) -> u64 {
    let executions = executions.max(1);
    let doubled = executions.saturating_mul(2).min(MAX_CHUNK);
    // NaN, zero or negative (a clock that went back): no usable measure.
    if elapsed_ms.is_nan() || elapsed_ms <= 0.0 {
        return doubled;
    }
    let ideal = executions as f64 * CHUNK_MS / elapsed_ms;
    (ideal.floor() as u64).clamp(1, doubled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::explore::{explore_with, merge, split_seeds};
    use interleave_engine::scenario::{Dialect, MemoryModel};

    const MP: &str = include_str!("../../static/examples/litmus/mp.litmus");

    fn mp(model: MemoryModel) -> Scenario {
        let mut scenario = Scenario::new(MP, "mp.litmus", Dialect::Litmus);
        scenario.memory_model = model;
        scenario
    }

    fn random(first_seed: u64, runs: u64) -> Config {
        Config { runs, first_seed, exhaustive: false, max_preemptions: None }
    }

    #[test]
    fn a_split_exploration_merges_into_the_whole() {
        let count = crate::form::validate(&crate::inputs::Inputs::default()).scenario.expect("the default form is valid");
        for scenario in [mp(MemoryModel::Relaxed), mp(MemoryModel::Sc), (*count).clone()] {
            let whole = explore_with(&scenario, random(5, 300)).expect("explores");
            for workers in [1, 2, 3, 7] {
                let parts: Vec<Exploration> =
                    split_seeds(5, 300, workers).into_iter().map(|(first, runs)| explore_with(&scenario, random(first, runs)).expect("explores")).collect();
                assert_eq!(merge(&parts), whole, "{workers} workers");
            }
        }
    }

    #[test]
    fn workers_follow_the_hardware_and_the_work() {
        assert_eq!(worker_count(100_000, 4), 4);
        assert_eq!(worker_count(100_000, 0), 1);
        assert_eq!(worker_count(100_000, 64), MAX_WORKERS);
        assert_eq!(worker_count(100, 8), 1);
        assert_eq!(worker_count(1000, 8), 5);
    }

    #[test]
    fn long_explorations_are_cut_into_several_jobs_per_worker() {
        assert_eq!(job_count(1_000_000, 2), 16);
        assert_eq!(job_count(10_000, 2), 5);
        assert_eq!(job_count(1000, 5), 5);
        assert_eq!(job_count(100, 1), 1);
        assert_eq!(job_count(0, 0), 1);
    }

    #[test]
    fn settings_are_checked() {
        assert_eq!(parse_runs("1,000"), Ok(1000));
        assert!(parse_runs("0").is_err());
        assert!(parse_runs("-3").is_err());
        assert!(parse_runs("100000000").is_err());
        assert_eq!(parse_preemptions(""), Ok(None));
        assert_eq!(parse_preemptions(" 2 "), Ok(Some(2)));
        assert!(parse_preemptions("two").is_err());
        assert!(parse_preemptions("100000").is_err());
    }

    #[test]
    fn messages_survive_the_trip_to_a_worker_and_back() {
        let scenario = mp(MemoryModel::Relaxed);
        let job = Job { runs: 0, first_seed: 1, exhaustive: true, max_preemptions: Some(2), offer: false };
        let request = ToWorker::Explore { scenario: scenario.clone(), job };
        assert_eq!(ToWorker::decode(&request.encode()), Ok(request));
        let exploration = explore_with(&scenario, job.config()).unwrap();
        assert!(exploration.outcomes.iter().all(|o| o.schedule.is_some()));
        let done = FromWorker::Done { exploration, stopped: false };
        assert_eq!(FromWorker::decode(&done.encode()), Ok(done));
        // A racy kernel's findings (flattened into their seeds) come back whole too.
        let count = crate::form::validate(&crate::inputs::Inputs::default()).scenario.unwrap();
        let mut exploration = explore_with(&count, random(1, 20)).unwrap();
        assert!(!exploration.findings.is_empty());
        let sent = FromWorker::Done { exploration: exploration.clone(), stopped: true }.encode();
        // Byte spans are the engine's own (they are not serialised): a finding keeps its
        // line and column, which is what the page shows.
        for found in &mut exploration.findings {
            found.finding.span = None;
            found.finding.related.iter_mut().for_each(|r| r.span = None);
        }
        let done = FromWorker::Done { exploration, stopped: true };
        assert_eq!(FromWorker::decode(&sent), Ok(done));
        assert!(FromWorker::decode("{\"Nonsense\":1}").is_err());
    }

    #[test]
    fn labels_show_registers_and_what_differs() {
        let exploration =
            explore_with(&mp(MemoryModel::Relaxed), Job { runs: 0, first_seed: 0, exhaustive: true, max_preemptions: None, offer: false }.config()).unwrap();
        let labels = outcome_labels(&exploration);
        assert_eq!(labels.len(), 4);
        // x and y always end at 1, so only the registers tell MP's outcomes apart.
        assert!(labels.contains(&"1:r0=1 1:r1=0".to_string()), "{labels:?}");
        let weak = exploration.outcomes.iter().position(|o| o.exists == Some(true)).unwrap();
        assert_eq!(labels[weak], "1:r0=1 1:r1=0");
        assert_eq!(describe_outcome(&exploration.outcomes[weak]), "1:r0=1 1:r1=0 x=1 y=1");
    }

    #[test]
    fn labels_of_kernels_name_the_buffers_that_differ() {
        let count = crate::form::validate(&crate::inputs::Inputs::default()).scenario.unwrap();
        let exploration = explore_with(&count, random(1, 200)).unwrap();
        let labels = outcome_labels(&exploration);
        assert!(labels.len() > 1);
        assert!(labels.iter().all(|l| l.starts_with("counters=[")), "{labels:?}");
        let long = vec![Some(Number::Int(1)); 20];
        assert_eq!(buffer("b", &long, 3), "b=[1,1,1,…]");
        assert_eq!(buffer("f", &[Some(Number::Float(0.5)), None], 8), "f=[0.5,?]");
    }

    #[test]
    fn replays_and_seeds_do_not_change_the_program() {
        let a = mp(MemoryModel::Relaxed);
        let mut b = a.clone();
        b.seed = 9;
        b.scheduler = SchedulerKind::Manual;
        b.schedule = vec![0, 1];
        assert!(same_program(&a, &b));
        let explored = exploration_scenario(&b);
        assert_eq!(explored.scheduler, SchedulerKind::Random);
        assert!(explored.schedule.is_empty());
        assert!(!same_program(&a, &mp(MemoryModel::Sc)));
    }

    #[test]
    fn clicks_find_their_bar() {
        assert_eq!(bar_at(10.0, 10.0, 110.0, 4), Some(0));
        assert_eq!(bar_at(60.0, 10.0, 110.0, 4), Some(2));
        assert_eq!(bar_at(109.9, 10.0, 110.0, 4), Some(3));
        assert_eq!(bar_at(110.0, 10.0, 110.0, 4), None);
        assert_eq!(bar_at(5.0, 10.0, 110.0, 4), None);
        assert_eq!(bar_at(50.0, 10.0, 110.0, 0), None);
    }

    #[test]
    fn chunks_aim_at_ten_milliseconds() {
        assert_eq!(next_chunk(1, 0.0), 2);
        assert_eq!(next_chunk(100, 20.0), 50);
        assert_eq!(next_chunk(100, 1.0), 200);
        assert_eq!(next_chunk(1, 500.0), 1);
        assert_eq!(next_chunk(MAX_CHUNK, 0.0), MAX_CHUNK);
    }
}
