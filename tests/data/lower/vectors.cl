// ARGS: --ir
// Vectors take one register per lane: literals, swizzles, lane-wise arithmetic and a vector
// comparison, whose lanes are -1 or 0.
kernel void vecs(global float4 *out, float s) {
    float4 v = (float4)(1.0f, 2.0f, s, 4.0f);
    float2 lo = v.xy;
    v.zw = lo * 2.0f;
    int4 gt = v > (float4)(s);
    out[0] = v + convert_float4(gt);
}
