// ARGS: --global 100000000 --local 100 --arg out=int[4]
// A launch of 100 million work-items: above even the hard maximum of the work-items limit, so
// it is refused before it runs, with a message that says so.
__kernel void many(__global int *out)
{
    out[get_global_id(0) & 3] = 1;
}
