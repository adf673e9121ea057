// ARGS: --global 4,2 --local 2,1 --offset 10,20 --arg out=ulong[8] --sched round-robin --json
// A global offset shifts get_global_id but not get_global_linear_id (which subtracts it), and
// get_global_offset reports it.
__kernel void offsets(__global ulong *out)
{
    size_t linear = get_global_linear_id();
    out[linear] = get_global_id(0) * 1000 + get_global_id(1) + get_global_offset(0) * 100000 + get_global_offset(1) * 10000000;
}
