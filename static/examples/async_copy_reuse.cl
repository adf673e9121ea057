// Seed 002's pitfall: async copies do not synchronise anything by themselves. Two copies
// reuse one local tile; without a barrier between reading the first copy and starting the
// second, the group's copy engine may overwrite tile[] before a slow work-item has read its
// element, and that work-item adds the wrong number. Some seeds give wrong sums; uncomment
// the barrier (or run with -D FIXED) and every seed gives 101, 202, ...
__kernel void sum_two(__global const float4 *a, __global const float *b, __global float *out)
{
    __local float4 tile4[1];
    // The tile is copied as one float4 and read as four floats, as the seed's kernel does.
    __local float *tile = (__local float *)tile4;
    int l = get_local_id(0);
    int group = get_group_id(0);
    event_t e = async_work_group_copy(tile4, a + group, 1, 0);
    wait_group_events(1, &e);
    float s = tile[l];
#ifdef FIXED
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    e = async_work_group_copy(tile, b + group * 4, 4, 0);
    wait_group_events(1, &e);
    out[group * 4 + l] = s + tile[l];
}
