// ARGS: --global 8 --local 8 --arg data=int[8] --arg out=int[8] --seed 2 --json
// The same exchange with CLK_GLOBAL_MEM_FENCE: the barrier orders the writes before the
// reads, so no race is reported under any schedule.
__kernel void neighbours(__global int *data, __global int *out)
{
    int i = get_global_id(0);
    data[i] = i * i;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] = data[(i + 1) % 8];
}
