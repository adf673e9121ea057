// ARGS: --global 3 --local 3 --arg m=int[1]:fill=0 --sched manual --schedule 0,1,2,2
// Work-item 0's plain write is followed by work-item 1's atomic release: work-item 2 acquires
// that release, so its accesses are ordered after work-item 1's but not after work-item 0's.
// Both still race with the plain write, although an atomic write came between (the shadow
// memory keeps the plain write rather than letting the atomic one replace it).
__kernel void k(__global int *m)
{
    int gid = get_global_id(0);
    if (gid == 0) {
        m[0] = 1;
    } else if (gid == 1) {
        atomic_store_explicit((__global atomic_int *)m, 2, memory_order_release, memory_scope_device);
    } else {
        int seen = atomic_load_explicit((__global atomic_int *)m, memory_order_acquire, memory_scope_device);
        m[0] = seen + 1;
    }
}
