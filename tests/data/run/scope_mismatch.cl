// ARGS: --global 2 --local 1 --arg payload=int[1] --arg flag=int[1]:fill=0 --arg seen=int[1] --seed 4 --json
// The same message passing with the release at work-group scope: it orders nothing for the
// other group, so the acquire that reads the flag is a scope mismatch, the two atomics race
// (their scopes do not include each other) and the payload read races with its write.
__kernel void message(__global int *payload, __global atomic_int *flag, __global int *seen)
{
    if (get_group_id(0) == 0) {
        payload[0] = 42;
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_work_group);
    } else {
        while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0)
            ;
        seen[0] = payload[0];
    }
}
