// ARGS: --global 16 --local 4 --arg product=int[1] --arg values=int[16]:values=1,2,1,1,3,1,1,1,1,1,2,1,1,1,1,1 --seed 11 --json
// Product of an array with OpenCL 2.0 atomics. There is no atomic multiply, so each group's
// first work-item multiplies its partial product in with a compare-exchange loop: read the
// current value, try to replace it with value * partial, and retry with the value the failed
// exchange wrote back into `seen` until no other group got in between.
#define GROUP 4

__kernel void product_cas(__global atomic_int *product, __global const int *values)
{
    __local int partial[GROUP];
    int lid = get_local_id(0);
    if (get_global_id(0) == 0)
        atomic_store_explicit(product, 1, memory_order_relaxed, memory_scope_device);
    partial[lid] = values[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int mine = 1;
        for (int i = 0; i < GROUP; i++)
            mine *= partial[i];
        int seen = atomic_load_explicit(product, memory_order_acquire, memory_scope_device);
        while (!atomic_compare_exchange_strong_explicit(product, &seen, seen * mine,
                                                        memory_order_acq_rel, memory_order_relaxed,
                                                        memory_scope_device)) {
            /* `seen` now holds the value another group stored; try again with it. */
        }
    }
}
