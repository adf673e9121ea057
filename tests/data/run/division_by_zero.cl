// ARGS: --global 2 --arg out=int[2] --arg d=int:0 --json
__kernel void divide(__global int *out, int d)
{
    out[get_global_id(0)] = 100 / d;
}
