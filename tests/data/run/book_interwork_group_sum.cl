// ARGS: --global 64 --local 4 --arg data=int[64]:fill=1 --arg sums=int[64] --arg locks=int[16] --arg count=int[1] --seed 3 --max-steps 20000 --json
// The inter-work-group reduction from the textbook discussed in the lock seed, in our own
// words: every round, group g sums its tile and publishes the sum; group g*GROUP waits on
// lock g until the last group of its block unlocks it, then sums the published values.
// As the seed's reader suspects, the last group unlocking does not mean the others have
// published: this version is here to be examined, not trusted.
#define GROUP 4

__kernel void book_sum(__global const int *data, __global int *sums, __global int *locks, __global int *count)
{
    __local int tile[GROUP];
    int index = get_local_id(0);
    int group_index = get_group_id(0);
    int group_count = get_num_groups(0);
    tile[index] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    while (group_count >= GROUP && group_index < group_count) {
        if (index == 0) {
            if ((group_index & (GROUP - 1)) == 0)
                atomic_or(&locks[group_index / GROUP], 1);
            int s = 0;
            for (int i = 0; i < GROUP; i++)
                s += tile[i];
            sums[group_index] = s;
            if ((group_index & (GROUP - 1)) == GROUP - 1)
                atomic_xchg(&locks[group_index / GROUP], 0);
        }
        group_count /= GROUP;
        if (group_index >= group_count)
            break;
        if (index == 0) {
            int lock;
            do {
                lock = atomic_add(&locks[group_index], 0);
            } while (lock != 0);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        tile[index] = sums[group_index * GROUP + index];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (get_global_id(0) == 0)
        count[0] = group_count;
}
