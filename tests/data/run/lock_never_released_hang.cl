// ARGS: --global 4 --local 4 --arg lock=int[1] --arg out=int[4] --seed 0 --json
// A lock that hangs before its first release: the work-item that takes it waits at a barrier
// its group can only reach by taking the lock. The lock is recognised although it is never
// released, and the livelock names it, its holder and what the holder waits for.
__kernel void barrier_inside(__global int *lock, __global int *out)
{
    while (atomic_cmpxchg(lock, 0, 1) != 0)
        ;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_local_id(0)] = 1;
    atomic_xchg(lock, 0);
}
