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
    RoundRobin { last: u32 },
    Random,
    /// Keeps stepping the same work-item until it blocks, spins or finishes.
    RunToBlock { current: Option<u32> },
    /// PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte: "A Randomized Scheduler with
    /// Probabilistic Guarantees of Finding Bugs", ASPLOS 2010): distinct random priorities,
    /// always the highest-priority ready work-item, and at `depth - 1` random steps the
    /// running work-item drops below everyone. A work-item found spinning drops below
    /// everyone too, so a busy-wait cannot starve the work-item it waits for.
    Pct { priority: Vec<u64>, change_points: Vec<u64>, next_low: u64 },
    /// SIMT: a warp is chosen at random, and its ready lanes that are furthest behind in the
    /// program (the smallest call-stack position) step one after another, as the lanes of
    /// one instruction. Lanes that diverged wait until the lanes behind them catch up, which
    /// is how a warp reconverges (the "minimum PC" policy), and why a lane spinning on a lock
    /// held by another lane of its warp can spin forever.
    Lockstep {
        /// The lanes of the current instruction still to step, last first.
        queue: Vec<u32>,
        /// All lanes of the current instruction, handed to the race detector when it is
        /// complete: lanes executing one instruction in lockstep are ordered with each other
        /// (the warp-synchronous model of GPUs without independent thread scheduling).
        lanes: Vec<u32>,
        /// Whether the last pick completed an instruction.
        completed: bool,
    },
    /// The caller's list of work-items, one per step; the run pauses where it ends.
    Manual { schedule: std::rc::Rc<[u32]>, next: usize },
}

/// The lowest initial PCT priority: below it there is room for a demotion at every step of
/// the longest run.
const PCT_LOWEST_INITIAL: u64 = 1 << 62;

impl Scheduler {
    pub fn new(scenario: &Scenario, machine: &Machine, rng: &mut Rng, expected_steps: u64) -> Scheduler {
        match scenario.scheduler {
            SchedulerKind::RoundRobin => Scheduler::RoundRobin { last: u32::MAX },
            SchedulerKind::Random => Scheduler::Random,
            SchedulerKind::RunToBlock => Scheduler::RunToBlock { current: None },
            SchedulerKind::Lockstep => Scheduler::Lockstep { queue: Vec::new(), lanes: Vec::new(), completed: false },
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
                Scheduler::Pct { priority, change_points, next_low: PCT_LOWEST_INITIAL }
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
                let pick = (0..n)
                    .map(|k| (start + k) % n)
                    .find(|&agent| machine.ready_pos[agent as usize] != u32::MAX)
                    .unwrap_or(ready[0]);
                *last = pick;
                pick
            }
            Scheduler::RunToBlock { current } => {
                let n = machine.items.len() as u32;
                // A work-item known to spin is blocked on a value as surely as one at a barrier
                // is blocked on its group: run-to-block moves on from it, or it would spin for
                // ever while the work-item it waits for never runs.
                let spins = |agent: u32| agent < n && machine.is_spinning(agent);
                let pick = match *current {
                    Some(agent) if machine.ready_pos[agent as usize] != u32::MAX && !machine.released && !spins(agent) => agent,
                    _ => ready.iter().copied().filter(|&a| !spins(a)).min().unwrap_or_else(|| *ready.iter().min().unwrap_or(&ready[0])),
                };
                *current = Some(pick);
                pick
            }
            Scheduler::Pct { priority, change_points, next_low } => {
                let n = machine.items.len() as u32;
                let mut pick = *ready.iter().max_by_key(|&&wi| priority[wi as usize]).unwrap_or(&ready[0]);
                // The spin hint: at most once per ready agent, so a step always happens.
                for _ in 0..ready.len() {
                    if pick >= n || !machine.is_spinning(pick) {
                        break;
                    }
                    *next_low = next_low.saturating_sub(1);
                    priority[pick as usize] = *next_low;
                    pick = *ready.iter().max_by_key(|&&wi| priority[wi as usize]).unwrap_or(&ready[0]);
                }
                if change_points.first() == Some(&step) {
                    change_points.remove(0);
                    *next_low = next_low.saturating_sub(1);
                    priority[pick as usize] = *next_low;
                }
                pick
            }
            Scheduler::Lockstep { queue, lanes, completed } => {
                while let Some(lane) = queue.pop() {
                    if machine.ready_pos[lane as usize] != u32::MAX {
                        *completed = queue.is_empty();
                        return Some(lane);
                    }
                }
                let agent = ready[rng.below(ready.len() as u64) as usize];
                if agent as usize >= machine.items.len() {
                    // A copy engine is not a lane of any warp.
                    return Some(agent);
                }
                let warp = machine.items[agent as usize].warp;
                let mut group: Vec<u32> = ready
                    .iter()
                    .copied()
                    .filter(|&a| (a as usize) < machine.items.len() && machine.items[a as usize].warp == warp)
                    .collect();
                let behind = group.iter().copied().min_by(|&a, &b| position_order(machine, a, b)).unwrap_or(agent);
                group.retain(|&a| position_order(machine, a, behind) == std::cmp::Ordering::Equal);
                // Lanes step in lane order: the queue is popped from the back.
                group.sort_unstable_by(|a, b| b.cmp(a));
                lanes.clear();
                lanes.extend_from_slice(&group);
                let first = group.pop().unwrap_or(agent);
                *completed = group.is_empty();
                *queue = group;
                first
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

    /// Whether this scheduler could ever pick ready work-item `wi` in the machine's present
    /// state. Only lockstep holds lanes back: a lane ahead of others of its warp waits for
    /// them, so lanes spinning behind it starve it for as long as they spin.
    pub fn could_pick(&self, machine: &Machine, wi: u32) -> bool {
        match self {
            Scheduler::Lockstep { .. } => {
                let warp = machine.items[wi as usize].warp;
                !machine.ready.iter().any(|&a| {
                    (a as usize) < machine.items.len()
                        && machine.items[a as usize].warp == warp
                        && position_order(machine, a, wi) == std::cmp::Ordering::Less
                })
            }
            _ => true,
        }
    }
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
