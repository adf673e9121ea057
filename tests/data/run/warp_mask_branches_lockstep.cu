// ARGS: --global 8 --local 8 --warp-size 8 --arg out=int[8] --sched lockstep
// The branches of warp_mask_branches.cu under lockstep: without independent thread scheduling
// the lanes of a collective must execute one instruction together, and here the two sides
// of the warp wait at different ones. Barrier divergence.
__global__ void sides(int *out)
{
    int t = threadIdx.x;
    int v;
    if (t % 2 == 0)
        v = __shfl_xor_sync(0xffu, t, 1);
    else
        v = __shfl_xor_sync(0xffu, t, 1);
    out[t] = v;
}
