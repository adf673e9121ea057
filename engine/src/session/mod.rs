//! A run in progress: the API the CLI and the app drive.
//!
//! [`Session::new`] compiles and launches a [`Scenario`]; [`Session::step`] and
//! [`Session::run`] advance it one scheduler step at a time; the views (`work_item`,
//! `events`, `findings`, `report`) read its state without changing it.

mod findings;
mod prepare;

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::diag::{Diagnostic, LineIndex, Span};
use crate::exec::{self, Machine, Status};
use crate::ir::ParamKind;
use crate::report::{BufferReport, Finding, FindingKind, Report, RunStatus, StaleReadView};
use crate::rng::Rng;
use crate::scenario::{ElemType, Number, Progress, Scenario};
use crate::sched::Scheduler;
use crate::trace::{EventLog, Space};
pub use prepare::Prepared;
use prepare::{limits, place_litmus};

/// A litmus test's registers at the end of a run: `"THREAD:NAME"` to value.
pub type Registers = std::collections::BTreeMap<String, i64>;

/// What a work-item is doing, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkItemStatus {
    Ready,
    AtBarrier,
    Finished,
    Faulted,
    /// In `wait_group_events`, waiting for async copies.
    Waiting,
    /// Ready, but known to spin: re-reading shared values that have not changed.
    Spinning,
    /// Ready, but lockstep does not let it step now: lanes of its warp behind it go first, or
    /// another instruction is under way (see `sched::Scheduler::Lockstep`).
    HeldBack,
    /// Its work-group is not resident yet.
    NotStarted,
}

impl WorkItemStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            WorkItemStatus::Ready => "ready",
            WorkItemStatus::AtBarrier => "at-barrier",
            WorkItemStatus::Finished => "finished",
            WorkItemStatus::Faulted => "faulted",
            WorkItemStatus::Waiting => "waiting",
            WorkItemStatus::Spinning => "spinning",
            WorkItemStatus::HeldBack => "held",
            WorkItemStatus::NotStarted => "not-started",
        }
    }
}

/// A read-only view of one work-item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkItemView {
    /// Linear index (the lane number).
    pub index: usize,
    pub global_id: [u64; 3],
    pub local_id: [u64; 3],
    pub group_id: [u64; 3],
    /// Linear index of its work-group.
    pub group: usize,
    pub status: WorkItemStatus,
    /// The 1-based source line of its next event, while it has one.
    pub line: Option<u32>,
}

/// A compiled, launched scenario and its run so far.
pub struct Session {
    scenario: Scenario,
    lines: LineIndex,
    machine: Machine,
    scheduler: Scheduler,
    rng: Rng,
    kernel: usize,
    status: RunStatus,
    steps: u64,
    findings: Vec<Finding>,
    /// The agent each step performed, and whether it was chosen by hand (a manual step does
    /// not consult the scheduler, so replay must not either).
    /// Kept as one word a step, the agent with [`MANUAL`] set for a step chosen by hand.
    decisions: Vec<u32>,
    /// Machine states at some steps, from which `seek` replays. After a seek backwards the
    /// event log keeps the recorded path's later events as its known future
    /// ([`EventLog::move_to`]), so that seeking forwards can restore a later snapshot instead
    /// of replaying to it.
    snapshots: Vec<Snapshot>,
    /// The litmus test the scenario is, when it is one.
    litmus: Option<Rc<crate::litmus::LitmusTest>>,
    /// Whether to keep snapshots for seeking (exploration runs do not seek).
    history: bool,
    /// The promise candidates of one work-item in the current state, kept from the moment
    /// they are asked for to the next step: an explorer asks whether a promise is useful,
    /// how many candidates there are, and then makes it, and each answer would otherwise
    /// take its own solo run. Any step clears it.
    candidates: Option<(u32, Vec<crate::concurrency::weak::Candidate>)>,
    /// The machine that certifying solo runs copy the state into, kept so that each copy
    /// reuses its allocations.
    solo: Option<Box<Machine>>,
    /// The random scheduler's next draws, for [`Session::prefetch_ahead`].
    ahead: Option<Lookahead>,
    /// The locks of the run, as [`crate::locks::analyse`] found them when the run ended, for
    /// the report to reuse: the analysis reads the whole event log, and a run's findings and
    /// its report's lock table (and a hang's explanation) each asked for it. Only an ended run
    /// keeps them, and no step follows an end, so what can change the machine of an ended
    /// run (a seek, a restart) drops them first.
    ended_locks: Option<Rc<[crate::locks::Lock]>>,
}

/// The next four outputs of a session's generator, each with the generator's state after it,
/// and the state before the first: a step that drew once shifts them and draws one more,
/// where guessing the next picks afresh took four draws a step. Only a guess: a generator
/// that moved otherwise (a seek, another draw) is caught by comparing states, and the draws
/// are made again.
#[derive(Clone)]
struct Lookahead {
    before: Rng,
    after: [Rng; 4],
    draws: [u64; 4],
}

impl Lookahead {
    fn new(rng: &Rng) -> Lookahead {
        let mut next = rng.clone();
        let mut draw = || {
            let d = next.next_u64();
            (next.clone(), d)
        };
        let [(a0, d0), (a1, d1), (a2, d2), (a3, d3)] = [draw(), draw(), draw(), draw()];
        Lookahead { before: rng.clone(), after: [a0, a1, a2, a3], draws: [d0, d1, d2, d3] }
    }

    /// Brings the draws up to `rng`'s state.
    fn follow(ahead: &mut Option<Lookahead>, rng: &Rng) {
        match ahead {
            Some(a) if a.before == *rng => {}
            Some(a) if a.after[0] == *rng => {
                let mut next = a.after[3].clone();
                let draw = next.next_u64();
                a.before = rng.clone();
                a.after.rotate_left(1);
                a.after[3] = next;
                a.draws.rotate_left(1);
                a.draws[3] = draw;
            }
            _ => *ahead = Some(Lookahead::new(rng)),
        }
    }
}

/// Everything a run changes, as it was at one step (the event log is kept once, outside the
/// snapshots, and cut back to `events` on restore).
struct Snapshot {
    step: u64,
    /// The machine, or `None` at step 0: the launch is deterministic, so restoring it launches
    /// again instead of keeping a second copy of the largest state a run has.
    machine: Option<exec::frozen::FrozenMachine>,
    scheduler: Scheduler,
    rng: Rng,
    status: RunStatus,
    /// The findings so far (few: each is reported once per place), restored whole so that a
    /// forward seek gets back the ones found between the current step and the snapshot.
    findings: Vec<Finding>,
    events: usize,
    hash: u64,
    /// The step at which the next snapshot is due.
    next: u64,
}

