// ARGS: --global 8 --local 4 --arg busy=int[1] --arg most=int[1] --seed 4 --json
// A counter of work-items inside a section, counted up and down with atomic_inc and
// atomic_dec: it goes 0, 1, 0 (or higher), but arithmetic is no lock protocol. No lock.
__kernel void inside(__global int *busy, __global int *most)
{
    int now = atomic_inc(busy) + 1;
    atomic_max(most, now);
    atomic_dec(busy);
}
