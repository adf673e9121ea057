// ARGS: --global 2 --local 2 --sched manual --schedule 0,5 --arg a=int[2]:fill=0 --json
// A schedule that names a work-item the launch does not have: the report's `schedule_stop`
// says so.
__kernel void k(__global int *a)
{
    int i = get_global_id(0);
    a[i] = i;
}
