// ARGS: --global 4 --local 4 --arg out=int[4] --json
// OpenCL 2.0 generic pointers reach local and private memory; const integers size arrays.
__constant int STRIDE = 2;
const int WIDTH = 4;

int first(__generic int *p) { return p[0]; }

__kernel void generic_reads(__global int *out)
{
    __local int tile[WIDTH];
    int priv[STRIDE * 2] = { 7, 8, 9, 10 };
    int l = get_local_id(0);
    tile[l] = 100 + l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = first(&tile[(l + 1) % WIDTH]) + first(priv + STRIDE);
}
