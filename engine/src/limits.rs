//! Every resource limit of a run, in one place: what it bounds, its default, its hard maximum,
//! and the scenario field, CLI flag and launch-panel field that set it.
//!
//! Kernels, launches, `.sim` files and share links come from strangers, so each resource a run
//! can consume is bounded. A scenario may raise a limit up to its hard maximum and no further:
//! a value above it (or zero) is refused before launch by
//! [`crate::scenario::Scenario::check_limits`]. Exceeding a limit during
//! a run stops the run with a `step-limit` finding whose message names the limit and says how
//! to raise it ([`Limit::exceeded`]); exceeding one at launch (too many work-items, too much
//! memory) is a diagnostic that does the same. The hard maxima keep the worst case of one run
//! within what a browser tab can hold (a 32-bit wasm address space of 4 GiB).

use crate::diag::Diagnostic;

/// One resource limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What it bounds, for people ("steps", "work-items").
    pub name: &'static str,
    /// The scenario field (TOML and share links) that sets it.
    pub field: &'static str,
    /// The `interleave run` flag that sets it.
    pub flag: &'static str,
    /// The label of its field in the launch panel's "More settings" (empty when the panel
    /// does not set it).
    pub label: &'static str,
    /// The unit its values count.
    pub unit: &'static str,
    /// The value a scenario gets when it does not say.
    pub default: u64,
    /// The largest value a scenario may set.
    pub max: u64,
}

/// Steps of one run (each step is one scheduling decision).
pub const STEPS: Limit =
    Limit { name: "steps", field: "max_steps", flag: "--max-steps", label: "Max steps", unit: "steps", default: 1_000_000, max: 100_000_000 };

/// Instructions one work-item may run between two shared-memory events (an endless private
/// loop).
pub const INSTRUCTIONS_PER_STEP: Limit = Limit {
    name: "instructions per step",
    field: "max_instructions_per_step",
    flag: "--max-instructions-per-step",
    label: "Max instructions per step",
    unit: "instructions",
    default: 10_000_000,
    max: 1_000_000_000,
};

/// Work-items of one launch.
pub const WORK_ITEMS: Limit = Limit {
    name: "work-items",
    field: "max_work_items",
    flag: "--max-work-items",
    label: "Max work-items",
    unit: "work-items",
    default: 1 << 22,
    max: 1 << 24,
};

/// Bytes one launch holds: global, constant, local and heap memory, and each work-item's and
/// group's own state (registers, private memory, records), charged before they are allocated
/// (see `exec::launch`); a run whose work-items grow past it stops.
pub const MEMORY_BYTES: Limit = Limit {
    name: "memory",
    field: "max_memory_bytes",
    flag: "--max-memory-bytes",
    label: "Max memory (bytes)",
    unit: "bytes",
    default: 256 << 20,
    max: 1 << 30,
};

/// Bytes of printf output one run keeps.
pub const PRINTF_BYTES: Limit = Limit {
    name: "printf output",
    field: "max_printf_bytes",
    flag: "--max-printf-bytes",
    label: "Max printf output (bytes)",
    unit: "bytes",
    default: 1 << 20,
    max: 64 << 20,
};

/// Events the run's history (the trace the timeline draws and stepping back replays) keeps;
/// about 64 bytes each.
pub const HISTORY_EVENTS: Limit = Limit {
    name: "trace history",
    field: "max_history_events",
    flag: "--max-history-events",
    label: "Max history events",
    unit: "events",
    default: 4_000_000,
    max: 8_000_000,
};

/// Runs of one exploration (seeds sampled, or executions enumerated with `--exhaustive`).
pub const EXPLORATION_RUNS: Limit =
    Limit { name: "exploration runs", field: "runs", flag: "--runs", label: "Seeds", unit: "runs", default: 100, max: 10_000_000 };

