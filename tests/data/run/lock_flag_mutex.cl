// ARGS: --global 16 --local 4 --arg product=int[1]:fill=1 --arg values=int[16]:values=1,2,1,1,3,1,1,1,1,1,2,1,5,1,1,1 --seed 5 --json
// A mutex made of a program-scope atomic_flag: test-and-set with acquire order takes it, clear
// with release order gives it back. The report shows one lock, `lock`, taken once by each
// group's leader, with no misuse and never more than one holder.
global atomic_flag lock = ATOMIC_FLAG_INIT;

__kernel void product_mutex(__global int *product, __global const int *values)
{
    __local int partial[4];
    int lid = get_local_id(0);
    partial[lid] = values[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int mine = partial[0] * partial[1] * partial[2] * partial[3];
        while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire, memory_scope_device))
            ;
        product[0] = product[0] * mine;
        atomic_flag_clear_explicit(&lock, memory_order_release, memory_scope_device);
    }
}
