// ARGS: --global 2 --local 2 --arg claims=int[2]:fill=0 --arg once=int[2]:fill=0 --exhaustive
// Exhaustive exploration of a weak compare-exchange: every spurious failure is a decision, and
// one that a retry loop follows brings its work-item back where it was, which the search does
// not follow again (it would retry for ever). The exploration is complete: the loop always
// claims its slot, the single attempt may fail.
__kernel void weak_cas(__global atomic_int *claims, __global atomic_int *once)
{
    int gid = get_global_id(0);
    int expected = 0;
    while (!atomic_compare_exchange_weak(&claims[gid], &expected, gid + 1) && expected == 0)
        ;
    int zero = 0;
    atomic_compare_exchange_weak(&once[gid], &zero, 1);
}
