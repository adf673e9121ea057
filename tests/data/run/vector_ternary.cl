// ARGS: --global 1 --arg out=int[16] --arg f=float[4]
// `?:` with a vector condition selects lane by lane (OpenCL C 1.2 section 6.3.i), on each
// lane's most significant bit, with scalar arms widened. Expected:
// out: 0 0 3 4 | 9 9 7 7 | 1 -2 3 -4 | 1 0 0 1 (1u and 0u have no sign bit; 0x80000000u has)
// f: 1.5 2 3 4 (an absolute value by lanes)
__kernel void lanes(__global int4 *out, __global float4 *f)
{
    int4 a = (int4)(1, 2, 3, 4);
    out[0] = a > 2 ? a : (int4)(0);
    out[1] = a > 2 ? 7 : 9;
    out[2] = (int4)(-1, 0, -1, 0) ? a : -a;
    float4 x = (float4)(1.5f, -2.0f, 3.0f, -4.0f);
    f[0] = x < 0.0f ? -x : x;
    out[3] = (uint4)(0x80000000u, 1u, 0u, 0xFFFFFFFFu) ? (int4)(1) : (int4)(0);
}
