// CUDA's wrapping atomics, from seed 004. atomicInc(p, limit) stores old >= limit ? 0 : old + 1
// and atomicDec(p, limit) stores (old == 0 || old > limit) ? limit : old - 1; both return the
// old value. Each thread records the value it saw, so the sequence can be checked against
// the formulas in whatever order the schedule ran the threads.
__global__ void wrapping(unsigned int *counters, unsigned int *seen_inc, unsigned int *seen_dec)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    seen_inc[i] = atomicInc(&counters[0], 2u);  // 0 1 2 0 1 2 ...
    seen_dec[i] = atomicDec(&counters[1], 5u);  // 0 5 4 3 2 1 0 5 ...
}
