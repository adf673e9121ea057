// ARGS: --global 2 --local 2 --sched manual --schedule 0,0,0,1 --arg a=int[2]:fill=0
// A schedule whose third step names a work-item that waits at the barrier: the run stops
// there, and says which step and why, rather than only "running".
__kernel void k(__global int *a)
{
    int i = get_global_id(0);
    a[i] = i;
    barrier(CLK_GLOBAL_MEM_FENCE);
    a[i] += a[(i + 1) % 2];
}
