// ARGS: --global 1 --arg f=float[16] --arg i=int[12] --arg c=char[4] --json
// Math, integer, relational and geometric built-ins on scalars and vectors.
__kernel void lib(__global float *f, __global int *i, __global char *c)
{
    float4 v = (float4)(3.0f, 4.0f, 0.0f, 0.0f);
    f[0] = sqrt(2.0f);
    f[1] = length(v);
    f[2] = dot(v, (float4)(1.0f));
    f[3] = pow(2.0f, 10.0f);
    f[4] = pown(1.5f, 3);
    f[5] = clamp(7.5f, 0.0f, 5.0f);
    f[6] = mix(1.0f, 3.0f, 0.25f);
    f[7] = fmod(7.5f, 2.0f);
    float4 n = normalize(v);
    f[8] = n.x;
    f[9] = n.y;
    float4 x = cross((float4)(1.0f, 0.0f, 0.0f, 0.0f), (float4)(0.0f, 1.0f, 0.0f, 0.0f));
    f[10] = x.z;
    f[11] = exp(0.0f) + log(1.0f);
    f[12] = smoothstep(0.0f, 1.0f, 0.5f);
    f[13] = floor(-2.5f) + ceil(2.1f);
    f[14] = fmax(NAN, 1.0f);
    f[15] = select(1.0f, 2.0f, 1);
    i[0] = clz(1);
    i[1] = popcount(255);
    i[2] = rotate(1, 31);
    i[3] = mul_hi(0x40000000, 8);
    i[4] = max(3, -4);
    i[5] = isnan(NAN);
    int4 m = isnan((float4)(0.0f, NAN, 1.0f, 2.0f));
    i[6] = m.y;
    i[7] = any((int4)(0, 0, -1, 0));
    i[8] = all((int4)(-1, -1, 0, -1));
    uint4 sh = shuffle((uint4)(10, 20, 30, 40), (uint4)(3, 2, 1, 0));
    i[9] = sh.x;
    i[10] = abs_diff(-3, 4);
    i[11] = hadd(7, 8);
    c[0] = add_sat((char)120, (char)10);
    c[1] = sub_sat((char)-120, (char)10);
    char2 s = add_sat((char2)(100, -100), (char2)(100, -100));
    c[2] = s.x;
    c[3] = s.y;
}
