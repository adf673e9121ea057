// ARGS: --global 0 --arg data=int[4]
__kernel void f(__global int *data) { data[0] = 1; }
