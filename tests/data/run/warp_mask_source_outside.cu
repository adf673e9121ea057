// ARGS: --global 32 --local 32 --arg out=int[32]
// A shuffle under a half-warp mask is right for lanes 0 to 14, but lane 15 reads lane 16,
// which is not in the mask: CUDA leaves that value undefined. An undefined-value warning (the
// lane keeps its own value); the exit status stays 0.
__global__ void shift(int *out)
{
    int t = threadIdx.x;
    int v = t * 10;
    if (t < 16)
        v = __shfl_down_sync(0x0000ffffu, v, 1);
    out[t] = v;
}
