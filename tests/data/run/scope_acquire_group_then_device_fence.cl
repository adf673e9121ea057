// ARGS: --global 2 --local 1 --arg data=int[1]:fill=0 --arg flag=int[1]:fill=0 --arg out=int[1] --seed 1
// The acquire load has work-group scope, so it does not synchronise with the other group's
// release (a scope mismatch, and the two atomics race), but the device-scope acquire fence
// after it does: an atomic read followed by an acquire fence whose scope includes the
// releaser synchronises with it, so the data read does not race.
__kernel void mp(__global int *data, __global atomic_int *flag, __global int *out)
{
    if (get_group_id(0) == 0) {
        data[0] = 42;
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    } else {
        while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group) == 0)
            ;
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
        out[0] = data[0];
    }
}
