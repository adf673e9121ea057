// ARGS: --global 1 --arg f=float[32] --arg d=double[8] --arg i=int[12] --arg bits=uint[6]
// The pi forms of the inverse trigonometric functions and tanpi (exact at the points where the
// result is exact), logb and ilogb (zero, infinity, NaN, subnormals), maxmag and minmag (equal
// magnitudes, signed zeros, NaN), nan with a payload, and native_/half_ divide and recip.
__kernel void more(__global float *f, __global double *d, __global int *i, __global uint *bits)
{
    f[0] = acospi(-1.0f);                   /* 1 */
    f[1] = acospi(0.5f);                    /* 1/3 */
    f[2] = asinpi(1.0f);                    /* 0.5 */
    f[3] = asinpi(-0.0f);                   /* -0 */
    f[4] = atanpi(1.0f);                    /* 0.25 */
    f[5] = atanpi(-INFINITY);               /* -0.5 */
    f[6] = atan2pi(1.0f, -1.0f);            /* 0.75 */
    f[7] = atan2pi(-0.0f, -1.0f);           /* -1 */
    f[8] = tanpi(0.25f);                    /* 1 */
    f[9] = tanpi(-0.75f);                   /* 1 */
    f[10] = tanpi(2.0f);                    /* +0: even integer */
    f[11] = tanpi(-3.0f);                   /* +0: odd integer, opposite sign */
    f[12] = tanpi(0.5f);                    /* inf */
    f[13] = tanpi(1.5f);                    /* -inf */
    f[14] = tanpi(INFINITY);                /* NaN */
    f[15] = logb(8.5f);                     /* 3 */
    f[16] = logb(0.0f);                     /* -inf */
    f[17] = logb(-INFINITY);                /* inf */
    f[18] = logb(1e-45f);                   /* -149: the smallest subnormal */
    f[19] = maxmag(1.0f, -2.0f);            /* -2 */
    f[20] = maxmag(-2.0f, 2.0f);            /* 2: equal magnitudes, the positive one */
    f[21] = minmag(-2.0f, 2.0f);            /* -2 */
    f[22] = maxmag(-0.0f, 0.0f);            /* 0 */
    f[23] = minmag(0.0f, -0.0f);            /* -0 */
    f[24] = maxmag(NAN, -3.0f);             /* -3: a NaN loses */
    f[25] = minmag(0.5f, NAN);              /* 0.5 */
    f[26] = native_divide(1.0f, 3.0f);      /* the float nearest 1/3, as 1.0f / 3.0f */
    f[27] = half_divide(-7.0f, 2.0f);       /* -3.5 */
    f[28] = native_recip(4.0f);             /* 0.25 */
    f[29] = half_recip(-0.0f);              /* -inf */
    float4 q = native_divide((float4)(1.0f, 2.0f, 3.0f, 4.0f), 2.0f);
    f[30] = q.w;                            /* 2 */
    f[31] = (native_divide(1.0f, 3.0f) == 1.0f / 3.0f) ? 1.0f : 0.0f;

    d[0] = acospi(-1.0);                    /* 1 */
    d[1] = atan2pi(1.0, 1.0);               /* 0.25 */
    d[2] = tanpi(-0.25);                    /* -1 */
    d[3] = logb(as_double(1UL));            /* -1074: the smallest subnormal */
    d[4] = minmag(-1.5, 1.25);              /* 1.25 */
    d[5] = native_recip(8.0);               /* 0.125 */
    d[6] = asinpi(0.5);                     /* 1/6 */
    d[7] = maxmag(-0.0, -0.0);              /* -0 */

    i[0] = ilogb(8.5f);                     /* 3 */
    i[1] = ilogb(0.0f);                     /* INT_MIN (FP_ILOGB0) */
    i[2] = ilogb(NAN);                      /* INT_MAX (FP_ILOGBNAN) */
    i[3] = ilogb(-INFINITY);                /* INT_MAX */
    i[4] = ilogb(1e-45f);                   /* -149 */
    i[5] = ilogb(as_double(1UL));           /* -1074 */
    int2 e2 = ilogb((double2)(0.75, 1024.0));
    i[6] = e2.x;                            /* -1 */
    i[7] = e2.y;                            /* 10 */
    int4 e4 = ilogb((float4)(1.0f, 2.0f, 0.3f, -65536.0f));
    i[8] = e4.x;
    i[9] = e4.y;
    i[10] = e4.z;                           /* -2 */
    i[11] = e4.w;                           /* 16 */

    bits[0] = as_uint(nan(0u));             /* 0x7fc00000 */
    bits[1] = as_uint(nan(5u));             /* 0x7fc00005 */
    bits[2] = as_uint(nan(0xffffffffu));    /* the code's low 22 bits: 0x7fffffff */
    ulong dn = as_ulong(nan(0x1234UL));     /* a double: 0x7ff8000000001234 */
    bits[3] = (uint)(dn >> 32);
    bits[4] = (uint)dn;
    bits[5] = isnan(nan((uint2)(1u, 2u))).y == -1;
}
