// ARGS: --global 2 --arg go=int[1]:ro --arg out=int[2]
// Both work-items wait for a flag in a read-only buffer, which nothing can ever set: a
// livelock. The reads of `go` need no step of their own (nothing can write it), but a read a
// work-item spins on stays a step, so the hang detector names the livelock as it would with
// every read a step, instead of the loop running on within one step to the instruction limit.
__kernel void wait_for_go(__global const int *go, __global int *out)
{
    int i = get_global_id(0);
    out[i] = 1;
    while (go[0] == 0)
        ;
    out[i] = 2;
}
