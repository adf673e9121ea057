// ARGS: --global 4 --arg c=int[1]:fill=0 --sched lockstep
// A lockstep run cannot be replayed by the manual scheduler, so it is refused with exit 2.
__kernel void f(__global int *c)
{
    c[0] = c[0] + 1;
}
