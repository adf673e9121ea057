// ARGS: -D 1X=2
__kernel void f(__global int *d) { d[0] = 1; }
