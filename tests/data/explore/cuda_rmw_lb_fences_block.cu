// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Load buffering from atomics with __threadfence_block() between the read and the exchange,
// the threads in different blocks: the CTA-scope fences do not order them, so seen = [1, 1]
// remains possible (each exchange is promised past its block's fence).
__device__ int X, Y;

__global__ void lb(int *seen)
{
    if (blockIdx.x == 0) {
        seen[0] = atomicAdd(&X, 0);
        __threadfence_block();
        atomicExch(&Y, 1);
    } else {
        seen[1] = atomicAdd(&Y, 0);
        __threadfence_block();
        atomicExch(&X, 1);
    }
}
