// ARGS: --global 2 --arg flag=int[1] --max-steps 500 --json
// Both work-items wait for a flag nobody sets: the run hits the step limit.
__kernel void wait_forever(__global volatile int *flag)
{
    while (flag[0] == 0) { }
}
