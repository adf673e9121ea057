// ARGS: --global 4 --local 4 --arg out=int[1] --arg data=int[1]:fill=3 --sched round-robin -D READER=2 --json
// The same barrier where the reader (work-item 0) gives flags 0: its read is not released
// by the barrier, so the write after it races with the read.
__kernel void per_item(__global int *out, __global int *data)
{
    int lid = get_local_id(0);
    int y = 0;
    if (lid == 0)
        y = data[0];
    barrier(lid == READER ? CLK_GLOBAL_MEM_FENCE : 0);
    if (lid == 1)
        data[0] = 5;
    if (lid == 0)
        out[0] = y;
}
