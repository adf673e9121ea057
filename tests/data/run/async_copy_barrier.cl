// ARGS: --global 8 --local 4 --arg a=float[8]:range=1:1 --arg b=float[8]:range=100:100 --arg out=float[8] --seed 4 --json
// The same kernel with the barrier: every seed gives a[i] + b[i].
__kernel void sum_two(__global const float *a, __global const float *b, __global float *out)
{
    __local float tile[4];
    int l = get_local_id(0);
    int base = get_group_id(0) * 4;
    event_t e = async_work_group_copy(tile, a + base, 4, 0);
    wait_group_events(1, &e);
    float s = tile[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(tile, b + base, 4, 0);
    wait_group_events(1, &e);
    out[base + l] = s + tile[l];
}
