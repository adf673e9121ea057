// ARGS: --global 4 --local 4 --arg a=int[4]:range=1:1 --arg out=int[4] --seed 2 --json
// An async copy into the tile is still under way when the group passes a barrier that fences
// local memory: the copy engine's stores are not ordered by the barrier, so the race
// detector keeps what the work-items did before it, and their reads of the tile after it
// race with the copy's stores (the copy is waited for only at the end).
__kernel void copy_in_flight(__global const int *a, __global int *out)
{
    __local int tile[4];
    int l = get_local_id(0);
    tile[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_copy(tile, a, 4, 0);
    int before = tile[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    int after = tile[l];
    wait_group_events(1, &e);
    out[l] = before + after;
}
