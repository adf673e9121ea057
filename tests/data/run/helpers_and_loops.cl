// ARGS: --global 4 --arg out=int[4] --arg sums=long[4] --sched round-robin --json
// Helper functions, private arrays, loops, casts, the ternary operator and printf.
int square(int x) { return x * x; }

long sum_to(int n)
{
    long acc = 0;
    for (int k = 1; k <= n; k++) {
        if (k == 3) continue;
        acc += k;
    }
    return acc;
}

__kernel void mix(__global int *out, __global long *sums)
{
    int i = get_global_id(0);
    int table[4] = {3, 1, 4, 1};
    int j = 0;
    while (j < 4 && table[j] != i) j++;
    out[i] = (j < 4 ? square(table[j]) : -1) + (int)(2.75f);
    sums[i] = sum_to(i + 3);
    printf("wi %d: j=%d %s %5.2f\n", i, j, "ok", 0.5 * i);
}
