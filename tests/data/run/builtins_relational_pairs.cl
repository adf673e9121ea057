// ARGS: --global 1 --arg s=int[27] --arg v=int[12] --arg w=long[4]
// The comparison built-ins: scalars give 1 or 0, vectors -1 or 0 per lane in integers as wide
// as the operands. NaN compares unordered (only isnotequal and isunordered are true), -0
// equals +0, and infinities compare as numbers.
__kernel void compare(__global int *s, __global int *v, __global long *w)
{
    float nan_ = NAN;
    s[0] = isequal(1.0f, 1.0f);             /* 1 */
    s[1] = isequal(-0.0f, 0.0f);            /* 1 */
    s[2] = isequal(nan_, nan_);             /* 0 */
    s[3] = isnotequal(nan_, nan_);          /* 1 */
    s[4] = isnotequal(-0.0f, 0.0f);         /* 0 */
    s[5] = isgreater(INFINITY, FLT_MAX);    /* 1 */
    s[6] = isgreater(nan_, 1.0f);           /* 0 */
    s[7] = isgreaterequal(-0.0f, 0.0f);     /* 1 */
    s[8] = isgreaterequal(1.0f, nan_);      /* 0 */
    s[9] = isless(-INFINITY, -FLT_MAX);     /* 1 */
    s[10] = isless(nan_, INFINITY);         /* 0 */
    s[11] = islessequal(2.0f, 2.0f);        /* 1 */
    s[12] = islessequal(nan_, 2.0f);        /* 0 */
    s[13] = islessgreater(1.0f, 2.0f);      /* 1 */
    s[14] = islessgreater(-0.0f, 0.0f);     /* 0 */
    s[15] = islessgreater(nan_, 2.0f);      /* 0 */
    s[16] = isordered(1.0f, INFINITY);      /* 1 */
    s[17] = isordered(nan_, 1.0f);          /* 0 */
    s[18] = isunordered(1.0f, nan_);        /* 1 */
    s[19] = isunordered(-INFINITY, 0.0f);   /* 0 */
    s[20] = isequal(0.1, 0.1f);             /* 0: double 0.1 is not float 0.1 */
    s[21] = isless(1, 2);                   /* 1: integers compare as floats */
    s[22] = isequal(16777217, 16777216);    /* 1: both round to the same float */
    s[23] = isgreater(1e-45f, 0.0f);        /* 1: a subnormal is above zero */
    s[24] = any(isless((float4)(1.0f), (float4)(2.0f, 0.0f, 0.0f, 0.0f)));  /* 1 */
    s[25] = all(isunordered((float2)(nan_, 1.0f), (float2)(1.0f, nan_)));  /* 1 */
    s[26] = all(isnotequal((float3)(nan_), (float3)(nan_)));                /* 1 */

    int4 a = isless((float4)(1.0f, nan_, -0.0f, -INFINITY), (float4)(2.0f, 1.0f, 0.0f, INFINITY));
    v[0] = a.x;                             /* -1 */
    v[1] = a.y;                             /* 0 */
    v[2] = a.z;                             /* 0 */
    v[3] = a.w;                             /* -1 */
    int4 b = isequal((float4)(0.0f, nan_, 1.0f, INFINITY), (float4)(-0.0f, nan_, 2.0f, INFINITY));
    v[4] = b.x;                             /* -1 */
    v[5] = b.y;                             /* 0 */
    v[6] = b.z;                             /* 0 */
    v[7] = b.w;                             /* -1 */
    int4 c = isgreaterequal((float4)(3.0f), 2.0f);
    v[8] = c.x;                             /* -1: a scalar operand is broadcast */
    int2 d = islessgreater((float2)(1.0f, 2.0f), (float2)(1.0f, 1.0f));
    v[9] = d.x;                             /* 0 */
    v[10] = d.y;                            /* -1 */
    v[11] = select(10, 20, isordered(1.0f, 2.0f));  /* 20 */

    long2 e = isgreater((double2)(1.0, NAN), (double2)(0.5, 0.5));
    w[0] = e.x;                             /* -1 in a long lane */
    w[1] = e.y;                             /* 0 */
    long2 f = isunordered((double2)(NAN, 0.0), (double2)(0.0, 0.0));
    w[2] = f.x;                             /* -1 */
    w[3] = f.y;                             /* 0 */
}
