// ARGS: --global 2 --arg c=int[1] --runs 300
// Two work-items add one with a plain load and store: the runs differ in how the four
// accesses to `c[0]` interleave, and only those orders count as distinct schedules.
__kernel void add(__global int *c)
{
    int v = c[0];
    c[0] = v + 1;
}
