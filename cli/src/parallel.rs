//! An exploration by seeds on several threads. The seeds are cut into contiguous ranges
//! (`explore::split_seeds`), a few per thread so that none waits long for the others at the
//! end; each thread explores the next range nobody has taken, and the parts are merged in
//! seed order (`explore::merge`), which gives exactly the exploration one thread makes of all
//! the seeds. The engine runs no threads of its own (it builds for wasm too): this is the
//! native counterpart of the app's exploration workers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use interleave_engine::diag::Diagnostic;
use interleave_engine::explore::{self, Config, Exploration};
use interleave_engine::scenario::Scenario;

/// The most threads `--jobs` takes.
pub const MAX_THREADS: u32 = 256;

/// Ranges per thread: enough that a thread that drew slow seeds is not left running alone.
const RANGES_PER_THREAD: usize = 4;

/// Fewer seeds than this per range are not worth a thread.
const MIN_SEEDS_PER_RANGE: u64 = 64;

/// One range's exploration, once a thread has run it.
type Part = Mutex<Option<Result<Exploration, Vec<Diagnostic>>>>;

/// The threads to use by default: one per core the machine reports.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Explores `scenario` as `config` says, with its seeds on up to `threads` threads; an
/// exhaustive search runs on this thread. The result does not depend on `threads`.
pub fn explore(scenario: &Scenario, config: Config, threads: usize) -> Result<Exploration, Vec<Diagnostic>> {
    let ranges = (config.runs / MIN_SEEDS_PER_RANGE).min((threads * RANGES_PER_THREAD) as u64) as usize;
    if config.exhaustive || threads <= 1 || ranges <= 1 {
        return explore::explore_with(scenario, config);
    }
    // The exploration as a whole is checked as one thread would check it (its limits, the
    // kernel compiling): each range alone could be within a limit the whole is over.
    explore::Explorer::new(scenario, config)?;
    let ranges = explore::split_seeds(config.first_seed, config.runs, ranges);
    let parts: Vec<Part> = ranges.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(ranges.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(first_seed, runs)) = ranges.get(i) else { break };
                let part = explore::explore_with(scenario, Config { runs, first_seed, ..config });
                // A failed range ends this thread's work; the others finish theirs.
                let failed = part.is_err();
                *parts[i].lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(part);
                if failed {
                    break;
                }
            });
        }
    });
    let mut explored = Vec::with_capacity(parts.len());
    for part in parts {
        match part.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()) {
            Some(Ok(e)) => explored.push(e),
            Some(Err(diagnostics)) => return Err(diagnostics),
            // A range no thread reached: one failed before it, and its error comes first.
            None => continue,
        }
    }
    Ok(explore::merge(&explored))
}

#[cfg(test)]
mod tests {
    use super::*;
    use interleave_engine::scenario::{ArgBinding, Dialect, MemoryModel, SchedulerKind};

    /// The same exploration on 1, 2, 3 and 8 threads: the merge of the ranges is the whole.
    #[test]
    fn the_result_does_not_depend_on_the_threads() {
        let mut s = Scenario::new(
            "__kernel void f(__global int *c, __global int *d) { int v = c[0]; d[get_global_id(0)] = v; c[0] = v + 1; }",
            "f.cl",
            Dialect::OpenCl,
        );
        s.launch.global = vec![3];
        s.memory_model = MemoryModel::Relaxed;
        s.args = vec![ArgBinding::parse("c=int[1]").unwrap(), ArgBinding::parse("d=int[3]").unwrap()];
        let config = Config { runs: 700, first_seed: 11, exhaustive: false, max_preemptions: None };
        for scheduler in [SchedulerKind::Random, SchedulerKind::Pct] {
            s.scheduler = scheduler;
            let one = explore(&s, config, 1).unwrap();
            assert!(one.outcomes.len() > 1 && !one.findings.is_empty());
            assert_eq!(one.pct.is_some(), scheduler == SchedulerKind::Pct);
            for threads in [2, 3, 8] {
                assert_eq!(explore(&s, config, threads).unwrap(), one, "{} on {threads} threads", scheduler.name());
            }
        }
    }

    /// More runs than the limit allows are refused as on one thread, though every range
    /// alone would be within it.
    #[test]
    fn the_runs_limit_holds_for_the_whole_exploration() {
        let s = Scenario::new("__kernel void f(__global int *c) { c[0] = 1; }", "f.cl", Dialect::OpenCl);
        let runs = interleave_engine::limits::EXPLORATION_RUNS.max + 1;
        let config = Config { runs, first_seed: 0, exhaustive: false, max_preemptions: None };
        let one = explore(&s, config, 1).unwrap_err();
        assert_eq!(explore(&s, config, 2).unwrap_err(), one);
    }

    /// A scenario that does not compile fails once, with the engine's diagnostics.
    #[test]
    fn a_kernel_that_does_not_compile_fails_as_on_one_thread() {
        let s = Scenario::new("__kernel void f( {", "f.cl", Dialect::OpenCl);
        let config = Config { runs: 1000, first_seed: 0, exhaustive: false, max_preemptions: None };
        let one = explore(&s, config, 1).unwrap_err();
        assert_eq!(explore(&s, config, 4).unwrap_err(), one);
    }
}
