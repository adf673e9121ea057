// ARGS: --global 1 --arg out=short[1]
// upsample's low half must be the unsigned type of the high half's width.
__kernel void wrong_lo(__global short *out)
{
    char hi = -1;
    char lo = 2;
    out[0] = upsample(hi, lo);
}
