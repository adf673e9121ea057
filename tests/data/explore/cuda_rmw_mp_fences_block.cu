// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Message passing from atomics with __threadfence_block() (fence.sc.cta) on both sides, the two
// threads in different blocks: a CTA-scope fence orders nothing for another block, so
// seen = [1, 0] remains possible, as without fences.
__device__ int X, Y;

__global__ void mp(int *seen)
{
    if (blockIdx.x == 0) {
        atomicExch(&X, 1);
        __threadfence_block();
        atomicExch(&Y, 1);
    } else {
        seen[0] = atomicAdd(&Y, 0);
        __threadfence_block();
        seen[1] = atomicAdd(&X, 0);
    }
}
