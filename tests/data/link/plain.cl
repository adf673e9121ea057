// ARGS: --global 4
__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }
