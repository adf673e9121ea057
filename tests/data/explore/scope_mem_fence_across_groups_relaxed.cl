// ARGS: --global 2 --local 1 --arg data=int[1]:fill=0 --arg flag=int[1]:fill=0 --arg out=int[1] --memory-model relaxed --runs 300
// Under the relaxed memory model, explored: the outcomes show what the scope allows.
// Message passing between two work-groups through mem_fence and a relaxed atomic flag.
// mem_fence has work-group scope (OpenCL 2.0 defines it as atomic_work_item_fence with
// memory_scope_work_group), so across groups it orders nothing: the data read races with its
// write although the flag was seen (scope_device_fence_across_groups.cl is the repair).
__kernel void mp(__global int *data, __global int *flag, __global int *out)
{
    if (get_group_id(0) == 0) {
        data[0] = 42;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        atomic_xchg(&flag[0], 1);
    } else {
        while (atomic_add(&flag[0], 0) == 0)
            ;
        mem_fence(CLK_GLOBAL_MEM_FENCE);
        out[0] = data[0];
    }
}
