// ARGS: --global 8 --local 4 --arg ids=int[8] --arg counters=int[2] --seed 3 --json
// The default example of the playground, under a fixed seed.
__kernel void count(__global int *ids, __global int *counters)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    ids[gid] = lid;
    barrier(CLK_GLOBAL_MEM_FENCE);
    counters[0] = counters[0] + 1;
    atomic_add(&counters[1], 1);
}
