// ARGS: --ir
// The usual arithmetic conversions, a narrowing to char, a saturating conversion with a
// rounding mode and a reinterpretation of bits.
kernel void convs(global int *out, float f, uchar c) {
    int i = c + 1;
    char n = (char)(i * 300);
    float g = i + f;
    out[0] = convert_int_sat_rte(g);
    out[1] = as_int(f);
    out[2] = n;
}
