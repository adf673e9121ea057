//! An axiomatic checker for litmus tests, independent of the engine: the oracle the engine's
//! relaxed exploration is compared with.
//!
//! The engine explores a litmus test operationally (its promising-semantics model in
//! `engine/src/weak.rs`, its race detector in `engine/src/race/`). This module answers the
//! same question the other way round, from the axiomatic models the engine claims to follow:
//! it enumerates every candidate execution of a test (which write each read reads, how the
//! writes of each location are ordered) and keeps those a model deems consistent. A test's
//! allowed outcomes are the final states of its consistent executions. Nothing here calls
//! the engine; it shares no parsing, no event representation and no model code with it.
//!
//! The models, restated in Rust from their published definitions:
//!
//! - [`opencl`]: the scoped OpenCL 2.0 model of Batty, Donaldson and Wickerson ("Overhauling
//!   SC Atomics in C11 and OpenCL", POPL 2016), with separate global and local
//!   happens-before, as the Dat3M project formalises it for OpenCL, data races included;
//! - [`ptx`]: the PTX model of Lustig, Sahasrabuddhe and Giroux ("A Formal Analysis of the
//!   NVIDIA PTX Memory Consistency Model", ASPLOS 2019), in its PTX ISA 7.5 form as Dat3M
//!   formalises it.
//!
//! The parts:
//!
//! - [`program`]: a test as data (locations, threads of statements, the final condition);
//! - [`front`]: a reader of the OpenCL litmus format of `static/examples/litmus`, and
//!   [`ptx_front`] one of the PTX litmus format of the Dat3M corpus;
//! - [`family`]: the generated families of small OpenCL and PTX tests, as litmus text and
//!   as data;
//!   [`memories`]: message passing with data and flag in either memory, as litmus text;
//! - [`execution`]: the candidate executions of a test; [`relation`]: relations over them;
//! - [`opencl`], [`ptx`]: the consistency predicates.
//!
//! What is out of its reach: loops (a thread's code may only jump forward), more than 64
//! events in an execution, arrays and pointers as values, PTX's non-generic proxies, and
//! barriers that name a thread count.

pub mod execution;
pub mod family;
pub mod front;
pub mod memories;
pub mod opencl;
pub mod program;
pub mod ptx;
pub mod ptx_front;
pub mod relation;

use std::collections::BTreeSet;

pub use execution::Coherence;
use opencl::Race;
use program::{Dialect, Outcome, Test};

/// What the checker says about a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The outcomes of the consistent executions.
    pub outcomes: BTreeSet<Outcome>,
    /// The worst data race of a consistent execution.
    pub race: Race,
    /// Candidate executions enumerated, and how many of them were consistent.
    pub candidates: u64,
    pub consistent: u64,
}

/// Checks `test` under the model of its dialect. With `memory`, outcomes include every
/// location's final value; otherwise only registers.
pub fn check(test: &Test, memory: bool) -> Result<Verdict, String> {
    let coherence = match test.dialect {
        Dialect::OpenCl => Coherence::Total,
        Dialect::Ptx => Coherence::Partial,
    };
    check_with(test, memory, coherence)
}

/// Checks `test` as [`check`] does, with coherence orders of the kind `coherence` only: total
/// ones under PTX leave out what only a partial order allows.
pub fn check_with(test: &Test, memory: bool, coherence: Coherence) -> Result<Verdict, String> {
    let mut outcomes = BTreeSet::new();
    let mut race = Race::None;
    let mut consistent = 0;
    let candidates = execution::for_each(test, coherence, &mut |x| {
        let ok = match test.dialect {
            Dialect::OpenCl => {
                let j = opencl::judge(x);
                if j.consistent {
                    race = race.max(j.race);
                }
                j.consistent
            }
            Dialect::Ptx => {
                let j = ptx::judge(x);
                if j.consistent {
                    race = race.max(j.race);
                }
                j.consistent
            }
        };
        if ok {
            consistent += 1;
            outcomes.extend(x.outcomes(memory));
        }
    })?;
    Ok(Verdict { outcomes, race, candidates, consistent })
}
