// ARGS: --global 2 --local 1 --arg data=int[1]:fill=0 --arg out=int[1] --runs 40
// A write and a read that race, found in either order depending on the schedule: one finding
// for the pair of source locations, counting every run, whichever access came first.
__kernel void k(__global int *data, __global int *out)
{
    if (get_global_id(0) == 0)
        data[0] = 1;
    else
        out[0] = data[0];
}
