// ARGS: --global 4 --local 2 --arg data=int[1]:fill=0 --arg flag=int[1]:fill=0 --arg out=int[1]:fill=0 --seed 3
// Work-item 0 waits for the flag and passes a barrier with work-item 1, which reads the data:
// the explanation follows the barrier to the flag read, written before the data was.
kernel void early_mate(global int *data, global int *flag, global int *out) {
    int i = get_global_id(0);
    if (i == 3)
        atomic_xchg(&flag[0], 1);
    if (i == 2)
        data[0] = 42;
    if (i == 0)
        while (atomic_add(&flag[0], 0) == 0)
            ;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (i == 1)
        out[0] = data[0];
}
