// ARGS: --global 4 --arg p=uchar[12]:values=3,0,0,0,5,0,0,0,1,0,0,0 --arg out=int[4] --arg halves=short[8] --json
// A struct passed by value to a kernel, given as its bytes; compound literals.
typedef struct { int scale; int offset; int flip; } params;

__kernel void affine(params p, __global int *out, __global short2 *halves)
{
    int i = get_global_id(0);
    p.offset += i;            /* each work-item changes only its own copy */
    out[i] = p.flip ? -(p.scale * i + p.offset) : p.scale * i + p.offset;
    halves[i] = (short2){ (short)i, (short)(10 * i) };
}
