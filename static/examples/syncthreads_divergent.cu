// Seed 004's rule for __syncthreads(): every thread of the block must reach it. Here the
// threads past the end of the data skip the whole body, barrier included. Block 0 has data
// for all of its threads and is fine; in block 1 only four threads arrive at the barrier.
__global__ void block_sums(const int *in, int *sums, int n)
{
    __shared__ int tile[8];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        tile[threadIdx.x] = in[i];
        __syncthreads();   // divergent: threads with i >= n never get here
        if (threadIdx.x == 0) {
            int s = 0;
            for (int k = 0; k < blockDim.x && blockIdx.x * blockDim.x + k < n; k++)
                s += tile[k];
            sums[blockIdx.x] = s;
        }
    }
}
