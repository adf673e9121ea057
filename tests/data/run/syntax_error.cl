// ARGS: --global 4
__kernel void broken(__global int *data)
{
    int i = get_global_id(0)
    data[i] = i;
}
