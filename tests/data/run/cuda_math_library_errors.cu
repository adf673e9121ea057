// ARGS: --grid 1 --block 2
// An intrinsic called with the wrong number of arguments is a type error at the call.
__global__ void wrong(int *out)
{
    out[threadIdx.x] = __ffs(1, 2);
}
