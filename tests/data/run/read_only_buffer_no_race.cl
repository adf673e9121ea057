// ARGS: --global 8 --local 4 --arg in=int[8]:range=1:1:ro --arg out=int[8] --seed 5 --json
// Every work-item reads its neighbour's element of a read-only buffer, and work-item 3 also
// tries to store into it through a cast: the store is refused (`read-only-write`) and not
// made, so the buffer only ever holds what it started with, its reads cannot race, and the
// race detector keeps no shadow of it. The race on `out` (work-items 0 and 1 both store to
// out[0]) is still found.
__kernel void neighbours(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int v = in[(i + 1) % 8];
    if (i == 3)
        ((__global int *)in)[4] = 99;
    out[i < 2 ? 0 : i] = v + in[i];
}
