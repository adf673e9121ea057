// Why compare_exchange_weak exists, and the mistake it invites. On LL/SC hardware a weak
// exchange may fail even though the value was the expected one, so it belongs in a retry
// loop. `claims` uses it correctly; `once` calls it a single time and trusts the answer:
// under some seeds a work-item that should have claimed the slot did not.
__kernel void weak_cas(__global atomic_int *claims, __global atomic_int *once, __global int *won)
{
    int gid = get_global_id(0);
    int expected = 0;
    // Correct: retry while the failure was spurious (the value is still 0).
    while (!atomic_compare_exchange_weak(&claims[gid], &expected, gid + 1) && expected == 0)
        ;
    // Wrong: a single weak attempt on a slot nobody else touches can still fail.
    int zero = 0;
    won[gid] = atomic_compare_exchange_weak(&once[gid], &zero, 1);
}
