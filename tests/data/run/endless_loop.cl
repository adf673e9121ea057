// ARGS: --global 1 --arg out=int[1] --json
// A private loop that never ends and never touches shared memory.
__kernel void spin(__global int *out)
{
    int x = 0;
    while (x >= 0) { x = (x + 1) % 7; }
    out[0] = x;
}
