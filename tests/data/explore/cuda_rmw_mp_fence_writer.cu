// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Message passing from atomics with __threadfence() on the writer's side only: the reader's
// updates are still unordered, so seen = [1, 0] remains possible (and is seen on hardware).
__device__ int X, Y;

__global__ void mp(int *seen)
{
    if (blockIdx.x == 0) {
        atomicExch(&X, 1);
        __threadfence();
        atomicExch(&Y, 1);
    } else {
        seen[0] = atomicAdd(&Y, 0);
        seen[1] = atomicAdd(&X, 0);
    }
}
