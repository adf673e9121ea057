//! Shrinking: from a failing run, a schedule with the fewest preemptions and then the fewest
//! steps that still shows the same failure.
//!
//! The failure (the [`Target`]) is a finding of one kind at its source places (a data race
//! by the unordered pair of its two accesses' places, as explorations merge them), or an
//! outcome: named buffers (or a litmus test's registers) holding given values at the end. A
//! *preemption* is a step by another agent while the agent of the step before could have
//! gone on (it was still enabled); switching away from an agent that blocked, finished or
//! waits at a barrier is free. Schedules are compared by (preemptions, steps), and none
//! longer than the run it started from is taken: a shrunk schedule is never longer than the
//! one first found, even where one with fewer preemptions would need more steps.
//!
//! Three phases, each within one budget of executions:
//!
//! 1. **Bounded preemptions.** For k = 0, 1, 2, ... below the preemptions of the best schedule
//!    so far, the exhaustive explorer enumerates every execution with at most k preemptions
//!    (`explore::Config::max_preemptions`); the first that shows the target is the
//!    candidate, and a bound whose space was covered without it proves that fewer do not
//!    reproduce it in as many steps as the run first found. Its runs stop at the original
//!    run's length (twice that and a little more when the run as given does not show the
//!    target), so a spin that the bound keeps going ends; a candidate is then replayed under
//!    the scenario's own limit. It takes at most half the
//!    budget (all of it while the run as given does not show the target).
//! 2. **Moving steps.** At each preemption of the best schedule, the next step of the agent
//!    that was preempted is moved forward to where it was preempted, which removes that
//!    switch when the rest still reproduces.
//! 3. **Delta debugging** (Zeller and Hildebrandt, "Simplifying and Isolating
//!    Failure-Inducing Input", TSE 2002) over the recorded steps: chunks of steps (each with
//!    its decision: which write a relaxed load read, ...) are left out, halving the chunks
//!    as removals stop working.
//!
//! Every candidate is one replay: the steps in order, each with its own decision forced, a
//! step whose agent cannot run there skipped, and after the last one the run completed
//! without preemptions (the agent of the step before goes on while it can and does not spin,
//! else the lowest one that can), until the target shows or the run ends. What the replay
//! actually ran is the candidate's schedule; it is kept only when it shows the target and is
//! smaller. The result is checked at the end by replaying its schedule and decisions with the
//! manual scheduler (`run --sched manual --schedule ... --choices ...`), as a user would.
//!
//! A lockstep run shrinks under lockstep: its replays follow the schedule with the lockstep
//! scheduler (`--sched lockstep --schedule ...`), whose unit of choice is a warp's
//! instruction, so a preemption is a switch away from a warp that could go on, and an
//! instruction begun is always finished before the next is chosen. A hang that only lockstep
//! causes (a lane spinning on a lock its own warp holds) therefore replays as a hang.
//!
//! Everything is deterministic: the same scenario, target and budget give the same result.
//! [`Shrinker`] works a number of executions at a time, like `explore::Explorer`, so a caller
//! can report progress or stop between chunks; [`shrink`] runs it to the end.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::diag::{Diagnostic, Severity};
use crate::explore::{self, Explorer, FindingKey};
use crate::report::{Finding, RunStatus};
use crate::scenario::{Number, Scenario};
use crate::session::{Prepared, Session};

/// Marks a promise step in a schedule (its work-item is the rest of the word).
const PROMISE: u32 = crate::exec::PROMISE;

/// An outcome: buffers (or litmus registers, `1:r0`) with all the values they end with, in
/// order; `None` is an element never initialised.
pub type OutcomeTerms = Vec<(String, Vec<Option<Number>>)>;

/// What a shrunk schedule must still show.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A finding of this kind at these places (see `explore::finding_key`); the finding as
    /// first seen describes it.
    Finding(Box<Finding>),
    /// Buffers (or litmus registers) that end with these values.
    Outcome(OutcomeTerms),
}

/// Which failure of the scenario's own run to shrink.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// The run's first error finding.
    FirstError,
    /// The run's finding number N, counted from 1 in the order the run reports them.
    Finding(usize),
    /// An outcome, as [`parse_outcome`] reads it; the run need not end this way.
    Outcome(OutcomeTerms),
}

