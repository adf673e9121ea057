// ARGS: --global 8 --local 4 --arg count=int[1]:fill=0 --memory-model relaxed --runs 200
// A counter incremented by a relaxed weak compare-exchange retry loop, under the relaxed model:
// the first attempt may read an older value (its comparison then fails and it writes nothing)
// or fail spuriously, and the retry reads again. A failed attempt leaves memory holding the
// latest write, so no increment is ever lost: every run ends with count = 8 (a failed attempt
// that wrote the older value it read back to memory once lost up to three).
__kernel void count_up(__global atomic_int *count)
{
    int old = atomic_load_explicit(count, memory_order_relaxed, memory_scope_device);
    while (!atomic_compare_exchange_weak_explicit(count, &old, old + 1, memory_order_relaxed,
                                                  memory_order_relaxed, memory_scope_device))
        ;
}
