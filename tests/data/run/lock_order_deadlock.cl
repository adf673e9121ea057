// ARGS: --global 2 --local 1 --arg a=int[1] --arg b=int[1] --sched round-robin
// Two locks taken in opposite orders: work-item 0 holds `a` and spins for `b`, work-item 1
// holds `b` and spins for `a`. The livelock names both locks and who holds each.
__kernel void opposite(__global int *a, __global int *b)
{
    __global int *first = get_global_id(0) == 0 ? a : b;
    __global int *second = get_global_id(0) == 0 ? b : a;
    while (atomic_cmpxchg(first, 0, 1) != 0)
        ;
    while (atomic_cmpxchg(second, 0, 1) != 0)
        ;
    atomic_xchg(second, 0);
    atomic_xchg(first, 0);
}
