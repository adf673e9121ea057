// ARGS: --global 2 --arg out=int[2] --runs 20000000
// The exploration runs limit: 20 million seeds is above its hard maximum of 10 million.
__kernel void one(__global int *out)
{
    out[get_global_id(0)] = 1;
}
