// ARGS: --grid 1 --block 4 --warp-size 4 --sched lockstep --arg lock=int[1] --arg count=int[1] --max-steps 5000 --json
// A spin lock taken by every thread of one warp. Under lockstep execution (SIMT without
// independent thread scheduling, as on GPUs before Volta) the lane that wins the lock moves
// ahead of the others, and the warp keeps running the lanes behind it: they spin on a lock
// that the winner, held back until they catch up, never releases. The run ends in livelock.
// With --sched random (independent threads) the same kernel finishes with count = 4.
__global__ void take_lock(int *lock, int *count)
{
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    count[0] = count[0] + 1;
    atomicExch(lock, 0);
}
