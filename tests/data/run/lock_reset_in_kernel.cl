// ARGS: --global 4 --local 4 --arg locks=int[1] --arg inside=int[1] --arg most=int[1] --sched round-robin --json
// A lock "initialised" inside the kernel: work-item 3 clears it with atomic_xchg after the
// others have started to use it. That release by a non-holder lets a second work-item acquire
// the lock while the first is still in its critical section: mutual exclusion fails
// (max_holders 2, a lock-misuse error), and `most` records two work-items inside at once.
__kernel void reset_lock(__global int *locks, __global int *inside, __global int *most)
{
    if (get_local_id(0) == 3)
        atomic_xchg(&locks[0], 0);
    while (atomic_cmpxchg(&locks[0], 0, 1) != 0)
        ;
    int now = atomic_inc(&inside[0]) + 1;
    atomic_max(&most[0], now);
    atomic_dec(&inside[0]);
    atomic_xchg(&locks[0], 0);
}
