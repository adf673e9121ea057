// ARGS: --panel settings
__kernel void k(__global int *p) { p[0] = 1; }
