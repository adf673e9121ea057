// ARGS: --global 1 --arg data=int[1]
__kernel void f(__global int *data, int n)
{
    data[0] = n;
}
