// ARGS: --ir
// printf: the format string and how each argument is read.
kernel void hello(global int *data) {
    size_t i = get_global_id(0);
    printf("item %d of %s: %f\n", (int)i, "data", (float)data[i]);
}
