//! What each kind of finding means and how such bugs are usually fixed: the "explain" text the
//! findings list opens under a finding.
//!
//! The engine decides what is a finding and says what happened in its message; this module
//! only adds the background a learner needs to act on it. Every kind the engine reports has a
//! text (a test walks the whole enum through its stable names), so a new kind cannot reach the
//! page unexplained.

use interleave_engine::report::FindingKind;

/// The background of one kind of finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// What the finding means, in one or two sentences.
    pub meaning: &'static str,
    /// How bugs of this kind are usually fixed.
    pub fix: &'static str,
}

/// The explanation of `kind`.
pub fn explain(kind: FindingKind) -> Explanation {
    let (meaning, fix) = match kind {
        FindingKind::DataRace => (
            "Two work-items accessed the same memory, at least one of them writing, and nothing \
             ordered the two accesses: no barrier between them, no release/acquire pair, and \
             they were not both atomic. The value read or left behind depends on the schedule.",
            "Separate the accesses with a barrier when they are in the same work-group (with \
             the right memory fence flag), make both accesses atomic, or publish the data with \
             a release store and read it with an acquire load at a scope that includes both \
             work-items.",
        ),
        FindingKind::BarrierDivergence => (
            "Not every work-item of the group reached the same barrier: some took a branch \
             that the others did not. The specifications leave this undefined; on hardware it \
             hangs or silently misbehaves.",
            "Move the barrier out of the condition so that every work-item of the group \
             executes it, and keep only the work inside the branch.",
        ),
        FindingKind::AsyncCopyDivergence => (
            "An asynchronous work-group copy was not started by every work-item of the group \
             with the same arguments. The copy is a collective operation of the whole group.",
            "Call async_work_group_copy (and wait_group_events) unconditionally, with \
             arguments that are the same for the whole group.",
        ),
        FindingKind::Deadlock => (
            "No work-item could take another step: each was waiting (at a barrier, for async \
             copies, or for a group that can never become resident) for something that can no \
             longer happen.",
            "Look at who waits for whom in the message: a barrier some work-items never reach, \
             or groups that wait for groups that are not running. Inter-group waiting needs \
             every group to be resident at once, which the hardware does not promise.",
        ),
        FindingKind::Livelock => (
            "Work-items kept running but made no progress: they spin re-reading shared values \
             that nobody will change, typically waiting for a lock or a flag.",
            "Make sure the work-item that must release the lock or set the flag can run: do \
             not spin on a lock held by a work-item of the same warp or of a group that is not \
             resident, and release locks on every path.",
        ),
        FindingKind::OutOfBounds => (
            "A memory access fell outside the buffer, local array or private array it \
             addresses.",
            "Check the index computation against the buffer's length, and guard work-items \
             whose global id lies beyond the data (if (gid < n)).",
        ),
        FindingKind::NullDereference => {
            ("A pointer that is null was read or written through.", "Pass a buffer for the argument, or check the pointer before using it.")
        }
        FindingKind::UninitializedRead => (
            "A value was read before anything was written to it: a private variable, a local \
             array (local memory starts undefined) or a buffer created without contents.",
            "Initialise the variable, or fill local memory (and synchronise with a barrier) \
             before any work-item reads it.",
        ),
        FindingKind::ReadOnlyWrite => {
            ("A buffer declared read-only (or __constant) was written to.", "Write to a different buffer, or create this one read-write.")
        }
        FindingKind::WriteOnlyRead => ("A buffer declared write-only was read.", "Read the value from another buffer, or create this one read-write."),
        FindingKind::InvalidWaitEvent => (
            "wait_group_events was given an event that no async copy of this group produced.",
            "Wait only for the events returned by async_work_group_copy or its strided form.",
        ),
        FindingKind::UnwaitedEvent => (
            "An async copy was started but never waited for, so its data may not have arrived \
             when it is used.",
            "Call wait_group_events on the copy's event before reading its destination.",
        ),
        FindingKind::MisalignedAccess => (
            "An access used an address that is not aligned to the size of the type accessed.",
            "Keep pointer arithmetic in whole elements, and do not cast a pointer to a wider \
             type at an offset that is not a multiple of its size.",
        ),
        FindingKind::DivisionByZero => {
            ("An integer division or remainder divided by zero, which is undefined in C.", "Guard the divisor, or handle the zero case before dividing.")
        }
        FindingKind::SignedOverflow => (
            "A signed integer addition, subtraction or multiplication overflowed. C leaves it \
             undefined; the engine wraps around. Hashes and random generators often do it on \
             purpose, so this is a warning.",
            "Use unsigned arithmetic when wrap-around is intended, or a wider type when it is \
             not.",
        ),
        FindingKind::UndefinedFunction => (
            "A function was called that is declared but has no body here, so the call did \
             nothing and returned 0.",
            "Give the function a body in the kernel source.",
        ),
        FindingKind::UndefinedValue => (
            "A warp shuffle read a lane that did not take part in it (outside its mask), or was \
             given a width that is not a power of 2 up to the warp size. CUDA leaves the value \
             undefined; the engine gives the lane its own value. A reduction over part of a warp \
             often computes such values without using them, so this is a warning.",
            "Keep every source lane inside the mask, for example with the width argument \
             (__shfl_down_sync(0xffff, v, 1, 16)), or make sure the lanes that read outside it \
             never use what they got.",
        ),
        FindingKind::AssertionFailed => ("An assert in the kernel did not hold.", "Read the condition and the values in the inspector at the step it failed."),
        FindingKind::LockMisuse => (
            "A spin lock built from atomics was used wrongly: released by a work-item that did \
             not hold it, held by two work-items at once, or still held at the end.",
            "Take the lock with an atomic read-modify-write that reports success (compare- \
             exchange or exchange), release it with an atomic store from its holder only, and \
             release it on every path out of the critical section.",
        ),
        FindingKind::InvalidMemoryOrder => (
            "An atomic operation was given a memory order the specification forbids for it \
             (for example a release order on a load).",
            "Use acquire (or relaxed) for loads, release (or relaxed) for stores, and a \
             failure order no stronger than the success order.",
        ),
        FindingKind::ScopeMismatch => (
            "An acquire read a value released at a narrower scope than both work-items share: \
             a work-group-scope release orders nothing for another work-group.",
            "Use memory_scope_device (or a wider scope) on both sides when the work-items may \
             be in different work-groups.",
        ),
        FindingKind::RaceDetectionLimit => (
            "More work-items touched one word with nothing ordering them than the race \
             detector keeps accesses for, so it forgot the oldest; a race with one of those may \
             not be reported. The run's other findings stand.",
            "Run the kernel with fewer work-items too: a smaller launch shows the same races \
             in most kernels, and keeps every access.",
        ),
        FindingKind::StepLimit => (
            "The run stopped at the step limit: the kernel ran longer than allowed, which often \
             means an endless loop or a spin that never ends.",
            "Check loop conditions, or raise the step limit in the launch panel if the kernel \
             really needs more steps.",
        ),
        FindingKind::SyntaxError => ("The source could not be parsed.", "Fix the code at the marked position; the message says what was expected."),
        FindingKind::TypeError => (
            "The source parsed, but an expression's types do not fit together.",
            "Fix the types at the marked position, with a cast where a conversion is meant.",
        ),
        FindingKind::Unsupported => ("The kernel uses a construct the engine does not simulate.", "Rewrite that part with the constructs the examples use."),
    };
    Explanation { meaning, fix }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind the engine can report, read back through its stable name so that a new kind
    /// without an explanation fails here.
    const KINDS: &[&str] = &[
        "data-race",
        "barrier-divergence",
        "async-copy-divergence",
        "deadlock",
        "livelock",
        "out-of-bounds",
        "null-dereference",
        "uninitialized-read",
        "read-only-write",
        "write-only-read",
        "invalid-wait-event",
        "unwaited-event",
        "misaligned-access",
        "division-by-zero",
        "signed-overflow",
        "undefined-function",
        "undefined-value",
        "assertion-failed",
        "lock-misuse",
        "invalid-memory-order",
        "scope-mismatch",
        "race-detection-limit",
        "step-limit",
        "syntax-error",
        "type-error",
        "unsupported",
    ];

    #[test]
    fn every_kind_has_a_meaning_and_a_fix() {
        for name in KINDS {
            let kind: FindingKind = serde_json::from_value(serde_json::json!(name)).unwrap_or_else(|e| panic!("{name} is not a finding kind: {e}"));
            assert_eq!(kind.as_str(), *name);
            let text = explain(kind);
            assert!(text.meaning.ends_with('.'), "{name}: {}", text.meaning);
            assert!(text.fix.ends_with('.'), "{name}: {}", text.fix);
        }
    }

    #[test]
    fn explanations_differ_between_kinds() {
        let mut seen = std::collections::HashSet::new();
        for name in KINDS {
            let kind: FindingKind = serde_json::from_value(serde_json::json!(name)).unwrap();
            assert!(seen.insert(explain(kind).meaning), "{name} repeats another kind's text");
        }
    }
}
