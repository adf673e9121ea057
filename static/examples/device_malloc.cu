// Per-thread device malloc and free, from seed 004's list of built-ins. Each thread
// allocates a scratch array from the device heap, fills it, sums it and frees it. malloc
// returns NULL when the heap is exhausted, so the result must be checked: with a small
// heap only the threads that allocate while others' blocks are free get memory.
#define N 16

__global__ void scratch(int *sums, int *got)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *mine = (int *)malloc(N * sizeof(int));
    if (mine == NULL) {
        got[t] = 0;
        sums[t] = -1;
        return;
    }
    got[t] = 1;
    for (int k = 0; k < N; k++)
        mine[k] = t + k;
    int s = 0;
    for (int k = 0; k < N; k++)
        s += mine[k];
    sums[t] = s;   // 16 * t + 120
    free(mine);
}
