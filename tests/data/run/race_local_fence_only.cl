// ARGS: --global 8 --local 8 --arg data=int[8] --arg out=int[8] --sched round-robin --json
// Each work-item writes its element of a global buffer and, after a barrier that fences only
// local memory, reads its neighbour's. barrier(CLK_LOCAL_MEM_FENCE) does not order global
// memory, so the read races with the neighbour's write (and the finding says so).
__kernel void neighbours(__global int *data, __global int *out)
{
    int i = get_global_id(0);
    data[i] = i * i;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = data[(i + 1) % 8];
}
