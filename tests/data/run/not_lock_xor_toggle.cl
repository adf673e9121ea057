// ARGS: --global 8 --local 4 --arg flag=int[1] --arg seen=int[8] --seed 2 --json
// A toggle: every work-item flips bit 0 with atomic_xor, so the word goes 0, 1, 0, 1. It is
// not a lock protocol (nobody tests it before setting it), so no lock and no lock-misuse.
__kernel void toggle(__global int *flag, __global int *seen)
{
    seen[get_global_id(0)] = atomic_xor(flag, 1);
}
