// ARGS: --global 8 --local 4 --arg ids=int[8] --arg counters=int[2] --runs 200
// The default example under 200 schedules: the plain counter loses updates in every way it
// can, the atomic one never does.
__kernel void count(__global int *ids, __global int *counters)
{
    int gid = get_global_id(0);
    ids[gid] = get_local_id(0);
    barrier(CLK_GLOBAL_MEM_FENCE);
    counters[0] = counters[0] + 1;
    atomic_add(&counters[1], 1);
}
