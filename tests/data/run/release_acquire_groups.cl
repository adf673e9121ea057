// ARGS: --global 2 --local 1 --arg payload=int[1] --arg flag=int[1]:fill=0 --arg seen=int[1] --seed 4 --json
// Message passing between two work-groups with OpenCL 2.0 atomics: group 0 writes the payload
// and sets the flag with a release store at device scope; group 1 spins on an acquire load
// and then reads the payload. The release/acquire pair orders the plain accesses: no race.
__kernel void message(__global int *payload, __global atomic_int *flag, __global int *seen)
{
    if (get_group_id(0) == 0) {
        payload[0] = 42;
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
    } else {
        while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0)
            ;
        seen[0] = payload[0];
    }
}
