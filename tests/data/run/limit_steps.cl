// ARGS: --global 2 --arg counter=int[1]:fill=0 --max-steps 300
// The steps limit: two work-items count forever, and the run stops at the step limit with a
// finding that names `max_steps` and how to raise it.
__kernel void count_forever(__global volatile int *counter)
{
    for (;;) {
        atomic_inc(&counter[0]);
    }
}
