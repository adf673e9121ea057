// ARGS:
// The error is inside a macro's expansion: the diagnostic shows the use and the definition.
#define STORE(p, v) *(p) = v v
__kernel void f(__global int *d)
{
    STORE(d, 1);
}
