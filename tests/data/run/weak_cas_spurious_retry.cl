// ARGS: --global 8 --local 8 --arg claims=int[8]:fill=0 --seed 448
// A weak compare-exchange retried while it fails spuriously: a retry that can still succeed is
// no livelock. At seed 448 work-item 4's first attempts fail spuriously; it must go on and
// claim its slot (claims ends 1..8), with no finding.
__kernel void retry(__global atomic_int *claims)
{
    int gid = get_global_id(0);
    int expected = 0;
    while (!atomic_compare_exchange_weak(&claims[gid], &expected, gid + 1) && expected == 0)
        ;
}
