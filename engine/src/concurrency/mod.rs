//! The two judges of shared memory, side by side: what a run may do and whether what it did
//! was defined.
//!
//! - [`race`] decides data races: every shared access is checked against what its agent
//!   knows has happened before it (vector clocks with barrier counts, after Lamport 1978 and
//!   Fidge and Mattern 1988), and against the earlier accesses to its word that no later one
//!   covers (FastTrack's epochs and read sets, Flanagan and Freund 2009, extended so that
//!   every racing pair of source places is reported). Scopes bound what a release publishes
//!   and an acquire learns.
//! - [`weak`] is the relaxed memory model: which write each load may read and which writes a
//!   work-item may promise ahead of program order, operationally (views and message
//!   histories in the style of the promising semantics, Kang et al. 2017, certified per
//!   work-item), under OpenCL 2.0's model as Dat3M formalises it and under PTX's.
//!
//! The seam is the machine (`exec`): it reports every access, fence, barrier and
//! synchronisation to both, [`race::Races`] and [`weak::Weak`], and asks the relaxed model
//! which values a load may read. Neither calls the interpreter back. The relaxed model keeps
//! the race detector's release record (`race::shadow::Release`) with each write it holds, so
//! that a write read late still publishes what its writer knew when it wrote; the race
//! detector knows nothing of the relaxed model.

pub mod race;
pub mod weak;
