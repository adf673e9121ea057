// The kernel of launch_from_sim_file.sim.
__kernel void scale(__global const int *in, __global int *out, __local int *scratch, int factor)
{
    int l = get_local_id(0);
    scratch[l] = in[get_global_id(0)] * factor;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[(l + 1) % get_local_size(0)] + N;
}
