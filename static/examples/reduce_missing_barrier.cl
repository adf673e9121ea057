// The two-level sum of reduce.cl with the barrier inside the halving loop left out: a
// work-item may add tile[l + stride] before the work-item that owns it has finished the
// previous halving, so the group's sum can miss or double-count elements.
__kernel void reduce(__global const int *in, __global int *partial, __global int *total)
{
    __local int tile[256];
    int l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (l < stride)
            tile[l] += tile[l + stride];
        // missing: barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        partial[get_group_id(0)] = tile[0];
        atomic_add(total, tile[0]);
    }
}
