// ARGS: --global 1024 --local 64 --arg out=int[16] --max-memory-bytes 1000000
// A program-scope `__local` array of 32 KiB in each of 16 work-groups is over the lowered
// memory limit: refused before launch.
__kernel void k(__global int *out)
{
    __local int tmp[8192];
    tmp[get_local_id(0)] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_group_id(0) % 16] = tmp[0];
}
