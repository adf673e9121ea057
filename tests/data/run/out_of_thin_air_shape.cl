// ARGS: --global 2 --local 2 --arg out=int[2] --json
// The shape of the memory-model seed's out-of-thin-air example: each work-item copies one
// atomic into the other with acquire loads and release stores. Both start at 0, so 0 is
// the only value either can ever hold; no 42 may appear from nowhere.
__kernel void copy_each_other(__global int *out)
{
    __local atomic_int x;
    __local atomic_int y;
    if (get_local_id(0) == 0) {
        atomic_init(&x, 0);
        atomic_init(&y, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int t;
    if (get_local_id(0) == 0) {
        t = atomic_load_explicit(&y, memory_order_acquire, memory_scope_work_group);
        atomic_store_explicit(&x, t, memory_order_release, memory_scope_work_group);
    } else {
        t = atomic_load_explicit(&x, memory_order_acquire, memory_scope_work_group);
        atomic_store_explicit(&y, t, memory_order_release, memory_scope_work_group);
    }
    out[get_local_id(0)] = t;
}
