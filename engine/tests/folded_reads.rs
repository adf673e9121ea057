//! The observable granularity performs a read of memory nothing can write (constant memory,
//! a read-only buffer) in the step before it instead of as a step of its own. That is sound
//! only if it removes no outcome and adds none: on generated kernels that mix such reads with
//! plain and atomic accesses of shared memory and barriers, the exhaustive exploration under
//! `observable` must reach exactly the final memory states, and report exactly the findings,
//! that it reaches under `event`, where every read is a step. Checked under sequential
//! consistency and the relaxed model, and under lockstep warps. Each kernel's first event is
//! a store, so that the read after it always rides in that step.
#![cfg(not(target_arch = "wasm32"))]

use interleave_engine::explore::{explore_with, Config, Exploration};
use interleave_engine::scenario::{ArgBinding, Granularity, MemoryModel, Scenario, SchedulerKind};
use std::collections::BTreeSet;

/// A small deterministic generator, so that a failure names its kernel by number.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// One statement of a generated kernel: `r` is the work-item's running value, `g` its index.
fn statement(rng: &mut Lcg) -> String {
    let k = rng.below(4);
    match rng.below(9) {
        0 => format!("r += in[(g + {k}) % 4];"),
        1 => format!("r += table[(g + {k}) % 4];"),
        2 => format!("if (in[g] > {k}) r += 1;"),
        3 => format!("shared[{}] = r + {k};", k % 2),
        4 => format!("r += shared[{}];", k % 2),
        5 => format!("r += atomic_add(&shared[{}], r + 1);", 2 + k % 2),
        6 => format!("while (table[(g + {k}) % 4] > 10 + r) r += 1;"),
        7 => format!("for (int i = 0; i < 3 && in[(g + i + {k}) % 4] != 0; i++) r += i;"),
        _ => "barrier(CLK_GLOBAL_MEM_FENCE);".to_string(),
    }
}

fn kernel(rng: &mut Lcg) -> String {
    let body: Vec<String> = (0..2 + rng.below(3)).map(|_| format!("    {}", statement(rng))).collect();
    format!(
        "__constant int table[4] = {{3, 1, 4, 1}};\n\
         __kernel void k(__global const int *in, __global int *shared, __global int *out) {{\n\
         \x20   int g = get_global_id(0);\n\
         \x20   out[g] = 0;\n\
         \x20   int r = in[g];\n\
         {}\n\
         \x20   out[g] = r;\n\
         }}\n",
        body.join("\n")
    )
}

fn scenario(source: String, granularity: Granularity, model: MemoryModel, lockstep: bool) -> Scenario {
    let mut s = Scenario::new(source, "folded.cl", interleave_engine::scenario::Dialect::OpenCl);
    s.launch.global = vec![2];
    s.launch.local = Some(vec![2]);
    s.args = ["in=int[4]:values=2,0,5,1:ro", "shared=int[4]", "out=int[2]"].iter().map(|a| ArgBinding::parse(a).expect("a valid argument")).collect();
    s.granularity = granularity;
    s.memory_model = model;
    s.max_steps = 200;
    if lockstep {
        s.scheduler = SchedulerKind::Lockstep;
        s.warp_size = 2;
    }
    s
}

/// What an exploration concluded: its final states and its findings (kind and place).
fn verdict(e: &Exploration) -> (BTreeSet<String>, BTreeSet<String>) {
    let outcomes = e.outcomes.iter().map(|o| format!("{:?}", o.values)).collect();
    let findings = e.findings.iter().map(|f| format!("{} at {}:{}", f.finding.kind.as_str(), f.finding.line, f.finding.column)).collect();
    (outcomes, findings)
}

#[test]
fn folding_unwritable_reads_changes_no_outcome_and_no_finding() {
    const KERNELS: u64 = 60;
    let mut compared = 0;
    let mut folded_fewer_steps = 0;
    for n in 0..KERNELS {
        let source = kernel(&mut Lcg(n * 7919 + 1));
        let (model, lockstep) = match n % 3 {
            0 => (MemoryModel::Sc, false),
            1 => (MemoryModel::Relaxed, false),
            _ => (MemoryModel::Sc, true),
        };
        let explore = |granularity| {
            let s = scenario(source.clone(), granularity, model, lockstep);
            explore_with(&s, Config { runs: 20_000, first_seed: 0, exhaustive: true, max_preemptions: None })
                .unwrap_or_else(|d| panic!("kernel {n}: {d:?}\n{source}"))
        };
        let (every, folded) = (explore(Granularity::Event), explore(Granularity::Observable));
        if !(every.complete && folded.complete) {
            continue;
        }
        compared += 1;
        assert_eq!(verdict(&folded), verdict(&every), "kernel {n} ({model:?}, lockstep {lockstep}): observable against event\n{source}");
        // The folding happened: a session under each granularity takes fewer steps folded.
        let steps = |granularity| {
            let mut session = interleave_engine::session::Session::new(scenario(source.clone(), granularity, model, lockstep)).expect("a valid scenario");
            session.run(u64::MAX);
            session.steps()
        };
        if steps(Granularity::Observable) < steps(Granularity::Event) {
            folded_fewer_steps += 1;
        }
    }
    assert!(compared >= KERNELS * 3 / 4, "only {compared} of {KERNELS} kernels were explored completely under both granularities");
    assert!(folded_fewer_steps == compared, "only {folded_fewer_steps} of {compared} kernels took fewer steps folded");
}
