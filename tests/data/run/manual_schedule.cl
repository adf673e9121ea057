// ARGS: --global 2 --sched manual --schedule 1,1,0 --arg c=int[1] --json
// The manual scheduler follows the given work-items one step each and pauses where the list
// ends: work-item 1 reads and writes the counter, then work-item 0 reads it.
__kernel void by_hand(__global int *c)
{
    c[0] = c[0] + 1;
}
