// ARGS: --global 2 --arg h=ushort[8]:values=15360,16384,16896,48128 --arg f=float[8] --arg out=ushort[4] --json
// half as a storage type: loaded as float with vload_half, stored back with rounding modes.
// The buffer holds the bits of 1.0, 2.0, 3.0 and -1.0 as halves; half buffers are reported
// as their 16-bit patterns.
__kernel void halves(__global half *h, __global float *f, __global half *out)
{
    int i = get_global_id(0);
    float2 v = vload_half2(i, h);
    f[2 * i] = v.x;
    f[2 * i + 1] = v.y;
    if (i == 0) {
        float x = 1.0f + 0.00048828125f;   /* halfway between two halves */
        vstore_half_rte(x, 0, out);
        vstore_half_rtp(x, 1, out);
        vstore_half_rtz(-x, 2, out);
        vstore_half_rtn(-x, 3, out);
    }
}
