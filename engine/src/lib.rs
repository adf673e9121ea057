//! Interleave's engine: kernels in, traces out.
//!
//! The pipeline is `syntax` (lexing and parsing into a spanned AST) → `lower` (name
//! resolution, types, lowering to the register IR in `ir`) → `exec` (work-items as resumable
//! state machines over simulated memory) driven by `sched`, with every shared-memory event
//! recorded in a [`trace::EventLog`]. A [`session::Session`] ties these together for the CLI
//! and the app.
//!
//! The engine does no I/O and has no web dependency: it builds for the native target and for
//! `wasm32-unknown-unknown` alike, and all nondeterminism comes from the scenario's seed.
//!
//! No `unsafe` code but one cache hint ([`exec`]'s `prefetch`), which reads nothing the
//! program sees: the lint below keeps it that way.

#![deny(unsafe_code)]

pub mod compare;
pub mod diag;
pub mod explore;
pub mod frontend;
pub mod gallery;
pub mod inspect;
pub mod lesson;
pub mod limits;
pub mod link;
pub mod litmus;
pub mod locks;
pub mod report;
pub mod scenario;
pub mod session;
pub mod shrink;
pub mod sim;
pub mod trace;
pub mod why;

mod concurrency;
mod exec;
mod ir;
mod lower;
mod pack;
mod reuse;
mod rng;
mod sched;
mod syntax;

// The kernel generator of the integration tests names the crate by its name; unit tests that
// include it (the register allocation's) need the name to resolve inside the crate too.
#[cfg(test)]
extern crate self as interleave_engine;
