// ARGS: --ir
// A switch whose cases fall through, and a goto out of a loop.
kernel void pick(global int *out, int k) {
    int v = 0;
    switch (k) {
    case 0:
        v = 10;
    case 1:
        v += 1;
        break;
    default:
        v = -1;
    }
    for (int i = 0; i < 4; i++) {
        if (out[i] == v)
            goto found;
    }
    v = 99;
found:
    out[0] = v;
}
