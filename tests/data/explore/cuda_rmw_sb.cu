// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Store buffering from atomics: each block exchanges one variable, then reads the other with
// atomicAdd(p, 0). Both may read 0 (seen = [0, 0]): each reading update comes before the other
// block's exchange in that variable's order, which relaxed updates allow.
__device__ int X, Y;

__global__ void sb(int *seen)
{
    if (blockIdx.x == 0) {
        atomicExch(&X, 1);
        seen[0] = atomicAdd(&Y, 0);
    } else {
        atomicExch(&Y, 1);
        seen[1] = atomicAdd(&X, 0);
    }
}
