// ARGS: --global 1 --arg out=int[1] --max-steps 200000000 --max-printf-bytes 0
// Limits set out of range: above a hard maximum, or zero. Each is refused before launch.
__kernel void one(__global int *out)
{
    out[0] = 1;
}
