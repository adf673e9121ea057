// ARGS: --ir
// Lane-wise built-ins: one Math instruction a lane; `fract` stores its second result
// through its pointer.
kernel void maths(global float *out, float x) {
    float whole;
    float f = fract(x, &whole);
    float2 v = sqrt((float2)(x, 4.0f));
    out[0] = fma(f, whole, clamp(x, 0.0f, 1.0f)) + v.y;
    out[1] = isnan(x) ? 0.0f : native_exp(x);
}
