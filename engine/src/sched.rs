//! Schedulers: which ready work-item performs the next step.
//!
//! Every choice draws from the run's [`Rng`], so a scenario and a seed fix the schedule.
//! The candidates are agents: work-items and the work-groups' async-copy engines.
//! Schedulers see only the machine's ready set and statuses; they never look at values, so
//! they cannot make a run depend on anything but the seed.

use crate::exec::Machine;
use crate::rng::Rng;
use crate::scenario::{Scenario, SchedulerKind};

/// Scheduler state.
#[derive(Clone, Debug)]
pub enum Scheduler {
    /// The next ready work-item after the previous one, in index order.
    RoundRobin {
        last: u32,
    },
    Random,
    /// Keeps stepping the same work-item until it blocks, spins or finishes, then takes the
    /// lowest ready one that does not spin. No agent below `floor` is ready: the floor rises
    /// past agents found not ready and drops to any agent made ready (`notice_ready`), so a
    /// launch of n work-items that each run to a barrier costs O(n), not O(n²), to schedule.
    RunToBlock {
        current: Option<u32>,
        floor: u32,
    },
    /// PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte: "A Randomized Scheduler with
    /// Probabilistic Guarantees of Finding Bugs", ASPLOS 2010): distinct random priorities,
    /// always the highest-priority ready work-item, and at `depth - 1` random steps the
    /// running work-item drops below everyone. A work-item found spinning drops below
    /// everyone too, so a busy-wait cannot starve the work-item it waits for.
    ///
    /// `ready` holds the ready agents ordered by priority, kept up to date from the machine's
    /// log of readiness changes, so a pick costs O(log n) rather than a pass over every ready
    /// agent. Priorities are distinct.
    Pct {
        priority: Vec<u64>,
        change_points: Vec<u64>,
        next_low: u64,
        ready: std::collections::BTreeSet<(u64, u32)>,
    },
    /// SIMT: a warp is chosen at random, and its ready lanes that are furthest behind in the
    /// program (the smallest call-stack position) step one after another, as the lanes of
    /// one instruction. Lanes that diverged wait until the lanes behind them catch up, which
    /// is how a warp reconverges (the "minimum PC" policy), and why a lane spinning on a lock
    /// held by another lane of its warp can spin forever.
    ///
    /// The unit of choice is a warp's instruction, not a lane's step: once an instruction
    /// has begun, only its next lane may step, whoever asks (the scheduler, an explorer, a
    /// replay, a click on a lane); between instructions, only an instruction's first lane
    /// (the lowest lane furthest behind in its warp) or a copy engine. [`Scheduler::allows`]
    /// is that rule and [`Scheduler::stepped`] keeps the state it reads.
    ///
    /// With a schedule (a replay), the warp of each instruction is the one the schedule's
    /// next lane names, instead of a random one; a step the rule refuses pauses the run, as
    /// a manual schedule pauses at a work-item that cannot step.
    Lockstep {
        /// The lanes of the current instruction still to step, last first.
        queue: Vec<u32>,
        /// All lanes of the current instruction, handed to the race detector when it is
        /// complete: lanes executing one instruction in lockstep are ordered with each other
        /// (the warp-synchronous model of GPUs without independent thread scheduling).
        lanes: Vec<u32>,
        /// Whether the last step completed an instruction.
        completed: bool,
        /// The schedule followed, and the index of its next step.
        follow: Option<(std::rc::Rc<[u32]>, usize)>,
    },
    /// The caller's list of work-items, one per step; the run pauses where it ends.
    Manual {
        schedule: std::rc::Rc<[u32]>,
        next: usize,
    },
}

/// The steps PCT draws its priority change points from: those a run of `items` work-items is
/// expected to take (see `crate::explore::pct` for what that means for its guarantee).
pub fn pct_change_steps(items: usize, max_steps: u64) -> u64 {
    (items as u64 * 8).min(max_steps)
}

/// The lowest initial PCT priority: below it there is room for a demotion at every step of
/// the longest run.
const PCT_LOWEST_INITIAL: u64 = 1 << 62;

