// ARGS: --global 16 --local 4 --arg product=int[1]:fill=1 --arg values=int[16]:values=1,2,1,1,3,1,1,1,1,1,2,1,1,1,1,1 --seed 5 --json
// The same product with an atomic_flag as a mutex around a plain read-modify-write: the
// flag's test-and-set acquires, its clear releases.
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
            ;
        product[0] = product[0] * mine;
        atomic_flag_clear_explicit(&lock, memory_order_release, memory_scope_device);
    }
}
