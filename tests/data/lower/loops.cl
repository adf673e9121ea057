// ARGS: --ir
// for, while and do-while loops with break and continue.
kernel void loops(global int *out, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
        if (i == 3)
            continue;
        sum += i;
    }
    while (sum > 100) {
        sum /= 2;
        if (sum == 7)
            break;
    }
    do {
        sum--;
    } while (sum > 50);
    out[0] = sum;
}
