// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Load buffering from atomics: each block reads one variable with atomicAdd(p, 0), then
// exchanges the other. Both may read the other block's exchange (seen = [1, 1]): the PTX model
// forbids only cycles through dependencies, and these exchanges depend on nothing read.
__device__ int X, Y;

__global__ void lb(int *seen)
{
    if (blockIdx.x == 0) {
        seen[0] = atomicAdd(&X, 0);
        atomicExch(&Y, 1);
    } else {
        seen[1] = atomicAdd(&Y, 0);
        atomicExch(&X, 1);
    }
}
