// ARGS: --grid 4 --block 2 --sched random --seed 3 --arg total=int[1] --max-steps 20000 --json
// The spin lock of "CUDA by Example" on a __device__ variable: atomicCAS(&mutex, 0, 1) takes it,
// atomicExch(&mutex, 0) gives it back, and one thread of each block adds to the total inside.
// CUDA's atomics are relaxed, so __threadfence() after the acquire and before the release
// orders the critical sections. The report shows the lock `mutex` with one acquisition per
// block, and no finding.
__device__ int mutex = 0;

__global__ void add_under_lock(int *total)
{
    if (threadIdx.x == 0) {
        while (atomicCAS(&mutex, 0, 1) != 0)
            ;
        __threadfence();
        total[0] = total[0] + blockIdx.x + 1;
        __threadfence();
        atomicExch(&mutex, 0);
    }
}
