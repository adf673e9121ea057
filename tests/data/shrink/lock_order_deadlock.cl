// ARGS: --global 2 --local 1 --arg a=int[1] --arg b=int[1] --seed 5
// Two locks taken in opposite orders hang when each work-item takes its first lock before
// the other takes its second; seed 5's run hangs after 17 steps. One preemption suffices.
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