impl Scheduler {
    pub fn new(scenario: &Scenario, machine: &Machine, rng: &mut Rng, expected_steps: u64) -> Scheduler {
        match scenario.scheduler {
            SchedulerKind::RoundRobin => Scheduler::RoundRobin { last: u32::MAX },
            SchedulerKind::Random => Scheduler::Random,
            SchedulerKind::RunToBlock => Scheduler::RunToBlock { current: None, floor: 0 },
            SchedulerKind::Lockstep => Scheduler::Lockstep {
                queue: Vec::new(),
                lanes: Vec::new(),
                completed: false,
                follow: (!scenario.schedule.is_empty()).then(|| (scenario.schedule.clone().into(), 0)),
            },
            SchedulerKind::Manual => Scheduler::Manual { schedule: scenario.schedule.clone().into(), next: 0 },
            SchedulerKind::Pct => {
                let n = machine.ready_pos.len();
                // A random permutation of high priorities (Fisher-Yates), one per agent.
                // Demotions take priorities below every initial one, one lower each time; the
                // initial ones start high enough that demotions never run out (a spin lock's
                // waiter is demoted every time it is found spinning: with priorities that stop
                // at zero it would tie with the demoted holder and could starve it forever).
                let mut priority: Vec<u64> = (0..n as u64).map(|p| p + PCT_LOWEST_INITIAL).collect();
                for i in (1..n).rev() {
                    let j = rng.below(i as u64 + 1) as usize;
                    priority.swap(i, j);
                }
                let depth = scenario.pct_depth.clamp(1, 64);
                let mut change_points: Vec<u64> = (1..depth).map(|_| 1 + rng.below(expected_steps.max(1))).collect();
                change_points.sort_unstable();
                let ready = machine.ready.iter().map(|&a| (priority[a as usize], a)).collect();
                Scheduler::Pct { priority, change_points, next_low: PCT_LOWEST_INITIAL, ready }
            }
        }
    }

    /// Picks the work-item for step `step`; `None` when nothing is ready.
    pub fn pick(&mut self, machine: &Machine, rng: &mut Rng, step: u64) -> Option<u32> {
        let ready = &machine.ready;
        if ready.is_empty() {
            return None;
        }
        Some(match self {
            Scheduler::Random => ready[rng.below(ready.len() as u64) as usize],
            Scheduler::RoundRobin { last } => {
                let n = machine.ready_pos.len() as u32;
                let start = last.wrapping_add(1) % n;
                let pick = (0..n).map(|k| (start + k) % n).find(|&agent| machine.ready_pos[agent as usize] != u32::MAX).unwrap_or(ready[0]);
                *last = pick;
                pick
            }
            Scheduler::RunToBlock { current, floor } => {
                let n = machine.items.len() as u32;
                // A work-item known to spin is blocked on a value as surely as one at a barrier
                // is blocked on its group: run-to-block moves on from it, or it would spin for
                // ever while the work-item it waits for never runs.
                let spins = |agent: u32| agent < n && machine.is_spinning(agent);
                let is_ready = |agent: u32| machine.ready_pos[agent as usize] != u32::MAX;
                let pick = match *current {
                    Some(agent) if is_ready(agent) && !machine.released && !spins(agent) => agent,
                    _ => {
                        // The lowest ready agent that does not spin, else the lowest ready one.
                        let agents = machine.ready_pos.len() as u32;
                        while *floor < agents && !is_ready(*floor) {
                            *floor += 1;
                        }
                        let mut lowest_ready = None;
                        let mut found = None;
                        for agent in *floor..agents {
                            if is_ready(agent) {
                                lowest_ready.get_or_insert(agent);
                                if !spins(agent) {
                                    found = Some(agent);
                                    break;
                                }
                            }
                        }
                        found.or(lowest_ready).unwrap_or(ready[0])
                    }
                };
                *current = Some(pick);
                pick
            }
            Scheduler::Pct { priority, change_points, next_low, ready: by_priority } => {
                let n = machine.items.len() as u32;
                // Priorities are distinct (demotions never run out of lower ones), so the top
                // of the set is the one agent a scan of the ready list would find.
                let top = |set: &std::collections::BTreeSet<(u64, u32)>| set.last().map_or(ready[0], |&(_, a)| a);
                // Drops `agent` below everyone.
                let lower = |agent: u32, priority: &mut Vec<u64>, next_low: &mut u64, set: &mut std::collections::BTreeSet<(u64, u32)>| {
                    *next_low = next_low.saturating_sub(1);
                    if set.remove(&(priority[agent as usize], agent)) {
                        set.insert((*next_low, agent));
                    }
                    priority[agent as usize] = *next_low;
                };
                let mut pick = top(by_priority);
                // The spin hint: at most once per ready agent, so a step always happens.
                for _ in 0..ready.len() {
                    if pick >= n || !machine.is_spinning(pick) {
                        break;
                    }
                    lower(pick, priority, next_low, by_priority);
                    pick = top(by_priority);
                }
                if change_points.first() == Some(&step) {
                    change_points.remove(0);
                    lower(pick, priority, next_low, by_priority);
                }
                pick
            }
            Scheduler::Lockstep { queue, lanes, follow, .. } => {
                // Lanes of the instruction under way that can no longer step are passed over.
                while queue.last().is_some_and(|&lane| machine.ready_pos[lane as usize] == u32::MAX) {
                    queue.pop();
                }
                if let Some((schedule, next)) = follow {
                    let &agent = schedule.get(*next)?;
                    if !lockstep_allows(machine, queue, agent) {
                        return None;
                    }
                    *next += 1;
                    return Some(agent);
                }
                if let Some(&lane) = queue.last() {
                    return Some(lane);
                }
                let agent = ready[rng.below(ready.len() as u64) as usize];
                if agent as usize >= machine.items.len() {
                    // A copy engine is not a lane of any warp.
                    return Some(agent);
                }
                // The instruction begins here (`stepped` takes its first lane off the queue).
                instruction_of(machine, agent, queue);
                lanes.clear();
                lanes.extend_from_slice(queue);
                queue.last().copied().unwrap_or(agent)
            }
            Scheduler::Manual { schedule, next } => {
                let &agent = schedule.get(*next)?;
                let who = agent & !crate::exec::PROMISE;
                if machine.ready_pos.get(who as usize).is_none_or(|&p| p == u32::MAX) {
                    return None;
                }
                *next += 1;
                agent
            }
        })
    }
}

