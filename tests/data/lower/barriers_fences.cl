// ARGS: --ir
// A local array shared by the work-group, a barrier between its writes and reads, and the
// fences of OpenCL 1.x.
kernel void shift(global int *out) {
    local int tile[8];
    size_t l = get_local_id(0);
    tile[l] = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[(l + 1) % 8];
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
