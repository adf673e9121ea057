// ARGS: --global 1
// An index designator outside the array is an error at the index.
__kernel void k(__global int *out)
{
    int a[4] = { [1] = 1, [4] = 2 };
    out[0] = a[1];
}