/// The most events a run records by default ([`crate::limits::HISTORY_EVENTS`]). The history is
/// what stepping back replays and what the timeline draws; at 26 bytes an event (more for
/// 64-bit values and buffers past 32 MiB, `trace::EventLog`) the default keeps it near 105 MB.
pub const MAX_HISTORY_EVENTS: usize = crate::limits::HISTORY_EVENTS.default as usize;

/// The bit of a recorded decision that marks a step chosen by hand. Agents (work-items, at most
/// `crate::limits::WORK_ITEMS`' maximum, then one copy engine per group) stay below it, and
/// the promise bit ([`exec::PROMISE`]) is above it.
const MANUAL: u32 = 0x4000_0000;

/// How far apart snapshots are: every this many steps, and at least enough steps that the
/// snapshots of a million-step run stay within about this many bytes in all (measured from
/// the machine's size at each snapshot, [`Machine::heap_bytes`], which a packed snapshot
/// stays below). The event log of such a run takes about 26 MB, so the two stay within the
/// history target of 64 MB.
const SNAPSHOT_EVERY: u64 = 2048;
const SNAPSHOT_BUDGET_BYTES: u64 = 14 << 20;

/// The most steps a seek replays, whatever the budget: a machine too large for the budget
/// (tens of megabytes, as a 65,536 work-item launch is) still gets a snapshot this often, so
/// that seeking in it costs a bounded replay rather than one from the launch. Memory wins up to
/// this point, seek time beyond it.
const SNAPSHOT_MAX_REPLAY: u64 = 1 << 18;

/// The launches large enough for [`Session::prefetch_ahead`] to pay: below this many
/// work-items their state stays in the processor's caches, and guessing the next steps only
/// costs (an exploration of the gallery's 1,024 work-item reduction ran about 10% slower with
/// it), while a launch of 65,536 ran about a fifth faster and one of a million twice as fast.
const PREFETCH_FROM_WORK_ITEMS: usize = 8192;

impl Session {
    /// Compiles and launches `scenario`, or explains why it cannot run.
    pub fn new(scenario: Scenario) -> Result<Session, Vec<Diagnostic>> {
        let prepared = Prepared::new(scenario)?;
        let seed = prepared.scenario.seed;
        Session::start(&prepared, seed)
    }

    /// Launches a compiled scenario with `seed` (exploration launches one program many times).
    pub fn start(prepared: &Prepared, seed: u64) -> Result<Session, Vec<Diagnostic>> {
        let mut scenario = prepared.scenario.clone();
        scenario.seed = seed;
        let mut rng = Rng::new(scenario.seed);
        let mut machine = match &prepared.template {
            // The launch does not depend on the seed but for the machine's own stream.
            Some(template) => {
                let mut machine = template.clone();
                machine.rng = Rng::new(seed ^ exec::MACHINE_STREAM);
                machine
            }
            None => {
                let mut machine = exec::launch(prepared.program.clone(), prepared.kernel, &scenario, &mut rng, limits(&scenario)).map_err(|d| vec![d])?;
                if let Some(test) = &prepared.litmus {
                    place_litmus(&mut machine, test, prepared.kernel);
                }
                machine.log.set_hashing(prepared.trace_hash);
                machine
            }
        };
        // Stepping back moves through the log, so a session with a history keeps it whole.
        if !prepared.keep_events && !prepared.history {
            machine.log.forget_events();
        }
        let expected_steps = crate::sched::pct_change_steps(machine.items.len(), scenario.max_steps);
        let scheduler = Scheduler::new(&scenario, &machine, &mut rng, expected_steps);
        let mut session = Session {
            scenario,
            lines: prepared.lines.clone(),
            machine,
            scheduler,
            rng,
            kernel: prepared.kernel,
            status: RunStatus::Running,
            steps: 0,
            findings: Vec::new(),
            decisions: Vec::new(),
            snapshots: Vec::new(),
            litmus: prepared.litmus.clone(),
            history: prepared.history,
            candidates: None,
            solo: None,
            ahead: None,
            ended_locks: None,
        };
        session.after_step();
        if session.history {
            session.snapshot();
        }
        Ok(session)
    }

    /// Starts this session again from the launch of `prepared` (the one it was started from)
    /// with `seed`: the same state as [`Session::start`] gives, but copied into this
    /// session's own allocations when the launch was kept, so an exploration does not
    /// allocate, copy and free a machine's worth of small vectors for every run.
    pub(crate) fn restart(&mut self, prepared: &Prepared, seed: u64) -> Result<(), Vec<Diagnostic>> {
        let Some(template) = &prepared.template else {
            *self = Session::start(prepared, seed)?;
            return Ok(());
        };
        // The scenario, line index, kernel and litmus test are those of `prepared` already;
        // only the seed differs.
        self.scenario.seed = seed;
        self.ended_locks = None;
        self.machine.clone_from(template);
        self.machine.rng = Rng::new(seed ^ exec::MACHINE_STREAM);
        self.rng = Rng::new(seed);
        let expected_steps = crate::sched::pct_change_steps(self.machine.items.len(), self.scenario.max_steps);
        self.scheduler = Scheduler::new(&self.scenario, &self.machine, &mut self.rng, expected_steps);
        self.status = RunStatus::Running;
        self.steps = 0;
        self.findings.clear();
        self.decisions.clear();
        self.snapshots.clear();
        self.history = prepared.history;
        self.after_step();
        if self.history {
            self.snapshot();
        }
        Ok(())
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The compiler's warnings about the source (it runs regardless).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.machine.program.warnings
    }

    pub fn status(&self) -> RunStatus {
        self.status
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The simulated work-item operations up to the current step: every private instruction
    /// the work-items executed (the per-work-item clock `clock()` reads) plus one per step's
    /// event. The benchmarks report throughput in these; summing on demand keeps the
    /// interpreter's loop free of a second counter.
    pub fn operations(&self) -> u64 {
        self.machine.items.iter().map(|item| item.cycles).sum::<u64>() + self.steps
    }

    /// Performs one scheduler step; `false` (and no change) once the run has ended.
    pub fn step(&mut self) -> bool {
        self.step_seen(|_, _| ())
    }

    /// [`Session::step`], first showing `seen` the session and the agent about to step (an
    /// exploration reads what each step touches from the state before it).
    pub(crate) fn step_seen(&mut self, seen: impl FnOnce(&Session, u32)) -> bool {
        if self.status != RunStatus::Running {
            return false;
        }
        // After a seek backwards, the recorded future is replayed rather than chosen again.
        if let Some(&decision) = self.decisions.get(self.steps as usize) {
            let (agent, manual) = (decision & !MANUAL, decision & MANUAL != 0);
            if !manual {
                self.scheduler.notice_ready(&mut self.machine);
                self.scheduler.pick(&self.machine, &mut self.rng, self.steps + 1);
            }
            self.prefetch_ahead();
            seen(self, agent);
            self.perform(agent);
            return true;
        }
        let next = self.steps + 1;
        self.scheduler.notice_ready(&mut self.machine);
        let Some(agent) = self.scheduler.pick(&self.machine, &mut self.rng, next) else {
            self.after_step();
            return false;
        };
        self.decisions.push(agent);
        self.prefetch_ahead();
        seen(self, agent);
        self.perform(agent);
        true
    }

    /// Asks the processor to start loading what the next three steps will touch first, while
    /// this one runs ([`Machine::prefetch_ahead`]). Under the random scheduler each step is a
    /// random work-item's, so without this nearly every step waits on main memory several
    /// times over: for the work-item, its registers, the memory its event accesses and that
    /// memory's shadow. A replay knows the agents from its recorded decisions; the random
    /// scheduler's next picks are guessed from its generator's next draws, kept from one step
    /// to the next ([`Lookahead`]; right unless the ready set changes); other schedulers
    /// mostly stay with one work-item or go through them in order, which the processor
    /// foresees by itself. A prefetch changes nothing but timing,
    /// so a wrong guess costs a wasted load.
    fn prefetch_ahead(&mut self) {
        // Only where there is a prefetch instruction. In wasm the hints are nothing, and the
        // guesses alone (each draw a 128-bit multiplication there) made the reduction's run in
        // Chromium 5 to 10% slower; plain loads in place of the hints did not pay for them.
        if !cfg!(target_arch = "x86_64") || self.machine.items.len() < PREFETCH_FROM_WORK_ITEMS {
            return;
        }
        let at = self.steps as usize + 1;
        let agents = if let Some(recorded) = self.decisions.get(at..at + 3) {
            [recorded[0], recorded[1], recorded[2]].map(|d| d & !MANUAL & !exec::PROMISE)
        } else if matches!(self.scheduler, Scheduler::Random) && !self.machine.ready.is_empty() {
            Lookahead::follow(&mut self.ahead, &self.rng);
            let Some(ahead) = &self.ahead else { return };
            let ready = &self.machine.ready;
            // A draw's index is below the length (`Rng::below_from`).
            let pick = |draw: u64| ready[Rng::below_from(draw, ready.len() as u64) as usize];
            // The pick after those: where in the ready list it is, which is as random as the
            // work-item (the three read here were asked for by the three steps before).
            exec::prefetch(&ready[Rng::below_from(ahead.draws[3], ready.len() as u64) as usize] as *const u32);
            [pick(ahead.draws[0]), pick(ahead.draws[1]), pick(ahead.draws[2])]
        } else {
            return;
        };
        self.machine.prefetch_ahead(agents);
    }

    /// Steps work-item `index` by hand (the app's click on a lane); `false` when it cannot
    /// step now (not ready, or the run has ended). The recorded future after this step is
    /// dropped: the run now goes its own way.
    pub fn step_work_item(&mut self, index: usize) -> bool {
        let agent = index as u32;
        // A promise step names its work-item with the `PROMISE` bit.
        let who = (agent & !exec::PROMISE) as usize;
        if self.status != RunStatus::Running || self.machine.ready_pos.get(who).is_none_or(|&p| p == u32::MAX) || !self.scheduler.allows(&self.machine, agent) {
            return false;
        }
        self.decisions.truncate(self.steps as usize);
        self.snapshots.retain(|s| s.step <= self.steps);
        self.machine.log.forget_future();
        self.decisions.push(agent | MANUAL);
        self.perform(agent);
        true
    }

    fn perform(&mut self, agent: u32) {
        debug_assert!(self.ended_locks.is_none(), "a run that ended takes no step");
        let next = self.steps + 1;
        self.steps = next;
        self.machine.step = next;
        if agent & exec::PROMISE != 0 {
            let wi = agent & !exec::PROMISE;
            // Candidates asked for in this very state (by an explorer deciding to promise)
            // are the ones a fresh solo run would find: nothing has stepped since.
            let candidates = match self.candidates.take() {
                Some((who, candidates)) if who == wi => candidates,
                stale => {
                    let mut found = stale.map(|(_, c)| c).unwrap_or_default();
                    self.machine.promise_candidates(wi, &mut self.solo, &mut found);
                    found
                }
            };
            self.machine.promise(wi, &candidates);
            self.candidates = Some((u32::MAX, candidates));
        } else {
            self.scheduler.stepped(&self.machine, agent);
            self.machine.perform(agent);
            if let Some(lanes) = self.scheduler.completed_instruction() {
                self.machine.races.warp_sync(lanes);
            }
        }
        self.after_step();
        if self.history && self.snapshots.last().is_none_or(|s| self.steps >= s.next) {
            self.snapshot();
        }
    }

    /// Steps from this snapshot to the next, from the machine's size now: it grows as the run
    /// goes (work-items start watching for spins, agents learn what happened before), so a
    /// spacing fixed at launch would let a long run's snapshots outgrow their budget.
    fn snapshot_interval(&self) -> u64 {
        // The machine as it is, plus what the race detector's shadow may still grow to as the
        // run touches the memory it watches: a 40-byte cell per 4-byte word and the lists of
        // busy words, counted as fourteen times that memory (read-only buffers have none).
        let allocs = || self.machine.global.iter().chain(self.machine.groups.iter().flat_map(|g| &g.local)).filter(|a| exec::may_race(a));
        let memory: u64 = allocs().map(|a| a.bytes.len() as u64).sum();
        let shadow_now: u64 = allocs().map(|a| a.shadow.bytes() as u64).sum();
        let shadow = if self.scenario.race_detection { (memory * 14).saturating_sub(shadow_now) } else { 0 };
        let size = self.machine.heap_bytes() as u64 + shadow;
        // Snapshots of a run of N steps take about N / interval x size bytes; keep that under
        // the budget for a million-step run.
        let needed = (size.saturating_mul(1_000_000) / SNAPSHOT_BUDGET_BYTES).max(1);
        needed.clamp(SNAPSHOT_EVERY, SNAPSHOT_MAX_REPLAY)
    }

    fn snapshot(&mut self) {
        let log = std::mem::take(&mut self.machine.log);
        let snapshot = Snapshot {
            step: self.steps,
            // Step 0 is the launch, which `relaunch` makes again.
            machine: (self.steps > 0).then(|| exec::frozen::FrozenMachine::freeze(&mut self.machine)),
            scheduler: self.scheduler.clone(),
            rng: self.rng.clone(),
            status: self.status,
            findings: self.findings.clone(),
            events: log.len(),
            hash: log.hash(),
            next: self.steps + self.snapshot_interval(),
        };
        self.machine.log = log;
        self.snapshots.push(snapshot);
    }

    /// Moves to step `target`, backwards or forwards, giving exactly the state first reached
    /// there: the latest snapshot at or before it is restored and the recorded decisions are
    /// replayed. Returns the step reached (earlier than `target` if the run ends first).
    pub fn seek(&mut self, target: u64) -> u64 {
        self.ended_locks = None;
        // The latest snapshot at or before the target; going forwards, only one ahead of where
        // the run is now saves replaying (snapshots after a manual step were dropped with the
        // future they belonged to, so every one left is on this run's path).
        let found = self.snapshots.iter().rposition(|s| s.step <= target).filter(|&i| target < self.steps || self.snapshots[i].step > self.steps);
        if let Some(index) = found {
            // The launch is made again before anything changes, so that a failure (a launch
            // that succeeded once succeeds again, but should it not) leaves the run where it is.
            let relaunched = match self.snapshots[index].machine {
                Some(_) => None,
                None => match self.relaunch(index) {
                    Some(machine) => Some(machine),
                    None => return self.steps,
                },
            };
            let snap = &self.snapshots[index];
            let mut log = std::mem::take(&mut self.machine.log);
            // Backwards, the events after the snapshot become the log's known future;
            // forwards, the log moves into its known future up to the snapshot, or, past what
            // it knows, the run steps there.
            if !log.move_to(snap.events, snap.hash) {
                self.machine.log = log;
                while self.steps < target && self.step() {}
                return self.steps;
            }
            // Copying into the current machine reuses its allocations.
            match (&snap.machine, relaunched) {
                (Some(frozen), _) => frozen.thaw_into(&mut self.machine),
                (None, Some(machine)) => self.machine = machine,
                (None, None) => {}
            }
            self.machine.log = log;
            self.scheduler.clone_from(&snap.scheduler);
            self.rng = snap.rng.clone();
            self.status = snap.status;
            self.findings.clone_from(&snap.findings);
            self.steps = snap.step;
            self.forget_candidates();
            // Race findings are updated in place as their counts grow; bring them back to
            // what the restored records say.
            for r in &mut self.machine.races.records {
                r.dirty = true;
            }
            self.collect_races();
        } else if target < self.steps {
            return self.steps;
        }
        while self.steps < target && self.step() {}
        self.steps
    }

    /// The machine at step 0, launched again from the scenario exactly as [`Session::start`]
    /// launched it (the launch draws only from the seed), with what the first check did to it
    /// (under the fair progress model it may start groups, asking the scheduler of snapshot
    /// `index`, the step-0 one, which lanes it could pick). The scheduler, generator, status
    /// and findings come from that snapshot, so the check's own effects on them are undone by
    /// the caller.
    fn relaunch(&mut self, index: usize) -> Option<Machine> {
        let mut rng = Rng::new(self.scenario.seed);
        let mut machine = exec::launch(self.machine.program.clone(), self.kernel, &self.scenario, &mut rng, limits(&self.scenario)).ok()?;
        if let Some(test) = &self.litmus {
            place_litmus(&mut machine, test, self.kernel);
        }
        // Run the launch's first check on the new machine: swap it in, check, swap it out.
        let status = std::mem::replace(&mut self.status, RunStatus::Running);
        let findings = std::mem::take(&mut self.findings);
        let ended_locks = self.ended_locks.take();
        let scheduler = std::mem::replace(&mut self.scheduler, self.snapshots[index].scheduler.clone());
        let current = std::mem::replace(&mut self.machine, machine);
        self.after_step();
        let machine = std::mem::replace(&mut self.machine, current);
        self.scheduler = scheduler;
        self.status = status;
        self.findings = findings;
        self.ended_locks = ended_locks;
        Some(machine)
    }

    /// Whether this session's log keeps only atomics ([`Prepared::keep_events`]): a session
    /// that [`crate::why::finish`] did not have to start over.
    pub fn forgets_events(&self) -> bool {
        self.machine.log.forgets()
    }

    /// Steps until the run ends or `budget` steps were taken; returns the steps taken.
    pub fn run(&mut self, budget: u64) -> u64 {
        let mut taken = 0;
        while taken < budget && self.step() {
            taken += 1;
        }
        taken
    }

    /// After every step: the step's own checks, then, once the run has ended, the findings
    /// about its locks (they need the whole event log, so they are made once, at the end).
    fn after_step(&mut self) {
        self.forget_candidates();
        self.check_step();
        if self.status != RunStatus::Running {
            let locks = self.lock_analysis();
            let found = crate::locks::findings(&self.machine, &locks, self.status, &|span| self.line_col(span));
            self.findings.extend(found);
        }
    }

    /// The locks of the run so far: those found when it ended, or found now.
    fn analysed_locks(&self) -> Rc<[crate::locks::Lock]> {
        self.ended_locks.clone().unwrap_or_else(|| crate::locks::analyse(&self.machine.log, &crate::locks::group_of(&self.machine)).into())
    }

    /// [`Session::analysed_locks`], kept for the rest of an ended run.
    pub(super) fn lock_analysis(&mut self) -> Rc<[crate::locks::Lock]> {
        let locks = self.analysed_locks();
        if self.status != RunStatus::Running {
            self.ended_locks = Some(locks.clone());
        }
        locks
    }

    /// Moves new faults into findings and decides whether the run has ended.
    fn check_step(&mut self) {
        if !self.machine.faults.is_empty() {
            let faults = std::mem::take(&mut self.machine.faults);
            for f in faults {
                let finding = self.finding_from_fault(f);
                self.findings.push(finding);
            }
        }
        self.collect_races();
        if self.machine.runaway.is_some() {
            self.status = RunStatus::StepLimit;
            return;
        }
        // Under the fair progress model a waiting group starts whenever the resident ones
        // cannot move on by themselves.
        while self.scenario.progress == Progress::Fair && self.machine.pending_groups() > 0 && self.all_stuck() {
            self.machine.start_next_group();
            let faults = std::mem::take(&mut self.machine.faults);
            for f in faults {
                let finding = self.finding_from_fault(f);
                self.findings.push(finding);
            }
        }
        if self.machine.ready.is_empty() {
            let stuck: Vec<u32> = (0..self.machine.items.len() as u32)
                .filter(|&wi| matches!(self.machine.items[wi as usize].status, Status::AtBarrier | Status::Ready | Status::Waiting | Status::NotStarted))
                .collect();
            if stuck.is_empty() {
                self.status = RunStatus::Completed;
            } else {
                self.status = RunStatus::Deadlock;
                self.push_hang_finding(FindingKind::Deadlock, &stuck);
            }
            return;
        }
        if self.all_stuck() {
            self.status = RunStatus::Livelock;
            let stuck: Vec<u32> = (0..self.machine.items.len() as u32)
                .filter(|&wi| !matches!(self.machine.items[wi as usize].status, Status::Finished | Status::Faulted))
                .collect();
            self.push_hang_finding(FindingKind::Livelock, &stuck);
            return;
        }
        if self.machine.log.len() as u64 >= self.scenario.max_history_events {
            let max = self.scenario.max_history_events;
            // A run that keeps no snapshots (the command line's) cannot step back, but its
            // event log is still where its race pairs, locks and hangs are read from.
            let why = if self.history { "its history keeps for stepping back" } else { "its event log keeps (race, lock and hang findings are read from it)" };
            self.stop_at_limit(crate::limits::HISTORY_EVENTS.exceeded(max, &format!("the run stopped after recording {max} events, the most {why}")));
        } else if self.steps >= self.scenario.max_steps {
            let max = self.scenario.max_steps;
            self.stop_at_limit(crate::limits::STEPS.exceeded(max, &format!("the run stopped at the step limit of {max} steps with work-items still running")));
        }
    }

    /// Whether no agent can make progress by itself: nothing is ready, or every ready agent is
    /// a work-item that spins (a copy engine always makes progress).
    #[inline]
    fn all_stuck(&self) -> bool {
        let m = &self.machine;
        let n = m.items.len() as u32;
        // Only lockstep ever holds a ready work-item back; for the other schedulers a ready
        // work-item that does not spin can move, and the first one usually settles it.
        let holds_back = matches!(self.scheduler, Scheduler::Lockstep { .. });
        m.ready.iter().all(|&a| a < n && (m.is_spinning(a) || (holds_back && !self.scheduler.could_pick(m, a))))
    }

    /// 1-based line and column of a span's start.
    pub fn line_col(&self, span: Span) -> (u32, u32) {
        self.lines.line_col(&self.scenario.source, span.start)
    }

    fn global_id(&self, wi: u32) -> [u64; 3] {
        let g = self.machine.items[wi as usize].group;
        let first = self.machine.groups[g as usize].first;
        self.machine.geometry.global_id(g, wi - first)
    }

    /// Where work-item `wi` is: its next event, or the barrier or wait it is blocked in.
    fn current_span(&self, wi: u32) -> Option<Span> {
        let item = &self.machine.items[wi as usize];
        self.machine.program.functions[item.func as usize].spans.get(item.position() as usize).copied()
    }

    pub fn work_item_count(&self) -> usize {
        self.machine.items.len()
    }

    pub fn group_count(&self) -> usize {
        self.machine.groups.len()
    }

    /// A view of work-item `index` (panics if `index >= work_item_count()`).
    pub fn work_item(&self, index: usize) -> WorkItemView {
        let wi = index as u32;
        let item = &self.machine.items[index];
        let g = item.group;
        let local = wi - self.machine.groups[g as usize].first;
        let geometry = &self.machine.geometry;
        let status = match item.status {
            Status::Ready if self.machine.is_spinning(wi) => WorkItemStatus::Spinning,
            Status::Ready if !self.scheduler.allows(&self.machine, wi) => WorkItemStatus::HeldBack,
            Status::Ready => WorkItemStatus::Ready,
            Status::NotStarted => WorkItemStatus::NotStarted,
            Status::AtBarrier => WorkItemStatus::AtBarrier,
            Status::Finished => WorkItemStatus::Finished,
            Status::Faulted => WorkItemStatus::Faulted,
            Status::Waiting => WorkItemStatus::Waiting,
        };
        let line = match item.status {
            Status::Ready | Status::AtBarrier | Status::Waiting => self.current_span(wi).map(|s| self.line_col(s).0),
            _ => None,
        };
        WorkItemView {
            index,
            global_id: geometry.global_id(g, local),
            local_id: geometry.local_id(g, local),
            group_id: geometry.group_id(g),
            group: g as usize,
            status,
            line,
        }
    }

    /// Work-item `index`'s call stack, innermost frame first, with the variables in scope.
    pub fn call_stack(&self, index: usize) -> Vec<crate::inspect::FrameView> {
        if index >= self.machine.items.len() {
            return Vec::new();
        }
        crate::inspect::call_stack(&self.machine, index as u32)
    }

    /// Every memory of the run, with its name: global buffers, constant memory, each group's
    /// local memory.
    pub fn memories(&self) -> Vec<(crate::inspect::MemoryRef, String)> {
        crate::inspect::memories(&self.machine)
    }

    /// The contents of one memory, with the last writer of each element.
    pub fn memory(&self, which: crate::inspect::MemoryRef) -> Option<crate::inspect::MemoryView> {
        crate::inspect::memory(&self.machine, which)
    }

    /// Each work-group's barrier: who has arrived.
    pub fn barriers(&self) -> Vec<crate::inspect::BarrierView> {
        crate::inspect::barriers(&self.machine)
    }

    pub fn events(&self) -> &EventLog {
        &self.machine.log
    }

    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    /// The furthest step of the recorded path: after seeking back, the steps up to here are
    /// known and a seek forward within them replays exactly what happened first.
    pub fn recorded_steps(&self) -> u64 {
        self.decisions.len() as u64
    }

    /// The printf output so far, line by line with the work-item that printed it.
    pub fn printf(&self) -> &[crate::report::PrintfLine] {
        &self.machine.printf
    }

    /// The locks the run has used so far, each with its timeline (see `crate::locks`).
    pub fn locks(&self) -> Vec<crate::report::LockReport> {
        crate::locks::reports(&self.machine, &self.analysed_locks())
    }

    /// A copy of this run at its current step that keeps no history (for exploring the
    /// steps that could come next).
    pub(crate) fn fork(&self) -> Session {
        let mut machine = self.machine.clone();
        // The copy takes its own path: the recorded one's later events are not its future.
        machine.log.forget_future();
        Session {
            scenario: self.scenario.clone(),
            lines: self.lines.clone(),
            machine,
            scheduler: self.scheduler.clone(),
            rng: self.rng.clone(),
            kernel: self.kernel,
            status: self.status,
            steps: self.steps,
            findings: self.findings.clone(),
            decisions: self.decisions.clone(),
            snapshots: Vec::new(),
            litmus: self.litmus.clone(),
            history: false,
            candidates: None,
            solo: None,
            ahead: None,
            ended_locks: None,
        }
    }

    /// Exchanges this session's machine for certifying solo runs with `solo`: a search lends
    /// one machine to each session it steps, so that all their solo runs reuse it.
    pub(crate) fn swap_solo(&mut self, solo: &mut Option<Box<Machine>>) {
        std::mem::swap(&mut self.solo, solo);
    }

    /// Marks the kept promise candidates stale (the state changed), keeping their vector for
    /// the next ones.
    fn forget_candidates(&mut self) {
        if let Some((who, _)) = &mut self.candidates {
            *who = u32::MAX;
        }
    }

    /// The relaxed writes work-item `agent` could promise now (see
    /// `Machine::promise_candidates`). The answer is kept until the next step, and the solo
    /// run that finds it runs on a machine this session keeps for the purpose.
    pub(crate) fn promise_candidates(&mut self, agent: u32) -> &[crate::concurrency::weak::Candidate] {
        if !matches!(&self.candidates, Some((who, _)) if *who == agent) {
            let mut found = self.candidates.take().map(|(_, c)| c).unwrap_or_default();
            self.machine.promise_candidates(agent, &mut self.solo, &mut found);
            self.candidates = Some((agent, found));
        }
        self.candidates.as_ref().map_or(&[], |(_, c)| c.as_slice())
    }

    pub(crate) fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The agents whose next step could lead somewhere new, in index order: those that could
    /// take it, less the work-items that spin.
    pub(crate) fn enabled(&self) -> Vec<u32> {
        let mut ready = Vec::new();
        self.enabled_into(&mut ready);
        ready
    }

    /// The lane that must take the next step, while a lockstep instruction is under way.
    pub(crate) fn forced(&self) -> Option<u32> {
        self.scheduler.forced(&self.machine)
    }

    /// Whether the scheduler picks warps' instructions rather than work-items' steps.
    pub(crate) fn lockstep(&self) -> bool {
        matches!(self.scheduler, Scheduler::Lockstep { .. })
    }

    /// What a preemption switches away from: the agent (as given), or under lockstep the warp
    /// of a work-item, since there a warp's instruction is the unit of choice.
    pub(crate) fn unit(&self, agent: u32) -> u64 {
        let who = agent & !exec::PROMISE;
        match self.machine.items.get(who as usize) {
            Some(item) if self.lockstep() => (1 << 32) | u64::from(item.warp),
            _ => u64::from(agent),
        }
    }

    /// [`Session::enabled`] into `ready`, a vector the caller keeps between steps.
    pub(crate) fn enabled_into(&self, ready: &mut Vec<u32>) {
        ready.clear();
        if self.status != RunStatus::Running {
            return;
        }
        let m = &self.machine;
        // A lockstep instruction under way is finished first, by its next lane, even one that
        // spins: the warp's other lanes run the same instruction.
        if let Some(lane) = self.scheduler.forced(m) {
            ready.push(lane);
            return;
        }
        // A spinning work-item would only repeat its state until another agent writes: its
        // step leads nowhere new, and an exploration that took it could take it forever.
        ready.extend(m.ready.iter().copied().filter(|&a| self.scheduler.allows(m, a) && ((a as usize) >= m.items.len() || !m.is_spinning(a))));
        ready.sort_unstable();
    }

    /// Steps `agent` with option `choice` for the step's decision, if it has one; returns how
    /// many options the decision had (1 when there was none) and the option taken.
    pub(crate) fn step_agent(&mut self, agent: u32, choice: u32) -> (u32, u32) {
        let weak = &mut self.machine.weak;
        weak.forced = Some(choice);
        weak.last_options = 1;
        weak.last_choice = 0;
        self.step_work_item(agent as usize);
        let weak = &mut self.machine.weak;
        weak.forced = None;
        (weak.last_options, weak.last_choice)
    }

    /// Whether the run so far is an execution the memory model allows to end here (under the
    /// relaxed model, a promise left unkept makes it one that must be discarded).
    pub fn consistent(&self) -> bool {
        self.machine.weak.consistent()
    }

    /// Every decision the run has taken (its `choices`).
    pub fn choices(&self) -> Vec<u32> {
        self.machine.weak.made.clone()
    }

    /// The agent of every step so far.
    pub fn schedule(&self) -> Vec<u32> {
        self.decisions.iter().take(self.steps as usize).map(|&decision| decision & !MANUAL).collect()
    }

    /// For a litmus test: each thread's registers as `"THREAD:NAME"`, once the run has ended
    /// (a register its thread never reached the end with is missing).
    pub fn registers(&self) -> Option<Registers> {
        let test = self.litmus.as_ref()?;
        let mut out = Registers::new();
        for item in &self.machine.items {
            for &(slot, value) in item.observed() {
                if let Some(r) = test.registers.get(slot as usize) {
                    out.insert(format!("{}:{}", r.thread, r.name), value as i64);
                }
            }
        }
        Some(out)
    }

    /// For a litmus test: whether this run satisfied its final condition's predicate. Only a
    /// run that completed reached a final state: one that hung or stopped satisfies nothing.
    pub fn exists(&self) -> Option<bool> {
        let test = self.litmus.as_ref()?;
        if self.status != RunStatus::Completed {
            return Some(false);
        }
        let registers = self.registers()?;
        let buffers = self.report_buffers();
        let location = |name: &str| -> Option<i64> {
            let b = buffers.iter().find(|b| b.name == name)?;
            match b.values.first()? {
                Some(Number::Int(v)) => Some(*v),
                Some(Number::UInt(v)) => Some(*v as i64),
                Some(Number::Float(v)) => Some(*v as i64),
                None => None,
            }
        };
        let register = |thread: usize, name: &str| registers.get(&format!("{thread}:{name}")).copied();
        Some(test.condition.holds(&register, &location))
    }

    /// Loads that read an older write than the latest (relaxed model), for the timeline.
    pub fn stale_reads(&self) -> Vec<StaleReadView> {
        self.machine.weak.stale.iter().filter_map(|s| self.stale_read_view(s)).collect()
    }

    /// The latest stale read of each element of memory `which` that has one, by the element's
    /// index as [`Session::memory`] numbers them (those it shows): what the inspector marks
    /// in a memory. Reads are matched by their location, so a work-group's local memory
    /// shows its own members' reads only. Only this memory's reads are assembled and named,
    /// as the page asks for them while a run goes.
    pub fn stale_reads_of(&self, which: crate::inspect::MemoryRef) -> BTreeMap<u64, StaleReadView> {
        let m = &self.machine;
        let mut out = BTreeMap::new();
        let Some(alloc) = crate::inspect::alloc_of(m, which) else { return out };
        let (size, shown) = crate::inspect::elements_shown(alloc);
        let work_items = m.log.work_items();
        for s in m.weak.stale.iter().rev() {
            let event = s.event as usize;
            let Some(loc) = m.log.location_of(event).filter(|loc| loc.space == which.space && loc.alloc == which.alloc) else { continue };
            if which.space == Space::Local && work_items.get(event).map(|&wi| m.items[wi as usize].group) != which.group {
                continue;
            }
            let element = loc.offset / size;
            if element >= shown || out.contains_key(&element) {
                continue;
            }
            if let Some(view) = self.stale_read_view(s) {
                out.insert(element, view);
            }
        }
        out
    }

    /// What the page and the report show of stale read `s`.
    fn stale_read_view(&self, s: &crate::concurrency::weak::StaleRead) -> Option<StaleReadView> {
        let log = &self.machine.log;
        let load = log.get(s.event as usize)?;
        let from = log.get(s.read_from as usize);
        let latest = log.get(s.latest as usize);
        Some(StaleReadView {
            step: load.step,
            work_item: self.global_id(load.work_item),
            value: load.read,
            written_at: from.map(|e| e.step),
            newer_at: latest.map(|e| e.step),
            explanation: None,
            location: load.location.map(|loc| self.describe_location(loc, load.work_item)).unwrap_or_default(),
        })
    }

    /// The hex digest of the event trace so far.
    pub fn trace_hash(&self) -> String {
        format!("{:016x}", self.machine.log.hash())
    }

    /// The report of the run so far, without the explanations of its findings and stale
    /// reads: `why::report` gives it with them (the `interleave run --json` object).
    pub fn report(&self) -> Report {
        let mut report = Report {
            status: self.status,
            steps: self.steps,
            trace_hash: self.trace_hash(),
            findings: self.findings.clone(),
            buffers: self.report_buffers(),
            printf: self.machine.printf.clone(),
            locks: self.locks(),
            registers: None,
            exists: None,
            stale_reads: self.stale_reads(),
            warnings: self
                .warnings()
                .iter()
                .map(|d| {
                    let (line, column) = d.span.map_or((0, 0), |s| self.line_col(s));
                    crate::report::SourceWarning { code: d.code.clone(), message: d.message.clone(), line, column, help: d.help.clone() }
                })
                .collect(),
            schedule_stop: self.schedule_stop(),
        };
        if self.status != RunStatus::Running {
            report.registers = self.registers();
            report.exists = self.exists();
        }
        report
    }

    /// Why a run that follows a schedule cannot go on, in words, while it has not ended and
    /// every step of it recorded so far has been taken: the schedule ran out, or its next
    /// step names a work-item that does not exist or cannot step now. `None` for a run that
    /// can go on, has ended, or follows no schedule.
    pub fn schedule_stop(&self) -> Option<String> {
        let (taken, next) = self.scheduler.followed()?;
        if self.status != RunStatus::Running || (self.steps as usize) < self.decisions.len() {
            return None;
        }
        let Some(agent) = next else {
            let ready = (0..self.work_item_count())
                .filter(|&wi| matches!(self.work_item(wi).status, WorkItemStatus::Ready | WorkItemStatus::Spinning | WorkItemStatus::HeldBack))
                .count();
            return Some(format!(
                "the schedule ended after its {taken} step{} and the run has not: {ready} work-item{} can still step (a longer schedule, or another scheduler, goes on)",
                if taken == 1 { "" } else { "s" },
                if ready == 1 { "" } else { "s" }
            ));
        };
        let who = agent & !exec::PROMISE;
        let agents = self.machine.ready_pos.len();
        let items = self.work_item_count();
        let step = taken + 1;
        if who as usize >= agents {
            return Some(format!(
                "step {step} of the schedule names work-item {who}, and the launch has {items} work-items (0 to {})",
                items.saturating_sub(1)
            ));
        }
        if who as usize >= items {
            return Some(format!("step {step} of the schedule names agent {who}, a work-group's async-copy engine, which has no copy to make now"));
        }
        let view = self.work_item(who as usize);
        let line = view.line.map(|l| format!(" (line {l})")).unwrap_or_default();
        let state = match view.status {
            WorkItemStatus::AtBarrier => format!("it waits at a barrier{line} for the rest of its group"),
            WorkItemStatus::Finished => "it has finished".to_string(),
            WorkItemStatus::Faulted => format!("a fault stopped it{line}"),
            WorkItemStatus::Waiting => format!("it waits for async copies{line}"),
            WorkItemStatus::NotStarted => "its work-group is not resident yet".to_string(),
            WorkItemStatus::HeldBack => {
                format!("lockstep holds it back{line}: the lanes of its warp behind it, or another warp's instruction under way, go first")
            }
            WorkItemStatus::Ready | WorkItemStatus::Spinning => format!("it is not this step's to take{line}"),
        };
        Some(format!("step {step} of the schedule names work-item {who}, which cannot step there: {state}"))
    }

    /// What an exploration keeps of a finished run: the buffers, a litmus test's registers and
    /// whether its condition held, and the findings (without the report's lock analysis).
    pub(crate) fn outcome(&self) -> (Vec<BufferReport>, Option<Registers>, Option<bool>, &[Finding]) {
        (self.report_buffers(), self.registers(), self.exists(), &self.findings)
    }

    /// Writes into `key` a raw key of what [`Session::outcome`] reports as the outcome (the
    /// buffers, and a litmus test's registers and whether its condition held): the bytes
    /// and initialisation of each reported buffer, and the values each work-item observed.
    /// Runs with equal keys have equal outcomes, so an exploration that has seen a key
    /// counts the run without building strings and maps for it.
    pub(crate) fn outcome_key(&self, key: &mut Vec<u64>) {
        key.clear();
        let kernel = &self.machine.program.kernels[self.kernel];
        for (i, p) in kernel.params.iter().enumerate() {
            let ParamKind::Pointer { space: Space::Global, .. } = p.kind else { continue };
            // The same buffers as `report_buffers`, found the same way.
            let bits = self.machine.items.first().map_or(0, |item| item.regs[i]);
            key.push(bits);
            let alloc_index = crate::ir::ptr::alloc(bits) as usize;
            if alloc_index == 0 {
                continue;
            }
            let alloc = &self.machine.global[alloc_index];
            key.push(alloc.bytes.len() as u64);
            for chunk in alloc.bytes.chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                key.push(u64::from_le_bytes(word));
            }
            match &alloc.init {
                None => key.push(u64::MAX),
                Some(init) => {
                    key.push(init.len() as u64);
                    key.extend(init.chunks(64).map(|bits| bits.iter().enumerate().fold(0u64, |w, (k, &b)| w | (b as u64) << k)));
                }
            }
        }
        if self.litmus.is_some() {
            for item in &self.machine.items {
                key.push(item.observed().len() as u64);
                for &(slot, value) in item.observed() {
                    key.push(slot as u64);
                    key.push(value);
                }
            }
        }
    }

