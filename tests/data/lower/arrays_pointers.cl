// ARGS: --ir
// A private array (its subscripts checked against its length), pointer arithmetic and the
// distance of two pointers.
kernel void arrays(global int *out, int k) {
    int a[4] = { 1, 2, 3 };
    a[k] = 7;
    global int *p = out + 2;
    *p = a[1];
    out[1] = (int)(p - out);
}
