// ARGS: --global 1024 --local 64 --arg tmp=local:65536 --arg out=int[16] --max-memory-bytes 1000000
// 64 KiB of local memory for each of 16 work-groups (each byte with its initialisation flag)
// is over the lowered memory limit: refused before launch, naming the parameter.
__kernel void k(__local int *tmp, __global int *out)
{
    tmp[get_local_id(0)] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_group_id(0) % 16] = tmp[0];
}
