// ARGS: --global 4 --local 4 --warp-size 4 --arg mutex=int[1] --arg count=int[1] --sched round-robin
// Thread 0 takes the mutex first (atomicExch as a test-and-set) and returns without giving it
// back: the others spin for it for ever, and the livelock says its holder finished without
// releasing it. The lock was never released, and is still recognised.
__global__ void forgot(int *mutex, int *count)
{
    while (atomicExch(mutex, 1) != 0)
        ;
    atomicAdd(count, 1);
    if (threadIdx.x != 0)
        atomicExch(mutex, 0);
}
