// ARGS: --global 4 --local 2 --arg lock=int[1] --arg count=int[1] --seed 2 --json
// Every work-item takes the lock and counts itself in, but only releases it while fewer than
// four have entered: the last one leaves it held. Nobody waits for it any more, so the run
// completes, and the lock still held at the end is a lock-misuse error.
__kernel void forget_unlock(__global int *lock, __global int *count)
{
    while (atomic_cmpxchg(&lock[0], 0, 1) != 0)
        ;
    int n = atomic_inc(&count[0]) + 1;
    if (n < 4)
        atomic_xchg(&lock[0], 0);
}