    /// The global buffers' values, as the report lists them.
    fn report_buffers(&self) -> Vec<BufferReport> {
        let kernel = &self.machine.program.kernels[self.kernel];
        let mut buffers = Vec::new();
        for (i, p) in kernel.params.iter().enumerate() {
            let ParamKind::Pointer { space: Space::Global, elem, .. } = p.kind else { continue };
            if !self.scenario.report_buffers.is_empty() && !self.scenario.report_buffers.contains(&p.name) {
                continue;
            }
            let bits = self.machine.items.first().map_or(0, |item| item.regs[i]);
            let alloc_index = crate::ir::ptr::alloc(bits) as usize;
            if alloc_index == 0 {
                continue;
            }
            let alloc = &self.machine.global[alloc_index];
            // A buffer of structs (or void) is reported in the element type its argument gave.
            let given = self.scenario.args.iter().find(|a| a.name == p.name).and_then(|a| match a.spec {
                crate::scenario::ArgSpec::Buffer { elem, .. } => Some(elem),
                _ => None,
            });
            let elem = elem.or(given).unwrap_or(ElemType::UChar);
            let size = elem.size() as usize;
            let values = (0..alloc.bytes.len() / size)
                .map(|k| {
                    let at = k * size;
                    if alloc.init.as_ref().is_some_and(|init| init[at..at + size].iter().any(|b| !b)) {
                        return None;
                    }
                    Some(number_of(elem, elem.decode(&alloc.bytes[at..])))
                })
                .collect();
            buffers.push(BufferReport { name: p.name.clone(), ty: elem.name().to_string(), values });
        }
        buffers
    }
}

