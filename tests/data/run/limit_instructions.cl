// ARGS: --global 1 --arg out=int[1] --max-instructions-per-step 5000
// The instructions-per-step limit, lowered: an endless private loop stops after 5,000
// instructions, and the finding names `max_instructions_per_step` and how to raise it.
__kernel void spin(__global int *out)
{
    int x = 0;
    while (x >= 0) { x = (x + 1) % 7; }
    out[0] = x;
}
