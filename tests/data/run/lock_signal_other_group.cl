// ARGS: --global 2 --local 1 --arg flag=int[1] --arg done=int[1] --seed 1 --json
// The protocol of the inter-work-group reduction in seed 003, reduced to two work-groups:
// group 0 takes the lock with atomic_or, group 1 releases it with atomic_xchg, and group 0
// polls it with atomic_add(.., 0) until it is free again. The lock is a signal: it is released
// by a work-item that does not hold it, which is reported as a lock-misuse warning (nobody
// else ever acquires it, so mutual exclusion never fails and there is no error).
__kernel void signal(__global int *flag, __global int *done)
{
    if (get_group_id(0) == 0) {
        atomic_or(&flag[0], 1);
        while (atomic_add(&flag[0], 0) != 0)
            ;
        atomic_inc(&done[0]);
    } else {
        while (atomic_add(&done[0], 0) == 0 && atomic_add(&flag[0], 0) == 0)
            ;
        atomic_xchg(&flag[0], 0);
    }
}
