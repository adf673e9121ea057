// ARGS: --global 8 --local 8 --arg lock=int[1] --arg count=int[1] --seed 5 --json
// An OpenCL 1.x spin lock: atomic_cmpxchg(l, 0, 1) until it wins, atomic_xchg(l, 0) to give it
// back, with fences around the critical section. Recognised, one holder at a time. One
// work-group: mem_fence has work-group scope, so across work-groups the count races
// (scope_mem_fence_across_groups).
__kernel void cas_xchg(__global int *lock, __global int *count)
{
    while (atomic_cmpxchg(lock, 0, 1) != 0)
        ;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    count[0] = count[0] + 1;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_xchg(lock, 0);
}
