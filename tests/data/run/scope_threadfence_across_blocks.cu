// ARGS: --grid 2 --block 1 --arg data=int[1]:fill=0 --arg flag=int[1]:fill=0 --arg out=int[1] --seed 1
// scope_threadfence_block_across_blocks.cu repaired with __threadfence (device scope):
// nothing races.
__global__ void mp(int *data, int *flag, int *out)
{
    if (blockIdx.x == 0) {
        data[0] = 42;
        __threadfence();
        atomicExch(&flag[0], 1);
    } else {
        while (atomicAdd(&flag[0], 0) == 0)
            ;
        __threadfence();
        out[0] = data[0];
    }
}
