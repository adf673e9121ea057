// ARGS: --global 64 --local 64 --arg flag=int[1] --arg out=int[64] --max-memory-bytes 400000
// The launch fits the lowered memory limit, but its work-items spin on a flag nobody sets
// while each holds a 2 KiB private array: telling a spin needs a copy of each one's state,
// which is growth like any other, so the run stops at the memory limit with a step-limit
// finding instead of allocating past it.
__kernel void k(__global volatile int *flag, __global int *out)
{
    int a[512];
    for (int i = 0; i < 512; i++)
        a[i] = i;
    while (flag[0] == 0) {
    }
    out[get_global_id(0)] = a[get_global_id(0)];
}
