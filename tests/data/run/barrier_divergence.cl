// ARGS: --global 4 --local 4 --arg out=int[4] --json
// Only even work-items reach the barrier: the odd ones finish while the others wait.
__kernel void diverge(__global int *out)
{
    int i = get_local_id(0);
    if (i % 2 == 0) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[i] = i;
}
