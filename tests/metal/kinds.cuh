// The accesses a hardware litmus shape is written with. The includer defines KIND (0 plain,
// 1 volatile, 2 atomic read-modify-writes) and FENCES (bit k set: thread k's fence is there).
// The same text is compiled by nvcc into the stressed harness (harness.cu) and read by the
// engine's test of the observations (engine/tests/metal.rs), so both run one program.
#if KIND == 0
// Plain accesses: weak in PTX, a data race, and the compiler may reorder them.
#define LOAD(p) (*(p))
#define STORE(p, v) (*(p) = (v))
#elif KIND == 1
// Volatile accesses: each one happens, in program order as issued, but with no ordering
// promised between the memory locations (PTX `.volatile` is `.relaxed.sys`).
#define LOAD(p) (*(volatile int *)(p))
#define STORE(p, v) (*(volatile int *)(p) = (v))
#else
// Atomic read-modify-writes standing in for relaxed loads and stores, as pre-C++20 CUDA
// code writes them: atomicAdd(p, 0) reads, atomicExch writes.
#define LOAD(p) atomicAdd((p), 0)
#define STORE(p, v) atomicExch((p), (v))
#endif
#ifndef SCOPE
#define SCOPE 0
#endif
#if SCOPE == 1
#define FENCE(k) do { if ((FENCES >> (k)) & 1) __threadfence_block(); } while (0)
#else
#define FENCE(k) do { if ((FENCES >> (k)) & 1) __threadfence(); } while (0)
#endif
