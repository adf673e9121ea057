// ARGS: --global 2 --arg count=int[2] --exhaustive --max-memory-bytes 2000000
// Each work-item counts up its own word a thousand times: one execution of a few thousand
// steps, each step writing, and the exhaustive search keeps a copy of the state at every step
// of the path it follows. When the states of that one path would hold more than the memory
// limit, the search stops, incomplete, with a step-limit finding that names the limit,
// instead of exhausting the host.
__kernel void count_up(__global volatile int *count)
{
    int i = get_global_id(0);
    for (int k = 0; k < 1000; k++) {
        count[i] = count[i] + 1;
    }
}
