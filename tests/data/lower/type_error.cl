// ARGS: --ir
// With --ir, a kernel that does not compile gets the same diagnostic as without it.
kernel void bad(global int *out) {
    out[0] = undeclared + 1;
}
