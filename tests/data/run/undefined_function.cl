// ARGS: --global 2 --arg a=int[2]:fill=9 --json
// A function declared without a body has nothing to simulate: the call does nothing, returns
// 0 and is reported once as a warning, and the run goes on.
int helper(__global int *a);

__kernel void k(__global int *a)
{
    a[get_global_id(0)] = helper(a) + 1;
}
