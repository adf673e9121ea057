// ARGS: --global 2 --local 2 --arg f=float[10] --arg i=int[24] --arg h=ushort[6]
// fast_length, fast_distance and fast_normalize (the values of length, distance and
// normalize); vec_step of types and values (a 3-lane vector steps by 4); to_global, to_local,
// to_private and get_fence on pointers into each space; as_type between one size and another
// lane count; vstore_half of doubles, rounded once.
int space_code(__generic int *p)
{
    return (to_global(p) != 0) + 2 * (to_local(p) != 0) + 4 * (to_private(p) != 0);
}

__kernel void lanes(__global float *f, __global int *i, __global ushort *h)
{
    __local int tile[2];
    int mine = 5;
    int id = get_global_id(0);
    tile[id] = id;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (id != 0) {
        return;
    }
    f[0] = fast_length((float2)(3.0f, 4.0f));                               /* 5 */
    f[1] = fast_distance((float4)(1.0f, 1.0f, 1.0f, 1.0f), (float4)(2.0f)); /* 2 */
    float3 n = fast_normalize((float3)(0.0f, 3.0f, -4.0f));
    f[2] = n.y;                                                             /* 0.6 */
    f[3] = n.z;                                                             /* -0.8 */
    f[4] = fast_length(-2.5f);                                              /* 2.5 */
    f[5] = fast_length((float4)(1.0f, 2.0f, 3.0f, 4.0f)) == length((float4)(1.0f, 2.0f, 3.0f, 4.0f));
    f[6] = as_float((uchar4)(0x00, 0x00, 0x80, 0x3f));                       /* 1.0, little-endian */
    float2 pair = as_float2((long)0x4000000000000000L);
    f[7] = pair.y;                                                          /* 2.0 */
    f[8] = as_float4((double2)(0.0, 1.0)).w;                                /* 1.875: the high word of 1.0 */
    f[9] = as_float3((int4)(0x3f800000)).z;                                 /* 1.0 */

    float3 x3;
    typedef double4 d4;
    i[0] = vec_step(int);                   /* 1 */
    i[1] = vec_step(float3);                /* 4 */
    i[2] = vec_step(x3);                    /* 4 */
    i[3] = vec_step(uchar16);               /* 16 */
    i[4] = vec_step(d4);                    /* 4 */
    i[5] = vec_step((short2)(1, 2) + 1);    /* 2 */
    i[6] = vec_step(f[0]);                  /* 1 */
    i[7] = space_code(i);                   /* 1: global */
    i[8] = space_code(tile);                /* 2: local */
    i[9] = space_code(&mine);               /* 4: private */
    i[10] = get_fence(i);                   /* CLK_GLOBAL_MEM_FENCE */
    i[11] = get_fence(tile + 1);            /* CLK_LOCAL_MEM_FENCE */
    i[12] = *to_local(&tile[1]);            /* 1 */
    i[13] = *to_private(&mine);             /* 5 */
    i[14] = to_global((__global int *)0) == 0;  /* 1 */
    char4 c4 = as_char4((int)0x80ff0102u);
    i[15] = c4.x;                           /* 2 */
    i[16] = c4.z;                           /* -1 */
    i[17] = c4.w;                           /* -128 */
    short2 s2 = as_short2(-2.0f);           /* 0xc0000000 */
    i[18] = s2.x;                           /* 0 */
    i[19] = s2.y;                           /* -16384 */
    i[20] = as_int((ushort2)(0xffff, 0x7fff));  /* 0x7fffffff */
    uint4 u4 = as_uint4((ulong2)(0x0000000100000002UL, 3UL));
    i[21] = u4.x;                           /* 2 */
    i[22] = u4.y;                           /* 1 */
    i[23] = u4.z;                           /* 3 */

    /* 1 + 2^-11 + 2^-30 is just above the midpoint between the halves 1 and 1 + 2^-10: a
       double rounds it up; through float (where it becomes the midpoint) it would round to
       even, down. */
    double above = 1.0 + 1.0 / 2048.0 + 1.0 / 1073741824.0;
    vstore_half(above, 0, (__global half *)h);
    vstore_half_rtz(above, 1, (__global half *)h);
    vstore_half2_rtn((double2)(-above, 65504.0 * 4), 1, (__global half *)h);
    vstore_half_rtp(-above, 4, (__global half *)h);
    vstore_half((float)above, 5, (__global half *)h);
}
