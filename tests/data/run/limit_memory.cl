// ARGS: --global 4 --arg big=int[4096] --max-memory-bytes 4096
// The memory limit, lowered to 4 KiB: a 16 KiB buffer is refused before launch, and the
// message names `max_memory_bytes` and how to raise it.
__kernel void fill(__global int *big)
{
    big[get_global_id(0)] = 1;
}
