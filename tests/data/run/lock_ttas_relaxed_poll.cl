// ARGS: --global 8 --local 4 --arg lock=int[1] --arg count=int[1] --memory-model relaxed --seed 3 --json
// A test-and-test-and-set lock: a work-item polls with a relaxed load until the lock looks
// free, and only then tries to take it with an acquire exchange. Under the relaxed model the
// poll may read an older value than the lock holds (the report's stale reads), which takes or
// gives nothing: it is still a lock, recognised with one holder at a time and no finding.
__kernel void ttas(__global atomic_int *lock, __global int *count)
{
    for (;;) {
        while (atomic_load_explicit(lock, memory_order_relaxed, memory_scope_device) != 0)
            ;
        if (atomic_exchange_explicit(lock, 1, memory_order_acquire, memory_scope_device) == 0)
            break;
    }
    count[0] = count[0] + 1;
    atomic_store_explicit(lock, 0, memory_order_release, memory_scope_device);
}
