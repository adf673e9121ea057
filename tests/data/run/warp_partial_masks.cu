// ARGS: --global 32 --local 32 --arg out=int[32] --arg votes=uint[1] --json
// Partial member masks inside branches: the lower half of the warp reduces, votes and syncs
// among itself (every shuffle source inside the mask, thanks to the width), while the upper
// half swaps neighbours under its own mask. Only the named lanes take part, so nothing waits
// for the other half and there is no finding: out[0] = 0 + ... + 15 = 120, the ballot has the
// bits of lanes 0, 3, 6, 9, 12 and 15 (0x9249), out[16..] are the lane ids swapped in pairs.
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