/// Every limit, in the order the documentation and the launch panel list them.
pub const ALL: [Limit; 7] = [STEPS, INSTRUCTIONS_PER_STEP, WORK_ITEMS, MEMORY_BYTES, PRINTF_BYTES, HISTORY_EVENTS, EXPLORATION_RUNS];

/// The nesting depth of helper-function calls; fixed, as deep recursion is a bug in a kernel.
pub const CALL_DEPTH: u32 = 256;

impl Limit {
    /// How to raise this limit, as a sentence.
    pub fn how_to_raise(&self) -> String {
        let panel = if self.label.is_empty() { String::new() } else { format!(", or \"{}\" in the launch panel's More settings", self.label) };
        format!("raise it with `{} N` (CLI), `{} = N` (scenario file){panel}, up to {}", self.flag, self.field, thousands(self.max))
    }

    /// The sentence that ends a run stopped at this limit, after `what` happened: names the
    /// limit, its value and how to raise it (or that it is at its hard maximum).
    pub fn exceeded(&self, value: u64, what: &str) -> String {
        if value >= self.max {
            format!("{what}: the {} limit ({} = {}) is at its hard maximum", self.name, self.field, thousands(value))
        } else {
            format!("{what}: the {} limit ({} = {}); {}", self.name, self.field, thousands(value), self.how_to_raise())
        }
    }

    /// A launch that needs `needed` of this resource while the scenario allows `value`: the
    /// diagnostic refusing it, with how to raise the limit or, past the hard maximum, that it
    /// cannot run.
    pub fn refused(&self, needed: u64, value: u64, what: &str) -> Diagnostic {
        let message = format!("{what} needs {} {}, more than the {} limit of {} ({})", thousands(needed), self.unit, self.name, thousands(value), self.field);
        let help = if needed > self.max {
            format!("that is above the hard maximum of {} {}, so this launch cannot run; make it smaller", thousands(self.max), self.unit)
        } else {
            self.how_to_raise()
        };
        Diagnostic::error("resource-limit", message).with_help(help)
    }

    /// Checks a value a scenario sets: at least 1 and at most the hard maximum.
    pub fn check(&self, value: u64) -> Result<(), Diagnostic> {
        if value == 0 {
            return Err(Diagnostic::error("resource-limit", format!("`{}` must be at least 1", self.field))
                .with_help(format!("the default is {}", thousands(self.default))));
        }
        if value > self.max {
            return Err(Diagnostic::error(
                "resource-limit",
                format!("`{}` is {}, above its hard maximum of {} {}", self.field, thousands(value), thousands(self.max), self.unit),
            )
            .with_help(format!("the {} limit can be raised up to {}; the default is {}", self.name, thousands(self.max), thousands(self.default))));
        }
        Ok(())
    }
}

/// `n` with thousands separators, as the messages print numbers (`4,194,304`).
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_is_within_its_maximum() {
        for limit in ALL {
            assert!(1 <= limit.default && limit.default <= limit.max, "{}", limit.name);
            assert!(limit.field.starts_with("max_") || limit.field == "runs");
            assert!(limit.flag.starts_with("--"));
        }
    }

    #[test]
    fn values_out_of_range_are_refused_with_the_maximum() {
        assert!(WORK_ITEMS.check(WORK_ITEMS.max).is_ok());
        let too_many = WORK_ITEMS.check(WORK_ITEMS.max + 1).unwrap_err();
        assert!(too_many.message.contains("16,777,216"), "{}", too_many.message);
        assert!(STEPS.check(0).is_err());
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(100_000_000), "100,000,000");
    }

    #[test]
    fn a_refusal_says_how_to_raise_the_limit_or_that_it_cannot_be() {
        let raisable = WORK_ITEMS.refused(5_000_000, WORK_ITEMS.default, "this launch");
        assert!(raisable.help.as_deref().is_some_and(|h| h.contains("--max-work-items")));
        let impossible = WORK_ITEMS.refused(100_000_000, WORK_ITEMS.default, "this launch");
        assert!(impossible.help.as_deref().is_some_and(|h| h.contains("hard maximum")));
    }
}
