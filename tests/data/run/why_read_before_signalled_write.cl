// ARGS: --global 3 --local 1 --arg data=int[1]:fill=0 --arg flag=int[1]:fill=0 --arg out=int[1]:fill=0 --seed 13
// As why_signal_before_write.cl, in a schedule where work-item 0 even reads the data before
// work-item 1 writes it: the explanation says which read let it go on, and what would order it.
kernel void early(global int *data, global int *flag, global int *out) {
    int i = get_global_id(0);
    if (i == 2)
        atomic_xchg(&flag[0], 1);
    if (i == 1)
        data[0] = 42;
    if (i == 0) {
        while (atomic_add(&flag[0], 0) == 0)
            ;
        out[0] = data[0];
    }
}
