// ARGS: --global 2 --arg a=int[2] --json
// A function declared without a body cannot be simulated: the call is a diagnostic, not a
// crash.
int helper(__global int *a);

__kernel void k(__global int *a)
{
    a[get_global_id(0)] = helper(a);
}
