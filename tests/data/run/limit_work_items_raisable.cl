// ARGS: --global 64 --local 16 --arg out=int[4] --max-work-items 32
// The work-items limit, lowered to 32: a launch of 64 is refused, and the message says how to
// raise the limit.
__kernel void many(__global int *out)
{
    out[get_global_id(0) & 3] = 1;
}
