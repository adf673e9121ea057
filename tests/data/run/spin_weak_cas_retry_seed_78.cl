// ARGS: --global 8 --local 8 --arg claims=int[8]:fill=0 --arg gate=int[1]:fill=1 --arg out=int[8] --seed 78
// A weak compare-exchange that fails spuriously leaves the work-item in the state it had
// before, but the next attempt can succeed: a retry loop is not a livelock. The second loop
// also reads `gate` each time round, so its state repeats at that load too.
__kernel void retry(__global atomic_int *claims, __global atomic_int *gate, __global int *out)
{
    int gid = get_global_id(0);
    int expected = 0;
    while (!atomic_compare_exchange_weak(&claims[gid], &expected, gid + 1) && expected == 0)
        ;
    int again = gid + 1;
    while (atomic_load(gate) != 0 && !atomic_compare_exchange_weak(&claims[gid], &again, 100 + gid) && again == gid + 1)
        ;
    out[gid] = atomic_load(&claims[gid]);
}
