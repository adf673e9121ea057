// ARGS: --global 8 --local 2 --sched pct --pct-depth 5 --seed 9 --resident-groups 2 --progress occupancy-bound --arg order=int[8] --arg next=int[1] --json
// Two of four groups resident at a time: a later group starts only when an earlier one has
// finished, so group 2 appears in the arrival order only after both work-items of group 0
// (or of group 1), and group 3 only after two groups are done.
__kernel void arrivals(__global int *order, __global int *next)
{
    int slot = atomic_inc(next);
    order[slot] = get_group_id(0);
}
