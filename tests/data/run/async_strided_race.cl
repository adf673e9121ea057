// ARGS: --global 8 --local 4 --arg in=int[16]:range=0:1 --arg out=int[16] --seed 6 --json
// Seed 002's kernel shape: a strided copy gathers the even elements into a local tile, the
// work-items use it, and a second strided copy gathers the odd elements into the same tile.
// Without a barrier between using the tile and the second copy, the copy engine overwrites
// elements a slow work-item has not read yet: the race names both lines. (See
// async_strided_ok.cl for the version with the barriers.)
__kernel void evens_then_odds(__global const int *in, __global int *out)
{
    __local int tile[4];
    int l = get_local_id(0);
    int base = get_group_id(0) * 8;
    event_t e = async_work_group_strided_copy(tile, in + base, 4, 2, 0);
    wait_group_events(1, &e);
    out[base + l] = tile[l] * 10;
#ifdef FIXED
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    e = async_work_group_strided_copy(tile, in + base + 1, 4, 2, 0);
    wait_group_events(1, &e);
    out[base + 4 + l] = tile[l] * 10;
}
