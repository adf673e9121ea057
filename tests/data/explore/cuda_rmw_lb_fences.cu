// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Load buffering from atomics with __threadfence() between the read and the exchange: the
// fences order each read before the other block's exchange, so seen = [1, 1] never happens.
__device__ int X, Y;

__global__ void lb(int *seen)
{
    if (blockIdx.x == 0) {
        seen[0] = atomicAdd(&X, 0);
        __threadfence();
        atomicExch(&Y, 1);
    } else {
        seen[1] = atomicAdd(&Y, 0);
        __threadfence();
        atomicExch(&X, 1);
    }
}
