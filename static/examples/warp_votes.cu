// Votes from seed 004's list of device built-ins, over a block of two 32-thread warps with
// the predicate "my value is positive" (values 60 and 62 are not). __all_sync, __any_sync and
// __ballot_sync vote among the lanes their mask names, here the whole warp (the forms without
// a mask no longer compile for sm_70 and later); __syncthreads_count, _and and _or vote across
// the whole block and are barriers as well, so every thread of the block must reach them.
__global__ void votes(const int *values, unsigned int *warp_out, int *block_out)
{
    int t = threadIdx.x;
    int positive = values[t] > 0;
    int all = __all_sync(0xffffffffu, positive);
    int any = __any_sync(0xffffffffu, positive);
    unsigned int ballot = __ballot_sync(0xffffffffu, positive);
    int count = __syncthreads_count(positive);
    int every = __syncthreads_and(positive);
    int some = __syncthreads_or(positive);
    if (t % 32 == 0) {
        int w = t / 32;
        warp_out[w * 3 + 0] = all;
        warp_out[w * 3 + 1] = any;
        warp_out[w * 3 + 2] = ballot;   // one bit per lane of the warp
    }
    if (t == 0) {
        block_out[0] = count;
        block_out[1] = every;
        block_out[2] = some;
    }
}
