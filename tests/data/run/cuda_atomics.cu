// ARGS: --global 8 --local 4 --arg counters=uint[4] --arg out=int[8] --arg sum=float[1] --sched round-robin --json
// CUDA after the device built-ins seed: index variables, __shared__, __syncthreads, and
// atomicInc / atomicDec with their wrap-around formulas.
__global__ void wrap(unsigned int *counters, int *out, float *sum)
{
    __shared__ int tile[4];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tile[t] = i * 10;
    __syncthreads();
    out[i] = tile[(t + 1) % blockDim.x] + (int)gridDim.x;
    atomicInc(&counters[0], 2u);    // 0 1 2 0 1 2 0 1 -> ends at 2
    atomicDec(&counters[1], 5u);    // from 0: 5 4 3 2 1 0 5 4 -> ends at 4
    atomicAdd(&counters[2], 1u);
    atomicMax((int *)&counters[3], i);
    atomicAdd(sum, 0.5f);
    __threadfence();
}
