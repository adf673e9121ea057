// ARGS: --global 1
// A program-scope pointer starts as 0 or the address of a program-scope variable.
global int g = 1;
global int *p = (global int *)16;
kernel void k(global int *out)
{
    out[0] = *p;
}
