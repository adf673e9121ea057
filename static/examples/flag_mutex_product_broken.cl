// Seed 000's atomic_flag lock, released one statement too early: the holder reads the
// product under the lock but clears the flag before storing the new value, so the next
// holder can read the old product and one of the two stores is lost.
#define GROUP 4

global atomic_flag lock = ATOMIC_FLAG_INIT;

__kernel void product_mutex_early(__global int *product, __global const int *values)
{
    __local int partial[GROUP];
    int lid = get_local_id(0);
    partial[lid] = values[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int mine = 1;
        for (int i = 0; i < GROUP; i++)
            mine *= partial[i];
        while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire, memory_scope_device))
            ; // spin until the holder clears the flag
        int seen = product[0];
        atomic_flag_clear_explicit(&lock, memory_order_release, memory_scope_device);
        product[0] = seen * mine;   // too late: the lock no longer protects this store
    }
}
