// ARGS: --ir
// `&&` and `||` evaluate their right operand only when needed; `?:` evaluates one arm.
kernel void logic(global int *out, int a, int b) {
    int both = a > 0 && b > 0;
    int either = a > 0 || out[1] > 0;
    out[0] = both ? a : b + either;
}
