// ARGS: --global 2 --local 1 --arg data=int[1]:fill=0 --arg flag=int[1]:fill=0 --arg out=int[1] --memory-model relaxed --runs 300
// Under the relaxed memory model, explored: the outcomes show what the scope allows.
// scope_mem_fence_across_groups.cl repaired: release and acquire fences at device scope
// include both work-groups, so the flag orders the data and nothing races.
__kernel void mp(__global int *data, __global int *flag, __global int *out)
{
    if (get_group_id(0) == 0) {
        data[0] = 42;
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
        atomic_xchg(&flag[0], 1);
    } else {
        while (atomic_add(&flag[0], 0) == 0)
            ;
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
        out[0] = data[0];
    }
}
