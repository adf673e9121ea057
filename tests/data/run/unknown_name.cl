// ARGS: --global 1
__kernel void f(__global int *data)
{
    data[0] = get_global_idx(0);
}
