// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Store buffering from atomics with __threadfence() between the exchange and the read: the
// fences' single order forbids seen = [0, 0].
__device__ int X, Y;

__global__ void sb(int *seen)
{
    if (blockIdx.x == 0) {
        atomicExch(&X, 1);
        __threadfence();
        seen[0] = atomicAdd(&Y, 0);
    } else {
        atomicExch(&Y, 1);
        __threadfence();
        seen[1] = atomicAdd(&X, 0);
    }
}
