// ARGS: --global 2 --arg out=int[5]
// vec_step of a type name of several words, the FP_ILOGB0 / FP_ILOGBNAN macros against ilogb,
// and a switch whose last label ends its block. Expected: out 1 1 21, then each work-item's r
// in out[3] and out[4]: 2 and 0.
kernel void k(global int *out)
{
    int r = 0;
    switch (get_global_id(0)) { case 0: r = 1; break; default: }
    switch (r) { case 1: r = 2; case 2: }
    if (get_global_id(0) == 0) {
        out[0] = ilogb(0.0f) == FP_ILOGB0;
        out[1] = ilogb(NAN) == FP_ILOGBNAN;
        out[2] = vec_step(unsigned int) + vec_step(float3) + vec_step(long16);
    }
    out[2 + get_global_id(0) + 1] = r;
}
