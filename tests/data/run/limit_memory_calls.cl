// ARGS: --global 1024 --local 64 --arg out=int[16] --max-memory-bytes 1000000 --no-race-detection
// The launch fits, but every work-item's call of `helper` grows its private memory by 2 KiB
// (each byte with its initialisation flag): the run stops with a step-limit finding naming
// the memory limit when the growth would pass it, before allocating.
int helper(int x)
{
    int a[256];
    for (int i = 0; i < 256; i++)
        a[i] = i + x;
    return a[x % 256];
}

__kernel void k(__global int *out)
{
    out[get_global_id(0) % 16] = helper(get_global_id(0));
}
