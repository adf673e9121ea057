// ARGS: --global 2 --local 2 --arg flag=int[1]:fill=0 --arg x=int[1]:fill=0 --arg out=int[1]:fill=0 --memory-model relaxed --runs 300
// Under the relaxed model a relaxed load may read an older write, and next time a newer one:
// the loop below reads the flag's initial 0 after work-item 0 set it, but it is not a
// livelock, even though its state repeats at the load of `x`, which nobody writes.
__kernel void k(__global atomic_int *flag, __global atomic_int *x, __global int *out)
{
    if (get_global_id(0) == 0) {
        atomic_store_explicit(flag, 1, memory_order_relaxed, memory_scope_device);
    } else {
        while (atomic_load_explicit(x, memory_order_relaxed, memory_scope_device) == 0
               && atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device) == 0)
            ;
        out[0] = 1;
    }
}
