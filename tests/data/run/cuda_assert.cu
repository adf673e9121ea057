// ARGS: --global 4 --local 2 --arg data=int[4]:range=0:1 --json
// An assertion that fails for one thread, reported in CUDA's format.
#include <cassert>
#include <assert.h>
__global__ void check(const int *data)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(data[i] != 3);
}
