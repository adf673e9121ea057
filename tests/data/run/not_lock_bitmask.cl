// ARGS: --global 4 --local 4 --arg flags=uint[1] --arg after=uint[4] --seed 1 --json
// A bitmask of flags: each work-item sets its own bit with atomic_or and clears it again with
// atomic_and. A word that gains a second bit is no lock, whoever set the first. No lock.
__kernel void bits(__global uint *flags, __global uint *after)
{
    uint mine = 1u << get_local_id(0);
    atomic_or(flags, mine);
    after[get_local_id(0)] = atomic_and(flags, ~mine);
}
