// ARGS: --global 1 --arg out=int[1] --arg c=int[1]
// A __constant pointer is not a generic pointer: to_global does not take one.
__kernel void from_constant(__global int *out, __constant int *c)
{
    out[0] = *to_global(c);
}
