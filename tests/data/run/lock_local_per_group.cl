// ARGS: --global 8 --local 4 --arg sums=int[2] --seed 7 --json
// A lock in local memory: each work-group has its own, so the report shows two locks, one per
// group, each taken by all four of its work-items. The lock is initialised with a plain store
// of 0 before the barrier, which is not a release. OpenCL 1.x atomics are relaxed, so fences
// after the acquire and before the release order the critical sections.
__kernel void local_lock(__global int *sums)
{
    __local int lock;
    __local int sum;
    if (get_local_id(0) == 0) {
        lock = 0;
        sum = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    while (atomic_xchg(&lock, 1) != 0)
        ;
    mem_fence(CLK_LOCAL_MEM_FENCE);
    sum += get_local_id(0) + 1;
    mem_fence(CLK_LOCAL_MEM_FENCE);
    atomic_xchg(&lock, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        sums[get_group_id(0)] = sum;
}