/// Reads `NAME=VALUES` terms (`counters=2,8`, `1:r0=1`, `out=uninit,3`) into an outcome.
pub fn parse_outcome(terms: &[String]) -> Result<OutcomeTerms, Diagnostic> {
    let mut out: OutcomeTerms = Vec::new();
    for term in terms {
        let invalid = |why: &str| {
            Diagnostic::error("invalid-option", format!("invalid outcome `{term}`: {why}"))
                .with_help("write NAME=VALUES, a buffer's name (or a litmus register such as 1:r0) and all its values, e.g. counters=2,8")
        };
        let (name, values) = term.split_once('=').ok_or_else(|| invalid("no `=`"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(invalid("no name before `=`"));
        }
        let values = values
            .split(',')
            .map(|v| match v.trim() {
                "uninit" => Ok(None),
                v => Number::parse(v).map(Some).ok_or_else(|| invalid(&format!("`{v}` is not a number"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if out.iter().any(|(n, _)| n == name) {
            return Err(invalid(&format!("`{name}` is given twice")));
        }
        out.push((name.to_string(), values));
    }
    if out.is_empty() {
        return Err(Diagnostic::error("invalid-option", "an outcome needs at least one NAME=VALUES term"));
    }
    Ok(out)
}

/// How much work a shrink may do.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// The most executions (explored or replayed) in all; 0 for [`DEFAULT_BUDGET`].
    pub budget: u64,
}

/// The executions a shrink runs when its budget is 0.
pub const DEFAULT_BUDGET: u64 = 2_000;

/// A schedule that shows the target, as the manual scheduler replays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    /// The agent of each step (a promise step with bit 31 set).
    pub schedule: Vec<u32>,
    /// The decisions of the steps that had several options, in order.
    pub choices: Vec<u32>,
    pub steps: u64,
    pub preemptions: u32,
}

/// What a shrink found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shrunk {
    /// The run as first found (the scenario's own schedule), when it shows the target.
    pub before: Option<Replay>,
    /// The smallest schedule found; replayed with the manual scheduler, it shows the target.
    pub after: Replay,
    /// Executions run, and the budget they were allowed.
    pub executions: u64,
    pub budget: u64,
    /// Whether the budget ran out before the phases were done (the result is the best found
    /// so far).
    pub budget_exhausted: bool,
    /// Whether the bounded search proved that no schedule with fewer preemptions, and no
    /// longer than the run first found, shows the target ([`proof`] says it in words).
    pub fewest_preemptions: bool,
}

/// One step to replay: its agent and the decision it takes, if it has one.
type Step = (u32, Option<u32>);

/// A replay's result.
struct Attempt {
    steps: Vec<Step>,
    replay: Replay,
    matched: bool,
}

impl Attempt {
    fn size(&self) -> (u32, u64) {
        (self.replay.preemptions, self.replay.steps)
    }
}

enum Phase {
    /// Exhaustive exploration within `k` preemptions.
    Bounded {
        k: u32,
        explorer: Box<Explorer>,
    },
    /// Moving steps forward at the preemption points, from step `from` on.
    Moves {
        from: usize,
    },
    /// Delta debugging with `chunks` chunks, trying chunk `next`.
    Ddmin {
        chunks: usize,
        next: usize,
    },
    Done,
}

/// A shrink in progress, advanced a number of executions at a time.
pub struct Shrinker {
    target: Target,
    /// The scenario as replays run it: the scheduler that follows a schedule (lockstep for a
    /// lockstep run, else the manual one) with no schedule of its own; and compiled (a litmus
    /// test's launch filled in).
    replayer: Scenario,
    prepared: Prepared,
    /// The same with a step limit for the bounded search.
    bounded: Scenario,
    budget: u64,
    executions: u64,
    /// Executions the bounded search ran; it may take half the budget, so that the cheaper
    /// phases after it always get their turn.
    bounded_executions: u64,
    before: Option<Replay>,
    best: Option<Attempt>,
    phase: Phase,
    fewest_preemptions: bool,
}

/// The step limit of the bounded search, never above the scenario's own. Where the run
/// shows the target, its length: no schedule longer than the run first found is taken, so a
/// spin that the bound keeps going ends as soon as it could not give one. Where it does not
/// (an outcome picked from an exploration), twice the run's length and a little more: room
/// for the steps another schedule needs, such as a promise's.
fn bounded_steps(original: u64, shows_target: bool, max: u64) -> u64 {
    if shows_target { original } else { original.saturating_mul(2).saturating_add(16) }.min(max)
}

/// What the bounded search proved about the shrunk schedule's preemptions, in words, when it
/// proved something: the proof holds for schedules no longer than the run first found.
pub fn proof(shrunk: &Shrunk) -> Option<String> {
    if !shrunk.fewest_preemptions {
        return None;
    }
    Some(match &shrunk.before {
        Some(before) if shrunk.after.preemptions > 0 => {
            format!("no schedule of at most {} steps with fewer preemptions shows it", crate::limits::thousands(before.steps))
        }
        _ => "no schedule with fewer preemptions shows it".to_string(),
    })
}

/// Runs `scenario` as given and shrinks the failure `pick` names, to the end.
pub fn shrink(scenario: &Scenario, pick: Pick, config: Config) -> Result<Shrunk, Vec<Diagnostic>> {
    let mut shrinker = Shrinker::new(scenario, pick, config)?;
    while !shrinker.advance(u64::MAX)? {}
    shrinker.result()
}

impl Shrinker {
    /// Runs the scenario once (its own scheduler and seed) to find the target; nothing is
    /// shrunk yet.
    pub fn new(scenario: &Scenario, pick: Pick, config: Config) -> Result<Shrinker, Vec<Diagnostic>> {
        let budget = if config.budget == 0 { DEFAULT_BUDGET } else { config.budget };
        crate::limits::EXPLORATION_RUNS.check(budget).map_err(|d| vec![d])?;
        let mut first = Prepared::new(scenario.clone())?;
        first.history = false;
        let mut original = Session::start(&first, scenario.seed)?;
        original.run(u64::MAX);
        let target = match pick {
            Pick::FirstError => match original.findings().iter().find(|f| f.severity == Severity::Error) {
                Some(f) => Target::Finding(Box::new(f.clone())),
                None => {
                    return Err(vec![Diagnostic::error("invalid-input", "the run reports no error finding, so there is nothing to shrink")
                        .with_help("pick a warning with --finding N, or an outcome with --outcome NAME=VALUES")])
                }
            },
            Pick::Finding(n) => match n.checked_sub(1).and_then(|i| original.findings().get(i)) {
                Some(f) => Target::Finding(Box::new(f.clone())),
                None => {
                    let count = original.findings().len();
                    return Err(vec![Diagnostic::error("invalid-option", format!("the run has no finding {n}: it reports {count}")).with_help(
                        if count == 0 {
                            "the run reports no finding; pick an outcome with --outcome NAME=VALUES".to_string()
                        } else {
                            format!("pick one from 1 to {count}")
                        },
                    )]);
                }
            },
            Pick::Outcome(terms) => {
                let (buffers, registers, _, _) = original.outcome();
                for (name, _) in &terms {
                    let known = buffers.iter().any(|b| &b.name == name) || registers.as_ref().is_some_and(|r| r.contains_key(name));
                    if !known {
                        let mut names: Vec<String> = buffers.iter().map(|b| b.name.clone()).collect();
                        names.extend(registers.iter().flat_map(|r| r.keys().cloned()));
                        return Err(vec![Diagnostic::error("invalid-option", format!("the outcome names `{name}`, which is no reported buffer or register"))
                            .with_help(format!("name one of: {}", names.join(", ")))]);
                    }
                }
                Target::Outcome(terms)
            }
        };
        if matches!(&target, Target::Finding(f) if f.kind == crate::report::FindingKind::StepLimit) {
            return Err(vec![Diagnostic::error(
                "invalid-option",
                "a step-limit finding says a limit stopped the run, not that the kernel failed, so it is not shrunk",
            )
            .with_help("pick another finding with --finding N")]);
        }
        let replayer = scenario.replaying(&[], &[]);
        let mut prepared = Prepared::new(replayer.clone())?;
        prepared.history = false;
        let bounded = replayer.clone();
        let mut shrinker = Shrinker {
            target,
            replayer,
            prepared,
            bounded,
            budget,
            executions: 0,
            bounded_executions: 0,
            before: None,
            best: None,
            phase: Phase::Done,
            fewest_preemptions: false,
        };
        // The original run, measured as the replays measure (its steps with their decisions).
        let steps = steps_of(&shrinker.replayer, &original.schedule(), &original.choices())?;
        let attempt = shrinker.attempt(&steps, false)?;
        shrinker.bounded.max_steps = bounded_steps(original.steps(), attempt.matched, scenario.max_steps);
        if attempt.matched {
            shrinker.before = Some(attempt.replay.clone());
            shrinker.best = Some(attempt);
        }
        shrinker.phase = shrinker.bounded_phase(0)?;
        Ok(shrinker)
    }

    /// The bounded search with at most `k` preemptions, or the next phase when the best so
    /// far has no more than `k`.
    fn bounded_phase(&self, k: u32) -> Result<Phase, Vec<Diagnostic>> {
        if self.best.as_ref().is_some_and(|b| b.replay.preemptions <= k) {
            return Ok(Phase::Moves { from: 0 });
        }
        // Half the budget, or all of it while no schedule shows the target (the later phases
        // need one to start from).
        let share = if self.best.is_some() { self.budget / 2 } else { self.budget };
        let left = share.saturating_sub(self.bounded_executions);
        if left == 0 {
            return Ok(Phase::Moves { from: 0 });
        }
        let config = explore::Config { runs: left, first_seed: self.bounded.seed, exhaustive: true, max_preemptions: Some(k) };
        Ok(Phase::Bounded { k, explorer: Box::new(Explorer::new(&self.bounded, config)?) })
    }

    /// Runs up to `executions` more executions; `Ok(true)` once the shrink is over.
    pub fn advance(&mut self, executions: u64) -> Result<bool, Vec<Diagnostic>> {
        let pause = self.executions.saturating_add(executions);
        loop {
            if matches!(self.phase, Phase::Done) {
                return Ok(true);
            }
            if self.executions >= self.budget {
                self.phase = Phase::Done;
                return Ok(true);
            }
            if self.executions >= pause {
                return Ok(false);
            }
            let phase = std::mem::replace(&mut self.phase, Phase::Done);
            self.phase = match phase {
                Phase::Bounded { k, explorer } => self.bounded_step(k, explorer)?,
                Phase::Moves { from } => self.move_step(from)?,
                Phase::Ddmin { chunks, next } => self.ddmin_step(chunks, next)?,
                Phase::Done => Phase::Done,
            };
        }
    }

    /// Executions run so far, and the most the shrink will run.
    pub fn executions(&self) -> u64 {
        self.executions
    }

    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The target being shrunk.
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// The best schedule so far, checked by a manual replay; an error when none shows the
    /// target (it could not be reproduced within the budget).
    pub fn result(&self) -> Result<Shrunk, Vec<Diagnostic>> {
        let Some(best) = &self.best else {
            return Err(vec![Diagnostic::error(
                "invalid-input",
                format!("no schedule found within {} executions shows {}", crate::limits::thousands(self.executions), describe(&self.target)),
            )
            .with_help("the run as given does not show it; raise the budget (--budget), or pick a target the run shows")]);
        };
        // The replay a user makes: the schedule and decisions followed (by the manual
        // scheduler, or lockstep's).
        let mut session = Session::new(self.replayer.replaying(&best.replay.schedule, &best.replay.choices))?;
        session.run(u64::MAX);
        if !self.shows(&session) {
            return Err(vec![Diagnostic::error("invalid-input", format!("the shrunk schedule did not replay to {}", describe(&self.target)))
                .with_help("this is a bug in the shrinker; the run as given still shows it")]);
        }
        let done = matches!(self.phase, Phase::Done);
        // No schedule has fewer than none.
        let fewest_preemptions = self.fewest_preemptions || best.replay.preemptions == 0;
        Ok(Shrunk {
            before: self.before.clone(),
            after: best.replay.clone(),
            executions: self.executions,
            budget: self.budget,
            budget_exhausted: !done || self.executions >= self.budget,
            fewest_preemptions,
        })
    }

    /// One chunk of the bounded search.
    fn bounded_step(&mut self, k: u32, mut explorer: Box<Explorer>) -> Result<Phase, Vec<Diagnostic>> {
        let before = explorer.executions();
        let chunk = 16.min(self.budget.saturating_sub(self.executions)).max(1);
        let over = explorer.advance(chunk)?;
        self.executions += explorer.executions() - before;
        self.bounded_executions += explorer.executions() - before;
        let found = explorer.result();
        let replay = match &self.target {
            Target::Finding(f) => {
                let key = explore::finding_key(f);
                found.findings.iter().find(|g| explore::finding_key(&g.finding) == key).and_then(|g| g.schedule.clone().zip(g.choices.clone()))
            }
            Target::Outcome(terms) => {
                found.outcomes.iter().find(|o| outcome_matches(terms, &o.values, o.registers.as_ref())).and_then(|o| o.schedule.clone().zip(o.choices.clone()))
            }
        };
        if let Some((schedule, choices)) = replay {
            let steps = steps_of(&self.replayer, &schedule, &choices)?;
            let attempt = self.attempt(&steps, true)?;
            if attempt.matched {
                self.offer(attempt);
                if self.best.as_ref().is_some_and(|b| b.replay.preemptions <= k) {
                    self.fewest_preemptions = true;
                    return Ok(Phase::Moves { from: 0 });
                }
            }
        }
        if !over {
            return Ok(Phase::Bounded { k, explorer });
        }
        if !explorer.result().complete {
            // The budget ran out inside this bound: fewer preemptions are not ruled out.
            return Ok(Phase::Moves { from: 0 });
        }
        // Nothing within k preemptions shows it.
        if self.best.as_ref().is_some_and(|b| b.replay.preemptions <= k + 1) {
            self.fewest_preemptions = true;
        }
        self.bounded_phase(k + 1)
    }

    /// At the next preemption from step `from`: the preempted agent's next step moved there.
    fn move_step(&mut self, from: usize) -> Result<Phase, Vec<Diagnostic>> {
        let Some(best) = &self.best else { return Ok(Phase::Done) };
        let steps = best.steps.clone();
        let Points { preemptions: points, units } = preemption_points(&self.prepared, &steps)?;
        let Some(&(at, preempted)) = points.iter().find(|&&(i, _)| i >= from) else {
            return Ok(Phase::Ddmin { chunks: 2, next: 0 });
        };
        // Under lockstep the unit is a warp, and its first later step begins its next
        // instruction.
        let Some(later) = (at + 1..steps.len()).find(|&j| units[j] == preempted) else {
            return Ok(Phase::Moves { from: at + 1 });
        };
        let mut candidate = steps;
        let moved = candidate.remove(later);
        candidate.insert(at, moved);
        let attempt = self.attempt(&candidate, true)?;
        Ok(if self.offer(attempt) { Phase::Moves { from: at } } else { Phase::Moves { from: at + 1 } })
    }

    /// One test of delta debugging: the best steps without chunk `next` of `chunks`.
    fn ddmin_step(&mut self, chunks: usize, next: usize) -> Result<Phase, Vec<Diagnostic>> {
        let Some(best) = &self.best else { return Ok(Phase::Done) };
        let len = best.steps.len();
        if len < 2 || chunks > len {
            return Ok(Phase::Done);
        }
        let (start, end) = (len * next / chunks, len * (next + 1) / chunks);
        let mut candidate = best.steps.clone();
        candidate.drain(start..end);
        let attempt = self.attempt(&candidate, true)?;
        if self.offer(attempt) {
            return Ok(Phase::Ddmin { chunks: (chunks - 1).max(2), next: 0 });
        }
        if next + 1 < chunks {
            return Ok(Phase::Ddmin { chunks, next: next + 1 });
        }
        Ok(if chunks >= len { Phase::Done } else { Phase::Ddmin { chunks: (chunks * 2).min(len), next: 0 } })
    }

    /// Keeps `attempt` when it shows the target, is no longer than the run first found, and is
    /// smaller than the best so far.
    fn offer(&mut self, attempt: Attempt) -> bool {
        let within = self.before.as_ref().is_none_or(|b| attempt.replay.steps <= b.steps);
        let better = attempt.matched && within && self.best.as_ref().is_none_or(|b| attempt.size() < b.size());
        if better {
            self.best = Some(attempt);
        }
        better
    }

    /// Whether a run shows the target, as far as it went: the finding among its findings, or
    /// the run ended with the outcome; never an execution the memory model discards.
    fn shows(&self, session: &Session) -> bool {
        if !session.consistent() {
            return false;
        }
        match &self.target {
            Target::Finding(f) => {
                let key: FindingKey = explore::finding_key(f);
                session.findings().iter().any(|g| explore::finding_key(g) == key)
            }
            Target::Outcome(terms) => {
                if session.status() == RunStatus::Running {
                    return false;
                }
                let (buffers, registers, _, _) = session.outcome();
                let values: BTreeMap<String, Vec<Option<Number>>> = buffers.into_iter().map(|b| (b.name, b.values)).collect();
                outcome_matches(terms, &values, registers.as_ref())
            }
        }
    }

    /// Replays `steps` (see the module documentation): each with its decision, skipping those
    /// whose agent cannot run, then, if `complete`, on without preemptions until the target
    /// shows or the run ends. Counts one execution.
    fn attempt(&mut self, steps: &[Step], complete: bool) -> Result<Attempt, Vec<Diagnostic>> {
        self.executions += 1;
        let mut session = Session::start(&self.prepared, self.prepared.scenario.seed)?;
        let mut done: Vec<Step> = Vec::with_capacity(steps.len());
        let mut count = Preemptions::default();
        let mut enabled = Vec::new();
        'steps: for &(agent, choice) in steps {
            if session.status() != RunStatus::Running || self.shows(&session) {
                break;
            }
            // A lockstep instruction under way ends before the next one is chosen; a step
            // left out of it (by delta debugging) is taken anyway, without a decision of its
            // own, and where the candidate has it it is taken with its decision.
            while let Some(lane) = session.forced().filter(|&lane| lane != agent) {
                session.enabled_into(&mut enabled);
                done.push(count.step(&mut session, lane, None, &enabled));
                if session.status() != RunStatus::Running || self.shows(&session) {
                    break 'steps;
                }
            }
            session.enabled_into(&mut enabled);
            if !enabled.contains(&(agent & !PROMISE)) {
                continue;
            }
            done.push(count.step(&mut session, agent, choice, &enabled));
        }
        if complete {
            while session.status() == RunStatus::Running && !self.shows(&session) {
                session.enabled_into(&mut enabled);
                let m = session.machine();
                let spins = |a: u32| (a as usize) < m.items.len() && m.is_spinning(a);
                // The agent of the step before goes on (under lockstep, its warp).
                let next = count
                    .last
                    .and_then(|l| enabled.iter().copied().find(|&a| session.unit(a) == session.unit(l) && !spins(a)))
                    .or_else(|| enabled.iter().copied().find(|&a| !spins(a)))
                    .or_else(|| enabled.first().copied());
                let Some(agent) = next else { break };
                done.push(count.step(&mut session, agent, None, &enabled));
            }
        }
        let preemptions = count.preemptions;
        let matched = self.shows(&session);
        let replay = Replay { schedule: session.schedule(), choices: session.choices(), steps: session.steps(), preemptions };
        Ok(Attempt { steps: done, replay, matched })
    }
}

/// Counts preemptions as a replay steps.
#[derive(Default)]
struct Preemptions {
    preemptions: u32,
    /// The work-item (or copy engine) of the step before.
    last: Option<u32>,
}

/// Whether stepping `agent` after `last` is a preemption: `last`'s unit (its work-item, or
/// under lockstep its warp) could have gone on, among `enabled`, and `agent` is another.
fn preempts(session: &Session, last: Option<u32>, agent: u32, enabled: &[u32]) -> bool {
    last.is_some_and(|l| {
        let unit = session.unit(l);
        unit != session.unit(agent) && enabled.iter().any(|&a| session.unit(a) == unit)
    })
}

impl Preemptions {
    /// Steps `agent` (one of `enabled`, the agents that could step) with `choice` forced for
    /// its decision; returns the step with the decision it took.
    fn step(&mut self, session: &mut Session, agent: u32, choice: Option<u32>, enabled: &[u32]) -> Step {
        let who = agent & !PROMISE;
        if preempts(session, self.last, who, enabled) {
            self.preemptions += 1;
        }
        let made = session.machine().weak.made.len();
        session.step_agent(agent, choice.unwrap_or(0));
        self.last = Some(who);
        (agent, session.machine().weak.made.get(made).copied())
    }
}

/// The steps of a recorded schedule with the decision each took: the schedule replayed with
/// its decisions by `replayer`'s scheduler (manual, or lockstep), one step at a time.
fn steps_of(replayer: &Scenario, schedule: &[u32], choices: &[u32]) -> Result<Vec<Step>, Vec<Diagnostic>> {
    let mut replay = Prepared::new(replayer.replaying(schedule, choices))?;
    replay.history = false;
    let mut session = Session::start(&replay, replay.scenario.seed)?;
    let mut steps = Vec::with_capacity(schedule.len());
    for &agent in schedule {
        let made = session.machine().weak.made.len();
        if !session.step() {
            break;
        }
        steps.push((agent, session.machine().weak.made.get(made).copied()));
    }
    Ok(steps)
}

/// A replay's preemptions: the index of each preempting step and the unit
/// (`Session::unit`) it preempted; and the unit of every step.
struct Points {
    preemptions: Vec<(usize, u64)>,
    units: Vec<u64>,
}

/// The preemptions of `steps` as a replay runs them.
fn preemption_points(prepared: &Prepared, steps: &[Step]) -> Result<Points, Vec<Diagnostic>> {
    let mut session = Session::start(prepared, prepared.scenario.seed)?;
    let units = steps.iter().map(|&(agent, _)| session.unit(agent)).collect();
    let mut points = Vec::new();
    let mut last: Option<u32> = None;
    let mut enabled = Vec::new();
    for (i, &(agent, choice)) in steps.iter().enumerate() {
        session.enabled_into(&mut enabled);
        let who = agent & !PROMISE;
        if let Some(l) = last.filter(|_| preempts(&session, last, who, &enabled)) {
            points.push((i, session.unit(l)));
        }
        session.step_agent(agent, choice.unwrap_or(0));
        last = Some(who);
    }
    Ok(Points { preemptions: points, units })
}

/// Whether every named buffer (or register) holds exactly the given values.
fn outcome_matches(terms: &[(String, Vec<Option<Number>>)], values: &BTreeMap<String, Vec<Option<Number>>>, registers: Option<&BTreeMap<String, i64>>) -> bool {
    terms.iter().all(|(name, wanted)| match values.get(name) {
        Some(got) => got.len() == wanted.len() && got.iter().zip(wanted).all(|(g, w)| same_number(*g, *w)),
        None => match registers.and_then(|r| r.get(name)) {
            Some(&v) => wanted.len() == 1 && same_number(Some(Number::Int(v)), wanted[0]),
            None => false,
        },
    })
}

/// Numbers equal as values: integers exactly, anything with a float as a float.
fn same_number(a: Option<Number>, b: Option<Number>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Number::Float(x)), Some(y)) | (Some(y), Some(Number::Float(x))) => x == y.as_f64(),
        (Some(x), Some(y)) => x.as_i64_wrapping() == y.as_i64_wrapping() && (x.as_f64() < 0.0) == (y.as_f64() < 0.0),
        _ => false,
    }
}

