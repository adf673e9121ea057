// ARGS: --grid 1 --block 4 --warp-size 4 --sched random --arg lock=int[1] --arg count=int[1] --max-steps 5000 --json
// The lock of lockstep_warp_lock.cu under independent thread scheduling: every thread
// eventually gets the lock, so the count ends at 4.
__global__ void take_lock(int *lock, int *count)
{
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    count[0] = count[0] + 1;
    atomicExch(lock, 0);
}
