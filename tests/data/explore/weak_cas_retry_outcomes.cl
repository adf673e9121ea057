// ARGS: --global 8 --local 8 --arg claims=int[8]:fill=0 --runs 1000
// The retry loop of a weak compare-exchange always claims its slot, however often it fails
// spuriously: one outcome, claims = gid + 1, and no run cut short as a livelock (some seeds
// once were, and their unfinished buffers were listed as outcomes).
__kernel void weak_cas(__global atomic_int *claims)
{
    int gid = get_global_id(0);
    int expected = 0;
    while (!atomic_compare_exchange_weak(&claims[gid], &expected, gid + 1) && expected == 0)
        ;
}
