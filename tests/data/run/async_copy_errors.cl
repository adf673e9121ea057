// ARGS: --global 4 --local 4 --arg src=int[8]:range=0:1 --arg out=int[4] --json
// Work-items pass different arguments to one copy, and never wait for its event.
__kernel void wrong(__global const int *src, __global int *out)
{
    __local int tile[4];
    int l = get_local_id(0);
    event_t e = async_work_group_copy(tile, src + (l & 1), 4, 0);
    out[l] = l;
}
