// ARGS: --grid 1 --block 8 --warp-size 8 --sched lockstep --arg data=int[8]:range=1:1 --json
// Warp-synchronous code: a scan inside one warp with no barrier. Under the lockstep
// scheduler the warp's lanes execute each instruction together (all read, then all write),
// which orders them, so there is no race and the scan is right. With independent threads
// (see warp_scan_independent.cu) the same code races.
__global__ void scan(volatile int *data)
{
    int t = threadIdx.x;
    if (t >= 1) data[t] = data[t - 1] + data[t];
    if (t >= 2) data[t] = data[t - 2] + data[t];
    if (t >= 4) data[t] = data[t - 4] + data[t];
}
