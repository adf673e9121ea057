// ARGS: --grid 2 --block 1 --arg seen=int[2]:fill=9 --memory-model relaxed --exhaustive
// Message passing from atomics only, the two threads in different blocks: atomicExch writes the
// data X and then the flag Y, atomicAdd(p, 0) reads Y and then X. CUDA's atomics are relaxed
// (atom.relaxed.gpu), and the PTX model orders relaxed updates by nothing but atomicity, so the
// flag may come with the old data: seen = [1, 0], as NVIDIA hardware shows.
__device__ int X, Y;

__global__ void mp(int *seen)
{
    if (blockIdx.x == 0) {
        atomicExch(&X, 1);
        atomicExch(&Y, 1);
    } else {
        seen[0] = atomicAdd(&Y, 0);
        seen[1] = atomicAdd(&X, 0);
    }
}