fn number_of(ty: ElemType, bits: u64) -> Number {
    match ty {
        // The shortest decimal that reads back as the same float (42.24, not 42.2400016...).
        ElemType::Float => Number::Float(shortest_f32(f32::from_bits(bits as u32))),
        ElemType::Double => Number::Float(f64::from_bits(bits)),
        ElemType::ULong | ElemType::UInt | ElemType::UShort | ElemType::UChar | ElemType::Bool => Number::UInt(bits),
        _ => Number::Int(bits as i64),
    }
}

/// A float as the double nearest its shortest round-trip decimal (42.24, not
/// 42.2400016...). A whole number below 2^24 in magnitude is its own shortest decimal (every
/// shorter digit string is at least 1 away, its neighbours at most 1), so it converts exactly
/// without formatting, which for a buffer of a million elements is most of a run's report.
fn shortest_f32(f: f32) -> f64 {
    // Whole and below 2^24: converting to `i32` and back gives it again. (`fract` would do,
    // but it calls out to `truncf`, a tenth of a million-element report's time.)
    if f.abs() < 16_777_216.0 && (f as i32) as f32 == f {
        return f as f64;
    }
    f.to_string().parse::<f64>().unwrap_or(f as f64)
}

#[cfg(test)]
mod tests {
    use super::shortest_f32;

