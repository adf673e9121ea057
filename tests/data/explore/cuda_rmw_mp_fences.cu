// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Message passing from atomics with __threadfence() (fence.sc.gpu) between the writes and
// between the reads: the fences order them, so seen = [1, 0] never happens.
__device__ int X, Y;

__global__ void mp(int *seen)
{
    if (blockIdx.x == 0) {
        atomicExch(&X, 1);
        __threadfence();
        atomicExch(&Y, 1);
    } else {
        seen[0] = atomicAdd(&Y, 0);
        __threadfence();
        seen[1] = atomicAdd(&X, 0);
    }
}
