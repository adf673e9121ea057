// ARGS: --global 4 --local 4 --arg in=int[4]:values=3,1,4,1:ro --arg total=int[1] --seed 3 --granularity event
// The kernel of `unwritable_reads_fold.cl` with every event a step (`--granularity event`,
// what links and scenario files made before reads were folded keep): each work-item's three
// reads and its atomic_add are four steps, sixteen in all, and the sum is the same.
__constant int scale[4] = {10, 20, 30, 40};

__kernel void weighted_sum(__global const int *in, __global int *total)
{
    int i = get_global_id(0);
    int v = in[i] * scale[i] + in[(i + 1) % 4];
    atomic_add(total, v);
}
