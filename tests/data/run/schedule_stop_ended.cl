// ARGS: --global 2 --local 2 --sched manual --schedule 1 --arg a=int[2]:fill=0
// A schedule shorter than the run: it stops where the schedule ends, and says how many
// work-items could still step.
__kernel void k(__global int *a)
{
    int i = get_global_id(0);
    a[i] = i;
}
