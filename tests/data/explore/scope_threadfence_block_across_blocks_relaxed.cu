// ARGS: --grid 2 --block 1 --arg data=int[1]:fill=0 --arg flag=int[1]:fill=0 --arg out=int[1] --memory-model relaxed --runs 300
// Under the relaxed memory model, explored: the outcomes show what the scope allows.
// Message passing between two blocks with __threadfence_block: a fence.sc at block scope,
// which orders nothing for another block, so the data read races with its write although
// the flag was seen (scope_threadfence_across_blocks.cu is the repair).
__global__ void mp(int *data, int *flag, int *out)
{
    if (blockIdx.x == 0) {
        data[0] = 42;
        __threadfence_block();
        atomicExch(&flag[0], 1);
    } else {
        while (atomicAdd(&flag[0], 0) == 0)
            ;
        __threadfence_block();
        out[0] = data[0];
    }
}
