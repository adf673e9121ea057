// ARGS: --global 1 --arg out=int[17] --arg f=float[3]
// C99 designated initialisers, at program scope and in a function, nested (.p.b, .tag[1]),
// mixed with positional items (which continue after the last designated one), and {} for
// zero. Expected: out 1 2 | 9 0 5 6 0 | 0 3 0 8 0 | 5 7 1 5 | 4, f 1.5 2.5 0.
typedef struct { int a; int b; float c; } P;
typedef struct { P p; int tag[3]; } Q;
__constant int table[] = { [3] = 7, 1, [0] = 5 };
__constant P cp = { .c = 2.5f, .a = 4 };
__kernel void k(__global int *out, __global float *f) {
    P p = { .b = 2, .a = 1 };
    int a[6] = { [2] = 5, 6, [0] = 9 };
    Q q = { .p.b = 3, .tag[1] = 8, .p.c = 1.5f };
    int z[3] = {};
    P e = {};
    out[0] = p.a; out[1] = p.b; out[2] = a[0]; out[3] = a[1]; out[4] = a[2]; out[5] = a[3]; out[6] = a[4];
    out[7] = q.p.a; out[8] = q.p.b; out[9] = q.tag[0]; out[10] = q.tag[1]; out[11] = z[2] + e.b;
    out[12] = table[0]; out[13] = table[3]; out[14] = table[4]; out[15] = sizeof(table) / sizeof(int);
    out[16] = cp.a;
    f[0] = q.p.c; f[1] = cp.c; f[2] = p.c;
}
