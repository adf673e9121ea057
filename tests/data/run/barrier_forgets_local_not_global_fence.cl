// ARGS: --global 4 --local 4 --arg out=int[4] --seed 1 --json
// The barrier fences global memory only: it orders no access to local memory, so the race
// detector keeps the fills, and each work-item's read of its neighbour's slot races with
// the neighbour's fill.
__kernel void global_fence(__global int *out)
{
    __local int tile[4];
    int l = get_local_id(0);
    tile[l] = l;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[l] = tile[(l + 1) % 4];
}
