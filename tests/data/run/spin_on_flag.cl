// ARGS: --global 2 --arg flag=int[1] --max-steps 500 --json
// Both work-items wait for a flag nobody sets: once each has re-read the unchanged flag with
// its state unchanged, they are known to spin forever, and the run ends in livelock.
__kernel void wait_forever(__global volatile int *flag)
{
    while (flag[0] == 0) { }
}
