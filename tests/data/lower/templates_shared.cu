// ARGS: --ir
// A function template instantiated for each type its calls deduce, a __shared__ array and
// __syncthreads.
template <typename T>
__device__ T largest(T a, T b) { return a > b ? a : b; }

__global__ void reduce(const float *in, float *out, int *count) {
    __shared__ float tile[64];
    tile[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        out[blockIdx.x] = largest(tile[0], tile[1]);
        count[blockIdx.x] = largest(count[0], 3);
    }
}
