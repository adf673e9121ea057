// ARGS: --global 2 --arg x=int[1] --arg orders=int[2]:values=3,2 --json
// Memory orders computed at run time are checked when they run: a release store is fine, an
// acquire store is reported (and performed as seq_cst).
__kernel void computed(__global atomic_int *x, __global const int *orders)
{
    int i = get_global_id(0);
    memory_order o = (memory_order)orders[i];
    atomic_store_explicit(x, i + 1, o, memory_scope_device);
}
