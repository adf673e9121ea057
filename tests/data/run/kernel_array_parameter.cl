// ARGS: --global 2 --arg A=int[2]:values=5,6 --arg out=int[2]
// A kernel's buffer may be declared as an array without a size (global int A[]). Expected: out 11 11.
int first(global int A[]) { return A[0]; }
kernel void k(global int A[], global int *out) { out[get_global_id(0)] = first(A) + A[1]; }