    /// The conversion through the shortest decimal, as it is written without the shortcut.
    fn through_text(f: f32) -> f64 {
        f.to_string().parse::<f64>().unwrap_or(f as f64)
    }

    #[test]
    fn whole_floats_skip_the_text_and_convert_to_the_same_double() {
        let mut checked = 0;
        let mut check = |f: f32| {
            assert_eq!(shortest_f32(f).to_bits(), through_text(f).to_bits(), "{f:?}");
            checked += 1;
        };
        for i in -70_000..=70_000 {
            check(i as f32);
        }
        for i in (0..=16_777_216u32).step_by(97).chain(16_777_000..=16_777_300) {
            check(i as f32);
            check(-(i as f32));
        }
        for f in [-0.0, 0.5, -1.25, 42.24, 0.1, 1e-7, 16_777_216.0, 16_777_218.0, 1e20, -3e38, f32::INFINITY, f32::MIN_POSITIVE] {
            check(f);
        }
        assert!(checked > 480_000);
        assert!(shortest_f32(f32::NAN).is_nan());
    }

    /// The history limit says what the recorded events are for: stepping back where the run
    /// keeps snapshots (the app), the findings read from the log where it does not (the
    /// command line).
    #[test]
    fn the_history_limit_says_what_the_events_are_kept_for() {
        use crate::scenario::{ArgBinding, Dialect, Scenario};
        let mut scenario = Scenario::new("__kernel void k(__global int *d) { for (int i = 0; i < 100; i++) atomic_add(d, 1); }", "k.cl", Dialect::OpenCl);
        scenario.launch.global = vec![2];
        scenario.args = vec![ArgBinding::parse("d=int[1]").expect("valid argument")];
        scenario.max_history_events = 30;
        for (history, says) in [(true, "the most its history keeps for stepping back"), (false, "the most its event log keeps (race, lock and hang findings")] {
            let mut prepared = super::Prepared::new(scenario.clone()).expect("compiles");
            prepared.history = history;
            let mut session = super::Session::start(&prepared, 0).expect("launches");
            session.run(u64::MAX);
            assert_eq!(session.status(), crate::report::RunStatus::StepLimit);
            let limit = session.findings().iter().find(|f| f.kind == crate::report::FindingKind::StepLimit).expect("a step-limit finding");
            assert!(limit.message.contains(says), "{}", limit.message);
        }
    }
}
