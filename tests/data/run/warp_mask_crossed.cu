// ARGS: --global 8 --local 8 --warp-size 8 --arg out=int[8]
// Each half of the warp waits at a different collective for the whole warp: neither can ever
// complete. Barrier divergence, naming the lane that waits elsewhere.
__global__ void crossed(int *out)
{
    int t = threadIdx.x;
    if (t < 4)
        out[t] = __shfl_xor_sync(0xffu, t, 1);
    else
        __syncwarp(0xffu);
}
