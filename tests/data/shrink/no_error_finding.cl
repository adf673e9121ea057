// ARGS: --global 4 --arg c=int[4]:fill=0
// Nothing fails, so there is nothing to shrink: a clear error, exit status 2.
__kernel void f(__global int *c)
{
    c[get_global_id(0)] = 1;
}
