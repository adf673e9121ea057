// ARGS: --global 2 --arg out=int[2] --arg hashes=uint[2] --sched round-robin --json
// Signed overflow is undefined in C; the engine wraps and warns once per place. The same
// arithmetic on unsigned values is defined and says nothing.
__kernel void overflow(__global int *out, __global uint *hashes)
{
    int i = get_global_id(0);
    int big = 2147483647 - i;
    out[i] = big + 1;
    uint h = 4000000000u;
    hashes[i] = h * 3u + (uint)i;
}
