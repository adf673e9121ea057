// ARGS: --global 8 --local 8 --warp-size 4 --arg lock=int[1]:fill=0 --arg count=int[1]:fill=0 --sched lockstep --seed 3
// A spin lock taken inside a warp: in lockstep the lanes that lost keep spinning while the
// winner, ahead of them, waits for them to catch up, so the warps hang. The shrunk schedule
// replays under lockstep, where the hang happens, not under the manual scheduler.
__kernel void f(__global int *lock, __global int *count)
{
    while (atomic_cmpxchg(lock, 0, 1) != 0)
        ;
    count[0] = count[0] + 1;
    atomic_xchg(lock, 0);
}
