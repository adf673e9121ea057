// ARGS: --ir
// OpenCL 2.0 atomics with explicit orders and scopes, a compare-exchange that stores the
// value it found into `expected`, and a fence.
kernel void c11(global atomic_int *flag, global int *data, global int *out) {
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    int seen = atomic_load_explicit(flag, memory_order_acquire, memory_scope_work_group);
    atomic_fetch_add_explicit(flag, 2, memory_order_relaxed, memory_scope_device);
    int expected = 3;
    bool ok = atomic_compare_exchange_strong(flag, &expected, 4);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    out[0] = seen + ok + expected;
}
