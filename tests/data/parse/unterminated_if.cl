// ARGS:
#if defined(FOO)
__kernel void f(__global int *d) { d[0] = 1; }
