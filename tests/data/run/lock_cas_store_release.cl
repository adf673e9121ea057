// ARGS: --global 8 --local 4 --arg lock=int[1] --arg count=int[1] --seed 3 --json
// A lock taken with a compare-exchange and released with a release store (OpenCL 2.0): a lock
// protocol, recognised with one holder at a time and no finding.
__kernel void cas_store(__global atomic_int *lock, __global int *count)
{
    int expected = 0;
    while (!atomic_compare_exchange_strong(lock, &expected, 1))
        expected = 0;
    count[0] = count[0] + 1;
    atomic_store_explicit(lock, 0, memory_order_release);
}
