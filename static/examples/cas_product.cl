// The product of an array with OpenCL 2.0 atomics. There is no atomic multiply, so every
// work-group multiplies its partial product into the result with a compare-exchange loop:
// read the current value, offer value * partial, and if another group changed the result
// in between, the failed exchange hands back the newer value to retry with.
// The host sets product[0] to 1 before the launch.
#define GROUP 4

__kernel void product_cas(__global atomic_int *product, __global const int *values)
{
    __local int partial[GROUP];
    int lid = get_local_id(0);
    partial[lid] = values[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int mine = 1;
        for (int i = 0; i < GROUP; i++)
            mine *= partial[i];
        int seen = atomic_load_explicit(product, memory_order_relaxed, memory_scope_device);
        while (!atomic_compare_exchange_strong_explicit(product, &seen, seen * mine,
                                                        memory_order_acq_rel, memory_order_relaxed,
                                                        memory_scope_device)) {
            // `seen` now holds what the other group stored: try again from there.
        }
    }
}
