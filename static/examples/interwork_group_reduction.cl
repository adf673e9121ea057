// An inter-work-group reduction synchronised with lock variables, after the textbook kernel
// discussed in seed 003. Each round, every group sums its tile and publishes the sum; the
// first group of each block of GROUP groups takes that block's lock before publishing, the
// last group of the block releases it, and the first group then waits on the lock (polling
// it with atomic_add(.., 0)) before summing the block's published sums in the next round.
//
// Three things are worth watching. It relies on every work-group running at once: with
// fewer resident groups than the first round needs, group 0 polls a lock that only a group
// which cannot start will release (run it with one resident group). As the seed's reader
// suspected, the last group releasing the lock does not mean the other groups of its block
// have published yet, and only work-item 0 waits for the lock. And nothing orders the first
// group's lock against the last group's unlock: when the unlock comes first, the lock is
// taken after it and never released again (try other seeds).
#define GROUP 4

__kernel void block_sum(__global const int *data, __global int *sums, __global int *locks, __global int *rounds_left)
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
        rounds_left[0] = group_count;
}
