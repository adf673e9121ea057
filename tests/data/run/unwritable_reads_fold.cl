// ARGS: --global 4 --local 4 --arg in=int[4]:values=3,1,4,1:ro --arg total=int[1] --seed 3
// Reads of memory nothing can write are no steps of their own: no schedule can change what
// they read, so each work-item's two reads of the read-only buffer `in` and its read of the
// constant table are made in its step before them (here at the launch, as they come before
// its first step). Each work-item takes one step, its atomic_add (its finish rides along),
// four in all; `unwritable_reads_every_event.cl` is the same kernel with every read a step.
__constant int scale[4] = {10, 20, 30, 40};

__kernel void weighted_sum(__global const int *in, __global int *total)
{
    int i = get_global_id(0);
    int v = in[i] * scale[i] + in[(i + 1) % 4];
    atomic_add(total, v);
}
