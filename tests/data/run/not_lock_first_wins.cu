// ARGS: --global 8 --local 8 --warp-size 4 --arg claimed=int[1] --arg winner=int[1] --arg done=int[1] --seed 6 --json
// One-shot claims, "the first one wins": atomicExch(claimed, 1) and atomicCAS(winner, 0, id)
// are tested once by every thread, and the losers go on. Neither is a lock (nobody waits for
// it), so there is no lock and no "held at the end" error.
__global__ void first(int *claimed, int *winner, int *done)
{
    int t = threadIdx.x;
    if (atomicExch(claimed, 1) == 0)
        atomicAdd(done, 1);
    atomicCAS(winner, 0, t + 1);
}
