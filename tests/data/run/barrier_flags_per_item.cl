// ARGS: --global 4 --local 4 --arg out=int[1] --arg data=int[1]:fill=3 --sched round-robin -D READER=0 --json
// A barrier orders an access before what follows it when the work-item that made the access
// fenced that memory there: work-item 0 reads data[0] and fences global memory, work-item 1
// passes flags 0 and writes after the barrier. Ordered, so no race (whoever arrives first).
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
