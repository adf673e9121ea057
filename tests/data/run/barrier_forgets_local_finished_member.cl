// ARGS: --global 4 --local 4 --arg out=int[4] --sched round-robin --json
// Work-item 3 fills its slot and returns before the barrier the others pass (barrier
// divergence). Its store is not ordered by that barrier, so the race detector must keep it:
// work-item 2's read of tile[3] after the barrier races with it.
__kernel void finished_member(__global int *out)
{
    __local int tile[4];
    int l = get_local_id(0);
    tile[l] = l;
    if (l == 3)
        return;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = tile[l + 1];
}
