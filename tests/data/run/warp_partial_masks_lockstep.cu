// ARGS: --global 32 --local 32 --arg out=int[32] --arg votes=uint[1] --sched lockstep --json
// The partial masks of warp_partial_masks.cu under lockstep (GPUs before Volta): the lanes a
// mask names execute each collective together, so the results are the same and nothing is
// reported.
__global__ void halves(int *out, unsigned int *votes)
{
    int t = threadIdx.x;
    int v = t;
    if (t < 16) {
        for (int offset = 8; offset > 0; offset /= 2)
            v += __shfl_down_sync(0x0000ffffu, v, offset, 16);
        unsigned int b = __ballot_sync(0x0000ffffu, t % 3 == 0);
        int all = __all_sync(0x0000ffffu, t < 16);
        int any = __any_sync(0x0000ffffu, t == 5);
        __syncwarp(0x0000ffffu);
        if (t == 0) {
            out[0] = v;
            out[1] = all;
            out[2] = any;
            votes[0] = b;
        }
    } else {
        out[t] = __shfl_xor_sync(0xffff0000u, t, 1);
    }
}
