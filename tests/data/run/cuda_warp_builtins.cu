// ARGS: --global 64 --local 64 --arg out=int[8] --arg shuffled=int[64] --arg heap_ok=int[64] --json
// Warp votes, ballots and shuffles over two 32-thread warps, a block-wide __syncthreads_count,
// the per-thread clock, and device malloc/free (after the device built-ins seed).
__global__ void warp_tour(int *out, int *shuffled, int *heap_ok)
{
    int t = threadIdx.x;
    int even = (t % 2) == 0;
    int all_small = __all(t < 48);              /* warp 0: yes; warp 1: no */
    int any_big = __any_sync(0xffffffffu, t >= 60);
    unsigned int votes = __ballot(even);
    int count = __syncthreads_count(t < 10);    /* the whole block: 10 */
    if (t == 0 || t == 32) {
        out[t / 32 * 4 + 0] = all_small;
        out[t / 32 * 4 + 1] = any_big;
        out[t / 32 * 4 + 2] = (int)votes;
        out[t / 32 * 4 + 3] = count;
    }
    shuffled[t] = __shfl_down_sync(0xffffffffu, t * 10, 1);
    long long before = clock64();
    int *mine = (int *)malloc(4 * sizeof(int));
    mine[3] = t;
    heap_ok[t] = (mine != 0 && mine[3] == t && clock64() > before) ? 1 : 0;
    free(mine);
}
