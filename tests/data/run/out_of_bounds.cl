// ARGS: --global 4 --arg data=int[4]:range=10:10 --arg out=int[4] --json
// Reads one element past the end of `data`.
__kernel void shift(__global const int *data, __global int *out)
{
    int i = get_global_id(0);
    out[i] = data[i + 1];
}
