// ARGS: --global 1048576 --arg out=int[16]
// A million work-items with a 16 KiB private array each would take 32 GiB of the host (each
// private byte keeps its initialisation flag): the launch is refused before anything is
// allocated, naming the memory limit; it is above the hard maximum, so it cannot be raised.
__kernel void k(__global int *out)
{
    int a[4096];
    for (int i = 0; i < 4096; i++)
        a[i] = i;
    out[get_global_id(0) % 16] = a[get_global_id(0) % 4096];
}
