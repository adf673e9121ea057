// ARGS: --ir
// An if/else chain: conditions branch forward over the arm not taken.
kernel void classify(global int *out, int x) {
    int r;
    if (x < 0) {
        r = -1;
    } else if (x == 0) {
        r = 0;
    } else {
        r = 1;
    }
    out[get_global_id(0)] = r;
}
