// ARGS: --global 4 --local 2 --arg data=int[4]:fill=0 --arg out=int[4] --seed 1
// Each work-item reads its neighbour's element after a barrier. Within a work-group the
// barrier orders the write before the read; work-item 1 reads work-item 2's element, which
// is in the other work-group, where no barrier reaches: the explanation says so.
kernel void neighbours(global int *data, global int *out) {
    size_t i = get_global_id(0);
    data[i] = (int)i + 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] = data[(i + 1) % 4];
}
