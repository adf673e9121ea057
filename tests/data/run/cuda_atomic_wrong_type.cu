// ARGS: --global 1 --local 1 --arg x=float[1]
// CUDA has no atomicSub on float: nvcc refuses it, and so does the engine, naming the types
// it is defined for.
__global__ void k(float *x)
{
    atomicSub(x, 1.0f);
}
