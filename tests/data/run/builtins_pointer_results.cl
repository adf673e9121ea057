// ARGS: --global 2 --local 2 --arg f=float[24] --arg n=int[16] --arg g=float[4] --arg e=int[4]
// fract, modf, frexp, remquo, sincos and lgamma_r return one result and store a second through
// a pointer into global, local or private memory. Edge cases: fract of a tiny negative number
// (just below 1), of -0 and of infinity; frexp of 0, of a subnormal and of infinity; remquo's
// quotient sign and bits; lgamma_r's sign of gamma.
__kernel void two_results(__global float *f, __global int *n, __global float *g, __global int *e)
{
    __local float lf[2];
    __local int li[2];
    int id = get_global_id(0);
    /* Global pointers: each work-item writes its own element. */
    float part = fract(2.75f + id, &g[id]);         /* 0.75, floor 2 and 3 */
    int2 ex;
    float2 mant = frexp((float2)(12.0f, -0.375f), &ex);
    e[2 * id] = ex.x;                               /* 4: 12 = 0.75 * 2^4 */
    e[2 * id + 1] = ex.y;                           /* -1: -0.375 = -0.75 * 2^-1 */
    /* Local pointers, one element per work-item, read back after a barrier. */
    float c = sincos(0.0f, &lf[id]);
    float rem = remquo(7.0f + id, -2.0f, &li[id]);  /* 7 / -2 = -3.5 rounds to -4: rem -1, quo -4 */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (id != 0) {
        return;
    }
    f[0] = part;
    f[1] = mant.x;                                  /* 0.75 */
    f[2] = mant.y;                                  /* -0.75 */
    f[3] = c;                                       /* sin 0 = 0 */
    f[4] = lf[0] + lf[1];                           /* cos 0 twice: 2 */
    f[5] = rem;                                     /* -1 */
    n[0] = li[0];                                   /* -4 */
    n[1] = li[1];                                   /* 8 / -2 = -4 exactly: -4 */

    /* Private pointers. */
    float ip;
    f[6] = fract(-1e-10f, &ip);                     /* 0x1.fffffep-1: 1 - 1e-10 rounds to 1 */
    f[7] = ip;                                      /* -1 */
    f[8] = fract(-0.0f, &ip);                       /* -0 */
    f[9] = ip;                                      /* -0 */
    f[10] = fract(-INFINITY, &ip);                  /* -0 */
    f[11] = ip;                                     /* -inf */
    f[12] = modf(-3.25f, &ip);                      /* -0.25 */
    f[13] = ip;                                     /* -3 */
    int ie;
    f[14] = frexp(0.0f, &ie);                       /* 0 */
    n[2] = ie;                                      /* 0 */
    f[15] = frexp(1e-45f, &ie);                     /* 0.5: the smallest subnormal is 2^-149 */
    n[3] = ie;                                      /* -148 */
    f[16] = frexp(-INFINITY, &ie);                  /* -inf */
    n[4] = ie;                                      /* 0 */
    int q;
    f[17] = remquo(-7.0f, 2.0f, &q);                /* -3.5 rounds to -4 (even): 1 */
    n[5] = q;                                       /* -4 */
    f[18] = remquo(10.0f, 3.0f, &q);                /* 10 - 3 * 3 = 1 */
    n[6] = q;                                       /* 3 */
    f[19] = remquo(1000.0f, 1.0f, &q);              /* 0 */
    n[7] = q;                                       /* 1000 */
    int sign;
    f[20] = lgamma_r(-0.5f, &sign);                 /* ln |gamma(-0.5)| = ln(2 sqrt(pi)) */
    n[8] = sign;                                    /* -1: gamma(-0.5) < 0 */
    f[21] = lgamma_r(3.0f, &sign);                  /* ln 2 */
    n[9] = sign;                                    /* 1 */
    float4 ip4;
    float4 fr4 = fract((float4)(1.5f, -1.25f, 3.0f, NAN), &ip4);
    f[22] = fr4.y + ip4.y;                          /* 0.75 + -2 */
    n[10] = isnan(fr4.w) && isnan(ip4.w);
    double dp;
    f[23] = (float)modf(-2.5, &dp);                 /* -0.5 */
    n[11] = (int)dp;                                /* -2 */
    double2 cs;
    double2 sn = sincos((double2)(0.0, 1.0), &cs);
    n[12] = sn.y == sin(1.0) && cs.y == cos(1.0);   /* the same values as sin and cos */
    int2 q2;
    float2 r2 = remquo((float2)(5.0f, -5.0f), (float2)(3.0f, 3.0f), &q2);
    n[13] = q2.x;                                   /* 5 / 3 rounds to 2 */
    n[14] = q2.y;                                   /* -2 */
    n[15] = (int)r2.y;                              /* -5 - -6 = 1 */
}
