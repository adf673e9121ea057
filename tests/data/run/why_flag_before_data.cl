// ARGS: --global 2 --local 1 --arg data=int[1]:fill=0 --arg flag=int[1]:fill=0 --arg out=int[1]:fill=0 --seed 2
// The writer raises the flag before it writes the data: the flag the reader waited for was
// written before that access, so it announces nothing of it.
kernel void flag_first(global int *data, global int *flag, global int *out) {
    int i = get_global_id(0);
    if (i == 1) {
        atomic_xchg(&flag[0], 1);
        data[0] = 42;
    }
    if (i == 0) {
        while (atomic_add(&flag[0], 0) == 0)
            ;
        out[0] = data[0];
    }
}
