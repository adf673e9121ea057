// ARGS: --global 1 --arg out=int[8] --arg f=float[2]
// `?:` with a vector condition is select(otherwise, then, condition): lane by lane on the
// condition's sign bit, with scalar arms broadcast to the condition's lanes.
__kernel void lanes(__global int *out, __global float *f)
{
    int4 c = (int4)(-1, 0, INT_MIN, 5);
    int4 r = c ? (int4)(1, 2, 3, 4) : (int4)(10, 20, 30, 40);
    out[0] = r.x;                           /* 1: sign bit set */
    out[1] = r.y;                           /* 20 */
    out[2] = r.z;                           /* 3 */
    out[3] = r.w;                           /* 40: 5 has no sign bit */
    int4 s = c ? 7 : 8;
    out[4] = s.x;                           /* 7 */
    out[5] = s.w;                           /* 8 */
    float2 g = (int2)(0, -1) ? (float2)(1.5f, 2.5f) : 9.0f;
    f[0] = g.x;                             /* 9 */
    f[1] = g.y;                             /* 2.5 */
    int4 m = ((int4)(1, 2, 3, 4) > 2) ? (int4)(100) : (int4)(0);
    out[6] = m.z;                           /* 100 */
    out[7] = m.x;                           /* 0 */
}
