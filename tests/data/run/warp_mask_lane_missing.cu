// ARGS: --global 32 --local 32 --arg out=int[32]
// The whole warp is named, but only the lower half calls the shuffle: lanes 16 to 31 finish
// without reaching it, which CUDA leaves undefined. Barrier divergence, naming a missing lane.
__global__ void shift(int *out)
{
    int t = threadIdx.x;
    int v = t * 10;
    if (t < 16)
        v = __shfl_down_sync(0xffffffffu, v, 1);
    out[t] = v;
}
