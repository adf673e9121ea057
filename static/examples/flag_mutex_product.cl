// The same product with a spin lock made of an atomic_flag: test-and-set with acquire order
// takes the lock (it returns true while someone else holds it), clear with release order
// gives it back, and between the two a plain read-modify-write is safe.
#define GROUP 4

global atomic_flag lock = ATOMIC_FLAG_INIT;

__kernel void product_mutex(__global int *product, __global const int *values)
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
        product[0] = product[0] * mine;
        atomic_flag_clear_explicit(&lock, memory_order_release, memory_scope_device);
    }
}
