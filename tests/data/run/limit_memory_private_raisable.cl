// ARGS: --global 256 --arg out=int[16] --max-memory-bytes 1000000
// 256 work-items with a 4 KiB private array each need more than the lowered limit of about
// 1 MB: refused before launch, with how to raise the limit.
__kernel void k(__global int *out)
{
    int a[1024];
    for (int i = 0; i < 1024; i++)
        a[i] = i;
    out[get_global_id(0) % 16] = a[get_global_id(0) % 1024];
}
