// ARGS: --global 4 --local 4 --arg in=int[4]:values=3,1,4,1:ro --arg total=int[1] --seed 3
// Reads of memory nothing can write are no steps of their own: no schedule can change what
// they read, so they are made in the work-item's own step before them. Each work-item's first
// read of the read-only buffer `in` is its first step (there is no step of its own before
// it), and its read of the constant table and its second read of `in` ride along; its
// atomic_add is its second step (its finish rides along): eight steps in all, where
// `unwritable_reads_every_event.cl`, the same kernel with every read a step, takes sixteen.
__constant int scale[4] = {10, 20, 30, 40};

__kernel void weighted_sum(__global const int *in, __global int *total)
{
    int i = get_global_id(0);
    int v = in[i] * scale[i] + in[(i + 1) % 4];
    atomic_add(total, v);
}
