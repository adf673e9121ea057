// ARGS: --global 1 --arg f=float[14] --arg d=double[4] --arg i=int[6]
// The forms that mix vectors with scalars: clamp with scalar bounds, min/max/fmin/fmax with a
// scalar, mix with a scalar weight, step/smoothstep with scalar edges; select on floats and
// doubles with integer conditions; bitselect on float bits.
__kernel void mixed(__global float *f, __global double *d, __global int *i)
{
    float4 x = (float4)(-1.0f, 0.25f, 0.5f, 2.0f);
    float4 c = clamp(x, 0.0f, 1.0f);
    f[0] = c.x;                                     /* 0 */
    f[1] = c.w;                                     /* 1 */
    f[2] = max(x, 0.3f).y;                          /* 0.3 */
    f[3] = fmin(x, 0.3f).w;                         /* 0.3 */
    f[4] = mix((float4)(0.0f), (float4)(8.0f), 0.25f).z;  /* 2 */
    float4 s = step(0.5f, x);
    f[5] = s.y;                                     /* 0 */
    f[6] = s.z;                                     /* 1: the edge itself steps */
    f[7] = smoothstep(0.0f, 1.0f, x).y;             /* 0.15625 */
    f[8] = smoothstep(0.0f, 1.0f, x).w;             /* 1 */
    float4 sel = select((float4)(1.0f), (float4)(2.0f), (int4)(-1, 0, INT_MIN, 1));
    f[9] = sel.x;                                   /* 2: sign bit set */
    f[10] = sel.y;                                  /* 1 */
    f[11] = sel.z;                                  /* 2 */
    f[12] = sel.w;                                  /* 1: 1 has no sign bit */
    f[13] = bitselect(-2.0f, 4.0f, as_float(0x7fffffff));  /* 4's magnitude with -2's sign: -4 */

    double2 dd = select((double2)(1.0, 3.0), (double2)(2.0, 4.0), (long2)(0, -1));
    d[0] = dd.x;                                    /* 1 */
    d[1] = dd.y;                                    /* 4 */
    d[2] = select(5.0, 6.0, 1L);                    /* 6: a scalar condition is tested for non-zero */
    d[3] = clamp((double2)(7.0, -7.0), -1.0, 1.0).y;  /* -1 */

    int4 n = clamp((int4)(-5, 5, 50, 500), 0, 100);
    i[0] = n.x;                                     /* 0 */
    i[1] = n.w;                                     /* 100 */
    i[2] = min((int4)(3, 9, 1, 7), 4).y;            /* 4 */
    i[3] = max((uint4)(3u, 9u, 1u, 7u), 5u).z;      /* 5 */
    i[4] = as_int(bitselect(1.0f, -1.0f, as_float(0x80000000u)));  /* the bits of -1.0f */
    i[5] = bitselect((int4)(0x0f), (int4)(0xf0), (int4)(0x3c)).x;    /* 0x33 */
}
