// ARGS: --global 4 --arg out=int[4] --runs 300
// Four work-items each write their own word twice: every schedule only reorders independent
// steps, so the 300 runs are one schedule up to that reordering.
__kernel void own(__global int *out)
{
    out[get_global_id(0)] = 1;
    out[get_global_id(0)] = 2;
}
