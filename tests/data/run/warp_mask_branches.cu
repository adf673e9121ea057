// ARGS: --global 8 --local 8 --warp-size 8 --arg out=int[8] --sched random --seed 4
// The two sides of a branch each call __shfl_xor_sync with the whole warp's mask. With
// independent thread scheduling (sm_70 and later) the lanes meet across the branch and swap
// their values: out = 1, 0, 3, 2, ... and no finding.
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