/// The target in words: `a data-race at line 3` or `the outcome c=[1, 2]`.
pub fn describe(target: &Target) -> String {
    match target {
        Target::Finding(f) => match f.related.first() {
            Some(r) if f.kind == crate::report::FindingKind::DataRace => {
                format!("a {} between lines {} and {}", f.kind.as_str(), r.line.min(f.line), r.line.max(f.line))
            }
            _ => format!("a {} at line {}", f.kind.as_str(), f.line),
        },
        Target::Outcome(terms) => {
            let shown: Vec<String> = terms
                .iter()
                .map(|(name, vs)| format!("{name}={}", vs.iter().map(|v| v.map_or("uninit".to_string(), |n| n.to_string())).collect::<Vec<_>>().join(",")))
                .collect();
            format!("the outcome {}", shown.join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{ArgBinding, Dialect, SchedulerKind};

    /// The laws of a shrink, over many runs: the result replays with the manual scheduler to
    /// the same finding, and has no more preemptions and no more steps than the run it
    /// started from.
    #[test]
    fn a_shrunk_schedule_reproduces_and_is_never_larger() {
        let kernels = [
            ("__kernel void f(__global int *c) { c[0] = c[0] + 1; atomic_add(&c[1], 1); }", vec!["c=int[2]:fill=0"], 6u64),
            (
                "__kernel void f(__global int *a, __global int *b) { __global int *x = get_global_id(0) == 0 ? a : b; __global int *y = get_global_id(0) == 0 ? b : a; while (atomic_cmpxchg(x, 0, 1) != 0) ; while (atomic_cmpxchg(y, 0, 1) != 0) ; atomic_xchg(y, 0); atomic_xchg(x, 0); }",
                vec!["a=int[1]", "b=int[1]"],
                2,
            ),
        ];
        let mut shrunk = 0;
        for (source, args, global) in kernels {
            for seed in 0..12 {
                let mut s = Scenario::new(source, "f.cl", Dialect::OpenCl);
                s.launch.global = vec![global];
                s.launch.local = Some(vec![1]);
                s.args = args.iter().map(|a| ArgBinding::parse(a).unwrap()).collect();
                s.seed = seed;
                let Ok(result) = shrink(&s, Pick::FirstError, Config { budget: 300 }) else { continue };
                let before = result.before.clone().expect("an error finding of the run is shown by the run");
                let after = &result.after;
                assert!(after.preemptions <= before.preemptions, "seed {seed}: {after:?} after {before:?}");
                assert!(after.steps <= before.steps, "seed {seed}: {after:?} after {before:?}");
                // The replay a user makes.
                let mut original = Session::new(s.clone()).unwrap();
                original.run(u64::MAX);
                let wanted = original.findings().iter().find(|f| f.severity == Severity::Error).unwrap().clone();
                let mut session = Session::new(s.replaying(&after.schedule, &after.choices)).unwrap();
                session.run(u64::MAX);
                assert_eq!(session.steps(), after.steps, "seed {seed}");
                assert!(session.findings().iter().any(|f| explore::same_finding(f, &wanted)), "seed {seed}: {:?}", session.findings());
                shrunk += 1;
            }
        }
        assert!(shrunk >= 12, "only {shrunk} runs had an error finding to shrink");
    }

    /// A lock taken inside one warp hangs only in lockstep: its shrink replays under lockstep
    /// (to the same livelock), and the same schedule under the manual scheduler, which never
    /// holds a lane back for its warp, does not hang.
    #[test]
    fn a_lockstep_hang_shrinks_and_replays_under_lockstep() {
        let source = "__kernel void f(__global int *lock, __global int *count) { while (atomic_cmpxchg(lock, 0, 1) != 0) ; count[0] = count[0] + 1; atomic_xchg(lock, 0); }";
        let mut s = Scenario::new(source, "f.cl", Dialect::OpenCl);
        s.launch.global = vec![8];
        s.launch.local = Some(vec![8]);
        s.warp_size = 4;
        s.scheduler = SchedulerKind::Lockstep;
        s.args = vec![ArgBinding::parse("lock=int[1]").unwrap(), ArgBinding::parse("count=int[1]").unwrap()];
        for seed in 0..6 {
            s.seed = seed;
            let result = shrink(&s, Pick::FirstError, Config { budget: 400 }).unwrap_or_else(|d| panic!("seed {seed}: {d:?}"));
            let before = result.before.clone().expect("the lockstep run hangs");
            assert!(result.after.steps <= before.steps && result.after.preemptions <= before.preemptions, "seed {seed}: {result:?}");
            let replay = s.replaying(&result.after.schedule, &result.after.choices);
            assert_eq!(replay.scheduler, SchedulerKind::Lockstep);
            let mut session = Session::new(replay.clone()).unwrap();
            session.run(u64::MAX);
            assert_eq!(session.status(), RunStatus::Livelock, "seed {seed}");
            let mut manual = Session::new(Scenario { scheduler: SchedulerKind::Manual, ..replay }).unwrap();
            manual.run(u64::MAX);
            assert!(manual.findings().iter().all(|f| f.kind != crate::report::FindingKind::Livelock), "seed {seed}: {:?}", manual.findings());
        }
    }
}
