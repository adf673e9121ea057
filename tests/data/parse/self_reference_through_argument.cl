// ARGS:
// A macro that reaches itself through another macro's argument stops expanding.
#define g(a) a
#define y g(y)
__kernel void f(__global int *d) { int y = 1; d[0] = y; }
