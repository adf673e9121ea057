// ARGS: --global 2 --arg out=float[8] --arg ints=int[8] --arg bytes=uchar[8] --sched round-robin --json
// Vector literals, swizzles (read and write), component-wise arithmetic and comparison,
// vload/vstore, conversions with saturation and rounding, as_T, and vectors through calls.
float4 scale(float4 v, float k) { return v * k; }

__kernel void vec(__global float *out, __global int *ints, __global uchar *bytes)
{
    int i = get_global_id(0);
    float4 a = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 b = (float4)(0.5f);
    a.xy = a.yx;
    a.w += 10.0f;
    float4 c = scale(a + b, 2.0f);
    vstore4(c, i, out);
    int4 m = (int4)(1, 5, 3, 7) > (int4)(2);
    int4 lo = convert_int4_rtn((float4)(-1.5f, -0.5f, 0.5f, 1.5f));
    int2 pair = (int2)(m.s1, lo.w);
    vstore2(pair, 2 * i, ints);
    vstore2(lo.lo + lo.hi, 2 * i + 1, ints);
    uchar4 sat = convert_uchar4_sat((int4)(-5, 100, 300, 255));
    vstore4(sat, i, bytes);
    if (i == 0) {
        float4 back = vload4(0, out);
        printf("%d %d %u\n", as_int(1.0f), (int)back.s3, (uint)sat.z);
    }
}
