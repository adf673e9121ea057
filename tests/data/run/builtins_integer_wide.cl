// ARGS: --global 1 --arg hi=long[12] --arg up=long[16] --arg ab=uint[8]
// mad_hi at the signed and unsigned extremes, upsample of every width (negative high halves
// keep their sign), abs of vectors, and mul_hi / mad_sat on ulong, whose products need 128 bits.
__kernel void wide(__global long *hi, __global long *up, __global uint *ab)
{
    hi[0] = mad_hi(INT_MIN, INT_MIN, 1);            /* 2^62 >> 32 = 2^30, + 1 */
    hi[1] = mad_hi(INT_MAX, INT_MIN, 0);            /* -(2^62 - 2^31) >> 32 = -2^30 */
    hi[2] = mad_hi(-1, 1, 0);                       /* -1 >> 32 = -1 */
    hi[3] = mad_hi(0xffffffffu, 0xffffffffu, 5u);   /* (2^32 - 1)^2 >> 32 = 2^32 - 2, + 5 wraps to 3 */
    hi[4] = mad_hi((uchar)255, (uchar)255, (uchar)1); /* 65025 >> 8 = 254, + 1 */
    hi[5] = mad_hi((char)-128, (char)127, (char)0);  /* -16256 >> 8 = -64 */
    ulong m = 0xffffffffffffffffUL;
    hi[6] = mul_hi(m, m);                           /* 2^64 - 2 */
    hi[7] = mad_hi(m, m, 3UL);                      /* wraps to 1 */
    hi[8] = mad_hi(LONG_MIN, LONG_MIN, 0L);         /* 2^126 >> 64 = 2^62 */
    hi[9] = mad_sat(m, m, 1UL);                     /* saturates to ULONG_MAX (-1 as long) */
    long2 v = mad_hi((long2)(LONG_MIN, -1), (long2)(LONG_MAX, LONG_MAX), (long2)(0, 7));
    hi[10] = v.x;                                   /* -(2^126 - 2^63) >> 64 = -2^62 */
    hi[11] = v.y;                                   /* -1 + 7 = 6 */

    up[0] = upsample((char)-1, (uchar)2);           /* 0xff02 as short: -254 */
    up[1] = upsample((uchar)255, (uchar)255);       /* 65535 */
    up[2] = upsample((short)-2, (ushort)0xffff);    /* 0xfffeffff as int: -65537 */
    up[3] = upsample((ushort)1, (ushort)2);         /* 65538 */
    up[4] = upsample(INT_MIN, 1u);                  /* LONG_MIN + 1 */
    up[5] = upsample(0xffffffffu, 0xffffffffu);     /* ULONG_MAX (-1 as long) */
    up[6] = upsample(-1, 0u);                       /* -2^32 */
    up[7] = upsample(0x12345678, 0x9abcdef0u);      /* 0x123456789abcdef0 */
    short4 s4 = upsample((char4)(-128, 127, 0, -1), (uchar4)(0, 255, 128, 255));
    up[8] = s4.x;                                   /* -32768 */
    up[9] = s4.y;                                   /* 32767 */
    up[10] = s4.z;                                  /* 128 */
    up[11] = s4.w;                                  /* -1 */
    long3 l3 = upsample((int3)(-1, 1, 2), (uint3)(1u, 0u, 3u));
    up[12] = l3.x;                                  /* -4294967295 */
    up[13] = l3.z;                                  /* 8589934595 */
    uint2 u2 = upsample((ushort2)(65535, 0), (ushort2)(65535, 1));
    up[14] = u2.x;                                  /* 4294967295 */
    up[15] = u2.y;                                  /* 1 */

    uchar4 a = abs((char4)(-128, -1, 0, 127));
    ab[0] = a.x;                                    /* 128 */
    ab[1] = a.y;
    ab[2] = a.z;
    ab[3] = a.w;
    uint2 b = abs((int2)(INT_MIN, -5));
    ab[4] = b.x;                                    /* 2147483648 */
    ab[5] = b.y;
    ulong2 c = abs((long2)(LONG_MIN, -3));
    ab[6] = (uint)(c.x >> 32);                      /* 2147483648 */
    ab[7] = (uint)c.y;
}
