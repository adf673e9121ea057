// ARGS: --global 2 --arg c=int[1]:fill=0 --outcome c=7 --budget 50
// No schedule makes c[0] = 7: after the budget, a clear error, exit status 2.
__kernel void f(__global int *c)
{
    atomic_add(&c[0], 1);
}
