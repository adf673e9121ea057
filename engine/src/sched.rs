//! Schedulers: which ready work-item performs the next step.
//!
//! Every choice draws from the run's [`Rng`], so a scenario and a seed fix the schedule.
//! The candidates are agents: work-items and the work-groups' async-copy engines.
//! Schedulers see only the machine's ready set and statuses; they never look at values, so
//! they cannot make a run depend on anything but the seed.

use crate::exec::Machine;
use crate::rng::Rng;
use crate::scenario::SchedulerKind;

/// Scheduler state.
#[derive(Clone, Debug)]
pub enum Scheduler {
    /// The next ready work-item after the previous one, in index order.
    RoundRobin { last: u32 },
    Random,
    /// Keeps stepping the same work-item until it blocks or finishes.
    RunToBlock { current: Option<u32> },
    /// PCT (Burckhardt, Kothari, Musuvathi, Nagarakatte: "A Randomized Scheduler with
    /// Probabilistic Guarantees of Finding Bugs", ASPLOS 2010): distinct random priorities,
    /// always the highest-priority ready work-item, and at `depth - 1` random steps the
    /// running work-item drops below everyone.
    Pct { priority: Vec<u64>, change_points: Vec<u64>, next_low: u64 },
}

/// The default PCT depth (bugs of depth up to 3 are found with good probability).
pub const DEFAULT_PCT_DEPTH: u32 = 3;

impl Scheduler {
    pub fn new(kind: SchedulerKind, machine: &Machine, rng: &mut Rng, expected_steps: u64) -> Scheduler {
        match kind {
            SchedulerKind::RoundRobin => Scheduler::RoundRobin { last: u32::MAX },
            SchedulerKind::Random | SchedulerKind::Lockstep => Scheduler::Random,
            SchedulerKind::RunToBlock => Scheduler::RunToBlock { current: None },
            SchedulerKind::Pct => {
                let n = machine.ready_pos.len();
                // A random permutation of high priorities (Fisher-Yates), one per agent.
                let mut priority: Vec<u64> = (0..n as u64).map(|p| p + n as u64).collect();
                for i in (1..n).rev() {
                    let j = rng.below(i as u64 + 1) as usize;
                    priority.swap(i, j);
                }
                let mut change_points: Vec<u64> =
                    (1..DEFAULT_PCT_DEPTH).map(|_| 1 + rng.below(expected_steps.max(1))).collect();
                change_points.sort_unstable();
                Scheduler::Pct { priority, change_points, next_low: n as u64 }
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
                let pick = match *current {
                    Some(agent) if machine.ready_pos[agent as usize] != u32::MAX && !machine.released => agent,
                    _ => *ready.iter().min().unwrap_or(&ready[0]),
                };
                *current = Some(pick);
                pick
            }
            Scheduler::Pct { priority, change_points, next_low } => {
                let pick = *ready.iter().max_by_key(|&&wi| priority[wi as usize]).unwrap_or(&ready[0]);
                if change_points.first() == Some(&step) {
                    change_points.remove(0);
                    *next_low = next_low.saturating_sub(1);
                    priority[pick as usize] = *next_low;
                }
                pick
            }
        })
    }
}
