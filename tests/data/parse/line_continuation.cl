// ARGS: --json
#define ADD(a, b) \
    ((a) + \
     (b))
__kernel void f(__global uint *d, int n, __local float *scratch)
{
    d[0] = ADD(n, __LINE__);
}
