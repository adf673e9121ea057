// ARGS: --grid 1 --block 8 --warp-size 8 --sched random --seed 3 --arg data=int[8]:range=1:1 --json
// The warp scan of lockstep_warp_scan.cu with independent thread scheduling (Volta and
// later): nothing orders one lane's write before its neighbour's read, so it races. (With
// `volatile`, the accesses would be relaxed atomics: no data race, the same wrong sums.)
__global__ void scan(int *data)
{
    int t = threadIdx.x;
    if (t >= 1) data[t] = data[t - 1] + data[t];
    if (t >= 2) data[t] = data[t - 2] + data[t];
    if (t >= 4) data[t] = data[t - 4] + data[t];
}
