// ARGS: --global 2 --local 2 --arg payload=int[1] --arg seen=int[1] --seed 1
// Message passing between the two work-items of one group through a flag in local memory.
// A release/acquire atomic orders only the memory of its own address space: the release on
// the local flag publishes local memory, not the global payload, so the read of the payload
// races with its write although the reader waited for the flag.
__kernel void message(__global int *payload, __global int *seen)
{
    __local atomic_int flag;
    if (get_local_id(0) == 0)
        atomic_init(&flag, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        payload[0] = 42;
        atomic_store_explicit(&flag, 1, memory_order_release, memory_scope_work_group);
    } else {
        while (atomic_load_explicit(&flag, memory_order_acquire, memory_scope_work_group) == 0)
            ;
        seen[0] = payload[0];
    }
}
