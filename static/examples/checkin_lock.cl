// The first work-group to take the lock keeps it until every group has checked in. With every
// group resident the others check in while it waits. With fewer resident than the launch has,
// the groups still to check in start only when a resident one finishes, and the holder waits
// for them for ever (under a progress model that swaps out stuck groups, they start).
__kernel void checkin(__global atomic_int *lock, __global atomic_int *arrived, __global int *total)
{
    atomic_fetch_add_explicit(arrived, 1, memory_order_release, memory_scope_device);
    while (atomic_exchange_explicit(lock, 1, memory_order_acquire, memory_scope_device) != 0)
        ; // spin until the holder releases it
    while (atomic_load_explicit(arrived, memory_order_acquire, memory_scope_device) < (int)get_num_groups(0))
        ; // wait, holding the lock, for every group to check in
    total[0] = total[0] + 1;
    atomic_store_explicit(lock, 0, memory_order_release, memory_scope_device);
}
