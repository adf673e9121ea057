// ARGS: --global 1 --arg out=int[1]
typedef struct { int x; } box;
__kernel void f(__global int *out)
{
    box b = { 1 };
    out[0] = b.y;
}
