// ARGS: --global 4 --local 4 --arg out=int[8] --sched round-robin
// OpenCL 2.0 program-scope variables: global by default, and pointers initialised with the
// address of another one (`&g`, an array, `&a[2]`, `a + 3`, inside a struct) or 0, which the
// launch fills in once every variable has its place. Expected: out 15 16 17 18 | 3 4 1 9.
global int g = 5;
int arr[4] = {1, 2, 3, 4};
global int *gp = &g;
constant int table[3] = {7, 8, 9};
constant int *tp = table;
global int *p2 = &arr[2];
global int *p3 = arr + 3;
global int *np = 0;
typedef struct { global int *p; int n; } Ref;
global Ref r = { &arr[1], 7 };

kernel void k(global int *out)
{
    int i = get_global_id(0);
    if (i == 0) {
        g++;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i] = *gp + arr[i] + tp[1];
    if (i == 0) {
        out[4] = *p2;
        out[5] = *p3;
        out[6] = np == 0;
        out[7] = *r.p + r.n;
    }
}