impl Scheduler {
    /// For a scheduler that follows a schedule: how many of its steps were taken, and the
    /// agent its next step names (`None` past its end).
    pub fn followed(&self) -> Option<(usize, Option<u32>)> {
        match self {
            Scheduler::Manual { schedule, next } | Scheduler::Lockstep { follow: Some((schedule, next)), .. } => Some((*next, schedule.get(*next).copied())),
            _ => None,
        }
    }

    /// Before a pick: learns which agents became ready or stopped being ready since the last
    /// one. Run-to-block lowers its floor to the lowest agent made ready; PCT updates its
    /// ordered ready set from the machine's log, which it starts the first time (membership
    /// is set from each logged agent's readiness now, so a log that overlaps what the set
    /// already knows does no harm).
    pub fn notice_ready(&mut self, machine: &mut Machine) {
        let low = std::mem::replace(&mut machine.ready_added_low, u32::MAX);
        match self {
            Scheduler::RunToBlock { floor, .. } => *floor = (*floor).min(low),
            Scheduler::Pct { priority, ready, .. } => match &mut machine.ready_log {
                Some(log) => {
                    for agent in log.drain(..) {
                        let key = (priority[agent as usize], agent);
                        if machine.ready_pos[agent as usize] != u32::MAX {
                            ready.insert(key);
                        } else {
                            ready.remove(&key);
                        }
                    }
                }
                None => {
                    *ready = machine.ready.iter().map(|&a| (priority[a as usize], a)).collect();
                    machine.ready_log = Some(Vec::new());
                }
            },
            _ => {}
        }
    }

    /// After a step: the lanes of the lockstep instruction that step completed, which the
    /// race detector orders with each other.
    pub fn completed_instruction(&mut self) -> Option<&[u32]> {
        match self {
            Scheduler::Lockstep { lanes, completed, .. } if *completed && lanes.len() > 1 => {
                *completed = false;
                Some(lanes)
            }
            _ => None,
        }
    }

    /// Whether `agent` (a work-item, a copy engine, or a promise step) may take the next step
    /// now. Only lockstep refuses a ready agent: see [`Scheduler::Lockstep`].
    pub fn allows(&self, machine: &Machine, agent: u32) -> bool {
        match self {
            Scheduler::Lockstep { queue, .. } => lockstep_allows(machine, queue, agent),
            _ => true,
        }
    }

    /// The lane that must take the next step, while a lockstep instruction is under way.
    pub fn forced(&self, machine: &Machine) -> Option<u32> {
        match self {
            Scheduler::Lockstep { queue, .. } => next_lane(machine, queue),
            _ => None,
        }
    }

