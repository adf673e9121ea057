// ARGS: --grid 1 --block 8 --arg out=int[8] --sched round-robin --json
// __syncthreads() inside a branch that only half of the block takes: the other half
// finishes without reaching it, which is barrier divergence.
__global__ void half_barrier(int *out)
{
    int t = threadIdx.x;
    if (t < 4) {
        out[t] = t;
        __syncthreads();
        out[4 + t] = out[(t + 1) % 4];
    }
}
