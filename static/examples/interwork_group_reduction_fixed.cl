// The inter-work-group reduction of interwork_group_reduction.cl, repaired. Instead of a lock
// that the last group of a block releases, every group of a block counts itself in after
// publishing its sum, and the block's first group waits until all of them have:
//
// - the sum is published before the count: a release fence orders the store before the
//   atomic increment that announces it;
// - the first group's work-item 0 polls the count, then an acquire fence makes the
//   announced sums visible to it, and a barrier with CLK_GLOBAL_MEM_FENCE passes that on to
//   the rest of its group before anyone reads them.
//
// Both fences synchronise work-items of different groups, so both need device scope.
// mem_fence would not do: it has work-group scope (OpenCL 2.0 defines it as
// atomic_work_item_fence with memory_scope_work_group), which orders nothing across groups,
// and under the relaxed memory model the first group then adds up sums it cannot see yet.
//
// Counts never go back down, so nothing can be missed the way an early unlock was. It still
// needs every group of a round to be resident at once.
#define GROUP 4

__kernel void block_sum(__global const int *data, __global int *sums, __global int *arrived, __global int *rounds_left)
{
    __local int tile[GROUP];
    int index = get_local_id(0);
    int group_index = get_group_id(0);
    int group_count = get_num_groups(0);
    int round = 0;
    tile[index] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    while (group_count >= GROUP && group_index < group_count) {
        if (index == 0) {
            int s = 0;
            for (int i = 0; i < GROUP; i++)
                s += tile[i];
            // Each round publishes into its own region of sums, after the previous rounds.
            sums[round * 64 + group_index] = s;
            atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
            atomic_inc(&arrived[round * 16 + group_index / GROUP]);
        }
        group_count /= GROUP;
        if (group_index >= group_count)
            break;
        if (index == 0) {
            while (atomic_add(&arrived[round * 16 + group_index], 0) < GROUP)
                ;
            atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
        }
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        tile[index] = sums[round * 64 + group_index * GROUP + index];
        barrier(CLK_LOCAL_MEM_FENCE);
        round++;
    }
    if (get_global_id(0) == 0) {
        rounds_left[0] = group_count;
        sums[255] = tile[0] + tile[1] + tile[2] + tile[3];
    }
}
