// ARGS: --ir
// Calls of the program's own functions: scalars in registers, a struct result through a
// hidden slot in the caller's private memory.
typedef struct { int lo; int hi; } Pair;

int twice(int x) { return 2 * x; }

Pair split(int x) {
    Pair p = { x & 15, x >> 4 };
    return p;
}

kernel void calls(global int *out) {
    Pair p = split(twice(out[0]));
    out[1] = p.hi;
}