    /// Before `agent`'s step (never a promise step), whoever chose it: lockstep takes the lane
    /// off its instruction, or begins the instruction of `agent`'s warp.
    pub fn stepped(&mut self, machine: &Machine, agent: u32) {
        if let Scheduler::Lockstep { queue, lanes, completed, .. } = self {
            if agent as usize >= machine.items.len() {
                return;
            }
            while queue.last().is_some_and(|&lane| lane != agent && machine.ready_pos[lane as usize] == u32::MAX) {
                queue.pop();
            }
            if queue.last() != Some(&agent) {
                // Only an instruction's first lane gets here (`allows`), and `pick` begins
                // the instruction itself; a step chosen elsewhere begins it now.
                instruction_of(machine, agent, queue);
                lanes.clear();
                lanes.extend_from_slice(queue);
            }
            queue.pop();
            *completed = queue.is_empty();
        }
    }

    /// Whether this scheduler could ever pick ready work-item `wi` in the machine's present
    /// state. Only lockstep holds lanes back: a lane ahead of others of its warp waits for
    /// them, so lanes spinning behind it starve it for as long as they spin.
    pub fn could_pick(&self, machine: &Machine, wi: u32) -> bool {
        match self {
            Scheduler::Lockstep { .. } => {
                let warp = machine.items[wi as usize].warp;
                !warp_lanes(machine, warp).any(|a| machine.ready_pos[a as usize] != u32::MAX && position_order(machine, a, wi) == std::cmp::Ordering::Less)
            }
            _ => true,
        }
    }
}

/// The next lane of the instruction under way in `queue` that can step.
fn next_lane(machine: &Machine, queue: &[u32]) -> Option<u32> {
    queue.iter().rev().copied().find(|&lane| machine.ready_pos[lane as usize] != u32::MAX)
}

/// The lockstep rule (see [`Scheduler::Lockstep`]): while an instruction is under way only its
/// next lane steps; between instructions, a copy engine, a promise, or the first lane of an
/// instruction (ready, no ready lane of its warp behind it, and none at its position before
/// it).
fn lockstep_allows(machine: &Machine, queue: &[u32], agent: u32) -> bool {
    if let Some(lane) = next_lane(machine, queue) {
        return agent == lane;
    }
    if agent & crate::exec::PROMISE != 0 || agent as usize >= machine.items.len() {
        return true;
    }
    // The lane its warp's next instruction begins with (`instruction_of`'s first).
    let ready = |a: u32| machine.ready_pos[a as usize] != u32::MAX;
    let warp = machine.items[agent as usize].warp;
    ready(agent) && warp_lanes(machine, warp).filter(|&a| ready(a)).min_by(|&a, &b| position_order(machine, a, b).then(a.cmp(&b))) == Some(agent)
}

/// The lanes of the instruction `agent`'s warp runs next, into `queue`, last first: its ready
/// lanes furthest behind in the program, which step in lane order.
fn instruction_of(machine: &Machine, agent: u32, queue: &mut Vec<u32>) {
    let warp = machine.items[agent as usize].warp;
    queue.clear();
    queue.extend(warp_lanes(machine, warp).filter(|&a| machine.ready_pos[a as usize] != u32::MAX));
    let behind = queue.iter().copied().min_by(|&a, &b| position_order(machine, a, b)).unwrap_or(agent);
    queue.retain(|&a| position_order(machine, a, behind) == std::cmp::Ordering::Equal);
    // Lanes step in lane order: the queue is popped from the back.
    queue.sort_unstable_by(|a, b| b.cmp(a));
}

/// The work-items of warp `warp`: consecutive from its first lane, so finding them costs the
/// warp's size, not the launch's.
fn warp_lanes(machine: &Machine, warp: u32) -> impl Iterator<Item = u32> + '_ {
    let first = machine.warps[warp as usize].first;
    (first..machine.items.len() as u32).take_while(move |&a| machine.items[a as usize].warp == warp)
}

/// Orders two work-items by how far they are in the program: their call stacks compared
/// frame by frame (the return positions), then their current positions. In structured code
/// the smaller position is the one behind: the start of a loop body, the `then` branch
/// before the `else`, a loop before its exit.
fn position_order(machine: &Machine, a: u32, b: u32) -> std::cmp::Ordering {
    let (x, y) = (&machine.items[a as usize], &machine.items[b as usize]);
    // A frame's `pc` is the instruction after the call; the call itself marks its position.
    let frames_x = x.frames().iter().map(|f| (f.func, f.pc.saturating_sub(1))).chain(std::iter::once((x.func, x.pc)));
    let frames_y = y.frames().iter().map(|f| (f.func, f.pc.saturating_sub(1))).chain(std::iter::once((y.func, y.pc)));
    frames_x.cmp(frames_y)
}
