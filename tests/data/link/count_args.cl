// ARGS: --global 8 --local 4 --arg ids=int[8] --arg counters=int[2] --sched pct --seed 5 --step 4 --selected 2 --panel work-item
// Lost updates: every work-item adds one to two counters.
// counters[0] uses a plain read-modify-write, so two work-items that
// interleave between the read and the write lose an update.
// counters[1] uses atomic_add, which cannot lose one.
__kernel void count(__global int *ids, __global int *counters)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    ids[gid] = lid;
    barrier(CLK_GLOBAL_MEM_FENCE);
    counters[0] = counters[0] + 1;
    atomic_add(&counters[1], 1);
}
