// ARGS: --global 4 --local 2 --resident-groups 1 --arg lock=int[1] --arg flag=int[1] --sched round-robin
// The holder of the lock waits for a flag that only work-group 1 sets, but with one resident
// group, group 1 starts only when group 0 finishes: the livelock names the lock, its holder
// and the flag the holder waits for, which no resident work-item changes.
__kernel void wait_inside(__global int *lock, __global int *flag)
{
    if (get_group_id(0) == 1) {
        atomic_xchg(flag, 1);
        return;
    }
    while (atomic_cmpxchg(lock, 0, 1) != 0)
        ;
    while (atomic_add(flag, 0) == 0)
        ;
    atomic_xchg(lock, 0);
}
