// ARGS: --global 1 --arg f=float[24] --arg d=double[4]
// convert_float/convert_double with _rtz, _rtp and _rtn from integers and doubles round once
// in the named direction (and _rte / no suffix to nearest even), including past the largest
// float and below the smallest subnormal.
__kernel void directed(__global float *f, __global double *d)
{
    f[0] = convert_float_rtp(16777217);             /* 16777218 */
    f[1] = convert_float_rtn(16777217);             /* 16777216 */
    f[2] = convert_float_rtz(16777217);             /* 16777216 */
    f[3] = convert_float_rte(16777217);             /* 16777216: the tie goes to even */
    f[4] = convert_float_rtn(-16777217);            /* -16777218 */
    f[5] = convert_float_rtz(-16777217);            /* -16777216 */
    f[6] = convert_float_rtp(-16777217);            /* -16777216 */
    f[7] = convert_float_rtz(1.0000001);            /* 1: the nearest float is above */
    f[8] = convert_float_rtp(1.0000001);            /* 1.0000001 (1 + 2^-23) */
    f[9] = convert_float_rtn(-1.0000001);           /* -1.0000001 */
    f[10] = convert_float_rtz(1e300);               /* FLT_MAX */
    f[11] = convert_float_rtp(1e300);               /* inf */
    f[12] = convert_float_rtn(-1e300);              /* -inf */
    f[13] = convert_float_rtz(-1e300);              /* -FLT_MAX */
    f[14] = convert_float_rtp(1e-50);               /* 1e-45, the smallest subnormal */
    f[15] = convert_float_rtn(-1e-50);              /* -1e-45 */
    f[16] = convert_float_rtz(-1e-50);              /* -0 */
    f[17] = convert_float_rtz(0xffffffffffffffffUL); /* 2^64 - 2^40 */
    f[18] = convert_float_rtp(0xffffffffffffffffUL); /* 2^64 */
    f[19] = convert_float_rtn((uchar)255);          /* 255: exact */
    f[20] = convert_float_rtp((double)NAN);         /* NaN */
    float4 v = convert_float4_rtp((int4)(16777217, 16777219, -16777217, 3));
    f[21] = v.y;                                    /* 16777220 */
    f[22] = v.z;                                    /* -16777216 */
    f[23] = convert_float_rtz(-0.0);                /* -0 */

    d[0] = convert_double_rtz(LONG_MAX);            /* 2^63 - 1024 */
    d[1] = convert_double_rtp(LONG_MAX);            /* 2^63 */
    d[2] = convert_double_rtn(-9007199254740993L);  /* -9007199254740994 */
    d[3] = convert_double_rtp(9007199254740993UL);  /* 9007199254740994 */
}
