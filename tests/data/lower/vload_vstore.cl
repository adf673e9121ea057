// ARGS: --ir
// vloadN and vstoreN move N elements at (pointer + N * offset); vstore_half rounds a float
// to a half's 16 bits.
kernel void move(global float *in, global half *out) {
    float4 v = vload4(1, in);
    vstore4(v * 2.0f, 0, in);
    vstore_half_rtz(v.x, 0, out);
}
