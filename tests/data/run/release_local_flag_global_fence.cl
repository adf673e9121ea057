// ARGS: --global 2 --local 2 --arg payload=int[1] --arg seen=int[1] --seed 1
// release_local_flag "repaired" with fences that name only global memory. A fence orders a
// memory through an atomic only when its flags name the memory of the atomic's object too, so
// these fences publish nothing through the local flag: the payload still races.
// release_local_flag_fenced names both memories and is the repair.
__kernel void message(__global int *payload, __global int *seen)
{
    __local atomic_int flag;
    if (get_local_id(0) == 0)
        atomic_init(&flag, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        payload[0] = 42;
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
        atomic_store_explicit(&flag, 1, memory_order_relaxed, memory_scope_work_group);
    } else {
        while (atomic_load_explicit(&flag, memory_order_relaxed, memory_scope_work_group) == 0)
            ;
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
        seen[0] = payload[0];
    }
}
