//! PCT's probabilistic guarantee for an exploration by seeds under the PCT scheduler.
//!
//! Burckhardt, Kothari, Musuvathi and Nagarakatte ("A Randomized Scheduler with Probabilistic
//! Guarantees of Finding Bugs", ASPLOS 2010): with `n` agents and priority change points drawn
//! uniformly from `k` steps, one run finds a given bug of depth `d` (one that `d` ordering
//! constraints between steps expose) with probability at least `1 / (n k^(d-1))`, provided the
//! runs are at most `k` steps long; `R` independent runs find it with probability at least
//! `1 - (1 - p)^R`. The scheduler (`crate::sched`) draws its change points from the first
//! `k` steps it expects, so `k` here is that range, and the bound holds only while no run is
//! longer (a depth-one bug needs no change point and is always covered).

use serde::{Deserialize, Serialize};

/// What the bound needs from a PCT exploration's runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PctRuns {
    /// Agents the scheduler gives priorities to (work-items, and groups' copy engines).
    pub agents: u64,
    pub depth: u32,
    /// The steps the change points are drawn from.
    pub change_steps: u64,
    /// The most steps any run took.
    pub longest_run: u64,
}

/// The guarantee, or why there is none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PctBound {
    /// One run finds a given bug of depth `depth` with probability at least `per_run`; all
    /// of them together with at least `over_runs`.
    Holds { agents: u64, steps: u64, depth: u32, per_run: f64, over_runs: f64 },
    /// A run was longer than the steps the change points are drawn from: a bug whose
    /// constraints fall after them may never be found.
    LongerRuns { depth: u32, change_steps: u64, longest_run: u64 },
}

/// The bound for `runs` runs as `pct` describes them.
pub fn bound(pct: &PctRuns, runs: u64) -> PctBound {
    let PctRuns { agents, depth, change_steps, longest_run } = *pct;
    if depth > 1 && longest_run > change_steps {
        return PctBound::LongerRuns { depth, change_steps, longest_run };
    }
    let n = agents.max(1) as f64;
    let k = change_steps.max(1) as f64;
    let per_run = 1.0 / (n * k.powi(depth.saturating_sub(1) as i32));
    // 1 - (1 - p)^R, computed as -expm1(R ln(1 - p)) so that a tiny p does not round to 0.
    let over_runs = -((runs as f64) * (-per_run).ln_1p()).exp_m1();
    PctBound::Holds { agents, steps: change_steps, depth, per_run, over_runs }
}

/// A probability for people: a percentage, or a power of ten when it is tiny.
pub fn percent(p: f64) -> String {
    if p >= 0.001 {
        let s = format!("{:.1}", p * 100.0);
        // Never round a lower bound up to certainty.
        if s == "100.0" && p < 1.0 {
            "99.9%".to_string()
        } else {
            format!("{s}%")
        }
    } else {
        format!("{:.1e}", p)
    }
}

/// The bound in one sentence, as the CLI and the app show it.
pub fn describe(bound: &PctBound, runs: u64) -> String {
    match *bound {
        PctBound::Holds { agents, steps, depth, per_run, over_runs } => format!(
            "PCT (depth {depth}): each run finds a given bug of depth {depth} with probability at least {} (1/(n·k^{}) with n = {agents} scheduled agents, k = {steps} steps); {runs} runs find it with probability at least {}",
            percent(per_run),
            depth - 1,
            percent(over_runs)
        ),
        PctBound::LongerRuns { depth, change_steps, longest_run } => format!(
            "PCT (depth {depth}): no probability bound, as runs of up to {longest_run} steps are longer than the {change_steps} steps its priority change points are drawn from"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_is_burckhardts() {
        let pct = PctRuns { agents: 4, depth: 3, change_steps: 10, longest_run: 10 };
        let PctBound::Holds { per_run, over_runs, .. } = bound(&pct, 100) else { panic!("the runs fit") };
        assert!((per_run - 1.0 / 400.0).abs() < 1e-15);
        assert!((over_runs - (1.0 - (1.0 - 1.0 / 400.0f64).powi(100))).abs() < 1e-12);
        // Depth one needs no change point: the run length does not matter.
        let shallow = PctRuns { agents: 5, depth: 1, change_steps: 10, longest_run: 1000 };
        assert!(matches!(bound(&shallow, 1), PctBound::Holds { per_run, .. } if (per_run - 0.2).abs() < 1e-15));
        assert!(matches!(bound(&PctRuns { longest_run: 11, ..pct }, 100), PctBound::LongerRuns { .. }));
        assert_eq!(percent(0.9999999), "99.9%");
        assert_eq!(percent(0.25), "25.0%");
        assert_eq!(percent(0.00002), "2.0e-5");
    }
}
