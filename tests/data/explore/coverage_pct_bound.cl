// ARGS: --global 2 --arg c=int[1] --runs 200 --sched pct --pct-depth 2
// Under PCT the exploration states Burckhardt et al.'s lower bound on finding a bug of the
// chosen depth, with the work-items and steps it depends on.
__kernel void add(__global int *c)
{
    int v = c[0];
    c[0] = v + 1;
}
