// The CUDA kernel the option tests (cli/tests/options.rs) run with every option of `run`,
// `explore` and `link`, and the kernel of `scenario.toml`: each option changes what it
// prints. The schedule decides how many of the plain counter's updates are lost; BIAS, the
// warp size, the heap, the default buffer, printf and the block-shared memory each leave
// their mark in `out`; block 0 waits for the last block's flag, so with fewer resident blocks
// the progress model decides whether it ever comes; and the plain counter races.
#ifndef BIAS
#define BIAS 0
#endif

__global__ void k(int *out, int *data, int *flag)
{
    __shared__ int tmp[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tmp[threadIdx.x] = i;
    __syncthreads();
    int v = out[0];
    out[0] = v + 1 + BIAS;
    int lanes = __popc(__activemask());
    atomicAdd(&out[1], lanes);
    int *block = (int *)malloc(64);
    atomicAdd(&out[3], block == 0 ? 1 : 0);
    if (block)
        free(block);
    atomicAdd(&out[4], data[i % 4] + tmp[0]);
    printf("%d\n", i);
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
        atomicExch(&flag[0], 1);
    if (blockIdx.x == 0)
        while (atomicAdd(&flag[0], 0) == 0) {
        }
}
