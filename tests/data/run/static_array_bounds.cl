// ARGS: --global 4 --arg out=int[4] --sched round-robin --json
// Indexing an array past its declared size is reported even when the address still lands in
// the struct around it: b[2] and b[3] read the struct's other member.
typedef struct { char b[2]; short after; } Pair;

__kernel void past_the_end(__global int *out)
{
    Pair p = {{7, 8}, 0x0302};
    int i = get_global_id(0);
    out[i] = p.b[i];
}
