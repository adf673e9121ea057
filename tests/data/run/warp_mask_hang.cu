// ARGS: --global 8 --local 8 --warp-size 8 --arg out=int[8] --arg flag=int[1]
// The lower half shuffles with the whole warp named, while the upper half spins on a flag
// nobody sets: the shuffle waits for lanes that never come. The livelock says which.
__global__ void stuck(int *out, volatile int *flag)
{
    int t = threadIdx.x;
    if (t < 4)
        out[t] = __shfl_xor_sync(0xffu, t, 1);
    else
        while (flag[0] == 0) { }
}
