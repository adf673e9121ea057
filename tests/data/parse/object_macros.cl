// ARGS: --json
// Object-like macros, predefined macros and nesting.
#define N 64
#define TWICE_N (2 * N)
#if __OPENCL_C_VERSION__ >= 200 && defined(CLK_LOCAL_MEM_FENCE)
#define SUM_T long
#else
#define SUM_T int
#endif
__kernel void sum(__global SUM_T *out, __global const int *in)
{
    __local int tile[TWICE_N];
    tile[get_local_id(0)] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[0] = tile[0];
}
