// ARGS: --ir
// Warp votes and shuffles with their member masks, and __syncwarp.
__global__ void warp(int *out) {
    int lane = threadIdx.x % 32;
    unsigned active = __ballot_sync(0xffffffff, lane < 16);
    int v = __shfl_down_sync(0xffffffff, lane, 1);
    int w = __shfl_xor_sync(active, v, 2, 16);
    __syncwarp();
    out[threadIdx.x] = v + w + __any_sync(0xffffffff, v > 3);
}
