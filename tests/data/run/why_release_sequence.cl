// ARGS: --global 3 --local 1 --arg data=int[1]:fill=0 --arg count=int[1]:fill=0 --arg out=int[1]:fill=0 --sched manual --schedule 1,1,1,2,0,0,0
// Work-item 1 publishes its data with a release fence and counts in; work-item 2 counts in
// after it, and work-item 0 reads the count from work-item 2's increment, which carries on
// work-item 1's release: the explanation follows it there and finds only the acquire missing.
kernel void counted(global int *data, global int *count, global int *out) {
    int i = get_global_id(0);
    if (i == 1) {
        data[0] = 42;
        atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
        atomic_inc(&count[0]);
    }
    if (i == 2)
        atomic_inc(&count[0]);
    if (i == 0) {
        while (atomic_add(&count[0], 0) < 2)
            ;
        out[0] = data[0];
    }
}
