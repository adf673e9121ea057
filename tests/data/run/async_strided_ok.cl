// ARGS: --global 8 --local 4 --arg in=int[16]:range=0:1 --arg out=int[16] --seed 6 -D FIXED --json
// The strided copies of async_strided_race.cl with the barrier between using the tile and
// refilling it: whatever the schedule, no race and the right values.
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
