// ARGS:
#ifndef BLOCK
#error BLOCK must be defined with -D BLOCK=N
#endif
__kernel void f(__global int *d) { d[0] = BLOCK; }
