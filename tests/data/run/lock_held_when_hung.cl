// ARGS: --global 4 --local 2 --arg lock=int[1] --arg count=int[1] --seed 2 --json
// The third work-item to take the lock forgets to release it, so the fourth spins on it for
// ever: the run ends in livelock (an error), and the lock still held when it stopped is a
// lock-misuse warning beside it, naming who took it and how many wait.
__kernel void forget_unlock(__global int *lock, __global int *count)
{
    while (atomic_cmpxchg(&lock[0], 0, 1) != 0)
        ;
    int n = atomic_inc(&count[0]) + 1;
    if (n != 3)
        atomic_xchg(&lock[0], 0);
}
