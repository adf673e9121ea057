// ARGS: --global 1
// A designator naming a member the struct does not have points at the name.
typedef struct { int a; int b; } P;
__kernel void k(__global int *out)
{
    P p = { .a = 1, .d = 2 };
    out[0] = p.a;
}
