// ARGS:
// Function-like macros with #, ## and nesting; self-reference stops expanding.
#define SQUARE(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define KERNEL_NAME(stem) stem ## _kernel
#define STR(x) #x
#define idx idx
#define LOG(...) printf(__VA_ARGS__)
__kernel void KERNEL_NAME(square)(__global int *data)
{
    int idx = get_global_id(0);
    data[idx] = MAX(SQUARE(idx), SQUARE(idx + 1) - 1);
    LOG("%s %d\n", STR(a + b), idx);
}
