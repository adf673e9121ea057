// A barrier inside `if (get_local_id(0) < 16)` in groups of 32: the first half of each
// group waits at it while the second half goes on to the barrier after the branch. A
// barrier must be reached by every work-item of the group, the same barrier each time,
// so this is barrier divergence, and on a GPU a hang. With -D FIXED the barrier moves
// out of the branch.
__kernel void fold_halves(__global const int *in, __global int *out)
{
    __local int tile[32];
    int l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
#ifdef FIXED
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16)
        tile[l] += tile[l + 16];
#else
    if (l < 16) {
        barrier(CLK_LOCAL_MEM_FENCE);   // only half of the group arrives here
        tile[l] += tile[l + 16];
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int s = 0;
        for (int k = 0; k < 16; k++)
            s += tile[k];
        out[get_group_id(0)] = s;
    }
}
