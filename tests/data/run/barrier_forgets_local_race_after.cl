// ARGS: --global 8 --local 4 --arg out=int[8] --seed 3 --json
// Every work-item fills its slot of a local tile and passes a barrier that fences local
// memory: the race detector may forget the accesses before it, which nothing after it can
// race with. Then work-items 0 and 1 of each group both store to tile[0]: that race is
// reported, between the two stores after the barrier, and the fills are not part of it.
__kernel void after(__global int *out)
{
    __local int tile[4];
    int l = get_local_id(0);
    tile[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 2)
        tile[0] = 10 + l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[(l + 1) % 4];
}
