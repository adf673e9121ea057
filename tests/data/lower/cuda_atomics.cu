// ARGS: --ir
// CUDA atomics with the scope their names give, a fence, and a volatile load (a relaxed
// atomic at system scope).
__global__ void publish(int *data, int *flag, volatile int *seen) {
    data[threadIdx.x] = 1;
    __threadfence();
    atomicAdd(flag, 1);
    atomicAdd_block(flag, 1);
    int old = atomicCAS(flag, 2, 0);
    data[0] = old + *seen;
}
