// A two-level sum: each work-group of 256 reduces its slice in local memory with a barrier
// per halving, then its first work-item adds the group's sum to the total atomically.
__kernel void reduce(__global const int *in, __global int *partial, __global int *total)
{
    __local int tile[256];
    int l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (l < stride)
            tile[l] += tile[l + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        partial[get_group_id(0)] = tile[0];
        atomic_add(total, tile[0]);
    }
}
